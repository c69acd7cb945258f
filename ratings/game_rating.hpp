// Rating a finished card game with Glicko-2 (ratings/glicko2.hpp).
//
// The game is one rating period for each of its players, and a game of several players is
// reduced to two-player results, the usual reduction for Glicko-2 in multi-player games:
// each player is scored against each seat of every other team by final place (a better
// place 1, the same place 0.5, a worse place 0), and all those results are applied
// together in the one period, against the ratings everyone had before the game.
//
// Decisions:
// - Partners (a partnership game: two seats of one team) share their team's place, so
//   each gets its team's result against every opponent; partners are not rated against
//   each other, since they did not play against each other.
// - A player who abandoned loses to every seat of the other teams and each of those seats
//   wins against it, whatever the places say: leaving must never pay better than losing
//   at the table, and this is exactly what a last place alone would give. Two who both
//   abandoned draw against each other: neither beat the other. The abandoner's partner
//   keeps the result of its place.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "ratings/glicko2.hpp"

namespace sparts::ratings {

struct GameSeat {
    std::string player;  // the player's id, unique among the seats
    Rating rating;       // the player's rating before the game
    int team = 0;        // partners share a team; otherwise each seat has a team of its own
    int place = 1;       // the final place, 1 the best; ties share a place, and so do partners
};

struct PlayerRating {
    std::string player;
    Rating rating;
};

// The results seat `seat` is rated on: one for each seat of another team, in seat order.
// `abandoned` names the players who left the game before its end.
std::vector<Outcome> seat_outcomes(std::span<const GameSeat> seats,
                                   std::span<const std::string> abandoned, std::size_t seat);

// Every player's rating after the game, in the order of the seats.
std::vector<PlayerRating> rate_game(std::span<const GameSeat> seats,
                                    std::span<const std::string> abandoned,
                                    double tau = default_tau);

}  // namespace sparts::ratings
