// End to end: the server killed with SIGKILL in the middle of hands, twice,
// and started again on the same database. Nothing a client was told is lost,
// the players come back with their tokens and their last seq, the game goes
// on to its end, and the archived game is exactly the game the clients saw:
// replayed through the engine from its seed and actions (an uninterrupted
// run), it ends with the scores the clients were shown.
#include <doctest/doctest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <set>
#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"
#include "support/postgres.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;
namespace http = boost::beast::http;

namespace {

// GET on the server's HTTP side: status and body.
std::pair<int, std::string> http_get(std::uint16_t port, const std::string& target) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::resolver resolver(io);
    boost::beast::tcp_stream stream(io);
    stream.connect(resolver.resolve("127.0.0.1", std::to_string(port)));
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    return {static_cast<int>(res.result_int()), res.body()};
}

std::vector<std::string> flags(const std::string& db) {
    return {"--messages-per-second", "100000", "--database", db, "--table-grace", "600"};
}

// Every event frame any client received, by seq: what the clients were told.
void collect(const TableGame& g, std::map<std::uint64_t, json>& told) {
    for (const auto& b : g.bots)
        for (const auto& f : b->events) {
            const auto seq = f.at("seq").get<std::uint64_t>();
            // A seat's own copy of a secret event shows more than a spectator's: keep the fullest.
            auto& kept = told[seq];
            if (kept.is_null() || f.dump().size() > kept.dump().size()) kept = f.at("event");
        }
}

}  // namespace

