// The random-play harness's oracles, shared by tests/engine/random_play_test.cpp
// and the Game::apply fuzz target (fuzz/game_apply.cpp). None depends on a test
// framework: each check returns an empty string when it holds, otherwise what
// was wrong, for the caller to report (FAIL_CHECK) or to abort on (the fuzzer).
//   - every card is in exactly one place (Game::check_invariants, called by the caller),
//   - apply() accepts an action exactly when legal_moves() contains it, and a
//     refused one leaves the state unchanged (agreement),
//   - no event or view meant for a viewer shows a card it may not know (event_failure, view_failure),
//   - the count of each Sparts hand totals -25 a deck (event_failure),
//   - replaying the recorded actions gives identical events (hash_events).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "engine/game.hpp"
#include "engine/rng.hpp"
#include "engine/view.hpp"
#include "support/fnv.hpp"

namespace sparts::testing {

// What each viewer may know about the cards of the current hand.
class Knowledge {
public:
    explicit Knowledge(int seats) : seats_(seats) {}
    void learn(const Event& e) {
        if (std::holds_alternative<HandStarted>(e)) known_ = {}, public_ = {};
        if (auto* d = std::get_if<CardsDealt>(&e)) known_[d->seat] |= d->cards;
        if (auto* r = std::get_if<CardsReceived>(&e)) known_[r->seat] |= r->cards;
        if (auto* c = std::get_if<CenterTaken>(&e)) known_[c->seat] |= c->cards;
        if (auto* p = std::get_if<CardPlayed>(&e)) public_.insert(p->card);
    }
    CardSet allowed(Viewer v) const { return v < seats_ ? public_ | known_[v] : public_; }

private:
    int seats_;
    std::array<CardSet, kMaxSeats> known_{};
    CardSet public_;
};

// Every seat, then a spectator.
inline std::vector<Viewer> viewers(int seats) {
    std::vector<Viewer> v;
    for (int s = 0; s < seats; ++s) v.push_back(static_cast<Viewer>(s));
    v.push_back(kSpectator);
    return v;
}

// A random action, legal or not, for a random seat (the table, a seat past the
// last one, or one of the game's): the harness's probes.
inline Action random_probe(const Game& g, Seat& seat, Rng& rng) {
    const int n = g.rules().seats;
    const auto r = rng.below(20);
    seat = r == 0 ? kTableSeat : r == 1 ? static_cast<Seat>(n + rng.below(3)) : static_cast<Seat>(rng.below(static_cast<std::uint64_t>(n)));
    switch (rng.below(5)) {
        case 0: return Action::choose(static_cast<HandKind>(rng.below(4)));
        case 1: {
            const CardSet hand = seat < n ? g.state().hands[seat] : CardSet();
            CardSet cards;
            const int want = g.state().round_count + static_cast<int>(rng.below(3)) - 1;
            auto pick = [&] {
                return !hand.empty() && rng.below(8) != 0
                           ? hand.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(hand.size()))))
                           : Card::from_id(static_cast<std::uint8_t>(rng.below(64)));
            };
            for (int i = 0; i < want; ++i) cards.insert(pick());
            CardSet back;
            for (int i = static_cast<int>(rng.below(3)); i > 0; --i) back.insert(pick());
            return Action::pass(cards, rng.below(2) ? back : CardSet());
        }
        case 2: return Action::make_bid(static_cast<int>(rng.below(34)) - 2);
        case 3: {
            const CardSet hand = seat < n ? g.state().hands[seat] : CardSet();
            if (!hand.empty() && rng.below(2) == 0) return Action::play(hand.nth(static_cast<int>(rng.below(static_cast<std::uint64_t>(hand.size())))));
            return Action::play(Card::from_id(static_cast<std::uint8_t>(rng.below(128))));
        }
        default: return Action::clock_expired();
    }
}

// What agreement() found: whether legal_moves() listed the action, and what
// went wrong (empty: apply() agreed with legal_moves()).
struct Agreement {
    bool legal = false;
    std::string failure;
};

// apply() accepts `a` exactly when legal_moves() contains it; a refusal changes
// nothing (compared when `compare_state`). `g` is left as it was: a legal action
// is applied to a copy.
inline Agreement agreement(Game& g, Seat seat, const Action& a, bool compare_state, const LegalMoves& legal) {
    Agreement out;
    out.legal = legal.contains(a);
    if (!out.legal) {
        std::optional<GameState> before;
        if (compare_state) before = g.state();
        const auto r = g.apply(seat, a);
        if (r) {
            out.failure = "apply accepted an action legal_moves does not list: seat " + std::to_string(int(seat)) + " " +
                          to_string(a.kind);
        } else if (before && !(g.state() == *before)) {
            out.failure = "a refused action changed the state: " + r.error().message;
        }
        return out;
    }
    Game copy = g;
    if (const auto r = copy.apply(seat, a); !r) out.failure = "apply refused an action legal_moves lists: " + r.error().message;
    return out;
}

