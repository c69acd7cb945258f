// The worked examples and rules of seed 001_a4ebfd0eebd030b7.txt (a rules
// site's Sparts for 4-6 players, preset `sparts`, scored by seed 002's Sparts
// column as RULINGS.md says), driven through the engine. Each test quotes the
// sentence it checks.
#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/sparts_scoring.hpp"
#include "engine/view.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

Ruleset sparts_rules(int seats = 4, std::vector<OptionSetting> more = {}) {
    std::vector<OptionSetting> options = {{"seats", std::to_string(seats)}};
    for (auto& o : more) options.push_back(o);
    return ruleset("sparts", options);
}

}  // namespace

// "4 players – 13 cards each / 5 players – 10 cards each (2 card kitty) /
// 6 players – 8 cards each (4 card kitty)"
TEST_CASE("seed 001: the deal for 4, 5 and 6 players") {
    struct Row {
        int seats, hand, kitty;
    };
    for (const Row& row : {Row{4, 13, 0}, Row{5, 10, 2}, Row{6, 8, 4}}) {
        CAPTURE(row.seats);
        Table t = open_table(sparts_rules(row.seats), 0);
        const HandStarted hs = t.log.last<HandStarted>();
        CHECK(hs.hand_size == row.hand);
        CHECK(hs.center_size == row.kitty);
        CHECK(hs.kind == HandKind::sparts);
        const auto dealt = t.log.all<CardsDealt>();
        REQUIRE(static_cast<int>(dealt.size()) == row.seats);
        for (const CardsDealt& d : dealt) CHECK(d.cards.size() == row.hand);
        CHECK(t.game.check_invariants() == "");
    }
    // Sparts is for 4 to 6 players.
    CHECK_FALSE(make_ruleset("sparts", std::vector<OptionSetting>{{"seats", "7"}}));
    CHECK_FALSE(make_ruleset("sparts", std::vector<OptionSetting>{{"seats", "3"}}));
}

// "Three cards will be passed each hand. On the first hand, pass three cards to
// the player on your left. For the next hand, pass three cards two players to
// the left. Continue following the pass structure each hand. For hands that you
// would pass to yourself, simply keep the three cards."
TEST_CASE("seed 001: pass 3 cards one, two, three... to the left, the hand that would pass to yourself keeps them") {
    struct Row {
        int seats;
        std::vector<int> distances;
    };
    const Row rows[] = {
        {4, {1, 2, 3, 0, 1, 2, 3, 0}},
        {5, {1, 2, 3, 4, 0, 1}},
        {6, {1, 2, 3, 4, 5, 0, 1}},
    };
    for (const Row& row : rows) {
        CAPTURE(row.seats);
        const int hands = static_cast<int>(row.distances.size());
        Table t = open_table(sparts_rules(row.seats, {{"hands", std::to_string(hands)}}), 1);
        for (int h = 0; h < hands; ++h) autoplay_hand(t);
        CHECK(t.game.over());
        std::vector<int> distances;
        for (const auto& p : t.log.all<PassingStarted>()) {
            distances.push_back(p.distance);
            CHECK(p.count == 3);
        }
        CHECK(distances == row.distances);
        for (const CardsPassed& p : t.log.all<CardsPassed>()) CHECK(p.count == 3);
    }
}

// RULINGS.md: "Passing is simultaneous: everyone chooses their cards from the
// hand they were dealt, and the cards arrive only when all have passed (you pass
// before you see what you receive)." Seed 002: "You must pass before you look at
// your new cards."
TEST_CASE("seed 001: passed cards arrive only when everyone has passed") {
    Table t = open_table(sparts_rules(4), 0);
    REQUIRE(t.game.phase() == Phase::passing);
    CHECK(t.game.waiting_for() == 0b1111);
    std::array<CardSet, 4> passed{};
    for (int s = 0; s < 4; ++s) {
        for (Card c : t.state().hands[s])
            if (passed[s].size() < 3) passed[s].insert(c);
    }
    CHECK(t.refused(0, Action::pass(cards("AS AH") & t.state().hands[0])) == "pass_wrong_count");
    for (int s = 0; s < 3; ++s) t.ok(static_cast<Seat>(s), Action::pass(passed[s]));
    CHECK(t.log.count<CardsReceived>() == 0);
    CHECK(t.state().hands[1].size() == 10);  // seat 0's cards have not arrived
    CHECK(t.refused(0, Action::pass(passed[0])) == "already_passed");
    t.ok(3, Action::pass(passed[3]));
    const auto received = t.log.all<CardsReceived>();
    REQUIRE(received.size() == 4);
    for (const CardsReceived& r : received) {
        CHECK(int(r.from) == (r.seat + 3) % 4);
        CHECK(r.cards == passed[r.from]);
        CHECK(t.state().hands[r.seat].contains_all(r.cards));
    }
    CHECK(t.game.phase() == Phase::bidding);  // "deal, pass, bid, play"
}

