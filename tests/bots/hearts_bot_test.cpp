// The basic and the strong bot playing the `hearts` preset (docs/RULES.md, "### `hearts`"):
// standard Hearts, a heart 1 point taken, the queen of spades 13, the lowest score wins.
// Each situation is a stacked deal (after the first hand's pass of 3 to the left); the
// bot is asked through decide() with the seat's view and a memory fed the table's
// events, as in bot_strategy_test.cpp. The strong bot is asked too where it is cheap
// (its passes are the basic bot's).
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "bot_situation.hpp"
#include "bots/bot.hpp"
#include "engine/seed_support.hpp"
#include "engine/view.hpp"

using namespace sparts;
using namespace seedtest;
using namespace bot_situation;

namespace {

Ruleset hearts(std::vector<OptionSetting> options = {}) { return ruleset("hearts", std::move(options)); }

// The first hand's pass (3 to the left), seat 0 dealt `mine`.
Table passing_table(std::string_view mine, std::vector<OptionSetting> options = {}) {
    const Ruleset r = hearts(std::move(options));
    Table t = open_table(r, 3, {complete_deal(r, hands_with({{0, mine}}))});
    REQUIRE(t.game.phase() == Phase::passing);
    REQUIRE(t.log.last<PassingStarted>().distance == 1);
    return t;
}

// Seat 0's three cards to pass, as the basic bot and the strong bot choose them.
std::vector<std::pair<BotLevel, CardSet>> passes(const Table& t) {
    std::vector<std::pair<BotLevel, CardSet>> out;
    for (const auto& [level, a] : decisions(t, 0)) {
        REQUIRE(a.kind == ActionKind::pass);
        REQUIRE(a.cards.size() == 3);
        out.emplace_back(level, a.cards);
    }
    return out;
}

// Plays the cards of the trick in play (from whoever is to play) until it is `seat`'s turn.
void play_until(Table& t, Seat seat, std::string_view cards_in_order) {
    for (Card c : card_list(cards_in_order)) t.play(c);
    REQUIRE(t.turn() == seat);
}

// A hearts table whose hands after the pass are `after` (the rest dealt out, never of a
// suit in a seat's `avoid` mask), at seat 0's card: the first trick played, then the
// cards of the trick in play.
Table table_at(const Ruleset& r, const Hands& after, std::string_view first_trick, std::string_view trick,
               std::array<unsigned, kMaxSeats> avoid = {}) {
    Table t = table_after_pass(r, 3, after, {}, avoid);
    play_tricks(t, tricks_from({first_trick}));
    play_until(t, 0, trick);
    return t;
}

}  // namespace

// ------------------------------------------------------------------ passing

TEST_CASE("hearts bots pass the queen of spades with one small spade, and keep it with three") {
    // Seed 000 (quoted in basic_pass.cpp): "If you were dealt the queen of spades, it's best
    // to pass it unless you have at least three other spades to support it."
    for (const bool guarded : {false, true}) {
        INFO(std::string(guarded ? "Q 2 3 4 of spades" : "Q 4 of spades"));
        const Table t = passing_table(guarded ? "QS 2S 3S 4S 2C 5C 8C 9C JC 3D 6D TD 8H"
                                              : "QS 4S 2C 5C 8C 9C JC 3D 6D TD 2H 5H 8H");
        for (const auto& [which, passed] : passes(t)) {
            const BotLevel level = which;  // copies: clang 15 cannot capture a structured binding (INFO does)
            const CardSet pass = passed;
            INFO(std::string(to_string(level)) << ": " << names(pass));
            CHECK(pass.contains(kQueenOfSpades) == !guarded);
        }
    }
}

TEST_CASE("hearts bots pass the queen with their high side cards, not their low hearts") {
    // Low hearts duck heart leads all hand; the jack of clubs and ten of diamonds win
    // tricks that may carry points. (Before the fix in basic_pass.cpp the bot passed
    // the queen with the 5 and 8 of hearts.)
    const Table t = passing_table("QS 4S 2C 5C 8C 9C JC 3D 6D TD 2H 5H 8H");
    for (const auto& [which, passed] : passes(t)) {
        const BotLevel level = which;  // copies: clang 15 cannot capture a structured binding (INFO does)
        const CardSet pass = passed;
        INFO(std::string(to_string(level)) << ": " << names(pass));
        CHECK(pass == cards("QS JC TD"));
    }
}

