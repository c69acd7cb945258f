// The basic and the strong bot in situations from the seed texts' strategy advice, each on a
// stacked deal and quoting the sentence it follows. The bot is asked through
// decide() with the seat's view and a memory fed the table's events.
#include <doctest/doctest.h>

#include <bit>
#include <utility>
#include <vector>

#include "bot_situation.hpp"
#include "bots/bot.hpp"
#include "bots/bot_hand_value.hpp"
#include "bots/strong_bot.hpp"
#include "engine/view.hpp"
#include "engine/seed_support.hpp"

using namespace sparts;
using namespace seedtest;
using namespace bot_situation;

namespace {

// Opens a Spades table (dealer 3: seat 0 bids and leads first) on a deal with these cards.
Table spades_table(const Hands& hands, std::array<unsigned, kMaxSeats> avoid = {}) {
    const Ruleset r = ruleset("spades");
    return open_table(r, 3, {complete_deal(r, hands, {}, avoid)});
}

constexpr std::string_view kLowHand = "2S 3S 2H 3H 4H 5H 6H 2D 3D 4D 5D 2C 3C";

}  // namespace

TEST_CASE("bots bid nil with a hand of only low cards") {
    // Seed 000: "On the other hand, if you have mostly low cards (no face cards),
    // it might be worth bidding nil."
    Table t = spades_table(hands_with({{0, kLowHand}}));
    REQUIRE(t.turn() == 0);
    for (const auto& [which, a] : decisions(t, 0)) {
        const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
        INFO(std::string(to_string(level)));
        CHECK(a.kind == ActionKind::bid);
        CHECK(a.bid == 0);  // nil
    }
}

TEST_CASE("bots do not bid nil beside a partner who bid nil") {
    // Seed 003: "The individual bids are combined for each team; both players on
    // the team are responsible for reaching the combined team bid." (RULINGS.md:
    // "Two nil bidders in one spades partnership: the team contract is 0 and
    // every trick they take is a bag.")
    const Ruleset r = ruleset("spades");
    Table t = open_table(r, 1, {complete_deal(r, hands_with({{0, kLowHand}}))});  // seat 2 bids first
    t.bid(0);  // seat 2, my partner: nil
    t.bid(4);  // seat 3
    REQUIRE(t.turn() == 0);
    for (const auto& [which, a] : decisions(t, 0)) {
        const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
        INFO(std::string(to_string(level)));
        CHECK(a.kind == ActionKind::bid);
        CHECK(a.bid >= 1);
    }
}

TEST_CASE("bots lead an off-suit ace early") {
    // Seed 000: "When playing, lead aces in off suits as soon as possible so you
    // can capture those tricks before other players run out of that suit."
    Table t = spades_table(
        hands_with({{0, "AD KD 5D 7C 8C 9C 4H 6H 8H 3S 5S 7S 9S"}, {1, "AC"}, {2, "AH"}, {3, "AS"}}));
    bid_all(t, {3, 3, 3, 3});
    REQUIRE(t.turn() == 0);
    for (const auto& [which, a] : decisions(t, 0)) {
        const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
        INFO(std::string(to_string(level)));
        CHECK(a.kind == ActionKind::play);
        CHECK(to_string(a.card) == "AD");
    }
}

TEST_CASE("bots duck once their side's bid is made, and take the trick while it is not") {
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
        for (const auto& [which, a] : decisions(t, 0)) {
            const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
            INFO(std::string(to_string(level)));
            CHECK(to_string(a.card) == (made ? "9C" : "KC"));
        }
    }
}

TEST_CASE("bots pass the queen of spades without three other spades, and keep it with them") {
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
            for (const auto& [which, a] : decisions(t, 0)) {
                const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
                INFO(std::string(to_string(level)));
                REQUIRE(a.kind == ActionKind::pass);
                CHECK(a.cards.contains(kQueenOfSpades) == !guarded);
            }
        }
    }
}

TEST_CASE("bots do not dump the queen of spades on a partner, and do on an opponent") {
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
        for (const auto& [which, a] : decisions(t, 0)) {
            const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
            INFO(std::string(to_string(level)));
            CHECK(to_string(a.card) == (partner_wins ? "2S" : "QS"));
        }
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
        // Only basic here: with nine tricks to go, strong's simulations find that
        // ducking keeps the king of hearts, the master heart, to stop the moon
        // later at no cost now (the next test holds strong to the last chance).
        const Action a = decision(BotLevel::basic, t, 0);
        CHECK(to_string(a.card) == (threat ? "KH" : "7H"));
    }
}

