// What only the PostgreSQL store does: its refusals at start, its journal kept
// per table, and commits that survive PostgreSQL refusing them or dropping
// the connection. Against a real PostgreSQL (tests/support/postgres.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>
#include "storage/backends.hpp"
#include "storage/postgres/pg_schema.hpp"
#include "storage/played_game.hpp"

using namespace sparts::storage;
using sparts::test::PlayedGame;
using sparts::test::PostgresBackend;
using sparts::test::TempPgDatabase;
using sparts::test::check_same_actions;
using sparts::test::check_same_events;
using sparts::test::play_game;

namespace pg_store_test {

Batch new_table(const std::string& id, int number) {
    return {OpenTable{id, number, R"({"preset":"spades","options":{}})", "spades", 4, false, "", 0, "p1", 1000},
            PutSeat{id, 0, "p1", "Ann", false, ""}};
}

void commit_now(Store& store, Batch batch) {
    store.submit(std::move(batch), nullptr);
    REQUIRE(store.flush(std::chrono::seconds(60)));
}

std::string refusal(const std::string& url) {
    auto s = PgStore::open(url);
    REQUIRE_FALSE(s);
    return s.error();
}

}  // namespace pg_store_test

using namespace pg_store_test;

TEST_CASE("postgresql: a URL libpq cannot read, a server that does not answer, a database not ours, a newer schema and "
          "a database in use are refused with a clear message") {
    const auto& server = sparts::test::Postgres::shared();
    // Not a URL libpq reads.
    std::string e = refusal("postgresql://sparts@/x?host=/tmp&nonsense=1");
    CHECK(e.find("not a PostgreSQL URL") != std::string::npos);
    CHECK(e.find("nonsense") != std::string::npos);
    // Nobody listens there; the password in the URL never shows.
    e = refusal("postgresql://sparts:hunter2@/x?host=/nonexistent-dir&connect_timeout=2");
    CHECK(e.find("cannot connect to PostgreSQL") != std::string::npos);
    CHECK(e.find("hunter2") == std::string::npos);
    CHECK(e.find("sparts:***@") != std::string::npos);
    // A database that does not exist.
    e = refusal(server.url("no_such_database"));
    CHECK(e.find("cannot connect") != std::string::npos);
    CHECK(e.find("no_such_database") != std::string::npos);
    {
        // Someone else's tables: left as they are.
        TempPgDatabase other("notours");
        other.exec("CREATE TABLE invoices (id integer)");
        e = refusal(other.url());
        CHECK(e.find("not sparts's") != std::string::npos);
        CHECK(e.find("invoices") != std::string::npos);
        CHECK(other.query("SELECT to_regclass('sparts_schema') IS NULL") == "t");
    }
    {
        // A newer server's database: refused, not touched.
        PostgresBackend db("newer");
        { db.open(); }
        db.database().exec("UPDATE sparts_schema SET version = 99");
        e = refusal(db.location());
        CHECK(e.find("schema version 99") != std::string::npos);
        CHECK(e.find("newer than this server's " + std::to_string(latest_pg_schema_version())) != std::string::npos);
        CHECK(db.database().query("SELECT version FROM sparts_schema") == "99");
    }
    {
        // Two servers on one database would interleave their writes: the second is refused.
        PostgresBackend db("inuse");
        auto first = db.open();
        e = refusal(db.location());
        CHECK(e.find("in use by another sparts-server") != std::string::npos);
        first.reset();
        CHECK(PgStore::open(db.location()));  // free again once the first is gone
    }
}

