// The worked examples and rules of seed 003_861a861bed722650.txt (a Spades
// app's help center, preset `spades`), driven through the engine. Each test
// quotes the sentence it checks. Seats a, b, c, e sit clockwise from the
// dealer's left (e is the dealer); a and c are partners, b and e the others.
#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/spades_scoring.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

Ruleset spades(std::vector<OptionSetting> options = {}) { return ruleset("spades", std::move(options)); }

constexpr int e = 0, a = 1, b = 2, c = 3;  // dealer e; a bids first and leads
constexpr int us = a % 2, them = b % 2;    // sides: a + c, and b + e

std::array<int, kMaxSeats> bids_of(int bid_a, int bid_b, int bid_c, int bid_e) {
    std::array<int, kMaxSeats> bids{};
    bids[a] = bid_a, bids[b] = bid_b, bids[c] = bid_c, bids[e] = bid_e;
    return bids;
}

// One stacked hand per entry; trick winners by seat, first leader the dealer's left.
struct Hand {
    std::array<int, 13> winners;
    std::array<int, kMaxSeats> bids;
};

Table play_hands(const Ruleset& r, const std::vector<Hand>& hands, bool stop_before_last = false) {
    std::vector<StackedDeal> deals;
    std::vector<Tricks> scripts;
    for (std::size_t h = 0; h < hands.size(); ++h) {
        const Seat leader = seat_at(e + 1 + static_cast<int>(h), 4);  // the deal rotates left
        scripts.push_back(layout_tricks(Layout::spades, leader, hands[h].winners));
        deals.push_back(stacked(deal_from_script(4, leader, scripts.back(), true).hands));
    }
    Table t = open_table(r, e, deals);
    for (std::size_t h = 0; h < hands.size(); ++h) {
        if (stop_before_last && h + 1 == hands.size()) break;
        bid_all(t, hands[h].bids);
        play_tricks(t, scripts[h]);
    }
    return t;
}

}  // namespace

// "Spades is played with 4 players and uses a standard 52 card deck (with the
// Jokers removed). The deck is shuffled and then dealt out with each player
// receiving 13 cards." "The player to the left of the dealer bids first. After
// bidding takes place, that same player leads the first trick." "in the next
// round, the player to the left of the dealer becomes the new dealer"
TEST_CASE("seed 003: 13 cards each, the dealer's left bids first and leads, the deal moves left") {
    Table t = open_table(spades(), 2);
    const HandStarted hs = t.log.last<HandStarted>();
    CHECK(hs.hand_size == 13);
    CHECK(hs.center_size == 0);
    CHECK(hs.kind == HandKind::spades);
    CHECK(t.game.phase() == Phase::bidding);  // no pass in Spades
    CHECK(int(t.log.last<BiddingStarted>().first) == 3);
    for (int i = 0; i < 4; ++i) t.bid(2);
    CHECK(int(t.log.last<PlayStarted>().leader) == 3);
    autoplay_hand(t);
    CHECK(int(t.log.last<HandStarted>().dealer) == 3);
    CHECK(int(t.log.last<BiddingStarted>().first) == 0);
}

// "In the first round of the first game, a player is selected at random to be the
// "dealer"" (RULINGS.md: "the first dealer is drawn from the table's seed", and
// "the same seed and actions give the same game").
TEST_CASE("seed 003: the first dealer is drawn from the seed") {
    std::array<int, 4> seen{};
    for (std::uint64_t seed = 1; seed <= 64; ++seed) {
        auto g1 = Game::create(spades(), seed);
        auto g2 = Game::create(spades(), seed);
        REQUIRE(g1);
        REQUIRE(g2);
        g1->start();
        g2->start();
        CHECK(g1->state().dealer == g2->state().dealer);
        CHECK(g1->state().hands == g2->state().hands);
        ++seen[g1->state().dealer];
    }
    for (int s = 0; s < 4; ++s) CHECK(seen[s] > 0);  // every seat deals first for some seed
}

