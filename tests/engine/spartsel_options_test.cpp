// Seed 002's variations that are options of the sparts family: mooning, the 10
// of hearts counting -1, mercy, the center cards to the first trick, the clock.
#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/view.hpp"
#include "engine/random_policy.hpp"
#include "engine/sparts_scoring.hpp"
#include "support/harness_policy.hpp"

using namespace sparts;
using sparts::testing::next_actor;

namespace {

Ruleset rules_of(const char* preset, std::vector<OptionSetting> options) {
    auto r = make_ruleset(preset, options);
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    return *r;
}

int component(const SideScore& s, ScoreComponent c) { return s.delta[static_cast<int>(c)]; }

CardSet cards(std::initializer_list<const char*> names) {
    CardSet s;
    for (const char* n : names) s.insert(*parse_card(n));
    return s;
}

// Plays random legal actions until hand `hand` has been dealt.
void play_until_hand(Game& g, int hand, Rng& rng) {
    while (!g.over() && g.state().hand < hand) {
        const Seat s = next_actor(g);
        REQUIRE(g.apply(s, random_action(g.legal_moves(s), rng)));
    }
}

// Hand 4 of a 4-player Sparts game passes nothing ("the hand that would pass to
// yourself is a no-pass hand"), so a deal stacked for it is played as dealt.
// Seat 0 holds all 13 spades and so takes every trick, and the moon.
HandScored play_moon_hand(const Ruleset& r) {
    StackedDeal moon;
    moon.hands[0] = CardSet::suit(Suit::spades) & CardSet::deck(1, 0);
    const CardSet rest = CardSet::deck(1, 0) & ~moon.hands[0];
    for (int i = 0; i < 39; ++i) moon.hands[1 + i % 3].insert(rest.nth(i));
    std::vector<StackedDeal> deals(4, moon);
    Game g = std::move(*Game::create(r, 3, deals));
    g.start();
    Rng rng(3, 1);
    play_until_hand(g, 4, rng);
    REQUIRE(g.state().hand == 4);
    REQUIRE(g.state().hands[0] == moon.hands[0]);
    while (!g.over()) {
        const Seat s = next_actor(g);
        const LegalMoves m = g.legal_moves(s);
        // Seat 0 always plays its highest spade; the others anything legal.
        const Action a = s == 0 && m.kind == ActionKind::play
                             ? Action::play(Card::of(static_cast<Rank>(12 - (13 - m.cards.size())), Suit::spades))
                             : random_action(m, rng);
        auto res = g.apply(s, a);
        REQUIRE_MESSAGE(res, (res ? "" : res.error().message));
        for (const Event& e : *res)
            if (auto* hs = std::get_if<HandScored>(&e); hs && hs->hand == 4) return *hs;
    }
    FAIL("hand 4 was not scored");
    return {};
}

}  // namespace

// "Mooning- ... When one person takes all the hearts and the queen of spades,
// their heart total is 0 and everyone else's is -35 (or the total of the
// negatives). The jack of diamonds is scored separately."
TEST_CASE("spartsel options: mooning, through a whole hand") {
    const HandScored with = play_moon_hand(rules_of("sparts", {{"mooning", "true"}}));
    CHECK(with.sides[0].tricks == 13);
    CHECK(component(with.sides[0], ScoreComponent::hearts) == 0);
    CHECK(component(with.sides[0], ScoreComponent::queen_of_spades) == 0);
    CHECK(component(with.sides[0], ScoreComponent::ten_of_hearts) == 0);
    CHECK(component(with.sides[0], ScoreComponent::jack_of_diamonds) == 10);
    CHECK(component(with.sides[0], ScoreComponent::moon) == 0);
    for (int s = 1; s < 4; ++s) CHECK(component(with.sides[s], ScoreComponent::moon) == -35);

    const HandScored without = play_moon_hand(rules_of("sparts", {}));
    CHECK(component(without.sides[0], ScoreComponent::hearts) == -12);
    CHECK(component(without.sides[0], ScoreComponent::ten_of_hearts) == -10);
    CHECK(component(without.sides[0], ScoreComponent::queen_of_spades) == -13);
    for (int s = 1; s < 4; ++s) CHECK(component(without.sides[s], ScoreComponent::moon) == 0);
}