TEST_CASE("postgresql: a finished game is one record row, the journal keeps each table's game in progress and its "
          "latest row, and a restart brings every game back") {
    PostgresBackend db("journal");
    constexpr int kTables = 12;
    std::vector<PlayedGame> finished, playing;
    {
        auto store = db.open();
        for (int t = 0; t < kTables; ++t) {
            const std::string id = "t" + std::to_string(t);
            commit_now(*store, new_table(id, t + 1));
            finished.push_back(play_game(id, 1, 100 + static_cast<std::uint64_t>(t), 0, 1000));
            REQUIRE(finished.back().over);
            playing.push_back(play_game(id, 2, 900 + static_cast<std::uint64_t>(t), finished.back().last_seq, 5000, 30 + t));
        }
        // The tables' steps interleaved, one batch a step, as a busy server commits them.
        std::size_t longest = 0;
        for (const auto& g : finished) longest = std::max(longest, g.writes.size());
        for (std::size_t i = 0; i < longest; ++i)
            for (const auto& g : finished)
                if (i < g.writes.size()) store->submit({g.writes[i]}, nullptr);
        for (const auto& g : playing) store->submit(g.writes, nullptr);
        REQUIRE(store->flush(std::chrono::seconds(60)));
        for (int t = 0; t < kTables; ++t) {
            auto game = store->load_game("t" + std::to_string(t), 1);
            REQUIRE(game);
            check_same_events(game->events, finished[static_cast<std::size_t>(t)].events);
            check_same_actions(game->actions, finished[static_cast<std::size_t>(t)].actions);
            CHECK_FALSE(store->load_game("t" + std::to_string(t), 2));  // in progress: not served
        }
    }
    CHECK(db.count("SELECT COUNT(*) FROM archive WHERE record IS NOT NULL") == kTables);
    CHECK(db.count("SELECT COUNT(*) FROM games_in_progress") == kTables);  // each table's game 2
    // Game 1's rows went when game 2 began, but each table's latest then (it numbered the next event).
    CHECK(db.count("SELECT COUNT(*) FROM journal WHERE game = 1") == kTables);
    std::uint64_t live = 0;
    for (const auto& g : playing) live += g.writes.size() - 1;  // the StartGame is no journal row
    CHECK(db.count("SELECT COUNT(*) FROM journal") == static_cast<int>(live + kTables));
    auto store = db.open();
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
    // A closed table's rows all go.
    commit_now(*store, {CloseTable{"t0", "over", 9999}});
    CHECK(db.count("SELECT COUNT(*) FROM journal WHERE table_id = 't0'") == 0);
    CHECK(db.count("SELECT COUNT(*) FROM games_in_progress WHERE table_id = 't0'") == 0);  // not archived
}

TEST_CASE("postgresql: a game that ends after a restart gets its whole record, from the journal") {
    PostgresBackend db("finish-after-restart");
    const PlayedGame g = play_game("t1", 1, 4242, 0, 5000);
    REQUIRE(g.over);
    const std::size_t half = g.writes.size() / 2;
    {
        auto store = db.open();
        commit_now(*store, new_table("t1", 1));
        commit_now(*store, Batch(g.writes.begin(), g.writes.begin() + static_cast<std::ptrdiff_t>(half)));
    }
    // Another process (the next node, a restarted server) finishes it: its writer never saw the start.
    auto store = db.open();
    commit_now(*store, Batch(g.writes.begin() + static_cast<std::ptrdiff_t>(half), g.writes.end()));
    auto archived = store->load_game("t1", 1);
    REQUIRE(archived);
    check_same_events(archived->events, g.events);
    check_same_actions(archived->actions, g.actions);
}

