// End to end: a database the server cannot use. A file that is locked by
// another server, corrupt, from a newer version, or read-only is refused at
// start with a message that says so. A disk that fills in the middle of a
// game keeps the server up, logs the failed commits, and holds the table's
// frames back until they are stored: no client is told of an event that is
// not on disk, and when space comes back the game goes on with nothing lost.
#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;
namespace fs = std::filesystem;

namespace {

// A fresh folder for one test's database files.
fs::path scratch(const std::string& name) {
    const auto dir = fs::path(SPARTS_BINARY_DIR) / "e2e-scratch" / (name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// A database made by the server itself: started, a player says hello, stopped cleanly.
void make_database(const std::string& path) {
    TestServer server({"--database", path});
    EventLoop loop;
    TestClient c(loop, server.port(), "db-maker");
    REQUIRE(c.hello("maker").value("type", "") == "ok");
    REQUIRE(stop_server(server, loop) == 0);
}

std::uint32_t header_u32(const std::string& path, std::streamoff offset) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(offset);
    unsigned char b[4] = {};
    in.read(reinterpret_cast<char*>(b), 4);
    return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
}

void set_header_u32(const std::string& path, std::streamoff offset, std::uint32_t v) {
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(offset);
    const unsigned char b[4] = {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
                                static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    f.write(reinterpret_cast<const char*>(b), 4);
}

void refused(const ServerRun& run, const std::vector<std::string>& said) {
    CAPTURE(run.out);
    REQUIRE(run.status.has_value());
    CHECK(*run.status == 1);
    CHECK(run.out.find("listening on") == std::string::npos);
    const std::string all = run.out + run.err;
    CAPTURE(all);
    for (const auto& s : said) CHECK_MESSAGE(all.find(s) != std::string::npos, s);
}

void set_file_size_limit(pid_t pid, rlim_t limit) {
    rlimit l{};
    REQUIRE(::prlimit(pid, RLIMIT_FSIZE, nullptr, &l) == 0);
    l.rlim_cur = limit;
    REQUIRE_MESSAGE(::prlimit(pid, RLIMIT_FSIZE, &l, nullptr) == 0, "prlimit: " << std::strerror(errno));
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("e2e: a database that is locked, corrupt, from a newer version or missing its folder is refused at start") {
    const auto dir = scratch("db-refused");

    // In use by another server.
    const std::string used = (dir / "used.db").string();
    {
        TestServer first({"--database", used});
        refused(run_server({"--port", "0", "--database", used}), {"cannot start", used, "is locked", "another sparts-server"});
        CHECK(first.running());
    }

    // Not a database.
    const std::string corrupt = (dir / "corrupt.db").string();
    { std::ofstream(corrupt, std::ios::binary) << std::string(16384, 'x'); }
    refused(run_server({"--port", "0", "--database", corrupt}), {"cannot start", corrupt, "corrupt"});
    CHECK(fs::file_size(corrupt) == 16384);  // left as it was

    // A real database whose pages are damaged.
    const std::string damaged = (dir / "damaged.db").string();
    make_database(damaged);
    REQUIRE(fs::file_size(damaged) > 4 * 4096);
    {
        std::fstream f(damaged, std::ios::binary | std::ios::in | std::ios::out);
        f.seekp(4096);  // pages 2 to 4: the b-tree roots of the players table and its indexes
        f << std::string(3 * 4096, '\xA5');
    }
    refused(run_server({"--port", "0", "--database", damaged}), {"cannot start", damaged, "corrupt"});

    // From a newer server: user_version (the header's bytes 60-63) above this server's schema.
    const std::string newer = (dir / "newer.db").string();
    make_database(newer);
    REQUIRE_FALSE(fs::exists(newer + "-wal"));  // closed cleanly: the header in the file is the database's
    const std::uint32_t version = header_u32(newer, 60);
    REQUIRE(version > 0);
    set_header_u32(newer, 60, version + 1);
    refused(run_server({"--port", "0", "--database", newer}),
            {"cannot start", newer, "schema version " + std::to_string(version + 1), "newer than this server"});
    CHECK(header_u32(newer, 60) == version + 1);  // not touched

    // In a folder that does not exist.
    refused(run_server({"--port", "0", "--database", (dir / "nowhere" / "x.db").string()}), {"cannot start", "nowhere"});
    fs::remove_all(dir);
}

TEST_CASE("e2e: a read-only database, or one in a folder the server may not write, is refused at start with a clear message") {
    // As root, file modes do not stop writes: the server is then run as nobody.
    const bool root = ::geteuid() == 0;
    ChildSetup as;
    if (root) as.uid = kNobody;
    using fs::perms;
    const perms read_only = perms::owner_read | perms::group_read | perms::others_read;
    const perms read_write = read_only | perms::owner_write | perms::group_write | perms::others_write;
    const perms folder_open = perms::all;  // root's test writes it; the server may too
    const perms folder_closed = perms::owner_all | perms::group_read | perms::group_exec | perms::others_read |
                                perms::others_exec;  // the server, not its owner when root, may not write it
    const auto dir = scratch("db-readonly");
    const std::string db = (dir / "ro.db").string();
    make_database(db);
    REQUIRE_FALSE(fs::exists(db + "-wal"));
    // The lock file beside it may be written: another check than the ones under test.
    fs::permissions(db + ".lock", read_write);
    const auto size = fs::file_size(db);
    auto check_refused = [&](const std::string& what, const std::vector<std::string>& said) {
        CAPTURE(what);
        const auto run = run_server({"--port", "0", "--database", db}, as);
        refused(run, said);
        CHECK(fs::file_size(db) == size);
    };
    // (Not root, the server runs as the folder's owner, who may always write it: the folder cases need root.)

    // The file read-only, its folder writable (a file restored with the wrong mode).
    fs::permissions(dir, folder_open);
    fs::permissions(db, read_only);
    check_refused("file read-only", {"cannot start", db, "is read-only"});
    for (const char* suffix : {"-wal", "-shm"}) fs::remove(db + suffix);

    if (root) {
        // The file read-only and its folder too.
        fs::permissions(dir, folder_closed);
        check_refused("file and folder read-only", {"cannot start", db, "read-only"});
        // The file writable, its folder not: no room for the -wal and -shm files.
        fs::permissions(db, read_write);
        check_refused("folder read-only", {"cannot start", db, "read-only", "folder"});
        // And with no lock file either: the lock file cannot be made.
        fs::permissions(dir, perms::owner_all);
        fs::remove(db + ".lock");
        fs::permissions(dir, folder_closed);
        check_refused("no lock file", {"cannot start", db + ".lock", "Permission denied"});
    }
    fs::permissions(dir, perms::owner_all);
    fs::permissions(db, perms::owner_read | perms::owner_write);
    fs::remove_all(dir);
}

TEST_CASE("e2e: SIGTERM while the disk is full stops within the shutdown time, says what was not stored, exits 3") {
    const auto dir = scratch("db-full-stop");
    const std::string db = (dir / "full.db").string();
    ChildSetup setup;
    setup.ignore_sigxfsz = true;
    setup.stderr_to_pipe = true;
    TestServer server({"--messages-per-second", "100000", "--database", db, "--log-level", "warn", "--shutdown-seconds",
                       "1"},
                      setup);
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "full-stop", create_table("spades"), 4, 0, 43);
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return g.seat(0).trick_cards == 1; }, "a card into the first trick");
    set_file_size_limit(server.pid(), 1);
    const auto deadline = Clock::now() + kWait;
    while (count_of(server.output(), "commit of ") == 0) {
        REQUIRE_MESSAGE(Clock::now() < deadline, "no failed commit in the log:\n" << server.output());
        for (Bot* b : g.all()) b->step();
        loop.run_one(Clock::now() + Millis(20));
    }
    const auto stopped = stop_server(server, loop);
    const std::string log = server.output();
    CAPTURE(log);
    REQUIRE(stopped.has_value());
    CHECK(*stopped == 3);
    CHECK(log.find("not committed") != std::string::npos);
    CHECK(log.find("they are lost") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("e2e: a disk that fills mid-game keeps the server up and logs it, holds back every event until it is "
          "stored, and loses nothing when space comes back or the server is killed meanwhile") {
    const auto dir = scratch("db-full");
    const std::string db = (dir / "full.db").string();
    const std::vector<std::string> flags = {"--messages-per-second", "100000", "--database", db, "--table-grace", "600",
                                            "--log-level", "warn"};
    // SIGXFSZ ignored: a write past the limit fails with EFBIG, as on a full disk, instead of killing the server.
    ChildSetup setup;
    setup.ignore_sigxfsz = true;
    setup.stderr_to_pipe = true;
    std::map<std::uint64_t, json> told;
    std::string table;
    std::vector<std::string> tokens;
    std::vector<std::uint64_t> last_seqs;
    std::vector<std::set<std::string>> hands;
    std::vector<int> trick_cards;

    // Wait for the "commit failed" line in the log, while the bots play on.
    auto until_commit_fails = [](TestServer& server, EventLoop& loop, const std::vector<Bot*>& bots, std::size_t failures) {
        const auto deadline = Clock::now() + kWait;
        while (count_of(server.output(), "commit of ") < failures) {
            REQUIRE_MESSAGE(Clock::now() < deadline, "no failed commit in the log:\n" << server.output());
            for (Bot* b : bots) b->step();
            loop.run_one(Clock::now() + Millis(20));
        }
    };
    // Runs the loop for `how_long` with the bots acting: what arrives meanwhile.
    auto play_for = [](EventLoop& loop, const std::vector<Bot*>& bots, Millis how_long) {
        const auto until = Clock::now() + how_long;
        while (Clock::now() < until) {
            for (Bot* b : bots) b->step();
            loop.run_one(std::min(until, Clock::now() + Millis(50)));
        }
        for (Bot* b : bots) b->step();
    };
    auto seqs_of = [](const std::vector<Bot*>& bots) {
        std::vector<std::uint64_t> v;
        for (const Bot* b : bots) v.push_back(b->last_seq.value_or(0));
        return v;
    };
    // Plays until no event has come for `quiet`: frames of commits made before the disk filled are all in.
    auto settle = [&](EventLoop& loop, const std::vector<Bot*>& bots, Millis quiet) {
        const auto deadline = Clock::now() + kWait;
        for (auto seen = seqs_of(bots);;) {
            play_for(loop, bots, quiet);
            const auto now = seqs_of(bots);
            if (now == seen) return;
            REQUIRE(Clock::now() < deadline);
            seen = now;
        }
    };

    {
        TestServer server(flags, setup);
        EventLoop loop;
        TableGame g = set_up_table(loop, server.port(), "full", create_table("spades", {{"hand_cap", 2}}), 4, 1, 41);
        table = g.table;
        g.clients[0]->request_ok({{"type", "start"}, {"table", table}});
        run_until(loop, g.all(), [&] { return g.seat(0).trick_cards == 2; }, "two cards into a trick");

        // --- the disk fills: no write can go past the file's first byte -------------------------
        set_file_size_limit(server.pid(), 1);
        until_commit_fails(server, loop, g.all(), 1);
        settle(loop, g.all(), Millis(500));  // frames of commits that made it before the limit
        const auto frozen = seqs_of(g.all());
        const auto frames_before = g.clients[4]->received().size();
        // Two more attempts (one a second) while the bots wait for their turns and replies.
        until_commit_fails(server, loop, g.all(), 3);
        play_for(loop, g.all(), Millis(100));
        CHECK(seqs_of(g.all()) == frozen);  // not one event got out unstored
        CHECK(g.clients[4]->received().size() == frames_before);
        // The server is up and says what is wrong.
        CHECK(server.running());
        CHECK(http_get(server.port(), "/healthz").status == 200);
        CHECK(http_get(server.port(), "/api/games").status == 200);
        {
            const std::string log = server.output();
            CAPTURE(log);
            CHECK(log.find(db) != std::string::npos);
            CHECK(log.find("retrying") != std::string::npos);
            // SQLite says "database or disk is full" or "disk I/O error" (as here): either way the log says the disk may be full.
            CHECK(log.find("full") != std::string::npos);
        }

        // --- space comes back: the held frames go out, and the game goes on ---------------------------
        set_file_size_limit(server.pid(), RLIM_INFINITY);
        run_until(loop, g.all(), [&] { return g.seat(0).hands_started >= 2 && g.seat(0).trick_cards == 3; },
                  "hand 2 after space came back");
        for (auto& b : g.bots)
            for (const auto& p : b->problems) FAIL_CHECK(p);
        CHECK(seqs_of(g.all())[0] > frozen[0] + 52);

        // --- full again, and the server is killed while it cannot store --------------------------------
        const auto failures = count_of(server.output(), "commit of ");
        set_file_size_limit(server.pid(), 1);
        until_commit_fails(server, loop, g.all(), failures + 1);
        play_for(loop, g.all(), Millis(300));
        REQUIRE(server.stop(SIGKILL, kWait).has_value());
        for (auto& b : g.bots) b->step();
        collect(g.all(), told);
        for (std::size_t i = 0; i < g.bots.size(); ++i) {
            tokens.push_back(g.clients[i]->token());
            last_seqs.push_back(g.bots[i]->last_seq.value_or(0));
            hands.push_back(g.bots[i]->hand);
            trick_cards.push_back(g.bots[i]->trick_cards);
        }
        for (auto& b : g.bots)
            for (const auto& p : b->problems) FAIL_CHECK(p);
    }

    // A new server on the file: every event a client was shown is there, so each resumes where it was.
    TestServer server(flags);
    EventLoop loop;
    std::vector<std::unique_ptr<TestClient>> clients;
    std::vector<std::unique_ptr<Bot>> bots;
    for (std::size_t i = 0; i < 5; ++i) {
        clients.push_back(std::make_unique<TestClient>(loop, server.port(), "full-2-" + std::to_string(i)));
        REQUIRE(clients.back()->hello("back", tokens[i]).value("type", "") == "ok");
        const json reply = clients.back()->request({{"type", "resume"}, {"table", table}, {"seq", last_seqs[i]}});
        CAPTURE(reply);
        REQUIRE(reply.value("type", "") == "ok");
        bots.push_back(std::make_unique<Bot>(*clients.back(), table, i < 4 ? static_cast<int>(i) : -1, 700 + i));
        bots.back()->last_seq = last_seqs[i];
        bots.back()->hand = hands[i];
        bots.back()->trick_cards = trick_cards[i];
    }
    std::vector<Bot*> all;
    for (auto& b : bots) all.push_back(b.get());
    run_until(loop, all, [&] { return std::all_of(all.begin(), all.end(), [](Bot* b) { return b->games_over > 0; }); },
              "game over after the restart");
    for (Bot* b : all)
        for (const auto& p : b->problems) FAIL_CHECK(p);
    collect(all, told);

    const HttpReply r = http_get(server.port(), "/api/games/" + table + "/1");
    REQUIRE(r.status == 200);
    std::map<std::uint64_t, json> stored;
    const json archived = json::parse(r.body);
    for (const auto& e : archived.at("events")) stored[e.at("seq").get<std::uint64_t>()] = e.at("event");
    std::size_t compared = 0;
    for (const auto& [seq, event] : told) {
        const std::string type = event.value("type", "");
        if (type == "game_started" || type == "seat_taken") continue;
        const auto event_seq = seq;  // clang 15 cannot capture a structured binding
        CAPTURE(event_seq);
        REQUIRE(stored.contains(seq));
        CHECK(stored[seq] == event);
        ++compared;
    }
    CHECK(compared > 2 * 52);
    CHECK(stop_server(server, loop) == 0);
    fs::remove_all(dir);
}
