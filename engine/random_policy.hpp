// The "random" policy: a uniformly random legal action. Used by the command
// line's simulations, the benchmark, the random-play tests and, until the bots
// land, by the server for a seat whose time ran out.
#pragma once

#include "engine/legal_moves.hpp"
#include "engine/rng.hpp"

namespace sparts {

// `moves.any` must be true.
Action random_action(const LegalMoves& moves, Rng& rng);

}  // namespace sparts
