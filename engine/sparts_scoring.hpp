// Sparts and Spartsel hands: a trick score by the bid and a count of the cards
// taken (seed 002's table; seed 001 gives the same Sparts column).
//                          Sparts   Spartsel
//   Bid and make 0          +10      +10
//   Each trick bid & taken  +10      +10      (the trick value: 5, 10 or 15 by table size)
//   Each extra trick         +1      n/a
//   Not making bid          -10      n/a
//   Not making exact        n/a      -10
//   Queen of spades -13, 10 of hearts -10, each other heart -1, jack of diamonds +10.
#pragma once

#include "engine/card_set.hpp"
#include "engine/ruleset.hpp"
#include "engine/score_sheet.hpp"

namespace sparts {

ScoreSheet sparts_trick_score(int bid, int tricks, ScoringColumn column, int trick_value);

// The count of captured cards (both decks' copies count; jokers count nothing).
ScoreSheet sparts_count(CardSet taken);

}  // namespace sparts
