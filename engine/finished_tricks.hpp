// This hand's finished tricks, each as its trick_won event told it: the trick's
// number, leader, winner and cards in play order. Public, as every card was seen
// as it was played: a client that comes back to a table (a snapshot) learns from
// them what it would have seen watching, such as the last trick, who played what,
// and who showed a void.
#pragma once

#include <vector>

#include "engine/event.hpp"
#include "engine/game.hpp"

namespace sparts {

// Empty before the first trick is won, once the next hand is dealt, and for a game
// resumed from a state that keeps no record of the plays (a bot's sampled position).
std::vector<TrickWon> finished_tricks(const Game& game);

}  // namespace sparts
