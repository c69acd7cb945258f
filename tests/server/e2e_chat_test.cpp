// End to end: table chat (PROTOCOL.md, "Table chat"). The seats' channel
// reaches everyone at the table; the spectators' reaches no one who plays the
// game running while it runs, live or when replayed to a returning client;
// texts are checked, never cleaned; mutes hold across a reconnect; a talker is
// rate limited alone; and chat never takes a seq.
//
// That a frame never reached a client is shown with a marker: a line said
// after it, by someone else, that the client does get. A table sends a
// connection its frames in the order it handles the requests behind them, so
// once the marker is there, whatever was said before it and is not there will
// never come.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// The general message limit is lifted: the chat's own limit is what these tests meet.
const std::vector<std::string> kFlags = {"--messages-per-second", "100000"};

json say(TestClient& c, const std::string& table, const std::string& text) {
    return c.request({{"type", "chat"}, {"table", table}, {"text", text}});
}

json mute(TestClient& c, const std::string& table, const json& seat, bool muted) {
    return c.request({{"type", "mute"}, {"table", table}, {"seat", seat}, {"muted", muted}});
}

bool is_chat(const json& f, const std::string& text) {
    return f.value("type", "") == "chat" && f.at("line").value("text", "") == text;
}

// The chat frame with `text` this client received (waiting for it).
json heard(TestClient& c, const std::string& text) {
    return c.wait_for([&](const json& f) { return is_chat(f, text); }, "the chat line \"" + text + "\"");
}

// Whether the client has received, ever, a chat frame with `text`.
bool ever_heard(const TestClient& c, const std::string& text) {
    const auto& all = c.received();
    return std::any_of(all.begin(), all.end(), [&](const json& f) { return is_chat(f, text); });
}

// The texts of the lines of the latest chat_history the client received (waiting for one).
json latest_history(TestClient& c) {
    return c.wait_for([](const json& f) { return f.value("type", "") == "chat_history"; }, "a chat_history");
}

std::vector<std::string> texts_of(const json& history) {
    std::vector<std::string> out;
    for (const auto& line : history.at("lines")) out.push_back(line.at("text").get<std::string>());
    return out;
}

// The seq of every event frame the client has received, in order.
std::vector<std::uint64_t> event_seqs(const TestClient& c) {
    std::vector<std::uint64_t> out;
    for (const auto& f : c.received())
        if (f.value("type", "") == "event") out.push_back(f.at("seq").get<std::uint64_t>());
    return out;
}

bool contiguous(const std::vector<std::uint64_t>& seqs) {
    for (std::size_t i = 1; i < seqs.size(); ++i)
        if (seqs[i] != seqs[i - 1] + 1) return false;
    return true;
}

// Has `c` say `marker`, and waits until every one of `at_table` has heard it.
void marker(TestClient& c, const std::string& table, const std::string& text, const std::vector<TestClient*>& at_table) {
    REQUIRE(say(c, table, text).at("type") == "ok");
    for (TestClient* x : at_table) heard(*x, text);
}

std::vector<TestClient*> everyone(TableGame& g) {
    std::vector<TestClient*> out;
    for (auto& c : g.clients) out.push_back(c.get());
    return out;
}

void check_problems(const std::vector<Bot*>& bots) {
    for (Bot* b : bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);
}

}  // namespace

TEST_CASE("e2e: chat from a seat reaches every seat and spectator, as typed, markup and all") {
    TestServer server(kFlags);
    EventLoop loop;
    // Two hands: the game ends (and the rail talks to everyone again) sooner.
    TableGame g = set_up_table(loop, server.port(), "chat-seats", create_table("spades", {{"hand_cap", 2}}), 4, 2, 11);
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    const std::string markup = R"x(<script>alert("x")</script><img src=x onerror="alert(1)"> &amp; <b>bold</b>)x";
    const json ok = say(*g.clients[2], g.table, "  " + markup + "  ");
    REQUIRE(ok.at("type") == "ok");
    CHECK(ok.at("re") == "chat");
    CHECK(ok.at("table") == g.table);
    for (TestClient* c : everyone(g)) {
        const json f = heard(*c, markup);  // verbatim, only the spaces at either end cut
        CHECK(f.at("table") == g.table);
        const json& line = f.at("line");
        CHECK(line.at("channel") == "seats");
        CHECK(line.at("seat") == 2);
        CHECK(line.at("to") == "everyone");
        CHECK(line.at("player") == g.clients[2]->player());
        CHECK(line.at("name") == "chat-seats s2");
    }
    // The speaker hears its line before the ok, as an actor sees its events before its ok.
    const auto& mine = g.clients[2]->received();
    const auto line_at = std::find_if(mine.begin(), mine.end(), [&](const json& f) { return is_chat(f, markup); });
    const auto ok_at = std::find(mine.begin(), mine.end(), ok);
    CHECK(line_at < ok_at);
}

