// End to end: SIGTERM in the middle of a hand, while the clients keep
// playing, loses nothing. Every client gets the closing frame and close code
// 1001, the server exits 0; a new server on the same database file takes the
// players back by their tokens and last seqs, every action that was
// acknowledged before the signal is in the game, and the game is played to
// its end, its archive holding every event any client was shown.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <set>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// The seqs of the acts a client's server acknowledged ({"type":"ok","re":"act","seq":...}).
std::vector<std::uint64_t> acknowledged(const TestClient& c) {
    std::vector<std::uint64_t> seqs;
    for (const auto& f : c.received())
        if (f.value("type", "") == "ok" && f.value("re", "") == "act") seqs.push_back(f.at("seq").get<std::uint64_t>());
    return seqs;
}

}  // namespace

TEST_CASE("e2e: SIGTERM mid-hand while clients play exits 0 with 1001 closes, and a restart on the same file "
          "resumes every client with nothing acknowledged lost and the game finished") {
    const std::string db = fresh_database_path("sigterm");
    const std::vector<std::string> flags = {"--messages-per-second", "100000", "--database", db, "--table-grace", "600"};
    std::map<std::uint64_t, json> told;
    std::string table;
    std::vector<std::string> tokens;
    std::vector<std::uint64_t> last_seqs;
    std::vector<std::set<std::string>> hands;
    std::vector<int> trick_cards;
    std::map<int, std::vector<std::uint64_t>> acks;  // seat -> acknowledged seqs, both servers
    std::uint64_t acked_before_signal = 0;

    // Server 1: four players and a spectator, SIGTERM in hand 2 with the players still sending.
    {
        TestServer server(flags);
        EventLoop loop;
        TableGame g = set_up_table(loop, server.port(), "sigterm-1", create_table("spades", {{"hand_cap", 3}}), 4, 1, 31);
        table = g.table;
        g.clients[0]->request_ok({{"type", "start"}, {"table", table}});
        run_until(
            loop, g.all(), [&] { return g.seat(0).hands_started >= 2 && g.seat(0).trick_cards == 2; },
            "hand 2, two cards into a trick");
        for (int s = 0; s < 4; ++s) acked_before_signal += acknowledged(*g.clients[static_cast<std::size_t>(s)]).size();
        REQUIRE(::kill(server.pid(), SIGTERM) == 0);
        // The bots go on answering their turns until their connections close.
        run_until(
            loop, g.all(),
            [&] { return std::all_of(g.clients.begin(), g.clients.end(), [](const auto& c) { return c->closed(); }); },
            "every connection closed");
        for (auto& b : g.bots) b->step();
        const auto status = server.wait_exit(kWait);
        REQUIRE(status.has_value());
        CHECK(*status == 0);
        CHECK(server.output().find("still open") == std::string::npos);
        for (auto& c : g.clients) {
            CAPTURE(c->label());
            CHECK(c->wait_closed(Millis(0)) == 1001);
            // The closing frame, and nothing after it.
            const auto& frames = c->received();
            REQUIRE(!frames.empty());
            CHECK(frames.back().value("type", "") == "closing");
            CHECK(frames.back().value("reason", "") == "shutdown");
        }
        for (auto& b : g.bots)
            for (const auto& p : b->problems) FAIL_CHECK(p);
        collect(g.all(), told);
        for (std::size_t i = 0; i < g.bots.size(); ++i) {
            tokens.push_back(g.clients[i]->token());
            last_seqs.push_back(g.bots[i]->last_seq.value_or(0));
            hands.push_back(g.bots[i]->hand);
            trick_cards.push_back(g.bots[i]->trick_cards);
            if (i < 4) acks[static_cast<int>(i)] = acknowledged(*g.clients[i]);
        }
        REQUIRE(acked_before_signal > 50);  // a hand and a half of plays and bids
    }

    // Server 2: same file; everyone comes back with token and last seq and the game is played out.
    TestServer server(flags);
    EventLoop loop;
    std::vector<std::unique_ptr<TestClient>> clients;
    std::vector<std::unique_ptr<Bot>> bots;
    for (std::size_t i = 0; i < 5; ++i) {
        clients.push_back(std::make_unique<TestClient>(loop, server.port(), "sigterm-2-" + std::to_string(i)));
        const json hello = clients.back()->hello("back", tokens[i]);
        REQUIRE(hello.value("type", "") == "ok");
        const json reply = clients.back()->request_ok({{"type", "resume"}, {"table", table}, {"seq", last_seqs[i]}});
        CHECK(reply.at("seat") == (i < 4 ? json(i) : json(nullptr)));
        bots.push_back(std::make_unique<Bot>(*clients.back(), table, i < 4 ? static_cast<int>(i) : -1, 500 + i));
        bots.back()->last_seq = last_seqs[i];
        bots.back()->hand = hands[i];
        bots.back()->trick_cards = trick_cards[i];
    }
    std::vector<Bot*> all;
    for (auto& b : bots) all.push_back(b.get());
    run_until(loop, all, [&] { return std::all_of(all.begin(), all.end(), [](Bot* b) { return b->games_over > 0; }); },
              "game over after the restart");
    // The reply to the move that ended the game comes after the game_over event: wait for it.
    run_until(loop, all, [&] { return std::none_of(all.begin(), all.end(), [](Bot* b) { return b->awaiting(); }); },
              "the replies to the last moves");
    // Resumed with no gap and no repeat (the bots check each seq follows the last), to one end.
    for (Bot* b : all)
        for (const auto& p : b->problems) FAIL_CHECK(p);
    const json over = bots[0]->game_over->at("event");
    for (Bot* b : all) CHECK(b->game_over->at("event") == over);
    CHECK(over.at("hands_played") == 3);
    collect(all, told);
    for (std::size_t i = 0; i < 4; ++i) {
        const auto more = acknowledged(*clients[i]);
        acks[static_cast<int>(i)].insert(acks[static_cast<int>(i)].end(), more.begin(), more.end());
    }

    // The archive: every event any client was shown, as shown; every acknowledged action.
    const HttpReply r = http_get(server.port(), "/api/games/" + table + "/1");
    REQUIRE(r.status == 200);
    const json archived = json::parse(r.body);
    std::map<std::uint64_t, json> stored;
    for (const auto& e : archived.at("events")) stored[e.at("seq").get<std::uint64_t>()] = e.at("event");
    std::size_t compared = 0;
    for (const auto& [seq, event] : told) {
        const std::string type = event.value("type", "");
        if (type == "game_started" || type == "seat_taken") continue;
        const auto event_seq = seq;  // clang 15 cannot capture a structured binding
        CAPTURE(event_seq);
        REQUIRE(stored.contains(seq));
        CHECK(stored[seq] == event);
        ++compared;
    }
    CHECK(compared > 3 * 52);
    // Each acknowledged action: its seq is stored, and is the last event of a move by that seat.
    const HttpReply rec = http_get(server.port(), "/api/games/" + table + "/1/record");
    REQUIRE(rec.status == 200);
    const json record = json::parse(rec.body);
    for (const auto& [seat, seqs] : acks) {
        const auto acked_seat = seat;  // clang 15 cannot capture a structured binding
        CAPTURE(acked_seat);
        std::size_t moves = 0;
        for (const auto& a : record.at("actions"))
            if (a.at("seat") == seat) ++moves;
        // Every acknowledged action is in the record; at most one more (sent as the signal came,
        // applied and kept, its acknowledgment lost with the connection).
        std::vector<std::uint64_t> move_seqs;
        for (const auto& [seq, e] : stored)
            if ((e.value("type", "") == "card_played" || e.value("type", "") == "bid_made") && e.value("seat", -1) == seat)
                move_seqs.push_back(seq);
        CAPTURE(json(move_seqs).dump());
        const std::string acked_seqs = json(seqs).dump();
        CAPTURE(acked_seqs);
        CAPTURE(json(last_seqs).dump());
        CHECK(seqs.size() <= moves);
        CHECK(moves <= seqs.size() + 1);
        for (const auto seq : seqs) {
            CAPTURE(seq);
            REQUIRE(stored.contains(seq));
            // The move itself is at or before the acknowledged seq, and made by this seat.
            bool found = false;
            for (auto it = stored.upper_bound(seq); it != stored.begin() && !found;) {
                --it;
                const std::string type = it->second.value("type", "");
                if (type == "card_played" || type == "bid_made") {
                    found = it->second.value("seat", -1) == seat;
                    break;
                }
            }
            CHECK(found);
        }
    }
    CHECK(stop_server(server, loop) == 0);
}
