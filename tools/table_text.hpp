// The table as the person at one seat of `sparts play` may see it, in words:
// built from the engine's allow-listed SeatView, so it holds nothing that seat
// may not know.
#pragma once

#include <string>

#include "engine/game.hpp"

namespace sparts::cli {

// Scores, bids, tricks, the trick on the table, the seat's hand sorted by suit
// and what it may do now.
std::string table_text(const Game& game, Seat me);

}  // namespace sparts::cli
