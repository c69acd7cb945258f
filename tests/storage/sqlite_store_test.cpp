#include <doctest/doctest.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <atomic>
#include <functional>
#include <fstream>
#include <thread>
#include <unistd.h>
#include "storage/sqlite/schema.hpp"
#include "storage/game_log.hpp"
#include "storage/sqlite/sqlite_store.hpp"
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

}  // namespace

TEST_CASE("a new file gets the latest schema, in WAL mode") {
    TempDatabase db("fresh");
    { auto store = must_open(db.path()); }
    CHECK(schema_version(db.path()) == latest_schema_version());
    SQLite::Database check(db.path(), SQLite::OPEN_READONLY);
    CHECK(check.execAndGet("PRAGMA journal_mode").getString() == "wal");
    for (const char* table : {"players", "tables", "seats", "games_in_progress", "archive", "archive_players", "journal"})
        CHECK_MESSAGE(check.tableExists(table), table);
    CHECK_FALSE(check.tableExists("games"));         // written once into the archive since version 10
    CHECK_FALSE(check.tableExists("game_players"));
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

TEST_CASE("a damaged page is refused at open in a small file, and found once the server is up in a large one") {
    TempDatabase db("damaged");
    {
        auto store = must_open(db.path());
        Batch b;
        for (int i = 0; i < 3000; ++i)
            b.push_back(PutPlayer{"p" + std::to_string(i), "h" + std::to_string(i), std::string(200, 'n'), 1});
        store->submit(std::move(b), nullptr);
        REQUIRE(store->flush(std::chrono::seconds(30)));
    }
    {
        SQLite::Database raw(db.path(), SQLite::OPEN_READWRITE);
        raw.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    // A page in the middle of the players' tree, overwritten: the header and the schema still read.
    {
        std::fstream f(db.path(), std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(4096 * 40 + 100);
        const std::string junk(2000, '\x7f');
        f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    auto refused = SqliteStore::open(db.path());
    REQUIRE_FALSE(refused);
    CHECK(refused.error().find("is corrupt") != std::string::npos);

    SqliteOptions later;
    later.check_at_open_bytes = 0;  // as a file over a gigabyte: checked once open
    auto opened = SqliteStore::open(db.path(), later);
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    int integrity = -1;
    for (int i = 0; i < 500 && integrity < 0; ++i) {
        integrity = (*opened)->stats().integrity;
        if (integrity < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(integrity == 0);
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