TEST_CASE("e2e: chat from a spectator never reaches a seat during a game, and reaches everyone between games") {
    TestServer server(kFlags);
    EventLoop loop;
    // One hand a game: the game ends soon, and the table is between games again.
    TableGame g = set_up_table(loop, server.port(), "chat-rail", create_table("spades", {{"hand_cap", 1}}), 4, 2, 12);
    TestClient& w0 = *g.clients[4];
    TestClient& w1 = *g.clients[5];
    const std::vector<TestClient*> seats = {g.clients[0].get(), g.clients[1].get(), g.clients[2].get(), g.clients[3].get()};

    // Before the first game: the rail talks to everyone.
    REQUIRE(say(w0, g.table, "good luck all").at("type") == "ok");
    for (TestClient* c : everyone(g)) {
        const json f = heard(*c, "good luck all");
        const json& line = f.at("line");
        CHECK(line.at("channel") == "spectators");
        CHECK(line.at("seat").is_null());
        CHECK(line.at("to") == "everyone");
    }

    // During the game: spectators hear it, the seats never do.
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    REQUIRE(say(w0, g.table, "seat 2 holds the ace of spades").at("type") == "ok");
    for (TestClient* w : {&w0, &w1}) CHECK(heard(*w, "seat 2 holds the ace of spades").at("line").at("to") == "spectators");
    marker(*g.clients[1], g.table, "marker one", everyone(g));
    for (TestClient* s : seats) CHECK_FALSE(ever_heard(*s, "seat 2 holds the ace of spades"));

    // A player who gives up a seat mid-game and watches still plays this game: no rail talk for them.
    g.clients[3]->request_ok({{"type", "leave"}, {"table", g.table}});
    g.clients[3]->request_ok({{"type", "watch"}, {"table", g.table}});
    REQUIRE(say(w1, g.table, "lead low").at("type") == "ok");
    heard(w0, "lead low");
    marker(*g.clients[0], g.table, "marker two", everyone(g));
    for (TestClient* s : seats) CHECK_FALSE(ever_heard(*s, "lead low"));

    // The game plays to its end (a server bot took seat 3).
    std::vector<Bot*> players = {&g.seat(0), &g.seat(1), &g.seat(2), g.bots[4].get()};
    run_until(loop, players, [&] { return g.seat(0).games_over > 0 && g.bots[4]->games_over > 0; }, "game over");
    check_problems(players);
    // Between games the rail talks to everyone again.
    REQUIRE(say(w0, g.table, "well played").at("type") == "ok");
    for (TestClient* c : everyone(g)) CHECK(heard(*c, "well played").at("line").at("to") == "everyone");

    // What seats never heard live, they are not told when they come back either.
    TestClient back(loop, server.port(), "chat-rail-s1-back");
    back.hello("back", g.clients[1]->token());
    back.request_ok({{"type", "resume"}, {"table", g.table}, {"seq", 0}});
    CHECK(texts_of(latest_history(back)) ==
          std::vector<std::string>{"good luck all", "marker one", "marker two", "well played"});
    // The spectators are told all of it, in order.
    TestClient eye(loop, server.port(), "chat-rail-w2");
    eye.hello("late eye");
    eye.request_ok({{"type", "watch"}, {"table", g.table}});
    CHECK(texts_of(latest_history(eye)) == std::vector<std::string>{"good luck all", "seat 2 holds the ace of spades",
                                                                     "marker one", "lead low", "marker two",
                                                                     "well played"});
}

