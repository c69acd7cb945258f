#include "bots/bot_reading.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sparts::bot {

int card_points(Card c, HandKind kind, const Ruleset& rules) {
    if (c.is_joker()) return 0;
    const Card face = c.face();
    switch (kind) {
        case HandKind::hearts:
            if (rules.family() == Family::hearts) {
                // The hearts preset's points are taken: a card's value to its taker is their negative.
                if (face == kQueenOfSpades) return -13;
                if (face == kJackOfDiamonds) return -rules.jack_of_diamonds;
                return c.suit() == Suit::hearts ? -1 : 0;
            }
            if (face == kQueenOfSpades) return -26;
            return c.suit() == Suit::hearts ? -2 : 0;
        case HandKind::sparts:
            if (face == kQueenOfSpades) return -13;
            if (face == kJackOfDiamonds) return 10;
            if (face == kTenOfHearts) return rules.ten_of_hearts_minus_one ? -1 : -10;
            return c.suit() == Suit::hearts ? -1 : 0;
        default: return 0;
    }
}

CardSet without_jokers(CardSet cards) { return cards & ~CardSet::jokers(); }

Card lowest(CardSet cards) {
    Card best;
    bool found = false;
    for (Card c : without_jokers(cards))
        if (!found || c.rank() < best.rank()) best = c, found = true;
    return found ? best : cards.first();
}

Card highest(CardSet cards) {
    Card best;
    bool found = false;
    for (Card c : without_jokers(cards))
        if (!found || c.rank() > best.rank()) best = c, found = true;
    return found ? best : cards.first();
}

int suit_length(CardSet cards, Suit suit) { return of_suit(cards, suit).size(); }

Reading::Reading(const SeatView& v, const BotMemory& m)
    : view(v),
      memory(m),
      rules(m.rules()),
      me(m.seat()),
      seats(v.seats),
      kind(v.kind),
      jd(m.rules().joker_deck),
      trump(v.kind != HandKind::hearts),
      hand(v.hand),
      team(v.partners[m.seat()]),
      tricks_left(0) {
    unseen = deck_in_play(rules) & ~hand & ~m.played() & ~v.center_cards;
    for (int i = 0; i < v.trick.count; ++i) unseen.erase(v.trick.cards[i]);
    tricks_left = v.phase == Phase::playing ? rules.hand_size - v.trick_number + 1 : rules.hand_size;
}

CardSet Reading::higher_out(Card card) const {
    if (wild(card)) return {};
    if (jd != JokerDeck::none) {
        CardSet above;
        for (Card c : in_suit(unseen, suit_of(card)))
            if (rank_of(c) > rank_of(card)) above.insert(c);
        return above;
    }
    // The ranks above card's, in its suit, in both decks (card.hpp's bit layout).
    const std::uint64_t above = (std::uint64_t{0x1FFF} >> (card.rank() + 1)) << (card.rank() + 1);
    const std::uint64_t run = above << (16 * static_cast<int>(card.suit()));
    return unseen & CardSet(run, run);
}

bool Reading::may_hold(Seat seat, Suit suit) const {
    if (seat == me) return !in_suit(hand, suit).empty();
    if (!in_suit(memory.known_held(seat), suit).empty()) return true;
    return !memory.void_in(seat, suit) && !in_suit(unseen, suit).empty();
}

namespace {

// 1 - (1 - held / pool)^k, remembered per thread: the strong bot's simulations
// ask for the same few thousand values millions of times.
double chance_of_any(int held, int pool, int k) {
    constexpr int kHeld = 32, kPool = 128, kCount = 64;
    auto compute = [&] { return 1.0 - std::pow(1.0 - std::min(1.0, static_cast<double>(held) / pool), k); };
    if (held >= kHeld || pool >= kPool || k >= kCount) return compute();
    thread_local std::vector<double> table(static_cast<std::size_t>(kHeld * kPool * kCount), -1.0);
    double& c = table[static_cast<std::size_t>((held * kPool + pool) * kCount + k)];
    if (c < 0) c = compute();
    return c;
}

}  // namespace

double Reading::holds_any(Seat seat, CardSet cards) const {
    if (seat == me) return hand.intersects(cards) ? 1.0 : 0.0;
    if (memory.known_held(seat).intersects(cards)) return 1.0;
    // Cards I passed to someone else are not with this seat.
    for (int s = 0; s < seats; ++s)
        if (s != seat) cards &= ~memory.known_held(static_cast<Seat>(s));
    int k = jd == JokerDeck::none ? (cards & CardSet::jokers()).size() : 0;
    for (int suit = 0; suit < kSuitCount; ++suit)
        if (!memory.void_in(seat, static_cast<Suit>(suit))) k += in_suit(cards, static_cast<Suit>(suit)).size();
    const int pool = unseen.size();
    if (k == 0 || pool == 0) return 0.0;
    return chance_of_any(view.hand_sizes[seat], pool, k);
}

