// The worked examples and rules of seed 000_45a85ab175f39f89.txt (Board Game
// Arena's Sparts, preset `bga-sparts`), driven through the engine. Each test
// quotes the sentence it checks.
#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/hearts_scoring.hpp"
#include "engine/spades_scoring.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

Ruleset bga(std::vector<OptionSetting> options = {}) { return ruleset("bga-sparts", std::move(options)); }

// The seat holding the 7 of diamonds chooses the hand's game.
void choose(Table& t, HandKind kind) {
    REQUIRE(t.game.phase() == Phase::choosing);
    t.ok(t.turn(), Action::choose(kind));
}

}  // namespace

// "The player holding the 7 of diamonds chooses whether to play Spades or Hearts
// for that hand only."
TEST_CASE("seed 000: the holder of the 7 of diamonds chooses Spades or Hearts, for that hand only") {
    const Ruleset r = bga({{"game_length", "800"}});
    Hands first{}, second{};
    first[2] = cards("7D");
    second[3] = cards("7D");
    Table t = open_table(r, 0, {complete_deal(r, first), complete_deal(r, second)});

    CHECK(t.game.phase() == Phase::choosing);
    CHECK(int(t.log.last<ChoiceStarted>().chooser) == 2);
    CHECK(t.log.last<HandStarted>().kind == HandKind::undecided);
    CHECK(t.refused(1, Action::choose(HandKind::spades)) == "not_your_turn");
    CHECK(t.refused(2, Action::choose(HandKind::sparts)) == "invalid_choice");
    CHECK(t.refused(2, Action::make_bid(3)) == "wrong_phase");
    const LegalMoves m = t.game.legal_moves(2);
    CHECK(m.kind == ActionKind::choose);
    CHECK(m.choose_spades);
    CHECK(m.choose_hearts);
    CHECK_FALSE(t.game.legal_moves(1).any);

    t.ok(2, Action::choose(HandKind::hearts));
    CHECK(t.log.last<HandKindChosen>().kind == HandKind::hearts);
    CHECK(t.game.phase() == Phase::passing);  // a Hearts hand passes first

    const HandScored hs = autoplay_hand(t, HandKind::hearts);
    CHECK(hs.kind == HandKind::hearts);
    // The next hand is chosen afresh, by the new holder of the 7 of diamonds.
    CHECK(t.game.phase() == Phase::choosing);
    REQUIRE(t.log.count<ChoiceStarted>() == 2);
    CHECK(int(t.log.all<ChoiceStarted>()[1].chooser) == 3);
    t.ok(3, Action::choose(HandKind::spades));
    CHECK(t.game.phase() == Phase::bidding);  // a Spades hand has no pass
    CHECK(t.log.count<PassingStarted>() == 1);
}

// "The bid must be at least 2 and may be as high as the number of cards in your
// hand (13 for a four-person game). It's also possible to bid nil (zero) ...
// You cannot bid 1. Bids are made in turn order, starting with the first player
// and proceeding clockwise (left) around the table."
TEST_CASE("seed 000: Spades bids are nil or 2 to 13, never 1, in turn from the dealer's left") {
    Table t = open_table(bga(), 0);
    choose(t, HandKind::spades);
    CHECK(int(t.log.last<BiddingStarted>().first) == 1);
    CHECK(int(t.turn()) == 1);
    CHECK(t.refused(2, Action::make_bid(3)) == "not_your_turn");
    CHECK(t.refused(1, Action::make_bid(1)) == "bid_out_of_range");
    CHECK(t.refused(1, Action::make_bid(14)) == "bid_out_of_range");
    CHECK(t.refused(1, Action::make_bid(-1)) == "bid_out_of_range");
    std::uint32_t expected = 1u;  // nil
    for (int b = 2; b <= 13; ++b) expected |= 1u << b;
    CHECK(t.game.legal_moves(1).bids == expected);

    t.ok(1, Action::make_bid(0));
    CHECK(t.log.last<BidMade>().nil);
    t.ok(2, Action::make_bid(2));
    CHECK_FALSE(t.log.last<BidMade>().nil);
    t.ok(3, Action::make_bid(13));
    t.ok(0, Action::make_bid(5));
    // "After everyone has bid, the first player plays a card to start the trick."
    CHECK(t.game.phase() == Phase::playing);
    CHECK(int(t.log.last<PlayStarted>().leader) == 1);
}