TEST_CASE("e2e: chat resume replays the chat in order, with the events and no seq gap") {
    TestServer server(kFlags);
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "chat-resume", create_table("spades"), 4, 1, 13);
    Bot& a = g.seat(0);
    TestClient& w = *g.clients[4];
    // Seat 0 stops when it is to lead a trick that is not the last of the hand: once it has led,
    // the others have cards to play without it.
    a.pause_when = [](const Bot& b) { return b.turn_kind() == "play" && b.trick_cards == 0 && b.hand.size() >= 2; };
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    // Talk between moves: the seq goes on as if nobody spoke.
    REQUIRE(say(*g.clients[1], g.table, "one").at("type") == "ok");
    run_until(loop, g.all(), [&] { return a.ready() && a.pause_when(a); }, "seat 0 to lead a trick");
    REQUIRE(say(w, g.table, "two (the rail)").at("type") == "ok");
    REQUIRE(say(*g.clients[0], g.table, "three").at("type") == "ok");
    heard(*g.clients[0], "three");

    // Seat 0 leads, hears back, and its connection drops; the others play on and talk.
    a.pause_when = nullptr;
    a.act();
    run_until(loop, g.all(), [&] { return !a.awaiting(); }, "the reply to seat 0's lead");
    a.acting = false;
    g.clients[0]->drop();
    a.step();
    const std::uint64_t last = *a.last_seq;
    std::vector<Bot*> others = {&g.seat(1), &g.seat(2), &g.seat(3), g.bots[4].get()};
    run_until(loop, others, [&] { return *g.bots[4]->last_seq > last; }, "an event seat 0 missed");
    REQUIRE(say(*g.clients[2], g.table, "four").at("type") == "ok");
    heard(w, "four");

    // It comes back: the events it missed, from last + 1, then the chat, all of it, in the order said.
    TestClient back(loop, server.port(), "chat-resume-s0-back");
    back.hello("back", g.clients[0]->token());
    const json reply = back.request_ok({{"type", "resume"}, {"table", g.table}, {"seq", last}});
    CHECK(reply.at("mode") == "events");
    const json history = latest_history(back);
    CHECK(texts_of(history) == std::vector<std::string>{"one", "three", "four"});  // not the rail's, mid-game
    std::vector<std::uint64_t> said_at;
    for (const auto& line : history.at("lines")) said_at.push_back(line.at("seq").get<std::uint64_t>());
    CHECK(std::is_sorted(said_at.begin(), said_at.end()));
    CHECK(said_at.back() > last);  // "four" came after the drop
    CHECK(history.at("muted") == json::array());
    // The events it got run on from its last seq without a gap, and the play goes on without one.
    Bot b(back, g.table, 0, 7);
    b.last_seq = last;
    b.hand = a.hand;
    std::vector<Bot*> table = {&b, &g.seat(1), &g.seat(2), &g.seat(3), g.bots[4].get()};
    const std::uint64_t target = last + 12;
    run_until(loop, table, [&] { return b.last_seq && *b.last_seq >= target; }, "a dozen events after the resume");
    check_problems(table);
    const auto seqs = event_seqs(back);
    REQUIRE_FALSE(seqs.empty());
    CHECK(seqs.front() == last + 1);
    CHECK(contiguous(seqs));
    // And every connection that stayed saw a stream without a gap while the chat went on.
    for (int i = 1; i < 5; ++i) CHECK(contiguous(event_seqs(*g.clients[static_cast<std::size_t>(i)])));
    // A reload (sit on a fresh connection: a snapshot) gets the same chat.
    TestClient reload(loop, server.port(), "chat-resume-s0-reload");
    reload.hello("reload", g.clients[0]->token());
    reload.request_ok({{"type", "sit"}, {"table", g.table}});
    CHECK(texts_of(latest_history(reload)) == std::vector<std::string>{"one", "three", "four"});
}

TEST_CASE("e2e: chat texts too long, empty, with control characters or not UTF-8 are refused and change nothing") {
    TestServer server(kFlags);
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "chat-limits", create_table("spades"), 2, 1, 14);
    TestClient& s0 = *g.clients[0];
    std::string longest;
    for (int i = 0; i < 300; ++i) longest += "é";
    struct Case {
        std::string text;
        std::string code;
    };
    const std::vector<Case> cases = {
        {longest + "é", "chat_too_long"},
        {std::string(301, 'x'), "chat_too_long"},
        {"", "chat_empty"},
        {"   \u00a0 ", "chat_empty"},
        {"two\nlines", "chat_bad_text"},
        {"tab\there", "chat_bad_text"},
        {"\u202egnp.exe", "chat_bad_text"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text);
        const json r = say(s0, g.table, c.text);
        CHECK(r.at("type") == "error");
        CHECK(r.at("code") == c.code);
        CHECK(r.at("re") == "chat");
        CHECK(r.value("field", "") == "text");
    }
    // The longest line that is said.
    CHECK(say(s0, g.table, longest).at("type") == "ok");
    // A lone surrogate escaped in JSON is not text: the frame is not read.
    s0.send_text(R"({"type":"chat","id":"lone","table":")" + g.table + R"(","text":"\ud800"})");
    CHECK(s0.wait_for([](const json& f) { return f.value("type", "") == "error"; }, "an error").at("code") == "bad_json");
    marker(*g.clients[1], g.table, "after the refusals", everyone(g));
    // Nobody heard any of the refused texts; the table's chat holds only what was said.
    for (TestClient* c : everyone(g)) {
        for (const auto& bad : cases) CHECK_FALSE(ever_heard(*c, bad.text));
        CHECK(ever_heard(*c, longest));
    }
    TestClient eye(loop, server.port(), "chat-limits-eye");
    eye.hello("eye");
    eye.request_ok({{"type", "watch"}, {"table", g.table}});
    CHECK(texts_of(latest_history(eye)) == std::vector<std::string>{longest, "after the refusals"});

    // Bytes that are not UTF-8 in a text frame are refused by the WebSocket layer: the connection
    // closes (1007) and the table hears nothing.
    TestClient raw(loop, server.port(), "chat-limits-raw");
    raw.hello("raw");
    raw.request_ok({{"type", "watch"}, {"table", g.table}});
    raw.send_text(R"({"type":"chat","table":")" + g.table + "\",\"text\":\"caf\xe9\"}");
    CHECK(raw.wait_closed() == 1007);
    marker(*g.clients[1], g.table, "after the raw bytes", {&s0, &eye});
    eye.request_ok({{"type", "watch"}, {"table", g.table}});
    CHECK(texts_of(latest_history(eye)) ==
          std::vector<std::string>{longest, "after the refusals", "after the raw bytes"});
}

