#include "engine/sparts_scoring.hpp"

namespace sparts {

ScoreSheet sparts_trick_score(int bid, int tricks, ScoringColumn column, int trick_value) {
    ScoreSheet s{};
    if (bid == 0) {
        // "If you bid zero, then you must make exactly zero to get +10."
        add(s, tricks == 0 ? ScoreComponent::zero_bid : ScoreComponent::set, tricks == 0 ? 10 : -10);
        return s;
    }
    const bool made = column == ScoringColumn::sparts ? tricks >= bid : tricks == bid;
    if (!made) {
        add(s, ScoreComponent::set, -10);  // "Failing to make your bid is always -10."
        return s;
    }
    add(s, ScoreComponent::contract, trick_value * bid);
    if (column == ScoringColumn::sparts) add(s, ScoreComponent::overtricks, tricks - bid);
    return s;
}

ScoreSheet sparts_count(CardSet taken, bool ten_counts_one) {
    ScoreSheet s{};
    const CardSet hearts = of_suit(taken, Suit::hearts);
    const CardSet tens = hearts & (CardSet::of(kTenOfHearts) | CardSet::of(Card::of(ten, Suit::hearts, 1)));
    const CardSet queens = taken & (CardSet::of(kQueenOfSpades) | CardSet::of(Card::of(queen, Suit::spades, 1)));
    const CardSet jacks = taken & (CardSet::of(kJackOfDiamonds) | CardSet::of(Card::of(jack, Suit::diamonds, 1)));
    add(s, ScoreComponent::hearts, -(hearts.size() - tens.size()));
    add(s, ScoreComponent::ten_of_hearts, (ten_counts_one ? -1 : -10) * tens.size());
    add(s, ScoreComponent::queen_of_spades, -13 * queens.size());
    add(s, ScoreComponent::jack_of_diamonds, 10 * jacks.size());
    return s;
}

std::array<ScoreSheet, kMaxSeats> sparts_counts(std::span<const CardSet> taken, const Ruleset& rules) {
    std::array<ScoreSheet, kMaxSeats> out{};
    for (std::size_t s = 0; s < taken.size(); ++s) out[s] = sparts_count(taken[s], rules.ten_of_hearts_minus_one);
    if (!rules.mooning) return out;
    const CardSet deck = CardSet::deck(rules.decks, rules.jokers);
    const CardSet penalty = (deck & CardSet::suit(Suit::hearts)) |
                            (deck & (CardSet::of(kQueenOfSpades) | CardSet::of(Card::of(queen, Suit::spades, 1))));
    for (std::size_t m = 0; m < taken.size(); ++m) {
        if (!taken[m].contains_all(penalty)) continue;
        const int negative = rules.decks * (rules.ten_of_hearts_minus_one ? -26 : -35);
        for (std::size_t s = 0; s < taken.size(); ++s) {
            for (auto c : {ScoreComponent::hearts, ScoreComponent::queen_of_spades, ScoreComponent::ten_of_hearts})
                out[s][static_cast<int>(c)] = 0;
            if (s != m) add(out[s], ScoreComponent::moon, negative);
        }
        break;
    }
    return out;
}

}  // namespace sparts
