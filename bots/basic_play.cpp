// The basic bot's trick play. First it settles what it wants from this trick
// (to take it or to lose it), then picks the card:
//
// Spades hands (seeds 000, 003, 004):
//   - needing tricks, take them cheaply: the lowest card that wins for sure,
//     trumping when void "and the trick matters"; let a partner's sure winner
//     stand; "lead aces in off suits as soon as possible" (seed 000); with a lot
//     of spades, lead them to draw trumps (seed 000, seed 003 "If you have five
//     or more spades, lead with a low spade");
//   - once the side's contract is made, duck (seed 000: "once you've made your
//     bid you will often want to "slough" cards so you don't take any more
//     tricks"), unless the opponents need nearly every trick left (set them);
//   - a nil: never take a trick, shed the high cards under others' winners;
//     a partner's nil: take the tricks over it; an opponent's nil: lead low
//     and let it win; "If you've been "burned" at nil ... play hard to take
//     tricks from them" (seed 000).
// Hearts hands (seed 000) and Sparts hands (seeds 001, 002):
//   - avoid points: play under the winner with the highest card that still
//     loses, dump the queen of spades, the 10 of hearts and high hearts on an
//     opponent's trick (never on a partner's), give a partner the jack of
//     diamonds; lead low, and lead spades to flush the queen when it is safe;
//   - Sparts hands: make the bid (exactly, in the Spartsel column), then duck;
//     take a trick with the jack of diamonds when it is free of penalties;
//   - stop a moon: when one opponent has taken every penalty card so far, take
//     a trick with a penalty card in it, and keep the last penalty card out off
//     its tricks;
//   - the hearts preset's jack_of_diamonds (Omnibus): take a trick with the jack
//     in it when it outweighs the points there.
// Following suit, breaking rules, the first-trick rules and jokers are the
// engine's: the bot only ever chooses among view.legal.cards.
#include <algorithm>

#include "bots/basic_bot.hpp"
#include "bots/bot_reading.hpp"

