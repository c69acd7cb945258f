// What one seat remembers of the game, for its bot: built only from the events
// as that seat sees them. observe() passes every event through redact(event,
// seat) before reading it, so even a caller that hands it the raw event stream
// cannot teach it a card the seat may not know. Together with the seat's
// SeatView (view.hpp), this is all a bot decides from (bot.hpp).
//
// It holds, for the hand being played: the seat's dealt cards, the cards it
// passed (and to whom) and received, the cards it therefore knows another seat
// holds, every card played and by whom, which seats showed a void in which suit
// (did not follow the suit led), the cards each seat captured in tricks, who
// took how many center cards (and which ones, if this seat took them), the bids
// as this seat sees them, and tricks won; and, for the game: the sides' scores
// and bags, the hands scored and the Hearts hands played (bga-sparts passing).
#pragma once

#include <array>
#include <span>
#include <cstdint>

#include "engine/event.hpp"
#include "engine/ruleset.hpp"

namespace sparts {

class BotMemory {
public:
    BotMemory(const Ruleset& rules, Seat seat);

    // Reads one event of the game, after redacting it for this seat.
    void observe(const Event& event);

    const Ruleset& rules() const { return rules_; }
    Seat seat() const { return seat_; }

    // ---- this hand
    int hand_number() const { return hand_; }
    HandKind kind() const { return kind_; }
    Seat dealer() const { return dealer_; }
    CardSet dealt() const { return dealt_; }
    CardSet passed() const { return passed_; }
    CardSet received() const { return received_; }
    // This seat's cards passed to `seat` this hand.
    CardSet passed_to(Seat seat) const { return passed_to_[seat]; }
    // Cards this seat knows `seat` holds: cards passed to it and not seen since.
    CardSet known_held(Seat seat) const { return known_held_[seat]; }
    CardSet played() const { return played_; }
    CardSet played_by(Seat seat) const { return played_by_[seat]; }
    // Suits `seat` has shown it no longer holds (bit 1 << suit).
    std::uint8_t voids(Seat seat) const { return voids_[seat]; }
    bool void_in(Seat seat, Suit suit) const { return (voids_[seat] >> static_cast<int>(suit)) & 1; }
    // Cards captured in tricks (center cards are not in it: see center_cards).
    CardSet won(Seat seat) const { return won_[seat]; }
    int tricks(Seat seat) const { return tricks_[seat]; }
    Seat center_taker() const { return center_taker_; }
    int center_taken() const { return center_taken_; }
    CardSet center_cards() const { return center_cards_; }  // only those this seat took
    // kNoBid before the seat bid; kHiddenBid for another seat's secret bid.
    int bid(Seat seat) const { return bids_[seat]; }
    bool nil(Seat seat) const { return nil_[seat]; }
    int trick_number() const { return trick_number_; }  // 1-based during play, 0 before

    // ---- the game
    int hands_scored() const { return hands_scored_; }
    int hearts_hands_played() const { return hearts_hands_played_; }
    std::int32_t score(int side) const { return scores_[side]; }
    std::int16_t bags(int side) const { return bags_[side]; }

    static constexpr int kNoBid = -1;

    // A seat that sat down with a game running (sparts-bot after a snapshot): what the table's
    // view says came before its first event, per side (scores, bags), after the snapshot's
    // hand_started: the hands before it count as scored. This hand's tricks are observed as
    // events, from the view's past_tricks, before this is called.
    void resume(std::span<const std::int32_t> scores, std::span<const std::int16_t> bags);

    // For the strong bot's simulations: what seat `other` might remember in a
    // sampled deal where it holds `hand` and took `center_cards`: everything
    // public here (cards played, voids, tricks, bids, scores), its own cards, and
    // nothing of its passes (this seat does not know them).
    BotMemory imagined(Seat other, CardSet hand, CardSet center_cards) const;

private:
    void start_hand(const HandStarted& e);
    void on_card(const CardPlayed& e);

    Ruleset rules_;
    Seat seat_;

    int hand_ = 0;
    HandKind kind_ = HandKind::undecided;
    Seat dealer_ = kNoSeat;
    CardSet dealt_, passed_, received_, played_, center_cards_;
    std::array<CardSet, kMaxSeats> passed_to_{}, known_held_{}, played_by_{}, won_{};
    std::array<std::uint8_t, kMaxSeats> voids_{}, tricks_{};
    std::array<std::int8_t, kMaxSeats> bids_{};
    std::array<bool, kMaxSeats> nil_{};
    Seat center_taker_ = kNoSeat;
    int center_taken_ = 0;
    int trick_number_ = 0;
    Card trick_lead_;
    bool trick_open_ = false;

    int hands_scored_ = 0;
    int hearts_hands_played_ = 0;
    std::array<std::int32_t, kMaxSeats> scores_{};
    std::array<std::int16_t, kMaxSeats> bags_{};
};

}  // namespace sparts
