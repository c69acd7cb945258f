// End to end: no client ever receives a card it may not know.
//
// Twenty games across the presets and the options that hide things (secret
// bids, passing one way and both ways, centers with jokers and two decks,
// three to six seats; the presets played to a score stop after four hands, a
// round of every pass and lead), each with every seat played by a client and one
// spectator. Every frame each of them received is checked afterwards (see
// frame_checks.hpp): the truth is what each seat was dealt, checked against
// what was played.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include "frame_checks.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

struct Variant {
    std::string preset;
    json options;
    int seats;
    bool secret_bids = false;
};

}  // namespace

TEST_CASE("e2e: in twenty-nine games no card reaches a client before it is played, nor a secret bid") {
    TestServer server({"--messages-per-second", "100000", "--connections-per-address", "1000"});
    const std::vector<Variant> variants = {
        {"sparts", json::object(), 4},
        {"sparts", {{"secret_bids", true}}, 4, true},
        {"sparts", {{"multi_pass", "back"}}, 4},
        {"sparts", {{"multi_pass", "both-ways"}}, 4},
        {"sparts", {{"seats", 5}}, 5},
        {"sparts", {{"seats", 6}, {"partners", "regular"}, {"secret_bids", true}}, 6, true},
        {"sparts", {{"reverse_partners", true}, {"mooning", true}}, 4},
        {"sparts", {{"center_cards", "first-trick"}, {"seats", 5}}, 5},
        {"spartsel", json::object(), 4},
        {"spartsel", {{"secret_bids", true}}, 4, true},
        {"spartsel", {{"jokers", 2}}, 4},
        {"spartsel", {{"decks", 2}}, 4},
        {"spartsel", {{"seats", 3}}, 3},
        {"spartsel", {{"seats", 3}, {"jokers", 4}, {"decks", 2}, {"hand_size", 30}}, 3},
        {"spartsel", {{"seats", 3}, {"jokers", 1}, {"secret_bids", true}, {"multi_pass", "back"}}, 3, true},
        {"spartsel", {{"seats", 6}, {"decks", 2}, {"jokers", 3}}, 6},
        {"spartsel", {{"seats", 5}, {"partners", "progressive"}, {"progressive_rotated", true}}, 5},
        {"bga-sparts", {{"hand_cap", 4}}, 4},
        {"bga-sparts", {{"hearts_mode", "traditional"}, {"hand_cap", 4}}, 4},
        {"spades", {{"hand_cap", 4}}, 4},
        {"worldwinner-spades", {{"hand_cap", 4}}, 4},
        {"spades", {{"joker_deck", "jjdd"}, {"big_joker_forces_highest", true}, {"hand_cap", 4}}, 4},
        {"worldwinner-spades", {{"joker_deck", "big-little"}, {"hand_cap", 4}}, 4},
        {"spades", {{"bid_style", "suicide"}, {"nil_pass", 2}, {"hand_cap", 3}}, 4},
        {"spades", {{"min_side_bid", 4}, {"ten_for_two_hundred", true}, {"failed_nil_tricks", "bags"}, {"spades_led_any_time", true}, {"bid_style", "standard"}, {"hand_cap", 3}}, 4},
        {"spades", {{"blind_nil", 0}, {"nil_pass", 2}, {"hand_cap", 3}}, 4},
        {"hearts", {{"hand_cap", 4}}, 4},
        {"hearts", {{"seats", 5}, {"jack_of_diamonds", true}, {"pass_rotation", "left-right"}, {"hand_cap", 2}}, 5},
        {"hearts", {{"seats", 6}, {"partnership", "across"}, {"moon_scoring", "best"}, {"hand_cap", 2}}, 6},
    };
    EventLoop loop;
    std::vector<TableGame> games;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const Variant& v = variants[i];
        games.push_back(set_up_table(loop, server.port(), "leak-" + std::to_string(i),
                                     create_table(v.preset, v.options), v.seats, 1, 7000 + i));
    }
    std::vector<Bot*> everyone;
    for (auto& g : games) {
        g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
        for (Bot* b : g.all()) everyone.push_back(b);
    }
    run_until(
        loop, everyone, [&] { return std::all_of(everyone.begin(), everyone.end(), [](Bot* b) { return b->games_over > 0; }); },
        "game over at every table", Millis(400'000));

    std::size_t hidden = 0, checked = 0;
    for (std::size_t i = 0; i < games.size(); ++i) {
        const TableGame& g = games[i];
        const Variant& v = variants[i];
        CAPTURE(v.preset);
        CAPTURE(v.options.dump());
        for (const auto& b : g.bots)
            for (const auto& p : b->problems) FAIL_CHECK(p);
        std::vector<ClientLog> logs;
        for (std::size_t c = 0; c < g.clients.size(); ++c)
            logs.push_back({g.clients[c]->label(), g.bots[c]->seat, &g.clients[c]->received()});
        const LeakReport r = check_no_leaks(logs, g.table);
        for (const auto& p : r.problems) FAIL_CHECK(p);
        // The check saw something: hidden cards of others, and every play checked against its hand.
        CHECK(r.hidden > 0);
        CHECK(r.cards_checked > 0);
        CHECK(r.plays_checked > 0);
        if (v.secret_bids) CHECK(r.secret_bids > 0);
        hidden += r.hidden;
        checked += r.cards_checked;
    }
    MESSAGE("cards checked: " << checked << ", events seen with another seat's cards hidden: " << hidden);

    // The check is seen to fail: leaks planted in copies of one game's frames
    // (sparts with secret bids) are each found.
    const TableGame& g = games[1];
    std::vector<std::vector<json>> frames;
    for (const auto& c : g.clients) frames.push_back(c->received());
    auto problems_with = [&](const std::function<void(std::vector<std::vector<json>>&)>& plant) {
        auto copies = frames;
        plant(copies);
        std::vector<ClientLog> logs;
        for (std::size_t c = 0; c < copies.size(); ++c) logs.push_back({g.clients[c]->label(), g.bots[c]->seat, &copies[c]});
        return check_no_leaks(logs, g.table).problems.size();
    };
    auto index_of = [](const std::vector<json>& log, const std::function<bool(const json&)>& pred) {
        const auto it = std::find_if(log.begin(), log.end(), pred);
        REQUIRE(it != log.end());
        return static_cast<std::size_t>(it - log.begin());
    };
    auto deal_of = [](int seat) {
        return [seat](const json& f) { return is_event(f, "cards_dealt") && f.at("event").at("seat") == seat; };
    };
    CHECK(problems_with([](auto&) {}) == 0);
    // Seat 2's deal, as seat 2 saw it, sent to seat 1 as well.
    CHECK(problems_with([&](auto& c) {
              const json deal = c[2][index_of(c[2], deal_of(2))];
              c[1].insert(c[1].begin() + static_cast<std::ptrdiff_t>(index_of(c[1], deal_of(2)) + 1), deal);
          }) > 0);
    // Or to the spectator.
    CHECK(problems_with([&](auto& c) {
              const json deal = c[2][index_of(c[2], deal_of(2))];
              c[4].insert(c[4].begin() + static_cast<std::ptrdiff_t>(index_of(c[4], deal_of(2)) + 1), deal);
          }) > 0);
    // One card of seat 2's hidden in a frame of another kind sent to seat 1.
    CHECK(problems_with([&](auto& c) {
              const json deal = c[2][index_of(c[2], deal_of(2))];
              json turn = {{"type", "your_turn"}, {"table", g.table}, {"seat", 1}, {"seq", deal.at("seq")},
                           {"legal", {{"kind", "play"}, {"cards", json::array({deal.at("event").at("cards")[0]})}}}};
              c[1].insert(c[1].begin() + static_cast<std::ptrdiff_t>(index_of(c[1], deal_of(2)) + 1), turn);
          }) > 0);
    // Seat 1 told it holds seat 2's cards: the hands no longer add up.
    CHECK(problems_with([&](auto& c) {
              const json cards = c[2][index_of(c[2], deal_of(2))].at("event").at("cards");
              c[1][index_of(c[1], deal_of(1))]["event"]["cards"] = cards;
          }) > 0);
    // Another seat's secret bid shown.
    CHECK(problems_with([&](auto& c) {
              const std::size_t i = index_of(c[0], [](const json& f) {
                  return is_event(f, "bid_made") && f.at("event").value("secret", false) && f.at("event").at("seat") != 0;
              });
              c[0][i]["event"]["bid"] = 2;
          }) > 0);
    // The server stops cleanly after all that (under a sanitizer: no report, no leak).
    const auto status = stop_server(server, loop);
    CHECK_MESSAGE(status == 0, server.output());
}
