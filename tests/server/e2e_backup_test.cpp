// End to end: backups of the SQLite database (server/admin/backups.hpp;
// docs/OPERATING.md, "Backups"). A backup asked of the admin API while tables
// play, and one made by `sparts-server --backup-to` beside the running server,
// each restored into a new server: every game whose end a client was shown
// before the backup is in its archive and verifies, and the tables open at the
// backup come back and play to their end; and so does PostgreSQL's recipe
// (pg_dump while the tables play, pg_restore into a new database; a base backup while they play,
// and the archived WAL replayed to a moment: tests/support/pitr.sh). The schedule makes backups by itself
// and keeps the newest --backup-keep; settings that cannot work stop the start.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>
#include <fstream>
#include <set>
#include <thread>
#include "cluster_play.hpp"
#include "support/postgres.hpp"
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"
#include "verify_record.hpp"

using namespace sparts::e2e;

namespace {

const std::string kToken = "0d4c8e2a6b1f3e5d7c9a0b2d4f6e8a1c3e5b7d9f0a2c4e6b8d0f1a3c5e7b9d2f";

std::filesystem::path scratch(const std::string& name) {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" / (name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string token_file(const std::filesystem::path& dir) {
    const auto path = (dir / "admin-token").string();
    std::ofstream(path, std::ios::trunc) << kToken << "\n";
    ::chmod(path.c_str(), 0600);
    return path;
}

HttpReply admin(std::uint16_t port, const std::string& method, const std::string& target) {
    return http_request(port, method, target, "", {{"Authorization", "Bearer " + kToken}});
}

json body_of(const HttpReply& r) {
    const json j = json::parse(r.body, nullptr, false);
    if (j.is_discarded()) FAIL("not JSON: " << r.body);
    return j;
}

bool all_over(const PlayedTable& t) {
    for (const auto& s : t.seats)
        if (s.bot->games_over == 0) return false;
    return true;
}

// The players of tables[from..] stop acting once the third hand (their games' last) has started,
// so that those games are still going on whatever the machine's pace.
void hold_at_last_hand(std::vector<PlayedTable>& tables, std::size_t from) {
    for (std::size_t i = from; i < tables.size(); ++i)
        for (auto& seat : tables[i].seats) seat.bot->pause_when = [](const Bot& b) { return b.hands_started >= 3; };
}

// A copy of a backup's file to restore from (the backup itself is kept as it was made).
std::string restored_copy(const std::filesystem::path& backup, const std::string& label) {
    const auto copy = backup.parent_path() / (label + "-restored.db");
    std::filesystem::copy_file(backup, copy, std::filesystem::copy_options::overwrite_existing);
    return copy.string();
}

// A server started on the restored `database`: every table in `ended` has its game in the
// archive, and it verifies; every table in `open` comes back, and its seats' players, back with
// their tokens, play it to its end.
void check_restored(const std::string& database, const std::string& label, std::vector<PlayedTable>& ended,
                    std::vector<PlayedTable>& open, const std::function<void(std::uint16_t port)>& also = {}) {
    CAPTURE(label);
    TestServer restored({"--database", database, "--messages-per-second", "100000", "--connections-per-address", "1000"});
    if (also) also(restored.port());
    for (auto& t : ended) {
        CAPTURE(t.id);
        const HttpReply game = http_get(restored.port(), "/api/games/" + t.id + "/1");
        REQUIRE(game.status == 200);
        CHECK(body_of(game).at("finished").get<long long>() > 0);
        const HttpReply record = http_get(restored.port(), "/api/games/" + t.id + "/1/record");
        REQUIRE(record.status == 200);
        const auto [status, said] = verify_record(record.body, label + "-" + t.id);
        const std::string words = said;
        CHECK_MESSAGE(status == 0, words);
    }
    // The open tables, as the backup holds them: each seat's player comes back (its token is in the
    // backup), is given the table as it stood (a snapshot: the clients had seen more than the backup
    // kept), and plays on to the game's end.
    EventLoop loop;
    std::vector<std::unique_ptr<TestClient>> clients;
    std::vector<std::unique_ptr<Bot>> bots;
    std::vector<Bot*> playing;
    for (auto& t : open)
        for (int s = 0; s < 4; ++s) {
            const Seat& seat = t.seats[static_cast<std::size_t>(s)];
            clients.push_back(std::make_unique<TestClient>(loop, restored.port(), seat.name + "-" + label));
            const json hello = clients.back()->hello(seat.name, seat.token);
            REQUIRE(hello.value("type", "") == "ok");
            CHECK(hello.at("seats") == json::array({{{"table", t.id}, {"seat", s}}}));
            const json resumed = clients.back()->request_ok({{"type", "resume"}, {"table", t.id}, {"seq", 0}});
            CHECK(resumed.at("seat") == s);
            bots.push_back(std::make_unique<Bot>(*clients.back(), t.id, s, 500 + static_cast<std::uint64_t>(s)));
            playing.push_back(bots.back().get());
        }
    run_until(loop, playing, [&] {
        for (Bot* b : playing)
            if (b->games_over == 0) return false;
        return true;
    }, "the restored tables' games to end");
    for (Bot* b : playing)
        for (const auto& p : b->problems) FAIL_CHECK(p);
    for (auto& t : open) CHECK(http_get(restored.port(), "/api/games/" + t.id + "/1").status == 200);
}

}  // namespace

