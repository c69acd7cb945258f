// The game as a state machine: deal, the 7-of-diamonds choice, passing,
// bidding, trick play, hand scoring and game over, for every ruleset.
//
//   Game g = *Game::create(rules, seed);
//   for (const Event& e : g.start()) ...
//   auto r = g.apply(seat, Action::play(card));   // events, or a RuleError
//
// apply() changes nothing when it refuses an action. legal_moves(seat) says
// exactly what apply() accepts. The returned event spans stay valid until the
// next call to start() or apply(); no heap allocation happens per card play.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/action.hpp"
#include "engine/event.hpp"
#include "engine/hand_rules.hpp"
#include "engine/hearts_scoring.hpp"
#include "engine/legal_moves.hpp"
#include "engine/ruleset.hpp"

namespace sparts {

inline constexpr int kMaxCenter = 32;
inline constexpr int kMaxHandSize = 31;  // bids are a 32-bit mask
inline constexpr int kMaxCardsInPlay = kMaxDecks * kSuitCount * kRankCount + kMaxJokers;
static_assert(kMaxCardsInPlay <= 255, "GameState::played_count is one byte");

// An explicitly stacked deal for one hand: each seat's cards and the center in
// the order it was dealt (the two-player rule hands it out in that order).
struct StackedDeal {
    std::array<CardSet, kMaxSeats> hands{};
    std::vector<Card> center;
};

struct Trick {
    Seat leader = kNoSeat;
    std::uint8_t count = 0;
    std::array<Card, kMaxSeats> cards{};
    bool operator==(const Trick&) const = default;
};

// Everything that defines where a game stands. Plain data, comparable, small.
struct GameState {
    Phase phase = Phase::choosing;
    std::uint8_t hand = 0;  // 1-based once started
    Seat dealer = 0;
    Seat turn = kNoSeat;    // kNoSeat while passing (everyone at once) and at game over
    HandRules hand_rules{};
    std::uint8_t hearts_hands_played = 0;  // bga-sparts: picks the pass direction
    std::uint8_t hands_scored = 0;

    std::array<CardSet, kMaxSeats> hands{};
    std::array<CardSet, kMaxSeats> won{};       // cards captured, center included
    std::array<CardSet, kMaxSeats> passed{};     // this hand, every round
    std::array<CardSet, kMaxSeats> received{};   // this hand, every round
    std::array<CardSet, kMaxSeats> in_transit{};       // this round, to the seat `distance` left
    std::array<CardSet, kMaxSeats> in_transit_back{};  // this round, multi-pass B's card back
    std::uint16_t passed_mask = 0;               // who has passed this round
    std::uint8_t pass_round = 0;
    std::uint8_t round_distance = 0;             // this round's distance to the left
    std::uint8_t round_count = 0;                // this round's cards to the left
    std::uint8_t round_back_count = 0;           // this round's cards back

    std::array<Card, kMaxCenter> center{};      // in dealt order
    std::uint8_t center_size = 0;
    std::uint8_t center_given = 0;              // how many have been handed out
    Seat center_taker = kNoSeat;

    std::array<std::int8_t, kMaxSeats> bids{};  // -1: not yet
    std::uint16_t face_down = 0;                // blind nil: seats whose cards are not shown yet
    std::uint16_t blind = 0;                    // the seats that bid blind nil this hand
    std::uint8_t bids_made = 0;

    Trick trick{};
    CardSet required_lead;                      // trick 1: the lowest club in play, if that rule holds
    std::uint8_t trick_number = 0;              // 1-based during play
    std::array<std::uint8_t, kMaxSeats> tricks{};
    bool hearts_broken = false;
    bool spades_broken = false;
    bool reversed = false;   // reverse partners: the queen of spades won the last trick
    // This hand's cards in the order played, and each trick's leader: the finished
    // tricks a viewer who comes back is shown (finished_tricks.hpp). Kept from each
    // deal on; a bot's sampled position (resume()) keeps none, nor do its playouts.
    std::array<Card, kMaxCardsInPlay> played_in_order{};
    std::array<Seat, kMaxHandSize> trick_leaders{};
    std::uint8_t played_count = 0;
    bool plays_recorded = false;

