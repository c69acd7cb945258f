// The random-play harness's player: uniformly random legal actions, except
// that Spades-style bids follow a rough count of sure tricks (with some noise
// and the odd nil), so that games end by their own rules rather than all at the
// hand cap, as they would with uniformly random bids.
#pragma once

#include <bit>
#include <algorithm>
#include <cstdlib>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"

namespace sparts::testing {

inline int rough_trick_estimate(CardSet hand) {
    int estimate = 0;
    for (Card c : hand) {
        if (c.is_joker()) continue;
        if (c.rank() == ace) ++estimate;
        else if (c.rank() == king && c.suit() != Suit::spades) estimate += 1;
        else if (c.suit() == Suit::spades && c.rank() >= jack) ++estimate;
    }
    return estimate * 3 / 4;
}

// Spades hands: once the side has its contract, shed the lowest card (bags
// cost); before, play the highest; now and then anything.
inline Action spades_play(const Game& game, Seat seat, const LegalMoves& m, Rng& rng) {
    const GameState& s = game.state();
    const Ruleset& r = game.rules();
    if (rng.below(4) == 0) return random_action(m, rng);
    int contract = 0, taken = 0;
    for (int i = 0; i < r.seats; ++i)
        if (r.side_of(static_cast<Seat>(i)) == r.side_of(seat)) contract += s.bids[i], taken += s.tricks[i];
    const bool made = taken >= contract;
    Card pick = m.cards.first();
    for (Card c : m.cards)
        if (made ? c.rank() < pick.rank() : c.rank() > pick.rank()) pick = c;
    return Action::play(pick);
}

inline Action harness_action(const Game& game, Seat seat, Rng& rng) {
    const LegalMoves m = game.legal_moves(seat);
    if (game.state().hand_rules.kind != HandKind::spades) return random_action(m, rng);
    if (m.kind == ActionKind::play) return spades_play(game, seat, m, rng);
    if (m.kind != ActionKind::bid) return random_action(m, rng);
    // Blind nil (face down): now and then, else look at the cards.
    if (m.blind_nil || m.show_cards) return m.blind_nil && rng.below(4) == 0 ? Action::blind_nil() : Action::show_cards();
    const int estimate = rough_trick_estimate(game.state().hands[seat]);
    int want = estimate + static_cast<int>(rng.below(3));
    want = std::max(want, 1);                          // a plain bid, not nil
    if (estimate == 0 && rng.below(4) == 0) want = 0;  // the odd nil
    int best = -1;
    for (std::uint32_t bids = m.bids; bids; bids &= bids - 1) {
        const int b = std::countr_zero(bids);
        if (best < 0 || std::abs(b - want) < std::abs(best - want)) best = b;
    }
    return Action::make_bid(best);
}

// The first seat the game waits for (the lowest, while everyone passes).
inline Seat next_actor(const Game& game) {
    const auto w = game.waiting_for();
    return w ? static_cast<Seat>(std::countr_zero(w)) : kNoSeat;
}

}  // namespace sparts::testing
