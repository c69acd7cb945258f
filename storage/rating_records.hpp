// Ratings and statistics as the store keeps them, as plain values (storage/README.md,
// "Ratings"): what a rated game's end carries to the store, a player's row for a preset,
// and the reads of the leaderboard and the player page.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sparts::storage {

using Millis = std::int64_t;  // milliseconds since the Unix epoch

// The figures of the hands a player played, summed over its rated games of a preset
// (game_tally.hpp says how each is counted).
struct PlayStats {
    std::int64_t hands = 0;      // hands scored while the player held its seat
    std::int64_t bids = 0;       // of them, hands it bid a number (not nil) toward its side's contract
    std::int64_t bids_made = 0;  // of those, hands its side made the contract
    std::int64_t nil_bids = 0;   // hands it bid nil
    std::int64_t nils_made = 0;  // of those, hands it took no trick
    std::int64_t bags = 0;       // its side's overtricks in those hands
    std::int64_t moons = 0;      // hands its side shot the moon

    PlayStats& operator+=(const PlayStats& o) {
        hands += o.hands;
        bids += o.bids;
        bids_made += o.bids_made;
        nil_bids += o.nil_bids;
        nils_made += o.nils_made;
        bags += o.bags;
        moons += o.moons;
        return *this;
    }
    friend bool operator==(const PlayStats&, const PlayStats&) = default;
};

// One seat of a rated game (every seat held by a person when it started), as the table
// hands it to the store with the game's end: who is rated for it, and on what.
struct RatedSeat {
    std::string player;
    int team = 0;            // partners share a team
    int place = 1;           // the team's final place, 1 the best; ties share a place
    bool abandoned = false;  // left the seat during the game and did not take it back
    PlayStats stats;

    friend bool operator==(const RatedSeat&, const RatedSeat&) = default;
};

// A player's rating (Glicko-2, on the Glicko scale) and statistics for one preset.
struct PresetRating {
    std::string player;
    std::string preset;
    double rating = 1500;
    double deviation = 350;
    double volatility = 0.06;
    std::int64_t games = 0;
    std::int64_t wins = 0;  // games its team finished first (a shared first place included); never an abandoned one
    PlayStats stats;
    std::string last_table;   // the last rated game
    int last_game = 0;
    double last_change = 0;   // what that game changed the rating by
    Millis updated = 0;       // when that game ended
    std::string name;         // reads only: the player's name now

    friend bool operator==(const PresetRating&, const PresetRating&) = default;
};

struct LeaderboardQuery {
    std::string preset;
    int min_games = 1;    // only players with at least this many rated games
    int limit = 50;
    std::string cursor;   // from the previous page; empty: the first page
};

struct LeaderboardPage {
    std::vector<PresetRating> players;  // best rating first, then by player id
    std::int64_t first_rank = 1;        // the rank of the first of them
    std::string next_cursor;            // empty: no more
};

// A player and its row for every preset it has played rated games of.
struct PlayerRatings {
    std::string id;
    std::string name;
    std::vector<PresetRating> presets;  // by preset name
};

}  // namespace sparts::storage
