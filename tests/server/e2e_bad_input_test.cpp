// End to end: bad input of every kind is answered by its error code (or, for
// abuse, by closing that one connection), and a game at the table plays on
// after each.
#include <doctest/doctest.h>

#include <algorithm>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

bool error_with(const json& f, const std::string& code) {
    return f.value("type", "") == "error" && f.value("code", "") == code;
}

std::string card_not_held(const Bot& b) {
    for (const char* suit : {"C", "D", "H", "S"})
        for (const char* rank : {"2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"}) {
            const std::string c = std::string(rank) + suit;
            if (!b.hand.contains(c)) return c;
        }
    return "";
}

}  // namespace

TEST_CASE("e2e: bad input is answered by its error code while the game at the table plays on") {
    TestServer server({"--messages-per-second", "100000", "--max-frame-bytes", "2048"});
    EventLoop loop;
    TableGame g = set_up_table(loop, server.port(), "bad", create_table("spades"), 4, 1, 91);
    TestClient& me = *g.clients[0];
    Bot& mine = g.seat(0);
    TestClient& eye = *g.clients[4];
    const std::string table = g.table;
    // The table plays on: every connection that follows it sees eight more events.
    auto plays_on = [&](const std::string& after) {
        CAPTURE(after);
        std::uint64_t from = 0;
        for (const auto& b : g.bots) from = std::max(from, b->last_seq.value_or(0));
        run_until(
            loop, g.all(),
            [&] { return std::all_of(g.bots.begin(), g.bots.end(), [&](const auto& b) { return b->last_seq.value_or(0) >= from + 8; }); },
            "eight more events after " + after);
        CHECK(!me.closed());
    };

    // Its first bid, out of range.
    mine.pause_when = [](const Bot& b) { return b.turn_kind() == "bid"; };
    g.clients[0]->request_ok({{"type", "start"}, {"table", table}});
    run_until(loop, g.all(), [&] { return mine.ready() && mine.turn_kind() == "bid"; }, "seat 0's bid");
    json r = me.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bid"}, {"bid", 14}}}});
    CHECK(error_with(r, "bid_out_of_range"));
    CHECK(r.at("re") == "act");
    mine.pause_when = nullptr;
    plays_on("bid_out_of_range");

    // Malformed JSON: no id can be recovered, the code says what.
    me.send_text(R"({"type":"ping","id":)");
    r = me.wait_for([](const json& f) { return f.value("type", "") == "error"; }, "the bad_json error");
    CHECK(error_with(r, "bad_json"));
    plays_on("bad_json");

    me.send_binary(std::string("\x01\x02\x03", 3));
    r = me.wait_for([](const json& f) { return f.value("type", "") == "error"; }, "the binary_frame error");
    CHECK(error_with(r, "binary_frame"));
    plays_on("binary_frame");

    r = me.request({{"type", "dance"}});
    CHECK(error_with(r, "unknown_type"));
    CHECK(r.contains("id"));
    plays_on("unknown_type");

    r = me.request({{"type", "sit"}});
    CHECK(error_with(r, "bad_message"));
    CHECK(r.at("field") == "table");
    r = me.request({{"type", "act"}, {"table", table}, {"action", {{"type", "play"}, {"card", 5}}}});
    CHECK(error_with(r, "bad_message"));
    CHECK(r.at("field") == "action.card");
    r = me.request({{"type", "resume"}, {"table", table}, {"seq", "last"}});
    CHECK(error_with(r, "bad_message"));
    CHECK(r.at("field") == "seq");
    r = me.request({{"type", "hello"}, {"protocol", 1}, {"name", "again"}});
    CHECK(error_with(r, "already_hello"));
    plays_on("bad_message");

    // Out of turn: seat 1 is to play a card, seat 0 tries one of its own.
    Bot& next = g.seat(1);
    next.pause_when = [](const Bot& b) { return b.turn_kind() == "play"; };
    run_until(loop, g.all(), [&] { return next.ready() && next.turn_kind() == "play"; }, "seat 1 to play");
    r = me.request({{"type", "act"}, {"table", table}, {"action", {{"type", "play"}, {"card", *mine.hand.begin()}}}});
    CHECK(error_with(r, "not_your_turn"));
    next.pause_when = nullptr;
    plays_on("not_your_turn");

    // On its turn to follow, holding the suit led: another suit, then a card it does not hold.
    mine.pause_when = [](const Bot& b) {
        return b.turn_kind() == "play" && b.trick_cards > 0 && b.turn->at("legal").at("cards").size() < b.hand.size();
    };
    run_until(loop, g.all(), [&] { return mine.ready() && mine.pause_when(mine); }, "seat 0 to follow suit");
    const json legal = mine.turn->at("legal").at("cards");
    std::string off_suit;
    for (const auto& c : mine.hand)
        if (std::find(legal.begin(), legal.end(), json(c)) == legal.end()) off_suit = c;
    REQUIRE(!off_suit.empty());
    r = me.request({{"type", "act"}, {"table", table}, {"action", {{"type", "play"}, {"card", off_suit}}}});
    CHECK(error_with(r, "must_follow_suit"));
    r = me.request({{"type", "act"}, {"table", table}, {"action", {{"type", "play"}, {"card", card_not_held(mine)}}}});
    CHECK(error_with(r, "card_not_in_hand"));
    r = me.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bid"}, {"bid", 3}}}});
    CHECK(error_with(r, "wrong_phase"));
    mine.pause_when = nullptr;
    plays_on("must_follow_suit and card_not_in_hand");

    // A spectator acting; a table that does not exist.
    r = eye.request({{"type", "act"}, {"table", table}, {"action", {{"type", "play"}, {"card", "2C"}}}});
    CHECK(error_with(r, "spectator_cannot_act"));
    r = me.request({{"type", "act"}, {"table", "t999"}, {"action", {{"type", "play"}, {"card", "2C"}}}});
    CHECK(error_with(r, "no_such_table"));
    CHECK(error_with(me.request({{"type", "sit"}, {"table", "t999"}}), "no_such_table"));
    CHECK(error_with(eye.request({{"type", "watch"}, {"table", "nope"}}), "no_such_table"));
    plays_on("spectator_cannot_act and no_such_table");

    // New connections: a request before hello; a hello with a token nobody has.
    {
        TestClient early(loop, server.port(), "bad-early");
        r = early.request({{"type", "list_tables"}});
        CHECK(error_with(r, "hello_first"));
        CHECK(r.at("re") == "list_tables");
        CHECK(error_with(early.request({{"type", "sit"}, {"table", table}}), "hello_first"));
        CHECK(early.request({{"type", "ping"}}).at("type") == "ok");  // a ping needs no hello
        r = early.hello("stranger", std::string(32, 'f'));
        CHECK(error_with(r, "unknown_token"));
        CHECK(early.hello("stranger").at("type") == "ok");  // and it may still say hello
        CHECK(early.request({{"type", "list_tables"}}).at("type") == "ok");
    }
    plays_on("hello_first and unknown_token");

    // A frame over --max-frame-bytes closes that connection with 1009; nobody else notices.
    {
        TestClient big(loop, server.port(), "bad-big");
        big.hello("big");
        big.request_ok({{"type", "watch"}, {"table", table}});
        big.send({{"type", "ping"}, {"id", std::string(60, 'x')}, {"pad", std::string(4000, 'x')}});
        CHECK(big.wait_closed() == 1009);
    }
    plays_on("a frame too big");

    // The server reads a message in 256-byte pieces: one of several pieces, just
    // under the limit, is read whole and answered, and so is a short one after it.
    {
        TestClient long_one(loop, server.port(), "bad-long");
        long_one.hello("long");
        const std::string ping = R"({"type":"ping","id":"long-one"})";
        REQUIRE(long_one.send_text(ping.substr(0, 14) + std::string(2000, ' ') + ping.substr(14)));
        const json pong = long_one.wait_for([](const json& f) { return f.value("id", "") == "long-one"; }, "the long ping's reply");
        CHECK(pong.at("type") == "ok");
        CHECK(long_one.request({{"type", "ping"}}).at("type") == "ok");
        CHECK(!long_one.closed());
    }
    plays_on("a message of several read pieces");

    g.play_to_game_over(loop);
    for (const auto& b : g.bots)
        for (const auto& p : b->problems) FAIL_CHECK(p);
    CHECK(!me.closed());
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: a flooding connection gets rate_limited errors and then close code 4001 while others are unaffected") {
    TestServer server({"--messages-per-second", "5", "--flood-close-after", "20"});
    EventLoop loop;
    TestClient flood(loop, server.port(), "flood-flooder");
    TestClient calm(loop, server.port(), "flood-calm");
    REQUIRE(flood.hello("flood").at("type") == "ok");
    REQUIRE(calm.hello("calm").at("type") == "ok");
    // Far more than the burst (10) and the refusals allowed (20), as fast as it can.
    for (int i = 0; i < 60 && flood.send({{"type", "ping"}, {"id", i}}); ++i) {
    }
    const auto code = flood.wait_closed();
    int pongs = 0, limited = 0, other = 0;
    while (auto f = flood.poll()) {
        if (f->value("type", "") == "ok" && f->value("re", "") == "ping") ++pongs;
        else if (error_with(*f, "rate_limited")) ++limited;
        else ++other;
    }
    CHECK(code == 4001);
    CHECK(pongs >= 1);
    CHECK(pongs <= 12);   // the burst, and what a second of refilling adds
    CHECK(limited >= 10);
    CHECK(limited <= 19);  // the 20th refusal in a row closes instead
    CHECK(other == 0);
    // The other connection talks on.
    CHECK(calm.request({{"type", "ping"}}).at("type") == "ok");
    CHECK(calm.request({{"type", "list_tables"}}).at("type") == "ok");
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}
