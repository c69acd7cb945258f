// What a seat (or the table) asks the engine to do.
#pragma once

#include <cstdint>

#include "engine/card_set.hpp"
#include "engine/seat.hpp"

namespace sparts {

// show_cards: blind nil (docs/RULES.md blind_nil): a seat whose cards are still face
// down turns them up instead of bidding blind nil; then it bids as usual.
// moon: the hearts preset's moon_scoring "choose": the shooter adds the moon to every
// other side's score, or takes it off its own.
enum class ActionKind : std::uint8_t { choose, pass, bid, play, clock_expired, show_cards, moon };

struct Action {
    ActionKind kind = ActionKind::play;
    HandKind choice = HandKind::undecided;  // choose: spades or hearts
    std::int8_t bid = 0;                    // bid: 0 is nil where nil is allowed
    bool blind = false;                     // bid: a blind nil (bid 0, the cards still face down)
    Card card;                              // play
    CardSet cards;                          // pass
    CardSet back;                           // pass, multi-pass B: the card to the seat passing to you
    bool subtract = false;                  // moon: off the shooter's score instead of onto the others'

    static Action choose(HandKind k) { Action a; a.kind = ActionKind::choose; a.choice = k; return a; }
    static Action pass(CardSet c, CardSet back = {}) {
        Action a;
        a.kind = ActionKind::pass;
        a.cards = c;
        a.back = back;
        return a;
    }
    static Action make_bid(int n) { Action a; a.kind = ActionKind::bid; a.bid = static_cast<std::int8_t>(n); return a; }
    static Action blind_nil() { Action a = make_bid(0); a.blind = true; return a; }
    static Action show_cards() { Action a; a.kind = ActionKind::show_cards; return a; }
    static Action moon(bool subtract) { Action a; a.kind = ActionKind::moon; a.subtract = subtract; return a; }
    static Action play(Card c) { Action a; a.kind = ActionKind::play; a.card = c; return a; }
    static Action clock_expired() { Action a; a.kind = ActionKind::clock_expired; return a; }

    friend bool operator==(const Action&, const Action&) = default;
};

const char* to_string(ActionKind kind);

}  // namespace sparts
