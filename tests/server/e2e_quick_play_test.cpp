// End to end: quick play. Players who ask for the same game are seated
// together at a new table whose game starts at once; a lone player gets bots
// after the wait; leaving the queue and a connection lost while waiting take
// the player out; a storm of hundreds seats each player exactly once, at whole
// tables; bad requests are refused and change nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

json quick_play(const std::string& preset, const json& options = json::object()) {
    return {{"type", "quick_play"}, {"preset", preset}, {"options", options}};
}

json matched(TestClient& c, Millis timeout = kWait) {
    return c.wait_for([](const json& f) { return f.value("type", "") == "quick_play_matched"; }, "quick_play_matched",
                      timeout);
}

std::vector<std::unique_ptr<TestClient>> players(EventLoop& loop, std::uint16_t port, const std::string& label, int n) {
    std::vector<std::unique_ptr<TestClient>> out;
    for (int i = 0; i < n; ++i) {
        out.push_back(std::make_unique<TestClient>(loop, port, label + "-" + std::to_string(i)));
        REQUIRE(out.back()->hello(label + " " + std::to_string(i)).value("type", "") == "ok");
    }
    return out;
}

// Lets the clients read for `time`, as the server goes on.
void idle(EventLoop& loop, Millis time) {
    const auto until = std::chrono::steady_clock::now() + time;
    while (loop.run_one(until)) {
    }
}

}  // namespace

TEST_CASE("e2e: quick play seats four who ask for the same game at one table, and its game is played out") {
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "60000"});
    EventLoop loop;
    auto four = players(loop, server.port(), "qp-four", 4);
    // Another game's player is not seated with them.
    auto other = players(loop, server.port(), "qp-other", 1);
    const json ok = other[0]->request_ok(quick_play("spades", {{"target_score", 300}}));
    CHECK(ok.at("waiting") == 1);
    for (auto& c : four) {
        const json reply = c->request_ok(quick_play("spades", {{"hand_cap", 1}}));
        CHECK(reply.at("ruleset").at("preset") == "spades");
        CHECK(reply.at("bots_after_ms") == 60000);
    }
    std::string table;
    std::set<int> seats;
    std::vector<std::unique_ptr<Bot>> bots;
    for (auto& c : four) {
        const json m = matched(*c);
        if (table.empty()) table = m.at("table").get<std::string>();
        CHECK(m.at("table") == table);
        seats.insert(m.at("seat").get<int>());
        bots.push_back(std::make_unique<Bot>(*c, table, m.at("seat").get<int>(), 40 + bots.size()));
    }
    CHECK(seats == std::set<int>{0, 1, 2, 3});
    std::vector<Bot*> all;
    for (auto& b : bots) all.push_back(b.get());
    run_until(loop, all, [&] { return std::all_of(all.begin(), all.end(), [](Bot* b) { return b->games_over > 0; }); },
              "the quick play game over");
    for (Bot* b : all)
        for (const auto& p : b->problems) FAIL_CHECK(p);
    // The table holds the four, no bot; the other player still waits.
    const json listed = four[0]->request_ok({{"type", "list_tables"}, {"open", false}});
    bool found = false;
    for (const auto& t : listed.at("tables"))
        if (t.at("table") == table) {
            found = true;
            for (const auto& s : t.at("seats")) CHECK_FALSE(s.value("bot", false));
        }
    CHECK(found);
    CHECK(other[0]->request_ok({{"type", "quick_play_cancel"}}).value("type", "") == "ok");
    CHECK(metric(server.port(), "sparts_quick_play_tables_total") == 1);
}

