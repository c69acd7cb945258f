// finished_tricks(game): the hand's finished tricks, rebuilt from the state, are
// the trick_won events the hand gave, in order and field by field, at every step
// of random games of every preset's variants (tricks of 2 to 10 cards, two decks,
// jokers, a center, Hearts' moon choice), and none once the next hand is dealt.
#include <doctest/doctest.h>

#include <bit>
#include <string>
#include <vector>

#include "engine/finished_tricks.hpp"
#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "support/variants.hpp"

namespace sparts {
namespace {

std::string trick_text(const TrickWon& t) {
    std::string s = "trick " + std::to_string(t.trick) + " led by " + std::to_string(t.leader) + ", won by " +
                    std::to_string(t.winner) + ":";
    for (int i = 0; i < t.count; ++i) s += " " + to_string(t.cards[i]);
    return s;
}

bool same_trick(const TrickWon& a, const TrickWon& b) {
    if (a.trick != b.trick || a.leader != b.leader || a.winner != b.winner || a.count != b.count) return false;
    for (int i = 0; i < a.count; ++i)
        if (a.cards[i] != b.cards[i]) return false;
    return true;
}

// Plays one game at random; returns the number of steps where the tricks were compared.
int check_finished_tricks(const Ruleset& rules, std::uint64_t seed, int& tricks_seen) {
    Game g = *Game::create(rules, seed);
    std::vector<TrickWon> told;
    int steps = 0;
    auto seen = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            if (std::holds_alternative<HandStarted>(e)) told.clear();
            if (const auto* t = std::get_if<TrickWon>(&e)) told.push_back(*t), ++tricks_seen;
        }
        const std::vector<TrickWon> rebuilt = finished_tricks(g);
        REQUIRE(rebuilt.size() == told.size());
        for (std::size_t i = 0; i < told.size(); ++i) {
            const std::string want = trick_text(told[i]), got = trick_text(rebuilt[i]);
            CAPTURE(want);
            CAPTURE(got);
            REQUIRE(same_trick(rebuilt[i], told[i]));
        }
        ++steps;
    };
    seen(g.start());
    Rng rng(seed, 7);
    while (!g.over()) {
        const Seat seat = static_cast<Seat>(std::countr_zero(g.waiting_for()));
        auto applied = g.apply(seat, random_action(g.legal_moves(seat), rng));
        REQUIRE(applied);
        seen(*applied);
    }
    return steps;
}

TEST_CASE("finished_tricks gives back the hand's trick_won events at every step, for every preset's variants") {
    for (const char* preset : {"bga-sparts", "sparts", "spartsel", "spades", "worldwinner-spades", "hearts"}) {
        int steps = 0, tricks = 0;
        for (const auto& v : testing::variants_of(preset)) {
            auto options = v.options;
            bool capped = false;
            for (const auto& o : options) capped |= o.name == "hand_cap";
            if (!capped) options.push_back({"hand_cap", "3"});
            auto rules = make_ruleset(v.preset, options);
            REQUIRE(rules);
            steps += check_finished_tricks(*rules, 11, tricks);
        }
        MESSAGE(std::string(preset) << ": " << steps << " steps, " << tricks << " tricks compared");
        CHECK(tricks > 0);
    }
}

}  // namespace
}  // namespace sparts
