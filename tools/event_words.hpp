// Events told in words to the person at one seat of `sparts play`. The event
// must already be redacted for that seat: this only words what it is given.
#pragma once

#include <string>

#include "engine/event.hpp"
#include "engine/ruleset.hpp"

namespace sparts::cli {

// "you" for `me`, "seat 2" for the others.
std::string seat_name(Seat seat, Seat me);
// "seats 0+2 (you)" for a partnership, "seat 1" for a lone side.
std::string side_name(const Ruleset& rules, int side, Seat me);
// Cards grouped by suit, ranks ascending: "2C 5C QC  3D TD  AH".
std::string cards_text(CardSet cards);

// One or more lines, or "" when the event says nothing worth telling this seat.
std::string in_words(const Event& event, const Ruleset& rules, Seat me);

}  // namespace sparts::cli
