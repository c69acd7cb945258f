// One number for the engine's behaviour: the hash of the full event streams of
// a fixed set of seeded games, played by the engine's random policy, across
// every preset and its option variants. Any change in behaviour changes it;
// such a commit must say why and update kFingerprint (the test prints the new
// value). Not a check of correctness: the seed tests and the harness do that.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "support/fnv.hpp"
#include "support/harness_policy.hpp"
#include "support/variants.hpp"

using namespace sparts;
using namespace sparts::testing;

namespace {

constexpr std::uint64_t kFingerprint = 0x2859cf9093749b1cULL;

std::uint64_t fingerprint() {
    std::uint64_t h = fnv1a("");
    for (const char* preset : {"bga-sparts", "sparts", "spartsel", "spades", "worldwinner-spades", "hearts"}) {
        for (const auto& var : variants_of(preset)) {
            auto rules = make_ruleset(var.preset, var.options);
            REQUIRE(rules);
            for (std::uint64_t seed = 1; seed <= 8; ++seed) {
                Game g = std::move(*Game::create(*rules, seed));
                for (const Event& e : g.start()) h = fnv1a(describe(e) + "\n", h);
                Rng rng(seed, 7);
                while (!g.over()) {
                    const Seat s = next_actor(g);
                    auto r = g.apply(s, random_action(g.legal_moves(s), rng));
                    if (!r) FAIL(r.error().message);
                    for (const Event& e : *r) h = fnv1a(describe(e) + "\n", h);
                }
            }
        }
    }
    return h;
}

}  // namespace

TEST_CASE("fingerprint of the event streams of fixed seeded games") {
    const std::uint64_t h = fingerprint();
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(h));
    INFO("fingerprint: " << std::string(hex) << " (update kFingerprint, and say why in the commit)");
    CHECK(h == kFingerprint);
    CHECK(fingerprint() == h);  // and the same twice in one process
}