// "You must follow suit if you can ... If not, you can play a card of any other
// suit, including a spade. ... If there are spades on the trick, the highest
// spade is the winner." and "When the first spade is played on a trick, it is
// called breaking spades ... if spades have not been broken, they cannot be led."
TEST_CASE("seed 000: follow suit, spades trump, and spades cannot be led until broken") {
    const Ruleset r = bga();
    Hands h{};
    h[1] = cards("2D KS");      // the first player (dealer's left)
    h[2] = cards("5D 3C");
    h[3] = cards("2S 3S");      // no diamonds
    h[0] = cards("AD");
    std::array<unsigned, kMaxSeats> avoid{};
    avoid[3] = no(Suit::diamonds);
    Table t = open_table(r, 0, {complete_deal(r, h, {}, avoid)});
    choose(t, HandKind::spades);
    bid_all(t, {2, 2, 2, 2});

    REQUIRE(int(t.turn()) == 1);
    CHECK(t.refused(1, Action::play(card("KS"))) == "spades_not_broken");
    CHECK_FALSE(t.game.legal_moves(1).cards.intersects(CardSet::suit(Suit::spades)));
    t.play("2D");
    CHECK(t.refused(2, Action::play(card("3C"))) == "must_follow_suit");
    t.play("5D");
    // Seat 3 has no diamond: anything goes, a spade included.
    CHECK(t.game.legal_moves(3).cards == t.state().hands[3]);
    t.play("2S");
    CHECK(t.log.count<SpadesBroken>() == 1);
    CHECK(int(t.log.last<SpadesBroken>().seat) == 3);
    t.play("AD");
    const TrickWon won = t.log.last<TrickWon>();
    CHECK(int(won.winner) == 3);  // the 2 of spades beats the ace of diamonds
    // Spades are broken: the winner may lead one.
    REQUIRE(int(t.turn()) == 3);
    t.play("3S");
    CHECK(t.log.last<CardPlayed>().card == card("3S"));
}

// "The only exception is if a player has only spades remaining in their hand,
// because obviously they have no choice but to play one."
TEST_CASE("seed 000: a hand of only spades may lead a spade before spades are broken") {
    const Ruleset r = bga();
    Hands h{};
    h[1] = CardSet::suit(Suit::spades) & CardSet::deck(1, 0);
    Table t = open_table(r, 0, {complete_deal(r, h)});
    choose(t, HandKind::spades);
    bid_all(t, {0, 13, 0, 0});
    REQUIRE(int(t.turn()) == 1);
    CHECK(t.game.legal_moves(1).cards == h[1]);
    t.play("2S");
    CHECK(t.log.count<SpadesBroken>() == 1);
}

