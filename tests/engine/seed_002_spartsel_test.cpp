// The worked examples and rules of seed 002_6640877473972c46.txt (the original
// Sparts / Spartsel rules, preset `spartsel`), driven through the engine. Each
// test quotes the sentence it checks.
#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/sparts_scoring.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

Ruleset spartsel(int seats = 4, int decks = 1, int jokers = 0) {
    Ruleset r = preset_ruleset(Preset::spartsel);
    r.seats = seats;
    r.decks = decks;
    r.jokers = jokers;
    r.hand_size = default_hand_size(seats, decks, jokers);
    return r;
}

std::string refusal(const Ruleset& r) {
    const auto e = validate(r);
    return e ? e->message : std::string();
}

}  // namespace

// "Players- The game can be played with anywhere from 2-10 players." and
// "Typical one deck deals would be: 2 Players 17 ea (18 into center ...) / 3
// Players 17 ea w/1 in center / 4 Players 13 ea (2 in center, w/2 jokers) OR 13
// ea / 5 Players 11 ea (w/3 jokers) OR 10 ea (2 in center) / 6 Players 9 ea (w/2
// jokers) OR 8 ea (4 in center) / 7 Players 7 ea (5 in center w/2 jokers) OR 7
// ea (3 in center). Typical double deck deals would be: 7 Players 15 ea (3 in
// center, w/4 jokers) / 8 Players 13 ea (4 in center, w/4 jokers) OR 13 ea / 9
// Players 12 ea (4 jokers) OR 11 ea (5 in center) / 10 Players 10 ea (6 in
// center, w/3 jokers) OR 10 ea (4 in center)". RULINGS.md: "2-10 players, one or
// two decks, 0-4 jokers ... (the table's 10-player deal ... counts 107 cards: use
// 7 in the center)".
TEST_CASE("seed 002: the deal tables, one and two decks, 2 to 10 players") {
    struct Row {
        int seats, decks, jokers, hand, center;
    };
    const Row rows[] = {
        {2, 1, 0, 17, 18}, {3, 1, 0, 17, 1},  {4, 1, 2, 13, 2},  {4, 1, 0, 13, 0},  {5, 1, 3, 11, 0},
        {5, 1, 0, 10, 2},  {6, 1, 2, 9, 0},   {6, 1, 0, 8, 4},   {7, 1, 2, 7, 5},   {7, 1, 0, 7, 3},
        {7, 2, 4, 15, 3},  {8, 2, 4, 13, 4},  {8, 2, 0, 13, 0},  {9, 2, 4, 12, 0},  {9, 2, 0, 11, 5},
        {10, 2, 3, 10, 7}, {10, 2, 0, 10, 4},
    };
    for (const Row& row : rows) {
        CAPTURE(row.seats);
        CAPTURE(row.decks);
        CAPTURE(row.jokers);
        const Ruleset r = spartsel(row.seats, row.decks, row.jokers);
        CHECK(r.hand_size == row.hand);
        CHECK(r.center_size() == row.center);
        const std::string why = refusal(r);
        CHECK_MESSAGE(why.empty(), "the ruleset is refused: ", why);
        if (!why.empty()) continue;
        Table t = open_table(r, 0);
        const HandStarted hs = t.log.last<HandStarted>();
        CHECK(hs.hand_size == row.hand);
        CHECK(hs.center_size == row.center);
        CHECK(t.game.check_invariants() == "");
    }
}

// "2 Players 17 ea (18 into center, 2 to first trick, 1 to every other)" and
// "Tricks are worth only 5 if there are 2-3 playing cutthroat or teams."
TEST_CASE("seed 002: two players: the first trick takes 2 center cards, every later trick 1") {
    const Ruleset r = spartsel(2);
    const std::string why = refusal(r);
    REQUIRE_MESSAGE(why.empty(), "the ruleset is refused: ", why);
    Table t = open_table(r, 0);
    const HandScored hs = autoplay_hand(t);
    const auto taken = t.log.all<CenterTaken>();
    const auto won = t.log.all<TrickWon>();
    REQUIRE(won.size() == 17);
    REQUIRE(taken.size() == 17);
    for (std::size_t i = 0; i < taken.size(); ++i) {
        CAPTURE(i);
        CHECK(taken[i].count == (i == 0 ? 2 : 1));
        CHECK(taken[i].seat == won[i].winner);
    }
    for (int s = 0; s < 2; ++s) {
        const SideScore& side = hs.sides[s];
        if (side.bid > 0 && side.tricks == side.bid) CHECK(delta(side, ScoreComponent::contract) == 5 * side.bid);
    }
}

