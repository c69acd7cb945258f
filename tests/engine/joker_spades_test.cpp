// Joker Spades (seed 003's FAQ and the house variants of docs/RULES.md), driven
// through the engine: which cards are dealt, how the jokers and raised deuces
// rank, follow and break, and the led Big Joker that forces the opponents'
// highest spade. Seats a, b, c, e sit clockwise from the dealer's left (e is
// the dealer); a and c are partners, b and e the others.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "engine/game.hpp"
#include "engine/joker_deck.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

constexpr int e = 0, a = 1, b = 2, c = 3;

Ruleset joker_spades(std::string deck, std::vector<OptionSetting> more = {}) {
    more.insert(more.begin(), {"joker_deck", deck});
    return ruleset("spades", more);
}

Table deal(const Ruleset& r, std::string_view ha, std::string_view hb, std::string_view hc, std::string_view he) {
    Hands h{};
    h[a] = cards(ha), h[b] = cards(hb), h[c] = cards(hc), h[e] = cards(he);
    Table t = open_table(r, e, {stacked(h)});
    for (int s : {a, b, c, e}) t.ok(static_cast<Seat>(s), Action::make_bid(3));
    return t;
}

// The trumps in play, strongest first.
std::string trumps_in_order(const Ruleset& r) {
    std::vector<Card> trumps;
    for (Card card : cards_of_suit(r.joker_deck, deck_in_play(r), Suit::spades)) trumps.push_back(card);
    std::sort(trumps.begin(), trumps.end(),
              [&](Card x, Card y) { return strength(r.joker_deck, x) > strength(r.joker_deck, y); });
    std::string out;
    for (Card card : trumps) out += (out.empty() ? "" : " ") + to_string(card);
    return out;
}

// The big-little deck: hearts with a, and b, c, e void in them.
constexpr std::string_view kA = "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2C";
constexpr std::string_view kB = "JK2 3S 4S 5S 3C 4C 5C 6C 7C 8C 9C TC JC";
constexpr std::string_view kC = "AS KS QS JS TS 9S 8S QC KC AC 3D 4D 5D";
constexpr std::string_view kE = "JK1 2S 6S 7S 6D 7D 8D 9D TD JD QD KD AD";

}  // namespace

// 003 FAQ: "All 52 cards will be dealt, except the 2 of diamonds and the 2 of hearts
// which will be replaced by the two joker cards."
TEST_CASE("joker spades: the deck of each variant and its trumps, strongest first") {
    const Ruleset big = joker_spades("big-little");
    CHECK(deck_in_play(big).size() == 52);
    CHECK(deck_in_play(big).contains(kBigJoker));
    CHECK_FALSE(deck_in_play(big).contains(card("2D")));
    CHECK_FALSE(deck_in_play(big).contains(card("2H")));
    CHECK(trumps_in_order(big) == "JK1 JK2 AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S");

    const Ruleset jjdd = joker_spades("jjdd");
    CHECK(deck_in_play(jjdd).size() == 52);
    CHECK(deck_in_play(jjdd).contains(card("2D")));
    CHECK_FALSE(deck_in_play(jjdd).contains(card("2C")));
    CHECK_FALSE(deck_in_play(jjdd).contains(card("2H")));
    CHECK(trumps_in_order(jjdd) == "JK1 JK2 2D 2S AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S");
    CHECK(cards_of_suit(jjdd.joker_deck, deck_in_play(jjdd), Suit::diamonds).size() == 12);

    const Ruleset high = joker_spades("deuces-high");
    CHECK(trumps_in_order(high) == "JK1 JK2 2S AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S");

    // Dealt: every hand of 13 from those 52, never a removed deuce.
    for (const Ruleset& r : {big, jjdd, high}) {
        auto g = Game::create(r, 7);
        REQUIRE(g);
        g->start();
        CardSet all;
        for (int s = 0; s < 4; ++s) {
            CHECK(g->state().hands[s].size() == 13);
            all |= g->state().hands[s];
        }
        CHECK(all == deck_in_play(r));
    }
}

// 003 FAQ: "the big joker ... jokers high". A joker trumps a suit led, the Big Joker
// over the Little, and both over the ace of spades; in deuces-high the 2 of spades
// beats the ace too.
TEST_CASE("joker spades: the Big Joker takes the Little Joker and the ace, and deuces-high raises the 2 of spades") {
    for (const char* variant : {"big-little", "deuces-high"}) {
        CAPTURE(variant);
        const Ruleset r = joker_spades(variant);
        Table t = deal(r, kA, kB, kC, kE);
        t.play("KH");
        t.play("JK2");  // b is void in hearts: a joker trumps and breaks spades
        CHECK(t.log.count<SpadesBroken>() == 1);
        t.play("AS");
        t.play("JK1");
        CHECK(int(t.log.last<TrickWon>().winner) == e);
        t.play("2S");   // e leads the 2 of spades
        t.play("2C");
        CHECK(t.refused(static_cast<Seat>(b), Action::play(card("3C"))) == "must_follow_suit");
        t.play("5S");
        t.play("KS");
        const int winner = t.log.last<TrickWon>().winner;
        if (std::string(variant) == "big-little") CHECK(winner == c);  // the king over the 2
        else CHECK(winner == e);                                       // the raised 2 over the king
    }
}