TEST_CASE("e2e: chat and mute from a player not at the table are refused with not_at_table") {
    TestServer server(kFlags);
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "chat-stranger", create_table("spades"), 2, 0, 15);
    TestClient stranger(loop, server.port(), "chat-stranger-x");
    stranger.hello("stranger");
    const json r = say(stranger, g.table, "let me in");
    CHECK(r.at("type") == "error");
    CHECK(r.at("code") == "not_at_table");
    CHECK(r.at("re") == "chat");
    CHECK(mute(stranger, g.table, 0, true).at("code") == "not_at_table");
    // A spectator who stopped watching is a stranger again.
    stranger.request_ok({{"type", "watch"}, {"table", g.table}});
    CHECK(say(stranger, g.table, "hello").at("type") == "ok");
    stranger.request_ok({{"type", "leave"}, {"table", g.table}});
    CHECK(say(stranger, g.table, "still here?").at("code") == "not_at_table");
    marker(*g.clients[0], g.table, "marker", everyone(g));
    for (TestClient* c : everyone(g)) {
        CHECK_FALSE(ever_heard(*c, "let me in"));
        CHECK(ever_heard(*c, "hello"));
        CHECK_FALSE(ever_heard(*c, "still here?"));
    }
    // No such table: as for any table request.
    CHECK(say(stranger, "t999", "anyone?").at("code") == "no_such_table");
}