// "If you made or exceeded your bid, you receive 10 times your bid. Any tricks
// above the bid count as 1 point each. For example, if you bid 3 and took 4
// tricks, you'll receive 31 points ... A bid of nil (zero) is worth 50 points."
// "If you do not make your bid, you lose 10 times your bid. For instance, if
// you've bid 3 and only took 2, you'll be penalized 30 points ... Losing a nil
// bid by taking one or more tricks will penalize you 50 points. If you lose a nil
// bid, the extra tricks you've taken are not counted as bags."
TEST_CASE("seed 000: a Spades hand played out: 3 taking 4 = 31, 3 taking 2 = -30, nil +50, failed nil -50 without bags") {
    const Ruleset r = bga();
    const int D = 0, A = 1, B = 2, C = 3;  // D deals, A bids first and leads
    const Tricks tricks = layout_tricks(Layout::spades, A, {A, A, A, A, B, B, D, D, D, D, D, D, D});
    const ScriptDeal sd = deal_from_script(4, A, tricks, true);
    Table t = open_table(r, D, {stacked(sd.hands)});
    choose(t, HandKind::spades);
    std::array<int, kMaxSeats> bids{};
    bids[A] = 3, bids[B] = 3, bids[C] = 0, bids[D] = 0;
    bid_all(t, bids);
    play_tricks(t, tricks);

    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.kind == HandKind::spades);
    REQUIRE(hs.side_count() == 4);
    const SideScore& a = hs.sides[A];
    CHECK(a.tricks == 4);
    CHECK(delta(a, ScoreComponent::contract) == 30);
    CHECK(delta(a, ScoreComponent::overtricks) == 1);
    CHECK(a.hand_total == 31);
    CHECK(a.bags == 1);
    const SideScore& b = hs.sides[B];
    CHECK(b.tricks == 2);
    CHECK(delta(b, ScoreComponent::set) == -30);
    CHECK(b.hand_total == -30);
    CHECK(b.bags == 0);
    const SideScore& c = hs.sides[C];
    CHECK(c.tricks == 0);
    CHECK(delta(c, ScoreComponent::nil) == 50);
    CHECK(c.hand_total == 50);
    CHECK(c.nils_made == 1);
    const SideScore& d = hs.sides[D];
    CHECK(d.tricks == 7);
    CHECK(delta(d, ScoreComponent::nil) == -50);
    CHECK(delta(d, ScoreComponent::overtricks) == 0);
    CHECK(d.hand_total == -50);
    CHECK(d.bags == 0);  // the failed nil's seven tricks are not bags
    CHECK(t.log.count<BagPenalty>() == 0);
    for (int s = 0; s < 4; ++s) CHECK(hs.sides[s].score == hs.sides[s].hand_total);
}

// The same sentences, on the scoring function alone, with the strategy tip
// "Nil is higher risk, but higher reward: it's worth the same number of points
// as bidding 5 tricks."
TEST_CASE("seed 000: BGA Spades scoring table") {
    const SpadesScoring rules{10, 50, false};
    struct Row {
        int bid;
        bool nil;
        int tricks;
        int total;
        int bags;
    };
    const Row rows[] = {
        {3, false, 4, 31, 1},   // "bid 3 and took 4 tricks, you'll receive 31 points"
        {3, false, 2, -30, 0},  // "bid 3 and only took 2, you'll be penalized 30 points"
        {0, true, 0, 50, 0},    // "A bid of nil (zero) is worth 50 points."
        {0, true, 1, -50, 0},   // "Losing a nil bid ... will penalize you 50 points"
        {0, true, 5, -50, 0},   // "... the extra tricks you've taken are not counted as bags."
        {5, false, 5, 50, 0},   // nil "is worth the same number of points as bidding 5 tricks"
        {13, false, 13, 130, 0},
    };
    for (const Row& row : rows) {
        CAPTURE(row.bid);
        CAPTURE(row.nil);
        CAPTURE(row.tricks);
        const SpadesBidder bidder{row.bid, row.nil, row.tricks};
        const auto res = score_spades_side(std::span(&bidder, 1), rules);
        CHECK(total(res.sheet) == row.total);
        CHECK(res.overtricks == row.bags);
    }
}

