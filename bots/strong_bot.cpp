// The strong bot (strong_bot.hpp): determinized sampling over basic playouts.
#include "bots/strong_bot.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "bots/basic_bot.hpp"
#include "bots/bot_hand_value.hpp"
#include "bots/bot_reading.hpp"

namespace sparts {

namespace bot {

namespace {

// The cost model of the budget: a simulated card play (a basic decision, the
// engine's apply and every seat's memory) takes about this long on the machine
// it was measured on (2 cores at about 3 GHz, Release build). Deals a decision
// = budget x kBudgetShare / (candidates x (cards left x cost + a deal's overhead)).
constexpr double kNsPerSimulatedPlay = 1400.0;
constexpr double kNsPerPlayout = 2500.0;
constexpr double kBudgetShare = 0.8;
constexpr int kMaxDeals = 2000;
// The basic bot's choice stands unless a candidate beats it by this many
// standard errors of the paired difference (measured with the arena: 2 beats
// 0.5, 1 and 3 at small budgets).
constexpr double kKeepBasicZ = 2.0;
// How much a deal counts when the basic bot would have bid `d` away from what
// the seat bid: exp(-d^2 / (2 sigma^2)).
constexpr double kBidSigma = 1.5;
constexpr int kMaxCandidates = 32;
constexpr int kMaxCards = 128;

// Whether a seat void in the suits of `voids` cannot hold `c` (a Spartsel joker has no
// suit; Joker Spades' jokers and raised deuces are spades).
bool sampling_suit_void(JokerDeck jd, std::uint8_t voids, Card c) {
    if (c.is_joker() && jd == JokerDeck::none) return false;
    return (voids >> static_cast<int>(suit_in_play(jd, c))) & 1;
}

}  // namespace

// What the seat knows of where the unseen cards are, and a way to deal them.
struct Sampler {
    const SeatView& view;
    const BotMemory& memory;
    const Ruleset& rules;
    Seat me;
    int seats;
    GameState base;                              // everything but the unseen cards
    std::array<CardSet, kMaxSeats> known{};      // unseen cards known to be in a hand
    std::array<int, kMaxSeats> need{};           // cards still to deal to each hand
    int rest = 0;                                // unseen cards in no hand
    int center_left = 0;                         // of them, the center not yet given
    std::array<Card, kMaxCards> pool{};          // unseen cards not known to be anywhere
    int pool_size = 0;
    std::array<std::uint8_t, kMaxCards> choices{};  // how many places may take pool[i]
    // Mirror's bids, and Whiz's but a nil, are the spades held: the unseen spades each
    // such seat still holds (-1: no count known). The deal gives exactly these.
    std::array<int, kMaxSeats> spade_quota{};
    bool quotas = false;