// "Lead- The 2 of clubs leads. If no one has the 2 (it is in the center), then
// the 3 leads, and then the 4...." and "The center cards are given to the first
// player capturing a trick with a heart or with the queen of spades. (They only
// score for the count)." and "The queen of spades may be led at any time. Hearts
// may not be led unless any heart or the queen of spades has been played."
TEST_CASE("seed 002: with the 2 of clubs in the center the 3 leads, the queen of spades takes the center") {
    const Ruleset r = spartsel(5);
    REQUIRE(r.hand_size == 10);
    Hands after{};
    after[1] = cards("3C 2S");
    after[2] = cards("4C 3S");
    after[3] = cards("5C KS");
    after[4] = cards("6C 4S");
    after[0] = cards("AC QS");
    Table t = table_after_pass(r, 4, after, {card("2C"), card("JD")});
    bid_all(t, {1, 1, 1, 1, 1});
    CHECK(int(t.log.last<PlayStarted>().leader) == 1);
    CHECK(t.refused(1, Action::play(card("2S"))) == "must_lead_card");
    play_tricks(t, tricks_from({"3C 4C 5C 6C AC"}));
    CHECK(t.log.count<CenterTaken>() == 0);
    REQUIRE(int(t.turn()) == 0);
    CHECK(t.game.legal_moves(0).cards.contains(card("QS")));
    CHECK_FALSE(t.game.legal_moves(0).cards.intersects(CardSet::suit(Suit::hearts)));
    t.play("QS");
    CHECK(t.log.count<HeartsBroken>() == 1);  // the queen of spades counts as a heart played
    play_tricks(t, tricks_from({"2S 3S KS 4S"}));
    CHECK(int(t.log.last<TrickWon>().winner) == 3);  // the king beats the queen
    REQUIRE(t.log.count<CenterTaken>() == 1);
    CHECK(int(t.log.last<CenterTaken>().seat) == 3);
    CHECK(t.log.last<CenterTaken>().cards == cards("2C JD"));
    const HandScored hs = autoplay_hand(t);
    CHECK(delta(hs.sides[3], ScoreComponent::jack_of_diamonds) == 10);
    CHECK(delta(hs.sides[3], ScoreComponent::queen_of_spades) == -13);
}

// "Miscellaneous- If you have a suit, you must play it or a joker. If you do not,
// you may play any card. The queen of spades may be led at any time. Hearts may
// not be led unless any heart or the queen of spades has been played." and
// "Trump- Spades are always trump (thus the worst card, the queen, is also the
// third highest card in the deck)."
TEST_CASE("seed 002: hearts may be led once the queen of spades has been played, the queen is the third highest card") {
    const Ruleset r = spartsel(4);
    Hands after{};
    after[0] = cards("2C KS 6H 2D");
    after[1] = cards("3C 2S 3D");
    after[2] = cards("4C 3S");
    after[3] = cards("AC QS 5H");
    Table t = table_after_pass(r, 3, after);
    bid_all(t, {1, 1, 1, 1});
    play_tricks(t, tricks_from({"2C 3C 4C AC"}));
    REQUIRE(int(t.turn()) == 3);
    CHECK(t.refused(3, Action::play(card("5H"))) == "hearts_not_broken");
    t.play("QS");
    CHECK(t.state().hearts_broken);
    CHECK(t.refused(0, Action::play(card("2D"))) == "must_follow_suit");
    t.play("KS");
    CHECK(t.refused(1, Action::play(card("3D"))) == "must_follow_suit");
    t.play("2S");
    t.play("3S");
    CHECK(int(t.log.last<TrickWon>().winner) == 0);
    t.play("6H");  // hearts may now be led
    CHECK(t.log.last<CardPlayed>().card == card("6H"));
}