TEST_CASE("hearts bots pass the ace and king of spades when they do not hold the queen") {
    // Without the queen the ace and king of spades are the cards that catch it.
    const Table t = passing_table("AS KS 5S 2C 4C 7C 9C 3D 5D 8D 9D 3H 6H");
    for (const auto& [which, passed] : passes(t)) {
        const BotLevel level = which;  // copies: clang 15 cannot capture a structured binding (INFO does)
        const CardSet pass = passed;
        INFO(std::string(to_string(level)) << ": " << names(pass));
        CHECK(pass.contains_all(cards("AS KS")));
        CHECK_FALSE(pass.intersects(cards("3H 6H")));
    }
}

TEST_CASE("hearts bots pass their high hearts") {
    const Table t = passing_table("AH KH 4H 2S 6S 9S 3C 5C 8C TC 4D 7D JD");
    for (const auto& [which, passed] : passes(t)) {
        const BotLevel level = which;  // copies: clang 15 cannot capture a structured binding (INFO does)
        const CardSet pass = passed;
        INFO(std::string(to_string(level)) << ": " << names(pass));
        CHECK(pass.contains_all(cards("AH KH")));
        CHECK_FALSE(pass.contains(card("4H")));
    }
}

TEST_CASE("hearts bots pass a short suit to make a void") {
    // Seed 000 (quoted in basic_pass.cpp): "see if you can get rid of an entire suit,
    // especially clubs and diamonds." The ace of hearts must go; the two diamonds make
    // the void (rather than the king of a long club suit).
    const Table t = passing_table("AH 2D 9D 3C 5C 8C JC KC 2S 4S 6S 3H 7H");
    for (const auto& [which, passed] : passes(t)) {
        const BotLevel level = which;  // copies: clang 15 cannot capture a structured binding (INFO does)
        const CardSet pass = passed;
        INFO(std::string(to_string(level)) << ": " << names(pass));
        CHECK(pass == cards("AH 2D 9D"));
    }
}

TEST_CASE("hearts bots keep the jack of diamonds when it scores, and pass it to make a void when it does not") {
    // jack_of_diamonds (Omnibus): its taker scores -10, so it is a card to keep and win
    // with. (Before the fix in basic_pass.cpp the bot passed it to make the void.)
    for (const bool omnibus : {true, false}) {
        INFO(std::string(omnibus ? "jack_of_diamonds" : "plain"));
        const Table t = passing_table("JD 4D AH 3C 5C 8C JC KC 2S 4S 6S 3H 7H",
                                      omnibus ? std::vector<OptionSetting>{{"jack_of_diamonds", "true"}}
                                              : std::vector<OptionSetting>{});
        for (const auto& [which, passed] : passes(t)) {
            const BotLevel level = which;  // copies: clang 15 cannot capture a structured binding (INFO does)
            const CardSet pass = passed;
            INFO(std::string(to_string(level)) << ": " << names(pass));
            CHECK(pass.contains(card("AH")));
            CHECK(pass.contains(card("JD")) == !omnibus);
        }
    }
}

// ------------------------------------------------------------------ the first trick

TEST_CASE("hearts bots void in clubs throw a high card on the first trick, never a point card") {
    // No points can be taken on the first trick (no_points_on_first_trick): it is the
    // place to shed a high card. With the queen of spades in hand, the ace of diamonds;
    // without it, the ace of spades (which would catch the queen later) goes first.
    const Ruleset r = hearts();
    for (const bool queen : {true, false}) {
        INFO(std::string(queen ? "holding the queen" : "the queen with seat 1"));
        const Hands after = queen ? hands_with({{0, "QS 3S 8S AH KH 9H 5H AD 7D 4D 2D JD 6D"}, {1, "2C"}})
                                  : hands_with({{0, "AS 3S 8S AH KH 9H 5H AD 7D 4D 2D JD 6D"}, {1, "2C QS"}});
        Table t = table_after_pass(r, 3, after, {}, {no(Suit::clubs)});
        REQUIRE(t.turn() == 1);  // the 2 of clubs leads
        while (t.turn() != 0) t.play(t.game.legal_moves(t.turn()).cards.first());
        for (const auto& [which, chosen] : decisions(t, 0)) {
            const BotLevel level = which;
            const Action a = chosen;
            INFO(std::string(to_string(level)));
            CHECK(to_string(a.card) == (queen ? "AD" : "AS"));
        }
    }
}