TEST_CASE("postgresql: a commit PostgreSQL refuses is retried until it succeeds, nothing published before, and a "
          "dropped connection is opened again") {
    PostgresBackend db("retry");
    PgOptions options;
    options.retry_ms = 50;
    auto store = db.open(options);
    commit_now(*store, new_table("t1", 1));
    // Every journal insert fails while this constraint stands (a full disk, as PostgreSQL sees it).
    db.database().exec("ALTER TABLE journal ADD CONSTRAINT refuse_all CHECK (seq < 0) NOT VALID");
    std::atomic<bool> done{false};
    store->submit({AppendEvent{"t1", 1, 0, "seat_taken", R"({"type":"seat_taken","seat":0})", 2000}}, [&] { done = true; });
    for (int i = 0; i < 100 && store->stats().failed_commits < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(store->stats().failed_commits >= 3);
    CHECK_FALSE(done);  // not committed: the table would not send it
    CHECK_FALSE(store->flush(std::chrono::milliseconds(100)));
    db.database().exec("ALTER TABLE journal DROP CONSTRAINT refuse_all");
    REQUIRE(store->flush(std::chrono::seconds(30)));
    CHECK(done);
    CHECK(db.count("SELECT COUNT(*) FROM journal WHERE table_id = 't1'") == 1);

    // The writer's connection is cut (PostgreSQL restarted, a proxy in between dropped it).
    db.database().exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid()");
    done = false;
    store->submit({AppendEvent{"t1", 2, 0, "seat_taken", R"({"type":"seat_taken","seat":1})", 3000}}, [&] { done = true; });
    REQUIRE(store->flush(std::chrono::seconds(30)));
    CHECK(done);
    CHECK(db.count("SELECT COUNT(*) FROM journal WHERE table_id = 't1'") == 2);
    // And the reads carry on, on a connection of their own opened again.
    const auto open = store->open_tables();
    REQUIRE(open.size() == 1);
    CHECK(open[0].last_seq == 2);
}

TEST_CASE("postgresql: many nodes: a table's lease goes to one node at a time, a node asked for it is told, a released "
          "or expired lease is taken at a new epoch, and a commit of the node that lost it is refused whole") {
    const TempPgDatabase db("leases");
    // What node a's writer tells of its leases: declared before the stores, so that it outlives
    // them (a's writer may still hear of a lost lease while the test's end destroys what is after).
    std::mutex m;
    std::vector<std::string> a_lost, a_wanted;
    PgOptions a_options, b_options;
    a_options.node = "a";
    b_options.node = "b";
    a_options.lease_ms = b_options.lease_ms = 600;
    a_options.retry_ms = b_options.retry_ms = 50;
    auto opened_a = PgStore::open(db.url(), a_options);
    REQUIRE_MESSAGE(opened_a, (opened_a ? "" : opened_a.error()));
    auto a = std::move(*opened_a);
    auto opened_b = PgStore::open(db.url(), b_options);
    REQUIRE_MESSAGE(opened_b, (opened_b ? "" : opened_b.error()));
    auto b = std::move(*opened_b);
    CHECK(a->clustered());

    // One id a node; a server without one cannot join, nor one join a server alone.
    auto twin = PgStore::open(db.url(), a_options);
    REQUIRE_FALSE(twin);
    CHECK(twin.error().find("--node-id a") != std::string::npos);
    auto alone = PgStore::open(db.url(), PgOptions{});
    REQUIRE_FALSE(alone);
    CHECK(alone.error().find("give every server a --node-id") != std::string::npos);

    // Table numbers never repeat across nodes.
    std::set<std::uint64_t> numbers;
    for (int i = 0; i < 5; ++i) {
        numbers.insert(a->next_table_number(0));
        numbers.insert(b->next_table_number(0));
    }
    CHECK(numbers.size() == 10);

    a->on_lease_events({[&](const std::string& t) { std::lock_guard l(m); a_lost.push_back(t); },
                        [&](const std::string& t) { std::lock_guard l(m); a_wanted.push_back(t); }});
    const auto seen = [&](const std::vector<std::string>& list, const std::string& t) {
        for (int i = 0; i < 100; ++i) {
            {
                std::lock_guard l(m);
                if (std::find(list.begin(), list.end(), t) != list.end()) return true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    };

    commit_now(*a, new_table("t1", 1));  // a new table is nobody's
    commit_now(*a, new_table("t2", 2));
    CHECK(a->take_over("t9").taken == Store::Taken::no_such_table);
    auto t1 = a->take_over("t1");
    REQUIRE(t1.taken == Store::Taken::taken);
    REQUIRE(t1.state);
    CHECK(t1.state->table.id == "t1");
    CHECK(db.query("SELECT epoch FROM leases WHERE table_id = 't1'") == "1");
    commit_now(*a, {AppendEvent{"t1", 1, 0, "seat_taken", R"({"type":"seat_taken","seat":0})", 2000}});

    // Held by a and renewed: b waits, and a hears that b wants it.
    CHECK(b->take_over("t1").taken == Store::Taken::held_elsewhere);
    CHECK(seen(a_wanted, "t1"));
    std::this_thread::sleep_for(std::chrono::milliseconds(900));  // longer than a lease: a renews it
    CHECK(b->take_over("t1").taken == Store::Taken::held_elsewhere);

    // a hands t2 over: free at once, after a's steps before it.
    REQUIRE(a->take_over("t2").taken == Store::Taken::taken);
    a->submit({AppendEvent{"t2", 1, 0, "seat_taken", R"({"type":"seat_taken","seat":0})", 2000}}, nullptr);
    std::atomic<bool> released{false};
    a->release("t2", [&] { released = true; });
    REQUIRE(a->flush(std::chrono::seconds(10)));
    CHECK(released);
    auto t2 = b->take_over("t2");
    REQUIRE(t2.taken == Store::Taken::taken);
    CHECK(t2.state->last_seq == 1);  // a's step is in what b reads
    CHECK(db.query("SELECT epoch FROM leases WHERE table_id = 't2'") == "2");

    // a stops renewing (a paused process, a cut network): its lease expires and b takes t1 over.
    // (a's writer still renews what it holds, expired or not: between the expiry and b's take-over
    // it may renew t1 again, as CI once saw. The pause is made again until b comes first.)
    Store::TakeOver taken;
    for (int attempt = 0; attempt < 20 && taken.taken != Store::Taken::taken; ++attempt) {
        db.exec("UPDATE leases SET expires_at = clock_timestamp() - interval '1 second' WHERE table_id = 't1'");
        taken = b->take_over("t1");
    }
    REQUIRE(taken.taken == Store::Taken::taken);
    CHECK(taken.state->last_seq == 1);
    commit_now(*b, {AppendEvent{"t1", 2, 0, "seat_taken", R"({"type":"seat_taken","seat":1})", 3000}});
    // a comes back and commits t1's next step, with another table's: t1's is refused, the other goes in.
    REQUIRE(a->take_over("t3").taken == Store::Taken::no_such_table);
    commit_now(*a, new_table("t3", 3));
    REQUIRE(a->take_over("t3").taken == Store::Taken::taken);
    std::atomic<bool> stale_done{false}, other_done{false};
    a->submit({AppendEvent{"t1", 2, 0, "seat_taken", R"({"type":"seat_taken","seat":2})", 4000}}, [&] { stale_done = true; });
    a->submit({AppendEvent{"t3", 1, 0, "seat_taken", R"({"type":"seat_taken","seat":0})", 4000}}, [&] { other_done = true; });
    REQUIRE(a->flush(std::chrono::seconds(10)));
    CHECK(seen(a_lost, "t1"));
    CHECK_FALSE(stale_done);  // never committed: the table would never send it
    CHECK(other_done);
    CHECK(db.query("SELECT count(*) FROM journal WHERE table_id = 't1'") == "2");
    CHECK(db.query("SELECT payload FROM journal WHERE table_id = 't1' AND seq = 2") == R"({"type":"seat_taken","seat":1})");
    // And a's later steps of t1 never reach the database either.
    a->submit({AppendEvent{"t1", 3, 0, "seat_taken", R"({"type":"seat_taken","seat":3})", 5000}}, [&] { stale_done = true; });
    REQUIRE(a->flush(std::chrono::seconds(10)));
    CHECK_FALSE(stale_done);
    CHECK(db.query("SELECT count(*) FROM journal WHERE table_id = 't1'") == "2");
}

TEST_CASE("postgresql: nodes starting together on an empty database create its schema once, and all start") {
    // Seen with three nodes of a compose file started at once: some exited, "relation sparts_schema
    // already exists" or "holds tables that are not sparts's".
    for (int round = 0; round < 5; ++round) {
        const TempPgDatabase db("together");
        constexpr int kNodes = 4;
        std::vector<std::string> problems(kNodes);
        std::vector<std::unique_ptr<PgStore>> stores(kNodes);
        std::vector<std::thread> threads;
        for (int i = 0; i < kNodes; ++i)
            threads.emplace_back([&, i] {
                PgOptions options;
                options.node = "n" + std::to_string(i);
                auto opened = PgStore::open(db.url(), options);
                if (opened) stores[static_cast<std::size_t>(i)] = std::move(*opened);
                else problems[static_cast<std::size_t>(i)] = opened.error();
            });
        for (auto& t : threads) t.join();
        for (int i = 0; i < kNodes; ++i) {
            CAPTURE(i);
            CHECK(problems[static_cast<std::size_t>(i)].empty());
            CHECK(stores[static_cast<std::size_t>(i)] != nullptr);
        }
        CHECK(db.query("SELECT version FROM sparts_schema") == std::to_string(latest_pg_schema_version()));
        CHECK(db.query("SELECT count(*) FROM sparts_schema") == "1");
    }
}

TEST_CASE("postgresql: a database of schema version 5 is brought to version 6: its finished games archived in the order "
          "they finished, with their players' rows, the open tables' games in progress kept, the rest dropped") {
    const TempPgDatabase db("pgarchive6");
    for (int v = 0; v < 5; ++v) db.exec(pg_migrations()[static_cast<std::size_t>(v)]);
    db.exec("UPDATE sparts_schema SET version = 5");
    const std::string players = R"([{"player":"p1","name":"Ann"},{"bot":true,"name":"Bot"},{"player":"p2","name":"Bo"}])";
    db.exec("INSERT INTO tables (id, number, ruleset, preset, seats, private, invite, turn_seconds, creator, created_ms, "
            "closed_ms) VALUES ('t1', 1, '{}', 'spades', 3, false, '', 0, 'p1', 1, NULL), "
            "('t2', 2, '{}', 'sparts', 3, false, '', 0, 'p1', 1, NULL), ('t3', 3, '{}', 'spades', 3, false, '', 0, 'p1', 1, 50)");
    // t1: two games over, the second first; then one in progress. t2: one over (no result, no record, as
    // a damaged row), one left unfinished before it and one in progress. t3, closed: one over, one left.
    db.exec("INSERT INTO games (table_id, game, seed, ruleset, preset, players, started_ms, finished_ms, result, record, salt) "
            "VALUES ('t1', 1, -5, '{\"preset\":\"spades\"}', 'spades', '" + players + "', 10, 300, '{\"r\":1}', '\\x0102', 's1'), "
            "('t1', 2, 6, '{\"preset\":\"spades\"}', 'spades', '" + players + "', 20, 200, '{\"r\":2}', '\\x03', NULL), "
            "('t1', 3, 7, '{\"preset\":\"spades\"}', 'spades', '" + players + "', 400, NULL, NULL, NULL, 's3'), "
            "('t2', 1, 8, '{\"preset\":\"sparts\"}', 'sparts', '" + players + "', 30, NULL, NULL, NULL, NULL), "
            "('t2', 2, 9, '{\"preset\":\"sparts\"}', 'sparts', '" + players + "', 40, 300, NULL, NULL, NULL), "
            "('t2', 3, 10, '{\"preset\":\"sparts\"}', 'sparts', '" + players + "', 500, NULL, NULL, NULL, 's5'), "
            "('t3', 1, 11, '{\"preset\":\"spades\"}', 'spades', '[]', 1, 2, '{}', '\\x04', NULL), "
            "('t3', 2, 12, '{\"preset\":\"spades\"}', 'spades', '[]', 3, NULL, NULL, NULL, NULL)");
    auto opened = PgStore::open(db.url());
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    CHECK(db.query("SELECT version FROM sparts_schema") == std::to_string(latest_pg_schema_version()));
    CHECK(db.query("SELECT string_agg(id || ':' || table_id || '/' || game || ' ' || finished_ms || ' ' || result || ' ' || "
                   "seed || ' ' || COALESCE(salt, '-') || ' ' || COALESCE(encode(record, 'hex'), '-'), ', ' ORDER BY id) "
                   "FROM archive") ==
          "1:t3/1 2 {} 11 - 04, 2:t1/2 200 {\"r\":2} 6 - 03, 3:t1/1 300 {\"r\":1} -5 s1 0102, 4:t2/2 300 {} 9 - -");
    CHECK(db.query("SELECT string_agg(player || ' ' || preset || ' ' || finished_ms || ' ' || id, ', ' "
                   "ORDER BY player, preset, finished_ms, id) FROM archive_players") ==
          "p1 spades 200 2, p1 spades 300 3, p1 sparts 300 4, p2 spades 200 2, p2 spades 300 3, p2 sparts 300 4");
    CHECK(db.query("SELECT string_agg(table_id || '/' || game || ' ' || seed || ' ' || COALESCE(salt, '-'), ', ' "
                   "ORDER BY table_id) FROM games_in_progress") == "t1/3 7 s3, t2/3 10 s5");
    CHECK(db.query("SELECT to_regclass('games') IS NULL AND to_regclass('game_players') IS NULL") == "t");

    // The next game archived goes after them; the open tables come back with their games in progress.
    PgStore& store = **opened;
    commit_now(store, {ArchiveGame{{"t9", 1, "spades", "{}", players, "{}", 1, 100}, 1, "", "x"},
                       ArchiveGame{{"t9", 1, "spades", "{}", "[]", "{\"again\":1}", 1, 100}, 1, "", "y"}});
    CHECK(db.query("SELECT id || ' ' || result FROM archive WHERE table_id = 't9'") == "5 {}");  // the second, ignored
    CHECK(db.query("SELECT count(*) FROM archive_players WHERE id = 5") == "2");
    const auto open = store.open_tables();
    REQUIRE(open.size() == 2);
    CHECK(open[0].game == 3);
    CHECK_FALSE(open[0].game_finished);
    CHECK(open[0].salt == "s3");
    CHECK(open[1].game == 3);
    // A game's end moves it into the archive; with no game in progress, the table's latest is its last archived.
    commit_now(store, {FinishGame{"t2", 3, R"({"r":3})", 900}});
    CHECK(db.query("SELECT finished_ms || ' ' || result || ' ' || (id > 5) FROM archive WHERE table_id = 't2' AND game = 3") ==
          "900 {\"r\":3} true");
    CHECK(db.query("SELECT count(*) FROM games_in_progress WHERE table_id = 't2'") == "0");
    CHECK(db.query("SELECT count(*) FROM archive_players p JOIN archive a ON a.id = p.id WHERE a.table_id = 't2' "
                   "AND a.game = 3") == "2");
    const auto again = store.open_tables();
    REQUIRE(again.size() == 2);
    CHECK(again[1].table.id == "t2");
    CHECK(again[1].game == 3);
    CHECK(again[1].game_finished);
}

// A game's end for a game that is not in progress archives nothing; the SQLite store says
// so in its log, and so does this one (it said nothing before: the statement's rows were
// not looked at). The store logs to the process's standard output: caught in a file here.
TEST_CASE("postgresql: the end of a game that is not in progress archives nothing and says so in the log") {
    PostgresBackend db("finish-none");
    const std::string path = "/tmp/sparts-finish-none-" + std::to_string(::getpid()) + ".log";
    std::fflush(stdout);
    const int saved = ::dup(1);
    const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(file >= 0);
    ::dup2(file, 1);
    {
        auto store = db.open();
        commit_now(*store, new_table("t9", 9));
        const PlayedGame g = play_game("t9", 1, 77, 0, 1000);
        for (const Write& w : g.writes) store->submit({w}, nullptr);
        store->flush(std::chrono::seconds(60));
        commit_now(*store, {FinishGame{"t9", 2, "{}", 5000}});  // game 2 never began
        commit_now(*store, {FinishGame{"t8", 1, "{}", 5000}});  // nor any game at t8
    }
    std::fflush(stdout);
    ::dup2(saved, 1);
    ::close(saved);
    ::close(file);
    std::ifstream in(path);
    const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    CHECK(log.find("table t9 game 2 ends, but it is not in progress") != std::string::npos);
    CHECK(log.find("table t8 game 1 ends, but it is not in progress") != std::string::npos);
    CHECK(log.find("table t9 game 1 ends") == std::string::npos);  // the game that was played is archived quietly
    CHECK(db.count("SELECT COUNT(*) FROM archive") == 1);
}
