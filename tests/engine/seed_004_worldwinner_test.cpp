// The worked examples and rules of seed 004_8c2eea2706dd03ea.txt (WorldWinner's
// Spades, preset `worldwinner-spades`), driven through the engine. Each test
// quotes the sentence it checks. As in the seed, "you" sit at the dealer's seat
// of the first hand, with "left", your "partner" and "right" clockwise from you.
#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/standings.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

Ruleset worldwinner(std::vector<OptionSetting> options = {}) {
    return ruleset("worldwinner-spades", std::move(options));
}

constexpr int you = 0, left = 1, partner = 2, right = 3;  // you deal the first hand
constexpr int us = you % 2, them = left % 2;

std::array<int, kMaxSeats> bids_of(int bid_you, int bid_partner, int bid_left, int bid_right) {
    std::array<int, kMaxSeats> bids{};
    bids[you] = bid_you, bids[partner] = bid_partner, bids[left] = bid_left, bids[right] = bid_right;
    return bids;
}

struct Hand {
    std::array<int, 13> winners;
    std::array<int, kMaxSeats> bids;
};

// Plays stacked hands; the first leader of hand h (0-based) is the dealer's
// partner, two seats from the dealer (you + h).
Table play_hands(const Ruleset& r, const std::vector<Hand>& hands, Seat dealer = you) {
    std::vector<StackedDeal> deals;
    std::vector<Tricks> scripts;
    for (std::size_t h = 0; h < hands.size(); ++h) {
        const Seat leader = r.spades_first_lead == FirstLead::dealer_partner
                                ? seat_at(dealer + static_cast<int>(h) + 2, 4)
                                : seat_at(dealer + static_cast<int>(h) + 1, 4);
        scripts.push_back(layout_tricks(Layout::spades, leader, hands[h].winners));
        deals.push_back(stacked(deal_from_script(4, leader, scripts.back(), true).hands));
    }
    Table t = open_table(r, dealer, deals);
    for (std::size_t h = 0; h < hands.size(); ++h) {
        bid_all(t, hands[h].bids);
        play_tricks(t, scripts[h]);
    }
    return t;
}

}  // namespace

// "The winner is the first team to reach 250 points. / NIL bids are worth +75
// points if you make them, or -75 if you fail. / The "bag back" penalty occurs at
// 5 bags, and gives 50 points to the opposing team." and "You have 10 minutes to
// complete each game of Spades."
TEST_CASE("seed 004: the WorldWinner differences") {
    const Ruleset r = preset_ruleset(Preset::worldwinner_spades);
    CHECK(r.target_score == 250);
    CHECK(r.effective_nil_value() == 75);
    CHECK(r.bag_rule == BagRule::bag_back);
    CHECK(r.bag_threshold == 5);
    CHECK(r.bag_points == 50);
    CHECK(r.game_clock_seconds == 600);
    CHECK(r.partnership == Partnership::across);
    CHECK(r.seats == 4);
    CHECK(r.hand_size == 13);
}

// "Once the bidding is complete, a card is led. Your partner leads the first
// round, the player to your right leads the second, you lead the third, and the
// player to your left leads the fourth. After that, the cycle repeats."
TEST_CASE("seed 004: the first lead goes partner, right, you, left, and repeats") {
    Table t = open_table(worldwinner({{"target_score", "10000"}}), you);
    for (int h = 0; h < 5; ++h) autoplay_hand(t);
    std::vector<int> leaders;
    for (const auto& p : t.log.all<PlayStarted>()) leaders.push_back(p.leader);
    REQUIRE(leaders.size() >= 5);
    leaders.resize(5);
    CHECK(leaders == std::vector<int>{partner, right, you, left, partner});
    // Each round has 13 tricks: "Each round consists of 13 tricks, in which each player plays one card."
    CHECK(t.log.count<TrickWon>() == 5 * 13);
}

// "Example 1: - Left plays a 2 of Diamonds - Across plays a 6 of Diamonds -
// Right plays an Ace of Diamonds - You play a 5 of Diamonds - Right's Ace of
// Diamonds takes the trick."
TEST_CASE("seed 004: trick Example 1: the ace of diamonds takes the trick") {
    // Here you sit at seat 0 with the dealer on your right, so that Left leads.
    const int Y = 0, L = 1, A = 2, R = 3;
    const Ruleset r = worldwinner();
    Hands h{};
    h[L] = cards("2D KS");
    h[A] = cards("6D");
    h[R] = cards("AD");
    h[Y] = cards("5D");
    Table t = open_table(r, R, {complete_deal(r, h)});
    bid_all(t, {3, 3, 3, 3});
    REQUIRE(int(t.log.last<PlayStarted>().leader) == L);  // the dealer's partner
    CHECK(t.refused(L, Action::play(card("KS"))) == "spades_not_broken");
    play_tricks(t, tricks_from({"2D 6D AD 5D"}));
    CHECK(int(t.log.last<TrickWon>().winner) == R);
    CHECK(int(t.turn()) == R);  // "The player who takes the trick leads the first card of the next trick."
}

