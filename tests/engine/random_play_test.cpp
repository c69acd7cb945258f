// The random-play harness: every preset, with its options, over many seeded
// games (10,000 per preset by default; SPARTS_RANDOM_GAMES sets another number
// for a longer run). After every action it checks that
//   - every card is in exactly one place (Game::check_invariants),
//   - the action taken was in legal_moves() and apply() accepted it,
//   - a random action is accepted exactly when legal_moves() contains it, and a
//     refused one leaves the state unchanged (for a first batch of games, 20 or
//     SPARTS_RANDOM_EXHAUSTIVE, every card, bid and choice is tried for the seat to
//     act and another seat),
//   - no event or view meant for a viewer shows a card it may not know,
//   - the count of each Sparts hand totals -25 a deck;
// and at the end that replaying the recorded actions gives identical events.
// The checks are in tests/support/play_checks.hpp, which the Game::apply fuzz
// target (fuzz/game_apply.cpp) shares.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "support/fnv.hpp"
#include "support/harness_policy.hpp"
#include "support/play_checks.hpp"
#include "support/variants.hpp"

using namespace sparts;
using namespace sparts::testing;

namespace {

int games_per_preset() {
    if (const char* env = std::getenv("SPARTS_RANDOM_GAMES")) return std::max(1, std::atoi(env));
    return 10000;
}

// The first games, in which every action of two seats is tried at every step (20;
// SPARTS_RANDOM_EXHAUSTIVE sets another number: CI's sanitizer run, slower, tries 8).
int exhaustive_games() {
    if (const char* env = std::getenv("SPARTS_RANDOM_EXHAUSTIVE")) return std::max(1, std::atoi(env));
    return 20;
}

struct Stats {
    long games = 0, actions = 0, probes = 0, refused = 0, hands = 0;
    long moon_choices = 0;  // moon_scoring "choose": the shooters' answers
    long ends[5] = {};
};

// The harness's checks (tests/support/play_checks.hpp), reported as test failures.
bool agrees(Game& g, Seat seat, const Action& a, Stats& st) {
    ++st.probes;
    const Agreement r = agreement(g, seat, a);
    if (!r.legal) ++st.refused;
    if (!r.failure.empty()) FAIL_CHECK(r.failure);
    return r.failure.empty();
}

bool exhaustive_probe(Game& g, Seat seat, Stats& st) {
    const std::string failure = exhaustive_probe_failure(g, seat, st.probes, st.refused);
    if (!failure.empty()) FAIL_CHECK(failure);
    return failure.empty();
}

bool check_event(const Event& e, const Knowledge& k, const std::vector<Viewer>& vs, const Ruleset& rules) {
    const std::string failure = event_failure(e, k, vs, rules);
    if (!failure.empty()) FAIL_CHECK(failure);
    return failure.empty();
}

bool check_views(const Game& g, const Knowledge& k, const std::vector<Viewer>& vs) {
    const std::string failure = view_failure(g, k, vs);
    if (!failure.empty()) FAIL_CHECK(failure);
    return failure.empty();
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
        if (a.kind == ActionKind::moon) ++st.moon_choices;
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
        const bool exhaustive = i < exhaustive_games();
        if (!play_one(*rules, 1000003ULL * static_cast<std::uint64_t>(i) + 17, exhaustive, st)) break;
    }
    CHECK(st.games == games);
    MESSAGE(preset << ": " << st.games << " games, " << st.hands << " hands, " << st.actions << " actions, "
                   << st.probes << " probes (" << st.refused << " refused); ends: target " << st.ends[0]
                   << ", hands " << st.ends[1] << ", cap " << st.ends[2] << ", clock " << st.ends[3]
                   << ", mercy " << st.ends[4] << "; moon choices " << st.moon_choices);
    // Random play shoots the moon now and then: the shooter's choice is played through too.
    if (preset == "hearts") CHECK(st.moon_choices > 0);
}

}  // namespace

TEST_CASE("random play: bga-sparts") { run_preset("bga-sparts"); }
TEST_CASE("random play: sparts") { run_preset("sparts"); }
TEST_CASE("random play: spartsel") { run_preset("spartsel"); }
TEST_CASE("random play: spades") { run_preset("spades"); }
TEST_CASE("random play: worldwinner-spades") { run_preset("worldwinner-spades"); }
TEST_CASE("random play: hearts") { run_preset("hearts"); }
