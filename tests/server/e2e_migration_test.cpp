// End to end: a database written by the server of schema version 4 (made by
// tests/fixtures/v4/make.sh, killed in the middle of three games) opened by
// today's server. The migration folds every game's events into a record; the
// archive then serves every finished game exactly as the old server did (its
// answers are in tests/fixtures/v4/golden), each record passes `sparts
// verify`, and the tables that were open come back with their games.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <SQLiteCpp/SQLiteCpp.h>
#include "http_client.hpp"
#include "support/postgres.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;
using nlohmann::json;

namespace migration_test {

const std::filesystem::path kFixtures = std::filesystem::path(SPARTS_SOURCE_DIR) / "tests" / "fixtures";
const std::filesystem::path kFixture = kFixtures / "v4";

json read_json(const std::filesystem::path& p) {
    std::ifstream in(p);
    REQUIRE_MESSAGE(in, p.string());
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str());
}

// Runs a command; its exit status and what it printed.
std::pair<int, std::string> run(const std::string& command) {
    std::string out;
    FILE* p = ::popen((command + " 2>&1").c_str(), "r");
    REQUIRE(p);
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, p)) out.append(buffer, n);
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// The archive at `port` serves every game of the fixture as the server that made it did (its
// `games` finished games), and each record passes `sparts verify`.
void serves_as_before(std::uint16_t port, const std::filesystem::path& dir, const std::filesystem::path& fixture = kFixture,
                      std::size_t games = 8) {
    const json golden_list = read_json(fixture / "golden" / "list.json");
    const HttpReply list = http_get(port, "/api/games?limit=500");
    REQUIRE(list.status == 200);
    CHECK(json::parse(list.body) == golden_list);
    REQUIRE(golden_list.at("games").size() == games);

    for (const json& g : golden_list.at("games")) {
        const std::string name = g.at("table").get<std::string>() + "-" + std::to_string(g.at("game").get<int>());
        CAPTURE(name);
        const std::string path = "/api/games/" + g.at("table").get<std::string>() + "/" + std::to_string(g.at("game").get<int>());
        const HttpReply page = http_get(port, path);
        REQUIRE(page.status == 200);
        const json served = json::parse(page.body);
        const json expected = read_json(fixture / "golden" / (name + ".json"));
        REQUIRE(served.at("events").size() == expected.at("events").size());
        for (std::size_t i = 0; i < expected.at("events").size(); ++i) {
            CAPTURE(i);
            REQUIRE(served.at("events")[i] == expected.at("events")[i]);
        }
        CHECK(served == expected);

        const HttpReply record = http_get(port, path + "/record");
        REQUIRE(record.status == 200);
        CHECK(json::parse(record.body) == read_json(fixture / "golden" / (name + ".record.json")));
        const auto file = dir / (name + ".record.json");
        std::ofstream(file) << record.body;
        const auto [status, said] = run((std::filesystem::path(SPARTS_BINARY_DIR) / "tools" / "sparts").string() +
                                        " verify " + file.string());
        const std::string words = said;  // (clang cannot capture a structured binding in CHECK_MESSAGE's lambda)
        CHECK_MESSAGE(status == 0, words);
    }

    // Each player's page, alone and with a preset, lists exactly that player's games in the list's
    // order: the migrations file every seat of every game under its player (since version 12, under
    // the player's number).
    std::set<std::string> players;
    for (const json& g : golden_list.at("games"))
        for (const json& seat : g.at("players"))
            if (seat.contains("player")) players.insert(seat.at("player").get<std::string>());
    REQUIRE(!players.empty());
    for (const std::string& player : players) {
        CAPTURE(player);
        for (const char* preset : {"", "spades", "sparts"}) {
            CAPTURE(preset);
            json expected = json::array();
            for (const json& g : golden_list.at("games")) {
                if (*preset && g.at("preset") != preset) continue;
                for (const json& seat : g.at("players"))
                    if (seat.value("player", "") == player) {
                        expected.push_back(g);
                        break;
                    }
            }
            const HttpReply page =
                http_get(port, "/api/games?limit=500&player=" + player + (*preset ? std::string("&preset=") + preset : ""));
            REQUIRE(page.status == 200);
            CHECK(json::parse(page.body).at("games") == expected);
        }
    }
}

}  // namespace migration_test

