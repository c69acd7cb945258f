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

std::array<SpartsLine, kMaxSeats> score_sparts_hand(std::span<const SpartsSeat> seats, const SpartsCombination& how) {
    const int n = static_cast<int>(seats.size());
    std::array<SpartsSeat, kMaxSeats> s{};
    std::copy(seats.begin(), seats.end(), s.begin());
    if (how.reversed) {
        SpartsSeat all{0, 0, {}};
        for (int i = 0; i < n; ++i) {
            all.bid += seats[i].bid, all.tricks += seats[i].tricks;
            for (int c = 0; c < kScoreComponentCount; ++c) add(all.count, static_cast<ScoreComponent>(c), seats[i].count[c]);
        }
        for (int i = 0; i < n; ++i) {
            s[i].bid = all.bid - seats[i].bid;
            s[i].tricks = all.tricks - seats[i].tricks;
            for (int c = 0; c < kScoreComponentCount; ++c)
                s[i].count[c] = static_cast<std::int16_t>(all.count[c] - seats[i].count[c]);
        }
    }
    const bool last_partner_bids = how.partners == Partners::regular || how.partners == Partners::rotating;
    std::array<SpartsLine, kMaxSeats> out{};
    for (int l = 0; l < how.line_count; ++l) {
        SpartsLine& line = out[l];
        line.seats = how.lines[l];
        ScoreSheet count{};
        for (int i = 0; i < n; ++i) {
            if (!((line.seats >> i) & 1)) continue;
            if (!last_partner_bids) line.contract += s[i].bid;
            line.tricks += s[i].tricks;
            for (int c = 0; c < kScoreComponentCount; ++c) add(count, static_cast<ScoreComponent>(c), s[i].count[c]);
        }
        if (last_partner_bids)
            for (int k = 0; k < n; ++k)
                if ((line.seats >> how.bid_order[k]) & 1) line.contract = s[how.bid_order[k]].bid;
        line.sheet = sparts_trick_score(line.contract, line.tricks, how.column, how.trick_value);
        for (int c = 0; c < kScoreComponentCount; ++c) add(line.sheet, static_cast<ScoreComponent>(c), count[c]);
    }
    return out;
}

}  // namespace sparts