// "Example 2: - Left plays a 2 of Diamonds - Across plays a 6 of Diamonds - Right
// has no Diamonds, and plays a 2 of Spades - You also have no Diamonds, and play
// a 4 of Spades - Your 4 of Spades takes the trick." and "No player may lead a
// Spade until Spades have been broken (that is, a Spade has been played on a
// trick in which Spades wasn't led)."
TEST_CASE("seed 004: trick Example 2: your 4 of spades takes the trick, and spades are broken") {
    const int Y = 0, L = 1, A = 2, R = 3;
    const Ruleset r = worldwinner();
    Hands h{};
    h[L] = cards("2D KS");
    h[A] = cards("6D");
    h[R] = cards("2S");
    h[Y] = cards("4S 5S");
    std::array<unsigned, kMaxSeats> avoid{};
    avoid[R] = no(Suit::diamonds);
    avoid[Y] = no(Suit::diamonds);
    Table t = open_table(r, R, {complete_deal(r, h, {}, avoid)});
    bid_all(t, {3, 3, 3, 3});
    CHECK(t.refused(L, Action::play(card("KS"))) == "spades_not_broken");
    play_tricks(t, tricks_from({"2D 6D 2S"}));
    REQUIRE(t.log.count<SpadesBroken>() == 1);
    CHECK(int(t.log.last<SpadesBroken>().seat) == R);
    t.play("4S");
    CHECK(int(t.log.last<TrickWon>().winner) == Y);
    t.play("5S");  // spades are broken: you may lead one
    CHECK(t.log.last<CardPlayed>().card == card("5S"));
}

// "(that is, a Spade has been played on a trick in which Spades wasn't led)" -
// so a spade led by a hand of nothing but spades does not break them here,
// whereas in `spades` any spade does (RULINGS.md "Breaking spades").
TEST_CASE("seed 004: a spade led from a hand of only spades does not break spades") {
    const CardSet all_spades = CardSet::suit(Suit::spades) & CardSet::deck(1, 0);
    SUBCASE("worldwinner-spades") {
        const Ruleset r = worldwinner();
        Hands h{};
        h[partner] = all_spades;
        Table t = open_table(r, you, {complete_deal(r, h)});
        bid_all(t, bids_of(1, 13, 1, 1));
        REQUIRE(int(t.turn()) == partner);
        t.play("2S");
        CHECK(t.log.count<SpadesBroken>() == 0);
        autoplay_step(t);
        autoplay_step(t);
        autoplay_step(t);
        CHECK(int(t.log.last<TrickWon>().winner) == partner);
        CHECK_FALSE(t.state().spades_broken);
    }
    SUBCASE("spades") {
        const Ruleset r = ruleset("spades");
        Hands h{};
        h[left] = all_spades;  // the dealer's left leads in `spades`
        Table t = open_table(r, you, {complete_deal(r, h)});
        bid_all(t, bids_of(1, 1, 13, 1));
        t.play("2S");
        CHECK(t.log.count<SpadesBroken>() == 1);
    }
}

// "Example 1: You bid 3 and your partner bids 4, for a total team bid of 7. Your
// team takes 8 tricks. Your round score is 70 for the 7 tricks you received to
// make your bid, plus 1 for the overtrick, for a round score of 71."
TEST_CASE("seed 004: scoring Example 1: bid 3 + 4, take 8 = 71") {
    Table t = play_hands(worldwinner(),
                         {{{partner, partner, partner, partner, left, left, right, right, you, you, you, right, you},
                           bids_of(3, 4, 3, 3)}});
    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.sides[us].bid == 7);
    CHECK(hs.sides[us].tricks == 8);
    CHECK(delta(hs.sides[us], ScoreComponent::contract) == 70);
    CHECK(delta(hs.sides[us], ScoreComponent::overtricks) == 1);
    CHECK(hs.sides[us].hand_total == 71);
    CHECK(hs.sides[us].bags == 1);
    CHECK(hs.sides[them].hand_total == -60);  // bid 6, took 5
    CHECK(t.log.count<TrickWon>() == 13);
}