// "Bidding begins with the player seated to the immediate left of the dealer.
// ... Players may bid as low as zero and as high as there are tricks."
TEST_CASE("seed 001: bids from the dealer's left, zero up to the number of tricks") {
    Table t = open_table(sparts_rules(5), 3);
    autoplay_step(t);  // everyone passes
    REQUIRE(t.game.phase() == Phase::bidding);
    CHECK(int(t.log.last<BiddingStarted>().first) == 4);
    CHECK(t.refused(0, Action::make_bid(1)) == "not_your_turn");
    CHECK(t.refused(4, Action::make_bid(11)) == "bid_out_of_range");  // 10 tricks with 5 players
    CHECK(t.game.legal_moves(4).bids == (1u << 11) - 1);               // 0..10
    t.ok(4, Action::make_bid(0));
    CHECK_FALSE(t.log.last<BidMade>().nil);  // zero is a plain bid, not a Spades nil
    t.ok(0, Action::make_bid(10));
    t.ok(1, Action::make_bid(10));  // no rule on the total in Sparts
    t.ok(2, Action::make_bid(10));
    t.ok(3, Action::make_bid(10));  // nor for the dealer (that is Spartsel's rule)
    CHECK(t.game.phase() == Phase::playing);
}

// "The player that is dealt the 2 of Clubs leads the first trick. If no one has
// the 2 of Clubs, the player with the 3 of Clubs leads first and so on."
// (RULINGS.md: after the pass, the holder of the 2 of clubs leads it.)
TEST_CASE("seed 001: the 2 of clubs leads, with it in the kitty, the lowest club in play") {
    SUBCASE("4 players: the 2 of clubs") {
        const Ruleset r = sparts_rules(4);
        Hands after{};
        after[2] = cards("2C 3C");
        Table t = table_after_pass(r, 0, after);
        bid_all(t, {1, 1, 1, 1});
        CHECK(int(t.log.last<PlayStarted>().leader) == 2);
        CHECK(t.game.legal_moves(2).cards == cards("2C"));
        CHECK(t.refused(2, Action::play(card("3C"))) == "must_lead_card");
        t.play("2C");
    }
    SUBCASE("5 players: the 2 and 3 of clubs in the kitty, the 4 leads") {
        const Ruleset r = sparts_rules(5);
        Hands after{};
        after[3] = cards("4C 5C");
        Table t = table_after_pass(r, 0, after, {card("2C"), card("3C")});
        bid_all(t, {1, 1, 1, 1, 1});
        CHECK(int(t.log.last<PlayStarted>().leader) == 3);
        CHECK(t.refused(3, Action::play(card("5C"))) == "must_lead_card");
        t.play("4C");
    }
}