// ------------------------------------------------------------------ play

TEST_CASE("hearts bots play under a spade lead while the queen is out") {
    // Seat 3 leads the 9 of spades; seat 0, second, holds the ace, king, 7 and 5: the ace
    // or king could catch the queen from seats 1 and 2, the 7 or 5 cannot.
    const Hands after = hands_with(
        {{0, "2C AS KS 7S 5S 3C 4C 2D 3D 4D 2H 3H 4H"}, {1, "5C QS"}, {2, "7C"}, {3, "AC 9S"}});
    Table t = table_at(hearts(), after, "2C 5C 7C AC", "9S");
    for (const auto& [which, chosen] : decisions(t, 0)) {
        const BotLevel level = which;
        const Action a = chosen;
        INFO(std::string(to_string(level)) << ": " << to_string(a.card));
        CHECK(a.card.suit() == Suit::spades);
        CHECK(a.card.rank() < nine);
    }
}

TEST_CASE("hearts bots drop the queen of spades under the king") {
    // Seat 3 leads the king of spades: the queen under it goes to seat 3 (or to whoever
    // holds the ace), not to seat 0 later.
    const Hands after = hands_with({{0, "2C QS 4S"}, {1, "5C AS"}, {2, "7C"}, {3, "AC KS"}});
    Table t = table_at(hearts(), after, "2C 5C 7C AC", "KS");
    for (const auto& [which, chosen] : decisions(t, 0)) {
        const BotLevel level = which;
        const Action a = chosen;
        INFO(std::string(to_string(level)));
        CHECK(to_string(a.card) == "QS");
    }
}

TEST_CASE("hearts bots void in the suit led dump the queen of spades, or their highest heart, on an opponent") {
    // Seat 1 leads a diamond; seat 0, last and void in diamonds, sheds its worst card.
    for (const bool queen : {true, false}) {
        INFO(std::string(queen ? "holding the queen" : "the queen with seat 2"));
        const Hands after = queen ? hands_with({{0, "2C QS AS AH 5H 3H"}, {1, "AC 5D"}, {2, "5C KD"}, {3, "7C 7D"}})
                                  : hands_with({{0, "2C 4S 6S AH 5H 3H"}, {1, "AC 5D"}, {2, "5C KD QS"}, {3, "7C 7D"}});
        Table t = table_at(hearts(), after, "2C AC 5C 7C", "5D KD 7D", {no(Suit::diamonds)});
        for (const auto& [which, chosen] : decisions(t, 0)) {
            const BotLevel level = which;
            const Action a = chosen;
            INFO(std::string(to_string(level)));
            CHECK(to_string(a.card) == (queen ? "QS" : "AH"));
        }
    }
}

TEST_CASE("hearts bots with a partner dump the queen on an opponent's trick, never on the partner's") {
    // partnership = across: seats 0 and 2 score together. Seat 0, last and void in
    // diamonds, gives the queen to seat 1 or 3, and sheds a plain card under seat 2's king.
    const Ruleset r = hearts({{"partnership", "across"}});
    for (const bool partner_wins : {true, false}) {
        INFO(std::string(partner_wins ? "the partner's king" : "an opponent's king"));
        const Hands after = partner_wins
                                ? hands_with({{0, "2C QS AH 5H 9C"}, {1, "AC 5D"}, {2, "5C KD"}, {3, "7C 7D"}})
                                : hands_with({{0, "2C QS AH 5H 9C"}, {1, "AC 5D"}, {2, "5C 7D"}, {3, "7C KD"}});
        Table t = table_at(r, after, "2C AC 5C 7C", partner_wins ? "5D KD 7D" : "5D 7D KD", {no(Suit::diamonds)});
        for (const auto& [which, chosen] : decisions(t, 0)) {
            const BotLevel level = which;
            const Action a = chosen;
            INFO(std::string(to_string(level)));
            if (partner_wins) {
                CHECK(a.card.suit() != Suit::hearts);
                CHECK(a.card != kQueenOfSpades);
            } else {
                CHECK(to_string(a.card) == "QS");
            }
        }
    }
}

