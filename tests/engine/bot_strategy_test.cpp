// The basic bot in situations from the seed texts' strategy advice, each on a
// stacked deal and quoting the sentence it follows. The bot is asked through
// decide() with the seat's view and a memory fed the table's events.
#include <doctest/doctest.h>

#include "engine/bot.hpp"
#include "engine/view.hpp"
#include "seed_support.hpp"

using namespace sparts;
using namespace seedtest;

namespace {

Action basic_decision(const Table& t, Seat seat) {
    BotMemory memory(t.game.rules(), seat);
    for (const Event& e : t.log.events) memory.observe(e);
    Rng rng(1, 2);
    const SeatView view = view_of(t.game, seat);
    REQUIRE(view.legal.any);
    return decide(BotLevel::basic, view, memory, rng);
}

Hands hands_with(std::initializer_list<std::pair<int, std::string_view>> cards_by_seat) {
    Hands h{};
    for (const auto& [seat, text] : cards_by_seat) h[static_cast<std::size_t>(seat)] = cards(text);
    return h;
}

// Opens a Spades table (dealer 3: seat 0 bids and leads first) on a deal with these cards.
Table spades_table(const Hands& hands, std::array<unsigned, kMaxSeats> avoid = {}) {
    const Ruleset r = ruleset("spades");
    return open_table(r, 3, {complete_deal(r, hands, {}, avoid)});
}

constexpr std::string_view kLowHand = "2S 3S 2H 3H 4H 5H 6H 2D 3D 4D 5D 2C 3C";

}  // namespace

TEST_CASE("basic bids nil with a hand of only low cards") {
    // Seed 000: "On the other hand, if you have mostly low cards (no face cards),
    // it might be worth bidding nil."
    Table t = spades_table(hands_with({{0, kLowHand}}));
    REQUIRE(t.turn() == 0);
    const Action a = basic_decision(t, 0);
    CHECK(a.kind == ActionKind::bid);
    CHECK(a.bid == 0);  // nil
}

TEST_CASE("basic does not bid nil beside a partner who bid nil") {
    // Seed 003: "The individual bids are combined for each team; both players on
    // the team are responsible for reaching the combined team bid." (RULINGS.md:
    // "Two nil bidders in one spades partnership: the team contract is 0 and
    // every trick they take is a bag.")
    const Ruleset r = ruleset("spades");
    Table t = open_table(r, 1, {complete_deal(r, hands_with({{0, kLowHand}}))});  // seat 2 bids first
    t.bid(0);  // seat 2, my partner: nil
    t.bid(4);  // seat 3
    REQUIRE(t.turn() == 0);
    const Action a = basic_decision(t, 0);
    CHECK(a.kind == ActionKind::bid);
    CHECK(a.bid >= 1);
}

TEST_CASE("basic leads an off-suit ace early") {
    // Seed 000: "When playing, lead aces in off suits as soon as possible so you
    // can capture those tricks before other players run out of that suit."
    Table t = spades_table(
        hands_with({{0, "AD KD 5D 7C 8C 9C 4H 6H 8H 3S 5S 7S 9S"}, {1, "AC"}, {2, "AH"}, {3, "AS"}}));
    bid_all(t, {3, 3, 3, 3});
    REQUIRE(t.turn() == 0);
    const Action a = basic_decision(t, 0);
    CHECK(a.kind == ActionKind::play);
    CHECK(to_string(a.card) == "AD");
}

TEST_CASE("basic ducks once its side's bid is made, and takes the trick while it is not") {
    // Seed 000: "Thus, it's important to bid as accurately as possible, and once
    // you've made your bid you will often want to "slough" cards so you don't
    // take any more tricks."
    const Hands hands = hands_with({{0, "AC KC 9C AD 5H"}, {1, "2C 2D KH 5C"}, {2, "3C 3D 6H 6C"}, {3, "4C 4D 7H QC"}});
    const std::array<unsigned, kMaxSeats> avoid = {no(Suit::clubs)};  // seat 0 holds just these clubs
    for (const bool made : {true, false}) {
        INFO((made ? "bid made" : "bid not made"));
        Table t = spades_table(hands, avoid);
        // Seats 0 and 2 bid 1 + 1 (made after two tricks), or 4 + 4.
        bid_all(t, made ? std::array<int, kMaxSeats>{1, 4, 1, 4} : std::array<int, kMaxSeats>{4, 3, 4, 2});
        play_tricks(t, tricks_from({"AC 2C 3C 4C", "AD 2D 3D 4D", "5H KH 6H 7H", "5C 6C QC"}));
        REQUIRE(t.turn() == 0);
        const Action a = basic_decision(t, 0);
        CHECK(to_string(a.card) == (made ? "9C" : "KC"));
    }
}

