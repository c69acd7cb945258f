// Blind nil (docs/RULES.md blind_nil): a side far enough behind gets its cards face
// down at the deal; at its turn to bid each such player bids blind nil, worth twice
// a nil, or shows its cards and bids as usual. The cards are dealt (a cards_dealt
// event) only when the seat decides.
#include <doctest/doctest.h>

#include "engine/option.hpp"
#include "engine/random_policy.hpp"
#include "engine/spades_scoring.hpp"
#include "engine/view.hpp"
#include "seed_support.hpp"
#include "support/harness_policy.hpp"

using namespace seedtest;

namespace {

bool dealt_to(const Log& log, Seat seat) {
    for (const CardsDealt& d : log.all<CardsDealt>())
        if (d.seat == seat) return true;
    return false;
}

}  // namespace

// "Blind Nil: Bidding nil before looking at your cards. Worth double the points"
TEST_CASE("blind nil: face down at the deal, then blind nil or the cards shown, at the seat's turn") {
    const Ruleset r = ruleset("spades", {{"blind_nil", "0"}});  // 0: any side not ahead, so at 0-0 everyone
    Table t = open_table(r, 3);
    CHECK(t.log.count<CardsDealt>() == 0);
    REQUIRE(t.state().phase == Phase::bidding);
    CHECK(t.state().face_down == 0b1111);
    const Seat first = t.turn();
    CHECK(first == 0);
    const LegalMoves m = t.game.legal_moves(first);
    CHECK(m.kind == ActionKind::bid);
    CHECK(m.blind_nil);
    CHECK(m.show_cards);
    CHECK(m.bids == 0);
    CHECK(m.count() == 2);
    CHECK(view_of(t.game, first).hand.empty());  // not even its own cards
    CHECK(t.refused(first, Action::make_bid(3)) == "cards_face_down");
    CHECK(t.refused(first, Action::make_bid(0)) == "cards_face_down");
    CHECK(t.refused(1, Action::show_cards()) == "not_your_turn");

    // Seat 0 looks: its cards are dealt to it now, and it bids as usual.
    t.ok(first, Action::show_cards());
    CHECK(dealt_to(t.log, first));
    CHECK(t.log.last<CardsDealt>().cards == t.state().hands[first]);
    CHECK(view_of(t.game, first).hand == t.state().hands[first]);
    CHECK(t.turn() == first);
    CHECK_FALSE(t.game.legal_moves(first).blind_nil);
    CHECK(t.refused(first, Action::blind_nil()) == "blind_nil_not_allowed");
    CHECK(t.refused(first, Action::show_cards()) == "wrong_phase");
    t.ok(first, Action::make_bid(3));

    // Seat 1 bids blind nil: the bid, then its cards.
    const std::size_t before = t.log.events.size();
    t.ok(1, Action::blind_nil());
    REQUIRE(t.log.events.size() == before + 2);
    const auto* bid = std::get_if<BidMade>(&t.log.events[before]);
    REQUIRE(bid);
    CHECK(bid->blind);
    CHECK(bid->nil);
    CHECK(bid->bid == 0);
    CHECK(std::holds_alternative<CardsDealt>(t.log.events[before + 1]));
    CHECK(t.state().blind == 0b0010);
    CHECK(view_of(t.game, 2).blind_nils == 0b0010);
    t.ok(2, Action::show_cards());
    t.ok(2, Action::make_bid(4));
    t.ok(3, Action::show_cards());
    t.ok(3, Action::make_bid(4));
    CHECK(t.state().phase == Phase::playing);
    CHECK(t.state().face_down == 0);
}

TEST_CASE("blind nil: twice a nil, made or failed, on its own line") {
    const SpadesScoring scoring{10, 100, true, false, false, 0};
    const std::vector<SpadesBidder> made = {{0, true, 0, true}, {4, false, 5}};
    const auto r = score_spades_side(made, scoring);
    CHECK(get(r.sheet, ScoreComponent::blind_nil) == 200);
    CHECK(get(r.sheet, ScoreComponent::nil) == 0);
    CHECK(get(r.sheet, ScoreComponent::contract) == 40);
    const std::vector<SpadesBidder> failed = {{0, true, 2, true}, {4, false, 3}};
    const auto f = score_spades_side(failed, scoring);
    CHECK(get(f.sheet, ScoreComponent::blind_nil) == -200);
    CHECK(get(f.sheet, ScoreComponent::contract) == 40);  // the nil's tricks help the partner (spades)
}