TEST_CASE("hearts bots duck under a trick holding the queen of spades") {
    // Seat 3, void in diamonds, has dropped the queen on seat 2's king; seat 0, last,
    // plays the 7 under it, not the ace over it.
    const Hands after = hands_with({{0, "2C AD 7D"}, {1, "AC 5D"}, {2, "5C KD"}, {3, "7C QS"}});
    Table t = table_at(hearts(), after, "2C AC 5C 7C", "5D KD QS", {no(Suit::diamonds), 0, 0, no(Suit::diamonds)});
    for (const auto& [which, chosen] : decisions(t, 0)) {
        const BotLevel level = which;
        const Action a = chosen;
        INFO(std::string(to_string(level)));
        CHECK(to_string(a.card) == "7D");
    }
}

TEST_CASE("hearts bots lead a low spade to flush out the queen") {
    // Seat 0 won the first trick and holds no spade above the jack: leading spades makes
    // whoever holds the queen play it under the ace or king of another.
    const Hands after = hands_with({{0, "AC 3S 4S 6S 5D 8D 9D 2H 4H 6H 8H TH QH"}, {1, "2C QS"}, {2, "5C AS"}, {3, "7C KS"}});
    Table t = table_after_pass(hearts(), 3, after);
    REQUIRE(t.turn() == 1);
    play_tricks(t, tricks_from({"2C 5C 7C AC"}));
    REQUIRE(t.turn() == 0);
    for (const auto& [which, chosen] : decisions(t, 0)) {
        const BotLevel level = which;
        const Action a = chosen;
        INFO(std::string(to_string(level)));
        CHECK(a.card.suit() == Suit::spades);
    }
}

TEST_CASE("hearts bots take the jack of diamonds when it scores, and duck it when it does not") {
    // jack_of_diamonds (Omnibus): seat 2 has played the jack on seat 1's diamond lead;
    // seat 0, last, takes it with the queen (-10 to its score), or without the option
    // ducks with the 2. (Before the fix in basic_play.cpp the bot ducked in both.)
    for (const bool omnibus : {true, false}) {
        INFO(std::string(omnibus ? "jack_of_diamonds" : "plain"));
        const Ruleset r = omnibus ? hearts({{"jack_of_diamonds", "true"}}) : hearts();
        const Hands after = hands_with({{0, "2C QD 2D"}, {1, "AC 5D"}, {2, "5C JD"}, {3, "7C 3D"}});
        Table t = table_at(r, after, "2C AC 5C 7C", "5D JD 3D", {no(Suit::diamonds)});
        const Action a = decision(BotLevel::basic, t, 0);
        CHECK(to_string(a.card) == (omnibus ? "QD" : "2D"));
        if (omnibus) CHECK(to_string(decision(BotLevel::strong, t, 0).card) == "QD");
    }
}

// ------------------------------------------------------------------ the moon

namespace {

// Seat 1 takes the queen of spades and 12 hearts in the first 11 tricks (seat 2 holds the
// 2 of clubs and leads the first trick); the last heart is still out.
//   `seat3_heart`: seat 3 keeps the 3 of hearts to discard on trick 12, where seat 0
//   holds the ace and 3 of diamonds; otherwise seat 0 holds it, void in clubs on trick 12.
Tricks moon_script(bool seat3_heart) {
    if (seat3_heart) {
        return tricks_from({"2C 3C 4C AC", "AS 2S 3S 4S", "KS 5S 6S 7S", "QS 8S 9S 8D", "JS 2H TS 4H", "AH 5H 6H 7H",
                            "KH 8H 9H TH", "KC JH 5C QH", "QC 4D 7C 9D", "JC 5D 8C TD", "TC 6D 9C JD",
                            "KD 2D 3H AD", "3D QD 7D 6C"});
    }
    return tricks_from({"2C 3C 4C AC", "AS 2S 3S 4S", "KS 5S 6S 7S", "QS 8S 9S 8D", "JS 2H TS 4H", "AH 5H 6H 7H",
                        "KH 8H 9H TH", "KC JH 5C QH", "QC 4D 7C 9D", "JC 5D 8C TD", "AD 6D 7D JD", "TC 2D 9C 3H",
                        "QD KD 6C 3D"});
}

// The table at seat 0's card on trick 12 (the first 11 tricks and 3 cards played).
Table moon_table(bool seat3_heart) {
    const Ruleset r = hearts();
    const Tricks script = moon_script(seat3_heart);
    const ScriptDeal deal = deal_from_script(4, 2, script, false);
    Table t = table_after_pass(r, 3, deal.hands);
    REQUIRE(t.turn() == 2);
    for (int i = 0; i < 11; ++i) {
        INFO("trick " << i + 1);
        play_tricks(t, Tricks{script[static_cast<std::size_t>(i)]});
    }
    for (std::size_t i = 0; i < 3; ++i) t.play(script[11][i]);
    REQUIRE(t.turn() == 0);
    const SeatView v = view_of(t.game, 0);
    REQUIRE(v.points_taken[1].size() == 13);  // the queen and 12 hearts
    return t;
}

}  // namespace

