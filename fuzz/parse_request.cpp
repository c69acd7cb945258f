// Fuzz target: the WebSocket request parser, parse_request (protocol/request.hpp),
// and the reply the server sends for what it parsed (server/net/session.cpp):
//   - a frame that is not a request gives a RequestError whose error_reply is
//     valid JSON naming the same code and id (bad bytes echoed from the frame
//     into a message must not make nlohmann's dump() throw);
//   - a request's ok reply is valid JSON; an action or a ruleset it carries
//     renders to JSON that parses back to the same action or ruleset.
// Any violation aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "protocol/action_json.hpp"
#include "protocol/reply.hpp"
#include "protocol/request.hpp"
#include "protocol/ruleset_json.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "parse_request fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()), detail.data());
    std::abort();
}

// The reply as a client reads it: valid JSON, an object of the given type.
json read_reply(const std::string& text, const char* type) {
    json reply = json::parse(text, nullptr, false);
    if (reply.is_discarded()) fail("a reply is not valid JSON", text);
    if (!reply.is_object() || reply.value("type", "") != type) fail("a reply is not of its type", text);
    return reply;
}

void check_id(const json& reply, const RequestId& id, const std::string& text) {
    if (id ? !reply.contains("id") || reply.at("id") != *id : reply.contains("id")) fail("a reply does not carry the request's id", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = parse_request(text);
    if (!parsed) {
        const RequestError& e = parsed.error();
        if (e.code.empty() || e.error.message().empty()) fail("an error with no code or message", text);
        const std::string reply_text = error_reply(e);
        const json reply = read_reply(reply_text, "error");
        if (reply.value("code", "") != e.code) fail("the error reply's code differs", reply_text);
        if (!reply.contains("message") || !reply.at("message").is_string()) fail("the error reply has no message", reply_text);
        check_id(reply, e.id, reply_text);
        return 0;
    }
    const Request& r = *parsed;
    const std::string reply_text = ok_reply(r.id, request_type(r.body));
    check_id(read_reply(reply_text, "ok"), r.id, reply_text);
    if (const auto* act = std::get_if<Act>(&r.body)) {
        const json j = to_json(act->action);
        const auto again = action_from_json(j);
        if (!again || !(*again == act->action)) fail("an action does not survive to_json and back", j.dump());
    }
    if (const auto* create = std::get_if<CreateTable>(&r.body)) {
        const json j = to_json(create->rules);
        const auto again = ruleset_from_json(j);
        if (!again || to_json(*again) != j) fail("a ruleset does not survive to_json and back", j.dump());
    }
    return 0;
}