using namespace migration_test;

TEST_CASE("e2e: a database of schema version 4, left by a killed server, is migrated: the archive serves every game "
          "as before, each record verifies, and the open tables come back") {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db" / ("migration-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto db = dir / "sparts.db";
    std::filesystem::copy_file(kFixture / "sparts.db", db);

    TestServer server({"--database", db.string(), "--table-grace", "600", "--log-level", "info"});
    const auto port = server.port();
    // The engine renders every stored event of every game the same today: no game is kept event by event.
    CHECK_MESSAGE(server.output().find("folded into 8 game records (0 kept event by event)") != std::string::npos,
                  server.output());

    serves_as_before(port, dir);

    // Nine tables were open, three of them in the middle of a game: all come back.
    CHECK(metric(port, "sparts_tables_open") == 9);
    CHECK(metric(port, "sparts_tables{state=\"playing\"}") == 3);
    CHECK_MESSAGE(server.output().find("[error]") == std::string::npos, server.output());
    std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: a database of schema version 9, left by a killed server, is migrated to the written-once archive: "
          "every game served as before and verified, ratings unchanged, the open tables back and playing") {
    const auto fixture = kFixtures / "v9";
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db" / ("migration-v9-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto db = dir / "sparts.db";
    std::filesystem::copy_file(fixture / "sparts.db", db);
    const auto ratings = [&] {
        SQLite::Database raw(db.string(), SQLite::OPEN_READONLY);
        SQLite::Statement q(raw, "SELECT player || ' ' || preset || ' ' || rating || ' ' || deviation || ' ' || games "
                                 "FROM ratings ORDER BY player, preset");
        std::vector<std::string> out;
        while (q.executeStep()) out.push_back(q.getColumn(0).getString());
        return out;
    };
    const auto before = ratings();
    REQUIRE(before.size() == 28);

    {
        TestServer server({"--database", db.string(), "--table-grace", "600", "--log-level", "info"});
        const auto port = server.port();
        CHECK_MESSAGE(server.output().find("schema migrated to version 10") != std::string::npos, server.output());
        serves_as_before(port, dir, fixture, 8);
        // Nine tables were open, three of them in the middle of a game: all come back.
        CHECK(metric(port, "sparts_tables_open") == 9);
        CHECK(metric(port, "sparts_tables{state=\"playing\"}") == 3);
        CHECK_MESSAGE(server.output().find("[error]") == std::string::npos, server.output());
    }
    CHECK(ratings() == before);
    SQLite::Database raw(db.string(), SQLite::OPEN_READONLY);
    CHECK(raw.execAndGet("SELECT count(*) FROM sqlite_schema WHERE name IN ('games', 'game_players')").getInt() == 0);
    CHECK(raw.execAndGet("PRAGMA integrity_check").getString() == "ok");
    std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: a PostgreSQL database of schema version 5, left by a killed server, is migrated to the written-once "
          "archive: every game served as before and verified, ratings unchanged, the open tables back and playing") {
    // tests/fixtures/pg5/make.sh made it: a pg_dump of the database, restored here into a new one.
    const auto fixture = kFixtures / "pg5";
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db" / ("migration-pg5-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const sparts::test::TempPgDatabase pg("migrationpg5");
    const auto [restored, said] = run("psql -X -q -v ON_ERROR_STOP=1 -d '" + pg.url() + "' -f " +
                                      (fixture / "sparts.sql").string());
    const std::string words = said;  // (clang cannot capture a structured binding in REQUIRE_MESSAGE's lambda)
    REQUIRE_MESSAGE(restored == 0, words);
    REQUIRE(pg.query("SELECT version FROM sparts_schema") == "5");
    const std::string ratings = "SELECT string_agg(player || ' ' || preset || ' ' || rating || ' ' || deviation || ' ' || "
                                "games, ', ' ORDER BY player, preset) FROM ratings";
    const std::string before = pg.query(ratings);
    REQUIRE(pg.query("SELECT count(*) FROM ratings") == "28");

    {
        TestServer server({"--database", pg.url(), "--table-grace", "600", "--log-level", "info"});
        const auto port = server.port();
        CHECK_MESSAGE(server.output().find("schema migrated to version 6") != std::string::npos, server.output());
        serves_as_before(port, dir, fixture, 8);
        // Nine tables were open, three of them in the middle of a game: all come back.
        CHECK(metric(port, "sparts_tables_open") == 9);
        CHECK(metric(port, "sparts_tables{state=\"playing\"}") == 3);
        CHECK_MESSAGE(server.output().find("[error]") == std::string::npos, server.output());
    }
    CHECK(pg.query(ratings) == before);
    CHECK(pg.query("SELECT to_regclass('games') IS NULL AND to_regclass('game_players') IS NULL") == "t");
    CHECK(pg.query("SELECT count(*) FROM games_in_progress") == "3");
    // Every seat a person held in a finished game is a row of archive_players, and the next game
    // archived is numbered after the migrated ones.
    CHECK(pg.query("SELECT count(*) FROM archive a, json_array_elements(a.players::json) e WHERE e->>'player' IS NOT NULL") ==
          pg.query("SELECT count(*) FROM archive_players"));
    CHECK(pg.query("SELECT last_value = (SELECT max(id) FROM archive) FROM archive_id_seq") == "t");
    std::filesystem::remove_all(dir);
}

