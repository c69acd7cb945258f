// The random-play harness: every preset, with its options, over many seeded
// games (10,000 per preset by default; SPARTS_RANDOM_GAMES sets another number
// for a longer run). After every action it checks that
//   - every card is in exactly one place (Game::check_invariants),
//   - the action taken was in legal_moves() and apply() accepted it,
//   - a random action is accepted exactly when legal_moves() contains it, and a
//     refused one leaves the state unchanged (for a first batch of games, every
//     card, bid and choice is tried for the seat to act and another seat),
//   - no event or view meant for a viewer shows a card it may not know,
//   - the count of each Sparts hand totals -25 a deck;
// and at the end that replaying the recorded actions gives identical events.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/view.hpp"
#include "support/fnv.hpp"
#include "support/harness_policy.hpp"
#include "support/variants.hpp"

using namespace sparts;
using namespace sparts::testing;

namespace {

int games_per_preset() {
    if (const char* env = std::getenv("SPARTS_RANDOM_GAMES")) return std::max(1, std::atoi(env));
    return 10000;
}

struct Stats {
    long games = 0, actions = 0, probes = 0, refused = 0, hands = 0;
    long ends[5] = {};
};

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

std::vector<Viewer> viewers(int seats) {
    std::vector<Viewer> v;
    for (int s = 0; s < seats; ++s) v.push_back(static_cast<Viewer>(s));
    v.push_back(kSpectator);
    return v;
}

Action random_probe(const Game& g, Seat& seat, Rng& rng) {
    const int n = g.rules().seats;
    const auto r = rng.below(20);
    seat = r == 0 ? kTableSeat : r == 1 ? static_cast<Seat>(n + rng.below(3)) : static_cast<Seat>(rng.below(static_cast<std::uint64_t>(n)));
    Action a;
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

// apply() accepts `a` exactly when legal_moves() contains it; a refusal changes nothing.
bool agrees(Game& g, Seat seat, const Action& a, Stats& st, bool compare_state = true) {
    ++st.probes;
    const bool legal = g.legal_moves(seat).contains(a);
    if (!legal) {
        const GameState before = compare_state ? g.state() : GameState{};
        const auto r = g.apply(seat, a);
        ++st.refused;
        if (r) {
            FAIL_CHECK("apply accepted an action legal_moves does not list: seat " << int(seat) << " "
                                                                                  << to_string(a.kind));
            return false;
        }
        if (compare_state && !(g.state() == before)) {
            FAIL_CHECK("a refused action changed the state: " << r.error().message);
            return false;
        }
        return true;
    }
    Game copy = g;
    const auto r = copy.apply(seat, a);
    if (!r) {
        FAIL_CHECK("apply refused an action legal_moves lists: " << r.error().message);
        return false;
    }
    return true;
}

// Every card, bid and choice for one seat; the state is compared once, after all.
bool exhaustive_probe(Game& g, Seat seat, Stats& st) {
    const GameState before = g.state();
    bool ok = true;
    for (int id = 0; id < 128 && ok; ++id) ok = agrees(g, seat, Action::play(Card::from_id(static_cast<std::uint8_t>(id))), st, false);
    for (int b = -1; b < 33 && ok; ++b) ok = agrees(g, seat, Action::make_bid(b), st, false);
    for (int k = 0; k < 4 && ok; ++k) ok = agrees(g, seat, Action::choose(static_cast<HandKind>(k)), st, false);
    if (ok && !(g.state() == before)) {
        FAIL_CHECK("refused actions changed the state");
        return false;
    }
    return ok;
}

bool check_event(const Event& e, const Knowledge& k, const std::vector<Viewer>& vs, const Ruleset& rules) {
    for (Viewer v : vs) {
        if (auto* b = std::get_if<BidMade>(&e); b && b->secret && v != b->seat &&
                                               std::get<BidMade>(redact(e, v)).bid != kHiddenBid) {
            FAIL_CHECK("a secret bid of seat " << int(b->seat) << " reached viewer " << int(v));
            return false;
        }
        const CardSet leaked = cards_shown(redact(e, v)) & ~k.allowed(v);
        if (!leaked.empty()) {
            FAIL_CHECK("event " << describe(e) << " shows " << to_string(leaked.first()) << " to viewer " << int(v));
            return false;
        }
    }
    if (auto* hs = std::get_if<HandScored>(&e); hs && hs->kind == HandKind::sparts) {
        // Without a moon, a deck's count totals -25 (-16 when the 10 of hearts counts -1).
        int count = 0;
        bool moon = false;
        for (int i = 0; i < hs->side_count; ++i) {
            moon |= hs->sides[i].delta[static_cast<int>(ScoreComponent::moon)] != 0;
            for (auto c : {ScoreComponent::hearts, ScoreComponent::queen_of_spades, ScoreComponent::ten_of_hearts,
                           ScoreComponent::jack_of_diamonds})
                count += hs->sides[i].delta[static_cast<int>(c)];
        }
        // Rotating and progressive lines, and reversed hands, count a seat's cards more than once.
        const bool each_seat_once = !hs->reversed && (rules.partners == Partners::none || rules.partners == Partners::regular);
        if (!moon && each_seat_once && count != (rules.ten_of_hearts_minus_one ? -16 : -25) * rules.decks) {
            FAIL_CHECK("the count of hand " << int(hs->hand) << " totals " << count);
            return false;
        }
    }
    return true;
}

bool check_views(const Game& g, const Knowledge& k, const std::vector<Viewer>& vs) {
    for (Viewer v : vs) {
        const SeatView view = view_of(g, v);
        CardSet shown = view.hand | view.passed | view.received | view.center_cards;
        for (int i = 0; i < view.trick.count; ++i) shown.insert(view.trick.cards[i]);
        const CardSet leaked = shown & ~k.allowed(v);
        if (!leaked.empty()) {
            FAIL_CHECK("the view of viewer " << int(v) << " shows " << to_string(leaked.first()));
            return false;
        }
        for (int s = 0; s < g.rules().seats && g.rules().secret_bids; ++s) {
            if (s != v && view.bids[s] >= 0) {
                FAIL_CHECK("the view of viewer " << int(v) << " shows the secret bid of seat " << s);
                return false;
            }
        }
        if (v < g.rules().seats && view.hand != g.state().hands[v]) {
            FAIL_CHECK("the view of seat " << int(v) << " does not hold its hand");
            return false;
        }
        if (v == kSpectator && !(view.hand | view.passed | view.received | view.center_cards).empty()) {
            FAIL_CHECK("a spectator's view holds a hidden card");
            return false;
        }
    }
    return true;
}

std::uint64_t hash_events(std::span<const Event> events, std::uint64_t h) {
    for (const Event& e : events) h = fnv1a(describe(e) + "\n", h);
    return h;
}

bool play_one(const Ruleset& rules, std::uint64_t seed, bool exhaustive, Stats& st) {
    auto created = Game::create(rules, seed);
    if (!created) {
        FAIL_CHECK(created.error().message);
        return false;
    }
    Game g = std::move(*created);
    const auto vs = viewers(rules.seats);
    Knowledge k(rules.seats);
    std::vector<std::pair<Seat, Action>> actions;
    std::uint64_t h = fnv1a("");
    auto observe = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            k.learn(e);
            if (!check_event(e, k, vs, rules)) return false;
        }
        h = hash_events(events, h);
        return true;
    };
    if (!observe(g.start())) return false;
    Rng player(seed, 1), prober(seed, 2);
    while (!g.over()) {
        Seat probe_seat = 0;
        const Action probe = random_probe(g, probe_seat, prober);
        if (!agrees(g, probe_seat, probe, st)) return false;
        Seat seat = next_actor(g);
        if (exhaustive && (!exhaustive_probe(g, seat, st) || !exhaustive_probe(g, static_cast<Seat>((seat + 1) % rules.seats), st)))
            return false;
        Action a = harness_action(g, seat, player);
        if (rules.game_clock_seconds > 0 && player.below(2000) == 0) seat = kTableSeat, a = Action::clock_expired();
        if (!g.legal_moves(seat).contains(a)) {
            FAIL_CHECK("the harness chose an action legal_moves does not list");
            return false;
        }
        const auto r = g.apply(seat, a);
        if (!r) {
            FAIL_CHECK("a legal action was refused: " << r.error().message);
            return false;
        }
        actions.emplace_back(seat, a);
        if (!observe(*r)) return false;
        if (const auto broken = g.check_invariants(); !broken.empty()) {
            FAIL_CHECK("invariant broken after " << actions.size() << " actions, seed " << seed << ": " << broken);
            return false;
        }
        if (!check_views(g, k, vs)) return false;
        if (actions.size() > 200000) {
            FAIL_CHECK("the game does not end");
            return false;
        }
    }
    // Replay from the seed: the same actions give the same events, byte for byte.
    Game again = std::move(*Game::create(rules, seed));
    std::uint64_t h2 = hash_events(again.start(), fnv1a(""));
    for (const auto& [seat, a] : actions) {
        const auto r = again.apply(seat, a);
        if (!r) {
            FAIL_CHECK("the replay refused a recorded action: " << r.error().message);
            return false;
        }
        h2 = hash_events(*r, h2);
    }
    if (h2 != h) {
        FAIL_CHECK("the replay of seed " << seed << " gave different events");
        return false;
    }
    ++st.games;
    st.actions += static_cast<long>(actions.size());
    st.hands += g.state().hands_scored;
    ++st.ends[static_cast<int>(g.state().end_reason)];
    return true;
}

