// What the server sends, as text: replies to requests (`ok`, `error`) and the
// frames a table streams (`event`, `snapshot`). Each is serialized once and
// shared by every connection it goes to.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <nlohmann/json.hpp>
#include "protocol/request.hpp"

namespace sparts {

// {"type":"ok","re":"sit","id":7, ...fields}
std::string ok_reply(const RequestId& id, std::string_view re, nlohmann::json fields = nlohmann::json::object());
// {"type":"error","re":"act","id":7,"code":"not_your_turn","message":"...","field":"action.card"}
// `re` and `field` are left out when empty.
std::string error_reply(const RequestId& id, std::string_view re, std::string_view code, std::string_view message,
                        std::string_view field = {});
std::string error_reply(const RequestError& error);
// {"type":"event","table":"t1","seq":17,"event":{...}}
std::string event_frame(std::string_view table, std::uint64_t seq, const nlohmann::json& event);
// The same around an event already serialized (`body`), as a table renders each once.
std::string event_frame_around(std::string_view table, std::uint64_t seq, std::string_view body);

}  // namespace sparts
