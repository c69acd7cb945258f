// The `basic` bot: fast heuristics for every decision of every preset, from
// the seed texts' strategy advice and standard Spades and Hearts play. Each
// decision reads the seat's view and memory only (bot.hpp) and takes
// microseconds. docs/ENGINE.md ("Bots") lists each heuristic and its source.
//
//   basic_choice.cpp  the 7 of diamonds: Spades with a strong hand, Hearts with a low one;
//                     a shot moon's score: added to the others unless that loses the game
//   basic_pass.cpp    passing: the unguarded queen of spades, high hearts, voids
//   basic_bid.cpp     bidding: sure tricks, nil, the Sparts/Spartsel scoring columns
//   basic_play.cpp    trick play: make the contract, avoid bags and points, nil, moon
#pragma once

#include "bots/bot_memory.hpp"
#include "engine/rng.hpp"
#include "engine/view.hpp"

namespace sparts {

// `view.legal.any` must be true. Returns one of view.legal.
Action basic_action(const SeatView& view, const BotMemory& memory, Rng& rng);

namespace bot {
struct Reading;
Action basic_choice(const Reading& r);
Action basic_moon(const Reading& r);
Action basic_pass(const Reading& r);
Action basic_bid(const Reading& r);
Action basic_play(const Reading& r);
}  // namespace bot

}  // namespace sparts