    Sampler(const SeatView& v, const BotMemory& m)
        : view(v), memory(m), rules(m.rules()), me(m.seat()), seats(v.seats) {
        CardSet unseen = deck_in_play(rules) & ~view.hand & ~memory.played() &
                         ~view.center_cards;
        for (int i = 0; i < view.trick.count; ++i) unseen.erase(view.trick.cards[i]);
        CardSet free = unseen;
        int in_hands = 0;
        for (int s = 0; s < seats; ++s) {
            if (s == me) continue;
            known[s] = memory.known_held(static_cast<Seat>(s)) & unseen;
            need[s] = std::max(0, view.hand_sizes[s] - known[s].size());
            free &= ~known[s];
            in_hands += view.hand_sizes[s];
        }
        rest = std::max(0, unseen.size() - in_hands);
        center_left = std::max(0, view.center_size - view.center_given);
        for (Card c : free) pool[static_cast<std::size_t>(pool_size++)] = c;
        for (int i = 0; i < pool_size; ++i) {
            int k = rest > 0 ? 1 : 0;
            for (int s = 0; s < seats; ++s)
                if (s != me && need[s] > 0 && !sampling_suit_void(rules.joker_deck, memory.voids(static_cast<Seat>(s)), pool[i])) ++k;
            choices[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(k);
        }

        spade_quota.fill(-1);
        const bool counted_bids = view.kind == HandKind::spades &&
                                  (rules.bid_style == BidStyle::mirror || rules.bid_style == BidStyle::whiz);
        for (int s = 0; s < seats && counted_bids; ++s) {
            const Seat seat = static_cast<Seat>(s);
            if (s == me || view.bids[s] < 0 || (rules.bid_style == BidStyle::whiz && memory.nil(seat))) continue;
            const int shown = cards_of_suit(rules.joker_deck, memory.played_by(seat) | known[s], Suit::spades).size();
            if (view.bids[s] - shown >= 0) spade_quota[s] = view.bids[s] - shown, quotas = true;
        }

        base.phase = view.phase;
        base.hand = view.hand_number;
        base.dealer = view.dealer;
        base.turn = view.turn;
        base.hand_rules = hand_rules(rules, view.kind, view.hand_number, memory.hearts_hands_played());
        base.hearts_hands_played = static_cast<std::uint8_t>(memory.hearts_hands_played());
        base.hands_scored = static_cast<std::uint8_t>(memory.hands_scored());
        base.hands[me] = view.hand;
        for (int s = 0; s < seats; ++s) base.won[s] = memory.won(static_cast<Seat>(s));
        if (view.center_taker == me) base.won[me] |= view.center_cards;
        base.passed[me] = view.passed;
        base.received[me] = view.received;
        base.center_size = view.center_size;
        base.center_given = view.center_given;
        base.center_taker = view.center_taker;
        base.bids = view.bids;
        base.blind = view.blind_nils;  // a blind nil scores twice a nil in the playouts too
        base.bids_made = 0;
        for (int s = 0; s < seats; ++s) base.bids_made = static_cast<std::uint8_t>(base.bids_made + (view.bids[s] != -1));
        base.trick = view.trick;
        base.trick_number = view.trick_number;
        // The first lead with the lowest club: the seat's legal cards are exactly the required lead.
        if (view.phase == Phase::playing && view.trick_number == 1 && view.trick.count == 0 && view.turn == me &&
            base.hand_rules.first_lead == FirstLead::lowest_club && view.legal.kind == ActionKind::play)
            base.required_lead = view.legal.cards;
        base.tricks = view.tricks;
        base.hearts_broken = view.hearts_broken;
        base.spades_broken = view.spades_broken;
        base.scores = view.scores;
        base.bags = view.bags;
    }

    // Deals the pool; false when the voids could not be kept (try again).
    bool deal_once(Rng& rng, bool keep_voids, std::array<CardSet, kMaxSeats>& hands, std::array<Card, kMaxCards>& out,
                   int& out_size) const {
        std::array<std::uint8_t, kMaxCards> order{};
        for (int i = 0; i < pool_size; ++i) order[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
        std::span<std::uint8_t> idx(order.data(), static_cast<std::size_t>(pool_size));
        rng.shuffle(idx);
        // The most constrained cards first (stable: the shuffle orders equals).
        if (keep_voids)
            std::stable_sort(idx.begin(), idx.end(), [&](std::uint8_t a, std::uint8_t b) { return choices[a] < choices[b]; });
        std::array<int, kMaxSeats> room = need;
        int rest_room = rest;
        out_size = 0;
        for (int s = 0; s < seats; ++s) hands[s] = known[s];
        hands[me] = CardSet();
        if (keep_voids && quotas) return deal_with_quotas(rng, idx, room, rest_room, hands, out, out_size);
        for (std::uint8_t i : idx) {
            const Card c = pool[i];
            int total = rest_room;
            for (int s = 0; s < seats; ++s)
                if (s != me && room[s] > 0 && !(keep_voids && sampling_suit_void(rules.joker_deck, memory.voids(static_cast<Seat>(s)), c)))
                    total += room[s];
            if (total == 0) return false;
            int pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(total)));
            if (pick < rest_room) {
                out[static_cast<std::size_t>(out_size++)] = c;
                --rest_room;
                continue;
            }
            pick -= rest_room;
            for (int s = 0; s < seats; ++s) {
                if (s == me || room[s] <= 0 ||
                    (keep_voids && sampling_suit_void(rules.joker_deck, memory.voids(static_cast<Seat>(s)), c)))
                    continue;
                if (pick < room[s]) {
                    hands[s].insert(c);
                    --room[s];
                    break;
                }
                pick -= room[s];
            }
        }
        return true;
    }

