// End to end, many nodes: PostgreSQL, HAProxy and three sparts-server nodes,
// all real processes started by the test (tests/server/cluster.hpp). Forty
// tables of clients play through HAProxy, each client on /ws?table=ID; a node
// is killed (SIGKILL) in the middle of hands, or paused past its leases
// (SIGSTOP) and continued, or each node in turn is stopped (SIGTERM) and
// started again. Every client of a table that moved reconnects through
// HAProxy and resumes by token and last seq on the node that took the table
// over; every game ends; every archived record passes `sparts verify`; and
// every event any client was shown is in the archive as it was shown.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include "cluster.hpp"
#include "cluster_play.hpp"
#include "http_client.hpp"
#include "test_client.hpp"
#include "verify_record.hpp"

using namespace sparts::e2e;

namespace cluster_test {

// Every table's game is in the archive (read through the proxy, from any node) with every
// event its clients were shown, as shown, and its record verifies.
void check_archive(std::uint16_t port, std::vector<PlayedTable>& tables) {
    for (auto& t : tables) {
        CAPTURE(t.id);
        std::vector<Bot*> bots;
        for (auto& s : t.seats) bots.push_back(s.bot.get());
        collect(bots, t.told);
        for (auto& s : t.seats)
            for (const auto& p : s.bot->problems) FAIL_CHECK(p);
        const HttpReply game = http_get(port, "/api/games/" + t.id + "/1");
        REQUIRE(game.status == 200);
        const json archived = json::parse(game.body);  // (a range-for over parse(...).at() would outlive it)
        std::map<std::uint64_t, json> stored;
        for (const auto& e : archived.at("events")) stored[e.at("seq").get<std::uint64_t>()] = e.at("event");
        std::size_t compared = 0;
        for (const auto& [seq, event] : t.told) {
            const std::string type = event.value("type", "");
            if (type == "game_started" || type == "seat_taken") continue;
            const auto event_seq = seq;  // (clang 15 cannot capture a structured binding)
            const json shown = event;
            CAPTURE(event_seq);
            CAPTURE(shown);
            REQUIRE(stored.contains(seq));
            CHECK(stored[seq] == event);
            ++compared;
        }
        CHECK(compared > 50);
        const HttpReply record = http_get(port, "/api/games/" + t.id + "/1/record");
        REQUIRE(record.status == 200);
        const auto [status, said] = verify_record(record.body, t.id);
        const std::string words = said;
        CHECK_MESSAGE(status == 0, words);
    }
}

}  // namespace cluster_test

using namespace cluster_test;