// `db`: the --database of the three servers in turn; `label` starts the clients' labels (their frame
// logs' names), one of its own per test: the tests run at once, in processes of their own.
static void crash_and_resume(const std::string& db, const std::string& label) {
    std::map<std::uint64_t, json> told;  // every event any client was shown, across the three servers
    std::string table;
    std::vector<std::string> tokens;
    std::vector<std::uint64_t> last_seqs(5, 0);
    // What each seat knew of its hand and the trick when its server died: a
    // client that resumes with nothing missed gets no snapshot, and goes on
    // from what it knew, as a real client does.
    std::vector<std::set<std::string>> hands(5);
    std::vector<int> trick_cards(5, 0);
    json final_over;

    // Server 1: a table of four and a spectator plays until hand 2 is under way, then is killed.
    {
        TestServer server(flags(db));
        EventLoop loop;
        // Six hands: the kills fall in hands 2 and 4, and the game ends two hands after.
        TableGame g = set_up_table(loop, server.port(), label + "-1", create_table("spades", {{"hand_cap", 6}}), 4, 1, 7);
        table = g.table;
        for (int s = 0; s < 4; ++s) tokens.push_back(g.clients[static_cast<std::size_t>(s)]->token());
        tokens.push_back(g.clients[4]->token());
        g.clients[0]->request_ok({{"type", "start"}, {"table", table}});
        run_until(
            loop, g.all(), [&] { return g.seat(0).hands_started >= 2 && g.seat(0).trick_cards == 2; },
            "hand 2, two cards into a trick");
        REQUIRE(server.stop(SIGKILL, Millis(10'000)).has_value());
        for (auto& b : g.bots) b->step();  // whatever reached the clients before the kill
        collect(g, told);
        for (std::size_t i = 0; i < g.bots.size(); ++i) {
            last_seqs[i] = g.bots[i]->last_seq.value_or(0);
            hands[i] = g.bots[i]->hand;
            trick_cards[i] = g.bots[i]->trick_cards;
        }
        for (const auto& b : g.bots)
            for (const auto& p : b->problems) FAIL_CHECK(p);
    }

    // Servers 2 and 3: everyone comes back with token and last seq; the second is killed in hand 4.
    for (int run = 2; run <= 3; ++run) {
        CAPTURE(run);
        TestServer server(flags(db));
        EventLoop loop;
        std::vector<std::unique_ptr<TestClient>> clients;
        std::vector<std::unique_ptr<Bot>> bots;
        for (int i = 0; i < 5; ++i) {
            clients.push_back(std::make_unique<TestClient>(loop, server.port(), label + "-" + std::to_string(run) + "-" + std::to_string(i)));
            const json hello = clients.back()->hello("back", tokens[static_cast<std::size_t>(i)]);
            REQUIRE(hello.value("type", "") == "ok");
            const json reply = clients.back()->request_ok(
                {{"type", "resume"}, {"table", table}, {"seq", last_seqs[static_cast<std::size_t>(i)]}});
            CHECK(reply.at("seat") == (i < 4 ? json(i) : json(nullptr)));
            bots.push_back(std::make_unique<Bot>(*clients.back(), table, i < 4 ? i : -1, 100 + static_cast<std::uint64_t>(run * 10 + i)));
            bots.back()->last_seq = last_seqs[static_cast<std::size_t>(i)];
            bots.back()->hand = hands[static_cast<std::size_t>(i)];
            bots.back()->trick_cards = trick_cards[static_cast<std::size_t>(i)];
        }
        std::vector<Bot*> all;
        for (auto& b : bots) all.push_back(b.get());
        TableGame view;  // for collect()
        if (run == 2) {
            run_until(loop, all, [&] { return bots[0]->hands_started >= 2 && bots[0]->trick_cards == 3; },
                      "two more hands, three cards into a trick");
            REQUIRE(server.stop(SIGKILL, Millis(10'000)).has_value());
            for (auto& b : bots) b->step();
        } else {
            run_until(loop, all, [&] { return std::all_of(all.begin(), all.end(), [](Bot* b) { return b->games_over > 0; }); },
                      "game over", Millis(300'000));
            final_over = bots[0]->game_over->at("event");
            for (Bot* b : all) CHECK(b->game_over->at("event") == final_over);
        }
        for (Bot* b : all)
            for (const auto& p : b->problems) FAIL_CHECK(p);
        view.bots = std::move(bots);
        collect(view, told);
        for (std::size_t i = 0; i < view.bots.size(); ++i) {
            last_seqs[i] = view.bots[i]->last_seq.value_or(0);
            hands[i] = view.bots[i]->hand;
            trick_cards[i] = view.bots[i]->trick_cards;
        }

        if (run == 3) {
            // The archive has every event any client was ever shown, as shown (a secret event in full).
            const auto [status, body] = http_get(server.port(), "/api/games/" + table + "/1");
            REQUIRE(status == 200);
            const json archived = json::parse(body);
            std::map<std::uint64_t, json> stored;
            for (const auto& e : archived.at("events")) stored[e.at("seq").get<std::uint64_t>()] = e.at("event");
            std::size_t compared = 0;
            for (const auto& [seq, event] : told) {
                if (event.value("type", "") == "game_started" || event.value("type", "") == "seat_taken") continue;
                const auto event_seq = seq;  // clang 15 cannot capture a structured binding
                CAPTURE(event_seq);
                REQUIRE(stored.contains(seq));
                CHECK(stored[seq] == event);
                ++compared;
            }
            CHECK(compared > 300);

            // The record: the engine replays seed and actions, uninterrupted, to the same end.
            const auto [rs, record_text] = http_get(server.port(), "/api/games/" + table + "/1/record");
            REQUIRE(rs == 200);
            const auto record = sparts::parse_game_record(record_text);
            REQUIRE_MESSAGE(record, (record ? "" : record.error().message()));
            const auto replayed = sparts::replay(*record);
            REQUIRE_MESSAGE(replayed, (replayed ? "" : replayed.error().message));
            REQUIRE(replayed->game_over);
            const auto& over = *replayed->game_over;
            for (std::size_t side = 0; side < final_over.at("scores").size(); ++side)
                CHECK(over.scores[side] == final_over.at("scores")[side].get<int>());
            CHECK(static_cast<int>(over.hands_played) == final_over.at("hands_played").get<int>());
        }
    }
}

TEST_CASE("e2e: SIGKILL mid-hand loses nothing acknowledged and the game resumes and ends as the engine replays it") {
    crash_and_resume(fresh_database_path("crash"), "crash");
}

TEST_CASE("e2e on PostgreSQL: SIGKILL mid-hand loses nothing acknowledged and the game resumes and ends as the engine "
          "replays it") {
    const sparts::test::TempPgDatabase db("crash");
    crash_and_resume(db.url(), "pgcrash");
}
