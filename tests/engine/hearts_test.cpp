// The hearts preset (docs/RULES.md, "The hearts preset"): Hearts as the sites
// play it, each rule from its source, and every option.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/hand_rules.hpp"
#include "engine/hearts_deck.hpp"
#include "engine/hearts_scoring.hpp"
#include "engine/option.hpp"
#include "engine/random_policy.hpp"
#include "seed_support.hpp"
#include "support/harness_policy.hpp"

using namespace seedtest;

namespace {

Ruleset hearts(std::vector<OptionSetting> options = {}) { return ruleset("hearts", std::move(options)); }

// One side's take: hearts, queens, tricks, jacks.
HeartsTake take(int h, int q, int t, int j = 0) { return {h, q, t, j}; }

std::vector<int> scored(std::vector<HeartsTake> takes, const HeartsScoring& how, std::vector<int> before = {}) {
    before.resize(takes.size());
    std::vector<ScoreSheet> out(takes.size());
    score_hearts(takes, before, how, out);
    std::vector<int> totals;
    for (const auto& s : out) totals.push_back(total(s));
    return totals;
}

}  // namespace

// "Each heart is worth one penalty point and the queen of spades is worth 13
// penalty points." "The game is ended by someone reaching or going over 100
// points, and the winner is the player with the lowest score at this point."
TEST_CASE("hearts: the preset's defaults") {
    const Ruleset r = hearts();
    CHECK(r.family() == Family::hearts);
    CHECK(r.seats == 4);
    CHECK(r.hand_size == 13);
    CHECK(r.center_size() == 0);
    CHECK(r.pass_count == 3);
    CHECK(r.target_score == 100);
    CHECK(r.low_score_wins);
    CHECK(r.sides() == 4);
    const HandRules h = hand_rules(r, HandKind::hearts, 1, 0);
    CHECK_FALSE(h.bidding);
    CHECK_FALSE(h.spades_trump);
    CHECK(h.first_lead == FirstLead::lowest_club);
    CHECK(h.hearts_restricted);
    CHECK_FALSE(h.queen_breaks_hearts);
    CHECK(h.no_points_first_trick);
}

// "in a three-player game, the 2 of diamonds should be removed, and each player
// gets 17 cards; in a five-player game, the 2 of diamonds and 2 of clubs should
// be removed so that each player will get 10 cards"; six players: "remove the
// three and four of clubs and the two and three of diamonds".
TEST_CASE("hearts: 3 to 6 players: the lowest cards leave so that the deck deals out") {
    struct Case {
        int seats, hand;
        const char* removed;
    };
    for (const Case c : {Case{3, 17, "2D"}, Case{4, 13, ""}, Case{5, 10, "2C 2D"}, Case{6, 8, "3C 4C 2D 3D"}}) {
        CAPTURE(c.seats);
        const Ruleset r = hearts({{"seats", std::to_string(c.seats)}});
        CHECK(r.hand_size == c.hand);
        CHECK(r.center_size() == 0);
        CHECK(hearts_removed(c.seats) == cards(c.removed));
        CHECK(deck_in_play(r) == (CardSet::deck(1, 0) & ~cards(c.removed)));
        Game g = std::move(*Game::create(r, 5));
        g.start();
        CardSet all;
        for (int s = 0; s < c.seats; ++s) {
            CHECK(g.state().hands[s].size() == c.hand);
            all |= g.state().hands[s];
        }
        CHECK(all == deck_in_play(r));
    }
    for (const char* bad : {"2", "7", "10"})
        CHECK(make_ruleset("hearts", std::vector<OptionSetting>{{"seats", bad}}).error().code == ErrorCode::invalid_option_value);
}