// "200-point game = 4 bags or more, penalty 40 points" and RULINGS.md: "Bags are
// cumulative: once a player's bags reach the threshold ... they lose the penalty
// ... and the threshold is taken off their bag count."
TEST_CASE("seed 000: bags carry over hands, 4 bags in a 200 game cost 40 and come off the count") {
    const Ruleset r = bga();
    const int D = 0, A = 1, B = 2, C = 3;
    // Both hands: A takes 5, B 2, C 2, D 4; everyone bids 2.
    const std::array<int, 13> w = {B, B, C, C, D, D, D, A, A, A, A, D, A};
    const Tricks hand1 = layout_tricks(Layout::spades, A, w);  // dealer D: A leads
    const Tricks hand2 = layout_tricks(Layout::spades, B, w);  // dealer A: B leads
    const ScriptDeal d1 = deal_from_script(4, A, hand1, true);
    const ScriptDeal d2 = deal_from_script(4, B, hand2, true);
    Table t = open_table(r, D, {stacked(d1.hands), stacked(d2.hands)});

    choose(t, HandKind::spades);
    bid_all(t, {2, 2, 2, 2});
    play_tricks(t, hand1);
    const HandScored h1 = t.log.last<HandScored>();
    CHECK(h1.sides[A].hand_total == 23);
    CHECK(h1.sides[A].bags == 3);
    CHECK(h1.sides[D].hand_total == 22);
    CHECK(h1.sides[D].bags == 2);
    CHECK(t.log.count<BagPenalty>() == 0);

    choose(t, HandKind::spades);
    CHECK(int(t.log.last<BiddingStarted>().first) == B);
    bid_all(t, {2, 2, 2, 2});
    play_tricks(t, hand2);
    const HandScored h2 = t.log.last<HandScored>();
    // A: 3 + 3 = 6 bags: -40 once, 2 bags left. D: 2 + 2 = 4: -40, none left.
    CHECK(delta(h2.sides[A], ScoreComponent::bag_penalty) == -40);
    CHECK(h2.sides[A].hand_total == 23 - 40);
    CHECK(h2.sides[A].bags == 2);
    CHECK(h2.sides[A].score == 23 + 23 - 40);
    CHECK(delta(h2.sides[D], ScoreComponent::bag_penalty) == -40);
    CHECK(h2.sides[D].bags == 0);
    CHECK(h2.sides[B].hand_total == 20);
    CHECK(delta(h2.sides[B], ScoreComponent::bag_penalty) == 0);
    const auto penalties = t.log.all<BagPenalty>();
    REQUIRE(penalties.size() == 2);
    for (const BagPenalty& p : penalties) {
        CHECK(p.times == 1);
        CHECK(p.points == 40);
        CHECK_FALSE(p.to_opponents);
    }
}

// "400-point game = 8 bags or more, penalty 80 points" / "800-point game = 8
// bags or more, penalty 80 points"
TEST_CASE("seed 000: 8 bags cost 80 in a 400 game") {
    const Ruleset r = bga({{"game_length", "400"}});
    const int D = 0, A = 1, B = 2, C = 3;
    const Tricks tricks = layout_tricks(Layout::spades, A, {D, D, D, A, A, A, A, A, A, A, A, A, A});
    const ScriptDeal sd = deal_from_script(4, A, tricks, true);
    Table t = open_table(r, D, {stacked(sd.hands)});
    choose(t, HandKind::spades);
    std::array<int, kMaxSeats> bids{};
    bids[A] = 2, bids[B] = 0, bids[C] = 0, bids[D] = 3;
    bid_all(t, bids);
    play_tricks(t, tricks);
    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.sides[A].tricks == 10);
    CHECK(delta(hs.sides[A], ScoreComponent::overtricks) == 8);
    CHECK(delta(hs.sides[A], ScoreComponent::bag_penalty) == -80);
    CHECK(hs.sides[A].hand_total == 20 + 8 - 80);
    CHECK(hs.sides[A].bags == 0);
    CHECK(hs.sides[B].hand_total == 50);
    CHECK(hs.sides[C].hand_total == 50);
    CHECK(hs.sides[D].hand_total == 30);
    const BagPenalty p = t.log.last<BagPenalty>();
    CHECK(int(p.side) == A);
    CHECK(p.points == 80);
}

