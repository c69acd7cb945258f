#include "engine/legal_moves.hpp"

#include <bit>

namespace sparts {

const char* to_string(ActionKind kind) {
    switch (kind) {
        case ActionKind::choose: return "choose";
        case ActionKind::pass: return "pass";
        case ActionKind::bid: return "bid";
        case ActionKind::play: return "play";
        case ActionKind::clock_expired: return "clock_expired";
        case ActionKind::show_cards: return "show_cards";
        case ActionKind::moon: return "moon";
    }
    return "?";
}

bool LegalMoves::contains(const Action& a) const {
    if (any && a.kind == ActionKind::show_cards) return show_cards;
    if (any && a.kind == ActionKind::bid && a.blind) return kind == ActionKind::bid && blind_nil && a.bid == 0;
    if (!any || a.kind != kind) return false;
    switch (kind) {
        case ActionKind::choose:
            return (a.choice == HandKind::spades && choose_spades) || (a.choice == HandKind::hearts && choose_hearts);
        case ActionKind::pass:
            return a.cards.size() == pass_count && a.back.size() == back_count && !a.cards.intersects(a.back) &&
                   cards.contains_all(a.cards | a.back);
        case ActionKind::bid: return a.bid >= 0 && a.bid < 32 && ((bids >> a.bid) & 1);
        case ActionKind::play: return a.card.valid() && cards.contains(a.card);
        case ActionKind::clock_expired: return true;
        case ActionKind::show_cards: return show_cards;
        case ActionKind::moon: return a.subtract ? moon_subtract : moon_add;
    }
    return false;
}

std::uint64_t LegalMoves::count() const {
    if (!any) return 0;
    switch (kind) {
        case ActionKind::choose: return std::uint64_t{choose_spades} + choose_hearts;
        case ActionKind::pass: {
            std::uint64_t c = 1;
            const int n = cards.size();
            for (int i = 0; i < pass_count; ++i) c = c * static_cast<std::uint64_t>(n - i) / static_cast<std::uint64_t>(i + 1);
            if (back_count == 1) c *= static_cast<std::uint64_t>(n - pass_count);  // one more card, of the rest
            return pass_count + back_count > n ? 0 : c;
        }
        case ActionKind::bid: return static_cast<std::uint64_t>(std::popcount(bids)) + blind_nil + show_cards;
        case ActionKind::play: return static_cast<std::uint64_t>(cards.size());
        case ActionKind::clock_expired: return 1;
        case ActionKind::show_cards: return 1;
        case ActionKind::moon: return std::uint64_t{moon_add} + moon_subtract;
    }
    return 0;
}

}  // namespace sparts
