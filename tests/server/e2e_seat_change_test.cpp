// End to end: a player who has held one seat of a game in progress can take
// no other seat of it, by any path into a seat (sit, taking over a bot seat,
// resume, an invite, again). It used to be possible to leave your seat, sit
// in a bot's seat, read its whole hand in the snapshot, and go back.
#include <doctest/doctest.h>

#include <string>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// Forgets every frame received so far: what comes next is the answer to what the test does next.
void drain(TestClient& c) {
    while (c.poll()) {
    }
}

// The first snapshot received since the last drain().
json last_snapshot(TestClient& c) {
    return c.wait_for([](const json& f) { return f.value("type", "") == "snapshot"; }, "a snapshot");
}

// A table of `seats` seats: `owner` sits at seat 0 (with the invite, for a private table), `stayer` at the
// last seat, bots fill the rest, and the game starts. The stayer keeps a person at the table while the owner
// leaves and comes back: a table whose last person says leave, with only bots left, closes at once.
std::string started_table(TestClient& owner, TestClient& stayer, const json& create, int seats,
                          std::string* invite = nullptr) {
    const json created = owner.request_ok(create);
    const std::string table = created.at("table").get<std::string>();
    json sit = {{"type", "sit"}, {"table", table}, {"seat", 0}};
    if (created.contains("invite")) {
        sit["invite"] = created.at("invite");
        if (invite) *invite = created.at("invite").get<std::string>();
    }
    owner.request_ok(sit);
    json last = sit;
    last["seat"] = seats - 1;
    stayer.request_ok(last);
    for (int s = 1; s < seats - 1; ++s) owner.request_ok({{"type", "add_bot"}, {"table", table}});
    owner.request_ok({{"type", "start"}, {"table", table}});
    return table;
}

}  // namespace

TEST_CASE("e2e: mid-game, a player who left a seat may take back that seat only, never a bot's other hand") {
    // Bots that never get to play (a long delay): the seats stay as the test leaves them.
    TestServer server({"--bot-delay-ms", "60000", "--messages-per-second", "100000"});
    EventLoop loop;
    TestClient ann(loop, server.port(), "seats-ann");
    TestClient cy(loop, server.port(), "seats-cy");
    ann.hello("ann");
    cy.hello("cy");
    const std::string table = started_table(ann, cy, create_table("spades"), 4);

    ann.request_ok({{"type", "leave"}, {"table", table}});  // seat 0 is now a bot's
    // sit in another bot seat: refused, with nothing shown.
    const json moved = ann.request({{"type", "sit"}, {"table", table}, {"seat", 2}});
    CHECK(moved.at("code") == "seat_change_mid_game");
    CHECK(moved.at("field") == "seat");
    // sit without a seat: no empty seat (bots hold them all), so table_full, not a bot's seat.
    CHECK(ann.request({{"type", "sit"}, {"table", table}}).at("code") == "table_full");
    // resume: back as a spectator, whose snapshot shows no hand.
    drain(ann);
    const json resumed = ann.request_ok({{"type", "resume"}, {"table", table}, {"seq", 0}});
    CHECK(resumed.at("seat").is_null());
    const json watching = last_snapshot(ann);
    CHECK(watching.at("you").is_null());
    CHECK_FALSE(watching.at("view").contains("hand"));
    // The seat it held: taken back, with its own hand.
    drain(ann);
    CHECK(ann.request_ok({{"type", "sit"}, {"table", table}, {"seat", 0}}).at("seat") == 0);
    const json own = last_snapshot(ann);
    CHECK(own.at("you") == 0);
    CHECK(own.at("view").at("hand").size() == 13);

    // A newcomer may take over a bot's seat once, and is then bound to it.
    TestClient bob(loop, server.port(), "seats-bob");
    bob.hello("bob");
    CHECK(bob.request_ok({{"type", "sit"}, {"table", table}, {"seat", 1}}).at("seat") == 1);
    bob.request_ok({{"type", "leave"}, {"table", table}});
    CHECK(bob.request({{"type", "sit"}, {"table", table}, {"seat", 2}}).at("code") == "seat_change_mid_game");
    CHECK(bob.request_ok({{"type", "sit"}, {"table", table}, {"seat", 1}}).at("seat") == 1);
}

