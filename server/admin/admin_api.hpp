// The admin API: HTTP under /admin/, for the server's operator, behind the
// bearer token of --admin-token-file (admin_token.hpp). Without that setting
// there is none: its paths are unknown paths like any other. Never on the
// WebSocket.
//
//   GET    /admin/tables                 every open table of this server: seats (holder, bot,
//                                        connected), spectators, game number, state
//   GET    /admin/connections            every WebSocket connection: player, address, tables, since
//   POST   /admin/tables/{table}/close   closes it: its clients get table_closed, reason closed_by_admin
//   POST   /admin/tables/{table}/remove  {"player": id}: the player loses the seat (a bot takes it
//                                        mid-game) and may not sit there again while it is open
//   GET    /admin/bans                   every ban
//   POST   /admin/bans                   {"player": id, "reason": "..."}: its hellos are refused
//                                        (banned), its connections closed (closing banned, 4006)
//   DELETE /admin/bans/{player}          lifts the ban
//   POST   /admin/broadcast              {"text": "..."}: an `announcement` to every connection
//                                        that has said hello
//   POST   /admin/backups                starts a backup of the database into --backup-dir
//                                        (backups.hpp): {"backup": file, "running": true}, or 409
//                                        backup_running, backups_off (no --backup-dir)
//   GET    /admin/backups                {"running", "dir", "keep", "last", "files"}
//   GET    /admin/rule-sets              {"rule_sets": [{name, label, ruleset, games}], "file"}
//   PUT    /admin/rule-sets/{name}       {"label", "ruleset"}: added, or replaced in its place,
//                                        saved to the --rule-sets file first (409 without one)
//   DELETE /admin/rule-sets/{name}       removed, saved first
//
// Every request is answered JSON; errors as the archive's, {"error", "message"}.
// Order of the checks: an address past --admin-auth-failures-per-minute wrong
// or missing tokens gets 429 (the token is not even looked at, so it cannot be
// guessed by trying); a wrong or missing token gets 401 with
// `WWW-Authenticate: Bearer` and counts as a failure; then the path (404), the
// method (405 with Allow), the body (400: over 4 KiB, not JSON, a member
// missing, unknown or of the wrong kind; a body where none is taken), then the
// action. A request refused changes nothing.
//
// Each action runs where its state lives: a table's on the table's strand, the
// bans on the lobby's strand (and in the store), a connection's on its own
// strand; answers gathered from many strands are put together when the last
// arrives. Each is logged (action, target, client address; never the token)
// and counted (sparts_admin_actions_total{action=...}). With many nodes, each
// node answers for its own tables and connections; bans are stored in the
// shared database but each node reads them at its start.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <boost/beast/http.hpp>
#include "server/base/address_rate.hpp"
#include "server/admin/admin_request.hpp"
#include "server/admin/admin_token.hpp"
#include "server/net/routes.hpp"

namespace sparts::server {

struct Hub;


using AdminAnswer = HttpAnswer;  // net/routes.hpp

class AdminApi {
public:
    using Request = boost::beast::http::request<boost::beast::http::string_body>;

    AdminApi(Hub& hub, AdminToken token);

    // Whether a request's path (without its query) is the admin API's.
    static bool is_admin_path(std::string_view path);

    // Answers `req` (an admin path) from `client` (its address key): `respond` runs once, on
    // whichever thread finished the work.
    void handle(const Request& req, const std::string& client, std::function<void(AdminAnswer)> respond);

private:
    Hub& hub_;
    const AdminToken token_;
    AddressRate failures_;  // wrong or missing tokens, per address
};

}  // namespace sparts::server
