// TableHistory against what a table published: for every number a returning
// client may name, the history gives back exactly the events published after
// it (the engine's, played again, and the table's frames), whatever it had to
// drop to stay under its limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "engine/ruleset.hpp"
#include "server/table/table_history.hpp"

namespace sparts::server {
namespace {

struct Published {
    std::map<std::uint64_t, std::string> texts;  // seq -> describe() or the frame's text
    std::uint64_t last = 0;
};

// What since(seq) gives, as seq -> text.
std::map<std::uint64_t, std::string> replayed(const TableHistory& h, std::uint64_t seq, const Ruleset& rules,
                                              std::uint64_t seed) {
    std::map<std::uint64_t, std::string> out;
    h.since(
        seq, rules, seed,
        [&](const Event& e, std::uint64_t n) {
            CHECK(out.emplace(n, describe(e)).second);
        },
        [&](const Frame& f) {
            // A table event's frame names its number first ("<seq>|...", as this test writes them).
            const auto n = std::stoull(f->substr(0, f->find('|')));
            CHECK(n > seq);
            CHECK(out.emplace(n, *f).second);
        });
    return out;
}

// From every number a client may come back with (`every`), or from the oldest, a middle one and
// the two newest: each since() replays the hand from its deal, so every position at every
// check costs the cube of a hand's length (minutes under the sanitizers).
void check_since(const TableHistory& h, const Published& p, const Ruleset& rules, std::uint64_t seed, bool every) {
    const std::uint64_t first = h.first_seq();
    if (first == 0) return;
    CHECK(h.events() >= 1);
    std::set<std::uint64_t> from;
    if (every) {
        for (std::uint64_t seq = first - 1; seq <= p.last; ++seq) from.insert(seq);
    } else {
        from = {first - 1, first - 1 + (p.last - (first - 1)) / 2, p.last > first ? p.last - 1 : p.last, p.last};
    }
    for (const std::uint64_t seq : from) {
        CAPTURE(seq);
        const auto got = replayed(h, seq, rules, seed);
        std::map<std::uint64_t, std::string> expected;
        for (auto it = p.texts.upper_bound(seq); it != p.texts.end(); ++it) expected.insert(*it);
        REQUIRE(got == expected);
    }
}

// Plays one game with random legal moves, keeping the history as Table::publish
// does, with a table event every 7th step.
void play(const std::string& preset, std::uint64_t seed, std::size_t max_events) {
    CAPTURE(preset);
    CAPTURE(max_events);
    // Four hands: the history is trimmed hand by hand, so a longer game checks the same again.
    const std::vector<OptionSetting> four_hands = {{"hand_cap", "4"}};
    const Ruleset rules = *make_ruleset(preset, four_hands);
    Game g = *Game::create(rules, seed);
    TableHistory h;
    h.restart(g.state());
    Published p;
    std::uint64_t seq = 0;
    Published kept;  // what a returning client must get: from the last deal on
    auto engine_step = [&](std::span<const Event> events, std::optional<std::pair<Seat, Action>> cause) {
        const std::uint64_t first = seq + 1;
        std::size_t dealt = events.size();
        for (std::size_t i = 0; i < events.size(); ++i) {
            ++seq;
            if (std::holds_alternative<HandStarted>(events[i])) dealt = i;
        }
        if (dealt < events.size()) {
            kept.texts.clear();
            h.dealt(first + dealt, events.subspan(dealt), g.state());
        } else if (cause) {
            h.step(first, cause->first, cause->second, events.size());
        }
        for (std::size_t i = 0; i < events.size(); ++i)
            if (dealt == events.size() || i >= dealt)
                kept.texts[first + i] = describe(events[i]);
        h.trim(max_events, rules, seed);
    };
    engine_step(g.start(), std::nullopt);
    Rng rng(seed, 7);
    for (int i = 1; !g.over(); ++i) {
        if (i % 7 == 0) {
            ++seq;
            const std::string text = std::to_string(seq) + "|seat_left " + std::to_string(i);
            h.table_event(seq, std::make_shared<const std::string>(text));
            kept.texts[seq] = text;
            h.trim(max_events, rules, seed);
        }
        Seat seat = 0;
        while (!((g.waiting_for() >> seat) & 1)) ++seat;
        const Action action = random_action(g.legal_moves(seat), rng);
        auto applied = g.apply(seat, action);
        REQUIRE(applied);
        const std::vector<Event> events(applied->begin(), applied->end());
        const bool scored = std::any_of(events.begin(), events.end(),
                                        [](const Event& e) { return std::holds_alternative<HandScored>(e); });
        engine_step(events, std::pair{seat, action});
        // The history holds at most max_events of what was kept since the deal, the oldest
        // dropped a whole step at a time: not many fewer than it may.
        CHECK(h.events() <= max_events);
        while (!kept.texts.empty() && kept.texts.begin()->first < h.first_seq()) {
            kept.texts.erase(kept.texts.begin());
            CHECK(h.events() + 24 > max_events);
        }
        CHECK(h.events() == kept.texts.size());
        kept.last = seq;
        if (i % 5 == 0 || scored || g.over()) {
            CHECK(h.first_seq() == (kept.texts.empty() ? 0 : kept.texts.begin()->first));
            // Every position where a hand ends (the history at its fullest) and every 25th step.
            check_since(h, kept, rules, g.seed(), i % 25 == 0 || scored || g.over());
        }
    }
}

TEST_CASE("table history: a returning client gets exactly the events since its number, however many were dropped") {
    for (const char* preset : {"spades", "bga-sparts", "sparts"})
        for (std::size_t max_events : {std::size_t{6}, std::size_t{40}, std::size_t{100000}}) play(preset, 11, max_events);
}

TEST_CASE("table history: spartsel, passing and center cards included") {
    play("spartsel", 5, 100000);
    play("spartsel", 5, 25);
}

TEST_CASE("table history: empty after a restart, and what the game does next is kept from there") {
    const Ruleset rules = *make_ruleset("spades", {});
    Game g = *Game::create(rules, 9);
    g.start();
    TableHistory h;
    h.restart(g.state());
    CHECK(h.first_seq() == 0);
    CHECK(h.events() == 0);
    Rng rng(9, 1);
    Seat seat = 0;
    while (!((g.waiting_for() >> seat) & 1)) ++seat;
    const Action a = random_action(g.legal_moves(seat), rng);
    auto applied = g.apply(seat, a);
    REQUIRE(applied);
    const std::vector<Event> events(applied->begin(), applied->end());
    h.step(40, seat, a, events.size());
    CHECK(h.first_seq() == 40);
    const auto got = replayed(h, 39, rules, 9);
    REQUIRE(got.size() == events.size());
    CHECK(got.begin()->second == describe(events.front()));
    CHECK(replayed(h, 40 + events.size() - 1, rules, 9).empty());

    // A step that does not follow the last one kept (a defect): nothing is kept, and
    // nothing more until the next deal; a returning client gets a snapshot instead.
    h.table_event(40 + events.size() + 1, std::make_shared<const std::string>("x"));
    CHECK(h.first_seq() == 0);
    CHECK(h.events() == 0);
    h.table_event(40 + events.size() + 2, std::make_shared<const std::string>("y"));
    CHECK(h.first_seq() == 0);
}

}  // namespace
}  // namespace sparts::server