// "In the first hand, you pass to the player on your left. In the second, you pass
// to the player on your right. In the third, you pass to the player across from you.
// In the fourth, you don't pass any cards." With three: "1st hand: Pass to the left /
// 2nd hand: Pass to the right / 3rd hand: No passing".
TEST_CASE("hearts: the pass rotation, hand by hand") {
    auto distances = [](const Ruleset& r, int hands) {
        std::vector<int> out;
        for (int i = 0; i < hands; ++i) out.push_back(hearts_pass_distance(r, i));
        return out;
    };
    CHECK(distances(hearts(), 8) == std::vector<int>{1, 3, 2, 0, 1, 3, 2, 0});
    CHECK(distances(hearts({{"seats", "3"}}), 6) == std::vector<int>{1, 2, 0, 1, 2, 0});
    CHECK(distances(hearts({{"seats", "5"}}), 3) == std::vector<int>{1, 4, 0});
    CHECK(distances(hearts({{"seats", "6"}}), 4) == std::vector<int>{1, 5, 3, 0});
    CHECK(distances(hearts({{"pass_rotation", "left-right"}}), 4) == std::vector<int>{1, 3, 1, 3});
    CHECK(distances(hearts({{"pass_rotation", "right"}}), 2) == std::vector<int>{3, 3});
    CHECK(distances(hearts({{"pass_rotation", "across"}}), 2) == std::vector<int>{2, 2});
    CHECK(make_ruleset("hearts", std::vector<OptionSetting>{{"seats", "5"}, {"pass_rotation", "across"}}).error().code ==
          ErrorCode::invalid_option_value);

    // Played: the fourth hand holds (announced, as every no-pass hand is), and
    // pass_rotation none never passes.
    Table t = open_table(hearts(), 0);
    CHECK(t.log.last<PassingStarted>().distance == 1);
    CHECK(t.log.last<PassingStarted>().count == 3);
    Table none = open_table(hearts({{"pass_rotation", "none"}}), 0);
    CHECK(none.log.count<PassingStarted>() == 0);
    CHECK(none.state().phase == Phase::playing);
    Table four = open_table(hearts({{"pass_count", "4"}}), 0);
    CHECK(four.log.last<PassingStarted>().count == 4);
}

// "The player with the 2 of clubs leads by playing that card." "In the first round,
// you may not play a heart or the queen of spades", unless the hand holds nothing
// else; "Hearts are broken when anyone plays a heart when they cannot follow suit."
TEST_CASE("hearts: the 2 of clubs leads, no points on the first trick, hearts wait to be broken") {
    const Ruleset r = hearts({{"pass_rotation", "none"}});
    const int A = 1, B = 2, C = 3, D = 0;
    Hands hands{};
    hands[A] = cards("2C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2H");
    hands[B] = cards("AH KH 2D 3D 5D 6D 7D 8D 9D TD JD QD KD");  // no clubs
    hands[C] = cards("3H 4H 5H 6H 7H 8H 9H TH JH QH QS AD 4D");  // no clubs
    hands[D] = cards("3C 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS");
    Table t = open_table(r, D, {stacked(hands)});
    CHECK(int(t.log.last<PlayStarted>().leader) == A);
    CHECK(t.game.legal_moves(A).cards == cards("2C"));
    t.play("2C");
    CHECK(t.refused(B, Action::play(card("AH"))) == "no_points_on_first_trick");
    t.play("2D");
    // C holds hearts, the queen and two diamonds: only the diamonds are clean.
    CHECK(t.game.legal_moves(C).cards == cards("AD 4D"));
    CHECK(t.refused(C, Action::play(card("QS"))) == "no_points_on_first_trick");
    t.play("AD");
    t.play("3C");
    CHECK(int(t.log.last<TrickWon>().winner) == D);
    // D leads: no hearts to lead yet; A may not lead its heart.
    t.play("2S");
    t.play("4C");  // A has no spade: discards a club
    t.play("3D");
    t.play("QS");  // the queen does not break hearts by default
    CHECK_FALSE(t.state().hearts_broken);
    CHECK(int(t.log.last<TrickWon>().winner) == C);
    CHECK(t.refused(C, Action::play(card("3H"))) == "hearts_not_broken");

    SUBCASE("queen_breaks_hearts") {
        const Ruleset q = hearts({{"pass_rotation", "none"}, {"queen_breaks_hearts", "true"}});
        Table u = open_table(q, D, {stacked(hands)});
        for (const char* c : {"2C", "2D", "AD", "3C", "2S", "4C", "3D", "QS"}) u.play(c);
        CHECK(u.state().hearts_broken);
        u.play("3H");
    }
    SUBCASE("points_on_first_trick") {
        const Ruleset p = hearts({{"pass_rotation", "none"}, {"points_on_first_trick", "true"}});
        Table u = open_table(p, D, {stacked(hands)});
        u.play("2C");
        u.play("AH");
        CHECK(u.state().hearts_broken);
    }
}

