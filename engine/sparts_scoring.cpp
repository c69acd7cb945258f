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

ScoreSheet sparts_count(CardSet taken) {
    ScoreSheet s{};
    const CardSet hearts = of_suit(taken, Suit::hearts);
    const CardSet tens = hearts & (CardSet::of(kTenOfHearts) | CardSet::of(Card::of(ten, Suit::hearts, 1)));
    const CardSet queens = taken & (CardSet::of(kQueenOfSpades) | CardSet::of(Card::of(queen, Suit::spades, 1)));
    const CardSet jacks = taken & (CardSet::of(kJackOfDiamonds) | CardSet::of(Card::of(jack, Suit::diamonds, 1)));
    add(s, ScoreComponent::hearts, -(hearts.size() - tens.size()));
    add(s, ScoreComponent::ten_of_hearts, -10 * tens.size());
    add(s, ScoreComponent::queen_of_spades, -13 * queens.size());
    add(s, ScoreComponent::jack_of_diamonds, 10 * jacks.size());
    return s;
}

}  // namespace sparts