void run_preset(const std::string& preset) {
    const auto vars = variants_of(preset);
    const int games = games_per_preset();
    Stats st;
    for (int i = 0; i < games; ++i) {
        const auto& var = vars[static_cast<std::size_t>(i) % vars.size()];
        auto rules = make_ruleset(var.preset, var.options);
        REQUIRE_MESSAGE(rules, (rules ? "" : rules.error().message));
        const bool exhaustive = i < 20;
        if (!play_one(*rules, 1000003ULL * static_cast<std::uint64_t>(i) + 17, exhaustive, st)) break;
    }
    CHECK(st.games == games);
    MESSAGE(preset << ": " << st.games << " games, " << st.hands << " hands, " << st.actions << " actions, "
                   << st.probes << " probes (" << st.refused << " refused); ends: target " << st.ends[0]
                   << ", hands " << st.ends[1] << ", cap " << st.ends[2] << ", clock " << st.ends[3]
                   << ", mercy " << st.ends[4]);
}

}  // namespace

TEST_CASE("random play: bga-sparts") { run_preset("bga-sparts"); }
TEST_CASE("random play: sparts") { run_preset("sparts"); }
TEST_CASE("random play: spartsel") { run_preset("spartsel"); }
TEST_CASE("random play: spades") { run_preset("spades"); }
TEST_CASE("random play: worldwinner-spades") { run_preset("worldwinner-spades"); }