// "Player 1 leads with the 2 of Clubs. Player 2 follows suit with a 3 of Clubs.
// Player 3 does not have any Clubs, so they play the Ace of Hearts. Player 4
// follows suit with the 10 of Clubs. The 10 of Clubs takes the trick and Hearts
// are now broken. Player 4 leads the next trick with a 3 of Hearts. Hearts can
// now be led since it was broken last trick. Player 1 follows suit with a 2 of
// Hearts. Player 2 follows suit with a 5 of Hearts. Player 3 takes the trick
// with a King of Hearts. Player 3 leads the next trick."
TEST_CASE("seed 001: the worked trick example") {
    const Ruleset r = sparts_rules(4);
    const int P1 = 0, P2 = 1, P3 = 2, P4 = 3;
    Hands after{};
    after[P1] = cards("2C 2H");
    after[P2] = cards("3C 5H");
    after[P3] = cards("AH KH");
    after[P4] = cards("TC 3H");
    std::array<unsigned, kMaxSeats> avoid{};
    avoid[P3] = no(Suit::clubs);
    Table t = table_after_pass(r, 3, after, {}, avoid);
    bid_all(t, {1, 1, 1, 1});
    REQUIRE(int(t.log.last<PlayStarted>().leader) == P1);

    t.play("2C");
    t.play("3C");
    CHECK(t.game.legal_moves(P3).cards == t.state().hands[P3]);  // no clubs: any card
    t.play("AH");
    t.play("TC");
    const TrickWon first = t.log.last<TrickWon>();
    CHECK(int(first.winner) == P4);
    CHECK(first.cards[2] == card("AH"));
    CHECK(t.state().hearts_broken);
    REQUIRE(t.log.count<HeartsBroken>() == 1);
    CHECK(int(t.log.last<HeartsBroken>().seat) == P3);

    REQUIRE(int(t.turn()) == P4);
    t.play("3H");
    const Card off_suit = (t.state().hands[P1] & ~CardSet::suit(Suit::hearts)).first();
    CHECK(t.refused(P1, Action::play(off_suit)) == "must_follow_suit");
    t.play("2H");
    t.play("5H");
    t.play("KH");
    CHECK(int(t.log.last<TrickWon>().winner) == P3);
    CHECK(int(t.turn()) == P3);
    CHECK(t.state().trick_number == 3);
}

// "In this game, Spades are always trump. Hearts cannot be led until the suit is
// broken. The suit is broken when a player cannot follow suit and chooses to
// play a Heart." RULINGS.md (sparts): "Spades are trump and may be led at any
// time. ... hearts are broken when a heart is played on a trick" - so the queen
// of spades does not break hearts here (unlike Spartsel).
TEST_CASE("seed 001: hearts cannot be led until a heart is played, spades may be led any time and trump") {
    const Ruleset r = sparts_rules(4);
    const int P1 = 0, P2 = 1, P3 = 2, P4 = 3;
    Hands after{};
    after[P1] = cards("2C 2S 5D");
    after[P2] = cards("3C 3S 5S");
    after[P3] = cards("2D 4S 6D");
    after[P4] = cards("TC 3H 4D QS");
    std::array<unsigned, kMaxSeats> avoid{};
    avoid[P2] = no(Suit::diamonds);
    avoid[P3] = no(Suit::clubs);
    Table t = table_after_pass(r, 3, after, {}, avoid);
    bid_all(t, {1, 1, 1, 1});

    play_tricks(t, tricks_from({"2C 3C 2D TC"}));
    REQUIRE(int(t.turn()) == P4);
    CHECK_FALSE(t.state().hearts_broken);
    CHECK(t.refused(P4, Action::play(card("3H"))) == "hearts_not_broken");
    t.play("QS");  // a spade lead, though no spade has been played
    t.play("2S");
    t.play("3S");
    t.play("4S");
    CHECK(int(t.log.last<TrickWon>().winner) == P4);
    CHECK(t.log.count<HeartsBroken>() == 0);
    CHECK(t.refused(P4, Action::play(card("3H"))) == "hearts_not_broken");
    t.play("4D");
    t.play("5D");
    t.play("5S");  // P2 has no diamonds and trumps
    t.play("6D");
    CHECK(int(t.log.last<TrickWon>().winner) == P2);
}

