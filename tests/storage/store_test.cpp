// The store's guarantees, checked against both backends: SQLite and a real
// PostgreSQL (tests/storage/backends.hpp).
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <thread>
#include "storage/backends.hpp"
#include "storage/game_log.hpp"
#include "storage/played_game.hpp"

using namespace sparts::storage;
using sparts::test::PlayedGame;
using sparts::test::PostgresBackend;
using sparts::test::SqliteBackend;
using sparts::test::check_same_actions;
using sparts::test::check_same_events;
using sparts::test::play_game;

namespace store_test {

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

constexpr const char* kSalt = "00112233445566778899aabbccddeeff";

// A finished game of table `id`, started at `at`, with players p1 and p2; its deal committed
// to with kSalt, but for table t1's (a game from before commitments).
Batch a_finished_game(const std::string& id, int game, Millis at) {
    PlayedGame g = play_game(id, game, 42, 0, at);
    REQUIRE(g.over);
    if (id != "t1") std::get<StartGame>(g.writes.front()).salt = kSalt;
    // (the archive lists by the time the game finished)
    std::get<FinishGame>(g.writes.back()).at = at + 10;
    return g.writes;
}

ArchiveQuery query(std::function<void(ArchiveQuery&)> set) {
    ArchiveQuery q;
    set(q);
    return q;
}

}  // namespace store_test

using namespace store_test;

TEST_CASE_TEMPLATE("at start only the players open tables name are read, and any other is found by its token's hash", Backend, SqliteBackend, PostgresBackend) {
    const Backend db("players");
    {
        auto store = db.open();
        commit(*store, {PutPlayer{"p1", "hash1", "Ann", 1}, PutPlayer{"p2", "hash2", "Bob", 1},
                        PutPlayer{"p3", "hash3", "Cat", 1}});
        commit(*store, a_table("t1", 1));  // p1 holds seat 0
        commit(*store, {CloseTable{"t1", "over", 2}});
        commit(*store, a_table("t2", 2));
    }
    auto store = db.open();
    const auto players = store->players();
    REQUIRE(players.size() == 1);  // p1, seated at the open t2; nobody else
    CHECK(players[0].id == "p1");
    const auto bob = store->find_player("hash2");
    REQUIRE(bob);
    CHECK(bob->id == "p2");
    CHECK(bob->name == "Bob");
    CHECK_FALSE(store->find_player("no such hash"));
}

TEST_CASE_TEMPLATE("open tables come back after a restart with their seats, game and actions", Backend, SqliteBackend, PostgresBackend) {
    const Backend db("reopen");
    {
        auto store = db.open();
        commit(*store, {PutPlayer{"p1", "hash1", "Ann", 1}});
        commit(*store, a_table("t1", 1));
        commit(*store, a_table("t2", 2));
        commit(*store, {StartGame{"t1", 1, 99, R"({"preset":"spades","options":{}})", R"([{"player":"p1","name":"Ann"}])", 5, kSalt},
                        AppendEvent{"t1", 1, 1, "game_started", "{}", 5},
                        EngineEvents{"t1", 2, 1, 1, 6, Cause{0, sparts::Action::make_bid(2), {}}},
                        EngineEvents{"t1", 3, 2, 1, 7, Cause{1, sparts::Action::make_bid(0), {}}}});
        commit(*store, {CloseTable{"t2", "abandoned", 9}});
    }
    auto store = db.open();
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
    CHECK(t.salt == kSalt);
    CHECK_FALSE(t.game_finished);
    REQUIRE(t.actions.size() == 2);
    CHECK(t.actions[1].action == R"({"bid":0,"type":"bid"})");
    CHECK(t.actions[1].seat == 1);
    CHECK(t.actions[1].seq == 3);
    CHECK(t.last_seq == 4);
    CHECK(t.last_event_at == 7);
}

TEST_CASE_TEMPLATE("the archive lists finished games only, filtered and in pages", Backend, SqliteBackend, PostgresBackend) {
    const Backend db("archive");
    auto store = db.open();
    for (int i = 1; i <= 5; ++i) {
        const std::string id = "t" + std::to_string(i);
        commit(*store, a_table(id, i));
        commit(*store, a_finished_game(id, 1, 1000 * i));
    }
    // One in progress: never listed nor served.
    commit(*store, a_table("t6", 6));
    commit(*store, {StartGame{"t6", 1, 7, R"({"preset":"spades","options":{}})", R"([{"player":"p1","name":"Ann"}])", 9000, {}}});

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
    CHECK(game->salt == kSalt);
    CHECK(store->load_game("t1", 1)->salt.empty());
    const PlayedGame expected = play_game("t3", 1, 42, 0, 3000);
    check_same_actions(game->actions, expected.actions);
    check_same_events(game->events, expected.events);
    CHECK_FALSE(store->load_game("t6", 1));
    CHECK_FALSE(store->load_game("t9", 1));
}

TEST_CASE_TEMPLATE("batches from many threads are committed in groups, each callback once", Backend, SqliteBackend, PostgresBackend) {
    const Backend db("group");
    auto store = db.open();
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
    CHECK(db.count("SELECT COUNT(*) FROM journal") == kThreads * kBatches);
}

TEST_CASE("retention is held by one process at a time: a second hold is refused until the first ends") {
    SUBCASE("SQLite: one server's file") {
        const SqliteBackend db("retire-hold");
        auto store = db.open();
        auto first = store->hold_retirement();
        REQUIRE(first);
        REQUIRE(*first);
        const auto second = store->hold_retirement();
        REQUIRE(second);
        CHECK_FALSE(*second);  // held: no hold, and no error
        // The hold may end on another thread (the writer's, with a step's commit).
        std::thread([held = std::move(*first)]() mutable { held.reset(); }).join();
        const auto again = store->hold_retirement();
        REQUIRE(again);
        CHECK(*again);
    }
    SUBCASE("PostgreSQL: two nodes of one database") {
        const PostgresBackend db("retirehold");
        PgOptions a, b;
        a.node = "a";
        b.node = "b";
        auto node_a = db.open(a);
        auto node_b = db.open(b);
        auto first = node_a->hold_retirement();
        REQUIRE(first);
        REQUIRE(*first);
        for (Store* store : {node_a.get(), node_b.get()}) {
            const auto second = store->hold_retirement();
            REQUIRE(second);
            CHECK_FALSE(*second);
        }
        first->reset();  // the hold's connection closes; its lock goes with it
        bool held = false;
        for (int i = 0; i < 100 && !held; ++i) {
            const auto next = node_b->hold_retirement();
            held = next && *next;
            if (!held) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        CHECK(held);
    }
}