TEST_CASE("e2e: chat mute hides a seat or the spectators from the player who muted, live and after a resume") {
    TestServer server(kFlags);
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "chat-mute", create_table("spades"), 4, 2, 16);
    TestClient& s0 = *g.clients[0];
    TestClient& s1 = *g.clients[1];
    TestClient& w0 = *g.clients[4];
    TestClient& w1 = *g.clients[5];

    const json ok = mute(s0, g.table, 1, true);
    REQUIRE(ok.at("type") == "ok");
    CHECK(ok.at("seat") == 1);
    CHECK(ok.at("muted") == true);
    REQUIRE(say(s1, g.table, "you will not hear this").at("type") == "ok");
    marker(*g.clients[2], g.table, "marker one", everyone(g));
    CHECK_FALSE(ever_heard(s0, "you will not hear this"));
    for (int i = 1; i < 6; ++i) CHECK(ever_heard(*g.clients[static_cast<std::size_t>(i)], "you will not hear this"));
    // Seat 0 still hears itself, and the rail (between games).
    REQUIRE(say(w0, g.table, "rail one").at("type") == "ok");
    heard(s0, "rail one");

    // The rail muted as a whole, by a spectator: its own lines still come back to it.
    REQUIRE(mute(w1, g.table, "spectators", true).at("seat") == "spectators");
    REQUIRE(say(w0, g.table, "rail two").at("type") == "ok");
    REQUIRE(say(w1, g.table, "my own").at("type") == "ok");
    heard(w1, "my own");
    marker(*g.clients[3], g.table, "marker two", everyone(g));
    CHECK_FALSE(ever_heard(w1, "rail two"));
    CHECK(ever_heard(s0, "rail two"));

    // Seat 0's mute lasts across a reconnect: the history leaves the muted lines out and lists the mute.
    g.clients[0]->drop();
    TestClient back(loop, server.port(), "chat-mute-s0-back");
    back.hello("back", s0.token());
    back.request_ok({{"type", "resume"}, {"table", g.table}, {"seq", 0}});
    const json history = latest_history(back);
    CHECK(history.at("muted") == json::array({1}));
    CHECK(texts_of(history) ==
          std::vector<std::string>{"marker one", "rail one", "rail two", "my own", "marker two"});
    REQUIRE(say(s1, g.table, "still muted").at("type") == "ok");
    marker(*g.clients[2], g.table, "marker three", {&back, &w0});
    CHECK_FALSE(ever_heard(back, "still muted"));
    // Unmuted: seat 1 is heard again (what it said meanwhile stays unheard live).
    CHECK(mute(back, g.table, 1, false).at("muted") == false);
    REQUIRE(say(s1, g.table, "hello again").at("type") == "ok");
    heard(back, "hello again");

    // Not one's own seat, not a seat the table lacks.
    const json own = mute(back, g.table, 0, true);
    CHECK(own.at("code") == "bad_seat");
    CHECK(own.at("field") == "seat");
    CHECK(mute(back, g.table, 7, true).at("code") == "bad_seat");
    CHECK(mute(back, g.table, 12, true).at("code") == "bad_message");

    // A spectator's mute lasts across a dropped connection too.
    REQUIRE(mute(w0, g.table, 2, true).at("type") == "ok");
    w0.drop();
    TestClient w0_back(loop, server.port(), "chat-mute-w0-back");
    w0_back.hello("back", w0.token());
    CHECK(w0_back.request_ok({{"type", "resume"}, {"table", g.table}, {"seq", 0}}).at("seat").is_null());
    CHECK(latest_history(w0_back).at("muted") == json::array({2}));
    // But while its player is at the table only: a spectator who leaves and comes back has none.
    w1.request_ok({{"type", "leave"}, {"table", g.table}});
    w1.request_ok({{"type", "watch"}, {"table", g.table}});
    CHECK(latest_history(w1).at("muted") == json::array());
    REQUIRE(say(w0_back, g.table, "rail three").at("type") == "ok");
    heard(w1, "rail three");
}

TEST_CASE("e2e: chat from a storm of messages is rate limited for its sender alone, and nobody is disconnected") {
    TestServer server(kFlags);
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "chat-storm", create_table("spades", {{"hand_cap", 1}}), 4, 1, 17);
    TestClient& loud = *g.clients[4];
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    // Sixty lines as fast as they go, each with its id.
    for (int i = 0; i < 60; ++i)
        loud.send({{"type", "chat"}, {"id", "storm-" + std::to_string(i)}, {"table", g.table}, {"text", "spam " + std::to_string(i)}});
    int said = 0, limited = 0;
    for (int i = 0; i < 60; ++i) {
        const std::string id = "storm-" + std::to_string(i);
        const json r = loud.wait_for([&](const json& f) { return f.value("id", json()) == id; }, "the reply to " + id);
        if (r.at("type") == "ok") {
            ++said;
        } else {
            CHECK(r.at("code") == "chat_rate_limited");
            CHECK(r.at("re") == "chat");
            ++limited;
        }
    }
    // The burst (5), and at most one more from the refill (one every 2 s) however slow the machine.
    CHECK(said >= 5);
    CHECK(said <= 6);
    CHECK(limited == 60 - said);
    CHECK_FALSE(loud.closed());
    CHECK(loud.request({{"type", "ping"}}).at("type") == "ok");

    // The seats talk on as if nothing happened, and play the game to its end.
    REQUIRE(say(*g.clients[1], g.table, "calm").at("type") == "ok");
    for (TestClient* c : everyone(g)) heard(*c, "calm");
    g.play_to_game_over(loop);
    check_problems(g.all());
    for (TestClient* c : everyone(g)) {
        CHECK_FALSE(c->closed());
        CHECK(contiguous(event_seqs(*c)));
    }
    // The seats heard none of the spectator's storm (a game ran); the other spectators' share of it is what was said.
    for (int i = 0; i < 4; ++i) CHECK_FALSE(ever_heard(*g.clients[static_cast<std::size_t>(i)], "spam 0"));
    int heard_lines = 0;
    for (const auto& f : loud.received())
        if (f.value("type", "") == "chat" && f.at("line").at("text").get<std::string>().rfind("spam ", 0) == 0)
            ++heard_lines;
    CHECK(heard_lines == said);
    // Two seconds on, the bucket has a token again.
    std::this_thread::sleep_for(Millis(2100));
    CHECK(say(loud, g.table, "one more").at("type") == "ok");
}
