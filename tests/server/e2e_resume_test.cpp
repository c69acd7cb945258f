// End to end: a player whose connection drops comes back with its token and
// resumes: with the events it missed when the table still has them (this
// hand), with a snapshot of its view when it does not.
#include <doctest/doctest.h>

#include <map>
#include "frame_checks.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

const std::vector<std::string> kFlatOut = {"--messages-per-second", "100000"};

// Events whose frame differs from seat to seat: compared by kind only.
bool per_seat(const json& event) {
    const std::string t = event.value("type", "");
    return t == "cards_dealt" || t == "cards_passed" || t == "cards_received" || t == "center_taken" ||
           (t == "bid_made" && event.value("secret", false));
}

std::set<std::string> card_set(const json& cards) {
    std::set<std::string> s;
    for (const auto& c : cards) s.insert(c.get<std::string>());
    return s;
}

void check_problems(const std::vector<Bot*>& bots) {
    for (Bot* b : bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);
}

// Says hello again on a new connection with `old`'s token, and checks that
// the lobby knows the player and where it sits.
std::unique_ptr<TestClient> come_back(EventLoop& loop, std::uint16_t port, TestClient& old, const std::string& label,
                                      const std::string& table, int seat) {
    auto fresh = std::make_unique<TestClient>(loop, port, label);
    const json hello = fresh->hello("back again", old.token());
    REQUIRE(hello.value("type", "") == "ok");
    CHECK(hello.at("player") == old.player());
    CHECK_FALSE(hello.contains("token"));  // a token is shown once, when it is made
    CHECK(hello.at("seats") == json::array({{{"table", table}, {"seat", seat}}}));
    return fresh;
}

}  // namespace