TEST_CASE("basic passes the queen of spades without three other spades, and keeps it with them") {
    // Seed 000: "If you were dealt the queen of spades, it's best to pass it
    // unless you have at least three other spades to support it."
    for (const char* preset : {"bga-sparts", "sparts"}) {
        for (const bool guarded : {false, true}) {
            INFO(preset << (guarded ? ", guarded" : ", unguarded"));
            const Ruleset r = ruleset(preset);
            const Hands h = hands_with({{0, guarded ? "QS 2S 3S 4S 2C 4C 6C 2D 5D 9D 3H 7H JH"
                                                    : "QS 3S 5S 2C 4C 6C 8C 2D 5D 9D 3H 7H JH"}});
            Table t = open_table(r, 3, {complete_deal(r, h)});
            if (t.game.phase() == Phase::choosing) t.ok(t.turn(), Action::choose(HandKind::hearts));
            REQUIRE(t.game.phase() == Phase::passing);
            const Action a = basic_decision(t, 0);
            REQUIRE(a.kind == ActionKind::pass);
            CHECK(a.cards.contains(kQueenOfSpades) == !guarded);
        }
    }
}

TEST_CASE("basic does not dump the queen of spades on its partner, and does on an opponent") {
    // Seed 002: "Regular Partners- Players combine their bids and their scores
    // (tricks and count)." Seed 000: "Having a void suit allows you to give
    // penalty cards (hearts and the queen of spades) to other players".
    const Ruleset r = ruleset("sparts", {{"partners", "regular"}});  // seats 0 + 2 against 1 + 3
    constexpr std::string_view kMine = "4C QS 2S 5C 6C 7C 2D 3D 4D 5D 2H 3H 4H";
    for (const bool partner_wins : {true, false}) {
        INFO((partner_wins ? "the partner's ace" : "an opponent's ace"));
        const Hands after = partner_wins
                                ? hands_with({{0, kMine}, {1, "AC 3S"}, {2, "2C AS"}, {3, "3C 5S"}})
                                : hands_with({{0, kMine}, {1, "AC 3S"}, {2, "2C 4S"}, {3, "3C AS"}});
        Table t = table_after_pass(r, 3, after);
        bid_all(t, {3, 3, 3, 3});
        // Seat 2 leads the 2 of clubs; seat 1 takes it and leads a spade.
        play_tricks(t, tricks_from({"2C 3C 4C AC"}));
        t.play("3S");
        t.play(partner_wins ? "AS" : "4S");
        t.play(partner_wins ? "5S" : "AS");
        REQUIRE(t.turn() == 0);
        const Action a = basic_decision(t, 0);
        CHECK(to_string(a.card) == (partner_wins ? "2S" : "QS"));
    }
}

TEST_CASE("basic takes a penalty trick to stop a moon, and ducks without one") {
    // Seed 000: "if any player takes all 13 hearts and the queen of spades (all
    // the penalty cards), that player receives 50 points and all other players
    // receive none."
    const Ruleset r = ruleset("bga-sparts");  // Sparts mode: pass 4, the dealer's left leads
    for (const bool threat : {true, false}) {
        INFO((threat ? "one seat holds every penalty card" : "no threat"));
        Hands after = hands_with({{0, "2C 4H 7H KH"}, {1, "AC AH 9H"}, {2, "3C 2H 5H"}, {3, "QS 3H 6H"}});
        const StackedDeal full = complete_deal(r, after, {}, {no(Suit::hearts), 0, 0, no(Suit::clubs)});
        for (int s = 0; s < 4; ++s) after[static_cast<std::size_t>(s)] = full.hands[static_cast<std::size_t>(s)];
        const PassPlan plan = plan_pass(after, 4, 4, 1);
        Table t = open_table(r, 3, {stacked(plan.dealt)});
        t.ok(t.turn(), Action::choose(HandKind::hearts));
        pass_all(t, plan);
        // Seat 1 takes the queen of spades, then (with the threat) four hearts.
        play_tricks(t, tricks_from({"2C AC 3C QS"}));
        if (threat) play_tricks(t, tricks_from({"AH 2H 3H 4H"}));
        t.play("9H");
        t.play("5H");
        t.play("6H");
        REQUIRE(t.turn() == 0);
        const Action a = basic_decision(t, 0);
        CHECK(to_string(a.card) == (threat ? "KH" : "7H"));
    }
}

TEST_CASE("basic chooses Spades with a strong hand and Hearts with a low one") {
    // Seed 000: "If you can bid at least 4, it's almost always best to choose
    // Spades. However, if your hand isn't very strong and might be a bid of 2,
    // Hearts will probably be a better choice."
    const Ruleset r = ruleset("bga-sparts");
    for (const bool strong : {true, false}) {
        INFO((strong ? "strong" : "low"));
        const Hands h = hands_with(
            {{0, strong ? "AS KS QS JS 9S AC KC AH 7D 2D 3H 4C 5C" : "2S 3S 2H 3H 4H 5H 7D 2D 3D 4D 5D 2C 3C"}});
        Table t = open_table(r, 3, {complete_deal(r, h)});
        REQUIRE(t.game.phase() == Phase::choosing);
        REQUIRE(t.turn() == 0);
        const Action a = basic_decision(t, 0);
        CHECK(a.choice == (strong ? HandKind::spades : HandKind::hearts));
    }
}
