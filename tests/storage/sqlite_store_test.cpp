#include <doctest/doctest.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <atomic>
#include <functional>
#include <fstream>
#include <thread>
#include <unistd.h>
#include "storage/schema.hpp"
#include "storage/game_log.hpp"
#include "storage/sqlite_store.hpp"
#include "storage/played_game.hpp"
#include "storage/temp_file.hpp"

using namespace sparts::storage;
using sparts::test::PlayedGame;
using sparts::test::TempDatabase;
using sparts::test::check_same_actions;
using sparts::test::check_same_events;
using sparts::test::play_game;

namespace {

std::unique_ptr<SqliteStore> must_open(const std::string& path) {
    auto s = SqliteStore::open(path);
    REQUIRE_MESSAGE(s, (s ? "" : s.error()));
    return std::move(*s);
}

int schema_version(const std::string& path) {
    SQLite::Database db(path, SQLite::OPEN_READONLY);
    return db.execAndGet("PRAGMA user_version").getInt();
}

Batch a_table(const std::string& id, int number) {
    return {OpenTable{id, number, R"({"preset":"spades","options":{}})", "spades", 4, false, "", 60, "p1", 1000},
            PutSeat{id, 0, "p1", "Ann", false, ""},
            PutSeat{id, 1, "", "Bot", true, "strong"}};
}

void commit(Store& store, Batch batch) {
    std::atomic<bool> done{false};
    store.submit(std::move(batch), [&] { done = true; });
    store.flush();
    CHECK(done);
}

// A finished game of table `id`, started at `at`, with players p1 and p2.
Batch a_finished_game(const std::string& id, int game, Millis at) {
    PlayedGame g = play_game(id, game, 42, 0, at);
    REQUIRE(g.over);
    // (the archive lists by the time the game finished)
    std::get<FinishGame>(g.writes.back()).at = at + 10;
    return g.writes;
}

ArchiveQuery query(std::function<void(ArchiveQuery&)> set) {
    ArchiveQuery q;
    set(q);
    return q;
}

}  // namespace

TEST_CASE("a new file gets the latest schema, in WAL mode") {
    TempDatabase db("fresh");
    { auto store = must_open(db.path()); }
    CHECK(schema_version(db.path()) == latest_schema_version());
    SQLite::Database check(db.path(), SQLite::OPEN_READONLY);
    CHECK(check.execAndGet("PRAGMA journal_mode").getString() == "wal");
    for (const char* table : {"players", "tables", "seats", "games", "game_players", "journal"})
        CHECK_MESSAGE(check.tableExists(table), table);
    CHECK_FALSE(check.tableExists("actions"));  // kept on their events since version 3
    CHECK_FALSE(check.tableExists("events"));   // folded into records and the journal since version 5
}

