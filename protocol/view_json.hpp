// A seat's (or a spectator's) snapshot of the table on the wire, built from
// the engine's allow-listed SeatView; the viewer's own cards and legal moves
// are present only when the viewer is a seat.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/view.hpp"

namespace sparts {

// A bid of 0 is "nil" in hands where nil may be bid (HandRules::nil_allowed);
// the view alone does not say so, hence the flag.
nlohmann::json to_json(const LegalMoves& legal, bool zero_bid_is_nil);
nlohmann::json to_json(const SeatView& view, bool zero_bid_is_nil);

// The view of `viewer` at `game`, the nil flag taken from the current hand, with
// the hand's finished tricks (past_tricks), which SeatView does not hold.
nlohmann::json seat_view_json(const Game& game, Viewer viewer);

}  // namespace sparts