// "If you scroll all the way to the left, you see a special "Nil", which is a
// bid of 0." and the FAQ: "the minimum bid is One." (RULINGS.md: "Bids 1..13 or
// nil.")
TEST_CASE("seed 003: bids are nil or 1 to 13") {
    Table t = open_table(spades(), e);
    CHECK(t.game.legal_moves(a).bids == (1u << 14) - 1);
    CHECK(t.refused(a, Action::make_bid(14)) == "bid_out_of_range");
    t.ok(a, Action::make_bid(0));
    CHECK(t.log.last<BidMade>().nil);
    t.ok(b, Action::make_bid(1));
    CHECK_FALSE(t.log.last<BidMade>().nil);
    t.ok(c, Action::make_bid(13));
    CHECK(t.refused(a, Action::make_bid(3)) == "not_your_turn");
    t.ok(e, Action::make_bid(5));
    CHECK(t.game.phase() == Phase::playing);
}

// "Afterward, turns rotate clockwise around the table with each player following
// suit of the original played card. If a player does not have a card matching
// the original suit, a different suit can be played. ... If the player cannot
// follow the original suit, they may play any other suit, including ♠, which may
// not be led until they are "broken"." and "Ace is high and ♠ is always the trump
// suit."
TEST_CASE("seed 003: follow suit, spades trump and may not be led until broken") {
    const Ruleset r = spades();
    Hands h{};
    h[a] = cards("KH AS");
    h[b] = cards("AH 2C");
    h[c] = cards("3S 4S");
    h[e] = cards("2H");
    std::array<unsigned, kMaxSeats> avoid{};
    avoid[c] = no(Suit::hearts);
    Table t = open_table(r, e, {complete_deal(r, h, {}, avoid)});
    bid_all(t, bids_of(3, 3, 3, 3));
    CHECK(t.refused(a, Action::play(card("AS"))) == "spades_not_broken");
    t.play("KH");
    CHECK(t.refused(b, Action::play(card("2C"))) == "must_follow_suit");
    t.play("AH");
    t.play("3S");  // c has no hearts and trumps
    CHECK(t.log.count<SpadesBroken>() == 1);
    t.play("2H");
    CHECK(int(t.log.last<TrickWon>().winner) == c);
    // Broken now: spades may be led.
    t.play("4S");
    CHECK(t.log.last<CardPlayed>().card == card("4S"));
}

// RULINGS.md: ""Only one kind of card left" always overrides a leading
// restriction (you may lead hearts or spades when your hand holds nothing else)."
TEST_CASE("seed 003: a hand of only spades leads a spade") {
    const Ruleset r = spades();
    Hands h{};
    h[a] = CardSet::suit(Suit::spades) & CardSet::deck(1, 0);
    Table t = open_table(r, e, {complete_deal(r, h)});
    bid_all(t, bids_of(13, 1, 1, 1));
    t.play("4S");
    CHECK(t.log.count<SpadesBroken>() == 1);  // in `spades`, any spade breaks them
}

// "If a team successfully takes at least as many tricks as they bid, they
// receive 10 points for each bid they successfully took. If a team falls short
// of their bid, they lose 10 points for each bid they placed. For example, if a
// team bids 7 and taks 8 tricks, they gain 70 points for the bids they made and 1
// point (and 1 sandbag if "Sandbag Penalty" is enabled in Settings) for the extra
// trick. Likewise, if a team bids 6 and takes 5 tricks, they lose 60 points."
// FAQ: "Example: a team bids 7 tricks and takes 8 tricks, they earn 71 points."
TEST_CASE("seed 003: a hand played out: bids 7 takes 8 = 71 and a sandbag, bids 6 takes 5 = -60") {
    // a 4, b 2, c 4, e 3: a + c take 8, b + e take 5.
    Table t = play_hands(spades(), {{{a, a, a, a, b, b, c, c, c, e, e, e, c}, bids_of(3, 2, 4, 4)}});
    const HandScored hs = t.log.last<HandScored>();
    REQUIRE(hs.side_count() == 2);
    CHECK(hs.sides[us].seats == ((1u << a) | (1u << c)));
    CHECK(hs.sides[us].bid == 7);
    CHECK(hs.sides[us].tricks == 8);
    CHECK(delta(hs.sides[us], ScoreComponent::contract) == 70);
    CHECK(delta(hs.sides[us], ScoreComponent::overtricks) == 1);
    CHECK(hs.sides[us].hand_total == 71);
    CHECK(hs.sides[us].bags == 1);
    CHECK(hs.sides[them].bid == 6);
    CHECK(hs.sides[them].tricks == 5);
    CHECK(delta(hs.sides[them], ScoreComponent::set) == -60);
    CHECK(hs.sides[them].hand_total == -60);
    CHECK(hs.sides[them].bags == 0);
    CHECK(t.state().scores[us] == 71);
    CHECK(t.state().scores[them] == -60);
}