TEST_CASE("e2e: a client that drops mid-hand resumes with exactly the events it missed, then live ones") {
    TestServer server(kFlatOut);
    EventLoop loop;
    // Three hands, not a game to 500: what follows the resume is the same, and quicker.
    TableGame g = set_up_table(loop, server.port(), "resume-events", create_table("spades", {{"hand_cap", 3}}), 4, 1, 21);
    Bot& a = g.seat(0);
    Bot& watcher = *g.bots[4];
    // Seat 0 stops when it is to lead a trick that is not the last of the hand.
    a.pause_when = [](const Bot& b) { return b.turn_kind() == "play" && b.trick_cards == 0 && b.hand.size() >= 2; };
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return a.ready() && a.pause_when(a); }, "seat 0 to lead a trick");

    // It leads, hears back, and its connection drops.
    a.pause_when = nullptr;
    a.act();
    run_until(loop, g.all(), [&] { return !a.awaiting(); }, "the reply to seat 0's lead");
    a.acting = false;
    g.clients[0]->drop();
    a.step();  // whatever it had received before the drop
    const std::uint64_t last = *a.last_seq;

    // The others play on: the trick seat 0 led is finished without it.
    std::vector<Bot*> others = {&g.seat(1), &g.seat(2), &g.seat(3), &watcher};
    run_until(
        loop, others,
        [&] { return !watcher.events.empty() && is_event(watcher.events.back(), "trick_won") && *watcher.last_seq > last; },
        "the trick to be finished without seat 0");

    auto again = come_back(loop, server.port(), *g.clients[0], "resume-events-s0-again", g.table, 0);
    const json reply = again->request_ok({{"type", "resume"}, {"table", g.table}, {"seq", last}});
    CHECK(reply.at("mode") == "events");
    CHECK(reply.at("from") == last + 1);
    CHECK(reply.at("seat") == 0);

    Bot back(*again, g.table, 0, 99);
    back.last_seq = last;  // the next event must be last + 1
    back.hand = a.hand;
    const auto missed_until = *watcher.last_seq;
    std::vector<Bot*> table = {&back, &g.seat(1), &g.seat(2), &g.seat(3), &watcher};
    // Each connection hears of the game's end on its own: wait for every one that is compared below,
    // to the game's last event (the deal's reveal, after game_over).
    run_until(
        loop, table,
        [&] { return back.deals_revealed > 0 && watcher.deals_revealed > 0 && g.seat(1).deals_revealed > 0; },
        "game over after the resume");
    check_problems(table);

    // It got every event from last + 1 on, in order: first those it missed,
    // then the live ones, the same as the spectator's where all see the same.
    REQUIRE(back.events.size() > missed_until - last);
    CHECK(back.events.front().at("seq") == last + 1);
    std::map<std::uint64_t, json> seen_by_watcher;
    for (const auto& f : watcher.events) seen_by_watcher[f.at("seq").get<std::uint64_t>()] = f;
    std::size_t compared = 0;
    for (const auto& f : back.events) {
        const auto seq = f.at("seq").get<std::uint64_t>();
        REQUIRE(seen_by_watcher.contains(seq));
        const json& theirs = seen_by_watcher[seq];
        if (per_seat(f.at("event"))) {
            CHECK(f.at("event").at("type") == theirs.at("event").at("type"));
        } else {
            CHECK(f == theirs);
            ++compared;
        }
    }
    CHECK(compared >= missed_until - last);
    CHECK(*back.game_over == *watcher.game_over);
    CHECK(*back.game_over == *g.seat(1).game_over);
    CHECK(back.actions > 0);

    // And nothing it got on the new connection showed another seat's cards.
    // What it knew before: its hand, and the cards played this hand.
    std::set<std::string> known = a.hand;
    for (const auto& f : a.events) {
        if (is_event(f, "hand_started")) known = a.hand;
        if (is_event(f, "card_played")) known.insert(f.at("event").at("card").get<std::string>());
    }
    std::vector<ClientLog> logs = {{again->label(), 0, &again->received(), known}};
    for (int s = 1; s < 4; ++s) logs.push_back({g.clients[static_cast<std::size_t>(s)]->label(), s, &g.clients[static_cast<std::size_t>(s)]->received()});
    const LeakReport leaks = check_no_leaks(logs, g.table, false);
    for (const auto& p : leaks.problems) FAIL_CHECK(p);
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: a client that missed the start of the hand resumes with a snapshot of its seat's view") {
    TestServer server(kFlatOut);
    EventLoop loop;
    // Three hands: the resume falls in the second, and the game goes on after it.
    TableGame g = set_up_table(loop, server.port(), "resume-snapshot", create_table("spades", {{"hand_cap", 3}}), 4, 1, 31);
    Bot& c = g.seat(2);
    Bot& watcher = *g.bots[4];
    c.pause_when = [](const Bot& b) { return b.hands_started >= 2; };
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return c.ready() && c.hands_started >= 2; }, "seat 2's first turn of hand 2");
    c.acting = false;
    g.clients[2]->drop();
    c.step();

    // It resumes from the last card played in hand 1: the table no longer
    // has what followed (it keeps the current hand's events), so it gets a
    // snapshot instead.
    std::uint64_t in_hand_1 = 0;  // the seq of the last card played in hand 1
    json hand_number;             // of the hand now being played
    for (const auto& f : c.events) {
        if (is_event(f, "hand_started")) hand_number = f.at("event").at("hand");
    }
    bool hand_2 = false;
    std::uint64_t hand_start = 0;  // the seq of hand 2's hand_started
    for (const auto& f : c.events) {
        if (is_event(f, "hand_started") && f.at("event").at("hand") == hand_number) {
            hand_2 = true;
            hand_start = f.at("seq").get<std::uint64_t>();
        }
        if (is_event(f, "card_played") && !hand_2) in_hand_1 = f.at("seq").get<std::uint64_t>();
    }
    REQUIRE(in_hand_1 > 0);

    auto again = come_back(loop, server.port(), *g.clients[2], "resume-snapshot-s2-again", g.table, 2);
    const json reply = again->request_ok({{"type", "resume"}, {"table", g.table}, {"seq", in_hand_1}});
    CHECK(reply.at("mode") == "snapshot");
    CHECK(reply.at("seat") == 2);
    const json snap = again->wait_for([](const json& f) { return f.value("type", "") == "snapshot"; }, "the snapshot");
    CHECK(snap.at("table") == g.table);
    CHECK(snap.at("you") == 2);
    CHECK(snap.at("game") == 1);
    const json& view = snap.at("view");
    CHECK(view.at("viewer") == 2);
    CHECK(view.at("hand_number") == hand_number);
    CHECK(view.at("phase") == "bidding");
    // The hand it holds is the one it was dealt (it has not played since).
    CHECK(card_set(view.at("hand")) == c.hand);
    CHECK(card_set(view.at("hand")).size() == 13);
    CHECK(view.at("waiting_for") == json::array({2}));
    // The snapshot is as of the table's last event: nothing has happened since,
    // for the table was waiting on seat 2.
    CHECK(snap.at("seq") == *c.last_seq);

    // From the last event before this hand, the table has all it missed.
    const json replay = again->request_ok({{"type", "resume"}, {"table", g.table}, {"seq", hand_start - 1}});
    CHECK(replay.at("mode") == "events");
    CHECK(replay.at("from") == hand_start);
    for (auto seq = hand_start; seq <= snap.at("seq").get<std::uint64_t>(); ++seq) {
        const json f = again->wait_for([](const json& x) { return x.value("type", "") == "event"; }, "a replayed event");
        CHECK(f.at("seq") == seq);
    }

    Bot back(*again, g.table, 2, 77);
    back.handle(snap);
    std::vector<Bot*> table = {&g.seat(0), &g.seat(1), &back, &g.seat(3), &watcher};
    run_until(loop, table, [&] { return back.deals_revealed > 0 && watcher.deals_revealed > 0; },
              "game over after the snapshot");
    check_problems(table);
    REQUIRE(!back.events.empty());
    CHECK(back.events.front().at("seq") == snap.at("seq").get<std::uint64_t>() + 1);
    CHECK(back.actions > 0);
    CHECK(*back.game_over == *watcher.game_over);
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: with a short history (--history-events) a client that missed little gets the events, played again "
          "from the state after the older ones were dropped, and one that missed more gets a snapshot") {
    std::vector<std::string> flags = kFlatOut;
    flags.insert(flags.end(), {"--history-events", "16"});
    TestServer server(flags);
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "resume-window", create_table("spades"), 4, 1, 23);
    Bot& a = g.seat(0);
    Bot& watcher = *g.bots[4];
    // Seat 0 stops deep in a hand (many more than 16 events after its deal), about to lead.
    a.pause_when = [](const Bot& b) { return b.turn_kind() == "play" && b.trick_cards == 0 && b.hand.size() == 5; };
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return a.ready() && a.pause_when(a); }, "seat 0 to lead with five cards left");
    std::uint64_t dealt_at = 0;
    for (const auto& f : a.events)
        if (is_event(f, "hand_started")) dealt_at = f.at("seq").get<std::uint64_t>();
    a.pause_when = nullptr;
    a.act();
    run_until(loop, g.all(), [&] { return !a.awaiting(); }, "the reply to seat 0's lead");
    a.acting = false;
    g.clients[0]->drop();
    a.step();
    const std::uint64_t last = *a.last_seq;
    REQUIRE(last > dealt_at + 16);
    std::vector<Bot*> others = {&g.seat(1), &g.seat(2), &g.seat(3), &watcher};
    run_until(
        loop, others,
        [&] { return !watcher.events.empty() && is_event(watcher.events.back(), "trick_won") && *watcher.last_seq > last; },
        "the trick to be finished without seat 0");
    const std::uint64_t now = *watcher.last_seq;

    auto again = come_back(loop, server.port(), *g.clients[0], "resume-window-s0-again", g.table, 0);
    // From before the window: a snapshot.
    CHECK(again->request_ok({{"type", "resume"}, {"table", g.table}, {"seq", dealt_at}}).at("mode") == "snapshot");
    again->wait_for([](const json& f) { return f.value("type", "") == "snapshot"; }, "the snapshot");
    // Within it: the events it missed, the same as the spectator's.
    const json reply = again->request_ok({{"type", "resume"}, {"table", g.table}, {"seq", last}});
    REQUIRE(reply.at("mode") == "events");
    std::map<std::uint64_t, json> seen_by_watcher;
    for (const auto& f : watcher.events) seen_by_watcher[f.at("seq").get<std::uint64_t>()] = f;
    for (auto seq = last + 1; seq <= now; ++seq) {
        const json f = again->wait_for([](const json& x) { return x.value("type", "") == "event"; }, "a replayed event");
        CHECK(f.at("seq") == seq);
        CHECK(f == seen_by_watcher.at(seq));
    }
}
