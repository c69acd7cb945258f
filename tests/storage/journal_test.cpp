#include <doctest/doctest.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <atomic>
#include "storage/sqlite/schema.hpp"
#include "storage/sqlite/sqlite_store.hpp"
#include "storage/played_game.hpp"
#include "storage/temp_file.hpp"

using namespace sparts::storage;
using sparts::test::PlayedGame;
using sparts::test::TempDatabase;
using sparts::test::check_same_actions;
using sparts::test::check_same_events;
using sparts::test::play_game;

namespace journal_test {

std::unique_ptr<SqliteStore> open_store(const std::string& path, SqliteOptions options = {}) {
    auto s = SqliteStore::open(path, options);
    REQUIRE_MESSAGE(s, (s ? "" : s.error()));
    return std::move(*s);
}

void commit_all(Store& store, Batch batch) {
    store.submit(std::move(batch), nullptr);
    REQUIRE(store.flush(std::chrono::seconds(60)));
}

Batch opened(const std::string& id, int number) {
    return {OpenTable{id, number, R"({"preset":"spades","options":{}})", "spades", 4, false, "", 0, "p1", 1000},
            PutSeat{id, 0, "p1", "Ann", false, ""}};
}

int journal_rows(const std::string& path) {
    SQLite::Database db(path, SQLite::OPEN_READONLY);
    return db.execAndGet("SELECT COUNT(*) FROM journal").getInt();
}

}  // namespace journal_test

using namespace journal_test;