// "Example 2: You bid 2 and your partner bids 6, for a total team bid of 8. Your
// team takes 6 tricks. Your round score is -80." and "Note that you lose the
// same number of points whether you miss by a single trick or by many tricks."
TEST_CASE("seed 004: scoring Example 2: bid 2 + 6, take 6 = -80") {
    Table t = play_hands(worldwinner(),
                         {{{you, you, you, partner, partner, partner, right, right, left, left, left, right, left},
                           bids_of(2, 6, 3, 3)}});
    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.sides[us].bid == 8);
    CHECK(hs.sides[us].tricks == 6);
    CHECK(delta(hs.sides[us], ScoreComponent::set) == -80);
    CHECK(hs.sides[us].hand_total == -80);
    CHECK(hs.sides[us].bags == 0);
    CHECK(hs.sides[them].hand_total == 61);  // bid 6, took 7
}

// "Example 3: You bid 3 and your partner bids NIL. You take 4 tricks, and your
// partner takes none. You receive 30 points for making your bid, plus 1 point
// for the overtrick, plus a 75 point bonus for successfully making the NIL bid,
// for a round score of 106 points."
TEST_CASE("seed 004: scoring Example 3: bid 3 taking 4 with a partner's nil made = 106") {
    Table t = play_hands(worldwinner(),
                         {{{left, left, left, left, left, right, right, right, you, you, you, right, you},
                           bids_of(3, 0, 4, 4)}});
    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.sides[us].tricks == 4);
    CHECK(hs.sides[us].nil_bids == 1);
    CHECK(hs.sides[us].nils_made == 1);
    CHECK(delta(hs.sides[us], ScoreComponent::contract) == 30);
    CHECK(delta(hs.sides[us], ScoreComponent::overtricks) == 1);
    CHECK(delta(hs.sides[us], ScoreComponent::nil) == 75);
    CHECK(hs.sides[us].hand_total == 106);
    CHECK(hs.sides[us].bags == 1);
    CHECK(hs.sides[them].hand_total == 81);  // bid 8, took 9
}

// "Example 4: You bid 4 and your partner bids NIL. You take 4 tricks, and your
// partner takes one. You receive 40 points for making your bid, less a penalty
// of -75 for not making the NIL bid, for a round score of -35 points." and "If a
// player bids "NIL", the two partners bids are not combined as they usually are.
// ... The partner's bid is treated just like a team bid" (RULINGS.md: the nil
// bidder's tricks neither help the partner's contract nor count as bags).
TEST_CASE("seed 004: scoring Example 4: bid 4 taking 4 with a partner's nil taking 1 = -35") {
    const Hand example{{partner, left, left, left, left, right, right, right, you, you, you, right, you},
                       bids_of(4, 0, 4, 4)};
    Table t = play_hands(worldwinner(), {example});
    const HandScored hs = t.log.last<HandScored>();
    CHECK(hs.sides[us].tricks == 5);
    CHECK(hs.sides[us].nils_made == 0);
    CHECK(delta(hs.sides[us], ScoreComponent::contract) == 40);
    CHECK(delta(hs.sides[us], ScoreComponent::overtricks) == 0);
    CHECK(delta(hs.sides[us], ScoreComponent::nil) == -75);
    CHECK(hs.sides[us].hand_total == -35);
    CHECK(hs.sides[us].bags == 0);
    CHECK(hs.sides[them].hand_total == 80);

    // In `spades` the nil bidder's trick counts toward the partner's contract and is a bag.
    Table s = play_hands(ruleset("spades", {{"target_score", "250"}}), {example});
    const HandScored ss = s.log.last<HandScored>();
    CHECK(delta(ss.sides[us], ScoreComponent::nil) == -50);
    CHECK(delta(ss.sides[us], ScoreComponent::overtricks) == 1);
    CHECK(ss.sides[us].hand_total == -9);
    CHECK(ss.sides[us].bags == 1);
}

