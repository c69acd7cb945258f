#include <doctest/doctest.h>

#include "protocol/event_json.hpp"
#include "protocol/random_games.hpp"

using namespace sparts;
using nlohmann::json;

namespace {

// Who may see an event's secret cards, written out again here from the rules
// (seed 002 for the center: "no one else, not even team mates") so that the
// test does not take redact()'s word for it.
bool entitled(const Event& e, Viewer v) {
    if (v == kArchive) return true;
    if (const auto* d = std::get_if<CardsDealt>(&e)) return v == d->seat;
    if (const auto* p = std::get_if<CardsPassed>(&e)) return v == p->from;
    if (const auto* r = std::get_if<CardsReceived>(&e)) return v == r->seat || v == r->from;
    if (const auto* c = std::get_if<CenterTaken>(&e)) return v == c->seat;
    return true;  // public events
}

bool secret_kind(const Event& e) {
    return std::holds_alternative<CardsDealt>(e) || std::holds_alternative<CardsPassed>(e) ||
           std::holds_alternative<CardsReceived>(e) || std::holds_alternative<CenterTaken>(e);
}

}  // namespace

TEST_CASE("a viewer gets the cards key of a secret event only when entitled to it") {
    std::uint64_t seed = 100;
    int secret_events = 0, withheld = 0;
    for (const Ruleset& rules : test::sample_rulesets()) {
        const auto played = test::play_random(rules, seed++);
        std::vector<Viewer> viewers{kSpectator, kArchive};
        for (int s = 0; s < rules.seats; ++s) viewers.push_back(static_cast<Viewer>(s));
        for (const Event& e : played.events) {
            const json full = to_json(e);
            for (Viewer v : viewers) {
                const json seen = to_json(e, v);
                INFO(describe(e), " viewer ", int(v));
                CHECK(seen.at("type") == full.at("type"));
                if (const auto* b = std::get_if<BidMade>(&e); b && b->secret) {
                    // Seed 002's secret bids: only the bidder sees the number until the hand is scored.
                    ++secret_events;
                    if (v == b->seat || v == kArchive) {
                        CHECK(seen == full);
                    } else {
                        ++withheld;
                        CHECK_FALSE(seen.contains("bid"));
                        json without = full;
                        without.erase("bid");
                        CHECK(seen == without);
                    }
                    continue;
                }
                if (!secret_kind(e)) {
                    CHECK(seen == full);
                    continue;
                }
                ++secret_events;
                CHECK(seen.at("count") == full.at("count"));
                if (entitled(e, v)) {
                    CHECK(seen == full);
                } else {
                    ++withheld;
                    CHECK_FALSE(seen.contains("cards"));
                    json without = full;
                    without.erase("cards");
                    CHECK(seen == without);
                }
            }
        }
    }
    CHECK(secret_events > 1000);
    CHECK(withheld > 500);
}

TEST_CASE("a spectator never sees a hidden card, and a seat sees only its own deal") {
    const auto played = test::play_random(test::ruleset("sparts", {{"seats", "5"}}), 7);
    for (const Event& e : played.events) {
        if (!secret_kind(e)) continue;
        CHECK_FALSE(to_json(e, kSpectator).contains("cards"));
        if (const auto* d = std::get_if<CardsDealt>(&e)) {
            for (Viewer v = 0; v < 5; ++v) CHECK(to_json(e, v).contains("cards") == (v == d->seat));
        }
    }
}
