// Parsing is total: whatever JSON comes in, the parsers return a value or an
// error with a message, and a record that parses replays or fails cleanly.
// Random documents built from the fields' own vocabulary reach deep into the
// parsers; mutated real records reach the engine.
#include <doctest/doctest.h>

#include "engine/rng.hpp"
#include "protocol/action_json.hpp"
#include "protocol/game_record.hpp"
#include "protocol/random_games.hpp"
#include "protocol/replay.hpp"
#include "protocol/ruleset_json.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

const char* const kKeys[] = {"type", "card", "bid", "cards", "game", "seat", "preset", "options", "format",
                             "version", "ruleset", "seed", "actions", "deals", "hands", "center", "result",
                             "scores", "ranks", "reason", "seats", "name", "target_score", "mercy_rule", "x"};
const char* const kStrings[] = {"play", "bid", "pass", "choose", "clock_expired", "QS", "TH'", "JK1", "JK5", "2C",
                                "nil", "spades", "hearts", "table", "sparts-game-record", "spades", "bga-sparts",
                                "sparts", "250", "true", "bag-back", "target_score", "", "\xc3\xa9"};

json random_value(Rng& rng, int depth) {
    switch (rng.below(depth > 3 ? 6 : 8)) {
        case 0: return nullptr;
        case 1: return rng.below(2) == 0;
        case 2: {
            const std::int64_t small[] = {0, 1, 2, 3, 4, 9, 10, 13, 127, 128, -1, -200, 250, 1000000};
            return small[rng.below(std::size(small))];
        }
        case 3: return rng.next();  // up to 2^64-1
        case 4: return 2.5;
        case 5: return kStrings[rng.below(std::size(kStrings))];
        case 6: {
            json a = json::array();
            for (auto n = rng.below(5); n > 0; --n) a.push_back(random_value(rng, depth + 1));
            return a;
        }
        default: {
            json o = json::object();
            for (auto n = rng.below(6); n > 0; --n) o[kKeys[rng.below(std::size(kKeys))]] = random_value(rng, depth + 1);
            return o;
        }
    }
}

// Replaces one node, chosen at random along a path from the root, by a random value.
void mutate(json& j, Rng& rng) {
    json* node = &j;
    while ((node->is_object() || node->is_array()) && !node->empty() && rng.below(4) != 0) {
        auto it = node->begin();
        std::advance(it, static_cast<long>(rng.below(node->size())));
        node = &*it;
    }
    *node = random_value(rng, 2);
}

// A well-formed action of any kind, for any seat: mostly refused by the engine.
json random_action_json(Rng& rng) {
    const Card card = CardSet::deck(2, 4).nth(static_cast<int>(rng.below(108)));
    json j;
    switch (rng.below(5)) {
        case 0: j = {{"type", "play"}, {"card", to_string(card)}}; break;
        case 1: j = {{"type", "bid"}, {"bid", rng.below(3) == 0 ? json("nil") : json(rng.below(128))}}; break;
        case 2: j = {{"type", "pass"}, {"cards", json::array({to_string(card), "2C", "3S"})}}; break;
        case 3: j = {{"type", "choose"}, {"game", rng.below(2) ? "spades" : "hearts"}}; break;
        default: j = {{"type", "clock_expired"}}; break;
    }
    j["seat"] = rng.below(6) == 0 ? json("table") : json(rng.below(kMaxSeats));
    return j;
}

}  // namespace

TEST_CASE("random JSON never makes a parser throw") {
    Rng rng(2024, 1);
    int errors = 0;
    for (int i = 0; i < 20000; ++i) {
        const json j = random_value(rng, 0);
        CHECK_NOTHROW({
            const auto a = action_from_json(j, "seat");
            if (!a) errors += !a.error().message().empty();
            const auto r = ruleset_from_json(j);
            if (!r) errors += !r.error().message().empty();
            const auto g = game_record_from_json(j);
            if (!g) errors += !g.error().message().empty();
        });
    }
    CHECK(errors > 20000);  // nearly everything random is wrong, and says so
}

TEST_CASE("a mutated record parses and replays, or fails with a message, never an exception") {
    Rng rng(77, 2);
    int replayed = 0, refused = 0, unparsed = 0;
    for (const Ruleset& rules : test::sample_rulesets()) {
        const json original = to_json(test::play_random(rules, rng.next(), 120).record);
        for (int i = 0; i < 300; ++i) {
            json j = original;
            if (i % 2) mutate(j, rng);
            else j["actions"][rng.below(j["actions"].size())] = random_action_json(rng);
            CHECK_NOTHROW({
                const auto record = game_record_from_json(j);
                if (!record) {
                    ++unparsed;
                    CHECK_FALSE(record.error().message().empty());
                } else if (const auto r = replay(*record); r) {
                    ++replayed;
                } else {
                    ++refused;
                    CHECK_FALSE(r.error().message.empty());
                }
            });
        }
    }
    // Each path is taken often enough to mean something.
    CHECK(replayed > 0);
    CHECK(refused > 500);
    CHECK(unparsed > 500);
}