// "A special scoring rule is used for bidding Nil. If a player bids Nil and
// successfully avoids taking tricks, their team gains 50 (for a game of 250) or
// 100 points (for a game of 500); inversely, if a player bids Nil and takes even
// a single trick, their team loses 50 or 100 points. For example, if one player
// on a team bids Nil and takes 1 trick and their partner bids 6 and takes 5, the
// team loses 50 points for failing to go Nil and gains 60 points for
// collectively taking 6 tricks."
TEST_CASE("seed 003: nil taking 1 with the partner bidding 6 and taking 5: -50 + 60") {
    // a nil takes 1, c bids 6 takes 5; b 3 takes 3, e 3 takes 4.
    const Hand hand{{a, c, c, c, c, c, e, e, e, b, b, b, e}, bids_of(0, 3, 6, 3)};
    SUBCASE("a game of 250") {
        const Ruleset r = spades({{"target_score", "250"}});
        CHECK(r.effective_nil_value() == 50);
        Table t = play_hands(r, {hand});
        const HandScored hs = t.log.last<HandScored>();
        CHECK(hs.sides[us].nil_bids == 1);
        CHECK(hs.sides[us].nils_made == 0);
        CHECK(delta(hs.sides[us], ScoreComponent::nil) == -50);
        CHECK(delta(hs.sides[us], ScoreComponent::contract) == 60);  // "collectively taking 6 tricks"
        CHECK(hs.sides[us].hand_total == 10);
        CHECK(hs.sides[us].bags == 0);
        CHECK(hs.sides[them].hand_total == 61);
    }
    SUBCASE("a game of 500") {
        const Ruleset r = spades();
        CHECK(r.target_score == 500);
        CHECK(r.effective_nil_value() == 100);
        Table t = play_hands(r, {hand});
        const HandScored hs = t.log.last<HandScored>();
        CHECK(delta(hs.sides[us], ScoreComponent::nil) == -100);
        CHECK(hs.sides[us].hand_total == -40);
    }
}

// "If a player bids Nil and successfully avoids taking tricks, their team gains 50
// (for a game of 250) or 100 points (for a game of 500)" (RULINGS.md: "Nil: +/-100
// in a 500 game, +/-50 in a 250 game", the option nil_value left at 0 = auto).
TEST_CASE("seed 003: nil made gains 100 in a 500 game, 50 in a 250 game") {
    // a nil takes 0, c bids 5 takes 5; b and e bid 4 each and take 4 each.
    const Hand hand{{c, c, c, c, c, b, b, b, e, e, e, b, e}, bids_of(0, 4, 5, 4)};
    for (const char* target : {"500", "250"}) {
        CAPTURE(target);
        const Ruleset r = spades({{"target_score", target}});
        Table t = play_hands(r, {hand});
        const HandScored hs = t.log.last<HandScored>();
        const int nil = std::string(target) == "500" ? 100 : 50;
        CHECK(hs.sides[us].nils_made == 1);
        CHECK(delta(hs.sides[us], ScoreComponent::nil) == nil);
        CHECK(hs.sides[us].hand_total == nil + 50);
        CHECK(hs.sides[them].hand_total == 80);
    }
}