// "Each time you take an overtrick, you get a "bag" ... Once a team collects 5
// bags, there is a "bag back" penalty: the opposing team gets an extra 50
// points. Once this penalty is assessed, 5 bags are subtracted from the
// penalized team's bag count. Example: Your team has 4 bags going into a round.
// During that round, your team ends up with three additional bags. Your
// opponents get 50 extra points for that round, because of your bag back
// penalty, and your new total of bags is 2."
TEST_CASE("seed 004: the bag back example: 4 bags + 3 gives the opponents 50 and leaves 2") {
    // Hand 1: you and partner bid 2 + 2 and take 8 (4 bags); left and right bid 3 + 3, take 5.
    const Hand one{{partner, partner, partner, partner, left, left, right, right, you, you, you, right, you},
                   bids_of(2, 2, 3, 3)};
    // Hand 2: you and partner bid 2 + 2 and take 7 (3 bags); left and right bid 3 + 3, take 6.
    const Hand two{{partner, partner, partner, left, left, left, right, right, you, you, you, right, you},
                   bids_of(2, 2, 3, 3)};
    Table t = play_hands(worldwinner(), {one, two});
    const auto scored = t.log.all<HandScored>();
    REQUIRE(scored.size() == 2);
    CHECK(scored[0].sides[us].hand_total == 44);
    CHECK(scored[0].sides[us].bags == 4);
    CHECK(scored[0].sides[them].hand_total == -60);

    const HandScored& hs = scored[1];
    CHECK(delta(hs.sides[us], ScoreComponent::overtricks) == 3);
    CHECK(hs.sides[us].hand_total == 43);  // the bag back costs the team itself nothing
    CHECK(hs.sides[us].bags == 2);
    CHECK(delta(hs.sides[them], ScoreComponent::bag_back) == 50);
    CHECK(hs.sides[them].hand_total == 60 + 50);
    CHECK(hs.sides[us].score == 44 + 43);
    CHECK(hs.sides[them].score == -60 + 110);
    const auto penalties = t.log.all<BagPenalty>();
    REQUIRE(penalties.size() == 1);
    CHECK(int(penalties[0].side) == us);
    CHECK(penalties[0].to_opponents);
    CHECK(penalties[0].points == 50);
    CHECK(penalties[0].times == 1);
    CHECK(penalties[0].bags_after == 2);
}

// "The game ends at the end of any round when a team's score is 250 or more, or
// when time runs out."
TEST_CASE("seed 004: the game ends after the round in which a team reaches 250") {
    // You and partner bid 7 + 6 and take all 13 tricks, twice: 130, then 260.
    const Hand sweep{{partner, partner, partner, partner, partner, partner, you, you, you, you, you, you, you},
                     bids_of(7, 6, 1, 1)};
    const Ruleset r = worldwinner();
    const std::vector<Hand> hands = {sweep, sweep};
    std::vector<StackedDeal> deals;
    std::vector<Tricks> scripts;
    for (int h = 0; h < 2; ++h) {
        const Seat leader = seat_at(you + h + 2, 4);
        scripts.push_back(layout_tricks(Layout::spades, leader, sweep.winners));
        deals.push_back(stacked(deal_from_script(4, leader, scripts.back(), true).hands));
    }
    Table t = open_table(r, you, deals);
    bid_all(t, sweep.bids);
    play_tricks(t, scripts[0]);
    CHECK(t.state().scores[us] == 130);
    CHECK(t.state().scores[them] == -20);
    CHECK_FALSE(t.game.over());
    bid_all(t, sweep.bids);
    play_tricks(t, scripts[1]);
    REQUIRE(t.game.over());
    const GameOver go = t.log.last<GameOver>();
    CHECK(go.reason == GameEndReason::target_score);
    CHECK(go.scores[us] == 260);
    CHECK(go.ranks[us] == 1);
}

// "You have 10 minutes to complete each game of Spades. As soon as the clock
// reaches 0:00, the game ends, even if neither team has reached 250 points." and
// standings Example 3: "slowsammy666 runs out of time in the middle of the 8th
// round. At the end of the 7th round, his team had a score of 145 ..." (RULINGS.md:
// "scored as of the last completed hand").
TEST_CASE("seed 004: the game clock ends the game mid-hand, scored as of the last completed hand") {
    const Hand example1{{partner, partner, partner, partner, left, left, right, right, you, you, you, right, you},
                        bids_of(3, 4, 3, 3)};
    Table t = play_hands(worldwinner(), {example1});
    CHECK(t.state().scores[us] == 71);
    // The next hand is under way when the time runs out.
    for (int i = 0; i < 4 + 5; ++i) autoplay_step(t);
    REQUIRE(t.game.phase() == Phase::playing);
    CHECK(t.refused(you, Action::clock_expired()) == "invalid_seat");
    t.ok(kTableSeat, Action::clock_expired());
    REQUIRE(t.game.over());
    const GameOver go = t.log.last<GameOver>();
    CHECK(go.reason == GameEndReason::game_clock);
    CHECK(go.hands_played == 1);
    CHECK(go.scores[us] == 71);
    CHECK(go.scores[them] == -60);
    CHECK(go.ranks[us] == 1);
    const Standings st = worldwinner_standings(go.scores[us], go.scores[them], 0, false);
    CHECK(st.time_bonus == 0);
    CHECK(st.total() == 710 + 131 + 100);
    // No clock in `spades`.
    Table s = open_table(ruleset("spades"), 0);
    CHECK(s.refused(kTableSeat, Action::clock_expired()) == "no_game_clock");
}

