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

// One seat's hand, before partnerships.
struct SpartsSeat {
    int bid;
    int tricks;
    ScoreSheet count;
};

// How the seats' results combine this hand (seed 002's partner variations).
struct SpartsCombination {
    Partners partners = Partners::none;
    std::array<std::uint16_t, kMaxSeats> lines{};  // the seats combined into each line
    int line_count = 0;
    std::array<Seat, kMaxSeats> bid_order{};       // regular and rotating: the last partner's bid counts
    bool reversed = false;                         // reverse partners declared this hand
    ScoringColumn column = ScoringColumn::sparts;
    int trick_value = 10;
};

struct SpartsLine {
    std::uint16_t seats;
    int contract;
    int tricks;
    ScoreSheet sheet;  // trick score and count
};

// Reverse partners first ("A person's bid is not their own, but the sum of
// everyone else's and their count is not of their own cards, but of everyone
// else's"; RULINGS.md applies it to tricks too, before any partnership), then
// each line: regular and rotating partners bid their last partner's bid;
// progressive partners (and lines of one seat) add the bids up; tricks and
// count add up.
std::array<SpartsLine, kMaxSeats> score_sparts_hand(std::span<const SpartsSeat> seats, const SpartsCombination& how);

}  // namespace sparts