// "if a team takes more tricks than they bid, they gain 1 additional point (and 1
// sandbag if "Sandbag Penalty" is enabled in Settings) for each extra trick
// taken; with "Sandbag Penalty" turned on, collecting 10 sandbags results in
// losing 100 points (or collecting 5 sandbags results in losing 50 points,
// depending on your Settings)."
TEST_CASE("seed 003: the sandbag penalty: 10 bags -100, 5 bags -50, or off") {
    // a + c bid 1 + 1 and take 12 (10 bags); b nil takes 0, e bids 1 takes 1.
    const Hand ten_bags{{e, a, a, a, a, a, a, c, c, c, c, c, c}, bids_of(1, 0, 1, 1)};
    SUBCASE("10 bags = -100 (the default)") {
        Table t = play_hands(spades(), {ten_bags});
        const HandScored hs = t.log.last<HandScored>();
        CHECK(delta(hs.sides[us], ScoreComponent::overtricks) == 10);
        CHECK(delta(hs.sides[us], ScoreComponent::bag_penalty) == -100);
        CHECK(hs.sides[us].hand_total == 20 + 10 - 100);
        CHECK(hs.sides[us].bags == 0);
        CHECK(hs.sides[them].hand_total == 100 + 10);
        const BagPenalty p = t.log.last<BagPenalty>();
        CHECK(int(p.side) == us);
        CHECK(p.times == 1);
        CHECK(p.points == 100);
        CHECK_FALSE(p.to_opponents);
        CHECK(p.bags_after == 0);
    }
    SUBCASE("5 bags = -50") {
        // a + c bid 1 + 1 and take 7 (5 bags); b + e bid 3 + 3 and take 6.
        Table t = play_hands(spades({{"sandbag_penalty", "5"}}),
                             {{{a, a, a, a, b, b, c, c, e, e, e, c, e}, bids_of(1, 3, 1, 3)}});
        const HandScored hs = t.log.last<HandScored>();
        CHECK(hs.sides[us].tricks == 7);
        CHECK(delta(hs.sides[us], ScoreComponent::bag_penalty) == -50);
        CHECK(hs.sides[us].hand_total == 20 + 5 - 50);
        CHECK(hs.sides[us].bags == 0);
        CHECK(hs.sides[them].hand_total == 60);
    }
    SUBCASE("5 bags: ten in one hand cost two penalties (RULINGS.md)") {
        Table t = play_hands(spades({{"sandbag_penalty", "5"}}), {ten_bags});
        const HandScored hs = t.log.last<HandScored>();
        CHECK(delta(hs.sides[us], ScoreComponent::bag_penalty) == -100);
        CHECK(t.log.last<BagPenalty>().times == 2);
        CHECK(hs.sides[us].bags == 0);
    }
    SUBCASE("off: the extra trick still scores 1, but no bag is counted") {
        Table t = play_hands(spades({{"sandbag_penalty", "off"}}), {ten_bags});
        const HandScored hs = t.log.last<HandScored>();
        CHECK(delta(hs.sides[us], ScoreComponent::overtricks) == 10);
        CHECK(hs.sides[us].hand_total == 30);
        CHECK(hs.sides[us].bags == 0);
        CHECK(t.log.count<BagPenalty>() == 0);
    }
}

// The same scoring sentences on the scoring function alone: "if a team bids 7
// and taks 8 tricks, they gain 70 points ... and 1 point", "if a team bids 6 and
// takes 5 tricks, they lose 60 points", "the team loses 50 points for failing to
// go Nil and gains 60 points for collectively taking 6 tricks".
TEST_CASE("seed 003: Spades team scoring table") {
    struct Row {
        const char* example;
        SpadesBidder first, second;
        int nil_value, total, bags;
    };
    const Row rows[] = {
        {"bids 7 takes 8", {3, false, 5}, {4, false, 3}, 100, 71, 1},
        {"bids 6 takes 5", {2, false, 1}, {4, false, 4}, 100, -60, 0},
        {"nil takes 1, partner bids 6 takes 5 (250)", {0, true, 1}, {6, false, 5}, 50, 10, 0},
        {"nil takes 1, partner bids 6 takes 5 (500)", {0, true, 1}, {6, false, 5}, 100, -40, 0},
        {"nil made, partner bids 4 takes 6 (500)", {0, true, 0}, {4, false, 6}, 100, 142, 2},
        // RULINGS.md: "Two nil bidders in one `spades` partnership: the team contract is 0 and
        // every trick they take is a bag" (each scores +1).
        {"two nils, one takes 2", {0, true, 2}, {0, true, 0}, 100, 0 + 2, 2},
    };
    for (const Row& row : rows) {
        CAPTURE(row.example);
        const SpadesBidder side[2] = {row.first, row.second};
        const auto res = score_spades_side(side, SpadesScoring{10, row.nil_value, true});
        CHECK(total(res.sheet) == row.total);
        CHECK(res.overtricks == row.bags);
    }
}

