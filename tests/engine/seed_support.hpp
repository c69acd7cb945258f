// Helpers for the seed-example tests (tests/engine/seed_*_test.cpp): stacked
// deals built from scripts of tricks, a table that records every event, and a
// simple policy to play out what a test does not script.
//
// A trick script lists each trick's cards in play order, clockwise from its
// leader. deal_from_script() works out who played each card (the first leader
// is given; the winner of each trick leads the next), so the stacked hands are
// exactly the cards each seat plays. play_tricks() then plays the script through
// Game::apply for whichever seat the engine says is to play: if the engine
// disagrees about a winner, the next card is "not in hand" and the test fails.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/game.hpp"
#include "engine/joker_deck.hpp"
#include "engine/score_sheet.hpp"

namespace seedtest {

using namespace sparts;

// ------------------------------------------------------------------ cards

inline Card card(std::string_view text) {
    const auto c = parse_card(text);
    if (!c) FAIL("bad card name in a test: ", std::string(text));
    return *c;
}

inline std::vector<Card> card_list(std::string_view text) {
    std::vector<Card> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ') ++j;
        if (j > i) out.push_back(card(text.substr(i, j - i)));
        i = j;
    }
    return out;
}

inline CardSet cards(std::string_view text) {
    CardSet s;
    for (Card c : card_list(text)) s.insert(c);
    return s;
}

inline std::string names(CardSet s) {
    std::string out;
    for (Card c : s) out += (out.empty() ? "" : " ") + to_string(c);
    return out;
}

inline Seat seat_at(int s, int seats) { return static_cast<Seat>(((s % seats) + seats) % seats); }

// ------------------------------------------------------------------ events

struct Log {
    std::vector<Event> events;

    void add(std::span<const Event> ev) { events.insert(events.end(), ev.begin(), ev.end()); }
    template <class T>
    std::vector<T> all() const {
        std::vector<T> out;
        for (const Event& e : events)
            if (const T* p = std::get_if<T>(&e)) out.push_back(*p);
        return out;
    }
    template <class T>
    int count() const {
        return static_cast<int>(all<T>().size());
    }
    template <class T>
    T last() const {
        const auto v = all<T>();
        REQUIRE_MESSAGE(!v.empty(), "no such event was emitted");
        return v.back();
    }
    void clear() { events.clear(); }
};

// ------------------------------------------------------------------ the table

struct Table {
    Game game;
    Log log;

    const GameState& state() const { return game.state(); }
    Seat dealer() const { return game.state().dealer; }
    Seat turn() const { return game.state().turn; }

    // Applies an action that must be accepted; its events go to the log.
    void ok(Seat seat, const Action& a) {
        auto r = game.apply(seat, a);
        if (!r) FAIL("seat ", int(seat), " was refused: ", to_string(r.error().code), ": ", r.error().message);
        log.add(*r);
    }
    // Applies an action that must be refused; returns the error code's name.
    std::string refused(Seat seat, const Action& a) {
        const GameState before = game.state();
        auto r = game.apply(seat, a);
        if (r) {
            log.add(*r);
            return "accepted";
        }
        CHECK_MESSAGE(game.state() == before, "a refused action changed the game");
        return to_string(r.error().code);
    }
    void play(std::string_view c) { ok(turn(), Action::play(card(c))); }
    void play(Card c) { ok(turn(), Action::play(c)); }
    void bid(int n) { ok(turn(), Action::make_bid(n)); }
};

// The first seed (from 1) whose first dealer is `dealer`.
inline std::uint64_t seed_for_dealer(const Ruleset& rules, Seat dealer) {
    for (std::uint64_t seed = 1; seed < 10000; ++seed) {
        auto g = Game::create(rules, seed);
        if (!g) FAIL("the ruleset is refused: ", g.error().message);
        g->start();
        if (g->state().dealer == dealer) return seed;
    }
    FAIL("no seed gives dealer ", int(dealer));
    return 0;
}

inline Table open_table(const Ruleset& rules, Seat dealer, std::vector<StackedDeal> deals = {}) {
    const std::uint64_t seed = seed_for_dealer(rules, dealer);
    auto g = Game::create(rules, seed, std::move(deals));
    if (!g) FAIL("Game::create refused: ", g.error().message);
    Table t{std::move(*g), {}};
    t.log.add(t.game.start());
    REQUIRE(t.dealer() == dealer);
    return t;
}

