// A game played through the engine with random legal moves, as a table of the
// server hands it to the store (its writes) and as the archive must serve it
// afterwards (its events, rendered here the way the server published them).
#pragma once
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "protocol/action_json.hpp"
#include "protocol/event_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"
#include "storage/records.hpp"

namespace sparts::test {

struct PlayedGame {
    storage::Batch writes;                       // StartGame .. FinishGame (when it ends)
    std::vector<storage::StoredEvent> events;    // what the archive serves
    std::vector<storage::StoredAction> actions;
    std::uint64_t last_seq = 0;
    bool over = false;
    std::string ruleset;
};

// Secret events whole, others as a spectator saw them: the archive's rule, written out
// here apart from protocol/event_json.cpp's archive_json.
inline std::string archived_payload(const Event& e) {
    const bool secret = std::holds_alternative<CardsDealt>(e) || std::holds_alternative<CardsPassed>(e) ||
                        std::holds_alternative<CardsReceived>(e) || std::holds_alternative<CenterTaken>(e) ||
                        (std::holds_alternative<BidMade>(e) && std::get<BidMade>(e).secret);
    return dump_text(secret ? to_json(e) : to_json(e, kSpectator));
}

// `max_actions` < 0: to the end. Every 40th action is preceded by a table event
// (a time-out), and one step's clock goes back a second, as a wall clock may.
inline PlayedGame play_game(const std::string& table, int game, std::uint64_t seed, std::uint64_t seq,
                            storage::Millis at, int max_actions = -1, std::string_view preset = "spades") {
    using namespace storage;
    PlayedGame out;
    const Ruleset rules = *make_ruleset(preset, {});
    out.ruleset = dump_text(to_json(rules));
    Game g = *Game::create(rules, seed);
    const std::string players = R"([{"player":"p1","name":"Ann"},{"player":"p2","name":"Bo"},{"bot":true,"name":"Bot"},{"bot":true,"name":"Bot"}])";
    out.writes.push_back(StartGame{table, game, seed, out.ruleset, players, at, {}});
    auto table_event = [&](const std::string& type, const std::string& payload) {
        out.writes.push_back(AppendEvent{table, ++seq, game, type, payload, at});
        out.events.push_back({seq, game, type, payload, at});
    };
    auto engine = [&](std::span<const Event> events, std::optional<Cause> cause) {
        out.writes.push_back(EngineEvents{table, seq + 1, static_cast<std::uint32_t>(events.size()), game, at, cause});
        if (cause) out.actions.push_back({cause->seat, dump_text(to_json(cause->action)), seq + 1});
        for (const Event& e : events) {
            ++seq;
            out.events.push_back({seq, game, event_name(e), archived_payload(e), at});
        }
    };
    table_event("game_started", R"({"type":"game_started","game":)" + std::to_string(game) + R"(,"ruleset":)" + out.ruleset + "}");
    engine(g.start(), std::nullopt);
    Rng rng(seed, 1);
    for (int i = 0; (max_actions < 0 || i < max_actions) && !g.over(); ++i) {
        at += i == 7 ? -1000 : 250;
        Seat seat = 0;
        while (!((g.waiting_for() >> seat) & 1)) ++seat;
        if (i % 40 == 39) table_event("turn_timed_out", R"({"type":"turn_timed_out","seat":)" + std::to_string(seat) + "}");
        const Action action = random_action(g.legal_moves(seat), rng);
        auto applied = g.apply(seat, action);
        if (!applied) throw std::logic_error("a legal move was refused");
        const std::vector<Event> events(applied->begin(), applied->end());
        engine(events, Cause{seat, action, {}});
    }
    out.over = g.over();
    if (out.over) out.writes.push_back(FinishGame{table, game, R"({"game_over":{}})", at});
    out.last_seq = seq;
    return out;
}

inline std::string event_text(const storage::StoredEvent& e) {
    return std::to_string(e.seq) + "|" + std::to_string(e.game) + "|" + e.type + "|" + e.payload + "|" + std::to_string(e.at);
}

// The events and actions a store served are those expected, in order, to the byte.
inline void check_same_events(const std::vector<storage::StoredEvent>& got, const std::vector<storage::StoredEvent>& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        REQUIRE(event_text(got[i]) == event_text(expected[i]));
    }
}

inline void check_same_actions(const std::vector<storage::StoredAction>& got,
                               const std::vector<storage::StoredAction>& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        REQUIRE(got[i].seat == expected[i].seat);
        REQUIRE(got[i].action == expected[i].action);
        REQUIRE(got[i].seq == expected[i].seq);
    }
}

}  // namespace sparts::test