// A heart 1, the queen 13; the moon: "that player scores zero and each of his
// opponents score 26 points", or "subtract 26 from the score of the shooter"
// ("new moon"); best: "If shooting the moon or the sun would cause the game to end
// without you winning, it is automatically done" the other way (a safety shoot).
TEST_CASE("hearts: scoring a hand: hearts, the queen, the jack, the moon and the sun") {
    HeartsScoring how;
    CHECK(scored({take(5, 1, 4), take(3, 0, 3), take(5, 0, 6), take(0, 0, 0)}, how) ==
          std::vector<int>{18, 3, 5, 0});
    SUBCASE("the moon adds 26 to each other player") {
        CHECK(scored({take(0, 0, 1), take(13, 1, 9), take(0, 0, 2), take(0, 0, 1)}, how) ==
              std::vector<int>{26, 0, 26, 26});
    }
    SUBCASE("moon_scoring subtract") {
        how.moon = MoonScoring::subtract;
        CHECK(scored({take(0, 0, 1), take(13, 1, 9), take(0, 0, 2), take(0, 0, 1)}, how) ==
              std::vector<int>{0, -26, 0, 0});
    }
    SUBCASE("moon_scoring best: add, unless adding ends the game with the shooter not alone lowest") {
        how.moon = MoonScoring::best;
        const std::vector<HeartsTake> moon = {take(0, 0, 1), take(13, 1, 9), take(0, 0, 2), take(0, 0, 1)};
        CHECK(scored(moon, how, {40, 50, 30, 20}) == std::vector<int>{26, 0, 26, 26});  // no one reaches 100
        CHECK(scored(moon, how, {80, 60, 30, 20}) == std::vector<int>{0, -26, 0, 0});   // 106 ends it, 46 and 56 below 60
        CHECK(scored(moon, how, {80, 20, 30, 40}) == std::vector<int>{26, 0, 26, 26});  // ends with the shooter lowest
        CHECK(scored(moon, how, {80, 60, 10, 20}) == std::vector<int>{0, -26, 0, 0});   // 36 would beat the shooter
        HeartsScoring no_target = how;  // no target: nothing ends the game, so the others get 26
        no_target.target_score = 0;
        CHECK(scored(moon, no_target, {80, 60, 10, 20}) == std::vector<int>{26, 0, 26, 26});
        // The scores after the hand count the jack of diamonds: 72 + 26 = 98 ends nothing,
        // though 82 + 26 would have.
        how.jack_of_diamonds = -10;
        const std::vector<HeartsTake> with_jack = {take(0, 0, 1, 1), take(13, 1, 9), take(0, 0, 2), take(0, 0, 1)};
        CHECK(scored(with_jack, how, {82, 60, 10, 20}) == std::vector<int>{16, 0, 26, 26});
    }
    SUBCASE("jack_of_diamonds: -10 to whoever takes it, moon or not") {
        how.jack_of_diamonds = -10;
        CHECK(scored({take(5, 1, 4, 1), take(3, 0, 3), take(5, 0, 6), take(0, 0, 0)}, how) ==
              std::vector<int>{8, 3, 5, 0});
        CHECK(scored({take(0, 0, 1, 1), take(13, 1, 9), take(0, 0, 2), take(0, 0, 1)}, how) ==
              std::vector<int>{16, 0, 26, 26});
    }
    SUBCASE("shoot_the_sun: every trick scores twice the moon") {
        how.sun = true;
        CHECK(scored({take(0, 0, 0), take(13, 1, 13), take(0, 0, 0), take(0, 0, 0)}, how) ==
              std::vector<int>{52, 0, 52, 52});
        CHECK(scored({take(0, 0, 1), take(13, 1, 12), take(0, 0, 0), take(0, 0, 0)}, how) ==
              std::vector<int>{26, 0, 26, 26});
    }
}