inline Ruleset ruleset(std::string_view preset, std::vector<OptionSetting> options = {}) {
    auto r = make_ruleset(preset, options);
    if (!r) FAIL("make_ruleset refused: ", r.error().message);
    return *r;
}

// ------------------------------------------------------------------ deals

using Hands = std::array<CardSet, kMaxSeats>;
using Tricks = std::vector<std::vector<Card>>;

inline Tricks tricks_from(std::initializer_list<std::string_view> lines) {
    Tricks t;
    for (auto line : lines) t.push_back(card_list(line));
    return t;
}

// The index (in play order) of the card that takes a trick: the highest spade
// when spades are trump and any was played, else the highest card of the suit led.
inline int winning_index(const std::vector<Card>& trick, bool spades_trump) {
    int best = 0;
    for (int i = 1; i < static_cast<int>(trick.size()); ++i) {
        const Card c = trick[static_cast<std::size_t>(i)], b = trick[static_cast<std::size_t>(best)];
        if (c.suit() == b.suit()) {
            if (c.rank() > b.rank()) best = i;
        } else if (spades_trump && c.suit() == Suit::spades) {
            best = i;
        }
    }
    return best;
}

struct ScriptDeal {
    Hands hands{};
    std::vector<Seat> winners;
};

inline ScriptDeal deal_from_script(int seats, Seat first_leader, const Tricks& tricks, bool spades_trump) {
    ScriptDeal d;
    Seat leader = first_leader;
    for (const auto& t : tricks) {
        REQUIRE(static_cast<int>(t.size()) == seats);
        for (int i = 0; i < seats; ++i) {
            const Seat s = seat_at(leader + i, seats);
            const Card c = t[static_cast<std::size_t>(i)];
            for (int o = 0; o < seats; ++o) REQUIRE_MESSAGE(!d.hands[o].contains(c), "card twice in script: ", to_string(c));
            d.hands[s].insert(c);
        }
        leader = seat_at(leader + winning_index(t, spades_trump), seats);
        d.winners.push_back(leader);
    }
    return d;
}

// Completes a deal: each seat keeps the cards it has and gets more of the cards
// not yet placed (never of a suit in its `avoid` mask, bit = 1 << suit); the
// center is `center` followed by whatever is left.
inline StackedDeal complete_deal(const Ruleset& rules, Hands hands, std::vector<Card> center = {},
                                 std::array<unsigned, kMaxSeats> avoid = {}) {
    const int n = rules.seats;
    CardSet placed;
    for (int s = 0; s < n; ++s) placed |= hands[s];
    for (Card c : center) placed.insert(c);
    const CardSet rest = deck_in_play(rules) & ~placed;
    for (Card c : rest) {
        int best = -1, need_best = 0;
        for (int s = 0; s < n; ++s) {
            const int need = rules.hand_size - hands[s].size();
            // A Spartsel joker has no suit; Joker Spades' jokers are spades.
            const bool suited = !c.is_joker() || rules.joker_deck != JokerDeck::none;
            const bool avoided = suited && ((avoid[s] >> static_cast<int>(suit_in_play(rules.joker_deck, c))) & 1);
            if (need > need_best && !avoided) best = s, need_best = need;
        }
        if (best >= 0) {
            hands[best].insert(c);
        } else {
            REQUIRE_MESSAGE(static_cast<int>(center.size()) < rules.center_size(), "cannot place ", to_string(c));
            center.push_back(c);
        }
    }
    StackedDeal d;
    for (int s = 0; s < n; ++s) {
        REQUIRE_MESSAGE(hands[s].size() == rules.hand_size, "seat ", s, " has ", hands[s].size(), " cards");
        d.hands[s] = hands[s];
    }
    d.center = center;
    return d;
}

inline unsigned no(Suit s) { return 1u << static_cast<int>(s); }

// A Hearts deal (no pass) in which seat 0 shoots the moon whatever anyone plays: it holds
// the top of every suit and every heart from the 7 up, so it takes every trick.
inline StackedDeal moon_deal(const Ruleset& rules) {
    Hands hands{};
    hands[0] = cards("AC AD AS KS QS AH KH QH JH TH 9H 8H 7H");
    return complete_deal(rules, hands);
}

