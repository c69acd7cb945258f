#include <doctest/doctest.h>

#include <algorithm>
#include <span>

#include "protocol/card_json.hpp"
#include "protocol/event_json.hpp"
#include "protocol/random_games.hpp"
#include "protocol/view_json.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

// A game of `preset` advanced until `seat` is asked for an action of `kind`.
Game game_waiting_for(const char* preset, ActionKind kind, Seat& seat) {
    auto g = Game::create(test::ruleset(preset), 21);
    REQUIRE(g);
    Game game = std::move(*g);
    game.start();
    Rng rng(21, 1);
    for (int i = 0; i < 10000 && !game.over(); ++i) {
        seat = static_cast<Seat>(std::countr_zero(game.waiting_for()));
        const LegalMoves m = game.legal_moves(seat);
        if (m.kind == kind) return game;
        REQUIRE(game.apply(seat, random_action(m, rng)));
    }
    FAIL("never reached the action");
    return game;
}

}  // namespace

TEST_CASE("a seat's view holds its own cards and legal moves, a spectator's holds neither") {
    Seat seat = 0;
    const Game game = game_waiting_for("sparts", ActionKind::play, seat);
    const json mine = seat_view_json(game, seat);
    CHECK(mine.at("viewer") == seat);
    CHECK(mine.at("phase") == "playing");
    CHECK(mine.at("turn") == seat);
    CHECK(mine.at("hand") == to_json(game.state().hands[seat]));
    CHECK(mine.at("legal").at("kind") == "play");
    CHECK(mine.at("legal").at("cards") == to_json(game.legal_moves(seat).cards));
    CHECK(mine.at("hand_sizes").size() == 4);
    CHECK(mine.at("bids").size() == 4);
    for (const json& b : mine.at("bids")) CHECK(b.is_number());

    const Seat other = static_cast<Seat>((seat + 1) % 4);
    const json theirs = seat_view_json(game, other);
    CHECK(theirs.at("hand") == to_json(game.state().hands[other]));
    CHECK(theirs.at("legal").is_null());  // not their turn

    const json spectator = seat_view_json(game, kSpectator);
    CHECK(spectator.at("viewer") == "spectator");
    for (const char* key : {"hand", "cards_passed", "cards_received", "center_cards", "legal"}) {
        INFO(std::string(key));
        CHECK_FALSE(spectator.contains(key));
    }
    // Nothing in the spectator's view names a card still hidden in a hand.
    const std::string text = spectator.dump();
    for (int s = 0; s < 4; ++s)
        for (Card c : game.state().hands[s]) CHECK(text.find('"' + to_string(c) + '"') == std::string::npos);
}

TEST_CASE("legal moves are rendered for each kind of action") {
    Seat seat = 0;
    const Game bidding = game_waiting_for("spades", ActionKind::bid, seat);
    const json bids = seat_view_json(bidding, seat).at("legal");
    CHECK(bids.at("kind") == "bid");
    CHECK(bids.at("bids").front() == "nil");  // a Spades bid of 0 is nil
    CHECK(bids.at("bids").at(1) == 1);
    CHECK(bids.at("bids").back() == 13);

    const Game sparts_bidding = game_waiting_for("sparts", ActionKind::bid, seat);
    CHECK(seat_view_json(sparts_bidding, seat).at("legal").at("bids").front() == 0);  // a plain zero in Sparts

    const Game passing = game_waiting_for("sparts", ActionKind::pass, seat);
    const json pass = seat_view_json(passing, seat).at("legal");
    CHECK(pass.at("kind") == "pass");
    CHECK(pass.at("count") == 3);
    CHECK(pass.at("cards").size() == 13);

    const Game choosing = game_waiting_for("bga-sparts", ActionKind::choose, seat);
    CHECK(seat_view_json(choosing, seat).at("legal") == json::parse(R"({"kind":"choose","choices":["spades","hearts"]})"));

    LegalMoves clock;
    clock.any = true;
    clock.kind = ActionKind::clock_expired;
    CHECK(to_json(clock, false) == json::parse(R"({"kind":"clock_expired"})"));
    CHECK(to_json(LegalMoves{}, false).is_null());
}

TEST_CASE("the trick on the table names who played each card") {
    Seat seat = 0;
    Game game = game_waiting_for("spades", ActionKind::play, seat);
    const Card led = game.legal_moves(seat).cards.first();
    REQUIRE(game.apply(seat, Action::play(led)));
    const json trick = seat_view_json(game, kSpectator).at("trick");
    CHECK(trick.at("leader") == seat);
    CHECK(trick.at("cards") == json::array({{{"seat", seat}, {"card", to_string(led)}}}));
}

// past_tricks: the hand's finished tricks, each as its trick_won event went on the wire (without
// its type), the same for a seat and a spectator; the trick on the table is not among them.
TEST_CASE("the view's past_tricks are the hand's trick_won events as the wire had them") {
    auto created = Game::create(test::ruleset("hearts"), 33);
    REQUIRE(created);
    Game game = std::move(*created);
    json told = json::array();
    auto seen = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            if (std::holds_alternative<HandStarted>(e)) told = json::array();
            if (std::holds_alternative<TrickWon>(e)) {
                json t = to_json(e);
                t.erase("type");
                told.push_back(std::move(t));
            }
        }
    };
    seen(game.start());
    Rng rng(33, 1);
    int compared = 0, longest = 0;
    while (!game.over() && game.state().hand == 1) {
        for (Viewer viewer : {Viewer{0}, kSpectator}) {
            const json view = seat_view_json(game, viewer);
            REQUIRE(view.at("past_tricks") == told);
            ++compared;
        }
        longest = std::max(longest, static_cast<int>(told.size()));
        const Seat seat = static_cast<Seat>(std::countr_zero(game.waiting_for()));
        auto events = game.apply(seat, random_action(game.legal_moves(seat), rng));
        REQUIRE(events);
        seen(*events);
    }
    CHECK(longest == 12);  // before the hand's last card: the 13th trick scores the hand and deals the next
    CHECK(compared > 100);
    // The next hand is dealt: nothing of the last one is left.
    CHECK(seat_view_json(game, kSpectator).at("past_tricks") == json::array());
}