// RULINGS.md: "Mooning gives the others the deck's negative total as it stands
// under the options: -35 a deck, -26 a deck when the 10 of hearts counts -1."
// "... with two decks it takes all 26 hearts and both queens of spades."
TEST_CASE("spartsel options: the moon's negative total follows the decks and the 10 of hearts") {
    Ruleset r = rules_of("spartsel", {{"mooning", "true"}, {"ten_of_hearts_minus_one", "true"}});
    const CardSet deck = CardSet::deck(1, 0);
    std::array<CardSet, 4> taken{deck, {}, {}, {}};
    auto counts = sparts_counts(std::span(taken.data(), 4), r);
    CHECK(counts[1][static_cast<int>(ScoreComponent::moon)] == -26);

    Ruleset two = rules_of("spartsel", {{"seats", "8"}, {"decks", "2"}, {"mooning", "true"}});
    const CardSet both = CardSet::deck(2, 0);
    std::array<CardSet, 8> split{};
    split[0] = both & ~CardSet::of(*parse_card("QS'"));
    split[1] = CardSet::of(*parse_card("QS'"));
    counts = sparts_counts(std::span(split.data(), 8), two);
    CHECK(counts[1][static_cast<int>(ScoreComponent::moon)] == 0);  // one queen short: no moon
    CHECK(counts[1][static_cast<int>(ScoreComponent::queen_of_spades)] == -13);
    split[0] = both;
    split[1] = {};
    counts = sparts_counts(std::span(split.data(), 8), two);
    for (int s = 1; s < 8; ++s) CHECK(counts[s][static_cast<int>(ScoreComponent::moon)] == -70);
    CHECK(counts[0][static_cast<int>(ScoreComponent::jack_of_diamonds)] == 20);
}

// "10 of Hearts- The 10 of hearts only counts as -1."
TEST_CASE("spartsel options: the 10 of hearts counts -1, and a deck's count totals -16") {
    const ScoreSheet ten = sparts_count(cards({"TH", "9H"}), true);
    CHECK(ten[static_cast<int>(ScoreComponent::ten_of_hearts)] == -1);
    CHECK(ten[static_cast<int>(ScoreComponent::hearts)] == -1);
    CHECK(total(sparts_count(CardSet::deck(1, 0), true)) == -16);
    CHECK(total(sparts_count(CardSet::deck(1, 0), false)) == -25);
}