TEST_CASE("bots stop a moon at the last chance") {
    // Seed 000: "if any player takes all 13 hearts and the queen of spades (all
    // the penalty cards), that player receives 50 points and all other players
    // receive none." Seat 1 has taken the queen and every heart played; at trick
    // 12 it leads the queen of hearts holding the ace: ducking under it gives it
    // the moon, the king takes the trick and stops it.
    const Ruleset r = ruleset("bga-sparts");  // Sparts mode: pass 4 to the left, the dealer's left leads
    const Hands after = hands_with({{0, "KH 3H 2S 3S 4S 2C 3C 4C 5C 6C 7C 8C 9C"},
                                    {1, "AS KS QS JS TS AD KD QD JD TD AC AH QH"},
                                    {2, "5S 6S 7S 2D 3D 4D 5D 6D TC JC QC KC JH"},
                                    {3, "8S 9S 7D 8D 9D 2H 4H 5H 6H 7H 8H 9H TH"}});
    const PassPlan plan = plan_pass(after, 4, 4, 1);
    Table t = open_table(r, 0, {stacked(plan.dealt)});  // seat 1 leads
    REQUIRE(t.game.phase() == Phase::choosing);
    t.ok(t.turn(), Action::choose(HandKind::hearts));
    pass_all(t, plan);
    play_tricks(t, tricks_from({"AS 5S 8S 2S", "KS 6S 9S 3S", "QS 7S 2H 4S", "JS JH 4H 2C", "TS TC 5H 3C",
                                "AD 2D 7D 4C", "KD 3D 8D 5C", "QD 4D 9D 6C", "JD 5D 6H 7C", "TD 6D 7H 8C",
                                "AC JC 8H 9C"}));
    t.play("QH");
    t.play("QC");
    t.play("TH");
    REQUIRE(t.turn() == 0);
    for (const auto& [which, a] : decisions(t, 0)) {
        const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
        INFO(std::string(to_string(level)));
        CHECK(to_string(a.card) == "KH");
    }
}

TEST_CASE("bots choose Spades with a strong hand and Hearts with a low one") {
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
        for (const auto& [which, a] : decisions(t, 0)) {
            const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
            INFO(std::string(to_string(level)));
            CHECK(a.choice == (strong ? HandKind::spades : HandKind::hearts));
        }
    }
}

TEST_CASE("bots let an opponent's nil take a trick") {
    // Seed 000: "If you've been "burned" at nil ... play hard to take tricks
    // from them", and the other side of it: a nil bid is broken by letting its
    // bidder win a trick. Seat 1 bid nil and leads the 9 of hearts; the others
    // play under it; seat 0, last, plays under it too rather than take it with
    // the king.
    const Ruleset r = ruleset("spades");
    const Hands h = hands_with({{0, "KH 4H AC KC QC AD KD 2S 3S 4S 5C 6C 7C"},
                                {1, "9H 2C 3C 2D 3D 4D 5D 6D 7D 5H 8D 9D TD"},
                                {2, "3H 6H"},
                                {3, "2H 7H"}});
    Table t = open_table(r, 0, {complete_deal(r, h)});  // seat 1 bids and leads first
    bid_all(t, {4, 0, 3, 4});                           // by seat: seat 1 bids nil
    t.play("9H");
    t.play("3H");
    t.play("2H");
    REQUIRE(t.turn() == 0);
    for (const auto& [which, a] : decisions(t, 0)) {
        const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
        INFO(std::string(to_string(level)));
        CHECK(to_string(a.card) == "4H");
    }
}

// Joker Spades (docs/RULES.md joker_deck): the jokers are the two highest trumps, so a
// hand holding them counts them as sure tricks and is no nil hand.
TEST_CASE("bots count Joker Spades' jokers as sure tricks, and no hand with a joker bids nil") {
    for (const std::string deck : {"big-little", "jjdd"}) {
        INFO(deck);
        const Ruleset r = ruleset("spades", {{"joker_deck", deck}});
        // Three sure trumps: the jokers over the ace (read as low clubs and diamonds, they were none).
        const CardSet three = cards("JK1 JK2 AS 4H 5H 6H 7H 3D 4D 5D 3C 4C 5C");
        CHECK(bot::estimate_tricks(three, r) >= 2.8);
        Table strong_hand = open_table(r, 3, {complete_deal(r, hands_with({{0, "JK1 JK2 AS 4H 5H 6H 7H 3D 4D 5D 3C 4C 5C"}}))});
        for (const auto& [which, a] : decisions(strong_hand, 0)) {
            const BotLevel level = which;
            INFO(std::string(to_string(level)));
            CHECK(a.kind == ActionKind::bid);
            CHECK(a.bid >= 2);
        }
        // Every other card low: without the joker this is kLowHand's nil.
        Table low = open_table(r, 3, {complete_deal(r, hands_with({{0, "JK2 3S 4S 3H 4H 5H 6H 3D 4D 5D 6D 3C 4C"}}))});
        for (const auto& [which, a] : decisions(low, 0)) {
            const BotLevel level = which;
            INFO(std::string(to_string(level)));
            CHECK(a.kind == ActionKind::bid);
            CHECK(a.bid >= 1);
        }
    }
}