inline Agreement agreement(Game& g, Seat seat, const Action& a, bool compare_state = true) {
    return agreement(g, seat, a, compare_state, g.legal_moves(seat));
}

// Every card, bid and choice for one seat; the state is compared once, after
// all. `probes` and `refused` count what was tried.
inline std::string exhaustive_probe_failure(Game& g, Seat seat, long& probes, long& refused) {
    const GameState before = g.state();
    // A refusal changes nothing (checked once, after all), so what is legal is
    // the same for every probe.
    const LegalMoves legal = g.legal_moves(seat);
    auto one = [&](const Action& a) {
        ++probes;
        Agreement r = agreement(g, seat, a, false, legal);
        if (!r.legal) ++refused;
        return std::move(r.failure);
    };
    for (int id = 0; id < 128; ++id)
        if (auto f = one(Action::play(Card::from_id(static_cast<std::uint8_t>(id)))); !f.empty()) return f;
    for (int b = -1; b < 33; ++b)
        if (auto f = one(Action::make_bid(b)); !f.empty()) return f;
    for (int k = 0; k < 4; ++k)
        if (auto f = one(Action::choose(static_cast<HandKind>(k))); !f.empty()) return f;
    if (!(g.state() == before)) return "refused actions changed the state";
    return {};
}

// No viewer in `vs` sees a card (or a secret bid) it may not know in `e`; a
// Sparts hand's count totals -25 a deck.
inline std::string event_failure(const Event& e, const Knowledge& k, const std::vector<Viewer>& vs, const Ruleset& rules) {
    std::ostringstream out;
    for (Viewer v : vs) {
        if (auto* b = std::get_if<BidMade>(&e); b && b->secret && v != b->seat &&
                                               std::get<BidMade>(redact(e, v)).bid != kHiddenBid) {
            out << "a secret bid of seat " << int(b->seat) << " reached viewer " << int(v);
            return out.str();
        }
        const CardSet leaked = cards_shown(redact(e, v)) & ~k.allowed(v);
        if (!leaked.empty()) {
            out << "event " << describe(e) << " shows " << to_string(leaked.first()) << " to viewer " << int(v);
            return out.str();
        }
    }
    if (auto* hs = std::get_if<HandScored>(&e); hs && hs->kind == HandKind::sparts) {
        // Without a moon, a deck's count totals -25 (-16 when the 10 of hearts counts -1).
        int count = 0;
        bool moon = false;
        for (int i = 0; i < hs->side_count(); ++i) {
            moon |= hs->sides[i].delta[static_cast<int>(ScoreComponent::moon)] != 0;
            for (auto c : {ScoreComponent::hearts, ScoreComponent::queen_of_spades, ScoreComponent::ten_of_hearts,
                           ScoreComponent::jack_of_diamonds})
                count += hs->sides[i].delta[static_cast<int>(c)];
        }
        // Rotating and progressive lines, and reversed hands, count a seat's cards more than once.
        const bool each_seat_once = !hs->reversed && (rules.partners == Partners::none || rules.partners == Partners::regular);
        if (!moon && each_seat_once && count != (rules.ten_of_hearts_minus_one ? -16 : -25) * rules.decks) {
            out << "the count of hand " << int(hs->hand) << " totals " << count;
            return out.str();
        }
    }
    return {};
}

// No viewer's view shows a card it may not know, or another seat's secret bid;
// a seat's view holds its hand, a spectator's no hidden card.
inline std::string view_failure(const Game& g, const Knowledge& k, const std::vector<Viewer>& vs) {
    std::ostringstream out;
    for (Viewer v : vs) {
        const SeatView view = view_of(g, v);
        CardSet shown = view.hand | view.passed | view.received | view.center_cards;
        for (int i = 0; i < view.trick.count; ++i) shown.insert(view.trick.cards[i]);
        const CardSet leaked = shown & ~k.allowed(v);
        if (!leaked.empty()) {
            out << "the view of viewer " << int(v) << " shows " << to_string(leaked.first());
            return out.str();
        }
        for (int s = 0; s < g.rules().seats && g.rules().secret_bids; ++s) {
            if (s != v && view.bids[s] >= 0) {
                out << "the view of viewer " << int(v) << " shows the secret bid of seat " << s;
                return out.str();
            }
        }
        // Blind nil: a seat's cards face down are not in its view until it decides.
        const bool face_down = v < g.rules().seats && ((g.state().face_down >> v) & 1);
        if (v < g.rules().seats && view.hand != (face_down ? CardSet() : g.state().hands[v])) {
            out << "the view of seat " << int(v) << (face_down ? " shows cards still face down" : " does not hold its hand");
            return out.str();
        }
        if (v == kSpectator && !(view.hand | view.passed | view.received | view.center_cards).empty())
            return "a spectator's view holds a hidden card";
    }
    return {};
}

// The fingerprint of an event stream, continued from `h`.
inline std::uint64_t hash_events(std::span<const Event> events, std::uint64_t h) {
    for (const Event& e : events) h = fnv1a(describe(e) + "\n", h);
    return h;
}

}  // namespace sparts::testing
