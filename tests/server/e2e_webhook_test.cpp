// End to end: the game-over webhook of a real server. A receiver started by
// the test gets each finished game's summary, signed with the host's secret,
// once the game's end is committed; a refused delivery is tried again with the
// same delivery id; and a receiver that never answers holds up no table.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"
#include "webhook_receiver.hpp"

using namespace sparts::e2e;

namespace {

const std::string kWebhookSecret = "the host's webhook secret";

std::string webhook_secret_file() {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" / ("webhook-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto file = dir / "webhook-secret";
    std::ofstream(file) << kWebhookSecret << "\n";
    return file.string();
}

// Two players and two server bots play a one-hand game of Spades; the players' bots, to its end.
TableGame play_one_game(EventLoop& loop, std::uint16_t port, const std::string& label) {
    TableGame g = set_up_table(loop, port, label, create_table("spades", {{"hand_cap", 1}}), 2, 0, 5);
    g.clients[0]->request_ok({{"type", "add_bot"}, {"table", g.table}});
    g.clients[0]->request_ok({{"type", "add_bot"}, {"table", g.table}});
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return g.seat(0).deals_revealed > 0 && g.seat(1).deals_revealed > 0; },
              "the game over at " + g.table);
    for (Bot* b : g.all())
        for (const auto& p : b->problems) FAIL_CHECK(p);
    return g;
}

json event_of_type(const Bot& b, const std::string& type) {
    for (const auto& f : b.events)
        if (f.at("event").value("type", "") == type) return f.at("event");
    return nullptr;
}

}  // namespace

TEST_CASE("e2e: webhook: a finished game is posted to the host signed, tried again after a refusal, with its id") {
    sparts::test::Receiver receiver({sparts::test::Reply(503)});
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0", "--webhook-url", receiver.url(),
                       "--webhook-secret-file", webhook_secret_file()});
    EventLoop loop;
    TableGame g = play_one_game(loop, server.port(), "webhook");
    REQUIRE(receiver.wait_for(2));  // the 503, then the delivery again a second later
    const auto got = receiver.received();
    REQUIRE(got.size() == 2);
    CHECK(got[0].delivery == got[1].delivery);
    CHECK(got[0].body == got[1].body);
    for (const auto& r : got) {
        CHECK(r.method == "POST");
        CHECK(r.target == "/hook");
        CHECK(r.content_type == "application/json");
        CHECK(r.signature == sparts::test::expected_signature(kWebhookSecret, r.timestamp, r.body));
    }
    const json summary = json::parse(got[1].body);
    CHECK(summary.at("type") == "game_finished");
    CHECK(summary.at("table") == g.table);
    CHECK(summary.at("game") == 1);
    CHECK(summary.at("preset") == "spades");
    CHECK(summary.at("archive") == "/api/games/" + g.table + "/1");
    // What the players were shown: the end and the deal's reveal.
    CHECK(summary.at("result").at("game_over") == g.seat(0).game_over->at("event"));
    json revealed = event_of_type(g.seat(0), "deal_revealed");
    revealed.erase("type");
    revealed.erase("game");
    CHECK(summary.at("deal") == revealed);
    const json& seats = summary.at("seats");
    REQUIRE(seats.size() == 4);
    CHECK(seats[0].at("player") == g.clients[0]->player());
    CHECK(seats[1].at("player") == g.clients[1]->player());
    CHECK(seats[2].at("bot") == true);
    CHECK(seats[2].at("player").is_null());
    // And the archive has the game the host was told of.
    CHECK(http_get(server.port(), "/api/games/" + g.table + "/1").status == 200);
    CHECK(metric(server.port(), "sparts_webhook_delivered_total") == 1);
    CHECK(metric(server.port(), "sparts_webhook_retries_total") == 1);
    CHECK(metric(server.port(), "sparts_webhook_queued") == 0);
    // The secret never reaches the log.
    REQUIRE(stop_server(server, loop).value_or(-1) == 0);
    CHECK(server.output().find(kWebhookSecret) == std::string::npos);
}

TEST_CASE("e2e: webhook: a receiver that never answers holds up no table") {
    sparts::test::Receiver receiver({}, sparts::test::Reply::silent());
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0", "--webhook-url", receiver.url(),
                       "--webhook-secret-file", webhook_secret_file(), "--webhook-concurrency", "1"});
    EventLoop loop;
    // One game ends and its delivery hangs; two more tables play whole games meanwhile.
    play_one_game(loop, server.port(), "webhook-hang-1");
    REQUIRE(receiver.wait_for(1));
    play_one_game(loop, server.port(), "webhook-hang-2");
    play_one_game(loop, server.port(), "webhook-hang-3");
    CHECK(metric(server.port(), "sparts_webhook_delivered_total") == 0);
    CHECK(metric(server.port(), "sparts_webhook_queued") == 3);
    // With --webhook-concurrency 1, one at a time, in order: every request the receiver got is the first game's
    // (tried again after the attempt's timeout on a slow machine).
    const auto got = receiver.received();
    for (const auto& r : got) CHECK(r.delivery == got[0].delivery);
}

TEST_CASE("e2e: webhook: with the receiver down, no finished game is dropped: they wait in the database, survive a "
          "restart, and each is delivered once the receiver is back") {
    // Before the fix, a queue of 1,000 in memory dropped the oldest summaries for good (144 of 1,145 games of one
    // address in 240 s) and a restart lost the whole queue. Here the queue holds 2 and the receiver is down.
    const std::string db = fresh_database_path("webhook-outbox");
    std::set<std::string> tables;
    {
        sparts::test::Receiver down({}, sparts::test::Reply(503));
        TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0", "--webhook-url", down.url(),
                           "--webhook-secret-file", webhook_secret_file(), "--webhook-queue", "2", "--database", db});
        EventLoop loop;
        for (int i = 0; i < 5; ++i) tables.insert(play_one_game(loop, server.port(), "webhook-down-" + std::to_string(i)).table);
        REQUIRE(down.wait_for(2));
        CHECK(metric(server.port(), "sparts_webhook_delivered_total") == 0);
        CHECK(metric(server.port(), "sparts_webhook_dropped_total") == 0);
        CHECK(metric(server.port(), "sparts_webhook_queued") == 2);
        REQUIRE(stop_server(server, loop).value_or(-1) == 0);
    }
    // A new server on the same database, and a receiver that takes everything: the five games arrive, each once.
    sparts::test::Receiver up({});
    TestServer server({"--messages-per-second", "100000", "--webhook-url", up.url(), "--webhook-secret-file",
                       webhook_secret_file(), "--webhook-queue", "2", "--database", db});
    REQUIRE(up.wait_for(5));
    std::set<std::string> delivered_tables, ids;
    for (const auto& r : up.received()) {
        CHECK(r.signature == sparts::test::expected_signature(kWebhookSecret, r.timestamp, r.body));
        delivered_tables.insert(json::parse(r.body).at("table").get<std::string>());
        ids.insert(r.delivery);
    }
    CHECK(delivered_tables == tables);
    CHECK(ids.size() == 5);
    // Nothing is left to deliver: the outbox is empty, so a third start sends nothing again.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(up.received().size() == 5);
    CHECK(metric(server.port(), "sparts_webhook_delivered_total") == 5);
    CHECK(metric(server.port(), "sparts_webhook_queued") == 0);
}