TEST_CASE("every earlier schema version migrates to the latest, keeping its data") {
    for (int from = 1; from < latest_schema_version(); ++from) {
        CAPTURE(from);
        TempDatabase db("migrate");
        {
            SQLite::Database raw(db.path(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            for (int v = 0; v < from; ++v) raw.exec(migrations()[static_cast<std::size_t>(v)]);
            raw.exec("PRAGMA user_version = " + std::to_string(from));
            raw.exec("INSERT INTO players (id, token_hash, name, created_ms) VALUES ('p9', 'h9', 'Old', 1)");
        }
        auto store = must_open(db.path());
        const auto player = store->find_player("h9");
        REQUIRE(player);
        CHECK(player->name == "Old");
        CHECK(player->id == "p9");
        store.reset();
        CHECK(schema_version(db.path()) == latest_schema_version());
    }
}

TEST_CASE("actions kept in their own table before version 3 end up on their first events, in order") {
    for (int from = 1; from < 3; ++from) {
        CAPTURE(from);
        TempDatabase db("migrate-actions");
        {
            SQLite::Database raw(db.path(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            for (int v = 0; v < from; ++v) raw.exec(migrations()[static_cast<std::size_t>(v)]);
            raw.exec("PRAGMA user_version = " + std::to_string(from));
            raw.exec(R"(INSERT INTO tables (id, number, ruleset, preset, seats, private, invite, turn_seconds, creator,
                         created_ms) VALUES ('t1', 1, '{"preset":"spades","options":{}}', 'spades', 4, 0, '', 60, 'p1', 1))");
            raw.exec(R"(INSERT INTO games (table_id, game, seed, ruleset, preset, players, started_ms)
                         VALUES ('t1', 1, 7, '{}', 'spades', '[]', 1))");
            // Two actions: the first caused events 2 and 3, the second event 4.
            raw.exec(R"(INSERT INTO actions VALUES ('t1', 1, 0, 2, '{"type":"bid","bid":4}', 2, 5),
                                                   ('t1', 1, 1, 3, '{"type":"bid","bid":"nil"}', 4, 6))");
            raw.exec(R"(INSERT INTO events (table_id, seq, game, type, payload, at_ms) VALUES
                         ('t1', 1, 1, 'hand_started', '{}', 1), ('t1', 2, 1, 'bid_made', '{}', 5),
                         ('t1', 3, 1, 'bidding_over', '{}', 5), ('t1', 4, 1, 'bid_made', '{}', 6))");
        }
        auto store = must_open(db.path());
        const auto open = store->open_tables();
        REQUIRE(open.size() == 1);
        REQUIRE(open[0].actions.size() == 2);
        CHECK(open[0].actions[0].seat == 2);
        CHECK(open[0].actions[0].action == R"({"type":"bid","bid":4})");
        CHECK(open[0].actions[0].seq == 2);
        CHECK(open[0].actions[1].seat == 3);
        CHECK(open[0].actions[1].action == R"({"type":"bid","bid":"nil"})");
        CHECK(open[0].actions[1].seq == 4);
        CHECK(open[0].last_seq == 4);
    }
}

TEST_CASE("a file from a newer server, a corrupt file and a file in use are refused with a clear message") {
    TempDatabase newer("newer");
    {
        SQLite::Database raw(newer.path(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        raw.exec("PRAGMA user_version = " + std::to_string(latest_schema_version() + 1));
    }
    auto n = SqliteStore::open(newer.path());
    REQUIRE_FALSE(n);
    CHECK(n.error().find("newer than this server") != std::string::npos);
    CHECK(schema_version(newer.path()) == latest_schema_version() + 1);  // left as it was

    TempDatabase corrupt("corrupt");
    { std::ofstream(corrupt.path()) << std::string(8192, 'x'); }
    auto c = SqliteStore::open(corrupt.path());
    REQUIRE_FALSE(c);
    CHECK(c.error().find("corrupt") != std::string::npos);

    TempDatabase busy("busy");
    auto first = must_open(busy.path());
    auto second = SqliteStore::open(busy.path());
    REQUIRE_FALSE(second);
    CHECK(second.error().find("locked") != std::string::npos);

    auto missing_dir = SqliteStore::open("/nonexistent-dir/x.db");
    REQUIRE_FALSE(missing_dir);
    CHECK(missing_dir.error().find("cannot open") != std::string::npos);
}

TEST_CASE("a read-only database is refused") {
    if (::geteuid() == 0) {
        MESSAGE("skipped: running as root, file permissions do not stop writes");
        return;
    }
    TempDatabase db("readonly");
    { auto store = must_open(db.path()); }
    std::filesystem::permissions(db.path(), std::filesystem::perms::owner_read);
    auto r = SqliteStore::open(db.path());
    std::filesystem::permissions(db.path(), std::filesystem::perms::owner_all);
    REQUIRE_FALSE(r);
    CHECK(r.error().find("read-only") != std::string::npos);
}

TEST_CASE("at start only the players open tables name are read, and any other is found by its token's hash") {
    TempDatabase db("players");
    {
        auto store = must_open(db.path());
        commit(*store, {PutPlayer{"p1", "hash1", "Ann", 1}, PutPlayer{"p2", "hash2", "Bob", 1},
                        PutPlayer{"p3", "hash3", "Cat", 1}});
        commit(*store, a_table("t1", 1));  // p1 holds seat 0
        commit(*store, {CloseTable{"t1", "over", 2}});
        commit(*store, a_table("t2", 2));
    }
    auto store = must_open(db.path());
    const auto players = store->players();
    REQUIRE(players.size() == 1);  // p1, seated at the open t2; nobody else
    CHECK(players[0].id == "p1");
    const auto bob = store->find_player("hash2");
    REQUIRE(bob);
    CHECK(bob->id == "p2");
    CHECK(bob->name == "Bob");
    CHECK_FALSE(store->find_player("no such hash"));
}

TEST_CASE("open tables come back after a restart with their seats, game and actions") {
    TempDatabase db("reopen");
    {
        auto store = must_open(db.path());
        commit(*store, {PutPlayer{"p1", "hash1", "Ann", 1}});
        commit(*store, a_table("t1", 1));
        commit(*store, a_table("t2", 2));
        commit(*store, {StartGame{"t1", 1, 99, R"({"preset":"spades","options":{}})", R"([{"player":"p1","name":"Ann"}])", 5},
                        AppendEvent{"t1", 1, 1, "game_started", "{}", 5},
                        EngineEvents{"t1", 2, 1, 1, 6, Cause{0, sparts::Action::make_bid(2), {}}},
                        EngineEvents{"t1", 3, 2, 1, 7, Cause{1, sparts::Action::make_bid(0), {}}}});
        commit(*store, {CloseTable{"t2", "abandoned", 9}});
    }
    auto store = must_open(db.path());
    const auto players = store->players();
    REQUIRE(players.size() == 1);
    CHECK(players[0].token_hash == "hash1");
    CHECK(store->last_table_number() == 2);
    const auto open = store->open_tables();
    REQUIRE(open.size() == 1);
    const OpenTableState& t = open[0];
    CHECK(t.table.id == "t1");
    CHECK(t.table.preset == "spades");
    REQUIRE(t.seats.size() == 4);
    CHECK(t.seats[0].player == "p1");
    CHECK(t.seats[1].bot);
    CHECK(t.seats[1].level == "strong");
    CHECK(t.seats[0].level.empty());
    CHECK(t.seats[2].player.empty());
    CHECK_FALSE(t.seats[2].bot);
    CHECK(t.game == 1);
    CHECK(t.seed == 99);
    CHECK_FALSE(t.game_finished);
    REQUIRE(t.actions.size() == 2);
    CHECK(t.actions[1].action == R"({"bid":0,"type":"bid"})");
    CHECK(t.actions[1].seat == 1);
    CHECK(t.actions[1].seq == 3);
    CHECK(t.last_seq == 4);
    CHECK(t.last_event_at == 7);
}

TEST_CASE("the archive lists finished games only, filtered and in pages") {
    TempDatabase db("archive");
    auto store = must_open(db.path());
    for (int i = 1; i <= 5; ++i) {
        const std::string id = "t" + std::to_string(i);
        commit(*store, a_table(id, i));
        commit(*store, a_finished_game(id, 1, 1000 * i));
    }
    // One in progress: never listed nor served.
    commit(*store, a_table("t6", 6));
    commit(*store, {StartGame{"t6", 1, 7, R"({"preset":"spades","options":{}})", R"([{"player":"p1","name":"Ann"}])", 9000}});

    auto first = store->list_games(query([&](ArchiveQuery& q) { q.limit = 2; }));
    REQUIRE(first.games.size() == 2);
    CHECK(first.games[0].table == "t5");  // newest first
    CHECK(first.games[1].table == "t4");
    REQUIRE_FALSE(first.next_cursor.empty());
    auto second = store->list_games(query([&](ArchiveQuery& q) { q.limit = 2; q.cursor = first.next_cursor; }));
    REQUIRE(second.games.size() == 2);
    CHECK(second.games[0].table == "t3");
    auto third = store->list_games(query([&](ArchiveQuery& q) { q.limit = 2; q.cursor = second.next_cursor; }));
    REQUIRE(third.games.size() == 1);
    CHECK(third.games[0].table == "t1");
    CHECK(third.next_cursor.empty());

    CHECK(store->list_games(query([&](ArchiveQuery& q) { q.player = "p2"; })).games.size() == 5);
    CHECK(store->list_games(query([&](ArchiveQuery& q) { q.player = "nobody"; })).games.empty());
    CHECK(store->list_games(query([&](ArchiveQuery& q) { q.preset = "sparts"; })).games.empty());
    CHECK(store->list_games(query([&](ArchiveQuery& q) { q.from = 3000; })).games.size() == 3);
    CHECK(store->list_games(query([&](ArchiveQuery& q) { q.from = 2000; q.to = 4000; })).games.size() == 2);

    auto game = store->load_game("t3", 1);
    REQUIRE(game);
    CHECK(game->seed == 42);
    const PlayedGame expected = play_game("t3", 1, 42, 0, 3000);
    check_same_actions(game->actions, expected.actions);
    check_same_events(game->events, expected.events);
    CHECK_FALSE(store->load_game("t6", 1));
    CHECK_FALSE(store->load_game("t9", 1));
}

TEST_CASE("batches from many threads are committed in groups, each callback once") {
    TempDatabase db("group");
    auto store = must_open(db.path());
    constexpr int kThreads = 8, kBatches = 500;
    for (int t = 0; t < kThreads; ++t) commit(*store, a_table("t" + std::to_string(t), t));
    std::atomic<int> callbacks{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            const std::string id = "t" + std::to_string(t);
            for (int i = 0; i < kBatches; ++i)
                store->submit({EngineEvents{id, static_cast<std::uint64_t>(i + 1), 1, 1, 1, Cause{0, sparts::Action::make_bid(1), {}}}},
                              [&] { ++callbacks; });
        });
    for (auto& th : threads) th.join();
    store->flush();
    CHECK(callbacks == kThreads * kBatches);
    const auto stats = store->stats();
    CHECK(stats.batches == kThreads * kBatches + kThreads);
    CHECK(stats.commits < stats.batches);  // grouped
    SQLite::Database check(db.path(), SQLite::OPEN_READONLY);
    CHECK(check.execAndGet("SELECT COUNT(*) FROM journal").getInt() == kThreads * kBatches);
}
