// Fuzz target: the HTTP archive API's target and query parsing, archive_api
// (server/archive/archive_api.hpp), over an in-memory store of three finished games
// (fuzz/fake_store.hpp), so that the list, game and record paths all run. The
// input is the request target ("/api/" is put in front of one that lacks it).
//   - every answer's body is valid JSON (parsed back);
//   - an error names a code and a message;
//   - a list names only stored games; a game holds all of its stored events;
//   - a leaderboard page (/api/leaderboard/{preset}) has its preset, players
//     (each with an id, a name and a rank) and next_cursor; a player's page
//     (/api/players/{id}) its id, name and ratings;
//   - a record download parses as a game record and replays to the result it
//     records, as `sparts verify` checks it.
// Any violation aborts; so does an exception out of archive_api (the server
// would lose the connection's thread to it).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz/fake_store.hpp"
#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"
#include "server/archive/archive_api.hpp"

using namespace sparts;
using nlohmann::json;
namespace http = boost::beast::http;

namespace {

[[noreturn]] void fail(const char* what, std::string_view target, std::string_view body = {}) {
    std::fprintf(stderr, "archive_api fuzz target: %s\n  target: %.*s\n  body: %.*s\n", what,
                 static_cast<int>(target.size()), target.data(), static_cast<int>(body.size()), body.data());
    std::abort();
}

fuzz::FakeStore& store() {
    static fuzz::FakeStore s;
    return s;
}

bool stored(const std::string& table, int game) {
    for (const auto& g : store().games())
        if (g.summary.table == table && g.summary.game == game) return true;
    return false;
}

// The member `key` of `j`, when `j` is an object that has it.
const json* member(const json& j, const char* key) {
    if (!j.is_object()) return nullptr;
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

bool is_string(const json& j, const char* key) {
    const json* m = member(j, key);
    return m && m->is_string();
}

void check(std::string_view target, const server::ApiResponse& r) {
    const json body = json::parse(r.body, nullptr, false);
    if (body.is_discarded()) fail("the body is not valid JSON", target, r.body);
    if (r.status != http::status::ok) {
        if (!is_string(body, "error") || !is_string(body, "message"))
            fail("an error without a code and a message", target, r.body);
        return;
    }
    if (!r.content_disposition.empty()) {  // a record download
        const auto record = parse_game_record(r.body);
        if (!record) fail("a downloaded record does not parse", target, record.error().message());
        if (!record->result) fail("a downloaded record has no result", target, r.body);
        if (const auto replayed = replay(*record); !replayed) fail("a downloaded record does not verify", target, replayed.error().message);
        return;
    }
    if (const json* games = member(body, "games")) {  // a list
        if (!games->is_array() || !member(body, "next_cursor")) fail("a list without games or next_cursor", target, r.body);
        for (const json& g : *games) {
            const json* game = member(g, "game");
            if (!is_string(g, "table") || !game || !game->is_number_integer() ||
                !stored(g.at("table").get<std::string>(), game->get<int>()))
                fail("a list names a game the store does not hold", target, r.body);
        }
        return;
    }
    // The ratings' pages, by their paths (a game has "players" too).
    const std::string_view path = target.substr(0, target.find('?'));
    if (path.starts_with("/api/leaderboard/")) {
        const json* players = member(body, "players");
        if (!is_string(body, "preset") || !players || !players->is_array() || !member(body, "next_cursor"))
            fail("a leaderboard without its preset, players or next_cursor", target, r.body);
        for (const json& p : *players)
            if (!is_string(p, "player") || !is_string(p, "name") || !member(p, "rank"))
                fail("a leaderboard's player without its id, name or rank", target, r.body);
        return;
    }
    if (path.starts_with("/api/players/")) {
        const json* ratings = member(body, "ratings");
        if (!is_string(body, "player") || !is_string(body, "name") || !ratings || !ratings->is_array())
            fail("a player's page without its id, name or ratings", target, r.body);
        return;
    }
    const json* table = member(body, "table");
    const json* number = member(body, "game");
    const json* events = member(body, "events");
    if (!table || !table->is_string() || !number || !number->is_number_integer())
        fail("a game without its table and number", target, r.body);
    const auto game = store().load_game(table->get<std::string>(), number->get<int>());
    if (!game) fail("a game the store does not hold", target, r.body);
    if (!events || !events->is_array() || events->size() != game->events.size())
        fail("a game without all of its events", target, r.body);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    store();  // plays the games once, before the first input
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string target(reinterpret_cast<const char*>(data), size);
    if (!target.starts_with("/api/")) target.insert(0, "/api/");
    check(target, server::archive_api(target, &store()));
    check(target, server::archive_api(target, nullptr));
    return 0;
}