TEST_CASE("e2e: quick play fills the empty seats with bots after the wait, and a lone player plays") {
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "300", "--bot-delay-ms", "0"});
    EventLoop loop;
    auto one = players(loop, server.port(), "qp-alone", 1);
    one[0]->request_ok(quick_play("spartsel", {{"seats", 3}, {"hands", 1}}));
    const json m = matched(*one[0]);
    Bot bot(*one[0], m.at("table").get<std::string>(), m.at("seat").get<int>(), 7);
    CHECK(bot.seat == 0);
    run_until(loop, {&bot}, [&] { return bot.games_over > 0; }, "the game with bots over");
    for (const auto& p : bot.problems) FAIL_CHECK(p);
    // Seats 1 and 2 were bots from the first event on.
    int bot_seats = 0;
    for (const auto& f : one[0]->received())
        if (f.value("type", "") == "snapshot" && f.at("info").contains("seats"))
            for (const auto& s : f.at("info").at("seats")) bot_seats += s.value("bot", false) ? 1 : 0;
    CHECK(bot_seats == 2);
}

TEST_CASE("e2e: quick play: leaving the queue, a second request, and a connection lost while waiting") {
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "60000"});
    EventLoop loop;
    auto some = players(loop, server.port(), "qp-leave", 6);
    some[0]->request_ok(quick_play("spades"));
    const json twice = some[0]->request(quick_play("spartsel"));
    CHECK(twice.value("code", "") == "already_queued");
    CHECK(some[0]->request_ok({{"type", "quick_play_cancel"}}).value("type", "") == "ok");
    CHECK(some[0]->request({{"type", "quick_play_cancel"}}).value("code", "") == "not_queued");
    // Player 1 waits, then its connection goes: it is not seated when four more come.
    some[1]->request_ok(quick_play("spades"));
    some[1]->drop();
    idle(loop, Millis(600));  // the lobby looks at its queues every quarter second
    for (int i = 2; i < 6; ++i) some[static_cast<std::size_t>(i)]->request_ok(quick_play("spades"));
    std::set<std::string> tables;
    for (int i = 2; i < 6; ++i) tables.insert(matched(*some[static_cast<std::size_t>(i)]).at("table").get<std::string>());
    CHECK(tables.size() == 1);
    CHECK(metric(server.port(), "sparts_quick_play_left_total") == 1);
    // Nor was player 0, who left the queue.
    idle(loop, Millis(300));
    for (const auto& f : some[0]->received()) CHECK(f.value("type", "") != "quick_play_matched");
    // Bad requests: a clear error, and nobody waits.
    const json unknown = some[0]->request({{"type", "quick_play"}, {"preset", "poker"}});
    CHECK(unknown.value("code", "") == "bad_ruleset");
    const json missing = some[0]->request({{"type", "quick_play"}});
    CHECK(missing.value("code", "") == "bad_message");
    CHECK(missing.value("field", "") == "preset");
    const json extra = some[0]->request({{"type", "quick_play"}, {"preset", "spades"}, {"table", "t1"}});
    CHECK(extra.value("code", "") == "bad_message");
    CHECK(some[0]->request({{"type", "quick_play_cancel"}}).value("code", "") == "not_queued");
}

TEST_CASE("e2e: quick play: a storm of 200 players asking at once seats each exactly once, at whole tables") {
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "60000", "--connections-per-address",
                       "1000", "--players-per-address-per-minute", "1000"});
    EventLoop loop;
    auto many = players(loop, server.port(), "qp-storm", 200);
    for (auto& c : many) c->send(quick_play("spades", {{"hand_cap", 1}}));
    std::map<std::string, std::set<int>> seated;  // table -> seats
    for (auto& c : many) {
        const json m = matched(*c);
        CHECK(seated[m.at("table").get<std::string>()].insert(m.at("seat").get<int>()).second);
    }
    CHECK(seated.size() == 50);
    for (const auto& [table, seats] : seated) CHECK(seats == std::set<int>{0, 1, 2, 3});
    // Every game began at once: each player's first turn or the deal came with it.
    for (auto& c : many) {
        const json snap = c->wait_for([](const json& f) { return f.value("type", "") == "snapshot"; }, "snapshot");
        CHECK(snap.at("game") == 1);
    }
    CHECK(metric(server.port(), "sparts_quick_play_tables_total") == 50);
}