TEST_CASE("e2e cluster: three nodes behind HAProxy, one killed with SIGKILL mid-hand: its tables resume on the others "
          "through HAProxy, every game ends, every record verifies, nothing shown is lost") {
    Cluster cluster({.nodes = 3, .lease_ms = 3000, .node_flags = {"--tables-per-player", "1000", "--connections-per-address", "100000"}});
    EventLoop loop;
    // One hand a game: the node dies in its first quarter, so each moved table plays most of a hand
    // on its new node before the game ends.
    std::vector<PlayedTable> tables = set_up(loop, cluster.port(), "kill", 40, {{"hand_cap", 1}});
    // The tables spread over the nodes.
    CHECK(std::stoi(cluster.database().query("SELECT count(DISTINCT node) FROM leases WHERE node <> ''")) == 3);
    // Any node lists them all (lobby connections go round robin): the ones it holds and the others'.
    for (int i = 0; i < 3; ++i) {
        TestClient lobby(loop, cluster.port(), "kill-lobby-" + std::to_string(i));
        const json hello = lobby.hello("lobby");
        CHECK(hello.contains("node"));
        const json listed = lobby.request_ok({{"type", "list_tables"}, {"open", false}});
        CHECK(listed.at("tables").size() == 40);
        for (const json& t : listed.at("tables")) CHECK(t.at("state") == "playing");
        // A player back on any node hears of the seat it holds, whichever node holds its table.
        TestClient back(loop, cluster.port(), "kill-back-" + std::to_string(i));
        const json again = back.hello("back", tables[static_cast<std::size_t>(i)].seats[1].token);
        CHECK(again.at("seats") == json::array({{{"table", tables[static_cast<std::size_t>(i)].id}, {"seat", 1}}}));
    }

    // Into the first hand at every table, then the busiest node dies.
    const auto bots = all_bots(tables);
    run_until(loop, bots, [&] { return actions_of(tables) > 40 * 20; }, "twenty actions a table");
    const int victim = busiest_node(cluster);
    const int victims_tables = std::stoi(cluster.database().query(
        "SELECT count(*) FROM leases WHERE node = 'n" + std::to_string(victim) + "'"));
    CAPTURE(victim);
    const auto killed = Clock::now();
    REQUIRE(cluster.node(victim).stop(SIGKILL, Millis(10'000)).has_value());

    const long long back = play(loop, cluster.port(), tables, killed);
    int moved = 0;
    for (const auto& t : tables) moved += t.reconnects > 0;
    CHECK(moved >= victims_tables);
    MESSAGE("failover: " << victims_tables << " tables of node n" << victim << " moved; the last of their clients "
                         << "played again " << back << " ms after the SIGKILL");
    check_archive(cluster.port(), tables);
    // No living node lost a table it held to another (nothing was fenced off): only the dead node's moved.
    const std::string logs = cluster.logs();
    CHECK_MESSAGE(logs.find("another node holds it now") == std::string::npos, logs);
}

TEST_CASE("e2e cluster: a node paused (SIGSTOP) past its leases loses its tables to another node, which plays on, and "
          "continued (SIGCONT), it commits nothing and shows nothing of them") {
    Cluster cluster({.nodes = 3, .lease_ms = 1500, .node_flags = {"--tables-per-player", "1000", "--connections-per-address", "100000"}});
    EventLoop loop;
    std::vector<PlayedTable> tables = set_up(loop, cluster.port(), "pause", 12, {{"hand_cap", 2}});
    run_until(loop, all_bots(tables), [&] { return actions_of(tables) > 12 * 15; }, "fifteen actions a table");
    const int paused = busiest_node(cluster);
    const std::string node = "n" + std::to_string(paused);
    CAPTURE(node);
    const std::string watched = cluster.database().query("SELECT min(table_id) FROM leases WHERE node = '" + node + "'");
    PlayedTable* moving = nullptr;
    for (auto& t : tables)
        if (t.id == watched) moving = &t;
    REQUIRE(moving);

    // A spectator straight on the node (from 127.0.0.2, which is no proxy: no PROXY header), to see
    // everything it sends.
    TestClient::Connect direct;
    direct.source = "127.0.0.2";
    TestClient spectator(loop, cluster.node_port(paused), "pause-direct-spectator", direct);
    REQUIRE(spectator.hello("direct").value("type", "") == "ok");
    spectator.request_ok({{"type", "watch"}, {"table", watched}});
    Bot watcher(spectator, watched, -1, 1);
    run_until(loop, all_bots(tables), [&] { watcher.step(); return watcher.events.size() > 3; }, "the spectator sees play");

    REQUIRE(::kill(cluster.node(paused).pid(), SIGSTOP) == 0);
    const auto stopped = Clock::now();
    // The proxy's checks of the paused node time out and it is taken out of the hash; its clients
    // hear nothing more and give up on their connections, as clients with a ping timeout do.
    std::this_thread::sleep_for(Millis(2000));
    int dropped = 0;
    for (auto& t : tables) {
        if (cluster.database().query("SELECT node FROM leases WHERE table_id = '" + t.id + "'") != node) continue;
        for (auto& seat : t.seats) seat.client->drop();
        ++dropped;
    }
    CHECK(dropped > 0);
    // They reconnect through the proxy; another node takes each table over once its lease has expired, and plays on.
    const int before = actions_of(tables);
    const long long back = play(loop, cluster.port(), tables, stopped, [&] { return actions_of(tables) > before + 12 * 10; });
    MESSAGE("the paused node's " << dropped << " tables played again on other nodes " << back << " ms after SIGSTOP");
    CHECK(cluster.database().query("SELECT count(*) FROM leases WHERE node = '" + node + "'") == "0");

    // Continued: whatever it was doing (a step read before the pause, a bot's or a timer's move)
    // is refused by the fence or dropped once it learns its leases are gone; its connections close.
    REQUIRE(::kill(cluster.node(paused).pid(), SIGCONT) == 0);
    const auto closed = spectator.wait_closed(Millis(15'000));
    REQUIRE(closed.has_value());
    CHECK(*closed == 4005);
    watcher.step();
    play(loop, cluster.port(), tables, stopped);
    // Every event anyone was shown, the spectator on the paused node included, is in the archive as shown.
    collect({&watcher}, moving->told);
    for (const auto& p : watcher.problems) FAIL_CHECK(p);
    check_archive(cluster.port(), tables);
    const std::string logs = cluster.node(paused).output();
    CHECK_MESSAGE((logs.find("a commit was refused") != std::string::npos ||
                   logs.find("another node holds it now") != std::string::npos),
                  logs);
    CHECK(cluster.running(paused));
}

TEST_CASE("e2e cluster: a rolling upgrade, each node in turn stopped with SIGTERM and started again while the games "
          "run, stops no game and loses nothing") {
    Cluster cluster({.nodes = 3, .lease_ms = 3000, .node_flags = {"--tables-per-player", "1000", "--connections-per-address", "100000"}});
    EventLoop loop;
    // Four hands a game; the restarts (each after 64 actions and a drain) come in the middle of the
    // games: under the sanitizers within the first two or three hands, and where the machine plays
    // faster the players wait at the start of the last hand until the three restarts are done (a
    // restart then comes when 64 actions have been played or every table waits), so that no game
    // ends before them and the last hand is played on the restarted nodes.
    std::vector<PlayedTable> tables = set_up(loop, cluster.port(), "roll", 8, {{"hand_cap", 4}});
    auto restarting = std::make_shared<bool>(true);
    for (auto& t : tables)
        for (auto& seat : t.seats)
            seat.bot->pause_when = [restarting](const Bot& b) { return *restarting && b.hands_started >= 4; };
    auto all_waiting = [&] {
        for (auto& t : tables)
            for (auto& seat : t.seats)
                if (seat.bot->hands_started < 4) return false;
        return true;
    };
    const auto began = Clock::now();
    for (int i = 0; i < cluster.nodes(); ++i) {
        CAPTURE(i);
        const int before = actions_of(tables);
        play(loop, cluster.port(), tables, began, [&] { return actions_of(tables) > before + 8 * 8 || all_waiting(); });
        for (auto& t : tables) REQUIRE(t.seats[0].bot->games_over == 0);  // still playing
        // SIGTERM: not ready for --drain-ms, then its tables handed over (their clients told to
        // reconnect: closing "moved", close 4005), then it exits; the games go on meanwhile.
        REQUIRE(::kill(cluster.node(i).pid(), SIGTERM) == 0);
        std::optional<int> status;
        play(loop, cluster.port(), tables, began, [&] { return (status = cluster.node(i).wait_exit(Millis(0))).has_value(); },
             Millis(60'000));
        CHECK(*status == 0);
        cluster.start(i);  // the new version, on the same port
    }
    *restarting = false;
    play(loop, cluster.port(), tables, began);
    check_archive(cluster.port(), tables);
    int moved = 0;
    for (const auto& t : tables) moved += t.reconnects > 0;
    CHECK(moved > 0);
    const std::string logs = cluster.logs();
    CHECK_MESSAGE(logs.find("another node holds it now") == std::string::npos, logs);
}