TEST_CASE("e2e backup: made while tables play (by the admin API, and by --backup-to beside the server), each restores "
          "into a new server with every game whose end was shown before it, verified, and its open tables playable") {
    const auto dir = scratch("backup");
    TestServer server({"--admin-token-file", token_file(dir), "--backup-dir", (dir / "backups").string(), "--backup-keep",
                       "5", "--messages-per-second", "100000", "--connections-per-address", "1000", "--tables-per-player",
                       "100", "--players-per-address-per-minute", "1000"});
    EventLoop loop;
    // Three short games (a hand) that end before the backups, three long ones (three hands) that
    // they catch mid-game: their players play on through both backups, but wait at the last hand
    // (the restored servers' clients play it).
    std::vector<PlayedTable> tables = set_up(loop, server.port(), "backup-short", 3, {{"hand_cap", 1}});
    for (auto& t : set_up(loop, server.port(), "backup-long", 3, {{"hand_cap", 3}})) tables.push_back(std::move(t));
    hold_at_last_hand(tables, 3);
    const auto began = Clock::now();
    auto short_over = [&] { return all_over(tables[0]) && all_over(tables[1]) && all_over(tables[2]); };
    play(loop, server.port(), tables, began, short_over);
    for (std::size_t i = 3; i < 6; ++i) REQUIRE(tables[i].seats[0].bot->games_over == 0);

    // The admin API's backup, while the long games go on.
    CHECK(metric(server.port(), "sparts_backup_last_success_timestamp_seconds") == 0);
    const HttpReply asked = admin(server.port(), "POST", "/admin/backups");
    REQUIRE(asked.status == 200);
    const std::string file = body_of(asked).at("backup").get<std::string>();
    CHECK(file.starts_with("sparts-"));
    json status;
    auto last_poll = Clock::now();
    play(loop, server.port(), tables, began, [&] {
        if (Clock::now() - last_poll < Millis(200)) return false;
        last_poll = Clock::now();
        status = body_of(admin(server.port(), "GET", "/admin/backups"));
        return !status.at("running").get<bool>();
    });
    CAPTURE(status);
    REQUIRE(status.at("last").at("file") == file);
    CHECK(status.at("last").at("bytes").get<long long>() > 0);
    CHECK(status.at("files").size() == 1);
    CHECK(metric(server.port(), "sparts_backups_total{result=\"ok\"}") == 1);
    CHECK(metric(server.port(), "sparts_backup_last_success_timestamp_seconds") > 0);
    CHECK(metric(server.port(), "sparts_backup_last_bytes") == status.at("last").at("bytes").get<double>());
    CHECK(metric(server.port(), "sparts_admin_actions_total{action=\"backup\"}") == 1);

    // And one from another process, beside the running server.
    const auto cli_copy = dir / "by-hand.db";
    const ServerRun by_hand = run_server({"--database", (server.dir() / "sparts.db").string(), "--backup-to", cli_copy.string()});
    REQUIRE(by_hand.status.has_value());
    const std::string said = by_hand.out + by_hand.err;
    CHECK_MESSAGE(*by_hand.status == 0, said);
    CHECK(by_hand.out.find("bytes") != std::string::npos);
    for (std::size_t i = 3; i < 6; ++i) CHECK(tables[i].seats[0].bot->games_over == 0);  // caught mid-game

    std::vector<PlayedTable> ended, open;
    for (std::size_t i = 0; i < 6; ++i) (i < 3 ? ended : open).push_back(std::move(tables[i]));
    REQUIRE(server.stop(SIGKILL, Millis(10'000)).has_value());  // what came after the backups is not in them
    check_restored(restored_copy(dir / "backups" / file, "admin"), "admin", ended, open);
    check_restored(restored_copy(cli_copy, "by-hand"), "by-hand", ended, open);
    std::filesystem::remove_all(dir);
}

TEST_CASE("e2e backup: the schedule makes backups by itself and keeps the newest --backup-keep, and backups that cannot "
          "be made are refused with their reason") {
    const auto dir = scratch("backup-schedule");
    {  // the scheduled server stops before its folder is removed (a backup a second: a file could go mid-removal)
        TestServer server({"--admin-token-file", token_file(dir), "--backup-dir", (dir / "backups").string(),
                           "--backup-every-seconds", "1", "--backup-keep", "2"});
        const auto deadline = Clock::now() + Millis(60'000);
        while (metric(server.port(), "sparts_backups_total{result=\"ok\"}") < 4 && Clock::now() < deadline)
            std::this_thread::sleep_for(Millis(200));
        CHECK(metric(server.port(), "sparts_backups_total{result=\"ok\"}") >= 4);
        const json status = body_of(admin(server.port(), "GET", "/admin/backups"));
        CAPTURE(status);
        int files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir / "backups")) {
            CHECK(entry.path().filename().string().starts_with("sparts-"));
            CHECK(entry.path().extension() == ".db");
            ++files;
        }
        // The newest two, and at most one being written.
        CHECK(files >= 2);
        CHECK(files <= 3);
        CHECK(status.at("keep") == 2);
        // The server names the file: a body that names one is refused, and so is another method.
        const HttpReply named = http_request(server.port(), "POST", "/admin/backups", R"({"to": "/etc/passwd"})",
                                             {{"Authorization", "Bearer " + kToken}});
        CHECK(named.status == 400);
        CHECK(body_of(named).at("error") == "bad_body");
        const HttpReply deleted = admin(server.port(), "DELETE", "/admin/backups");
        CHECK(deleted.status == 405);
        CHECK(deleted.header("allow") == "POST, GET");
        CHECK_FALSE(std::filesystem::exists("/etc/passwd.partial"));
    }

    // No backups without --backup-dir: the admin API says so, and changes nothing.
    TestServer plain({"--admin-token-file", token_file(dir)});
    const HttpReply refused = admin(plain.port(), "POST", "/admin/backups");
    CHECK(refused.status == 409);
    CHECK(body_of(refused).at("error") == "backups_off");

    // Settings that cannot work stop the start, each with its reason.
    const ServerRun no_dir = run_server({"--port", "0", "--database", (dir / "x.db").string(), "--backup-every-seconds", "60"});
    REQUIRE(no_dir.status.has_value());
    CHECK(*no_dir.status == 2);
    CHECK(no_dir.err.find("--backup-dir") != std::string::npos);
    const ServerRun nothing = run_server({"--port", "0", "--database", "none", "--backup-dir", (dir / "b").string()});
    REQUIRE(nothing.status.has_value());
    CHECK(*nothing.status == 1);
    CHECK((nothing.out + nothing.err).find("--backup-dir backs up a SQLite --database") != std::string::npos);
    const ServerRun postgres = run_server({"--database", "postgresql://nobody@127.0.0.1:1/none", "--backup-to", (dir / "p.db").string()});
    REQUIRE(postgres.status.has_value());
    CHECK(*postgres.status == 2);
    CHECK(postgres.err.find("pg_dump") != std::string::npos);
    const ServerRun missing = run_server({"--database", (dir / "missing.db").string(), "--backup-to", (dir / "m.db").string()});
    REQUIRE(missing.status.has_value());
    CHECK(*missing.status == 1);
    CHECK(missing.err.find("no database at") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "m.db"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("e2e backup on PostgreSQL: pg_dump while tables play and pg_restore into a new database, as docs/OPERATING.md "
          "says: every game whose end was shown before the dump, verified, and the open tables playable") {
    sparts::test::TempPgDatabase live("backuplive");
    sparts::test::TempPgDatabase restored("backuprestored");
    const auto dir = scratch("backup-pg");
    TestServer server({"--database", live.url(), "--messages-per-second", "100000", "--connections-per-address", "1000",
                       "--tables-per-player", "100", "--players-per-address-per-minute", "1000"});
    EventLoop loop;
    std::vector<PlayedTable> tables = set_up(loop, server.port(), "pgdump-short", 2, {{"hand_cap", 1}});
    for (auto& t : set_up(loop, server.port(), "pgdump-long", 2, {{"hand_cap", 3}})) tables.push_back(std::move(t));
    hold_at_last_hand(tables, 2);
    const auto began = Clock::now();
    play(loop, server.port(), tables, began, [&] { return all_over(tables[0]) && all_over(tables[1]); });
    for (std::size_t i = 2; i < 4; ++i) REQUIRE(tables[i].seats[0].bot->games_over == 0);

    // The dump, on a thread of its own while the tables play on.
    const std::string dump = (dir / "sparts.dump").string();
    std::atomic<int> dumped{-1};
    std::thread dumper([&] { dumped = std::system(("pg_dump --format=custom --file=" + dump + " '" + live.url() + "'").c_str()); });
    play(loop, server.port(), tables, began, [&] { return dumped.load() != -1; });
    dumper.join();
    REQUIRE(dumped.load() == 0);
    for (std::size_t i = 2; i < 4; ++i) CHECK(tables[i].seats[0].bot->games_over == 0);  // caught mid-game
    REQUIRE(server.stop(SIGKILL, Millis(10'000)).has_value());
    REQUIRE(std::system(("pg_restore --no-owner --dbname='" + restored.url() + "' " + dump).c_str()) == 0);

    std::vector<PlayedTable> ended, open;
    for (std::size_t i = 0; i < 4; ++i) (i < 2 ? ended : open).push_back(std::move(tables[i]));
    check_restored(restored.url(), "pg", ended, open);
    std::filesystem::remove_all(dir);
}

namespace {

// tests/support/pitr.sh COMMAND DIR [ARG]: its standard output (a URL), or a failed REQUIRE.
std::string pitr(const std::string& command, const std::string& dir, const std::string& arg = "") {
    const std::string line = std::string(SPARTS_SOURCE_DIR) + "/tests/support/pitr.sh " + command + " " + dir +
                             (arg.empty() ? "" : " '" + arg + "'");
    FILE* out = ::popen(line.c_str(), "r");
    REQUIRE(out != nullptr);
    std::string said;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, out)) said += buffer;
    const int status = ::pclose(out);
    REQUIRE_MESSAGE(status == 0, line);
    while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
    return said;
}

// Now in PostgreSQL's words, to the millisecond, in UTC.
std::string utc_now() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &utc);
    char out[80];
    std::snprintf(out, sizeof out, "%s.%03d+00", text, static_cast<int>(ms));
    return out;
}

}  // namespace

TEST_CASE("e2e backup on PostgreSQL: a base backup taken while tables play and the archived WAL restore the database to "
          "a moment, as docs/OPERATING.md says: every game ended before it, verified, none after, and the open tables "
          "playable") {
    // The postgres user must reach the clusters: a folder of /tmp, not of the build tree.
    const std::string dir = "/tmp/sparts-pitr-" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    struct Stop {
        std::string dir;
        ~Stop() {
            const std::string line = std::string(SPARTS_SOURCE_DIR) + "/tests/support/pitr.sh stop " + dir;
            if (std::system(line.c_str()) != 0) std::fprintf(stderr, "pitr.sh stop %s failed\n", dir.c_str());
            std::filesystem::remove_all(dir);
        }
    } stop{dir};
    const std::string primary = pitr("primary", dir);
    std::string moment;
    EventLoop loop;  // before the tables: their clients end before it does
    std::vector<PlayedTable> before, after;
    std::vector<PlayedTable> open;
    {
        TestServer server({"--database", primary, "--messages-per-second", "100000", "--connections-per-address", "1000",
                           "--tables-per-player", "100", "--players-per-address-per-minute", "1000"});
        // Games that end before the base backup, one held in its last hand, then the backup while they play.
        std::vector<PlayedTable> tables = set_up(loop, server.port(), "pitr-first", 1, {{"hand_cap", 1}});
        for (auto& t : set_up(loop, server.port(), "pitr-open", 1, {{"hand_cap", 3}})) tables.push_back(std::move(t));
        hold_at_last_hand(tables, 1);
        const auto began = Clock::now();
        play(loop, server.port(), tables, began, [&] { return all_over(tables[0]); });
        // On a thread of its own while the tables play (its status checked here: a REQUIRE there would end the run).
        std::atomic<int> backed_up{-1};
        std::thread backup([&] {
            const std::string line = std::string(SPARTS_SOURCE_DIR) + "/tests/support/pitr.sh base-backup " + dir;
            backed_up = std::system(line.c_str());
        });
        play(loop, server.port(), tables, began, [&] { return backed_up.load() != -1; });
        backup.join();
        REQUIRE(backed_up.load() == 0);
        // A game that ends after the backup, before the moment: only the archived WAL has it.
        std::vector<PlayedTable> second = set_up(loop, server.port(), "pitr-second", 1, {{"hand_cap", 1}});
        play(loop, server.port(), second, began, [&] { return all_over(second[0]); });
        REQUIRE(tables[1].seats[0].bot->games_over == 0);  // held mid-game
        std::this_thread::sleep_for(std::chrono::milliseconds(1200));
        moment = utc_now();
        std::this_thread::sleep_for(std::chrono::milliseconds(1200));
        // A table made and played to its end after the moment: the restored database has none of it.
        after = set_up(loop, server.port(), "pitr-after", 1, {{"hand_cap", 1}});
        play(loop, server.port(), after, began, [&] { return all_over(after[0]); });
        pitr("switch-wal", dir);
        REQUIRE(server.stop(SIGKILL, Millis(10'000)).has_value());
        before.push_back(std::move(tables[0]));
        before.push_back(std::move(second[0]));
        open.push_back(std::move(tables[1]));
    }
    CAPTURE(moment);
    const std::string restored = pitr("restore", dir, moment);
    check_restored(restored, "pitr", before, open, [&](std::uint16_t port) {
        // The archive holds exactly the games that ended before the moment.
        const HttpReply list = http_get(port, "/api/games?limit=500");
        REQUIRE(list.status == 200);
        std::set<std::string> archived;
        const json page = body_of(list);  // held: a range over a temporary's member would dangle
        for (const json& g : page.at("games")) archived.insert(g.at("table").get<std::string>());
        const std::set<std::string> expected{before[0].id, before[1].id};
        CHECK_MESSAGE(archived == expected, list.body);
        for (const auto& t : after) CHECK(http_get(port, "/api/games/" + t.id + "/1").status == 404);
    });
}
