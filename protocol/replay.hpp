// Plays a game record again through the engine: create the game, start it,
// apply every action in order. The first action the engine refuses stops the
// replay, and the error says which one it was and why.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.hpp"
#include "protocol/game_record.hpp"
#include "protocol/outcome.hpp"

namespace sparts {

struct Replay {
    std::vector<Event> events;          // every event, secret cards included
    std::optional<GameOver> game_over;  // none when the actions stop before the end
};

struct ReplayError {
    // The first refused action, when an action is at fault (not the ruleset, the
    // deals or the result): its 0-based index, seat, JSON and the engine's error.
    struct RefusedAction {
        std::size_t index;
        Seat seat;
        nlohmann::json action;
        RuleError error;
    };
    std::optional<RefusedAction> refused;
    std::string message;  // for people: names the action by index and by number, or the other fault
};

Outcome<Replay, ReplayError> replay(const GameRecord& record);

}  // namespace sparts