TEST_CASE("a finished game is one record row, and the journal is cut back to what open tables still need") {
    TempDatabase db("journal-clean");
    SqliteOptions options;
    options.journal_clean_rows = 500;
    options.journal_clean_step = 256;
    constexpr int kTables = 12;
    std::vector<PlayedGame> finished;
    std::vector<PlayedGame> playing;
    {
        auto store = open_store(db.path(), options);
        for (int t = 0; t < kTables; ++t) commit_all(*store, opened("t" + std::to_string(t), t + 1));
        // Every table plays a whole game and then starts a second, left half played; their steps interleave.
        for (int t = 0; t < kTables; ++t) {
            const std::string id = "t" + std::to_string(t);
            finished.push_back(play_game(id, 1, 100 + t, 0, 10'000));
            playing.push_back(play_game(id, 2, 200 + t, finished.back().last_seq, 90'000, 30 + 7 * t));
        }
        std::size_t longest = 0;
        for (const auto& g : finished) longest = std::max(longest, g.writes.size());
        for (std::size_t i = 0; i < longest; ++i)
            for (const auto& g : finished)
                if (i < g.writes.size()) store->submit({g.writes[i]}, nullptr);
        for (const auto& g : playing) store->submit(g.writes, nullptr);
        REQUIRE(store->flush(std::chrono::seconds(60)));
        // The cleaning runs between commits and when the writer is idle (once a second).
        std::uint64_t live = 0;
        for (const auto& g : playing) live += g.writes.size() - 1;  // the StartGame is no journal row
        for (int i = 0; i < 100 && journal_rows(db.path()) > static_cast<int>(std::max<std::uint64_t>(2 * (live + kTables), 500)); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const auto stats = store->stats();
        CHECK(stats.journal_cleanings > 0);
        CHECK(stats.journal_rows_removed > 0);
        CHECK(journal_rows(db.path()) <= static_cast<int>(std::max<std::uint64_t>(2 * (live + kTables), 500)));
        CHECK(stats.journal_live_rows == live + kTables);
        for (int t = 0; t < kTables; ++t) {
            auto game = store->load_game("t" + std::to_string(t), 1);
            REQUIRE(game);
            check_same_events(game->events, finished[static_cast<std::size_t>(t)].events);
            check_same_actions(game->actions, finished[static_cast<std::size_t>(t)].actions);
            CHECK_FALSE(store->load_game("t" + std::to_string(t), 2));  // in progress: not served
        }
    }
    SQLite::Database check(db.path(), SQLite::OPEN_READONLY);
    CHECK(check.execAndGet("SELECT COUNT(DISTINCT id) FROM archive_records").getInt() == kTables);
    // Restarted: every table's game in progress comes back whole, numbered on from its last event.
    auto store = open_store(db.path(), options);
    const auto open = store->open_tables();
    REQUIRE(open.size() == kTables);
    for (const OpenTableState& t : open) {
        CAPTURE(t.table.id);
        const auto& g = playing[static_cast<std::size_t>(std::stoi(t.table.id.substr(1)))];
        CHECK(t.game == 2);
        CHECK_FALSE(t.game_finished);
        check_same_actions(t.actions, g.actions);
        CHECK(t.last_seq == g.last_seq);
    }
}

TEST_CASE("a table whose last game is over comes back with that game's actions and its next seq, after any cleaning") {
    TempDatabase db("journal-over");
    SqliteOptions options;
    options.journal_clean_rows = 10;
    options.journal_clean_step = 64;
    const PlayedGame g = play_game("t1", 1, 77, 0, 5000);
    {
        auto store = open_store(db.path(), options);
        commit_all(*store, opened("t1", 1));
        commit_all(*store, g.writes);
        commit_all(*store, {AppendEvent{"t1", g.last_seq + 1, 1, "again_requested", R"({"type":"again_requested","seat":0})", 9000}});
        // Other tables' games push t1's rows to the journal's head, and past it.
        for (int t = 2; t < 8; ++t) {
            commit_all(*store, opened("t" + std::to_string(t), t));
            commit_all(*store, play_game("t" + std::to_string(t), 1, 300 + t, 0, 5000).writes);
        }
        for (int i = 0; i < 50 && journal_rows(db.path()) > 12; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        CHECK(journal_rows(db.path()) <= 12);  // one row a table: its latest event
    }
    auto store = open_store(db.path(), options);
    const auto open = store->open_tables();
    REQUIRE(open.size() == 7);
    CHECK(open[0].table.id == "t1");
    CHECK(open[0].game == 1);
    CHECK(open[0].game_finished);
    check_same_actions(open[0].actions, g.actions);
    CHECK(open[0].last_seq == g.last_seq + 1);
    CHECK(open[0].last_event_at == 9000);
    // The archived game ends with the game: the again request after it is no part of it.
    auto archived = store->load_game("t1", 1);
    REQUIRE(archived);
    check_same_events(archived->events, g.events);
}

TEST_CASE("a database of schema version 4 keeps every game: records that serve the same events, journals for open tables") {
    TempDatabase db("migrate-v4");
    // Three finished games, one at a table still open, and one open table in the middle of a game, as version 4 kept them.
    const PlayedGame a = play_game("t1", 1, 11, 0, 1'000'000);
    const PlayedGame b = play_game("t2", 1, 12, 0, 2'000'000, -1, "bga-sparts");
    PlayedGame c = play_game("t3", 1, 13, 0, 3'000'000, -1, "spartsel");
    const PlayedGame d = play_game("t3", 2, 14, c.last_seq + 1, 4'000'000, 45);
    // After game 1 at t3: a seat asks for another (kept with game 1), as version 4 did.
    c.events.push_back({c.last_seq + 1, 1, "again_requested", R"({"type":"again_requested","seat":0})", 3'900'000});
    // A game whose stored events the engine would not render so today: kept as stored.
    PlayedGame e = play_game("t4", 1, 15, 0, 5'000'000);
    e.events[3].payload = R"({"type":"cards_dealt","seat":0,"cards":["2C"],"note":"from an older engine"})";
    {
        SQLite::Database raw(db.path(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        for (int v = 0; v < 4; ++v) raw.exec(migrations()[static_cast<std::size_t>(v)]);
        raw.exec("PRAGMA user_version = 4");
        SQLite::Statement table(raw, "INSERT INTO tables (id, number, ruleset, preset, seats, private, invite, turn_seconds, "
                                     "creator, created_ms, closed_ms) VALUES (?, ?, ?, 'spades', 4, 0, '', 0, 'p1', 1, ?)");
        SQLite::Statement game(raw, "INSERT INTO games (table_id, game, seed, ruleset, preset, players, started_ms, "
                                    "finished_ms, result) VALUES (?, ?, ?, ?, json_extract(?, '$.preset'), '[]', 1, ?, ?)");
        SQLite::Statement event(raw, "INSERT INTO events (table_id, seq, game, type, payload, at_ms, seat, action) "
                                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        auto put = [&](const std::string& id, int number, bool closed) {
            table.bind(1, id);
            table.bind(2, number);
            table.bind(3, R"({"preset":"spades","options":{}})");
            if (closed) table.bind(4, 99); else table.bind(4);
            table.exec();
            table.reset();
        };
        auto put_game = [&](const std::string& id, int number, std::uint64_t seed, const PlayedGame& g) {
            game.bind(1, id);
            game.bind(2, number);
            game.bind(3, static_cast<std::int64_t>(seed));
            game.bind(4, g.ruleset);
            game.bind(5, g.ruleset);
            if (g.over) {
                game.bind(6, g.events.back().at);
                game.bind(7, R"({"game_over":{}})");
            } else {
                game.bind(6);
                game.bind(7);
            }
            game.exec();
            game.reset();
            std::size_t next_action = 0;
            for (const StoredEvent& ev : g.events) {
                event.bind(1, id);
                event.bind(2, static_cast<std::int64_t>(ev.seq));
                event.bind(3, ev.game);
                event.bind(4, ev.type);
                event.bind(5, ev.payload);
                event.bind(6, ev.at);
                if (next_action < g.actions.size() && g.actions[next_action].seq == ev.seq) {
                    event.bind(7, g.actions[next_action].seat);
                    event.bind(8, g.actions[next_action].action);
                    ++next_action;
                } else {
                    event.bind(7);
                    event.bind(8);
                }
                event.exec();
                event.reset();
            }
        };
        SQLite::Transaction tx(raw);
        put("t1", 1, true);
        put_game("t1", 1, 11, a);
        put("t2", 2, true);
        put_game("t2", 1, 12, b);
        put("t3", 3, false);
        put_game("t3", 1, 13, c);
        put_game("t3", 2, 14, d);
        put("t4", 4, true);
        put_game("t4", 1, 15, e);
        tx.commit();
    }
    auto store = open_store(db.path());
    SQLite::Database check(db.path(), SQLite::OPEN_READONLY);
    CHECK(check.execAndGet("PRAGMA user_version").getInt() == latest_schema_version());
    CHECK_FALSE(check.tableExists("events"));
    for (const auto& [table, played] : std::vector<std::pair<const char*, const PlayedGame*>>{{"t1", &a}, {"t2", &b}, {"t3", &c}, {"t4", &e}}) {
        const std::string id = table;  // (clang cannot capture a structured binding in CAPTURE's lambda)
        const PlayedGame* g = played;
        CAPTURE(id);
        auto got = store->load_game(id, 1);
        REQUIRE(got);
        check_same_events(got->events, g->events);
        check_same_actions(got->actions, g->actions);
    }
    CHECK_FALSE(store->load_game("t3", 2));
    const auto open = store->open_tables();
    REQUIRE(open.size() == 1);
    CHECK(open[0].table.id == "t3");
    CHECK(open[0].game == 2);
    CHECK_FALSE(open[0].game_finished);
    check_same_actions(open[0].actions, d.actions);
    CHECK(open[0].last_seq == d.last_seq);
    // The game in progress goes on and ends: its record holds the part played before the migration too.
    const PlayedGame rest = play_game("t3", 2, 14, c.last_seq + 1, 4'000'000);
    Batch more(rest.writes.begin() + static_cast<std::ptrdiff_t>(d.writes.size()), rest.writes.end());
    commit_all(*store, more);
    auto finished = store->load_game("t3", 2);
    REQUIRE(finished);
    check_same_events(finished->events, rest.events);
}