// "Joker- The joker is a veery wild card. If it is led, it always wins the
// trick; if it is played after the lead, it will never win. It is all suits.
// Thus, if a joker is led, all other players can play any card (queen of
// spades, 10 of hearts...). If another card is led, it can be played instead of
// playing one of your other cards of the same suit." RULINGS.md: "A second joker
// in a trick also never wins."
TEST_CASE("seed 002: jokers: led, a joker wins, played later, it never wins, it may replace following suit") {
    const Ruleset r = spartsel(4, 1, 2);
    REQUIRE(r.hand_size == 13);
    REQUIRE(r.center_size() == 2);
    SUBCASE("a led joker wins over trumps and a second joker; the others play anything") {
        Hands after{};
        after[0] = cards("2C 5C AS");
        after[1] = cards("3C JK2");
        after[2] = cards("4C 2H");
        after[3] = cards("AC JK1");
        Table t = table_after_pass(r, 3, after);
        bid_all(t, {1, 1, 1, 1});
        play_tricks(t, tricks_from({"2C 3C 4C AC"}));
        REQUIRE(int(t.turn()) == 3);
        t.play("JK1");
        CHECK(t.game.legal_moves(0).cards == t.state().hands[0]);  // clubs held, anything goes
        t.play("AS");
        t.play("JK2");
        CHECK(t.game.legal_moves(2).cards == t.state().hands[2]);
        t.play("2H");
        CHECK(int(t.log.last<TrickWon>().winner) == 3);
    }
    SUBCASE("a joker played on a club lead replaces following suit and never wins") {
        Hands after{};
        after[0] = cards("2C 6C JK1 2D");
        after[1] = cards("3C 7C");
        after[2] = cards("4C 8C");
        after[3] = cards("AC 5C");
        Table t = table_after_pass(r, 3, after);
        bid_all(t, {1, 1, 1, 1});
        play_tricks(t, tricks_from({"2C 3C 4C AC"}));
        REQUIRE(int(t.turn()) == 3);
        t.play("5C");
        const CardSet legal = t.game.legal_moves(0).cards;
        CHECK(legal.contains(card("JK1")));
        CHECK(legal.contains(card("6C")));
        CHECK_FALSE(legal.contains(card("2D")));
        CHECK(t.refused(0, Action::play(card("2D"))) == "must_follow_suit");
        t.play("JK1");
        t.play("7C");
        t.play("8C");
        CHECK(int(t.log.last<TrickWon>().winner) == 2);
    }
    // "It has no count" (RULINGS.md).
    CHECK(total(sparts_count(cards("JK1 JK2"))) == 0);
}

// "If playing Spartsel, the dealer cannot declare a number that would make the
// total declared equal to the number available." and "Bid- Starting with the
// person to the dealers left, each person declares how many tricks they will
// take."
TEST_CASE("seed 002: the Spartsel dealer may not make the bids total the tricks") {
    auto bidding_table = [](Seat dealer) {
        Table t = open_table(spartsel(4), dealer);
        autoplay_step(t);  // the pass
        REQUIRE(t.game.phase() == Phase::bidding);
        CHECK(int(t.log.last<BiddingStarted>().first) == (dealer + 1) % 4);
        return t;
    };
    SUBCASE("3 + 4 + 5: the dealer may not bid 1") {
        Table t = bidding_table(0);
        t.bid(3);
        t.bid(4);
        t.bid(5);
        REQUIRE(int(t.turn()) == 0);
        CHECK(t.refused(0, Action::make_bid(1)) == "dealer_cannot_make_total");
        CHECK(t.game.legal_moves(0).bids == (((1u << 14) - 1) & ~(1u << 1)));
        t.bid(2);
        CHECK(t.game.phase() == Phase::playing);
    }
    SUBCASE("13 + 0 + 0: the dealer may not bid 0") {
        Table t = bidding_table(2);
        t.bid(13);  // the others may bid anything
        t.bid(0);
        t.bid(0);
        REQUIRE(int(t.turn()) == 2);
        CHECK(t.refused(2, Action::make_bid(0)) == "dealer_cannot_make_total");
        t.bid(1);
    }
    SUBCASE("bids already over 13: the dealer bids freely") {
        Table t = bidding_table(1);
        t.bid(5);
        t.bid(5);
        t.bid(5);
        CHECK(t.game.legal_moves(1).bids == (1u << 14) - 1);
        t.bid(0);
    }
    SUBCASE("not in Sparts") {
        Table t = open_table(preset_ruleset(Preset::sparts), 0);
        autoplay_step(t);
        t.bid(3);
        t.bid(4);
        t.bid(5);
        t.bid(1);
        CHECK(t.game.phase() == Phase::playing);
    }
}

