#include "ratings/game_rating.hpp"

#include <algorithm>
#include <cassert>

namespace sparts::ratings {
namespace {

bool has_abandoned(std::span<const std::string> abandoned, const std::string& player) {
    return std::find(abandoned.begin(), abandoned.end(), player) != abandoned.end();
}

// The score of `self` against `other`, seats of different teams.
double pairwise_score(const GameSeat& self, bool self_left, const GameSeat& other,
                      bool other_left) {
    if (self_left != other_left) return self_left ? 0.0 : 1.0;
    if (self_left) return 0.5;
    if (self.place < other.place) return 1.0;
    if (self.place > other.place) return 0.0;
    return 0.5;
}

[[maybe_unused]] bool valid_game(std::span<const GameSeat> seats,
                                 std::span<const std::string> abandoned) {
    for (std::size_t i = 0; i < seats.size(); ++i) {
        if (seats[i].place < 1) return false;
        for (std::size_t j = i + 1; j < seats.size(); ++j) {
            if (seats[i].player == seats[j].player) return false;
            if (seats[i].team == seats[j].team && seats[i].place != seats[j].place) return false;
        }
    }
    return std::all_of(abandoned.begin(), abandoned.end(), [&](const std::string& p) {
        return std::any_of(seats.begin(), seats.end(),
                           [&](const GameSeat& s) { return s.player == p; });
    });
}

}  // namespace

std::vector<Outcome> seat_outcomes(std::span<const GameSeat> seats,
                                   std::span<const std::string> abandoned, std::size_t seat) {
    assert(seat < seats.size());
    assert(valid_game(seats, abandoned));
    const GameSeat& self = seats[seat];
    const bool self_left = has_abandoned(abandoned, self.player);
    std::vector<Outcome> outcomes;
    outcomes.reserve(seats.size());
    for (const GameSeat& other : seats) {
        if (other.team == self.team) continue;  // itself and its partner
        outcomes.push_back(Outcome{
            .opponent = other.rating,
            .score = pairwise_score(self, self_left, other, has_abandoned(abandoned, other.player)),
        });
    }
    return outcomes;
}

std::vector<PlayerRating> rate_game(std::span<const GameSeat> seats,
                                    std::span<const std::string> abandoned, double tau) {
    // Every seat is rated against the ratings from before the game (seats is not changed
    // while rating): a seat's new rating does not depend on which seats were rated first.
    std::vector<PlayerRating> rated;
    rated.reserve(seats.size());
    for (std::size_t i = 0; i < seats.size(); ++i) {
        const std::vector<Outcome> outcomes = seat_outcomes(seats, abandoned, i);
        rated.push_back(PlayerRating{
            .player = seats[i].player,
            .rating = rate_period(seats[i].rating, outcomes, tau),
        });
    }
    return rated;
}

}  // namespace sparts::ratings