    // deal_once with spade counts to keep: the spades first, each to a seat still owed
    // spades while one is (else where room is), then the other cards where room is left
    // beyond the spades a seat is still owed.
    bool deal_with_quotas(Rng& rng, std::span<std::uint8_t> idx, std::array<int, kMaxSeats>& room, int& rest_room,
                          std::array<CardSet, kMaxSeats>& hands, std::array<Card, kMaxCards>& out, int& out_size) const {
        std::array<int, kMaxSeats> owed = spade_quota;
        const auto is_spade = [&](std::uint8_t i) { return suit_in_play(rules.joker_deck, pool[i]) == Suit::spades; };
        std::stable_partition(idx.begin(), idx.end(), is_spade);
        for (std::uint8_t i : idx) {
            const Card c = pool[i];
            const bool spade = is_spade(i);
            std::array<int, kMaxSeats> weight{};
            int owed_total = 0;
            for (int s = 0; s < seats; ++s)
                if (s != me && owed[s] > 0 && room[s] > 0) owed_total += owed[s];
            int total = 0;
            for (int s = 0; s < seats; ++s) {
                if (s == me || room[s] <= 0 || sampling_suit_void(rules.joker_deck, memory.voids(static_cast<Seat>(s)), c))
                    continue;
                if (spade) weight[s] = owed_total > 0 ? std::max(0, owed[s]) : (owed[s] < 0 ? room[s] : 0);
                else weight[s] = std::max(0, room[s] - std::max(0, owed[s]));
                total += weight[s];
            }
            const int rest_weight = spade && owed_total > 0 ? 0 : rest_room;
            total += rest_weight;
            if (total == 0) return false;
            int pick = static_cast<int>(rng.below(static_cast<std::uint64_t>(total)));
            if (pick < rest_weight) {
                out[static_cast<std::size_t>(out_size++)] = c;
                --rest_room;
                continue;
            }
            pick -= rest_weight;
            for (int s = 0; s < seats; ++s) {
                if (pick < weight[s]) {
                    hands[s].insert(c);
                    --room[s];
                    if (spade && owed[s] > 0) --owed[s];
                    break;
                }
                pick -= weight[s];
            }
        }
        for (int s = 0; s < seats; ++s)
            if (owed[s] > 0) return false;
        return true;
    }

    // A full state: the base with the unseen cards dealt.
    GameState sample(Rng& rng) const {
        std::array<CardSet, kMaxSeats> hands{};
        std::array<Card, kMaxCards> out{};
        int out_size = 0;
        bool ok = false;
        for (int attempt = 0; attempt < 20 && !ok; ++attempt) ok = deal_once(rng, true, hands, out, out_size);
        if (!ok) deal_once(rng, false, hands, out, out_size);
        GameState st = base;
        for (int s = 0; s < seats; ++s)
            if (s != me) st.hands[s] = hands[s];
        // The center not yet given, then the center cards others took.
        int i = 0;
        for (int k = 0; k < center_left && i < out_size; ++k, ++i)
            st.center[static_cast<std::size_t>(view.center_given + k)] = out[static_cast<std::size_t>(i)];
        for (; i < out_size; ++i)
            if (view.center_taker != kNoSeat) st.won[view.center_taker].insert(out[static_cast<std::size_t>(i)]);
        // Secret bids: what the basic bot would have bid with the sampled cards.
        for (int s = 0; s < seats; ++s) {
            if (st.bids[s] != kHiddenBid) continue;
            const double t = estimate_tricks(st.hands[s] | memory.played_by(static_cast<Seat>(s)), rules);
            st.bids[s] = static_cast<std::int8_t>(std::clamp(static_cast<int>(std::lround(t)), 0, rules.hand_size));
        }
        return st;
    }