// "There are three options for the length of the game: 200 points, 400 points,
// or 800 points." with the bag table: "200-point game = 4 bags or more, penalty
// 40 points; 400-point game = 8 bags or more, penalty 80 points; 800-point game
// = 8 bags or more, penalty 80 points"
TEST_CASE("seed 000: game lengths 200, 400, 800 and their bag thresholds") {
    struct Row {
        const char* length;
        int threshold;
        int points;
    };
    for (const Row& row : {Row{"200", 4, 40}, Row{"400", 8, 80}, Row{"800", 8, 80}}) {
        CAPTURE(row.length);
        const Ruleset r = bga({{"game_length", row.length}});
        CHECK(r.target_score == std::stoi(row.length));
        CHECK(r.bag_threshold == row.threshold);
        CHECK(r.bag_points == row.points);
        // Bags below the threshold are kept; reaching it costs one penalty.
        CHECK(count_bags(0, row.threshold - 1, r.bag_threshold).times == 0);
        const auto at = count_bags(row.threshold - 1, 1, r.bag_threshold);
        CHECK(at.times == 1);
        CHECK(at.bags_after == 0);
        const auto over = count_bags(row.threshold - 1, 3, r.bag_threshold);
        CHECK(over.times == 1);
        CHECK(over.bags_after == 2);
    }
    CHECK(preset_ruleset(Preset::bga_sparts).target_score == 200);
    auto bad = make_ruleset("bga-sparts", std::vector<OptionSetting>{{"game_length", "300"}});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == ErrorCode::invalid_option_value);
}

// "All players are awarded 40 points. Then, each heart they took during the
// hand subtracts 2 from that score. ... If you took 10 hearts, as above, and the
// queen of spades, your score will be -6: 40 minus 20 for the hearts, minus the
// additional 26 for the queen. If you take no tricks at all during the hand, you
// receive 50 points instead of the usual 40."
TEST_CASE("seed 000: a Hearts hand played out: 10 hearts and the queen = -6, no tricks = 50") {
    const Ruleset r = bga();
    const int D = 0, A = 1, B = 2, C = 3;  // A leads (Sparts mode: the dealer's left)
    Hands after{};
    after[A] = cards("5C 6C 7C 8C 9C TC JC QC KC AC 2S 3S 4S");
    after[B] = cards("2C 3C 4C 2D 3D 4D 5D 6D 7D 8D JS KS AS");
    after[C] = CardSet::suit(Suit::hearts) & CardSet::deck(1, 0);
    after[D] = cards("9D TD JD QD KD AD 5S 6S 7S 8S 9S TS QS");
    // A runs ten clubs; C throws ten hearts on them and D the queen of spades.
    // Then B takes the last three tricks with its spades, and C's last hearts.
    const Tricks tricks = tricks_from({
        "AC 2C 2H 9D", "KC 3C 3H TD", "QC 4C 4H JD", "JC 2D 5H QD", "TC 3D 6H KD",
        "9C 4D 7H AD", "8C 5D 8H 8S", "7C 6D 9H 9S", "6C 7D TH TS", "5C 8D JH QS",
        "2S JS QH 5S", "KS KH 6S 3S", "AS AH 7S 4S",
    });
    const ScriptDeal sd = deal_from_script(4, A, tricks, false);
    for (int s = 0; s < 4; ++s) REQUIRE(sd.hands[s] == after[s]);
    const PassPlan plan = plan_pass(after, 4, 4, 1);  // the first Hearts hand passes 4 to the left
    Table t = open_table(r, D, {stacked(plan.dealt)});
    choose(t, HandKind::hearts);
    const PassingStarted ps = t.log.last<PassingStarted>();
    CHECK(ps.count == 4);
    CHECK(ps.distance == 1);
    pass_all(t, plan);
    CHECK(t.game.phase() == Phase::playing);  // no bidding in a Hearts hand
    CHECK(int(t.log.last<PlayStarted>().leader) == A);
    play_tricks(t, tricks);

    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.kind == HandKind::hearts);
    const SideScore& a = hs.sides[A];
    CHECK(a.tricks == 10);
    CHECK(delta(a, ScoreComponent::base) == 40);
    CHECK(delta(a, ScoreComponent::hearts) == -20);
    CHECK(delta(a, ScoreComponent::queen_of_spades) == -26);
    CHECK(a.hand_total == -6);
    CHECK(hs.sides[B].tricks == 3);
    CHECK(hs.sides[B].hand_total == 40 - 6);
    CHECK(delta(hs.sides[C], ScoreComponent::no_tricks) == 10);
    CHECK(hs.sides[C].hand_total == 50);
    CHECK(hs.sides[D].hand_total == 50);
}

