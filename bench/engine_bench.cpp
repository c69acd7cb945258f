// The engine benchmark: for each preset, full games of random legal play on one
// core (events included), reporting games and card plays per second, heap
// allocations per card play after warm-up, and the size of a game's state.
//   build/bench/engine_bench [--seconds S] [--preset NAME]
// The last row is spartsel at 10 seats with two decks and four jokers.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t n) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace sparts;

namespace {

struct Figures {
    long games = 0, actions = 0, plays = 0, events = 0, allocations = 0;
    double seconds = 0;
};

Figures run(const Ruleset& rules, double budget) {
    Figures f;
    std::uint64_t seed = 1;
    long sink = 0;
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        Game g = std::move(*Game::create(rules, seed));
        f.events += static_cast<long>(g.start().size());
        Rng rng(seed++, 1);
        // Only the play counts: creating a game allocates its event buffer once.
        const long allocations_before = g_allocations.load();
        while (!g.over()) {
            const Seat s = static_cast<Seat>(__builtin_ctz(g.waiting_for()));
            const Action a = random_action(g.legal_moves(s), rng);
            const auto r = g.apply(s, a);
            for (const Event& e : *r) sink += static_cast<long>(e.index());
            f.events += static_cast<long>(r->size());
            ++f.actions;
            f.plays += a.kind == ActionKind::play;
        }
        f.allocations += g_allocations.load() - allocations_before;
        ++f.games;
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (t >= budget) {
            f.seconds = t;
            break;
        }
    }
    if (sink == 42) std::puts("");
    return f;
}

}  // namespace

int main(int argc, char** argv) {
    double seconds = 2.0;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--preset") && i + 1 < argc) only = argv[++i];
        else {
            std::fprintf(stderr, "usage: engine_bench [--seconds S] [--preset NAME]\n");
            return 2;
        }
    }
    std::printf("sizeof(Game state) = %zu bytes, sizeof(Event) = %zu bytes\n", sizeof(GameState), sizeof(Event));
    std::printf("%-20s %10s %14s %14s %12s %16s\n", "preset", "games/s", "card plays/s", "actions/s", "events/s",
                "allocs/play*");
    std::puts("(* heap allocations per card play, counted from the first action to game over)");
    struct Row {
        std::string name;
        Ruleset rules;
    };
    std::vector<Row> rows;
    for (int p = 0; p < kPresetCount; ++p) {
        const auto preset = static_cast<Preset>(p);
        rows.push_back({to_string(preset), preset_ruleset(preset)});
    }
    const std::vector<OptionSetting> big = {{"seats", "10"}, {"decks", "2"}, {"jokers", "4"}};
    rows.push_back({"spartsel-10x2d4j", *make_ruleset("spartsel", big)});
    for (const Row& row : rows) {
        if (!only.empty() && only != row.name) continue;
        const Figures f = run(row.rules, seconds);
        std::printf("%-20s %10.0f %14.0f %14.0f %12.0f %16.4f\n", row.name.c_str(), f.games / f.seconds,
                    f.plays / f.seconds, f.actions / f.seconds, f.events / f.seconds,
                    static_cast<double>(f.allocations) / static_cast<double>(f.plays));
    }
}