// moon_scoring "choose": "that player can choose to subtract 26 points from his score, or
// to add 26 points to every other player's score" (100freegames.com, docs/RULES.md moon).
// Played: seat 0 takes every trick (moon_deal) and is asked before the hand scores.
TEST_CASE("hearts: moon_scoring choose: the shooter is asked, and the hand scores as it answers") {
    auto shoot = [&](std::vector<OptionSetting> options) {
        options.push_back({"moon_scoring", "choose"});
        options.push_back({"pass_rotation", "none"});
        const Ruleset r = hearts(options);
        Table t = open_table(r, 3, {moon_deal(r)});
        int guard = 0;
        while (t.game.phase() == Phase::playing && ++guard < 100) autoplay_step(t);
        return t;
    };
    for (const bool subtract : {false, true}) {
        CAPTURE(subtract);
        Table t = shoot({});
        // Every trick is played and nothing is scored yet: seat 0 alone may act, and only to answer.
        REQUIRE(t.game.phase() == Phase::moon_choice);
        CHECK(t.state().tricks[0] == 13);
        CHECK(t.log.count<HandScored>() == 0);
        const MoonShot shot = t.log.last<MoonShot>();
        CHECK(shot.seat == 0);
        CHECK(shot.side == 0);
        CHECK(shot.points == 26);
        CHECK(t.game.waiting_for() == 0b0001);
        const LegalMoves m = t.game.legal_moves(0);
        CHECK(m.kind == ActionKind::moon);
        CHECK(m.count() == 2);
        CHECK(m.contains(Action::moon(false)));
        CHECK(m.contains(Action::moon(true)));
        CHECK_FALSE(t.game.legal_moves(1).any);
        CHECK(t.refused(1, Action::moon(true)) == "not_your_turn");
        CHECK(t.refused(0, Action::play(card("2C"))) == "wrong_phase");
        CHECK(t.refused(0, Action::make_bid(3)) == "wrong_phase");
        CHECK(t.game.check_invariants().empty());
        t.ok(0, Action::moon(subtract));
        const HandScored hs = t.log.last<HandScored>();
        std::vector<int> totals;
        for (const auto& side : hs.sides) totals.push_back(side.hand_total);
        CHECK(totals == (subtract ? std::vector<int>{-26, 0, 0, 0} : std::vector<int>{0, 26, 26, 26}));
        // and the next hand is dealt
        CHECK(t.log.last<HandStarted>().hand == 2);
        CHECK(t.game.phase() == Phase::playing);
        CHECK(t.refused(0, Action::moon(subtract)) == "wrong_phase");
    }
    SUBCASE("every trick, with shoot_the_sun: 52") {
        Table t = shoot({{"shoot_the_sun", "true"}});
        REQUIRE(t.game.phase() == Phase::moon_choice);
        CHECK(t.log.last<MoonShot>().points == 52);
        t.ok(0, Action::moon(true));
        CHECK(t.log.last<HandScored>().sides[0].hand_total == -52);
    }
    SUBCASE("partnership: the side's queen taker answers for it") {
        // Seat 0 took the queen (and every trick) for side 0: it answers, not its partner.
        Table t = shoot({{"partnership", "across"}});
        REQUIRE(t.game.phase() == Phase::moon_choice);
        CHECK(t.log.last<MoonShot>().seat == 0);
        CHECK(t.log.last<MoonShot>().side == 0);
        CHECK(t.refused(2, Action::moon(true)) == "not_your_turn");
        t.ok(0, Action::moon(false));
        CHECK(t.log.last<HandScored>().sides[1].hand_total == 26);
    }
    SUBCASE("no moon: the hand scores at once, nobody is asked") {
        const Ruleset r = hearts({{"moon_scoring", "choose"}, {"pass_rotation", "none"}});
        Table t = open_table(r, 3);
        autoplay_hand(t);
        CHECK(t.log.count<MoonShot>() == 0);
    }
}

// "The player's score for that hand is 0 and 26 points are added to the scores of
// the other players", the scores kept per player; partnership Hearts: "When your
// side Shot the Moon, you would score zero, and the ops would take 26."
TEST_CASE("hearts: partnership: partners across add their takes, and a side shoots the moon together") {
    const Ruleset r = hearts({{"partnership", "across"}, {"pass_rotation", "none"}});
    CHECK(r.sides() == 2);
    HeartsScoring how;
    CHECK(scored({take(13, 1, 10), take(0, 0, 3)}, how) == std::vector<int>{0, 26});
    CHECK(make_ruleset("hearts", std::vector<OptionSetting>{{"seats", "5"}, {"partnership", "across"}}).error().code ==
          ErrorCode::invalid_deal);
    CHECK(make_ruleset("hearts", std::vector<OptionSetting>{{"seats", "6"}, {"partnership", "across"}})->sides() == 3);
    // Played: the side of seats 0 and 2 splits the hearts and the queen between them.
    int games = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        Game g = std::move(*Game::create(r, seed));
        Log log;
        log.add(g.start());
        Rng rng(seed, 3);
        while (!g.over()) {
            const Seat s = sparts::testing::next_actor(g);
            auto e = g.apply(s, random_action(g.legal_moves(s), rng));
            REQUIRE(e);
            log.add(*e);
        }
        for (const HandScored& hs : log.all<HandScored>()) {
            REQUIRE(hs.sides.size() == 2);
            CHECK(hs.sides[0].seats == 0b0101);
            const int points = hs.sides[0].hand_total + hs.sides[1].hand_total;
            CHECK(points == 26);  // 26 handed out, moon or not: two sides
        }
        ++games;
    }
    CHECK(games == 40);
}