// "However, if any player takes all 13 hearts and the queen of spades (all the
// penalty cards), that player receives 50 points and all other players receive
// none." and "There is no trump suit, so the highest card in the suit that was
// led is the one that takes the trick."
TEST_CASE("seed 000: shooting the moon gives 50 and everyone else 0, spades do not trump in Hearts") {
    const Ruleset r = bga();
    const int D = 0, A = 1, B = 2, C = 3;
    Tricks tricks;
    for (int i = 0; i < 13; ++i) {
        const Rank rank = static_cast<Rank>(i);
        tricks.push_back({Card::of(rank, Suit::clubs), Card::of(rank, Suit::diamonds), Card::of(rank, Suit::hearts),
                          Card::of(rank, Suit::spades)});
    }
    const ScriptDeal sd = deal_from_script(4, A, tricks, false);
    const PassPlan plan = plan_pass(sd.hands, 4, 4, 1);
    Table t = open_table(r, D, {stacked(plan.dealt)});
    choose(t, HandKind::hearts);
    pass_all(t, plan);
    play_tricks(t, tricks);

    const auto won = t.log.all<TrickWon>();
    REQUIRE(won.size() == 13);
    for (const TrickWon& w : won) CHECK(int(w.winner) == A);  // D's spades never win
    const HandScored hs = t.log.last<HandScored>();
    CHECK(delta(hs.sides[A], ScoreComponent::moon) == 50);
    CHECK(hs.sides[A].hand_total == 50);
    for (int s : {B, C, D}) {
        CAPTURE(s);
        CHECK(hs.sides[s].hand_total == 0);  // not 50 for taking no tricks
    }
}

// The Hearts scoring sentences on the scoring function alone: "All players are
// awarded 40 points. Then, each heart they took during the hand subtracts 2 ...
// The player who takes the queen of spades is penalized 26 points."
TEST_CASE("seed 000: BGA Hearts scoring table") {
    auto score = [](std::vector<HeartsTake> takes) {
        std::vector<ScoreSheet> out(takes.size());
        score_bga_hearts(takes, 13, 1, out);
        std::vector<int> totals;
        for (const auto& s : out) totals.push_back(total(s));
        return totals;
    };
    // "if you took a total of 10 hearts during the hand, you'll be penalized 20 points ... for a score of 20"
    CHECK(score({{10, 0, 5}, {3, 1, 4}, {0, 0, 4}, {0, 0, 0}}) == std::vector<int>{20, 40 - 6 - 26, 40, 50});
    // "If you took 10 hearts, as above, and the queen of spades, your score will be -6"
    CHECK(score({{10, 1, 6}, {3, 0, 4}, {0, 0, 3}, {0, 0, 0}}) == std::vector<int>{-6, 34, 40, 50});
    // "that player receives 50 points and all other players receive none"
    CHECK(score({{13, 1, 9}, {0, 0, 2}, {0, 0, 2}, {0, 0, 0}}) == std::vector<int>{50, 0, 0, 0});
    // All the hearts without the queen is no moon.
    CHECK(score({{13, 0, 9}, {0, 1, 2}, {0, 0, 2}, {0, 0, 0}}) == std::vector<int>{14, 14, 40, 50});
}

