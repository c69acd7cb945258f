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

#include <array>
#include <span>

#include "engine/card_set.hpp"
#include "engine/ruleset.hpp"
#include "engine/score_sheet.hpp"

namespace sparts {

ScoreSheet sparts_trick_score(int bid, int tricks, ScoringColumn column, int trick_value);

// The count of captured cards (both decks' copies count; jokers count nothing).
// `ten_counts_one`: seed 002's "10 of Hearts" variation, "The 10 of hearts only
// counts as -1."
ScoreSheet sparts_count(CardSet taken, bool ten_counts_one = false);

// Every seat's count for one hand, with seed 002's "Mooning" variation when the
// ruleset has it: "When one person takes all the hearts and the queen of
// spades, their heart total is 0 and everyone else's is -35 (or the total of
// the negatives). The jack of diamonds is scored separately." Judged on tricks
// plus center cards; with two decks the moon takes all 26 hearts and both
// queens; the others get the deck's negative total under the options (-35 a
// deck, -26 when the 10 of hearts counts -1). RULINGS.md.
std::array<ScoreSheet, kMaxSeats> sparts_counts(std::span<const CardSet> taken, const Ruleset& rules);

}  // namespace sparts
