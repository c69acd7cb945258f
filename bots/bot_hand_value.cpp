#include "bots/bot_hand_value.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "bots/bot_reading.hpp"

namespace sparts::bot {

namespace {

// A suit's cards as they play, strongest first (Spartsel's wild jokers left out;
// Joker Spades' jokers are the highest spades).
int sorted_desc(JokerDeck jd, CardSet cards, std::array<Card, 32>& out) {
    int n = 0;
    for (Card c : jd == JokerDeck::none ? without_jokers(cards) : cards) out[static_cast<std::size_t>(n++)] = c;
    std::sort(out.begin(), out.begin() + n, [&](Card a, Card b) { return strength(jd, a) > strength(jd, b); });
    return n;
}

// Cards of c's suit in play, not in `hand`, ranked above `c`.
int higher_outside(Card c, CardSet hand, const Ruleset& rules) {
    const JokerDeck jd = rules.joker_deck;
    int k = 0;
    if (jd != JokerDeck::none) {
        for (Card o : cards_of_suit(jd, deck_in_play(rules), suit_in_play(jd, c)))
            k += strength(jd, o) > strength(jd, c) && !hand.contains(o);
        return k;
    }
    for (int r = c.rank() + 1; r < kRankCount; ++r)
        for (int copy = 0; copy < rules.decks; ++copy)
            if (!hand.contains(Card::of(static_cast<Rank>(r), c.suit(), copy))) ++k;
    return k;
}

// The chance that a suit led for the k-th time (1-based) is followed by every
// other seat, when each holds `a` cards of it on average.
double survives(int k, double a, int others) {
    const double e = a - k + 1;
    const double one = 1.0 / (1.0 + std::exp(-2.0 * (e - 0.4)));
    return std::pow(one, others);
}

}  // namespace

double estimate_tricks(CardSet hand, const Ruleset& rules) {
    const int n = rules.seats, h = rules.hand_size, d = rules.decks;
    const JokerDeck jd = rules.joker_deck;
    const int in_play = rules.cards_in_play();
    // Cards of a suit in play: 13 a deck, but for Joker Spades' longer trumps and shorter side suits.
    const CardSet deck = deck_in_play(rules);
    auto per_suit = [&](Suit s) { return jd == JokerDeck::none ? 13.0 * d : cards_of_suit(jd, deck, s).size(); };
    std::array<Card, 32> cards{};
    double tricks = 0;

    // Trumps: an honour counts when enough other spades guard it against the
    // higher ones out; low spades beyond a normal holding are length tricks.
    const int ls = sorted_desc(jd, cards_of_suit(jd, hand, Suit::spades), cards);
    int counted = 0;
    for (int i = 0; i < ls; ++i) {
        const int higher = higher_outside(cards[static_cast<std::size_t>(i)], hand, rules);
        if (ls - 1 >= higher && higher <= 3) {
            tricks += higher == 0 ? 1.0 : 0.85;
            ++counted;
        }
    }
    const int normal = static_cast<int>(per_suit(Suit::spades) * h / in_play);
    const int length = std::min(ls - counted, std::max(0, ls - normal));
    tricks += 0.8 * length;
    const int spare = ls - counted - length;

    // Side suits: a card that its lower cards guard against the higher ones out
    // wins when the suit still goes round (nobody trumps yet).
    double shortness = 0;
    for (Suit s : {Suit::clubs, Suit::diamonds, Suit::hearts}) {
        const int l = sorted_desc(jd, cards_of_suit(jd, hand, s), cards);
        const double others_avg = (per_suit(s) - l) * h / std::max(1, in_play - h);
        for (int i = 0; i < l; ++i) {
            const Card c = cards[static_cast<std::size_t>(i)];
            const int higher = higher_outside(c, hand, rules);
            if (l - 1 < higher || higher > 2) continue;
            const int round = higher + i + 1;
            double value = survives(round, others_avg, n - 1);
            if (d > 1 && !hand.contains(Card::of(c.rank(), s, 1 - c.copy()))) value *= 0.7;  // its twin is out
            if (higher > 0) value *= n > 4 ? 0.6 : 0.8;
            tricks += value;
        }
        shortness += l == 0 ? 2.0 : l == 1 ? 1.0 : l == 2 ? 0.4 : 0.0;
    }
    tricks += 0.8 * std::min<double>(spare, shortness);
    if (jd == JokerDeck::none) tricks += 0.6 * (hand & CardSet::jokers()).size();  // Spartsel's wild jokers
    // The counts above are right at four seats; with fewer seats each holds more
    // of every suit and wins more, with more seats fewer. Measured in self-play
    // of the basic bot (tricks taken / estimated, over thousands of hands).
    constexpr double kBySeats[kMaxSeats + 1] = {1, 1, 1.6, 1.13, 1.0, 0.8, 0.68, 0.66, 0.6, 0.52, 0.45};
    return tricks * kBySeats[std::clamp(n, 0, kMaxSeats)];
}

bool nil_hand(CardSet hand, bool alone, JokerDeck jd) {
    // Alone (bga-sparts), every other seat works to set a nil and no partner
    // covers it: ask for a safer hand. A joker or raised deuce is a high spade.
    const CardSet spades = cards_of_suit(jd, hand, Suit::spades);
    if (spades.size() >= (alone ? 3 : 4)) return false;
    for (Card c : spades) {
        if (strength(jd, c) >= (alone ? six : queen)) return false;
        if (spades.size() == 3 && strength(jd, c) >= ten) return false;
    }
    for (Suit s : {Suit::clubs, Suit::diamonds, Suit::hearts}) {
        const CardSet suit = cards_of_suit(jd, hand, s);
        for (Card c : suit) {
            int low = 0;
            for (Card o : suit) low += o.rank() <= seven;
            if (c.rank() == ace) return false;
            if (c.rank() == king && (alone || low < 3)) return false;
            if (c.rank() == queen && low < 3) return false;
            if (c.rank() == jack && low < 2) return false;
        }
    }
    return true;
}

double hearts_danger(CardSet hand) {
    double danger = 0;
    const CardSet spades = of_suit(hand, Suit::spades);
    const bool has_queen = hand.contains(kQueenOfSpades);
    int low_spades = 0;
    for (Card c : spades) low_spades += c.rank() < queen;
    if (has_queen && spades.size() - 1 < 3) danger += 3;
    for (Card c : spades)
        if (c.rank() > queen && low_spades < 3) danger += 1;
    for (Card c : of_suit(hand, Suit::hearts)) danger += c.rank() >= jack ? 0.7 : 0;
    for (Suit s : {Suit::clubs, Suit::diamonds})
        for (Card c : of_suit(hand, s)) danger += c.rank() >= king ? 0.4 : 0;
    return danger;
}

}  // namespace sparts::bot