// "The first time Hearts is played, cards are passed to the player on your left.
// The second time, the cards are passed right. The third time, they are passed
// across the table. And the fourth time, no cards are passed. Then the cycle
// repeats." and "The number of cards to pass is chosen as a game option: it can
// be either 4 (Sparts mode) or 3 (Traditional Hearts mode)."
TEST_CASE("seed 000: Hearts passes go left, right, across, hold by the count of Hearts hands") {
    SUBCASE("five Hearts hands in a row") {
        Table t = open_table(bga({{"game_length", "800"}}), 2);
        for (int h = 0; h < 5; ++h) autoplay_hand(t, HandKind::hearts);
        std::vector<int> distances, counts;
        for (const auto& p : t.log.all<PassingStarted>()) distances.push_back(p.distance), counts.push_back(p.count);
        CHECK(distances == std::vector<int>{1, 3, 2, 0, 1});
        CHECK(counts == std::vector<int>{4, 4, 4, 4, 4});
        // Left is the next seat clockwise; right the one before; across two away.
        const auto passed = t.log.all<CardsPassed>();
        REQUIRE(passed.size() == 4 * 4);  // the hold hand passes nothing
        for (int i = 0; i < 4; ++i) {
            CHECK(int(passed[static_cast<std::size_t>(i)].to) == (passed[static_cast<std::size_t>(i)].from + 1) % 4);
            CHECK(int(passed[static_cast<std::size_t>(4 + i)].to) == (passed[static_cast<std::size_t>(4 + i)].from + 3) % 4);
            CHECK(int(passed[static_cast<std::size_t>(8 + i)].to) == (passed[static_cast<std::size_t>(8 + i)].from + 2) % 4);
        }
    }
    SUBCASE("a Spades hand in between does not count") {
        Table t = open_table(bga({{"game_length", "800"}}), 0);
        autoplay_hand(t, HandKind::hearts);
        autoplay_hand(t, HandKind::spades);
        autoplay_hand(t, HandKind::hearts);
        std::vector<int> distances;
        for (const auto& p : t.log.all<PassingStarted>()) distances.push_back(p.distance);
        CHECK(distances == std::vector<int>{1, 3});
    }
    SUBCASE("Traditional mode passes 3") {
        Table t = open_table(bga({{"hearts_mode", "traditional"}}), 1);
        choose(t, HandKind::hearts);
        CHECK(t.log.last<PassingStarted>().count == 3);
        CardSet four;
        for (Card c : t.state().hands[0])
            if (four.size() < 4) four.insert(c);
        CHECK(t.refused(0, Action::pass(four)) == "pass_wrong_count");
    }
}

// "In Traditional Hearts mode, the first play must be the two of clubs and the
// first trick can't have a point card played on it." (RULINGS.md: "no heart nor
// the queen of spades may be played on the first trick unless the hand holds
// nothing else".) And: "If you're playing in Sparts mode, playing the queen of
// spades also counts as breaking hearts" - so in Traditional mode it does not.
TEST_CASE("seed 000: Traditional mode: the 2 of clubs leads and no points on the first trick") {
    const Ruleset r = bga({{"hearts_mode", "traditional"}});
    const int P = 1, V = 2, W = 3, U = 0;  // P holds the 2 of clubs
    Hands after{};
    after[P] = cards("2C 4C");
    after[V] = cards("AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD");  // no clubs; one heart
    after[W] = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS");  // nothing but points
    after[U] = cards("3C");
    const StackedDeal full = complete_deal(r, after);
    for (int s = 0; s < 4; ++s) after[s] = full.hands[s];
    const PassPlan plan = plan_pass(after, 4, 3, 1);
    Table t = open_table(r, U, {stacked(plan.dealt)});
    choose(t, HandKind::hearts);
    pass_all(t, plan);

    CHECK(int(t.log.last<PlayStarted>().leader) == P);
    CHECK(t.game.legal_moves(P).cards == cards("2C"));
    CHECK(t.refused(P, Action::play(card("4C"))) == "must_lead_card");
    t.play("2C");
    CHECK(t.refused(V, Action::play(card("AH"))) == "no_points_on_first_trick");
    CHECK_FALSE(t.game.legal_moves(V).cards.contains(card("AH")));
    t.play("2D");
    CHECK(t.game.legal_moves(W).cards == t.state().hands[W]);  // nothing else to play
    t.play("QS");
    CHECK(t.log.count<HeartsBroken>() == 0);
    CHECK_FALSE(t.state().hearts_broken);
    t.play("3C");
    CHECK(int(t.log.last<TrickWon>().winner) == U);
}

