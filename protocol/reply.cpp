#include "protocol/reply.hpp"
#include "protocol/json_text.hpp"

namespace sparts {

using nlohmann::json;

std::string ok_reply(const RequestId& id, std::string_view re, json fields) {
    json j = {{"type", "ok"}, {"re", re}};
    if (id) j["id"] = *id;
    for (auto& [k, v] : fields.items()) j[k] = std::move(v);
    return dump_text(j);
}

std::string error_reply(const RequestId& id, std::string_view re, std::string_view code, std::string_view message,
                        std::string_view field) {
    json j = {{"type", "error"}, {"code", code}, {"message", message}};
    if (!re.empty()) j["re"] = re;
    if (id) j["id"] = *id;
    if (!field.empty()) j["field"] = field;
    // Messages may quote what a client sent; replace rather than throw on bad UTF-8.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string error_reply(const RequestError& e) {
    return error_reply(e.id, e.type, e.code, e.error.message(), e.error.field);
}

std::string event_frame_around(std::string_view table, std::uint64_t seq, std::string_view body) {
    // Built by hand: this is the hot path of every card play, and the table
    // id is ours (no escaping needed).
    std::string s;
    s.reserve(40 + table.size() + body.size());
    s += R"({"type":"event","table":")";
    s += table;
    s += R"(","seq":)";
    s += std::to_string(seq);
    s += R"(,"event":)";
    s += body;
    s += '}';
    return s;
}

std::string event_frame(std::string_view table, std::uint64_t seq, const json& event) {
    return event_frame_around(table, seq, dump_text(event));
}

}  // namespace sparts