TEST_CASE("e2e: --migrate-from copies a SQLite history into PostgreSQL, checks every game, and a server on PostgreSQL "
          "serves the archive as before and brings back the open tables") {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db" / ("to-postgres-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto db = dir / "sparts.db";
    std::filesystem::copy_file(kFixture / "sparts.db", db);
    const sparts::test::TempPgDatabase pg("migratefrom");

    // Into a SQLite file: refused, nothing done.
    const ServerRun wrong = run_server({"--migrate-from", db.string(), "--database", (dir / "other.db").string()});
    REQUIRE(wrong.status);
    CHECK(*wrong.status == 2);
    CHECK(wrong.err.find("give --database postgresql://") != std::string::npos);

    // The version-4 file is brought to version 5 on the way (its events folded into records), then copied and checked.
    const ServerRun copied = run_server({"--migrate-from", db.string(), "--database", pg.url()});
    CAPTURE(copied.out);
    CAPTURE(copied.err);
    REQUIRE(copied.status);
    CHECK(*copied.status == 0);
    CHECK(copied.out.find("copied " + db.string() + " into ") != std::string::npos);
    CHECK(copied.out.find("(9 open)") != std::string::npos);
    CHECK(copied.out.find("checked: 8 finished games read back the same and verify (sparts verify), 9 open tables come "
                          "back the same") != std::string::npos);

    // A second copy into the same database would mix two histories: refused, the first left whole.
    const ServerRun again = run_server({"--migrate-from", db.string(), "--database", pg.url()});
    REQUIRE(again.status);
    CHECK(*again.status == 1);
    CHECK(again.err.find("already holds players or tables") != std::string::npos);
    CHECK(pg.query("SELECT count(*) FROM archive") == "8");

    TestServer server({"--database", pg.url(), "--table-grace", "600", "--log-level", "info"});
    serves_as_before(server.port(), dir);
    CHECK(metric(server.port(), "sparts_tables_open") == 9);
    CHECK(metric(server.port(), "sparts_tables{state=\"playing\"}") == 3);
    CHECK_MESSAGE(server.output().find("[error]") == std::string::npos, server.output());
    std::filesystem::remove_all(dir);
}
