#include "server/admin/admin_request.hpp"
#include "server/base/http_text.hpp"
#include "server/base/ids.hpp"

#include <algorithm>
#include <vector>
#include <nlohmann/json.hpp>
#include "protocol/json_text.hpp"
#include "protocol/unicode_text.hpp"

namespace sparts::server {

namespace http = boost::beast::http;
using nlohmann::json;

namespace {

AdminRefusal refusal(http::status status, std::string code, std::string message) {
    return {status, std::move(code), std::move(message), {}};
}

std::vector<std::string_view> segments(std::string_view path) {
    std::vector<std::string_view> out;
    std::size_t start = 1;  // after the leading '/'
    while (start <= path.size()) {
        const std::size_t slash = std::min(path.find('/', start), path.size());
        out.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return out;
}

// Text an operator writes for players to read (a broadcast, a ban's reason): shown as plain
// text, refused rather than cleaned as the table chat's is. Valid UTF-8 (the JSON parser has
// checked it), no control character (line breaks included: they could reorder or hide what
// is around it), cut of the white space at either end, at most `max` code points; something
// that shows unless `may_be_empty`. The text, or what is wrong.
struct TextProblem {
    std::string what;
};
Outcome<std::string, TextProblem> operator_text(std::string_view raw, std::size_t max, bool may_be_empty) {
    struct Point {
        std::size_t at, end;
        long c;
    };
    std::vector<Point> points;
    for (std::size_t i = 0; i < raw.size();) {
        const std::size_t at = i;
        const long c = next_code_point(raw, i);
        if (c < 0) return TextProblem{"is not UTF-8"};
        if (is_control_character(c)) return TextProblem{"holds a control character (a line break, a tab, ...)"};
        points.push_back({at, i, c});
    }
    std::size_t b = 0, e = points.size();
    while (b < e && is_space_character(points[b].c)) ++b;
    while (e > b && is_space_character(points[e - 1].c)) --e;
    const bool shows =
        std::any_of(points.begin() + static_cast<std::ptrdiff_t>(b), points.begin() + static_cast<std::ptrdiff_t>(e),
                    [](const Point& p) { return !is_invisible_character(p.c); });
    if (!shows) {
        if (may_be_empty) return std::string();
        return TextProblem{"shows nothing"};
    }
    if (e - b > max) return TextProblem{"is longer than " + std::to_string(max) + " characters"};
    return std::string(raw.substr(points[b].at, points[e - 1].end - points[b].at));
}

// The body as a JSON object with only `allowed` members, or why not.
Outcome<json, AdminRefusal> object_body(std::string_view body, std::initializer_list<std::string_view> allowed) {
    auto parsed = parse_json_text(body);
    if (!parsed)
        return refusal(http::status::bad_request, "bad_json", "the body is not JSON: " + parsed.error().message());
    if (!parsed->is_object()) return refusal(http::status::bad_request, "bad_body", "the body must be a JSON object");
    for (const auto& [key, value] : parsed->items())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            return refusal(http::status::bad_request, "bad_body", "unknown member \"" + shown(key, 80) + "\"");
    return std::move(*parsed);
}

// The member "player" of `doc`, a player id, or the refusal.
Outcome<std::string, AdminRefusal> player_member(const json& doc) {
    const auto player = doc.find("player");
    if (player == doc.end() || !player->is_string() || !is_player_id(player->get_ref<const std::string&>()))
        return refusal(http::status::bad_request, "bad_body", "\"player\" must be a player id, \"p\" and 16 hex digits");
    return player->get<std::string>();
}

AdminRefusal no_such_table(std::string_view table) {
    return refusal(http::status::not_found, "no_such_table", "no open table \"" + shown(table, 80) + "\" on this server");
}

}  // namespace

Outcome<AdminRequest, AdminRefusal> read_admin_request(http::verb method, std::string_view path, std::string_view body) {
    const std::string what = std::string(http::to_string(method)) + " " + shown(path, 80);
    const auto parts = segments(path);
    // Each route: its segments ("*" a parameter), its method and its action.
    struct Route {
        std::vector<std::string_view> pattern;
        http::verb method;
        AdminAction action;
    };
    static const std::vector<Route> routes = {
        {{"admin", "tables"}, http::verb::get, AdminAction::list_tables},
        {{"admin", "connections"}, http::verb::get, AdminAction::list_connections},
        {{"admin", "tables", "*", "close"}, http::verb::post, AdminAction::close_table},
        {{"admin", "tables", "*", "remove"}, http::verb::post, AdminAction::remove_player},
        {{"admin", "bans"}, http::verb::get, AdminAction::list_bans},
        {{"admin", "bans"}, http::verb::post, AdminAction::ban},
        {{"admin", "bans", "*"}, http::verb::delete_, AdminAction::unban},
        {{"admin", "broadcast"}, http::verb::post, AdminAction::broadcast},
        {{"admin", "backups"}, http::verb::post, AdminAction::backup},
        {{"admin", "backups"}, http::verb::get, AdminAction::list_backups},
        {{"admin", "rule-sets"}, http::verb::get, AdminAction::list_rule_sets},
        {{"admin", "rule-sets", "*"}, http::verb::put, AdminAction::put_rule_set},
        {{"admin", "rule-sets", "*"}, http::verb::delete_, AdminAction::remove_rule_set},
        {{"admin", "retirements"}, http::verb::post, AdminAction::retire},
        {{"admin", "retirements"}, http::verb::get, AdminAction::list_retirements},
    };
    std::string allow;
    for (const Route& r : routes) {
        if (r.pattern.size() != parts.size()) continue;
        bool match = true;
        for (std::size_t i = 0; i < parts.size() && match; ++i)
            match = r.pattern[i] == "*" ? !parts[i].empty() : r.pattern[i] == parts[i];
        if (!match) continue;
        if (r.method != method) {
            allow += (allow.empty() ? "" : ", ") + std::string(http::to_string(r.method));
            continue;
        }
        if (body.size() > kMaxAdminBodyBytes)
            return refusal(http::status::bad_request, "body_too_large",
                           "the body is over " + std::to_string(kMaxAdminBodyBytes) + " bytes");
        if (method != http::verb::post && method != http::verb::put && !body.empty())
            return refusal(http::status::bad_request, "bad_body", what + " takes no body");
        AdminRequest request;
        request.action = r.action;
        switch (r.action) {
            case AdminAction::list_tables:
            case AdminAction::list_connections:
            case AdminAction::list_backups:
            case AdminAction::list_retirements:
            case AdminAction::list_rule_sets:
            case AdminAction::list_bans: break;
            case AdminAction::backup:
            case AdminAction::retire:
                // No body, or an empty object: the server names the file (the folder is its setting).
                if (!body.empty())
                    if (auto doc = object_body(body, {}); !doc) return doc.error();
                break;
            case AdminAction::close_table: {
                // No body, or an empty object (what a client that always sends JSON sends).
                if (!body.empty())
                    if (auto doc = object_body(body, {}); !doc) return doc.error();
                if (!is_table_id(parts[2])) return no_such_table(parts[2]);
                request.table = std::string(parts[2]);
                break;
            }
            case AdminAction::remove_player: {
                auto doc = object_body(body, {"player"});
                if (!doc) return doc.error();
                auto player = player_member(*doc);
                if (!player) return player.error();
                if (!is_table_id(parts[2])) return no_such_table(parts[2]);
                request.table = std::string(parts[2]);
                request.player = std::move(*player);
                break;
            }
            case AdminAction::ban: {
                auto doc = object_body(body, {"player", "reason"});
                if (!doc) return doc.error();
                auto player = player_member(*doc);
                if (!player) return player.error();
                request.player = std::move(*player);
                if (const auto r2 = doc->find("reason"); r2 != doc->end()) {
                    if (!r2->is_string()) return refusal(http::status::bad_request, "bad_body", "\"reason\" must be a string");
                    auto text = operator_text(r2->get_ref<const std::string&>(), kMaxBanReasonLength, true);
                    if (!text) return refusal(http::status::bad_request, "bad_body", "\"reason\" " + text.error().what);
                    request.reason = std::move(*text);
                }
                break;
            }
            case AdminAction::unban: {
                if (!is_player_id(parts[2]))
                    return refusal(http::status::not_found, "not_banned", "\"" + shown(parts[2], 80) + "\" is not a banned player");
                request.player = std::string(parts[2]);
                break;
            }
            case AdminAction::put_rule_set: {
                if (!is_rule_set_name(parts[2]))
                    return refusal(http::status::bad_request, "bad_rule_set",
                                   "a rule set's name is 1 to 32 of a-z, 0-9 and '-' (not first), like \"street-spades\"");
                auto doc = object_body(body, {"label", "ruleset"});
                if (!doc) return doc.error();
                const auto label = doc->find("label");
                if (label == doc->end() || !label->is_string())
                    return refusal(http::status::bad_request, "bad_body", "\"label\" must be a string");
                const auto rules = doc->find("ruleset");
                if (rules == doc->end() || !rules->is_object())
                    return refusal(http::status::bad_request, "bad_body",
                                   "\"ruleset\" must be an object like {\"preset\": \"spades\", \"options\": {}}");
                request.rule_set = std::string(parts[2]);
                request.label = label->get<std::string>();
                request.ruleset = dump_text(*rules);
                break;
            }
            case AdminAction::remove_rule_set: {
                if (!is_rule_set_name(parts[2]))
                    return refusal(http::status::not_found, "no_such_rule_set", "no rule set \"" + shown(parts[2], 80) + "\"");
                request.rule_set = std::string(parts[2]);
                break;
            }
            case AdminAction::broadcast: {
                auto doc = object_body(body, {"text"});
                if (!doc) return doc.error();
                const auto raw = doc->find("text");
                if (raw == doc->end() || !raw->is_string())
                    return refusal(http::status::bad_request, "bad_body", "\"text\" must be a string");
                auto text = operator_text(raw->get_ref<const std::string&>(), kMaxAnnouncementLength, false);
                if (!text) return refusal(http::status::bad_request, "bad_body", "\"text\" " + text.error().what);
                request.text = std::move(*text);
                break;
            }
        }
        return request;
    }
    if (!allow.empty()) {
        AdminRefusal r = refusal(http::status::method_not_allowed, "method_not_allowed", what + ": allowed: " + allow);
        r.allow = allow;
        return r;
    }
    return refusal(http::status::not_found, "not_found", "no admin endpoint " + what);
}

}  // namespace sparts::server