// "Tournament Standings Scoring ... Base Score: your game score times 10, but
// never less than 0 or more than 2,500. / Overpoints Bonus: one point for the
// difference between your team's score and the opponent's team score. If the
// opponents ended the game with the higher score, the Overpoints Bonus is 0. /
// Victory Bonus: if your team had the highest score at the end of the game, you
// get a bonus of 100. / Time Bonus: one point for each full second left on the
// clock If you run out of time before completing the game then your Time Bonus
// is 0."
TEST_CASE("seed 004: tournament standings Examples 1, 2 and 3") {
    // "Example 1: marylou999's team ends the game with 261 points. Her opponents had
    // 188 points. There was 3:40 left on the clock. Her Base Score is 2500. Her
    // Overpoints Bonus is 261 - 188, or 73. Her Victory Bonus is 100. Her Time Bonus
    // is 220. Her total tournament standings score is 2500 + 73 + 100 + 220, or 2893."
    const Standings one = worldwinner_standings(261, 188, 3 * 60 + 40, true);
    CHECK(one.base == 2500);
    CHECK(one.overpoints == 73);
    CHECK(one.victory == 100);
    CHECK(one.time_bonus == 220);
    CHECK(one.total() == 2893);

    // "Example 2: bigsteve1234's team ends the game with 180 points. His opponents had
    // 295 points. There was 1:45 left on the clock. His Base Score is 130 * 10, or
    // 1300. ... His total tournament standings score is 1800 + 0 + 0 + 105 = 1905."
    // RULINGS.md: the slip is corrected: 180 x 10 = 1800, total 1905.
    const Standings two = worldwinner_standings(180, 295, 60 + 45, true);
    CHECK(two.base == 1800);
    CHECK(two.overpoints == 0);
    CHECK(two.victory == 0);
    CHECK(two.time_bonus == 105);
    CHECK(two.total() == 1905);

    // "Example 3: slowsammy666 runs out of time in the middle of the 8th round. At
    // the end of the 7th round, his team had a score of 145 and his opponents had a
    // score of 225. His Base Score is 1450, his Overpoints Bonus and Victory Bonus
    // are 0, and his Time Bonus is also 0. His tournament standings score is 1450."
    const Standings three = worldwinner_standings(145, 225, 0, false);
    CHECK(three.base == 1450);
    CHECK(three.overpoints == 0);
    CHECK(three.victory == 0);
    CHECK(three.time_bonus == 0);
    CHECK(three.total() == 1450);

    // "never less than 0": a negative score has base 0.
    CHECK(worldwinner_standings(-40, 100, 0, false).total() == 0);
    // RULINGS.md: "a game that the clock ends with equal scores gives no victory bonus to either team."
    const Standings tie = worldwinner_standings(200, 200, 0, false);
    CHECK(tie.victory == 0);
    CHECK(tie.total() == 2000);
}

TEST_CASE("seed 004 standings: both sides named by the last scored hand, or seat 0's partnership before any") {
    GameOver over{};
    over.reason = GameEndReason::target_score;
    over.side_count = 2;
    over.scores[0] = 260;
    over.scores[1] = 130;
    const std::uint16_t scored[] = {0b1010, 0b0101};  // reversed partners named the sides otherwise
    auto sides = worldwinner_tournament_standings(over, scored, 0b0101, 4, true, 42);
    CHECK(sides[0].seats == 0b1010);
    CHECK(sides[1].seats == 0b0101);
    CHECK(sides[0].standings.base == 2500);
    CHECK(sides[0].standings.overpoints == 130);
    CHECK(sides[0].standings.victory == 100);
    CHECK(sides[0].standings.time_bonus == 42);  // finished before the clock
    CHECK(sides[1].standings.victory == 0);
    CHECK(sides[1].standings.total() == 1300 + 42);
    // Before any hand was scored: seat 0's partnership and the others; the clock's end gives no time bonus.
    over.reason = GameEndReason::game_clock;
    auto first = worldwinner_tournament_standings(over, {}, 0b0101, 4, true, 42);
    CHECK(first[0].seats == 0b0101);
    CHECK(first[1].seats == 0b1010);
    CHECK(first[0].standings.time_bonus == 0);
    // No clock at all: no time bonus either.
    over.reason = GameEndReason::target_score;
    CHECK(worldwinner_tournament_standings(over, scored, 0b0101, 4, false, 42)[0].standings.time_bonus == 0);
}