TEST_CASE("hearts bots take a trick with the last heart in it to stop the moon") {
    // Seat 1 has every point so far; seat 3 drops the last heart on seat 1's king of
    // diamonds. Ducking with the 3 gives seat 1 the moon (26 to each other player); the
    // ace takes the heart (1 point) and stops it.
    Table t = moon_table(true);
    for (const auto& [which, chosen] : decisions(t, 0)) {
        const BotLevel level = which;
        const Action a = chosen;
        INFO(std::string(to_string(level)));
        CHECK(to_string(a.card) == "AD");
    }
}

TEST_CASE("hearts bots keep their last heart off a would-be moon shooter's trick") {
    // Seat 1 has every point so far and leads the 10 of clubs, which wins; seat 0, last and
    // void in clubs, holds the last heart and the 3 of diamonds. The heart on this trick
    // gives seat 1 the moon for sure; kept, it stops the moon if anyone else takes the last
    // trick (here seat 2's king of diamonds does). (Before the fix in basic_play.cpp the
    // basic bot dumped the heart.)
    Table t = moon_table(false);
    for (const auto& [which, chosen] : decisions(t, 0)) {
        const BotLevel level = which;
        const Action a = chosen;
        INFO(std::string(to_string(level)));
        CHECK(to_string(a.card) == "3D");
    }
}

// moon_scoring "choose": "If shooting the moon or the sun would cause the game to end
// without you winning, it is automatically done what's called a Safety Shoot." (Hardwood,
// docs/RULES.md moon). Seat 0 is dealt the top of every suit and takes every trick (moon_deal); asked,
// the bots add 26 to the others unless that would end the game with seat 0 not alone lowest.
TEST_CASE("hearts bots that shot the moon give the others 26, unless that loses the game") {
    const Ruleset r = hearts({{"moon_scoring", "choose"}, {"pass_rotation", "none"}});
    Table t = open_table(r, 3, {moon_deal(r)});
    for (int guard = 0; guard < 100 && t.game.phase() == Phase::playing; ++guard) autoplay_step(t);
    REQUIRE(t.game.phase() == Phase::moon_choice);
    REQUIRE(t.turn() == 0);
    struct Case {
        std::array<int, 4> scores;
        bool subtract;
        const char* why;
    };
    for (const Case& c : {Case{{0, 0, 0, 0}, false, "nobody reaches 100"},
                          Case{{80, 80, 30, 20}, true, "106 ends it with 56 and 46 below seat 0's 80"},
                          Case{{20, 80, 30, 40}, false, "106 ends it with seat 0 alone lowest at 20"},
                          Case{{60, 90, 10, 20}, true, "116 ends it and 36 beats seat 0's 60"}}) {
        const std::string why = c.why;
        CAPTURE(why);
        GameState s = t.state();
        for (int i = 0; i < 4; ++i) s.scores[static_cast<std::size_t>(i)] = c.scores[static_cast<std::size_t>(i)];
        t.game.reset(s);
        for (const auto& [which, action] : decisions(t, 0)) {
            const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
            INFO(to_string(level));
            CHECK(action == Action::moon(c.subtract));
        }
    }
}
