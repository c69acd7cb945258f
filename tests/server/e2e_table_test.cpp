// End to end: spectators, turn timers and absent seats, private tables, the
// table list, server bots and another game.
#include <doctest/doctest.h>

#include <algorithm>
#include "frame_checks.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

void check_problems(const std::vector<Bot*>& bots) {
    for (Bot* b : bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);
}

std::size_t count_events(const Bot& b, const std::string& type, int seat) {
    return static_cast<std::size_t>(std::count_if(b.events.begin(), b.events.end(), [&](const json& f) {
        return is_event(f, type) && f.at("event").value("seat", -1) == seat;
    }));
}

std::vector<std::string> listed(TestClient& c, json request) {
    request["type"] = "list_tables";
    const json reply = c.request_ok(request);
    std::vector<std::string> ids;
    for (const auto& t : reply.at("tables")) ids.push_back(t.at("table").get<std::string>());
    std::sort(ids.begin(), ids.end());
    return ids;
}

}  // namespace

TEST_CASE("e2e: a spectator follows a game to game over, is never asked to play and cannot act") {
    TestServer server({"--messages-per-second", "100000"});
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "spectator", create_table("sparts"), 4, 1, 41);
    TestClient& eye = *g.clients[4];
    Bot& watcher = *g.bots[4];
    Bot& first = g.seat(0);
    // Seat 0 holds its first card play of hand 2 for the test.
    first.pause_when = [](const Bot& b) { return b.hands_started >= 2 && b.turn_kind() == "play"; };
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return first.ready() && first.pause_when(first); }, "seat 0's first play of hand 2");

    // The spectator tries the very card seat 0 may play now: refused, as a spectator.
    const json card = first.turn->at("legal").at("cards")[0];
    const json play = {{"type", "play"}, {"card", card}};
    const json refused = eye.request({{"type", "act"}, {"table", g.table}, {"action", play}});
    CHECK(refused.at("type") == "error");
    CHECK(refused.at("code") == "spectator_cannot_act");
    CHECK(refused.at("re") == "act");
    CHECK(eye.request({{"type", "start"}, {"table", g.table}}).at("code") == "not_seated");
    CHECK(eye.request({{"type", "again"}, {"table", g.table}}).at("code") == "not_seated");

    // A second spectator comes in now: its snapshot shows no hand, and it follows from there.
    TestClient late_eye(loop, server.port(), "spectator-late");
    late_eye.hello("late");
    late_eye.request_ok({{"type", "watch"}, {"table", g.table}});
    const json snap = late_eye.wait_for([](const json& f) { return f.value("type", "") == "snapshot"; }, "the snapshot");
    CHECK(snap.at("you").is_null());
    CHECK(snap.at("view").at("viewer") == "spectator");
    for (const char* mine : {"hand", "cards_passed", "cards_received", "center_cards", "legal"})
        CHECK_FALSE(snap.at("view").contains(mine));
    Bot late_watcher(late_eye, g.table, -1, 1);
    late_watcher.handle(snap);

    // The card was legal: seat 0 plays it.
    first.pause_when = nullptr;
    first.act(play);
    std::vector<Bot*> bots = g.all();
    bots.push_back(&late_watcher);
    run_until(loop, bots, [&] { return std::all_of(bots.begin(), bots.end(), [](Bot* b) { return b->games_over > 0; }); },
              "game over");
    check_problems(bots);
    for (Bot* w : {&watcher, &late_watcher}) {
        CHECK(w->turns == 0);
        CHECK(w->actions == 0);
        CHECK(*w->game_over == *g.seat(0).game_over);
        // It saw every event from its watch on, one seq each.
        CHECK(w->events.back().at("seq").get<std::uint64_t>() - w->events.front().at("seq").get<std::uint64_t>() + 1 ==
              w->events.size());
    }
    CHECK(late_watcher.events.front().at("seq") == snap.at("seq").get<std::uint64_t>() + 1);
    // Neither saw a card before it was played, nor a hand in a snapshot.
    for (TestClient* c : {&eye, &late_eye}) {
        const LeakReport r = check_no_leaks({{c->label(), -1, &c->received()}}, g.table, false);
        for (const auto& p : r.problems) FAIL_CHECK(p);
        CHECK(r.hidden > 0);
    }
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: a seat that lets its turns run out is played by the server, marked absent, and returns by acting") {
    TestServer server({"--messages-per-second", "100000", "--absent-after", "2", "--bot-delay-ms", "300"});
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "timeout", create_table("spades", json::object(), 1), 4, 0, 51);
    Bot& late = g.seat(1);
    Bot& seen = g.seat(0);
    late.acting = false;
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return count_events(seen, "seat_absent", 1) > 0; }, "seat 1 to be marked absent",
              Millis(60'000));

    // Its turns ran out twice: each time the server said so and moved for it;
    // the second time it was also marked absent.
    // As seat 1's own connection tells it (what it acts on).
    auto seat_1_story = [&] {
        std::vector<std::string> story;
        for (const auto& f : late.events) {
            const json& e = f.at("event");
            const std::string type = e.value("type", "");
            if (e.value("seat", -1) == 1 && (type == "turn_timed_out" || type == "seat_absent" || type == "seat_returned" ||
                                             type == "bid_made" || type == "card_played"))
                story.push_back(type);
        }
        return story;
    };
    // Absent, it is played at once (after the bot delay), with no turn timing out; the game goes on.
    run_until(loop, g.all(), [&] { return seat_1_story().size() >= 6; }, "seat 1 to be played while absent", Millis(60'000));
    const std::vector<std::string> expected = {"turn_timed_out", "bid_made",    "turn_timed_out",
                                               "seat_absent",    "card_played", "card_played"};
    CHECK(seat_1_story() == expected);
    for (int s : {0, 2, 3}) CHECK(count_events(seen, "turn_timed_out", s) == 0);
    // It was told how long it had, until it was absent.
    REQUIRE(late.turns >= 3);
    int timed = 0;
    for (const auto& f : g.clients[1]->received())
        if (f.value("type", "") == "your_turn" && f.at("ms_left").is_number()) {
            CHECK(f.at("ms_left").get<int>() <= 1000);
            ++timed;
        }
    CHECK(timed == 2);

    // It acts again: it is back, and its turns are timed again.
    late.acting = true;
    // Every seat is told, each over its own connection: wait for all of them, not only the first.
    const auto all_told = [&] {
        for (const auto& b : g.bots)
            if (count_events(*b, "seat_returned", 1) == 0) return false;
        return true;
    };
    run_until(loop, g.all(), [&] { return all_told() && late.actions > 0 && !late.awaiting(); }, "seat 1 to return",
              Millis(60'000));
    for (const auto& b : g.bots) CHECK(count_events(*b, "seat_returned", 1) == 1);
    const std::vector<std::string> after = seat_1_story();
    REQUIRE(after.size() >= 8);
    CHECK(after[6] == "seat_returned");
    CHECK(after[7] == "card_played");
    const std::uint64_t returned_at = *seen.last_seq;
    run_until(loop, g.all(), [&] { return *seen.last_seq > returned_at + 12 && late.actions > 1; }, "play after the return");
    CHECK(count_events(seen, "turn_timed_out", 1) == 2);
    int timed_after = 0;
    for (const auto& f : g.clients[1]->received())
        if (f.value("type", "") == "your_turn" && f.at("ms_left").is_number()) ++timed_after;
    CHECK(timed_after > timed);
    check_problems(g.all());
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: a private table seats only those with its invite and is not listed") {
    TestServer server;
    EventLoop loop;
    TestClient host(loop, server.port(), "private-host");
    TestClient guest(loop, server.port(), "private-guest");
    host.hello("host");
    guest.hello("guest");
    json create = create_table("spades");
    create["private"] = true;
    const json created = host.request_ok(create);
    const std::string table = created.at("table").get<std::string>();
    REQUIRE(created.contains("invite"));
    const std::string invite = created.at("invite").get<std::string>();
    CHECK(!invite.empty());

    for (const json& bad : {json("wrong"), json("")}) {
        json sit = {{"type", "sit"}, {"table", table}, {"invite", bad}};
        const json refused = guest.request(sit);
        CHECK(refused.at("code") == "wrong_invite");
        CHECK(refused.at("field") == "invite");
    }
    CHECK(guest.request({{"type", "sit"}, {"table", table}}).at("code") == "wrong_invite");
    CHECK(guest.request({{"type", "watch"}, {"table", table}, {"invite", "nope"}}).at("code") == "wrong_invite");
    CHECK(listed(guest, {{"open", false}}).empty());

    const json sat = guest.request_ok({{"type", "sit"}, {"table", table}, {"invite", invite}});
    CHECK(sat.at("table") == table);
    CHECK(sat.at("seat") == 0);
    CHECK(host.request_ok({{"type", "sit"}, {"table", table}, {"invite", invite}}).at("seat") == 1);
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: list_tables filters by preset and by open seats") {
    TestServer server({"--messages-per-second", "100000"});
    EventLoop loop;
    TestClient a(loop, server.port(), "list-a");
    a.hello("a");
    const std::string spades = a.request_ok(create_table("spades")).at("table").get<std::string>();
    const std::string sparts = a.request_ok(create_table("sparts")).at("table").get<std::string>();
    json hidden = create_table("spades");
    hidden["private"] = true;
    const std::string secret = a.request_ok(hidden).at("table").get<std::string>();
    // A full table, playing.
    TableGame full = set_up_table(loop, server.port(), "list-full", create_table("spades"), 4, 0, 61);
    full.clients[0]->request_ok({{"type", "start"}, {"table", full.table}});

    auto sorted = [](std::vector<std::string> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    CHECK(listed(a, json::object()) == sorted({spades, sparts}));
    CHECK(listed(a, {{"preset", "spades"}}) == sorted({spades}));
    CHECK(listed(a, {{"preset", "sparts"}}) == sorted({sparts}));
    CHECK(listed(a, {{"preset", "spartsel"}}).empty());
    CHECK(listed(a, {{"open", false}}) == sorted({spades, sparts, full.table}));
    CHECK(listed(a, {{"preset", "spades"}, {"open", false}}) == sorted({spades, full.table}));
    CHECK(listed(a, {{"seats", 4}}) == sorted({spades, sparts}));
    CHECK(listed(a, {{"seats", 5}}).empty());
    // What a listed table says of itself.
    const json all = a.request_ok({{"type", "list_tables"}, {"open", false}, {"preset", "spades"}});
    for (const auto& t : all.at("tables")) {
        CHECK(t.at("private") == false);
        CHECK(t.at("ruleset").at("preset") == "spades");
        CHECK(t.at("seats").size() == 4);
        CHECK(t.at("state") == (t.at("table") == full.table ? "playing" : "waiting"));
    }
    // The private one is never listed.
    const auto everything = listed(a, {{"open", false}});
    CHECK(std::find(everything.begin(), everything.end(), secret) == everything.end());
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: server bots fill a table and play to game over and again starts game 2 with seqs continuing") {
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0"});
    EventLoop loop;
    TestClient human(loop, server.port(), "bots-human");
    human.hello("human");
    const std::string table = human.request_ok(create_table("sparts")).at("table").get<std::string>();
    CHECK(human.request_ok({{"type", "sit"}, {"table", table}}).at("seat") == 0);
    Bot me(human, table, 0, 81);
    CHECK(human.request({{"type", "start"}, {"table", table}}).at("code") == "seats_not_full");
    for (int s = 1; s < 4; ++s) CHECK(human.request_ok({{"type", "add_bot"}, {"table", table}}).at("seat") == s);
    CHECK(human.request({{"type", "add_bot"}, {"table", table}}).at("code") == "table_full");
    human.request_ok({{"type", "start"}, {"table", table}});
    run_until(loop, {&me}, [&] { return me.games_over == 1; }, "game over with three bots");
    check_problems({&me});
    for (int s = 1; s < 4; ++s) {
        CHECK(count_events(me, "seat_taken", s) == 1);
        CHECK(count_events(me, "card_played", s) > 0);
    }
    CHECK(me.actions > 0);
    const std::uint64_t first_over = me.game_over->at("seq").get<std::uint64_t>();

    // Once it is over: another game, on the same table, the seqs going on.
    CHECK(human.request({{"type", "start"}, {"table", table}}).at("code") == "already_started");
    human.request_ok({{"type", "again"}, {"table", table}});
    run_until(loop, {&me}, [&] { return me.games_over == 2; }, "game over of game 2");
    check_problems({&me});
    std::vector<json> started;
    for (const auto& f : me.events)
        if (is_event(f, "game_started")) started.push_back(f);
    REQUIRE(started.size() == 2);
    CHECK(started[1].at("event").at("game") == 2);
    CHECK(started[1].at("seq").get<std::uint64_t>() > first_over);
    CHECK(me.game_over->at("seq").get<std::uint64_t>() > started[1].at("seq").get<std::uint64_t>());
    // Seqs never restart: the whole stream is one run, checked frame by frame by the bot.
    CHECK(me.events.back().at("seq").get<std::uint64_t>() - me.events.front().at("seq").get<std::uint64_t>() + 1 ==
          me.events.size());
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}