// "When a heart is played on a trick, it is called breaking hearts. ... If
// hearts have not been broken, they cannot be led. Of course, if you have only
// hearts in your hand, you can lead one. If you're playing in Sparts mode,
// playing the queen of spades also counts as breaking hearts"
TEST_CASE("seed 000: Sparts mode: hearts cannot be led until broken, and the queen of spades breaks them") {
    const Ruleset r = bga();
    SUBCASE("the queen of spades breaks hearts") {
        const int D = 0, A = 1, B = 2, C = 3;
        Hands after{};
        after[A] = cards("2C 5H");
        after[B] = cards("QS");
        after[C] = cards("3C");
        after[D] = cards("AC 6H");
        std::array<unsigned, kMaxSeats> avoid{};
        avoid[B] = no(Suit::clubs);
        const StackedDeal full = complete_deal(r, after, {}, avoid);
        for (int s = 0; s < 4; ++s) after[s] = full.hands[s];
        const PassPlan plan = plan_pass(after, 4, 4, 1);
        Table t = open_table(r, D, {stacked(plan.dealt)});
        choose(t, HandKind::hearts);
        pass_all(t, plan);

        REQUIRE(int(t.turn()) == A);  // Sparts mode: the dealer's left leads any card...
        CHECK(t.refused(A, Action::play(card("5H"))) == "hearts_not_broken");  // ...but a heart
        t.play("2C");
        t.play("QS");
        CHECK(t.log.count<HeartsBroken>() == 1);
        CHECK(int(t.log.last<HeartsBroken>().seat) == B);
        t.play("3C");
        t.play("AC");
        REQUIRE(int(t.log.last<TrickWon>().winner) == D);
        t.play("6H");  // hearts may now be led
        CHECK(t.log.last<CardPlayed>().card == card("6H"));
    }
    SUBCASE("a hand of only hearts leads one") {
        const int D = 0, A = 1;
        Hands after{};
        after[A] = CardSet::suit(Suit::hearts) & CardSet::deck(1, 0);
        const StackedDeal full = complete_deal(r, after);
        for (int s = 0; s < 4; ++s) after[s] = full.hands[s];
        const PassPlan plan = plan_pass(after, 4, 4, 1);
        Table t = open_table(r, D, {stacked(plan.dealt)});
        choose(t, HandKind::hearts);
        pass_all(t, plan);
        REQUIRE(int(t.turn()) == A);
        t.play("7H");
        CHECK(t.log.count<HeartsBroken>() == 1);
    }
}

// "When at least one player's score reaches the total points for the game, the
// game ends. The player with the highest score is the winner."
TEST_CASE("seed 000: the game ends after the hand in which a score reaches the game length") {
    Table t = open_table(bga(), 3);
    int hands = 0;
    while (!t.game.over()) {
        REQUIRE(++hands < 60);
        const HandScored hs = autoplay_hand(t, HandKind::hearts);
        int best = hs.sides[0].score;
        for (int s = 1; s < 4; ++s) best = std::max(best, hs.sides[s].score);
        CHECK(t.game.over() == (best >= 200));
    }
    const GameOver go = t.log.last<GameOver>();
    CHECK(go.reason == GameEndReason::target_score);
    int best = go.scores[0];
    for (int s = 1; s < 4; ++s) best = std::max(best, go.scores[s]);
    CHECK(best >= 200);
    for (int s = 0; s < 4; ++s) CHECK((go.ranks[s] == 1) == (go.scores[s] == best));
}
