// Fuzz target: the admin API's requests (server/admin/admin_request.hpp) as the
// server reads them once the bearer token is right: method, path and body.
// Input: byte 0 the method (GET, POST, DELETE, PUT, HEAD), then the path up to
// the first '\n' ("/admin/" put in front when missing), then the body.
//   - a refusal has a status of 400, 404 or 405, a code and a message; a 405
//     names the methods the path takes;
//   - an accepted request is one of the routes, with what it needs: a table id
//     of 1 to 32 of [A-Za-z0-9_-], a player id "p" and 16 hex digits, a reason
//     of at most 200 code points and a broadcast of 1 to 500, each valid UTF-8
//     with no control character and no space at either end; a rule set's name
//     of 1 to 32 of [a-z0-9-] (not first), with its label as sent and its
//     ruleset as JSON text of an object; a body only for POST and PUT, and
//     never over 4096 bytes;
//   - the same request reads the same twice.
// Any violation aborts; so does an exception.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/unicode_text.hpp"
#include "server/admin/admin_request.hpp"

using namespace sparts;
using namespace sparts::server;
namespace http = boost::beast::http;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "admin_request fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()), detail.data());
    std::abort();
}

bool table_id(std::string_view s) {
    return !s.empty() && s.size() <= 32 && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    });
}

bool player_id(std::string_view s) {
    return s.size() == 17 && s[0] == 'p' &&
           std::all_of(s.begin() + 1, s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

void check_text(std::string_view text, std::size_t max, bool may_be_empty) {
    std::vector<long> cs;
    for (std::size_t i = 0; i < text.size();) {
        const long c = next_code_point(text, i);
        if (c < 0) fail("operator text that is not UTF-8", text);
        if (is_control_character(c)) fail("operator text with a control character", text);
        cs.push_back(c);
    }
    if (cs.empty() && !may_be_empty) fail("operator text that is empty");
    if (cs.size() > max) fail("operator text over its length", text);
    if (!cs.empty() && (is_space_character(cs.front()) || is_space_character(cs.back())))
        fail("operator text with a space at an end", text);
}

bool rule_set_name(std::string_view s) {
    return !s.empty() && s.size() <= 32 && s.front() != '-' && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-';
    });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static constexpr http::verb kMethods[] = {http::verb::get, http::verb::post, http::verb::delete_, http::verb::put,
                                              http::verb::head};
    const http::verb method = kMethods[data[0] % 5];
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    const auto cut = rest.find('\n');
    std::string path(rest.substr(0, cut));
    const std::string_view body = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
    if (path.rfind("/admin/", 0) != 0) path = "/admin/" + path;
    const auto r = read_admin_request(method, path, body);
    const auto again = read_admin_request(method, path, body);
    if (bool(r) != bool(again)) fail("two readings differ", path);
    if (!r) {
        const AdminRefusal& e = r.error();
        if (e.status != http::status::bad_request && e.status != http::status::not_found &&
            e.status != http::status::method_not_allowed)
            fail("a refusal of an unexpected status", e.code);
        if (e.code.empty() || e.message.empty()) fail("a refusal without a code or a message", path);
        if ((e.status == http::status::method_not_allowed) != !e.allow.empty()) fail("Allow goes with 405 only", e.code);
        if (e.code != again.error().code || e.message != again.error().message) fail("two refusals differ", e.code);
        return 0;
    }
    if (body.size() > kMaxAdminBodyBytes) fail("a body over the bound was taken", path);
    if (method != http::verb::post && method != http::verb::put && !body.empty())
        fail("a body taken with a method other than POST or PUT", path);
    const AdminRequest& q = *r;
    switch (q.action) {
        case AdminAction::list_tables:
        case AdminAction::list_connections:
        case AdminAction::list_bans:
        case AdminAction::list_backups:
        case AdminAction::list_retirements:
        case AdminAction::list_rule_sets:
            if (method != http::verb::get) fail("a list with a method other than GET", path);
            break;
        case AdminAction::backup:
            // The server names the file: nothing of the request reaches it.
            if (method != http::verb::post) fail("a backup with a method other than POST", path);
            if (!q.table.empty() || !q.player.empty() || !q.reason.empty() || !q.text.empty())
                fail("a backup took something from its request", path);
            break;
        case AdminAction::retire:
            // The server names the file and the age is its setting: nothing of the request reaches it.
            if (method != http::verb::post) fail("a retirement with a method other than POST", path);
            if (!q.table.empty() || !q.player.empty() || !q.reason.empty() || !q.text.empty())
                fail("a retirement took something from its request", path);
            break;
        case AdminAction::close_table:
            if (!table_id(q.table)) fail("a close of a table id that is none", q.table);
            break;
        case AdminAction::remove_player:
            if (!table_id(q.table) || !player_id(q.player)) fail("a removal without its ids", path);
            break;
        case AdminAction::ban:
            if (!player_id(q.player)) fail("a ban without a player id", q.player);
            check_text(q.reason, kMaxBanReasonLength, true);
            break;
        case AdminAction::unban:
            if (!player_id(q.player)) fail("an unban without a player id", q.player);
            break;
        case AdminAction::broadcast:
            check_text(q.text, kMaxAnnouncementLength, false);
            break;
        case AdminAction::put_rule_set:
            if (method != http::verb::put || !rule_set_name(q.rule_set)) fail("a rule set put without its name", path);
            if (q.ruleset.empty() || q.ruleset.front() != '{' || q.ruleset.back() != '}')
                fail("a rule set put without a ruleset object", q.ruleset);
            break;
        case AdminAction::remove_rule_set:
            if (method != http::verb::delete_ || !rule_set_name(q.rule_set)) fail("a rule set removal without its name", path);
            if (!body.empty()) fail("a rule set removal took a body", path);
            break;
    }
    return 0;
}
