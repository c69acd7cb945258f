// End to end: a finished game replayed over the WebSocket (PROTOCOL.md §15).
// A game of two hands is played by real clients; a third connection opens its
// replay, steps, plays at a chosen speed, pauses, seeks to a hand, a trick
// and a position, and is refused bad positions and games that are not
// there. Every event replayed is compared with the archive's copy.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

bool is(const json& f, const std::string& type) { return f.value("type", "") == type; }

// Runs the loop for `how_long` (taking no frame), then a ping: frames the
// server sent before it answered the ping have arrived.
void idle(TestClient& c, Millis how_long) {
    CHECK_FALSE(c.wait_closed(how_long).has_value());
    c.request_ok({{"type", "ping"}});
}

std::size_t count_type(const std::vector<json>& frames, std::size_t from, const std::string& type) {
    return static_cast<std::size_t>(
        std::count_if(frames.begin() + static_cast<std::ptrdiff_t>(from), frames.end(), [&](const json& f) { return is(f, type); }));
}

}  // namespace

TEST_CASE("e2e: a finished game replays over the WebSocket with step, play at a speed, pause, seek to a hand, "
          "a trick and a position, and errors for bad positions and missing games") {
    TestServer server({"--messages-per-second", "100000"});
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "replay", create_table("spartsel", {{"seats", 2}, {"hands", 2}}), 2, 0, 21);
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    g.play_to_game_over(loop);
    for (auto& b : g.bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);
    // A game in progress at another table.
    TableGame busy = set_up_table(loop, server.port(), "replay-busy", create_table("spartsel", {{"seats", 2}, {"hands", 1}}), 2, 0, 22);
    busy.clients[0]->request_ok({{"type", "start"}, {"table", busy.table}});

    // The archive's copy, to compare with.
    const HttpReply archived = http_get(server.port(), "/api/games/" + g.table + "/1");
    REQUIRE(archived.status == 200);
    const json game = json::parse(archived.body);
    const json& events = game.at("events");
    const std::size_t n = events.size();
    REQUIRE(n > 60);
    std::vector<std::size_t> hand_starts;
    std::vector<std::vector<std::size_t>> trick_starts;
    bool trick_open = false;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string type = events[i].at("event").value("type", "");
        if (type == "hand_started") {
            hand_starts.push_back(i);
            trick_starts.emplace_back();
            trick_open = false;
        } else if (type == "card_played" && !trick_open) {
            trick_starts.back().push_back(i);
            trick_open = true;
        } else if (type == "trick_won") {
            trick_open = false;
        }
    }
    REQUIRE(hand_starts.size() == 2);

    TestClient viewer(loop, server.port(), "replay-viewer");
    viewer.hello("viewer");
    auto error_code = [&](const json& request) { return viewer.request(request).value("code", ""); };
    auto event_at = [&](std::size_t position) {
        const json f = viewer.wait_for([](const json& x) { return is(x, "replay_event"); }, "a replay_event");
        CHECK(f.at("table") == g.table);
        CHECK(f.at("game") == 1);
        CHECK(f.at("position") == position);
        REQUIRE(position < n);
        CHECK(f.at("seq") == events[position].at("seq"));
        CHECK(f.at("event") == events[position].at("event"));
        return f;
    };

    // --- errors before and around a replay ---------------------------------------------
    CHECK(error_code({{"type", "replay_control"}, {"action", "pause"}}) == "no_replay");
    CHECK(error_code({{"type", "replay"}, {"table", "t999"}, {"game", 1}}) == "no_such_game");
    CHECK(error_code({{"type", "replay"}, {"table", g.table}, {"game", 2}}) == "no_such_game");
    CHECK(error_code({{"type", "replay"}, {"table", busy.table}, {"game", 1}}) == "no_such_game");
    CHECK(error_code({{"type", "replay"}, {"table", g.table}, {"game", 0}}) == "bad_message");
    CHECK(error_code({{"type", "replay"}, {"table", g.table}, {"game", 1}, {"speed", 5000}}) == "bad_message");

    // --- open, paused: the outline, and nothing streams ------------------------------------
    const json outline = viewer.request_ok({{"type", "replay"}, {"table", g.table}, {"game", 1}, {"speed", 0}});
    CHECK(outline.at("table") == g.table);
    CHECK(outline.at("game") == 1);
    CHECK(outline.at("events") == n);
    CHECK(outline.at("ruleset").at("preset") == "spartsel");
    REQUIRE(outline.at("hands").size() == 2);
    for (std::size_t h = 0; h < 2; ++h) {
        CHECK(outline.at("hands")[h].at("hand") == h + 1);
        CHECK(outline.at("hands")[h].at("position") == hand_starts[h]);
        CHECK(outline.at("hands")[h].at("tricks") == json(trick_starts[h]));
        CHECK(outline.at("hands")[h].at("tricks").size() == 17);  // 17 cards each, two seats
    }
    std::size_t mark = viewer.received().size();
    idle(viewer, Millis(300));
    CHECK(count_type(viewer.received(), mark, "replay_event") == 0);

    // --- step -------------------------------------------------------------------------------
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});
    event_at(0);
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});
    event_at(1);

    // --- play at 20 events a second: in order, and no faster than asked ----------------------
    const auto asked = Clock::now();
    viewer.request_ok({{"type", "replay_control"}, {"action", "play"}, {"speed", 20}});
    for (std::size_t p = 2; p < 8; ++p) event_at(p);
    // Six events at 20 a second: the first at once, the sixth 5 x 50 ms later at the earliest.
    CHECK(Clock::now() - asked >= Millis(240));
    viewer.request_ok({{"type", "replay_control"}, {"action", "pause"}});
    // Events sent before the pause's reply are taken in order; after it, none come.
    std::size_t next = 8;
    while (auto f = viewer.poll()) {
        if (!is(*f, "replay_event")) continue;
        CHECK(f->at("position") == next);
        ++next;
    }
    mark = viewer.received().size();
    idle(viewer, Millis(300));
    CHECK(count_type(viewer.received(), mark, "replay_event") == 0);

    // --- play to the end, fast: every event, then replay_ended ----------------------------------
    viewer.request_ok({{"type", "replay_control"}, {"action", "play"}, {"speed", 1000}});
    for (std::size_t p = next; p < n; ++p) event_at(p);
    const json ended = viewer.wait_for([](const json& f) { return is(f, "replay_ended"); }, "replay_ended");
    CHECK(ended.at("position") == n);
    CHECK(ended.at("table") == g.table);
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});  // past the end: ended again
    CHECK(viewer.wait_for([](const json& f) { return is(f, "replay_ended"); }, "replay_ended").at("position") == n);

    // --- seek to hand 2: every seat's cards as dealt for it ---------------------------------------
    viewer.request_ok({{"type", "replay_control"}, {"action", "seek"}, {"hand", 2}});
    {
        const json state = viewer.wait_for([](const json& f) { return is(f, "replay_state"); }, "replay_state");
        CHECK(state.at("position") == hand_starts[1]);
        REQUIRE(state.at("hands").size() == 2);
        for (int s = 0; s < 2; ++s) {
            std::set<std::string> held, dealt;
            for (const auto& c : state.at("hands")[static_cast<std::size_t>(s)]) held.insert(c.get<std::string>());
            for (const auto& c : game.at("hands")[1].at("deal").at(std::to_string(s))) dealt.insert(c.get<std::string>());
            CAPTURE(s);
            CHECK(held == dealt);
            CHECK(held.size() == 17);
        }
        CHECK(state.at("view").at("hand_number") == 2);
        CHECK(state.at("view").at("viewer") == "spectator");
    }
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});
    CHECK(event_at(hand_starts[1]).at("event").at("type") == "hand_started");

    // --- seek to hand 1, trick 3: before its first card, the trick empty -----------------------
    viewer.request_ok({{"type", "replay_control"}, {"action", "seek"}, {"hand", 1}, {"trick", 3}});
    {
        const json state = viewer.wait_for([](const json& f) { return is(f, "replay_state"); }, "replay_state");
        CHECK(state.at("position") == trick_starts[0][2]);
        CHECK(state.at("view").at("hand_number") == 1);
        CHECK(state.at("view").at("trick").at("cards").empty());
        // Two tricks played: each seat holds what it was dealt and passed and received, but the two cards it played.
        for (int s = 0; s < 2; ++s) {
            std::set<std::string> expected, held;
            for (const auto& c : game.at("hands")[0].at("deal").at(std::to_string(s))) expected.insert(c.get<std::string>());
            for (std::size_t i = hand_starts[0]; i < trick_starts[0][2]; ++i) {
                const json& e = events[i].at("event");
                const std::string type = e.value("type", "");
                if (type == "card_played" && e.value("seat", -1) == s) expected.erase(e.at("card").get<std::string>());
                if (type == "cards_passed" && e.value("from", -1) == s)
                    for (const auto& c : e.at("cards")) expected.erase(c.get<std::string>());
                if (type == "cards_received" && e.value("seat", -1) == s)
                    for (const auto& c : e.at("cards")) expected.insert(c.get<std::string>());
            }
            for (const auto& c : state.at("hands")[static_cast<std::size_t>(s)]) held.insert(c.get<std::string>());
            CAPTURE(s);
            CAPTURE(json(held).dump());
            CAPTURE(json(expected).dump());
            CHECK(held.size() == 15);
            CHECK(held == expected);
        }
    }
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});
    CHECK(event_at(trick_starts[0][2]).at("event").at("type") == "card_played");

    // --- seek while playing goes on playing, from the new place -----------------------------------
    viewer.request_ok({{"type", "replay_control"}, {"action", "play"}, {"speed", 50}});
    viewer.wait_for([](const json& f) { return is(f, "replay_event"); }, "a replay_event");
    viewer.request_ok({{"type", "replay_control"}, {"action", "seek"}, {"position", 5}});
    // Events in flight before the seek's state are passed over; after it, play goes on from position 5.
    for (;;) {
        const json f = viewer.wait_for([](const json& x) { return is(x, "replay_event") || is(x, "replay_state"); },
                                       "the seek's replay_state");
        if (is(f, "replay_state")) {
            CHECK(f.at("position") == 5);
            break;
        }
    }
    event_at(5);
    event_at(6);
    viewer.request_ok({{"type", "replay_control"}, {"action", "pause"}});
    // Events sent before the pause's reply (on a slow machine, 7 and more) are taken in order
    // here: left queued, one would pass for the next replay's first event.
    for (std::size_t after = 7; auto f = viewer.poll();) {
        if (!is(*f, "replay_event")) continue;
        CHECK(f->at("table") == g.table);
        CHECK(f->at("position") == after);
        ++after;
    }

    // --- the end, and positions that are not there ---------------------------------------------------
    viewer.request_ok({{"type", "replay_control"}, {"action", "seek"}, {"position", n}});
    CHECK(viewer.wait_for([](const json& f) { return is(f, "replay_state"); }, "replay_state").at("position") == n);
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});
    CHECK(viewer.wait_for([](const json& f) { return is(f, "replay_ended"); }, "replay_ended").at("position") == n);
    mark = viewer.received().size();
    CHECK(error_code({{"type", "replay_control"}, {"action", "seek"}, {"position", n + 1}}) == "bad_position");
    CHECK(error_code({{"type", "replay_control"}, {"action", "seek"}, {"hand", 3}}) == "bad_position");
    CHECK(error_code({{"type", "replay_control"}, {"action", "seek"}, {"hand", 1}, {"trick", 18}}) == "bad_position");
    CHECK(error_code({{"type", "replay_control"}, {"action", "seek"}, {"hand", 0}}) == "bad_message");
    CHECK(error_code({{"type", "replay_control"}, {"action", "seek"}, {"trick", 1}}) == "bad_message");
    CHECK(error_code({{"type", "replay_control"}, {"action", "seek"}}) == "bad_message");
    CHECK(error_code({{"type", "replay_control"}, {"action", "rewind"}}) == "bad_message");
    CHECK(count_type(viewer.received(), mark, "replay_state") == 0);  // a refused seek moves nothing
    // Still where it was: a step at the end ends again.
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});
    CHECK(viewer.wait_for([](const json& f) { return is(f, "replay_ended"); }, "replay_ended").at("position") == n);

    // --- a replay of another game replaces this one ---------------------------------------------------
    busy.play_to_game_over(loop);
    const json other = viewer.request_ok({{"type", "replay"}, {"table", busy.table}, {"game", 1}, {"speed", 0}});
    CHECK(other.at("table") == busy.table);
    viewer.request_ok({{"type", "replay_control"}, {"action", "step"}});
    const json first = viewer.wait_for([](const json& f) { return is(f, "replay_event"); }, "a replay_event");
    CHECK(first.at("table") == busy.table);
    CHECK(first.at("position") == 0);
    CHECK(stop_server(server, loop) == 0);
}