// "Mercy- Neither hearts nor trump can be played on the first trick."
TEST_CASE("spartsel options: mercy keeps hearts and spades off the first trick") {
    const Ruleset r = rules_of("spartsel", {{"mercy", "true"}});
    // Hand 4 passes nothing. Seat 1 has no clubs: hearts, spades and one diamond.
    StackedDeal d;
    d.hands[1] = cards({"2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "2S", "3S", "4S", "2D"});
    const CardSet rest = CardSet::deck(1, 0) & ~d.hands[1];
    int i = 0;
    for (int s : {0, 2, 3})
        for (int k = 0; k < 13; ++k) d.hands[s].insert(rest.nth(i++));
    Game g = std::move(*Game::create(r, 11, std::vector<StackedDeal>(4, d)));
    g.start();
    Rng rng(11, 1);
    play_until_hand(g, 4, rng);
    while (g.phase() == Phase::bidding) {
        const Seat s = next_actor(g);
        REQUIRE(g.apply(s, random_action(g.legal_moves(s), rng)));
    }
    REQUIRE(g.phase() == Phase::playing);
    while (next_actor(g) != 1) {
        const Seat s = next_actor(g);
        REQUIRE(g.apply(s, random_action(g.legal_moves(s), rng)));
    }
    REQUIRE(g.state().trick_number == 1);
    REQUIRE(g.state().trick.cards[0].suit() == Suit::clubs);
    auto heart = g.apply(1, Action::play(*parse_card("TH")));
    REQUIRE_FALSE(heart);
    CHECK(heart.error().code == ErrorCode::mercy_first_trick);
    auto spade = g.apply(1, Action::play(*parse_card("4S")));
    REQUIRE_FALSE(spade);
    CHECK(spade.error().code == ErrorCode::mercy_first_trick);
    CHECK(g.legal_moves(1).cards == cards({"2D"}));
    CHECK(g.apply(1, Action::play(*parse_card("2D"))));

    // Without mercy, the same hand may throw a heart on the first trick.
    Game plain = std::move(*Game::create(rules_of("spartsel", {}), 11, std::vector<StackedDeal>(4, d)));
    plain.start();
    Rng again(11, 1);
    play_until_hand(plain, 4, again);
    while (plain.phase() == Phase::bidding) {
        const Seat s = next_actor(plain);
        REQUIRE(plain.apply(s, random_action(plain.legal_moves(s), again)));
    }
    while (next_actor(plain) != 1) {
        const Seat s = next_actor(plain);
        REQUIRE(plain.apply(s, random_action(plain.legal_moves(s), again)));
    }
    CHECK(plain.apply(1, Action::play(*parse_card("TH"))));
}

TEST_CASE("spartsel options: mercy gives way when the hand holds nothing else") {
    // On many random deals, every first-trick player void in the suit led may
    // play only non-hearts non-spades, or anything when it holds nothing else.
    const Ruleset r = rules_of("spartsel", {{"mercy", "true"}});
    int checked = 0;
    for (std::uint64_t seed = 1; seed < 400 && checked < 20; ++seed) {
        Game h = std::move(*Game::create(r, seed));
        h.start();
        Rng p(seed, 1);
        while (!h.over() && !(h.phase() == Phase::playing && h.state().trick_number == 1 && h.state().trick.count > 0)) {
            const Seat s = next_actor(h);
            REQUIRE(h.apply(s, random_action(h.legal_moves(s), p)));
        }
        while (!h.over() && h.phase() == Phase::playing && h.state().trick_number == 1) {
            const Seat s = next_actor(h);
            const CardSet hand = h.state().hands[s];
            const bool void_in_led = of_suit(hand, h.state().trick.cards[0].suit()).empty();
            const CardSet plain = hand & ~(CardSet::suit(Suit::hearts) | CardSet::suit(Suit::spades));
            if (void_in_led && h.state().trick.count > 0) {
                ++checked;
                const CardSet legal = h.legal_moves(s).cards;
                CHECK(legal == (plain.empty() ? hand : plain));
            }
            REQUIRE(h.apply(s, random_action(h.legal_moves(s), p)));
        }
    }
    CHECK(checked > 0);
}

// RULINGS.md: "Center cards go to the first player who captures a heart or the
// queen of spades ... (option: to the winner of the first trick instead)".
TEST_CASE("spartsel options: the center cards to the winner of the first trick") {
    for (const char* preset : {"sparts", "spartsel"}) {
        const Ruleset r = rules_of(preset, {{"seats", "5"}, {"center_cards", "first-trick"}});
        for (std::uint64_t seed = 1; seed <= 30; ++seed) {
            Game g = std::move(*Game::create(r, seed));
            g.start();
            Rng rng(seed, 1);
            Seat first_winner = kNoSeat;
            const CenterTaken* taken = nullptr;
            CenterTaken copy{};
            while (!g.over() && g.state().hand == 1) {
                const Seat s = next_actor(g);
                auto res = g.apply(s, random_action(g.legal_moves(s), rng));
                REQUIRE(res);
                for (const Event& e : *res) {
                    if (auto* t = std::get_if<TrickWon>(&e); t && t->trick == 1) first_winner = t->winner;
                    if (auto* c = std::get_if<CenterTaken>(&e)) copy = *c, taken = &copy;
                }
                if (taken) break;
            }
            REQUIRE(taken != nullptr);
            CHECK(taken->seat == first_winner);
            CHECK(taken->count == 2);
            CHECK(g.state().trick_number == 2);
        }
    }
}

// 002: "Games can be played to a number of points, or to a number of hands or to a time".
TEST_CASE("spartsel options: a game clock ends the game as of the last completed hand") {
    const Ruleset r = rules_of("spartsel", {{"game_clock", "900"}});
    Game g = std::move(*Game::create(r, 21));
    g.start();
    Rng rng(21, 1);
    play_until_hand(g, 2, rng);
    const auto scores = g.state().scores;
    auto res = g.apply(kTableSeat, Action::clock_expired());
    REQUIRE(res);
    const auto& over = std::get<GameOver>(res->back());
    CHECK(over.reason == GameEndReason::game_clock);
    CHECK(over.hands_played == 1);
    for (int s = 0; s < 4; ++s) CHECK(over.scores[s] == scores[s]);

    Game plain = std::move(*Game::create(rules_of("spartsel", {}), 21));
    plain.start();
    auto none = plain.apply(kTableSeat, Action::clock_expired());
    REQUIRE_FALSE(none);
    CHECK(none.error().code == ErrorCode::no_game_clock);
}

// "Secret Bids- Bids are secretly recorded before the play of the hand. After the
// play, bids are revealed for scoring purposes." RULINGS.md: "Secret bids do not
// lift the Spartsel dealer rule."
TEST_CASE("spartsel options: secret bids stay hidden until the hand is scored") {
    const Ruleset r = rules_of("spartsel", {{"secret_bids", "true"}});
    Game g = std::move(*Game::create(r, 8));
    g.start();
    Rng rng(8, 1);
    std::array<int, kMaxSeats> made{};
    made.fill(-1);
    bool revealed = false;
    while (!g.over() && g.state().hands_scored == 0) {
        const Seat s = next_actor(g);
        const LegalMoves m = g.legal_moves(s);
        if (m.kind == ActionKind::bid && g.state().bids_made == r.seats - 1) {
            // The dealer rule still holds: the bid that makes the total is refused.
            int others = 0;
            for (int i = 0; i < r.seats; ++i) others += std::max(0, int(g.state().bids[i]));
            const int forbidden = r.hand_size - others;
            if (forbidden >= 0 && forbidden <= r.hand_size) {
                auto refused = g.apply(s, Action::make_bid(forbidden));
                REQUIRE_FALSE(refused);
                CHECK(refused.error().code == ErrorCode::dealer_cannot_make_total);
            }
        }
        auto res = g.apply(s, random_action(m, rng));
        REQUIRE(res);
        for (const Event& e : *res) {
            if (auto* b = std::get_if<BidMade>(&e)) {
                made[b->seat] = b->bid;
                CHECK(b->secret);
                for (Viewer v : {Viewer{0}, Viewer{1}, Viewer{2}, Viewer{3}, kSpectator}) {
                    const auto seen = std::get<BidMade>(redact(e, v));
                    CHECK(seen.bid == (v == b->seat ? b->bid : kHiddenBid));
                }
            }
            if (auto* br = std::get_if<BidsRevealed>(&e)) {
                revealed = true;
                for (int i = 0; i < r.seats; ++i) CHECK(br->bids[i] == made[i]);
            }
            if (std::holds_alternative<HandScored>(e)) CHECK(revealed);  // revealed first
        }
        if (g.phase() == Phase::playing) {
            for (int v = 0; v < r.seats; ++v) {
                const SeatView view = view_of(g, static_cast<Viewer>(v));
                for (int i = 0; i < r.seats; ++i) CHECK(view.bids[i] == (i == v ? made[i] : kHiddenBid));
            }
        }
    }
    CHECK(revealed);
}

namespace {

// Passes `count` (and `back`) lowest cards for every seat, in seat order.
std::vector<Event> pass_all(Game& g, int count, int back) {
    std::vector<Event> seen;
    for (Seat s = 0; s < g.rules().seats; ++s) {
        CardSet hand = g.state().hands[s], cards, extra;
        for (int i = 0; i < count; ++i) cards.insert(hand.pop_first());
        for (int i = 0; i < back; ++i) extra.insert(hand.pop_first());
        auto r = g.apply(s, Action::pass(cards, extra));
        REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
        seen.insert(seen.end(), r->begin(), r->end());
    }
    return seen;
}

}  // namespace

// "Multi-pass- In addition to the traditional 3 card pass, there are two
// variations. One is passing 1 back to the person who passed to you (after the
// first pass is completed)."
TEST_CASE("spartsel options: multi-pass back, a second round of one card to the right") {
    const Ruleset r = rules_of("spartsel", {{"multi_pass", "back"}});
    Game g = std::move(*Game::create(r, 2));
    g.start();
    REQUIRE(g.phase() == Phase::passing);
    CHECK(g.legal_moves(0).pass_count == 3);
    CHECK(g.legal_moves(0).back_count == 0);
    const auto first = pass_all(g, 3, 0);
    // After everyone's three cards arrive, a second round opens: 1 card, 3 seats left (= 1 right).
    const auto* round2 = std::get_if<PassingStarted>(&first.back());
    REQUIRE(round2 != nullptr);
    CHECK(round2->round == 2);
    CHECK(round2->count == 1);
    CHECK(round2->distance == 3);
    CHECK(g.phase() == Phase::passing);
    const CardSet received_by_1 = g.state().received[1];
    CHECK(received_by_1.size() == 3);
    // Seat 1 passes one of the cards it just received back to seat 0.
    const Card returned = received_by_1.first();
    auto back = g.apply(1, Action::pass(CardSet::of(returned)));
    REQUIRE(back);
    CHECK(std::get<CardsPassed>(back->front()).to == 0);
    for (Seat s : {Seat{0}, Seat{2}, Seat{3}}) REQUIRE(g.apply(s, Action::pass(CardSet::of(g.state().hands[s].first()))));
    CHECK(g.phase() == Phase::bidding);
    CHECK(g.state().hands[0].contains(returned));
    for (int s = 0; s < 4; ++s) CHECK(g.state().hands[s].size() == 13);
}

// "The other is passing 1 card card to the person who is passing to you at the
// same time as the first pass."
TEST_CASE("spartsel options: multi-pass both ways, 3 cards left and 1 right at once") {
    const Ruleset r = rules_of("spartsel", {{"multi_pass", "both-ways"}});
    Game g = std::move(*Game::create(r, 2));
    g.start();
    const LegalMoves m = g.legal_moves(2);
    CHECK(m.pass_count == 3);
    CHECK(m.back_count == 1);
    CardSet hand = g.state().hands[2], three;
    for (int i = 0; i < 3; ++i) three.insert(hand.pop_first());
    auto missing = g.apply(2, Action::pass(three));
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == ErrorCode::pass_wrong_count);
    const Card extra = hand.first();
    auto ok = g.apply(2, Action::pass(three, CardSet::of(extra)));
    REQUIRE(ok);
    REQUIRE(ok->size() == 2);
    CHECK(std::get<CardsPassed>((*ok)[0]).to == 3);
    CHECK(std::get<CardsPassed>((*ok)[1]).to == 1);
    for (Seat s : {Seat{0}, Seat{1}, Seat{3}}) {
        CardSet h = g.state().hands[s], c;
        for (int i = 0; i < 3; ++i) c.insert(h.pop_first());
        REQUIRE(g.apply(s, Action::pass(c, CardSet::of(h.first()))));
    }
    CHECK(g.phase() == Phase::bidding);
    CHECK(g.state().hands[1].contains(extra));
    CHECK(g.state().received[3].contains_all(three));
    for (int s = 0; s < 4; ++s) CHECK(g.state().hands[s].size() == 13);
}

// RULINGS.md: "A no-pass hand has no multi-pass either."
TEST_CASE("spartsel options: no multi-pass on a no-pass hand") {
    const Ruleset r = rules_of("spartsel", {{"multi_pass", "back"}});
    Game g = std::move(*Game::create(r, 2));
    g.start();
    Rng rng(2, 1);
    play_until_hand(g, 4, rng);
    REQUIRE(g.state().hand == 4);
    CHECK(g.phase() == Phase::bidding);
    CHECK(g.state().pass_round == 0);
}
