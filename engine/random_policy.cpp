#include "engine/random_policy.hpp"

#include <bit>

namespace sparts {

Action random_action(const LegalMoves& m, Rng& rng) {
    switch (m.kind) {
        case ActionKind::choose: {
            const bool spades = m.choose_spades && (!m.choose_hearts || rng.below(2) == 0);
            return Action::choose(spades ? HandKind::spades : HandKind::hearts);
        }
        case ActionKind::pass: {
            CardSet left = m.cards, chosen;
            for (int i = 0; i < m.pass_count; ++i) {
                const Card c = left.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(left.size()))));
                left.erase(c);
                chosen.insert(c);
            }
            CardSet back;
            for (int i = 0; i < m.back_count; ++i) {
                const Card c = left.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(left.size()))));
                left.erase(c);
                back.insert(c);
            }
            return Action::pass(chosen, back);
        }
        case ActionKind::bid: {
            if (m.blind_nil || m.show_cards) {
                // Face down: blind nil or show the cards (the bids come after).
                if (m.blind_nil && (!m.show_cards || rng.below(2) == 0)) return Action::blind_nil();
                return Action::show_cards();
            }
            std::uint32_t bids = m.bids;
            for (auto k = rng.below(static_cast<std::uint64_t>(std::popcount(bids))); k > 0; --k) bids &= bids - 1;
            return Action::make_bid(std::countr_zero(bids));
        }
        case ActionKind::play:
            return Action::play(m.cards.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(m.cards.size())))));
        case ActionKind::clock_expired: return Action::clock_expired();
        case ActionKind::show_cards: return Action::show_cards();
        case ActionKind::moon: {
            const bool subtract = m.moon_subtract && (!m.moon_add || rng.below(2) == 0);
            return Action::moon(subtract);
        }
    }
    return Action::clock_expired();
}

}  // namespace sparts
