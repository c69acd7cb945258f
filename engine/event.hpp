// Everything the engine tells the table, one struct per kind of event. Events
// are small values, rendered per audience by view.hpp and
// put on the wire by protocol/. Fields marked "secret" are cards or bids that
// only some viewers may see; redact() in view.hpp strips them for the others.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/card_set.hpp"
#include "engine/seat.hpp"

namespace sparts {

struct HandStarted {
    std::uint8_t hand;  // 1-based
    Seat dealer;
    HandKind kind;      // undecided until the 7 of diamonds chooses
    std::uint8_t hand_size;
    std::uint8_t center_size;
};
struct CardsDealt {
    Seat seat;
    std::uint8_t count;
    CardSet cards;  // secret: the seat only
};
struct ChoiceStarted {
    Seat chooser;  // the holder of the 7 of diamonds
};
struct HandKindChosen {
    Seat seat;
    HandKind kind;
};
struct PassingStarted {
    std::uint8_t count;
    std::uint8_t distance;  // seats to the left; 0: a no-pass (hold) hand
    std::uint8_t round;     // 1; 2 for multi-pass A's pass back
    std::uint8_t back_count;  // multi-pass B: cards passed at once to the seat passing to you
    // The seats that pass, when some sit it out (a nil pass: the nil's side alone); 0: every seat.
    std::uint16_t seats = 0;
};
struct CardsPassed {
    Seat from;
    Seat to;
    std::uint8_t count;
    CardSet cards;  // secret: `from` only (they arrive later, as CardsReceived)
};
struct CardsReceived {
    Seat seat;
    Seat from;
    std::uint8_t count;
    CardSet cards;  // secret: `seat` and `from`
};
struct BiddingStarted {
    Seat first;
};
inline constexpr std::int8_t kHiddenBid = -2;  // a secret bid, as others see it
struct BidMade {
    Seat seat;
    std::int8_t bid;  // secret: with secret bids, the bidder only (kHiddenBid for others)
    bool nil;
    bool secret;
    bool blind = false;  // a blind nil: bid before the seat's cards were shown
};
// Secret bids are revealed when the hand is scored (seed 002: "After the play,
// bids are revealed for scoring purposes.").
struct BidsRevealed {
    std::uint8_t count;
    std::array<std::int8_t, kMaxSeats> bids;
};
struct PlayStarted {
    Seat leader;
};
struct CardPlayed {
    Seat seat;
    Card card;
    std::uint8_t trick;  // 1-based
};
struct HeartsBroken {
    Seat seat;
};
struct SpadesBroken {
    Seat seat;
};
struct TrickWon {
    std::uint8_t trick;  // 1-based
    Seat leader;
    Seat winner;
    std::uint8_t count;
    std::array<Card, kMaxSeats> cards;  // in play order, clockwise from the leader
};
struct CenterTaken {
    Seat seat;
    std::uint8_t count;
    CardSet cards;  // secret: `seat` only (seed 002: "not even team mates")
};

// One line of a hand's score sheet, each a delta to the side's game score.
enum class ScoreComponent : std::uint8_t {
    contract,          // made: trick value x bid
    overtricks,        // +1 a trick over the bid
    set,               // failed: -10 x bid (Spades) or -10 (Sparts/Spartsel)
    zero_bid,          // bid 0 and took 0: +10 (Sparts/Spartsel)
    nil,               // nil made or failed: +/- the nil value
    base,              // bga Hearts: 40
    no_tricks,         // bga Hearts: 50 instead of 40 for taking no trick
    hearts,            // -1 a heart (Sparts), -2 a heart (bga Hearts)
    queen_of_spades,   // -13 (Sparts), -26 (bga Hearts)
    ten_of_hearts,     // -10 (Sparts)
    jack_of_diamonds,  // +10 (Sparts)
    moon,              // shooting the moon
    bag_penalty,       // bags reached the threshold
    bag_back,          // the opponents' bags reached the threshold (worldwinner)
    all_thirteen,      // a side bid 13 and took them all (option all_thirteen_bonus)
    blind_nil,         // a blind nil made or failed: +/- twice the nil value (option blind_nil)
};
inline constexpr int kScoreComponentCount = 16;
const char* to_string(ScoreComponent c);

struct SideScore {
    std::uint16_t seats;     // bit mask
    std::int16_t bid;        // the side's contract; -1 when the hand had no bidding
    std::uint8_t tricks;     // tricks taken by the side's seats
    std::uint8_t nil_bids;   // how many of its seats bid nil
    std::uint8_t nils_made;
    std::array<std::int16_t, kScoreComponentCount> delta;
    std::int32_t hand_total;  // sum of delta
    std::int32_t score;       // game score after the hand
    std::int16_t bags;        // bag count after the hand (0 where bags are not counted)
};
// The sides' lines are on the heap: ten of them inline made every Event 496
// bytes, and each table holds a buffer of events; it is once a hand.
struct HandScored {
    std::uint8_t hand;
    HandKind kind;
    bool reversed;  // reverse partners declared: bids, tricks and counts are everyone else's
    std::vector<SideScore> sides;  // one a side, in side order
    int side_count() const { return static_cast<int>(sides.size()); }
};
struct BagPenalty {
    std::uint8_t side;
    std::uint8_t times;       // thresholds crossed this hand
    std::int16_t points;      // per time, lost by `side` or given to the opponents
    bool to_opponents;        // worldwinner's "bag back"
    std::int16_t bags_after;
};
struct GameOver {
    GameEndReason reason;
    std::uint8_t hands_played;
    std::uint8_t side_count;
    std::array<std::int32_t, kMaxSeats> scores;
    std::array<std::uint8_t, kMaxSeats> ranks;  // 1 = first; equal scores share a rank
};
// The hearts preset's moon_scoring "choose": `side` took every heart and the queen of
// spades (every trick, where the sun shines: `points` 52 rather than 26), and `seat`,
// the one of it that took the queen, now chooses how they count (ActionKind::moon).
struct MoonShot {
    Seat seat;
    std::uint8_t side;
    std::uint8_t points;
};

using Event = std::variant<HandStarted, CardsDealt, ChoiceStarted, HandKindChosen, PassingStarted,
                           CardsPassed, CardsReceived, BiddingStarted, BidMade, BidsRevealed, PlayStarted,
                           CardPlayed, HeartsBroken, SpadesBroken, TrickWon, CenterTaken,
                           HandScored, BagPenalty, GameOver, MoonShot>;

// The snake_case name of an event's kind ("card_played"), as on the wire.
const char* event_name(const Event& e);
// A canonical one-line text of an event, for logs, tests and fingerprints.
std::string describe(const Event& e);

}  // namespace sparts