// "If a team reaches the Winning Score (500 points by default) the game is over
// and that team wins. If both teams reach 500 points in the same round, the team
// with the higher score is the winner. If both teams have the same number of
// points, another round is played to determine the winner."
TEST_CASE("seed 003: the winning score, both over it, equal scores play another hand") {
    // a + c bid 5 + 5 and take 10: 100; b + e bid 1 + 2 and take 3: 30.
    const Hand big{{b, e, e, a, a, a, a, a, c, c, c, c, c}, bids_of(5, 1, 5, 2)};
    SUBCASE("reaching the target ends the game") {
        Table t = play_hands(spades({{"target_score", "100"}}), {big});
        REQUIRE(t.game.over());
        const GameOver go = t.log.last<GameOver>();
        CHECK(go.reason == GameEndReason::target_score);
        CHECK(go.hands_played == 1);
        CHECK(go.scores[us] == 100);
        CHECK(go.scores[them] == 30);
        CHECK(go.ranks[us] == 1);
        CHECK(go.ranks[them] == 2);
    }
    SUBCASE("not reaching it does not") {
        Table t = play_hands(spades({{"target_score", "101"}}), {big});
        CHECK_FALSE(t.game.over());
        CHECK(t.log.count<HandStarted>() == 2);
    }
    SUBCASE("both reach it: the higher score wins") {
        Table t = play_hands(spades({{"target_score", "30"}}), {big});
        REQUIRE(t.game.over());
        const GameOver go = t.log.last<GameOver>();
        CHECK(go.ranks[us] == 1);
        CHECK(go.ranks[them] == 2);
    }
    SUBCASE("equal scores at the target: another hand") {
        // Hand 1: a + c bid 4, take 4 (40); b + e bid 4, take 9 (45). Hand 2 the other way
        // round: 85 each, over the target of 80. Hand 3 as hand 1 decides it.
        const Hand one{{a, a, c, c, b, b, b, b, e, e, e, e, e}, bids_of(2, 2, 2, 2)};
        const Hand two{{b, b, e, e, c, c, c, c, a, a, a, a, a}, bids_of(2, 2, 2, 2)};
        Table t = play_hands(spades({{"target_score", "80"}, {"sandbag_penalty", "off"}}), {one, two, one});
        const auto scored = t.log.all<HandScored>();
        REQUIRE(scored.size() == 3);
        CHECK(scored[1].sides[us].score == 85);
        CHECK(scored[1].sides[them].score == 85);
        REQUIRE(t.game.over());
        const GameOver go = t.log.last<GameOver>();
        CHECK(go.hands_played == 3);
        CHECK(go.scores[us] == 125);
        CHECK(go.scores[them] == 130);
        CHECK(go.ranks[them] == 1);
        CHECK(go.ranks[us] == 2);
    }
}

// "If enabled in the Settings, the "Mercy Rule" means that a team who reaches the
// -200 points ends the game and the other team wins."
TEST_CASE("seed 003: the mercy rule at -200") {
    // a + c bid 13 + 7 = 20 and take nothing: -200. b + e bid 6 + 7 and take all 13.
    const Hand rout{{b, b, b, b, b, b, e, e, e, e, e, e, e}, bids_of(13, 6, 7, 7)};
    SUBCASE("on") {
        Table t = play_hands(spades({{"mercy_rule", "true"}}), {rout});
        const HandScored hs = t.log.last<HandScored>();
        CHECK(hs.sides[us].hand_total == -200);
        CHECK(hs.sides[them].hand_total == 130);
        REQUIRE(t.game.over());
        const GameOver go = t.log.last<GameOver>();
        CHECK(go.reason == GameEndReason::mercy_rule);
        CHECK(go.ranks[them] == 1);
        CHECK(go.ranks[us] == 2);
    }
    SUBCASE("off by default") {
        Table t = play_hands(spades(), {rout});
        CHECK(t.state().scores[us] == -200);
        CHECK_FALSE(t.game.over());
    }
}
