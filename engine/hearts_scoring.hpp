// bga-sparts Hearts hands (seed 000): "All players are awarded 40 points. Then,
// each heart they took during the hand subtracts 2 ... The player who takes the
// queen of spades is penalized 26 points ... If you take no tricks at all during
// the hand, you receive 50 points instead of the usual 40 ... if any player takes
// all 13 hearts and the queen of spades ... that player receives 50 points and
// all other players receive none."
#pragma once

#include <span>

#include "engine/score_sheet.hpp"

namespace sparts {

struct HeartsTake {
    int hearts;
    int queens;
    int tricks;
};

// One sheet per seat; `out` has the same size as `takes`.
void score_bga_hearts(std::span<const HeartsTake> takes, int hearts_in_play, int queens_in_play,
                      std::span<ScoreSheet> out);

}  // namespace sparts
