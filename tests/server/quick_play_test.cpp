#include <doctest/doctest.h>

#include <set>

#include "server/lobby/quick_play.hpp"

using namespace sparts::server;
using namespace std::chrono_literals;
using Clock = QuickPlayQueue::Clock;

TEST_CASE("quick play: four of a rating band make a table at once, in the order they came") {
    QuickPlayQueue q(4, 20s);
    const auto t0 = Clock::now();
    for (int i = 0; i < 3; ++i) CHECK(q.add({"p" + std::to_string(i), 1500.0 + i * 10, t0}));
    CHECK_FALSE(q.add({"p1", 1500, t0}));  // nobody waits twice
    CHECK(q.match(t0).empty());
    CHECK(q.size() == 3);
    CHECK(q.add({"p3", 1490, t0}));
    const auto made = q.match(t0);
    REQUIRE(made.size() == 1);
    CHECK(made[0].players == std::vector<std::string>{"p0", "p1", "p2", "p3"});
    CHECK(made[0].bots == 0);
    CHECK(q.empty());
}

TEST_CASE("quick play: ratings far apart wait until the band has widened to them") {
    QuickPlayQueue q(2, 60s);
    const auto t0 = Clock::now();
    q.add({"strong", 1900, t0});
    q.add({"weak", 1500, t0});
    CHECK(q.match(t0).empty());            // 400 apart, bands of 100
    CHECK(q.match(t0 + 2s).empty());       // bands of 300
    const auto made = q.match(t0 + 3s);    // bands of 400
    REQUIRE(made.size() == 1);
    CHECK(made[0].players == std::vector<std::string>{"strong", "weak"});
    // A newcomer's narrow band counts too: an old waiter does not pull in a far newcomer at once.
    q.add({"old", 1500, t0});
    q.add({"new", 1800, t0 + 10s});
    CHECK(q.match(t0 + 10s).empty());
    CHECK(q.match(t0 + 12s).size() == 1);
}

TEST_CASE("quick play: after the bot wait the longest waiting is seated with bots, never a half-made table") {
    QuickPlayQueue q(4, 20s);
    const auto t0 = Clock::now();
    q.add({"a", 1500, t0});
    q.add({"b", 1520, t0 + 5s});
    CHECK(q.match(t0 + 19s).empty());
    const auto made = q.match(t0 + 20s);
    REQUIRE(made.size() == 1);
    CHECK(made[0].players == std::vector<std::string>{"a", "b"});
    CHECK(made[0].bots == 2);
    CHECK(q.empty());
}

TEST_CASE("quick play: leaving the queue, and a storm of hundreds seats each once") {
    QuickPlayQueue q(4, 20s);
    const auto t0 = Clock::now();
    q.add({"x", 1500, t0});
    CHECK(q.remove("x"));
    CHECK_FALSE(q.remove("x"));
    CHECK(q.match(t0 + 30s).empty());
    for (int i = 0; i < 802; ++i) q.add({"p" + std::to_string(i), 1500.0 + (i % 7) * 10, t0});
    const auto made = q.match(t0);
    CHECK(made.size() == 200);
    std::set<std::string> seated;
    for (const auto& m : made) {
        CHECK(m.players.size() == 4);
        CHECK(m.bots == 0);
        for (const auto& p : m.players) CHECK(seated.insert(p).second);
    }
    CHECK(q.size() == 2);  // the last two wait for two more, or for the bots
    const auto late = q.match(t0 + 20s);
    REQUIRE(late.size() == 1);
    CHECK(late[0].bots == 2);
}