TEST_CASE("bots take a trick with the Little Joker over the ace of spades when last to play") {
    const Ruleset r = ruleset("spades", {{"joker_deck", "big-little"}});
    std::array<unsigned, kMaxSeats> avoid{};
    avoid[1] = avoid[2] = no(Suit::spades);
    Table t = open_table(r, 3, {complete_deal(r, hands_with({{0, "JK1 AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"}, {3, "JK2 2S"}}), {}, avoid)});
    for (int bid : {10, 3, 1, 3}) t.bid(bid);  // seats 0, 1, 2, 3: seat 3's side needs its tricks
    t.play("AS");
    t.play(t.game.legal_moves(t.turn()).cards.first());
    t.play(t.game.legal_moves(t.turn()).cards.first());
    REQUIRE(t.turn() == 3);
    for (const auto& [which, a] : decisions(t, 3)) {
        const BotLevel level = which;
        INFO(std::string(to_string(level)));
        CHECK(a.card == card("JK2"));
    }
}

TEST_CASE("bots pass a nil partner low cards, and a nil bidder passes its high spades") {
    const Ruleset r = ruleset("spades", {{"nil_pass", "2"}});
    Table t = open_table(r, 3, {complete_deal(r, hands_with({{0, "AS KS 2H 3H 4H 5H 6H 2D 3D 4D 5D 2C 3C"},
                                                             {2, "4S 5S 7C 8C 9C TC JC QC KC AC 6D 7D 8D"}}))});
    for (int bid : {0, 4, 5, 3}) t.bid(bid);  // seat 0 bids nil, its partner seat 2 covers it
    REQUIRE(t.game.phase() == Phase::passing);
    for (const auto& [which, a] : decisions(t, 0)) {
        const BotLevel level = which;
        INFO(std::string(to_string(level)));
        CHECK(a.kind == ActionKind::pass);
        CHECK(a.cards == cards("AS KS"));
    }
    for (const auto& [which, a] : decisions(t, 2)) {
        const BotLevel level = which;
        INFO(std::string(to_string(level)));
        CHECK(a.cards.size() == 2);
        for (Card c : a.cards) {
            CHECK(c.suit() != Suit::spades);
            CHECK(c.rank() <= seven);
        }
    }
}

// In Mirror (and Whiz, but a nil) a bid says how many spades its bidder holds: the strong
// bot's deals of the unseen cards keep those counts exactly.
TEST_CASE("strong's sampled deals give each Mirror bidder the spades it bid") {
    const Ruleset r = ruleset("spades", {{"bid_style", "mirror"}});
    Table t = open_table(r, 3, {complete_deal(r, {})});
    for (int i = 0; i < 4; ++i) t.ok(t.turn(), Action::make_bid(std::countr_zero(t.game.legal_moves(t.turn()).bids)));
    REQUIRE(t.game.phase() == Phase::playing);
    const Seat me = t.turn();
    BotMemory memory(r, me);
    for (const Event& e : t.log.events) memory.observe(e);
    const SeatView view = view_of(t.game, me);
    Rng rng(5, 6);
    for (int k = 0; k < 50; ++k) {
        const GameState st = bot::sample_state(view, memory, rng);
        for (int s = 0; s < 4; ++s) {
            if (s == me) continue;
            CHECK(cards_of_suit(r.joker_deck, st.hands[s], Suit::spades).size() == t.state().bids[s]);
        }
    }
}

// Blind nil (docs/RULES.md blind_nil): "To bid Blind Nil, the side must be down by at
// least 200 points, which limits the amount of risk involved." A gamble for a side far
// behind, beside a partner who can cover; otherwise the bots look at their cards.
TEST_CASE("bots bid blind nil far behind beside a partner who can cover, and otherwise show their cards") {
    const Ruleset r = ruleset("spades", {{"blind_nil", "0"}});
    Table t = open_table(r, 3);  // 0-0: every side "not ahead", everyone face down; seat 0 bids first
    REQUIRE(t.game.legal_moves(0).show_cards);
    for (const auto& [which, action] : decisions(t, 0)) {
        const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
        INFO(to_string(level));
        CHECK(action == Action::show_cards());  // level: nothing to gain from the gamble
    }
    GameState behind = t.state();
    behind.scores[0] = -150;  // seats 0 and 2, 250 behind
    behind.scores[1] = 100;
    t.game.reset(behind);
    for (const auto& [which, action] : decisions(t, 0)) {
        const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
        INFO(to_string(level));
        CHECK(action == Action::blind_nil());  // the partner, yet to bid, can cover
    }
    for (const int partner_bid : {0, 2}) {
        CAPTURE(partner_bid);
        GameState after = behind;  // seat 2's turn, its partner (seat 0) has bid
        after.bids[0] = static_cast<std::int8_t>(partner_bid);
        after.bids[1] = 3;
        after.bids_made = 2;
        after.face_down = 0b0100;
        after.turn = 2;
        t.game.reset(after);
        for (const auto& [which, action] : decisions(t, 2)) {
            const BotLevel level = which;  // a copy: clang 15 cannot capture a structured binding (INFO does)
            INFO(to_string(level));
            CHECK(action == Action::show_cards());  // beside a nil, or a partner too weak to cover
        }
    }
}