// Only a side at least `blind_nil` behind the best other side is dealt face down;
// everyone else sees the cards at once, as without the option.
TEST_CASE("blind nil: who may bid it, hand after hand, in random games") {
    const Ruleset r = ruleset("spades", {{"blind_nil", "100"}});
    int face_down_hands = 0, blind_bids = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        Game g = std::move(*Game::create(r, seed));
        Log log;
        log.add(g.start());
        Rng rng(seed, 5);
        std::array<std::int32_t, kMaxSeats> scores{};
        auto check_deal = [&](std::span<const Event> events) {
            for (std::size_t i = 0; i < events.size(); ++i) {
                const Event& e = events[i];
                if (const auto* hs = std::get_if<HandScored>(&e))
                    for (std::size_t side = 0; side < hs->sides.size(); ++side) scores[side] = hs->sides[side].score;
                if (const auto* b = std::get_if<BidMade>(&e)) blind_bids += b->blind;
                if (!std::holds_alternative<HandStarted>(e)) continue;
                std::uint16_t dealt = 0;
                for (std::size_t j = i + 1; j < events.size() && std::holds_alternative<CardsDealt>(events[j]); ++j)
                    dealt = static_cast<std::uint16_t>(dealt | (1u << std::get<CardsDealt>(events[j]).seat));
                for (int s = 0; s < 4; ++s) {
                    const int side = s % 2;
                    const bool behind = scores[1 - side] - scores[side] >= 100;
                    CAPTURE(seed);
                    CHECK(((dealt >> s) & 1) == !behind);
                    face_down_hands += behind;
                }
            }
        };
        check_deal(log.events);
        while (!g.over()) {
            const Seat s = sparts::testing::next_actor(g);
            auto e = g.apply(s, random_action(g.legal_moves(s), rng));
            REQUIRE(e);
            check_deal(*e);
        }
    }
    CHECK(face_down_hands > 0);
    CHECK(blind_bids > 0);
}

TEST_CASE("blind nil: the option's refusals") {
    auto code = [](const char* preset, std::vector<OptionSetting> o) {
        auto r = make_ruleset(preset, o);
        return r ? std::string("accepted") : std::string(to_string(r.error().code));
    };
    CHECK(code("spades", {{"blind_nil", "off"}}) == "accepted");
    CHECK(code("worldwinner-spades", {{"blind_nil", "100"}}) == "accepted");
    CHECK(code("spades", {{"blind_nil", "-5"}}) == "invalid_option_value");
    CHECK(code("spades", {{"blind_nil", "1001"}}) == "invalid_option_value");
    CHECK(code("spades", {{"blind_nil", "maybe"}}) == "invalid_option_value");
    CHECK(code("sparts", {{"blind_nil", "100"}}) == "option_not_for_ruleset");
    CHECK(code("hearts", {{"blind_nil", "100"}}) == "option_not_for_ruleset");
    CHECK(code("spades", {{"blind_nil", "100"}, {"bid_style", "mirror"}}) == "invalid_option_value");
}

// A blind nil is a nil: with min_side_bid, once the partner has bid under the side's
// minimum, the face-down player may only show its cards (and bid to the minimum).
TEST_CASE("blind nil: min_side_bid rules a blind nil out once the partner's bid is too low") {
    const Ruleset r = ruleset("spades", {{"blind_nil", "0"}, {"min_side_bid", "4"}});
    Table t = open_table(r, 3);  // seat 0 bids first, its partner is seat 2
    t.ok(0, Action::show_cards());
    t.ok(0, Action::make_bid(1));
    t.ok(1, Action::show_cards());
    t.ok(1, Action::make_bid(3));
    const LegalMoves m = t.game.legal_moves(2);
    CHECK(m.show_cards);
    CHECK_FALSE(m.blind_nil);
    CHECK(m.count() == 1);
    CHECK(t.refused(2, Action::blind_nil()) == "side_bid_too_low");
    t.ok(2, Action::show_cards());
    CHECK((t.game.legal_moves(2).bids & 0b1111u) == 0b1000u);  // nil, 1 and 2 are too low beside a 1; 3 makes 4
    // Beside a partner who bid enough, a blind nil is open.
    Table u = open_table(r, 3);
    u.ok(0, Action::show_cards());
    u.ok(0, Action::make_bid(4));
    u.ok(1, Action::show_cards());
    u.ok(1, Action::make_bid(3));
    CHECK(u.game.legal_moves(2).blind_nil);
    u.ok(2, Action::blind_nil());
}