namespace sparts::bot {

namespace {

enum class Aim { win, lose };

struct Plan {
    Aim aim = Aim::lose;
    bool nil = false;             // my own nil: lose at any cost
    bool cover_partner = false;   // a partner's nil: take the trick over it
    Seat nil_target = kNoSeat;    // an opponent's nil to set
    bool moon_stop = false;       // take a penalty card from a would-be moon shooter
    std::uint16_t shooters = 0;   // with moon_stop: the would-be shooter's seats (its side's)
    bool points_game = false;     // hearts or sparts hands: penalty cards count
};

bool is_queen_of_spades(Card c) { return !c.is_joker() && c.face() == kQueenOfSpades; }


// The penalty cards seat `s` has taken this hand (center cards unseen).
int penalty_cards(const Reading& r, Seat s) {
    int k = 0;
    for (Card c : r.memory.won(s)) k += r.points(c) < 0;
    if (s == r.me) for (Card c : r.view.center_cards) k += r.points(c) < 0;
    return k;
}

// Standard Hearts defence (seed 000 describes the moon, not the defence): one
// opponent holds every penalty card taken so far, and enough of them to be
// going for it. Returns its seats (its side's in partnership Hearts), or 0.
std::uint16_t moon_threat(const Reading& r) {
    if (r.kind == HandKind::sparts && !r.rules.mooning) return 0;
    if (r.kind != HandKind::hearts && r.kind != HandKind::sparts) return 0;
    // In partnership Hearts a side shoots the moon with its players' takes together: the
    // threat is one opposing side holding every penalty card taken.
    const bool by_side = r.rules.family() == Family::hearts && r.rules.partnership == Partnership::across;
    std::uint16_t shooters = 0;
    for (int s = 0; s < r.seats; ++s) {
        const Seat seat = static_cast<Seat>(s);
        if (penalty_cards(r, seat) == 0) continue;
        if (r.partner(seat) || seat == r.me) return 0;
        const std::uint16_t side = by_side ? r.view.partners[seat] : static_cast<std::uint16_t>(1u << s);
        if (shooters && shooters != side) return 0;
        shooters = side;
    }
    if (!shooters) return 0;
    const Seat taker = r.memory.center_taker();
    if (taker != kNoSeat && !((shooters >> taker) & 1)) return 0;
    int weight = 0;
    for (int s = 0; s < r.seats; ++s)
        if ((shooters >> s) & 1)
            for (Card c : r.memory.won(static_cast<Seat>(s))) weight += is_queen_of_spades(c) ? 4 : r.points(c) < 0 ? 1 : 0;
    return weight >= 7 ? shooters : 0;
}

Plan spades_plan(const Reading& r, const TrickRead& t) {
    Plan p;
    const Contract mine = my_contract(r);
    if (mine.nil && r.view.tricks[r.me] == 0) {
        p.nil = true;
        return p;
    }
    if (mine.nil) {
        p.aim = Aim::win;  // seed 000: burned at nil, "play hard to take tricks from them"
        return p;
    }
    for (int s = 0; s < r.seats; ++s) {
        const Seat seat = static_cast<Seat>(s);
        if (!live_nil(r, seat)) continue;
        if (r.partner(seat)) {
            // Cover it while its card is still to come or is winning.
            const bool to_come = (t.later >> s) & 1;
            if (t.count == 0 || to_come || t.winner == seat) {
                p.cover_partner = true;
                p.aim = Aim::win;
                return p;
            }
        } else if (t.count == 0 || ((t.later >> s) & 1) || t.winner == seat) {
            p.nil_target = seat;
            p.aim = Aim::lose;
            return p;
        }
    }
    const int need = mine.need();
    if (need > 0) {
        p.aim = Aim::win;
        return p;
    }
    // Made: duck, unless bags do not count, or an opponent needs nearly every trick left.
    p.aim = r.rules.bag_rule == BagRule::none ? Aim::win : Aim::lose;
    for (int s = 0; s < r.seats; ++s) {
        const Seat seat = static_cast<Seat>(s);
        if (seat == r.me || r.partner(seat)) continue;
        const Contract theirs = side_contract(r, seat);
        const int their_need = theirs.need();
        if (their_need > 0 && their_need <= r.tricks_left && their_need >= r.tricks_left - 1) p.aim = Aim::win;
    }
    return p;
}

Plan points_plan(const Reading& r, const TrickRead& t) {
    Plan p;
    p.points_game = true;
    p.shooters = moon_threat(r);
    if (p.shooters) {
        p.moon_stop = true;
        // Take a trick that holds a penalty card (or lead to one).
        bool penalty_in_trick = false;
        for (int i = 0; i < t.count; ++i) penalty_in_trick |= r.points(r.view.trick.cards[i]) < 0;
        if (penalty_in_trick || t.count == 0) {
            p.aim = Aim::win;
            return p;
        }
    }
    if (r.kind == HandKind::hearts) {
        // Omnibus (the hearts preset's jack_of_diamonds): a trick holding the jack and worth
        // more than the points in it is one to take (with basic_pass.cpp keeping the jack:
        // 1.53 points a hand better, head to head against basic without either).
        if (t.points > 0) p.aim = Aim::win;
        return p;
    }
    const Contract c = my_contract(r);
    const int need = c.need();
    if (need > 0 && need <= r.tricks_left) {
        // Needing tricks: take this one unless it already carries a heavy penalty
        // and there is time to take others.
        p.aim = t.points <= -10 && need < r.tricks_left - 1 ? Aim::lose : Aim::win;
    } else if (need == 0 && c.exact) {
        p.aim = Aim::lose;
    } else {
        // Made (Sparts column: +1 a trick over) or out of reach: only a trick
        // with the jack of diamonds and no penalty is worth taking.
        p.aim = t.points > 0 ? Aim::win : Aim::lose;
    }
    return p;
}

// The chance the card now winning stays the winner (for a partner's card).
double holds(const Reading& r, const TrickRead& t) {
    if (t.count == 0) return 0.0;
    if (t.joker_led) return 1.0;
    return stands(r, r.suit_of(t.lead), t.winning, t.later);
}

// What it costs to win with a card: its rank, trumps dearer than the suit led,
// the queen of spades dearest in a points game.
int win_cost(const Reading& r, const TrickRead& t, Card c, const Plan& p) {
    if (r.wild(c)) return 40;
    int cost = r.rank_of(c);
    if (r.trump && r.spade(c) && (t.count == 0 || t.joker_led || r.suit_of(t.lead) != Suit::spades)) cost += 20;
    if (p.points_game) cost -= 3 * r.points(c);
    return cost;
}

bool master(const Reading& r, Card c) { return !r.wild(c) && r.higher_out(c).empty(); }

// The penalty cards not yet played: in my hand or unseen.
int penalty_cards_out(const Reading& r) {
    int k = 0;
    for (Card c : r.hand | r.unseen) k += r.points(c) < 0;
    return k;
}

// How much I want to be rid of a card, on a trick I do not take.
int shed_value(const Reading& r, const TrickRead& t, Card c, const Plan& p) {
    if (r.wild(c)) return p.aim == Aim::lose ? 5 : -60;  // a sure loser later, or a sure winner led
    const int rank = r.rank_of(c);
    const int len = r.in_suit(r.hand, r.suit_of(c)).size();
    if (p.points_game) {
        const bool partner_takes = t.winner != kNoSeat && r.partner(t.winner) && !p.moon_stop;
        const int pts = r.points(c);
        if (partner_takes) {
            if (pts > 0) return 500;           // the jack of diamonds to my side
            if (pts < 0) return -500 + pts;    // never penalties on a partner
        } else {
            // Moon defence: the last penalty card out stays off the would-be shooter's trick
            // (there it completes the moon; taken by anyone else later, it stops it).
            if (pts < 0 && p.moon_stop && t.winner != kNoSeat && ((p.shooters >> t.winner) & 1) &&
                penalty_cards_out(r) == 1)
                return -200 + rank;
            if (pts < 0) return 100 - 8 * pts + rank;  // queen, ten, high hearts on an opponent
            if (pts > 0) return -300;           // never give away the jack of diamonds
        }
        int value = rank;
        // Hearts hands: the ace and king of spades catch the queen while it is out.
        if (r.kind == HandKind::hearts && r.spade(c) && rank > queen && r.unseen.contains(kQueenOfSpades)) value += 30;
        if (r.trump && r.spade(c)) value -= 15;  // keep trumps for the tricks I need
        if (p.aim == Aim::win) value = -rank - (master(r, c) ? 40 : 0) + (len <= 2 ? 5 : 0);
        return value + (len <= 2 ? 3 : 0);
    }
    // Spades hands.
    if (p.aim == Aim::win && !p.nil) {
        // Keep winners and trumps; throw low cards of short suits.
        return -rank - (master(r, c) ? 40 : 0) - (r.spade(c) ? 30 : 0) + (len <= 2 ? 6 : 0);
    }
    // Ducking or nil: shed the high side-suit cards that would take tricks later.
    return rank - (r.spade(c) ? 30 : 0) + (master(r, c) ? 10 : 0);
}

template <class Score>
Card best_of(CardSet cards, Score score) {
    Card best = cards.first();
    int best_score = score(best);
    for (Card c : cards) {
        const int s = score(c);
        if (s > best_score) best = c, best_score = s;
    }
    return best;
}

Card follow(const Reading& r, const TrickRead& t, const Plan& p) {
    const CardSet legal = r.view.legal.cards;
    CardSet winners, losers;
    for (Card c : legal) (takes_lead(r, t, c) ? winners : losers).insert(c);

    if (p.aim == Aim::win) {
        const bool partner_winning = r.partner(t.winner);
        // A partner's sure winner stands, unless it is a nil that I cover.
        if (partner_winning && !p.cover_partner && holds(r, t) >= 0.7 && !losers.empty())
            return best_of(losers, [&](Card c) { return shed_value(r, t, c, p); });
        if (!winners.empty()) {
            // The cheapest card that wins for sure; else the likeliest winner.
            Card pick{};
            int pick_cost = 1 << 20;
            double best_chance = -1;
            Card likeliest{};
            for (Card c : winners) {
                const double chance = win_chance(r, t, c);
                const int cost = win_cost(r, t, c, p);
                if (chance >= 0.9 && cost < pick_cost) pick = c, pick_cost = cost;
                if (chance > best_chance + 1e-9 || (chance > best_chance - 1e-9 && cost < win_cost(r, t, likeliest, p)))
                    best_chance = chance, likeliest = c;
            }
            if (pick_cost < (1 << 20)) return pick;
            bool partner_to_come = false;
            for (int s = 0; s < r.seats; ++s)
                if (((t.later >> s) & 1) && r.partner(static_cast<Seat>(s))) partner_to_come = true;
            // Second hand low: with no sure winner, leave the trick to a partner still to play.
            if (partner_to_come && !p.cover_partner && !losers.empty())
                return best_of(losers, [&](Card c) { return shed_value(r, t, c, p); });
            if (best_chance >= 0.35 || losers.empty()) return likeliest;
        }
        return best_of(losers.empty() ? legal : losers, [&](Card c) { return shed_value(r, t, c, p); });
    }

    // To lose: the card I most want gone among those that do not take the lead.
    if (!losers.empty()) {
        if (p.nil_target != kNoSeat && ((t.later >> p.nil_target) & 1)) {
            // The nil bidder plays after me: stay low so that its card may win.
            return best_of(losers, [&](Card c) { return -r.rank_of(c) - (r.spade(c) ? 20 : 0); });
        }
        return best_of(losers, [&](Card c) { return shed_value(r, t, c, p); });
    }
    // Every card takes the lead: last to play, win with the highest (keep the low
    // ones to duck later) but add no penalty; else the lowest, so others may go over.
    if (t.last()) {
        return best_of(winners, [&](Card c) {
            return r.rank_of(c) + (p.points_game ? 30 * r.points(c) : 0) - (r.spade(c) && r.trump ? 20 : 0);
        });
    }
    return best_of(winners, [&](Card c) {
        return -r.rank_of(c) + (p.points_game ? 30 * r.points(c) : 0) - (r.spade(c) && r.trump ? 20 : 0);
    });
}

Card lead(const Reading& r, const TrickRead& t, const Plan& p) {
    const CardSet legal = r.view.legal.cards;
    if (p.aim == Aim::win) {
        // A sure trick first: off-suit aces and other masters, then trumps.
        Card pick{};
        double pick_score = -1e9;
        const int my_spades = r.in_suit(r.hand, Suit::spades).size();
        const int spades_out = r.in_suit(r.unseen, Suit::spades).size();
        for (Card c : legal) {
            if (r.wild(c)) {
                // A led joker always wins (seed 002), and frees the others to dump on it.
                const double score = p.points_game ? 0.5 : 0.9;
                if (score > pick_score) pick = c, pick_score = score;
                continue;
            }
            double chance = win_chance(r, t, c);
            if (p.points_game && r.suit_of(c) == Suit::hearts && !p.moon_stop) chance -= 0.5;
            if (p.points_game && is_queen_of_spades(c)) chance -= 0.6;
            double score = chance;
            if (r.spade(c) && r.trump) {
                // Draw trumps with a long holding; otherwise keep them for ruffing.
                score -= my_spades >= 5 || my_spades > spades_out ? 0.05 : 0.3;
            }
            score += r.rank_of(c) == ace ? 0.02 : 0.0;
            if (chance >= 0.75 && score > pick_score) pick = c, pick_score = score;
        }
        if (pick_score > -1e9) return pick;
        // No sure trick: lead low from a short side suit (to ruff later), else low from the longest.
        return best_of(legal, [&](Card c) {
            if (r.wild(c)) return -100;
            const int len = r.in_suit(r.hand, r.suit_of(c)).size();
            int score = -r.rank_of(c);
            if (r.trump && r.spade(c)) score -= 30;
            if (p.points_game && r.suit_of(c) == Suit::hearts) score -= 20;
            if (r.trump && my_spades > 0 && len <= 2) score += 8;
            return score;
        });
    }

    if (p.nil_target != kNoSeat) {
        // Lead low in a suit the nil bidder still holds.
        return best_of(legal, [&](Card c) {
            if (r.wild(c)) return -100;
            const int holds_suit = r.may_hold(p.nil_target, r.suit_of(c)) ? 20 : 0;
            return holds_suit - r.rank_of(c) - (r.spade(c) ? 10 : 0);
        });
    }

    // To lose: the lead least likely to win, and the lowest of those.
    const bool queen_out = r.unseen.contains(kQueenOfSpades);
    const Card my_top_spade = highest(of_suit(r.hand, Suit::spades));
    const bool can_flush = r.kind == HandKind::hearts && queen_out && !of_suit(r.hand, Suit::spades).empty() &&
                           my_top_spade.rank() < queen;
    return best_of(legal, [&](Card c) {
        if (r.wild(c)) return -100000;  // a led joker always wins
        const double chance = win_chance(r, t, c);
        int score = -static_cast<int>(chance * 1000);
        score -= r.rank_of(c);  // the lowest (measured: safer than shedding a high "sure loser")
        if (p.points_game) {
            score += 4 * r.points(c) * (chance > 0.3 ? 10 : 1);
            if (r.kind == HandKind::hearts && r.spade(c) && can_flush) score += 60;  // flush the queen
            if (r.kind == HandKind::hearts && r.spade(c) && r.rank_of(c) > queen && queen_out) score -= 300;
        }
        if (!p.points_game && r.spade(c) && r.trump) score -= 50;
        return score;
    });
}

}  // namespace

Action basic_play(const Reading& r) {
    const CardSet legal = r.view.legal.cards;
    if (legal.size() == 1) return Action::play(legal.first());
    const TrickRead t = read_trick(r);
    const Plan p = r.kind == HandKind::spades ? spades_plan(r, t) : points_plan(r, t);
    return Action::play(t.count == 0 ? lead(r, t, p) : follow(r, t, p));
}

}  // namespace sparts::bot
