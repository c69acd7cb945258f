// Seats, viewers and the few small value types every part of the engine shares.
#pragma once

#include <cstdint>

namespace sparts {

// Seats are numbered 0..n-1 clockwise; "left" is the next seat clockwise (RULINGS.md).
using Seat = std::uint8_t;
inline constexpr int kMaxSeats = 10;
inline constexpr Seat kNoSeat = 0xFF;
// Not a seat: the table itself, which sends actions such as "the game clock ran out".
inline constexpr Seat kTableSeat = 0xFA;

// Who an event or a view is rendered for: a seat (0..9), a spectator, or the
// archive (everything, for finished games only).
using Viewer = std::uint8_t;
inline constexpr Viewer kSpectator = 0xFE;
inline constexpr Viewer kArchive = 0xFD;

// What a hand is played as. `bga-sparts` decides per hand (the 7 of diamonds);
// the others always play one kind.
enum class HandKind : std::uint8_t { undecided, spades, hearts, sparts };

// moon_choice: the hearts preset's moon_scoring "choose": the hand's tricks are over and
// the seat that shot the moon says how it scores before the hand is scored.
enum class Phase : std::uint8_t { choosing, passing, bidding, playing, game_over, moon_choice };

enum class GameEndReason : std::uint8_t { target_score, hand_limit, hand_cap, game_clock, mercy_rule };

const char* to_string(HandKind kind);
const char* to_string(Phase phase);
const char* to_string(GameEndReason reason);

}  // namespace sparts
