// What one viewer may know, built by allow-list: each field is copied from the
// game only when the viewer is entitled to it, so that a field forgotten here is
// missing from the view rather than leaked. A spectator's view holds no hidden
// card; a seat's view holds its own hand, what it passed and received, and the
// center cards it took (seed 002: "He may look at them (but no one else, not
// even team mates)").
#pragma once

#include <array>
#include <cstdint>

#include "engine/game.hpp"

namespace sparts {

struct SeatView {
    Viewer viewer = kSpectator;
    std::uint8_t seats = 0;
    Phase phase = Phase::choosing;
    std::uint8_t hand_number = 0;
    Seat dealer = kNoSeat;
    HandKind kind = HandKind::undecided;
    Seat turn = kNoSeat;
    std::uint16_t waiting_for = 0;
    std::array<std::uint8_t, kMaxSeats> hand_sizes{};

    CardSet hand;                  // the viewer's own
    std::uint8_t pass_count = 0;
    std::uint8_t pass_distance = 0;
    std::uint8_t pass_round = 0;      // 2: multi-pass A's pass back
    std::uint8_t pass_back_count = 0; // multi-pass B
    std::uint16_t passed_mask = 0; // who has passed (public)
    CardSet passed;                // the viewer's own
    CardSet received;              // the viewer's own, once everyone has passed

    std::uint8_t center_size = 0;
    std::uint8_t center_given = 0;
    Seat center_taker = kNoSeat;
    CardSet center_cards;          // only the center cards the viewer took

    std::array<std::int8_t, kMaxSeats> bids{};  // -1: not yet; kHiddenBid: a secret bid
    std::uint16_t blind_nils = 0;               // the seats whose nil was bid blind (option blind_nil)
    Trick trick{};
    std::uint8_t trick_number = 0;
    std::array<std::uint8_t, kMaxSeats> tricks{};
    bool hearts_broken = false;
    bool spades_broken = false;
    // Per seat: the cards that score (hearts, the queen of spades; the jack of diamonds
    // in a Sparts hand) it has taken in tricks this hand; none in a Spades hand. Public:
    // every trick is seen as it is played. Center cards are not in it (they are secret).
    std::array<CardSet, kMaxSeats> points_taken{};

    std::array<std::uint16_t, kMaxSeats> partners{};  // per seat: whose results combine with its own this hand
    std::uint8_t side_count = 0;
    std::array<std::int32_t, kMaxSeats> scores{};
    std::array<std::int16_t, kMaxSeats> bags{};

    LegalMoves legal;              // what the viewer may do now
};

SeatView view_of(const Game& game, Viewer viewer);

// The event as `viewer` may see it: secret cards stripped for everyone but
// those entitled to them (the counts stay, so every viewer sees every event).
Event redact(const Event& event, Viewer viewer);

// The cards an event shows, for the leak tests.
CardSet cards_shown(const Event& event);

}  // namespace sparts