    // How well a sampled deal agrees with the bids the other seats made.
    double bid_weight(const GameState& st) const {
        if (view.kind == HandKind::hearts || !base.hand_rules.bidding) return 1.0;
        double w = 1.0;
        for (int s = 0; s < seats; ++s) {
            if (s == me || view.bids[s] < 0) continue;
            const CardSet at_bid = st.hands[s] | memory.played_by(static_cast<Seat>(s));
            if (spade_quota[s] >= 0) continue;  // a count the deal kept, not an estimate
            if (memory.nil(static_cast<Seat>(s))) {
                w *= nil_hand(at_bid, false, rules.joker_deck) ? 1.0 : 0.35;
                continue;
            }
            const double d = estimate_tricks(at_bid, rules) - view.bids[s];
            w *= std::exp(-d * d / (2 * kBidSigma * kBidSigma));
        }
        return std::max(w, 1e-3);
    }
};

GameState sample_state(const SeatView& view, const BotMemory& memory, Rng& rng) {
    Sampler sampler(view, memory);
    return sampler.sample(rng);
}

namespace {

// The cards of `legal` that differ in what they can do: of a run of cards of
// one suit with no unseen card between them and the same points, the lowest.
int distinct_cards(const Reading& r, CardSet legal, std::array<Action, kMaxCandidates>& out) {
    int n = 0;
    CardSet taken;
    for (Card c : legal) {
        if (taken.contains(c)) continue;
        taken.insert(c);
        if (n == kMaxCandidates) break;
        out[static_cast<std::size_t>(n++)] = Action::play(c);
        // A wild joker, or a Joker Spades card raised above its printed rank, stands alone.
        if (c.is_joker() || r.rank_of(c) != c.rank() || r.suit_of(c) != c.suit()) continue;
        // Absorb the cards above c that are worth the same.
        const int pts = r.points(c);
        for (int rank = c.rank() + 1; rank < kRankCount; ++rank) {
            bool gap = false;
            CardSet here;
            for (int copy = 0; copy < r.rules.decks; ++copy) {
                const Card d = Card::of(static_cast<Rank>(rank), c.suit(), copy);
                if (r.unseen.contains(d)) gap = true;
                if (legal.contains(d)) here.insert(d);
            }
            if (gap) break;
            bool same = true;
            for (Card d : here) same &= r.points(d) == pts;
            if (!same) break;
            taken |= here;
        }
        // Identical copies of c itself.
        for (int copy = 0; copy < r.rules.decks; ++copy) {
            const Card d = Card::of(c.rank(), c.suit(), copy);
            if (legal.contains(d)) taken.insert(d);
        }
    }
    return n;
}

// A side's score for a hand, with bags at their average price.
struct HandValue {
    std::array<double, kMaxSeats> side{};
    bool done = false;
};

void read_score(const Ruleset& rules, const HandScored& hs, const std::array<int, kMaxSeats>& bag_times,
                const std::array<std::int16_t, kMaxSeats>& bags_before, HandValue& v) {
    const bool bags = hs.kind == HandKind::spades && rules.bag_rule != BagRule::none && rules.bag_threshold > 0;
    const double price = bags ? static_cast<double>(rules.bag_points) / rules.bag_threshold : 0.0;
    std::array<double, kMaxSeats> gained{};
    for (int i = 0; i < hs.side_count(); ++i) {
        const SideScore& s = hs.sides[i];
        v.side[i] = s.hand_total;
        if (!bags) continue;
        v.side[i] -= s.delta[static_cast<int>(ScoreComponent::bag_penalty)] +
                     s.delta[static_cast<int>(ScoreComponent::bag_back)];
        gained[i] = s.bags - bags_before[i] + bag_times[i] * rules.bag_threshold;
    }
    if (bags) {
        for (int i = 0; i < hs.side_count(); ++i) {
            if (rules.bag_rule == BagRule::penalty) {
                v.side[i] -= price * gained[i];
            } else {
                // Bag back: my bags will be the opponents' points, theirs mine.
                for (int o = 0; o < hs.side_count(); ++o)
                    if (o != i) v.side[i] += price * gained[o] / std::max(1, hs.side_count() - 1);
                v.side[i] -= price * gained[i];
            }
        }
    }
    v.done = true;
}

class Simulator {
public:
    Simulator(const SeatView& view, const BotMemory& memory)
        : rules_(memory.rules()),
          me_(memory.seat()),
          sim_(Game::resume(memory.rules(), 0x5eed ^ view.hand_number, GameState{})),
          memory_(memory),
          view_(view) {}