// RULINGS.md: "The kitty goes, unseen by others, to the first player who
// captures a trick holding a heart or the queen of spades; it scores only for
// the count." and seed 002: "the count ... should total -25 for all hands".
TEST_CASE("seed 001: the kitty goes to the first player to capture a heart, and counts for them") {
    const Ruleset r = sparts_rules(5);
    Hands after{};
    after[0] = cards("2C 3D");
    after[1] = cards("3C 4D");
    after[2] = cards("4C 2H");
    after[3] = cards("5C 2D");
    after[4] = cards("AC 5D");
    std::array<unsigned, kMaxSeats> avoid{};
    avoid[2] = no(Suit::diamonds);
    Table t = table_after_pass(r, 4, after, {card("JD"), card("TH")}, avoid);
    bid_all(t, {1, 1, 1, 1, 1});

    play_tricks(t, tricks_from({"2C 3C 4C 5C AC"}));
    CHECK(int(t.log.last<TrickWon>().winner) == 4);
    CHECK(t.log.count<CenterTaken>() == 0);  // no heart, no queen: the kitty stays
    CHECK(t.state().center_taker == kNoSeat);

    play_tricks(t, tricks_from({"5D 3D 4D 2H 2D"}));
    CHECK(int(t.log.last<TrickWon>().winner) == 4);
    REQUIRE(t.log.count<CenterTaken>() == 1);
    const CenterTaken taken = t.log.last<CenterTaken>();
    CHECK(int(taken.seat) == 4);
    CHECK(taken.count == 2);
    CHECK(taken.cards == cards("JD TH"));
    // Unseen by others.
    CHECK(std::get<CenterTaken>(redact(Event{taken}, 0)).cards.empty());
    CHECK(std::get<CenterTaken>(redact(Event{taken}, kSpectator)).cards.empty());
    CHECK(std::get<CenterTaken>(redact(Event{taken}, 4)).cards == cards("JD TH"));

    const HandScored hs = autoplay_hand(t);
    CHECK(t.log.count<CenterTaken>() == 1);  // given once
    // The jack and the 10 of hearts were in the kitty: only seat 4 can count them.
    CHECK(delta(hs.sides[4], ScoreComponent::jack_of_diamonds) == 10);
    CHECK(delta(hs.sides[4], ScoreComponent::ten_of_hearts) == -10);
    int count = 0;
    for (int s = 0; s < 5; ++s)
        for (ScoreComponent c : {ScoreComponent::hearts, ScoreComponent::queen_of_spades, ScoreComponent::ten_of_hearts,
                                 ScoreComponent::jack_of_diamonds})
            count += delta(hs.sides[s], c);
    CHECK(count == -25);
}

// "First, players earn or lose points based on their bid and captured tricks.
// Bid zero and capture zero = +10 points / Capture exact bid = +10 points / Each
// trick captured beyond bid = +1 point / Fail to meet bid = -10 points. Second,
// points are deducted for Hearts and the Queen of Spades. The Jack of Diamonds
// offers a point bonus when captured. Queen of Spades = -13 points / 10 of
// Hearts = -10 points / All other Hearts = -1 point / Jack of Diamonds = +10
// points" (RULINGS.md: "capture exact bid = +10" is 10 a trick bid.)
TEST_CASE("seed 001: a Sparts hand played out and scored by bid, tricks and count") {
    const Ruleset r = sparts_rules(4);
    // Seat 0 holds the 2 of clubs and leads; tricks: seat 1 three, seat 2 four, seat 3 six.
    const Tricks tricks = layout_tricks(Layout::sparts, 0, {1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 2, 2});
    const ScriptDeal sd = deal_from_script(4, 0, tricks, true);
    Table t = table_after_pass(r, 3, sd.hands);
    bid_all(t, {0, 3, 2, 7});
    CHECK(int(t.log.last<PlayStarted>().leader) == 0);
    play_tricks(t, tricks);

    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.kind == HandKind::sparts);
    REQUIRE(hs.side_count() == 4);
    // Seat 0: bid 0, took 0.
    CHECK(hs.sides[0].tricks == 0);
    CHECK(delta(hs.sides[0], ScoreComponent::zero_bid) == 10);
    CHECK(hs.sides[0].hand_total == 10);
    // Seat 1: bid 3, took 3 clubs tricks.
    CHECK(hs.sides[1].tricks == 3);
    CHECK(delta(hs.sides[1], ScoreComponent::contract) == 30);
    CHECK(hs.sides[1].hand_total == 30);
    // Seat 2: bid 2, took 4 (two over), with the 10, jack, queen, king and ace of hearts.
    CHECK(hs.sides[2].tricks == 4);
    CHECK(delta(hs.sides[2], ScoreComponent::contract) == 20);
    CHECK(delta(hs.sides[2], ScoreComponent::overtricks) == 2);
    CHECK(delta(hs.sides[2], ScoreComponent::ten_of_hearts) == -10);
    CHECK(delta(hs.sides[2], ScoreComponent::hearts) == -4);
    CHECK(hs.sides[2].hand_total == 22 - 14);
    // Seat 3: bid 7, took 6, with the jack of diamonds, the queen of spades and 8 hearts.
    CHECK(hs.sides[3].tricks == 6);
    CHECK(delta(hs.sides[3], ScoreComponent::set) == -10);
    CHECK(delta(hs.sides[3], ScoreComponent::jack_of_diamonds) == 10);
    CHECK(delta(hs.sides[3], ScoreComponent::queen_of_spades) == -13);
    CHECK(delta(hs.sides[3], ScoreComponent::hearts) == -8);
    CHECK(hs.sides[3].hand_total == -10 + 10 - 13 - 8);
    for (int s = 0; s < 4; ++s) CHECK(hs.sides[s].score == hs.sides[s].hand_total);
}