// Passing: the test states each seat's hand after the pass. Seat t receives the
// first `count` cards of its hand from the seat `distance` to its right; this
// gives the deal to stack and the cards each seat passes.
struct PassPlan {
    Hands dealt{};
    Hands pass{};
};

inline PassPlan plan_pass(const Hands& after, int seats, int count, int distance) {
    PassPlan p;
    if (distance == 0 || count == 0) {
        p.dealt = after;
        return p;
    }
    for (int t = 0; t < seats; ++t) {
        CardSet received;
        for (Card c : after[t]) {
            if (received.size() == count) break;
            received.insert(c);
        }
        const Seat from = seat_at(t - distance, seats);
        p.pass[from] = received;
        p.dealt[from] |= received;
        p.dealt[t] |= after[t] & ~received;
    }
    return p;
}

inline StackedDeal stacked(const Hands& hands, std::vector<Card> center = {}) {
    StackedDeal d;
    d.hands = hands;
    d.center = std::move(center);
    return d;
}

// Everyone passes the planned cards (the table must be passing).
inline void pass_all(Table& t, const PassPlan& plan) {
    REQUIRE(t.game.phase() == Phase::passing);
    for (int s = 0; s < t.game.rules().seats; ++s) t.ok(static_cast<Seat>(s), Action::pass(plan.pass[s]));
}

// Bids by seat, in the engine's bidding order.
inline // Stacks the hands the test wants after the pass of hand 1 (3 cards, one to the left).
Table table_after_pass(const Ruleset& r, Seat dealer, Hands after, std::vector<Card> center = {},
                       std::array<unsigned, kMaxSeats> avoid = {}) {
    const StackedDeal full = complete_deal(r, after, center, avoid);
    for (int s = 0; s < r.seats; ++s) after[s] = full.hands[s];
    const PassPlan plan = plan_pass(after, r.seats, 3, 1);
    Table t = open_table(r, dealer, {stacked(plan.dealt, full.center)});
    REQUIRE(t.log.last<PassingStarted>().distance == 1);
    pass_all(t, plan);
    for (int s = 0; s < r.seats; ++s) REQUIRE(t.state().hands[s] == after[s]);
    return t;
}

inline void bid_all(Table& t, const std::array<int, kMaxSeats>& bids) {
    REQUIRE(t.game.phase() == Phase::bidding);
    while (t.game.phase() == Phase::bidding) t.bid(bids[t.turn()]);
}

inline void play_tricks(Table& t, const Tricks& tricks) {
    for (const auto& trick : tricks)
        for (Card c : trick) t.play(c);
}

// A four-seat layout of thirteen tricks in which seat w[i] takes trick i.
// Tricks 0-8 and 9-11 are "pure" (everyone follows suit: three tricks a suit,
// ranks 2-5, 6-9, T-K, the winner holding the highest); the four aces are each
// seat's last card and make the last trick. Suit order and the holder of each
// ace depend on what the hand's rules need:
//   spades: C D H S. The winner of trick 8 (L) holds the ace of spades, so that at
//           trick 9 it holds only spades and may lead them; it takes trick 12.
//           Requires w[12] == w[8] (and for spades broken only by a spade on a
//           non-spade lead, also w[9] == w[10] == w[8]).
//   sparts: C D S H. The 2 of clubs is the first leader's card in trick 0. L holds
//           the ace of hearts (only hearts at trick 9); w[12] holds the ace of
//           spades and trumps the last trick. Requires w[0] != first, w[12] != w[8].
//   hearts: C D S H, no trump. L holds the ace of hearts; the leader of trick 12
//           takes it. Requires w[0] != first, w[12] == w[11].
enum class Layout { spades, sparts, hearts };