// "the winner is the player with the lowest score"; a tie for the lowest plays on
// ("A tie-breaker may be played if necessary").
TEST_CASE("hearts: the game ends at the target, ranked lowest first, a tie for the lowest playing on") {
    for (const char* seats : {"3", "4", "5", "6"}) {
        const Ruleset r = hearts({{"seats", seats}, {"target_score", "50"}});
        for (std::uint64_t seed = 1; seed <= 30; ++seed) {
            CAPTURE(seats);
            CAPTURE(seed);
            Game g = std::move(*Game::create(r, seed));
            Log log;
            log.add(g.start());
            Rng rng(seed, 9);
            while (!g.over()) {
                const Seat s = sparts::testing::next_actor(g);
                auto e = g.apply(s, random_action(g.legal_moves(s), rng));
                REQUIRE(e);
                log.add(*e);
            }
            const GameOver over = log.last<GameOver>();
            const auto scores = std::vector<int>(over.scores.begin(), over.scores.begin() + over.side_count);
            const int low = *std::min_element(scores.begin(), scores.end());
            const int high = *std::max_element(scores.begin(), scores.end());
            if (over.reason != GameEndReason::target_score) continue;
            CHECK(high >= 50);
            CHECK(std::count(scores.begin(), scores.end(), low) == 1);  // a tie for the lowest played on
            for (int i = 0; i < over.side_count; ++i) {
                int lower = 0;
                for (int j = 0; j < over.side_count; ++j) lower += scores[j] < scores[i];
                CHECK(over.ranks[i] == 1 + lower);
            }
            // Each hand hands out every point: 26 without a moon, 26 x (sides - 1) with one.
            for (const HandScored& hs : log.all<HandScored>()) {
                int sum = 0;
                for (const auto& side : hs.sides) sum += side.hand_total;
                CHECK((sum == 26 || sum == 26 * (over.side_count - 1)));
            }
        }
    }
}

TEST_CASE("hearts: the options' refusals") {
    auto code = [](const char* preset, std::vector<OptionSetting> o) {
        auto r = make_ruleset(preset, o);
        return r ? std::string("accepted") : std::string(to_string(r.error().code));
    };
    for (const char* name : {"jack_of_diamonds", "queen_breaks_hearts", "points_on_first_trick", "shoot_the_sun"}) {
        CAPTURE(name);
        CHECK(code("spades", {{name, "true"}}) == "option_not_for_ruleset");
        CHECK(code("hearts", {{name, "maybe"}}) == "invalid_option_value");
        CHECK(code("hearts", {{name, "true"}}) == "accepted");
    }
    CHECK(code("sparts", {{"moon_scoring", "subtract"}}) == "option_not_for_ruleset");
    CHECK(code("hearts", {{"moon_scoring", "sometimes"}}) == "invalid_option_value");
    CHECK(code("hearts", {{"pass_rotation", "up"}}) == "invalid_option_value");
    CHECK(code("hearts", {{"pass_count", "0"}}) == "invalid_option_value");
    CHECK(code("hearts", {{"pass_count", "5"}}) == "invalid_option_value");
    CHECK(code("bga-sparts", {{"pass_count", "3"}}) == "option_not_for_ruleset");
    CHECK(code("hearts", {{"nil_value", "50"}}) == "option_not_for_ruleset");
    CHECK(code("hearts", {{"mooning", "true"}}) == "option_not_for_ruleset");
    CHECK(code("spades", {{"partnership", "none"}}) == "option_not_for_ruleset");
    CHECK(code("hearts", {{"target_score", "50"}}) == "accepted");
}
