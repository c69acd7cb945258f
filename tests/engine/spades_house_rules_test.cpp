// The house rules of the spades family (docs/RULES.md §2, each with its source):
// minimum bids per player and per side, 10-for-200, the all-13 bonus, what a
// failed nil's tricks are worth, and spades led at any time. Seats a, b, c, e sit
// clockwise from the dealer's left (e is the dealer); a and c are partners.
#include <doctest/doctest.h>

#include <vector>

#include "engine/game.hpp"
#include "engine/spades_scoring.hpp"
#include "engine/view.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

constexpr int e = 0, a = 1, b = 2, c = 3;

Table bidding_table(std::vector<OptionSetting> options) {
    const Ruleset r = ruleset("spades", std::move(options));
    return open_table(r, static_cast<Seat>(e), {complete_deal(r, {})});
}

std::string bid_refused(Table& t, int seat, int bid) { return t.refused(static_cast<Seat>(seat), Action::make_bid(bid)); }

int line(const SpadesSideResult& r, ScoreComponent what) { return get(r.sheet, what); }

}  // namespace

// learnthat.com: "some people play that no one can bid 1".
TEST_CASE("spades house rules: min_bid raises the lowest bid but nil stays") {
    Table t = bidding_table({{"min_bid", "3"}});
    CHECK(t.game.legal_moves(static_cast<Seat>(a)).bids == ((0x3FFFu & ~0x7u) | 1u));  // nil, 3..13
    CHECK(bid_refused(t, a, 2) == "bid_out_of_range");
    t.bid(0);  // nil
    t.bid(3);
    CHECK(bid_refused(t, c, 1) == "bid_out_of_range");
}

// learnthat.com: "Some play that each team must bid a minimum of 4 tricks. If a player
// bids Nil, that player's partner must bid at least 4."
TEST_CASE("spades house rules: min_side_bid makes the second partner bring the side to 4") {
    Table t = bidding_table({{"min_side_bid", "4"}});
    t.bid(1);  // a: the first of its side bids freely
    t.bid(3);  // b
    CHECK(bid_refused(t, c, 2) == "side_bid_too_low");
    CHECK(bid_refused(t, c, 0) == "side_bid_too_low");  // a nil would leave the side at 1
    t.bid(3);  // c: 1 + 3 = 4
    CHECK(bid_refused(t, e, 0) == "side_bid_too_low");  // b's 3 alone does not reach 4
    t.bid(1);
    CHECK(t.game.phase() == Phase::playing);

    Table nil = bidding_table({{"min_side_bid", "4"}});
    nil.bid(0);  // a: nil
    nil.bid(4);  // b: its side reaches 4 alone...
    CHECK(nil.game.legal_moves(static_cast<Seat>(c)).bids == (0x3FFFu & ~0xFu));  // c: 4..13
    nil.bid(4);
    CHECK((nil.game.legal_moves(static_cast<Seat>(e)).bids & 1u) == 1u);  // ...so e may bid nil
    nil.bid(0);
    CHECK(nil.game.phase() == Phase::playing);
}

TEST_CASE("spades house rules: 10-for-200 and the all-13 bonus") {
    SpadesScoring plain;
    SpadesScoring big = plain;
    big.ten_for_two_hundred = true;
    const std::vector<SpadesBidder> ten{{6, false, 6}, {4, false, 5}};
    CHECK(line(score_spades_side(ten, plain), ScoreComponent::contract) == 100);
    CHECK(line(score_spades_side(ten, big), ScoreComponent::contract) == 200);
    CHECK(line(score_spades_side(ten, big), ScoreComponent::overtricks) == 1);
    const std::vector<SpadesBidder> short_of_ten{{6, false, 5}, {4, false, 4}};
    CHECK(line(score_spades_side(short_of_ten, big), ScoreComponent::set) == -100);  // a set as usual
    const std::vector<SpadesBidder> nine{{5, false, 6}, {4, false, 6}};
    CHECK(line(score_spades_side(nine, big), ScoreComponent::contract) == 90);

    // rmwinslow.com: "If a team bids 13 and succeeds, they earn +200 points instead of +130": a bonus of 70.
    SpadesScoring boston = plain;
    boston.all_thirteen_bonus = 70;
    const std::vector<SpadesBidder> thirteen{{7, false, 7}, {6, false, 6}};
    const auto r = score_spades_side(thirteen, boston);
    CHECK(line(r, ScoreComponent::contract) == 130);
    CHECK(line(r, ScoreComponent::all_thirteen) == 70);
    CHECK(total(r.sheet) == 200);
    const std::vector<SpadesBidder> twelve{{7, false, 7}, {5, false, 6}};
    CHECK(line(score_spades_side(twelve, boston), ScoreComponent::all_thirteen) == 0);  // 13 taken, 12 bid

    auto off = make_ruleset("sparts", std::vector<OptionSetting>{{"ten_for_two_hundred", "true"}});
    REQUIRE_FALSE(off);
    CHECK(off.error().code == ErrorCode::option_not_for_ruleset);
}