TEST_CASE("e2e: at a private table, the invite does not open another seat mid-game") {
    TestServer server({"--bot-delay-ms", "60000", "--messages-per-second", "100000"});
    EventLoop loop;
    TestClient ann(loop, server.port(), "seats-private");
    TestClient cy(loop, server.port(), "seats-private-cy");
    ann.hello("ann");
    cy.hello("cy");
    json create = create_table("spades");
    create["private"] = true;
    std::string invite;
    const std::string table = started_table(ann, cy, create, 4, &invite);
    REQUIRE_FALSE(invite.empty());
    ann.request_ok({{"type", "leave"}, {"table", table}});
    const json moved = ann.request({{"type", "sit"}, {"table", table}, {"seat", 2}, {"invite", invite}});
    CHECK(moved.at("code") == "seat_change_mid_game");
    CHECK(ann.request_ok({{"type", "sit"}, {"table", table}, {"seat", 0}, {"invite", invite}}).at("seat") == 0);
}

TEST_CASE("e2e: after game over seats may change, and the next game (again) binds each player to its new seat") {
    TestServer server({"--bot-delay-ms", "0", "--messages-per-second", "100000"});
    EventLoop loop;
    TestClient ann(loop, server.port(), "seats-again-ann");
    TestClient bob(loop, server.port(), "seats-again-bob");
    TestClient cy(loop, server.port(), "seats-again-cy");  // stays seated: the table keeps a person
    ann.hello("ann");
    bob.hello("bob");
    cy.hello("cy");
    const std::string table =
        ann.request_ok(create_table("spartsel", {{"seats", 4}, {"hands", 1}})).at("table").get<std::string>();
    ann.request_ok({{"type", "sit"}, {"table", table}, {"seat", 0}});
    bob.request_ok({{"type", "sit"}, {"table", table}, {"seat", 1}});
    cy.request_ok({{"type", "sit"}, {"table", table}, {"seat", 3}});
    ann.request_ok({{"type", "add_bot"}, {"table", table}});
    ann.request_ok({{"type", "start"}, {"table", table}});
    {
        Bot a(ann, table, 0, 5), b(bob, table, 1, 6), c(cy, table, 3, 7);
        run_until(loop, {&a, &b, &c}, [&] { return a.games_over == 1 && b.games_over == 1 && c.games_over == 1; },
                  "game 1 over");
    }
    // Game over: the two swap seats, which is allowed between games.
    ann.request_ok({{"type", "leave"}, {"table", table}});
    bob.request_ok({{"type", "leave"}, {"table", table}});
    CHECK(ann.request_ok({{"type", "sit"}, {"table", table}, {"seat", 1}}).at("seat") == 1);
    CHECK(bob.request_ok({{"type", "sit"}, {"table", table}, {"seat", 0}}).at("seat") == 0);
    ann.request_ok({{"type", "again"}, {"table", table}});
    bob.request_ok({{"type", "again"}, {"table", table}});
    cy.request_ok({{"type", "again"}, {"table", table}});
    ann.wait_for([](const json& f) { return is_event(f, "game_started") && event_of(f).at("game") == 2; },
                 "game 2 started");
    // Game 2 waits for bob (no turn limit, and bob does not play): ann is bound to seat 1 now.
    ann.request_ok({{"type", "leave"}, {"table", table}});
    const json moved = ann.request({{"type", "sit"}, {"table", table}, {"seat", 2}});
    CHECK(moved.at("code") == "seat_change_mid_game");
    CHECK(ann.request_ok({{"type", "sit"}, {"table", table}, {"seat", 1}}).at("seat") == 1);
}

TEST_CASE("e2e: the last person seated says leave with only bots left: the table closes at once (everyone_left)") {
    TestServer server({"--bot-delay-ms", "60000", "--messages-per-second", "100000"});
    EventLoop loop;
    TestClient ann(loop, server.port(), "seats-last-ann");
    TestClient eye(loop, server.port(), "seats-last-eye");
    ann.hello("ann");
    eye.hello("eye");
    const json created = ann.request_ok(create_table("spades"));
    const std::string table = created.at("table").get<std::string>();
    ann.request_ok({{"type", "sit"}, {"table", table}, {"seat", 0}});
    for (int s = 1; s < 4; ++s) ann.request_ok({{"type", "add_bot"}, {"table", table}});
    ann.request_ok({{"type", "start"}, {"table", table}});
    eye.request_ok({{"type", "watch"}, {"table", table}});
    ann.request_ok({{"type", "leave"}, {"table", table}});
    const json closed = eye.wait_for([](const json& f) { return is_event(f, "table_closed"); }, "table_closed");
    CHECK(event_of(closed).at("reason") == "everyone_left");
    // Gone at once, not after the grace period: it takes no request, and no seat can be taken back.
    CHECK(ann.request({{"type", "sit"}, {"table", table}, {"seat", 0}}).at("code") == "no_such_table");
}