TrickRead read_trick(const Reading& r) {
    TrickRead t;
    const Trick& tr = r.view.trick;
    t.count = tr.count;
    for (int i = tr.count + 1; i < r.seats; ++i)
        t.later = static_cast<std::uint16_t>(t.later | (1u << ((tr.leader + i) % r.seats)));
    if (tr.count == 0) return t;
    t.lead = tr.cards[0];
    t.joker_led = r.wild(t.lead);
    int best = 0;
    if (!t.joker_led) {
        for (int i = 1; i < tr.count; ++i) {
            const Card c = tr.cards[i], b = tr.cards[best];
            if (r.wild(c)) continue;
            if (r.suit_of(c) == r.suit_of(b)) {
                if (r.rank_of(c) > r.rank_of(b)) best = i;
            } else if (r.trump && r.suit_of(c) == Suit::spades) {
                best = i;
            }
        }
    }
    t.winning = tr.cards[best];
    t.winner = static_cast<Seat>((tr.leader + best) % r.seats);
    for (int i = 0; i < tr.count; ++i) t.points += r.points(tr.cards[i]);
    return t;
}

bool takes_lead(const Reading& r, const TrickRead& t, Card c) {
    if (t.count == 0) return true;
    if (t.joker_led || r.wild(c)) return false;
    const Card w = t.winning;
    if (r.suit_of(c) == r.suit_of(w)) return r.rank_of(c) > r.rank_of(w);
    return r.trump && r.suit_of(c) == Suit::spades;
}

double win_chance(const Reading& r, const TrickRead& t, Card c) {
    if (!takes_lead(r, t, c)) return 0.0;
    if (r.wild(c)) return 1.0;  // only a led joker gets here: it always wins (seed 002)
    return stands(r, t.count == 0 ? r.suit_of(c) : r.suit_of(t.lead), c, t.later);
}

double stands(const Reading& r, Suit led, Card c, std::uint16_t later) {
    const CardSet spades_out = r.in_suit(r.unseen, Suit::spades);
    double chance = 1.0;
    for (int s = 0; s < r.seats; ++s) {
        if (!((later >> s) & 1)) continue;
        const Seat seat = static_cast<Seat>(s);
        double beat = 0.0;
        const bool may_follow = r.may_hold(seat, led);
        if (r.suit_of(c) == led) {
            // Over it in the suit, or a trump from a seat that cannot follow.
            if (may_follow) beat = r.holds_any(seat, r.higher_out(c));
            if (r.trump && led != Suit::spades && !spades_out.empty() && r.may_hold(seat, Suit::spades)) {
                const double cannot_follow = may_follow ? (r.in_suit(r.unseen, led).size() <= 2 ? 0.5 : 0.0) : 1.0;
                beat = std::max(beat, cannot_follow * r.holds_any(seat, spades_out) * 0.8);
            }
        } else if (r.trump && r.suit_of(c) == Suit::spades) {
            // My trump: over-trumped only by a seat that cannot follow either.
            const double cannot_follow = may_follow ? (r.in_suit(r.unseen, led).size() <= 2 ? 0.5 : 0.0) : 1.0;
            beat = cannot_follow * r.holds_any(seat, r.higher_out(c));
        }
        chance *= 1.0 - std::clamp(beat, 0.0, 1.0);
    }
    return chance;
}

namespace {

int fair_share(const Reading& r) { return std::max(1, r.rules.hand_size / std::max(1, r.seats)); }

int offset_from_dealer(const Reading& r, int seat) { return (seat - r.view.dealer - 1 + 2 * r.seats) % r.seats; }

}  // namespace

bool live_nil(const Reading& r, Seat seat) {
    return r.kind == HandKind::spades && r.memory.nil(seat) && r.view.tricks[seat] == 0;
}

Contract side_contract(const Reading& r, Seat seat) {
    Contract c;
    c.bidding = r.view.bids[seat] != BotMemory::kNoBid;
    if (r.kind != HandKind::spades) return c;
    const std::uint16_t side = r.view.partners[seat];
    for (int s = 0; s < r.seats; ++s) {
        if (!((side >> s) & 1)) continue;
        const bool nil = r.memory.nil(static_cast<Seat>(s));
        if (!nil && r.view.bids[s] > 0) c.bid += r.view.bids[s];
        if (!nil || r.rules.nil_tricks_count_for_partner) c.taken += r.view.tricks[s];
    }
    return c;
}

Contract my_contract(const Reading& r) {
    Contract c;
    const int my_bid = r.view.bids[r.me];
    c.bidding = my_bid >= 0;
    if (!c.bidding) return c;
    if (r.kind == HandKind::spades) {
        c = side_contract(r, r.me);
        c.bidding = true;
        c.nil = r.memory.nil(r.me);
        if (c.nil) c.taken = r.view.tricks[r.me], c.bid = 0, c.exact = true;
        return c;
    }
    // Sparts hands (seed 002): alone, the last partner's bid for a team, or the
    // sum of a progressive pair's bids; the partners' tricks add up.
    const auto bid_of = [&](int s) { return r.view.bids[s] >= 0 ? r.view.bids[s] : fair_share(r); };
    int last = r.me;
    for (int s = 0; s < r.seats; ++s) {
        if (!((r.team >> s) & 1)) continue;
        c.taken += r.view.tricks[s];
        if (offset_from_dealer(r, s) > offset_from_dealer(r, last)) last = s;
    }
    switch (r.rules.partners) {
        case Partners::none: c.bid = my_bid; break;
        case Partners::progressive:
            for (int s = 0; s < r.seats; ++s)
                if ((r.team >> s) & 1) c.bid += bid_of(s);
            break;
        case Partners::regular:
        case Partners::rotating: c.bid = bid_of(last); break;
    }
    c.exact = r.rules.scoring_column == ScoringColumn::spartsel || c.bid == 0;
    return c;
}

}  // namespace sparts::bot
