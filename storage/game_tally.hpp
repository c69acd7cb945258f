// What a game counts toward its players' ratings and statistics, tallied from its events as
// they happen: by the table while it plays (server/table/table.cpp), and again from the archive
// (rating_rebuild.hpp). Both feed the same events to the same code, so the numbers agree.
//
// Decisions (storage/README.md, "Ratings"):
// - A game is rated when every seat was held by a person when it started (no bot). Each seat
//   is rated for that person, its starter; a newcomer who takes over a seat mid-game is not.
// - A starter who does not hold its seat when the game ends abandoned it: it left during the
//   game (a bot took the seat, seat_left then seat_taken with bot) and did not take the seat
//   back. Time-outs, absence and lost connections are not leaving: the seat stays its holder's.
// - Team and place come from the game's sides (Ruleset::side_of) and game_over's ranks.
// - A hand counts for a starter when it holds its seat as the hand is scored. In it:
//   bid: a number (not nil) in a hand whose side has a contract; made: the side's score sheet
//   has no `set` line; nil made: the nil bidder took no trick; bags: the side's `overtricks`
//   line; moon: in a hand where some side's `moon` line is not zero, the side(s) with the
//   highest one (bga-sparts' Hearts gives the shooter +50; Sparts' mooning gives everyone
//   else a negative line), or the lowest where points are taken (the hearts preset: the
//   others +26, or the shooter -26). A reverse-partners hand counts as a hand only: its bids, tricks and
//   counts are everyone else's.
#pragma once
#include <array>
#include <string>
#include <vector>
#include <nlohmann/json_fwd.hpp>
#include "engine/event.hpp"
#include "engine/ruleset.hpp"
#include "storage/rating_records.hpp"

namespace sparts::storage {

class GameTally {
public:
    GameTally() = default;
    // A game dealt by `rules`; `starters`: the player id of each seat as it began ("" for a bot).
    GameTally(const Ruleset& rules, std::vector<std::string> starters);
    // The starters from a game's players JSON (StartGame's: {"player":id,...} or {"bot":true,...}).
    static std::vector<std::string> starters_of(const std::string& players_json);

    // Every event of the engine, whole (secret bids and cards included).
    void observe(const Event& e);
    // The table's own events: seat_left and seat_taken say who holds each seat.
    void observe_table_event(const nlohmann::json& event);
    // Whether the starter holds `seat` now (a table rebuilt after a restart says so at once).
    void set_held(int seat, bool held);

    bool rated() const;
    // At game over: the rated seats, in seat order; empty when the game is not rated.
    std::vector<RatedSeat> result(const GameOver& over) const;

private:
    struct HandSeat {
        bool bid = false;  // bid a number
        bool nil = false;  // bid nil
        int tricks = 0;
    };
    void hand_scored(const HandScored& h);

    std::vector<int> sides_;  // the side of each seat
    std::vector<std::string> starters_;
    std::vector<bool> held_;
    std::vector<PlayStats> stats_;
    bool points_taken_ = false;  // the lowest score wins: the shooter's moon line is the lowest
    std::array<HandSeat, kMaxSeats> hand_{};
};

}  // namespace sparts::storage