    // Sets up the deal: every seat's memory for it.
    void set_deal(const GameState& st) {
        state_ = st;
        for (int s = 0; s < rules_.seats; ++s) {
            const Seat seat = static_cast<Seat>(s);
            CardSet center;
            if (seat == view_.center_taker && seat != me_) center = st.won[s] & ~memory_.won(seat);
            deal_memory_[s] = memory_.imagined(seat, st.hands[s], center);
        }
    }

    // Plays `first` for the seat, then basic for everyone to the end of the hand.
    // Returns the score of the seat's side. With `rescore`, it also scores the
    // hand as played had the seat bid each of those bids instead (the last card
    // applied again to the state with the other bid): a bid's effect on the
    // scoring without another playout, the play itself being the one of `first`.
    double play_out(const Action& first, std::span<const Action> rescore = {}, std::span<double> rescored = {}) {
        sim_.reset(state_);
        for (int s = 0; s < rules_.seats; ++s) memories_[s] = deal_memory_[s];
        Seat seat = me_;
        Action action = first;
        for (int steps = 0; steps < 4096; ++steps) {
            const GameState& now = sim_.state();
            if (!rescore.empty() && now.phase == Phase::playing && now.trick_number == rules_.hand_size &&
                now.trick.count + 1 == rules_.seats) {
                const GameState last = now;
                for (std::size_t i = 0; i < rescore.size(); ++i) {
                    GameState alt = last;
                    alt.bids[me_] = rescore[i].bid;
                    sim_.reset(alt);
                    rescored[i] = score_apply(seat, action);
                }
                sim_.reset(last);
                return score_apply(seat, action);
            }
            const auto events = sim_.apply(seat, action);
            if (!events) throw std::logic_error("strong bot: a simulated action was refused: " + events.error().message);
            for (const Event& e : *events) {
                if (const auto* bp = std::get_if<BagPenalty>(&e)) bag_times_[bp->side] += bp->times;
                if (const auto* hs = std::get_if<HandScored>(&e)) return finish(*hs);
                for (int s = 0; s < rules_.seats; ++s) memories_[s].observe(e);
            }
            const std::uint16_t waiting = sim_.waiting_for();
            if (!waiting) break;
            seat = static_cast<Seat>(std::countr_zero(waiting));
            const SeatView v2 = view_of(sim_, seat);
            action = basic_action(v2, memories_[seat], rng_);
        }
        throw std::logic_error("strong bot: a simulated hand did not end");
    }

private:
    // Applies the hand's last card and returns the seat's side's score.
    double score_apply(Seat seat, const Action& action) {
        const auto events = sim_.apply(seat, action);
        if (!events) throw std::logic_error("strong bot: a simulated action was refused: " + events.error().message);
        for (const Event& e : *events) {
            if (const auto* bp = std::get_if<BagPenalty>(&e)) bag_times_[bp->side] += bp->times;
            if (const auto* hs = std::get_if<HandScored>(&e)) return finish(*hs);
        }
        throw std::logic_error("strong bot: the last card did not score the hand");
    }

    double finish(const HandScored& hs) {
        HandValue v;
        read_score(rules_, hs, bag_times_, state_.bags, v);
        bag_times_ = {};
        return value_of(v, hs);
    }

    double value_of(const HandValue& v, const HandScored& hs) const {
        int mine = rules_.side_of(me_);
        for (int i = 0; i < hs.side_count(); ++i)
            if ((hs.sides[i].seats >> me_) & 1) mine = i;
        if (rules_.low_score_wins) {
            // Hearts: points are taken, and a moon shot gives them to the others: what counts is
            // taking fewer than they do.
            double others = 0;
            for (int i = 0; i < hs.side_count(); ++i)
                if (i != mine) others += v.side[i];
            return others / std::max(1, hs.side_count() - 1) - v.side[mine];
        }
        if (!against_opponents()) return v.side[mine];
        // Where the bids are forced (Mirror, Whiz), a contract is often out of reach and
        // setting the other side is worth as much as making one's own: the margin counts.
        double others = 0;
        for (int i = 0; i < hs.side_count(); ++i)
            if (i != mine) others += v.side[i];
        return v.side[mine] - others / std::max(1, hs.side_count() - 1);
    }

    bool against_opponents() const {
        return rules_.bid_style == BidStyle::mirror || rules_.bid_style == BidStyle::whiz;
    }