inline Tricks layout_tricks(Layout layout, Seat first, const std::array<int, 13>& w_in) {
    std::array<Seat, 13> w{};
    for (int i = 0; i < 13; ++i) w[i] = static_cast<Seat>(w_in[i]);
    const Seat L = w[8];
    const bool two_of_clubs_leads = layout != Layout::spades;
    if (layout == Layout::spades) REQUIRE(w[12] == L);
    if (layout == Layout::sparts) REQUIRE(w[12] != L);
    if (layout == Layout::hearts) REQUIRE(w[12] == w[11]);
    if (two_of_clubs_leads) REQUIRE(w[0] != first);
    const Suit order_spades[4] = {Suit::clubs, Suit::diamonds, Suit::hearts, Suit::spades};
    const Suit order_other[4] = {Suit::clubs, Suit::diamonds, Suit::spades, Suit::hearts};
    const Suit* order = layout == Layout::spades ? order_spades : order_other;

    Tricks tricks;
    Seat leader = first;
    for (int i = 0; i < 12; ++i) {
        const Suit suit = order[i / 3];
        const int base = 4 * (i % 3);
        std::array<Card, 4> by_seat{};
        by_seat[w[i]] = Card::of(static_cast<Rank>(base + 3), suit);
        int next = base;
        for (int j = 0; j < 4; ++j) {
            const Seat s = seat_at(leader + j, 4);
            if (s != w[i]) by_seat[s] = Card::of(static_cast<Rank>(next++), suit);
        }
        std::vector<Card> trick;
        for (int j = 0; j < 4; ++j) trick.push_back(by_seat[seat_at(leader + j, 4)]);
        tricks.push_back(trick);
        leader = w[i];
    }
    // The last trick: the four aces.
    std::array<Card, 4> ace{};
    std::vector<Suit> left;
    if (layout == Layout::spades) {
        ace[L] = Card::of(Rank::ace, Suit::spades);
        left = {Suit::clubs, Suit::diamonds, Suit::hearts};
    } else if (layout == Layout::sparts) {
        ace[L] = Card::of(Rank::ace, Suit::hearts);
        ace[w[12]] = Card::of(Rank::ace, Suit::spades);
        left = {Suit::clubs, Suit::diamonds};
    } else {
        ace[L] = Card::of(Rank::ace, Suit::hearts);
        left = {Suit::clubs, Suit::diamonds, Suit::spades};
    }
    std::size_t k = 0;
    for (int s = 0; s < 4; ++s)
        if (ace[s] == Card()) ace[s] = Card::of(Rank::ace, left[k++]);
    // Card() is the 2 of clubs (id 0), which is never an ace: the test above is safe.
    std::vector<Card> last;
    for (int j = 0; j < 4; ++j) last.push_back(ace[seat_at(leader + j, 4)]);
    tricks.push_back(last);
    return tricks;
}

// ------------------------------------------------------------------ autoplay

// One step of a simple policy: choose `choice`, pass the lowest cards, bid the
// lowest bid of 1 or more, play the lowest playable card.
inline void autoplay_step(Table& t, HandKind choice = HandKind::spades) {
    const Game& g = t.game;
    switch (g.phase()) {
        case Phase::choosing: t.ok(t.turn(), Action::choose(choice)); break;
        case Phase::passing:
            for (int s = 0; s < g.rules().seats; ++s) {
                const LegalMoves m = g.legal_moves(static_cast<Seat>(s));
                if (!m.any) continue;
                CardSet pass;
                for (Card c : m.cards) {
                    if (pass.size() == m.pass_count) break;
                    pass.insert(c);
                }
                t.ok(static_cast<Seat>(s), Action::pass(pass));
            }
            break;
        case Phase::bidding: {
            const LegalMoves m = g.legal_moves(t.turn());
            int bid = -1;
            for (int b = 1; b < 32 && bid < 0; ++b)
                if ((m.bids >> b) & 1) bid = b;
            if (bid < 0) bid = 0;
            t.ok(t.turn(), Action::make_bid(bid));
            break;
        }
        case Phase::playing: t.ok(t.turn(), Action::play(g.legal_moves(t.turn()).cards.first())); break;
        case Phase::moon_choice: t.ok(t.turn(), Action::moon(false)); break;
        case Phase::game_over: FAIL("the game is over"); break;
    }
}

// Plays with the policy until the current hand is scored (or the game ends).
inline HandScored autoplay_hand(Table& t, HandKind choice = HandKind::spades) {
    const int before = t.log.count<HandScored>();
    int guard = 0;
    while (t.log.count<HandScored>() == before) {
        REQUIRE(++guard < 2000);
        autoplay_step(t, choice);
    }
    return t.log.all<HandScored>()[static_cast<std::size_t>(before)];
}

inline int delta(const SideScore& s, ScoreComponent c) { return s.delta[static_cast<int>(c)]; }

}  // namespace seedtest