// The same list, row by row, on the scoring functions (trick value 10: RULINGS.md
// "the `sparts` preset always values a trick bid at 10").
TEST_CASE("seed 001: the Sparts scoring list row by row") {
    auto tricks_score = [](int bid, int taken) { return total(sparts_trick_score(bid, taken, ScoringColumn::sparts, 10)); };
    CHECK(tricks_score(0, 0) == 10);   // "Bid zero and capture zero = +10 points"
    CHECK(tricks_score(1, 1) == 10);   // "Capture exact bid = +10 points" (10 a trick bid)
    CHECK(tricks_score(4, 4) == 40);
    CHECK(tricks_score(4, 6) == 42);   // "Each trick captured beyond bid = +1 point"
    CHECK(tricks_score(4, 3) == -10);  // "Fail to meet bid = -10 points"
    CHECK(tricks_score(9, 0) == -10);
    CHECK(tricks_score(0, 2) == -10);  // bid zero, captured two: the bid is failed
    CHECK(total(sparts_count(cards("QS"))) == -13);  // "Queen of Spades = -13 points"
    CHECK(total(sparts_count(cards("TH"))) == -10);  // "10 of Hearts = -10 points"
    CHECK(total(sparts_count(cards("2H"))) == -1);   // "All other Hearts = -1 point"
    CHECK(total(sparts_count(cards("AH KH 9H"))) == -3);
    CHECK(total(sparts_count(cards("JD"))) == 10);   // "Jack of Diamonds = +10 points"
    CHECK(total(sparts_count(cards("JC JS QD KS AS TD"))) == 0);  // only the listed cards count
    CHECK(preset_ruleset(Preset::sparts).effective_trick_value() == 10);
    CHECK(sparts_rules(6).effective_trick_value() == 10);
}

// "The player with the most points after an agreed upon number of rounds wins
// the game. Try playing one round for each player in the game."
TEST_CASE("seed 001: by default the game lasts one hand a player") {
    for (int seats : {4, 5, 6}) {
        CAPTURE(seats);
        Table t = open_table(sparts_rules(seats), 0);
        int hands = 0;
        while (!t.game.over()) {
            REQUIRE(++hands <= seats);
            autoplay_hand(t);
        }
        const GameOver go = t.log.last<GameOver>();
        CHECK(go.reason == GameEndReason::hand_limit);
        CHECK(go.hands_played == seats);
        CHECK(go.side_count == seats);
        int best = go.scores[0];
        for (int s = 1; s < seats; ++s) best = std::max(best, go.scores[s]);
        for (int s = 0; s < seats; ++s) CHECK((go.ranks[s] == 1) == (go.scores[s] == best));
        // The deal rotates to the left each hand.
        const auto starts = t.log.all<HandStarted>();
        for (std::size_t h = 0; h < starts.size(); ++h) CHECK(int(starts[h].dealer) == static_cast<int>(h) % seats);
    }
}
