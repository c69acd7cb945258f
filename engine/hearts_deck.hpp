// The hearts preset at 3, 5 or 6 seats: the lowest cards leave the deck so that
// it deals out evenly, and no card is left over (docs/RULES.md, "The hearts
// preset"). The lowest club in play leads, as always.
#pragma once

#include "engine/card_set.hpp"

namespace sparts {

// The cards removed at `seats` players (none at 4): 52 mod seats of them.
CardSet hearts_removed(int seats);

}  // namespace sparts
