// What the lobby knows of a table, for listing and for telling a returning
// player where it sits. Each table sends a fresh copy to the lobby's strand
// whenever a seat or its state changes.
#pragma once
#include <array>
#include <string>
#include <nlohmann/json.hpp>
#include "engine/ruleset.hpp"

namespace sparts::server {

struct TableSummary {
    std::string id;
    Preset preset = Preset::sparts;
    nlohmann::json ruleset;  // as on the wire
    int seats = 0;
    std::array<std::string, 10> seat_players{};  // player id; "" empty; "bot" a server bot
    std::array<std::string, 10> seat_names{};
    bool is_private = false;
    int turn_seconds = 0;
    std::string state;       // "waiting", "playing", "over"
    int game = 0;            // games started at this table
    int spectators = 0;
    std::string creator;     // player id
    nlohmann::json rule_set;  // {name, label} of the host's named rule set it plays, or null

    int free_seats() const {
        int n = 0;
        for (int s = 0; s < seats; ++s) n += seat_players[static_cast<std::size_t>(s)].empty();
        return n;
    }
    nlohmann::json to_json() const;
};

}  // namespace sparts::server