// A failed nil's 2 tricks beside a partner who bid 4 and took 5: [003] counts them for the
// partner (and as bags over the contract), [004] for nothing, rmwinslow.com only as bags.
TEST_CASE("spades house rules: failed_nil_tricks partner, none and bags") {
    const std::vector<SpadesBidder> side{{0, true, 2}, {4, false, 5}};
    auto scored = [&](const char* mode) {
        const Ruleset r = ruleset("spades", {{"failed_nil_tricks", mode}});
        SpadesScoring s;
        s.nil_tricks_count_for_partner = r.nil_tricks_count_for_partner;
        s.failed_nil_bags = r.failed_nil_bags;
        return score_spades_side(side, s);
    };
    const auto partner = scored("partner"), none = scored("none"), bags = scored("bags");
    CHECK(line(partner, ScoreComponent::overtricks) == 3);
    CHECK(partner.bags == 3);
    CHECK(line(none, ScoreComponent::overtricks) == 1);
    CHECK(none.bags == 1);
    CHECK(line(bags, ScoreComponent::overtricks) == 1);
    CHECK(bags.bags == 3);
    for (const auto* r : {&partner, &none, &bags}) CHECK(line(*r, ScoreComponent::nil) == -100);
    CHECK(ruleset("worldwinner-spades").nil_tricks_count_for_partner == false);
}

// spadesformoney.com: "some casual groups simply allow spades to be led at any time".
TEST_CASE("spades house rules: spades_led_any_time lets a spade lead the first trick") {
    Hands h{};
    h[a] = cards("AS KH");
    for (const char* led_any : {"false", "true"}) {
        const Ruleset r = ruleset("spades", {{"spades_led_any_time", led_any}});
        Table t = open_table(r, static_cast<Seat>(e), {complete_deal(r, h)});
        for (int i = 0; i < 4; ++i) t.bid(3);
        const std::string got = t.refused(static_cast<Seat>(a), Action::play(card("AS")));
        CHECK(got == (std::string(led_any) == "true" ? "accepted" : "spades_not_broken"));
    }
}

