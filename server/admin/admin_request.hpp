// What an admin API request asks (admin_api.hpp), read from its method, path
// and body alone: no server state, so that every byte an operator (or someone
// who has the token) can send is parsed in one pure function, fuzzed
// (fuzz/admin_request.cpp) and tested without a server.
//
// Routes: GET /admin/tables, GET /admin/connections,
// POST /admin/tables/{table}/close (no body or {}),
// POST /admin/tables/{table}/remove {"player"}, GET /admin/bans,
// POST /admin/bans {"player", "reason"?}, DELETE /admin/bans/{player},
// POST /admin/broadcast {"text"}, POST /admin/backups (no body or {}),
// GET /admin/backups, GET /admin/rule-sets, PUT /admin/rule-sets/{name}
// {"label", "ruleset"}, DELETE /admin/rule-sets/{name}. Bodies: at most kMaxAdminBodyBytes, a JSON
// object with only its route's members (none but POST's and PUT's); a player id is "p"
// and 16 hex digits, a table id 1 to 32 of [A-Za-z0-9_-]; an operator's text
// (a ban's reason, a broadcast) valid UTF-8 without control characters, cut of
// the spaces at either end, within its length, and showing something (a reason
// may be empty).
#pragma once
#include <cstddef>
#include <ostream>  // Beast's status and verb headers print with it, and do not include it
#include <string>
#include <string_view>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
#include "protocol/outcome.hpp"
#include "server/base/admin_action.hpp"

namespace sparts::server {

inline constexpr std::size_t kMaxAdminBodyBytes = 4096;
inline constexpr std::size_t kMaxAnnouncementLength = 500;  // code points
inline constexpr std::size_t kMaxBanReasonLength = 200;     // code points

struct AdminRequest {
    AdminAction action = AdminAction::list_tables;
    std::string table;   // close_table, remove_player
    std::string player;  // remove_player, ban, unban
    std::string reason;  // ban
    std::string text;    // broadcast
    std::string rule_set;  // put_rule_set, remove_rule_set: its name
    std::string label;     // put_rule_set: as sent (table/rule_sets.cpp checks it with the rest)
    std::string ruleset;   // put_rule_set: the ruleset's JSON text, as sent
};

// Why a request is refused before it reaches the server: the answer's status, its error code and message, and
// for a 405 the methods the path takes.
struct AdminRefusal {
    boost::beast::http::status status = boost::beast::http::status::bad_request;
    std::string code;
    std::string message;
    std::string allow;
};

// `path` without its query (the API takes none).
Outcome<AdminRequest, AdminRefusal> read_admin_request(boost::beast::http::verb method, std::string_view path,
                                                       std::string_view body);


}  // namespace sparts::server