// "Tricks Sparts Spartsel / Bid and make 0 +10* +10 / Ea trick bid & taken +10
// +10 / Ea extra trick +1 n/a / Not making bid -10* n/a / Not making exact n/a
// -10 / Queen of spades -13 -13 / 10 of hearts -10 -10 / Ea hearts (except 10)
// -1 -1 / Jack of diamonds +10 +10" and "* If you bid zero, then you must make
// exactly zero to get +10. If you make one or more tricks, then you do not make
// your bid, -10."
TEST_CASE("seed 002: the scoring table, row by row, both columns") {
    struct Row {
        const char* row;
        int bid, tricks;
        int sparts, spartsel;
    };
    const Row rows[] = {
        {"Bid and make 0", 0, 0, 10, 10},
        {"Ea trick bid & taken (1)", 1, 1, 10, 10},
        {"Ea trick bid & taken (5)", 5, 5, 50, 50},
        {"Ea extra trick", 3, 5, 32, -10},
        {"Ea extra trick (one)", 3, 4, 31, -10},
        {"Not making bid", 3, 2, -10, -10},
        {"Not making bid, by a lot", 8, 1, -10, -10},
        {"* bid zero, made one", 0, 1, -10, -10},
        {"* bid zero, made four", 0, 4, -10, -10},
    };
    for (const Row& row : rows) {
        CAPTURE(row.row);
        CHECK(total(sparts_trick_score(row.bid, row.tricks, ScoringColumn::sparts, 10)) == row.sparts);
        CHECK(total(sparts_trick_score(row.bid, row.tricks, ScoringColumn::spartsel, 10)) == row.spartsel);
    }
    const ScoreSheet over = sparts_trick_score(3, 5, ScoringColumn::sparts, 10);
    CHECK(get(over, ScoreComponent::contract) == 30);
    CHECK(get(over, ScoreComponent::overtricks) == 2);
    CHECK(get(sparts_trick_score(0, 0, ScoringColumn::spartsel, 10), ScoreComponent::zero_bid) == 10);

    CHECK(get(sparts_count(cards("QS")), ScoreComponent::queen_of_spades) == -13);
    CHECK(get(sparts_count(cards("TH")), ScoreComponent::ten_of_hearts) == -10);
    CHECK(get(sparts_count(cards("TH")), ScoreComponent::hearts) == 0);
    CHECK(get(sparts_count(cards("2H 9H JH AH")), ScoreComponent::hearts) == -4);
    CHECK(get(sparts_count(cards("JD")), ScoreComponent::jack_of_diamonds) == 10);
    CHECK(total(sparts_count(cards("QS TH 2H JD 2C AS"))) == -13 - 10 - 1 + 10);
}

// "The count is based on the cards in the tricks taken (and those in center if
// you took them) and should total -25 for all hands."
TEST_CASE("seed 002: the count of a deck totals -25") {
    CHECK(total(sparts_count(CardSet::deck(1, 0))) == -25);
    CHECK(total(sparts_count(CardSet::deck(1, 3))) == -25);  // jokers count nothing
    CHECK(total(sparts_count(CardSet::deck(2, 4))) == -50);  // both decks' copies count
    // And so it is for every hand played, center included.
    for (int seats : {4, 5, 6, 7}) {
        CAPTURE(seats);
        Table t = open_table(ruleset("spartsel", {{"seats", std::to_string(seats)}}), 0);
        const HandScored hs = autoplay_hand(t);
        int count = 0;
        for (int s = 0; s < seats; ++s)
            for (ScoreComponent c : {ScoreComponent::hearts, ScoreComponent::queen_of_spades,
                                     ScoreComponent::ten_of_hearts, ScoreComponent::jack_of_diamonds})
                count += delta(hs.sides[s], c);
        CHECK(count == -25);
    }
}