// bbumgames' Suicide: "One player must bid Nil (0 tricks), and the other must bid at least 4
// tricks." MSN Zone: "In Mirror games, you must always bid the number of spades in your
// hand." and Whiz: "Players must bid nil OR the number of spades in their hands."
TEST_CASE("spades house rules: bid_style suicide, whiz and mirror") {
    Table suicide = bidding_table({{"bid_style", "suicide"}});
    CHECK(suicide.game.legal_moves(static_cast<Seat>(a)).bids == ((0x3FFFu & ~0xFu) | 1u));  // nil or 4..13
    CHECK(bid_refused(suicide, a, 3) == "bid_out_of_range");
    suicide.bid(5);   // a
    suicide.bid(0);   // b: nil
    CHECK(suicide.game.legal_moves(static_cast<Seat>(c)).bids == 1u);  // a bid a number: c bids nil
    CHECK(bid_refused(suicide, c, 4) == "bid_out_of_range");
    suicide.bid(0);
    CHECK(suicide.game.legal_moves(static_cast<Seat>(e)).bids == (0x3FFFu & ~0xFu));  // b bid nil: e bids 4+
    suicide.bid(4);
    CHECK(suicide.game.phase() == Phase::playing);

    Hands h{};
    h[a] = cards("AS KS 7S 2S 4H 5H 6H 7H 8H 9H TH JH QH");  // four spades
    h[b] = cards("3H KH AH 3D 4D 5D 6D 7D 8D 9D TD JD QD");  // none
    h[c] = cards("JK1 3S KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC");  // two trumps: in Joker Spades a joker is a spade
    for (const std::string style : {"whiz", "mirror"}) {
        INFO(style);
        const Ruleset r = ruleset("spades", {{"bid_style", style}, {"joker_deck", "big-little"}});
        Table t = open_table(r, static_cast<Seat>(e), {complete_deal(r, h)});
        const bool whiz = style == "whiz";
        CHECK(t.game.legal_moves(static_cast<Seat>(a)).bids == ((1u << 4) | (whiz ? 1u : 0u)));
        CHECK(bid_refused(t, a, 3) == "bid_out_of_range");
        t.bid(4);
        CHECK(t.game.legal_moves(static_cast<Seat>(b)).bids == 1u);  // no spades: nil
        t.bid(0);
        CHECK(t.game.legal_moves(static_cast<Seat>(c)).bids == ((1u << 2) | (whiz ? 1u : 0u)));  // JK1 and 3S
    }
    // Mirror names the bid whatever min_bid says; a style does not combine with min_side_bid.
    const Ruleset high = ruleset("spades", {{"bid_style", "mirror"}, {"min_bid", "6"}, {"joker_deck", "big-little"}});
    Table t = open_table(high, static_cast<Seat>(e), {complete_deal(high, h)});
    CHECK(t.game.legal_moves(static_cast<Seat>(a)).bids == (1u << 4));
    auto both = make_ruleset("spades", std::vector<OptionSetting>{{"bid_style", "suicide"}, {"min_side_bid", "4"}});
    REQUIRE_FALSE(both);
    CHECK(both.error().code == ErrorCode::invalid_option_value);
}

// babygurl599.tripod.com: "allow the passing of cards (either 1, 2 or 3 cards)" after a nil.
TEST_CASE("spades house rules: nil_pass, a lone nil and its partner exchange cards before the lead") {
    Hands h{};
    h[a] = cards("AS KS 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
    h[c] = cards("2S 3S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC");
    const Ruleset r = ruleset("spades", {{"nil_pass", "2"}});
    Table t = open_table(r, static_cast<Seat>(e), {complete_deal(r, h)});
    t.bid(0);  // a: nil
    t.bid(4);  // b
    t.bid(6);  // c: a's partner
    t.bid(3);  // e: no nil on b's side, so b and e sit it out
    REQUIRE(t.game.phase() == Phase::passing);
    CHECK(t.log.last<PassingStarted>().count == 2);
    // The event names the seats that pass; a seat that sits it out has not passed, in any view.
    CHECK(t.log.last<PassingStarted>().seats == ((1u << a) | (1u << c)));
    CHECK(t.game.waiting_for() == ((1u << a) | (1u << c)));
    CHECK(view_of(t.game, static_cast<Viewer>(b)).passed_mask == 0);
    CHECK(t.refused(static_cast<Seat>(b), Action::pass(cards("2D 3D"), {})) == "wrong_phase");
    CHECK(t.refused(static_cast<Seat>(a), Action::pass(cards("AS"), {})) == "pass_wrong_count");
    t.ok(static_cast<Seat>(a), Action::pass(cards("AS KS"), {}));
    CHECK(view_of(t.game, static_cast<Viewer>(b)).passed_mask == (1u << a));
    t.ok(static_cast<Seat>(c), Action::pass(cards("2S 3S"), {}));
    CHECK(t.game.phase() == Phase::playing);
    CHECK(t.state().hands[c].contains_all(cards("AS KS")));
    CHECK(t.state().hands[a].contains_all(cards("2S 3S")));
    CHECK(t.log.count<CardsReceived>() == 2);  // only the pair received cards
    CHECK(t.turn() == a);                      // the dealer's left leads as usual

    // Two nils on one side, or none: no pass.
    Table none = open_table(r, static_cast<Seat>(e), {complete_deal(r, h)});
    for (int bid : {0, 4, 0, 3}) none.bid(bid);
    CHECK(none.game.phase() == Phase::playing);
}