// A joker is a spade for leading: it may not be led before spades are broken, and
// a player holding one must follow a spade lead with it.
// 003 FAQ: "if the big joker is led, opponents must play their highest spade in that
// trick. If the big joker is played during a hand, opponents are not forced to play
// their highest spade."
TEST_CASE("joker spades: a led Big Joker forces each opponent's highest spade, not the partner's") {
    constexpr std::string_view ha = "JK2 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH";
    constexpr std::string_view hb = "JK1 3S 4S 5S 2C 3C 4C 5C 6C 7C 8C 9C TC";
    constexpr std::string_view hc = "AS KS QS JS TS 9S 8S JC QC KC AC 3D 4D";
    constexpr std::string_view he = "2S 6S 7S 5D 6D 7D 8D 9D TD JD QD KD AD";

    const Ruleset forced = joker_spades("big-little", {{"big_joker_forces_highest", "true"}});
    Table t = deal(forced, ha, hb, hc, he);
    CHECK(t.refused(static_cast<Seat>(a), Action::play(card("JK2"))) == "spades_not_broken");
    t.play("KH");
    t.play("5S");  // b trumps: spades are broken
    t.play("3D");
    t.play("5D");
    REQUIRE(int(t.log.last<TrickWon>().winner) == b);
    t.play("JK1");
    // c, an opponent, holds seven spades: only the ace.
    CHECK(names(t.game.legal_moves(static_cast<Seat>(c)).cards) == "AS");
    CHECK(t.refused(static_cast<Seat>(c), Action::play(card("8S"))) == "must_play_highest_spade");
    t.play("AS");
    // e, b's partner, follows as usual.
    CHECK(names(t.game.legal_moves(static_cast<Seat>(e)).cards) == "2S 6S 7S");
    t.play("2S");
    // a, an opponent, holds one trump, the Little Joker: it must go.
    CHECK(names(t.game.legal_moves(static_cast<Seat>(a)).cards) == "JK2");
    CHECK(t.refused(static_cast<Seat>(a), Action::play(card("4H"))) == "must_follow_suit");
    t.play("JK2");
    CHECK(int(t.log.last<TrickWon>().winner) == b);

    // Without the option, the led Big Joker is a spade lead like any other.
    Table free = deal(joker_spades("big-little"), ha, hb, hc, he);
    for (const char* card_name : {"KH", "5S", "3D", "5D", "JK1"}) free.play(card_name);
    CHECK(free.game.legal_moves(static_cast<Seat>(c)).cards.size() == 7);
    free.play("8S");
    free.play("2S");
    CHECK(names(free.game.legal_moves(static_cast<Seat>(a)).cards) == "JK2");  // still a spade to follow with
}

// JJDD: the 2 of diamonds is a trump, so it does not follow diamonds; it ranks
// under the jokers and over the 2 of spades, which ranks over the ace.
TEST_CASE("joker spades: jjdd's 2 of diamonds is a spade between the Little Joker and the 2 of spades") {
    const Ruleset r = joker_spades("jjdd");
    Table t = deal(r, "KD 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                   "2D QD JD 3S 4S 4C 5C 6C 7C 8C 9C TC JC",
                   "2S 6S 8S 9S TS JS QS KS AS 3C QC KC AC",
                   "JK1 JK2 5S 7S 3D 4D 5D 6D 7D 8D 9D TD AD");
    t.play("KD");
    CHECK(t.refused(static_cast<Seat>(b), Action::play(card("2D"))) == "must_follow_suit");
    t.play("QD");
    t.play("6S");  // c has no diamond
    t.play("AD");
    REQUIRE(int(t.log.last<TrickWon>().winner) == c);
    t.play("AS");
    t.play("5S");
    t.play("3H");  // a has no trump
    CHECK(t.refused(static_cast<Seat>(b), Action::play(card("4C"))) == "must_follow_suit");
    t.play("2D");  // b follows the spade lead with the 2 of diamonds, and takes the ace
    CHECK(int(t.log.last<TrickWon>().winner) == b);
    t.play("3S");
    t.play("2S");
    t.play("7S");
    t.play("4H");
    CHECK(int(t.log.last<TrickWon>().winner) == c);  // the 2 of spades over the 7
    t.play("8S");
    t.play("JK2");
    t.play("5H");
    t.play("4S");
    CHECK(int(t.log.last<TrickWon>().winner) == e);
}

TEST_CASE("joker spades: the options' refusals") {
    auto sparts_jokers = make_ruleset("sparts", std::vector<OptionSetting>{{"joker_deck", "big-little"}});
    REQUIRE_FALSE(sparts_jokers);
    CHECK(sparts_jokers.error().code == ErrorCode::option_not_for_ruleset);
    auto bad = make_ruleset("spades", std::vector<OptionSetting>{{"joker_deck", "three"}});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == ErrorCode::invalid_option_value);
    auto alone = make_ruleset("worldwinner-spades", std::vector<OptionSetting>{{"big_joker_forces_highest", "true"}});
    REQUIRE_FALSE(alone);
    CHECK(alone.error().code == ErrorCode::invalid_option_value);
    auto ok = make_ruleset("worldwinner-spades", std::vector<OptionSetting>{{"joker_deck", "jjdd"}, {"big_joker_forces_highest", "true"}});
    CHECK(ok);
}