// "The score for tricks bid and changes depending on the number of people
// playing. (Failing to make your bid is always -10.) Tricks are worth only 5 if
// there are 2-3 playing cutthroat or teams. Tricks are worth 15 if there are: a)
// 6-10 playing cutthroat, or b) 7 playing single deck teams, or c) 10 playing
// teams."
TEST_CASE("seed 002: the trick value by table size") {
    auto value = [](int seats, bool teams, int decks = 1) {
        Ruleset r = preset_ruleset(Preset::spartsel);
        r.seats = seats;
        r.decks = decks;
        r.partnership = teams ? Partnership::across : Partnership::none;
        return r.effective_trick_value();
    };
    for (int seats : {2, 3}) {
        CAPTURE(seats);
        CHECK(value(seats, false) == 5);
        CHECK(value(seats, true) == 5);
    }
    CHECK(value(4, false) == 10);
    CHECK(value(5, false) == 10);
    for (int seats = 6; seats <= 10; ++seats) {
        CAPTURE(seats);
        CHECK(value(seats, false, seats > 7 ? 2 : 1) == 15);
    }
    CHECK(value(4, true) == 10);
    CHECK(value(6, true) == 10);
    CHECK(value(7, true, 1) == 15);
    CHECK(value(7, true, 2) == 10);
    CHECK(value(8, true, 2) == 10);
    CHECK(value(9, true, 2) == 10);
    CHECK(value(10, true, 2) == 15);
    // RULINGS.md: "the `sparts` preset always values a trick bid at 10".
    Ruleset s = preset_ruleset(Preset::sparts);
    s.seats = 6;
    CHECK(s.effective_trick_value() == 10);
}

// The same, in a played hand: six players cutthroat, so an exact bid is worth 15
// a trick, and a miss is still -10.
TEST_CASE("seed 002: six players cutthroat: each trick bid and taken is worth 15") {
    bool exact_seen = false;
    for (Seat dealer = 0; dealer < 6 && !exact_seen; ++dealer) {
        Table t = open_table(ruleset("spartsel", {{"seats", "6"}}), dealer);
        const HandScored hs = autoplay_hand(t);
        for (int s = 0; s < 6; ++s) {
            CAPTURE(s);
            const SideScore& side = hs.sides[s];
            if (side.bid == side.tricks) {
                CHECK(delta(side, side.bid == 0 ? ScoreComponent::zero_bid : ScoreComponent::contract) ==
                      (side.bid == 0 ? 10 : 15 * side.bid));
                exact_seen = exact_seen || side.bid > 0;
            } else {
                CHECK(delta(side, ScoreComponent::set) == -10);
                CHECK(delta(side, ScoreComponent::overtricks) == 0);
            }
        }
    }
    CHECK(exact_seen);
}

// The Spartsel column in a played hand: "Ea trick bid & taken +10", "Not making
// exact -10", "Bid and make 0 +10", with the count.
TEST_CASE("seed 002: a Spartsel hand played out: exact bids only") {
    const Ruleset r = spartsel(4);
    const Tricks tricks = layout_tricks(Layout::sparts, 0, {1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 2, 2});
    const ScriptDeal sd = deal_from_script(4, 0, tricks, true);
    Table t = table_after_pass(r, 3, sd.hands);
    bid_all(t, {0, 3, 2, 6});  // the dealer (seat 3) bids last: 0 + 3 + 2 + 6 = 11
    play_tricks(t, tricks);
    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.sides[0].hand_total == 10);              // bid 0, took 0
    CHECK(hs.sides[1].hand_total == 30);              // bid 3, took 3
    CHECK(delta(hs.sides[2], ScoreComponent::set) == -10);  // bid 2, took 4: not exact
    CHECK(delta(hs.sides[2], ScoreComponent::overtricks) == 0);
    CHECK(hs.sides[2].hand_total == -10 - 14);        // and the 10, J, Q, K, A of hearts
    CHECK(delta(hs.sides[3], ScoreComponent::contract) == 60);  // bid 6, took 6
    CHECK(hs.sides[3].hand_total == 60 + 10 - 13 - 8);  // jack, queen, 8 hearts
}