    const Ruleset& rules_;
    Seat me_;
    Game sim_;
    const BotMemory& memory_;
    const SeatView& view_;
    GameState state_{};
    std::array<BotMemory, kMaxSeats> deal_memory_ = filled(memory_);
    std::array<BotMemory, kMaxSeats> memories_ = filled(memory_);
    std::array<int, kMaxSeats> bag_times_{};
    Rng rng_{1, 1};  // the basic bot draws nothing

    static std::array<BotMemory, kMaxSeats> filled(const BotMemory& m) {
        return {m, m, m, m, m, m, m, m, m, m};
    }
};

int cards_left(const SeatView& v) {
    int n = 0;
    for (int s = 0; s < v.seats; ++s) n += v.hand_sizes[s];
    return n;
}

}  // namespace

}  // namespace bot

Action strong_action(const SeatView& view, const BotMemory& memory, Rng& rng, const BotOptions& options) {
    StrongStats stats;
    return strong_action(view, memory, rng, options, stats);
}

Action strong_action(const SeatView& view, const BotMemory& memory, Rng& rng, const BotOptions& options,
                     StrongStats& stats) {
    using namespace bot;
    const auto started = std::chrono::steady_clock::now();
    const Action basic = basic_action(view, memory, rng);
    stats = {};
    stats.basic_kept = true;
    const ActionKind kind = view.legal.kind;
    if (kind != ActionKind::play && kind != ActionKind::bid) return basic;
    if (view.kind == HandKind::undecided) return basic;
    // Blind nil: with the cards face down there is nothing to sample from; the basic rule decides.
    if (view.legal.blind_nil || view.legal.show_cards) return basic;

    const Reading r(view, memory);
    std::array<Action, kMaxCandidates> cands{};
    int n = 0;
    // Bids: the playouts are played with a reference bid (the basic bot's, or the
    // closest bid to its estimate when that is nil) and every other non-nil bid is
    // scored on them; nil, where it is a candidate, has playouts of its own.
    bool nil_candidate = false;
    if (kind == ActionKind::play) {
        n = distinct_cards(r, view.legal.cards, cands);
    } else {
        bool partner_nil = false;
        for (int s = 0; s < view.seats; ++s)
            if (r.partner(static_cast<Seat>(s)) && memory.nil(static_cast<Seat>(s))) partner_nil = true;
        const bool nil_bids = memory.rules().nil_allowed && view.kind == HandKind::spades;
        nil_candidate = nil_bids && !partner_nil && (view.legal.bids & 1u);
        int ref = basic.bid;
        if (nil_bids && ref == 0) {
            ref = -1;
            const int want = static_cast<int>(std::lround(estimate_tricks(view.hand, memory.rules())));
            for (std::uint32_t b = view.legal.bids & ~1u; b; b &= b - 1) {
                const int bid = std::countr_zero(b);
                if (ref < 0 || std::abs(bid - want) < std::abs(ref - want)) ref = bid;
            }
            if (ref < 0) return basic;
        }
        // The reference first, then its neighbours, then nil.
        auto add = [&](int b) {
            if (b < 0 || b > 31 || !((view.legal.bids >> b) & 1u) || n == kMaxCandidates) return;
            if (b == 0 && nil_bids) return;
            for (int i = 0; i < n; ++i)
                if (cands[static_cast<std::size_t>(i)].bid == b) return;
            cands[static_cast<std::size_t>(n++)] = Action::make_bid(b);
        };
        add(ref);
        for (int d = 1; d <= 3; ++d) add(ref - d), add(ref + d);
        if (nil_candidate) cands[static_cast<std::size_t>(n++)] = Action::make_bid(0);
    }
    stats.candidates = n;
    if (n <= 1) return basic;
    // Which candidate stands for the basic bot's choice.
    int basic_index = 0;
    if (kind == ActionKind::play) {
        bool found = false;
        for (int i = 0; i < n; ++i)
            if (cands[static_cast<std::size_t>(i)].card == basic.card) basic_index = i, found = true;
        // The basic card may be a member of a run: map it to the run's lowest.
        if (!found) {
            for (int i = 0; i < n; ++i) {
                const Card c = cands[static_cast<std::size_t>(i)].card;
                if (!c.is_joker() && !basic.card.is_joker() && c.suit() == basic.card.suit() &&
                    c.rank() <= basic.card.rank() && strength(memory.rules().joker_deck, c) == c.rank())
                    basic_index = i;
            }
        }
    } else {
        for (int i = 0; i < n; ++i)
            if (cands[static_cast<std::size_t>(i)].bid == basic.bid) basic_index = i;
    }

    // Simulated hands a deal: one a card; for a bid, the reference and nil.
    const int playouts = kind == ActionKind::play ? n : 1 + (nil_candidate ? 1 : 0);
    const double plays = cards_left(view);
    const double per_deal_ns = playouts * (plays * kNsPerSimulatedPlay + kNsPerPlayout);
    const double budget_ns = static_cast<double>(options.budget_us) * 1000.0 * kBudgetShare;
    const int deals = std::clamp(static_cast<int>(budget_ns / per_deal_ns), 2, kMaxDeals);
    stats.deals_planned = deals;

    Sampler sampler(view, memory);
    Simulator sim(view, memory);
    std::array<double, kMaxCandidates> sum{}, diff_sum{}, diff_squares{};
    double weights = 0, weight_squares = 0;
    std::array<double, kMaxCandidates> value{};
    const auto deadline = started + std::chrono::microseconds(options.budget_us);
    const int rescored = nil_candidate ? n - 2 : n - 1;  // bids after the reference, nil aside
    for (int d = 0; d < deals; ++d) {
        const GameState st = sampler.sample(rng);
        const double w = sampler.bid_weight(st);
        sim.set_deal(st);
        bool cut = false;
        if (kind == ActionKind::play) {
            for (int i = 0; i < n && !cut; ++i) {
                value[static_cast<std::size_t>(i)] = sim.play_out(cands[static_cast<std::size_t>(i)]);
                cut = options.clock_cap && i + 1 < n && std::chrono::steady_clock::now() > deadline;
            }
        } else {
            value[0] = sim.play_out(cands[0], std::span<const Action>(cands.data() + 1, static_cast<std::size_t>(rescored)),
                                    std::span<double>(value.data() + 1, static_cast<std::size_t>(rescored)));
            if (nil_candidate) {
                cut = options.clock_cap && std::chrono::steady_clock::now() > deadline;
                if (!cut) value[static_cast<std::size_t>(n - 1)] = sim.play_out(cands[static_cast<std::size_t>(n - 1)]);
            }
        }
        if (cut) {  // a deal cut short is dropped: every candidate keeps the same deals
            stats.clock_stopped = true;
            break;
        }
        const double base = value[static_cast<std::size_t>(basic_index)];
        for (int i = 0; i < n; ++i) {
            const double x = value[static_cast<std::size_t>(i)];
            sum[static_cast<std::size_t>(i)] += w * x;
            diff_sum[static_cast<std::size_t>(i)] += w * (x - base);
            diff_squares[static_cast<std::size_t>(i)] += w * (x - base) * (x - base);
        }
        weights += w;
        weight_squares += w * w;
        ++stats.deals_done;
        if (options.clock_cap && std::chrono::steady_clock::now() > deadline) {
            stats.clock_stopped = d + 1 < deals;
            break;
        }
    }
    if (stats.deals_done < 2 || weights <= 0) return basic;

    int best = basic_index;
    for (int i = 0; i < n; ++i)
        if (sum[static_cast<std::size_t>(i)] > sum[static_cast<std::size_t>(best)] + 1e-9) best = i;
    if (best == basic_index) return basic;
    // The paired difference from the basic choice, weighted: its mean and standard error
    // (effective sample size weights^2 / sum of squared weights).
    const double mean = diff_sum[static_cast<std::size_t>(best)] / weights;
    const double var = std::max(0.0, diff_squares[static_cast<std::size_t>(best)] / weights - mean * mean);
    const double effective = weights * weights / std::max(weight_squares, 1e-12);
    const double se = std::sqrt(var / std::max(1.0, effective - 1.0));
    if (mean <= kKeepBasicZ * se) return basic;
    stats.basic_kept = false;
    return cands[static_cast<std::size_t>(best)];
}

}  // namespace sparts