    std::array<std::int32_t, kMaxSeats> scores{};  // per side
    std::array<std::int16_t, kMaxSeats> bags{};    // per side
    GameEndReason end_reason = GameEndReason::hand_cap;

    bool operator==(const GameState&) const = default;
};

class Game {
public:
    static Result<Game> create(const Ruleset& rules, std::uint64_t seed,
                               std::vector<StackedDeal> stacked = {});

    // For a bot's simulations (strong_bot.cpp): a game that goes on from `state`,
    // a position a seat believes possible (its own cards and what it has seen,
    // the rest sampled). Nothing checks the state: check_invariants() can. Later
    // hands are dealt from `seed` as usual.
    static Game resume(const Ruleset& rules, std::uint64_t seed, const GameState& state);
    // Puts the game back to `state` (the same caveat), keeping its buffers: one
    // Game serves every simulation of a decision without allocating.
    void reset(const GameState& state) { s_ = state; }

    // Deals the first hand. Call once, before any apply().
    std::span<const Event> start();
    Result<std::span<const Event>> apply(Seat seat, const Action& action);
    LegalMoves legal_moves(Seat seat) const;

    const Ruleset& rules() const { return rules_; }
    std::uint64_t seed() const { return seed_; }
    const GameState& state() const { return s_; }
    Phase phase() const { return s_.phase; }
    bool over() const { return s_.phase == Phase::game_over; }
    // Seats that may act now, as a bit mask (several while passing).
    std::uint16_t waiting_for() const;
    // While passing, the seats that pass this round: every seat, or a nil pass's sides only.
    std::uint16_t passing_seats() const;

    // The consistency checker: every card in exactly one place, counts agree.
    // Returns a description of the first broken invariant, or an empty string.
    std::string check_invariants() const;

    // The seats whose results combine with `seat`'s this hand (itself included):
    // its team, its progressive partner, or itself alone.
    std::uint16_t hand_partners(Seat seat) const;

private:
    Game(const Ruleset& rules, std::uint64_t seed, std::vector<StackedDeal> stacked);

    void emit(const Event& e) { events_.push_back(e); }
    void deal_hand();
    void begin_hand_kind(HandKind kind);
    void begin_passing_or_next();
    void begin_bidding_or_play();
    void begin_play();
    void finish_passing();
    void finish_trick();
    void give_center(Seat seat, int count);
    // `moon_subtracts`: the shooter's answer under moon_scoring "choose".
    void score_hand(bool moon_subtracts = false);
    bool begin_moon_choice();
    HeartsScoring hearts_scoring() const;
    std::array<HeartsTake, kMaxSeats> hearts_takes() const;
    bool check_game_end();
    void end_game(GameEndReason reason);

    std::optional<RuleError> check_play(Seat seat, Card card) const;
    std::optional<RuleError> check_bid(Seat seat, int bid) const;
    std::optional<RuleError> check_pass(Seat seat, CardSet cards, CardSet back) const;
    // `seats`: the seats that pass, when some sit it out (a nil pass); 0: every seat.
    void begin_pass_round(int round, int distance, int count, int back_count, std::uint16_t seats = 0);
    CardSet playable(Seat seat) const;
    bool big_joker_forces(Seat seat) const;
    std::uint32_t style_bids(Seat seat) const;
    std::uint16_t nil_pass_seats() const;
    std::uint16_t blind_nil_seats() const;
    void show_cards(Seat seat);
    bool plays_as(Card card, Suit suit) const;
    std::uint32_t allowed_bids(Seat seat) const;

    void on_choose(Seat seat, HandKind kind);
    void on_pass(Seat seat, CardSet cards, CardSet back);
    void on_bid(Seat seat, int bid, bool blind = false);
    void on_play(Seat seat, Card card);

    Ruleset rules_;
    std::uint64_t seed_;
    std::vector<StackedDeal> stacked_;
    GameState s_;
    std::vector<Event> events_;
};

}  // namespace sparts