// "Order of Play- There is the deal, then the pass, then the bid, then the play
// (tricks) and finally scoring. Rotate the deal to the left and repeat." and
// "Pass- ... Traditionally, the first pass is 1 person to your left, then 2
// people to the left etc. until you would 'pass to yourself', and that is a
// 'no-pass' hand."
TEST_CASE("seed 002: deal, pass, bid, play, score, the deal rotates left") {
    Table t = open_table(spartsel(5), 2);
    for (int h = 0; h < 5; ++h) autoplay_hand(t);
    CHECK(t.game.over());  // one hand a player by default
    std::vector<std::string> order;
    for (const Event& e : t.log.events) {
        const std::string name = event_name(e);
        if (name == "hand_started" || name == "passing_started" || name == "bidding_started" ||
            name == "play_started" || name == "hand_scored")
            order.push_back(name);
    }
    const std::vector<std::string> one = {"hand_started", "passing_started", "bidding_started", "play_started",
                                          "hand_scored"};
    REQUIRE(order.size() == 25);
    for (std::size_t i = 0; i < order.size(); ++i) CHECK(order[i] == one[i % 5]);
    std::vector<int> dealers, distances;
    for (const auto& h : t.log.all<HandStarted>()) dealers.push_back(h.dealer);
    for (const auto& p : t.log.all<PassingStarted>()) distances.push_back(p.distance);
    CHECK(dealers == std::vector<int>{2, 3, 4, 0, 1});
    CHECK(distances == std::vector<int>{1, 2, 3, 4, 0});
}

// "Progressive Partners- ... Your partner is the person 2 to you left. ... Your
// partnership bid and score is the combination of yours and your partners. By
// example for 5 players (A, B, C, D & E):
//   A 2 3 2 2 -10 -2 -2 -12 / B 4 7 5 7 +70 -18 -24 +46 / C 1 2 0 1 -10 0 +10 0 /
//   D 3 5 2 4 -10 -6 -8 -18 / E 1 5 1 6 +51 +10 -8 +43
// A bids 2 and C bids 1, so A's contract is for 3. ... A took 2 and C took 0, so
// A got 2 towards his contract, so he is down."
// The engine has no progressive-partners option yet; this checks the table's
// arithmetic with the Sparts column (trick value 10 with 5 players).
TEST_CASE("seed 002: the progressive partners example, by the Sparts column") {
    struct Row {
        char name;
        int bid, contract, took, got, trick_score, count, partnership_count, total;
    };
    const Row rows[] = {
        {'A', 2, 3, 2, 2, -10, -2, -2, -12},  {'B', 4, 7, 5, 7, 70, -18, -24, 46}, {'C', 1, 2, 0, 1, -10, 0, 10, 0},
        {'D', 3, 5, 2, 4, -10, -6, -8, -18}, {'E', 1, 5, 1, 6, 51, 10, -8, 43},
    };
    for (int i = 0; i < 5; ++i) {
        const Row& me = rows[i];
        const Row& partner = rows[(i + 2) % 5];  // "the person 2 to you left"
        CAPTURE(me.name);
        CHECK(me.contract == me.bid + partner.bid);
        CHECK(me.got == me.took + partner.took);
        CHECK(me.partnership_count == me.count + partner.count);
        const ScoreSheet tricks = sparts_trick_score(me.contract, me.got, ScoringColumn::sparts, 10);
        CHECK(total(tricks) == me.trick_score);
        CHECK(total(tricks) + me.partnership_count == me.total);
    }
}
