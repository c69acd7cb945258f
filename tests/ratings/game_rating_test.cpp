// Rating a finished card game (ratings/game_rating.hpp): the pairwise reduction by place,
// partners, abandonment.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "ratings/game_rating.hpp"

using namespace sparts::ratings;

namespace {

std::vector<double> scores(const std::vector<Outcome>& outcomes) {
    std::vector<double> s;
    for (const Outcome& o : outcomes) s.push_back(o.score);
    return s;
}

bool same(const Rating& a, const Rating& b) {
    return a.rating == b.rating && a.deviation == b.deviation && a.volatility == b.volatility;
}

// Bit-identical new ratings, player by player.
void check_same_ratings(const std::vector<PlayerRating>& a, const std::vector<PlayerRating>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        CAPTURE(i);
        CHECK(a[i].player == b[i].player);
        CHECK(same(a[i].rating, b[i].rating));
    }
}

const std::vector<std::string> nobody_left;

// Four seats, each its own team (a Hearts table), with these places.
std::vector<GameSeat> individual_game(std::vector<int> places, std::vector<Rating> ratings) {
    const std::vector<std::string> names{"ann", "bob", "cy", "dee"};
    std::vector<GameSeat> seats;
    for (std::size_t i = 0; i < places.size(); ++i) {
        seats.push_back({names[i], ratings[i], static_cast<int>(i), places[i]});
    }
    return seats;
}

const std::vector<Rating> four_new_players(4, Rating{});
const std::vector<Rating> four_known_players{
    {1620, 80, 0.06}, {1480, 120, 0.07}, {1555, 60, 0.05}, {1390, 200, 0.06}};

}  // namespace

TEST_CASE("a Hearts game with places 1, 2, 2, 4: each player against the three others") {
    const auto seats = individual_game({1, 2, 2, 4}, four_known_players);
    CHECK(scores(seat_outcomes(seats, nobody_left, 0)) == std::vector<double>{1, 1, 1});
    CHECK(scores(seat_outcomes(seats, nobody_left, 1)) == std::vector<double>{0, 0.5, 1});
    CHECK(scores(seat_outcomes(seats, nobody_left, 2)) == std::vector<double>{0, 0.5, 1});
    CHECK(scores(seat_outcomes(seats, nobody_left, 3)) == std::vector<double>{0, 0, 0});
    // The opponents are the other seats, in seat order, at their ratings before the game.
    const auto cy = seat_outcomes(seats, nobody_left, 2);
    REQUIRE(cy.size() == 3);
    CHECK(same(cy[0].opponent, four_known_players[0]));
    CHECK(same(cy[1].opponent, four_known_players[1]));
    CHECK(same(cy[2].opponent, four_known_players[3]));

    // All those results in one period each: the same as rating each player's three games
    // together, from everyone's rating before the game.
    const auto rated = rate_game(seats, nobody_left);
    REQUIRE(rated.size() == 4);
    const std::vector<std::vector<Outcome>> by_hand{
        {{four_known_players[1], 1}, {four_known_players[2], 1}, {four_known_players[3], 1}},
        {{four_known_players[0], 0}, {four_known_players[2], 0.5}, {four_known_players[3], 1}},
        {{four_known_players[0], 0}, {four_known_players[1], 0.5}, {four_known_players[3], 1}},
        {{four_known_players[0], 0}, {four_known_players[1], 0}, {four_known_players[2], 0}},
    };
    for (std::size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(rated[i].player == seats[i].player);
        CHECK(same(rated[i].rating, rate_period(four_known_players[i], by_hand[i])));
    }
    CHECK(rated[0].rating.rating > 1620);
    CHECK(rated[3].rating.rating < 1390);
}

TEST_CASE(
    "a Hearts game from equal ratings: the tied pair stays put, first gains what last loses") {
    const auto rated = rate_game(individual_game({1, 2, 2, 4}, four_new_players), nobody_left);
    REQUIRE(rated.size() == 4);
    // Second equal: one loss, one draw, one win against equals, so no change of rating.
    CHECK(rated[1].rating.rating == 1500);
    CHECK(same(rated[1].rating, rated[2].rating));
    CHECK(rated[0].rating.rating > 1500);
    CHECK(rated[0].rating.rating - 1500 == doctest::Approx(1500 - rated[3].rating.rating));
    for (const PlayerRating& p : rated) CHECK(p.rating.deviation < 350);
}

TEST_CASE("partnership game: partners get the team's results, not each other") {
    // Spades seating: seats 0 and 2 against seats 1 and 3; the first team wins.
    const Rating partner{1500, 200, 0.06};
    const std::vector<GameSeat> seats{
        {"ann", partner, 0, 1},
        {"bob", {1600, 80, 0.06}, 1, 2},
        {"cy", partner, 0, 1},
        {"dee", {1450, 120, 0.06}, 1, 2},
    };
    const auto ann = seat_outcomes(seats, nobody_left, 0);
    CHECK(scores(ann) == std::vector<double>{1, 1});
    REQUIRE(ann.size() == 2);
    CHECK(same(ann[0].opponent, seats[1].rating));
    CHECK(same(ann[1].opponent, seats[3].rating));
    CHECK(scores(seat_outcomes(seats, nobody_left, 1)) == std::vector<double>{0, 0});
    CHECK(scores(seat_outcomes(seats, nobody_left, 3)) == std::vector<double>{0, 0});

    const auto rated = rate_game(seats, nobody_left);
    REQUIRE(rated.size() == 4);
    CHECK(same(rated[0].rating, rated[2].rating));
    CHECK(rated[0].rating.rating > 1500);
    CHECK(rated[1].rating.rating < 1600);
    CHECK(rated[3].rating.rating < 1450);

    // A partner's own rating changes nothing for the other: they did not play each other.
    auto weaker_partner = seats;
    weaker_partner[2].rating = {1200, 300, 0.09};
    const auto rated_again = rate_game(weaker_partner, nobody_left);
    CHECK(same(rated_again[0].rating, rated[0].rating));
    CHECK_FALSE(same(rated_again[2].rating, rated[2].rating));
}

TEST_CASE("an abandonment: the abandoner loses to all, as if alone in last place") {
    const std::vector<std::string> bob_left{"bob"};
    // Bob was second (equal) when he left; cy second, dee fourth.
    const auto left = individual_game({1, 2, 2, 4}, four_known_players);
    CHECK(scores(seat_outcomes(left, bob_left, 1)) == std::vector<double>{0, 0, 0});
    CHECK(scores(seat_outcomes(left, bob_left, 0)) == std::vector<double>{1, 1, 1});
    CHECK(scores(seat_outcomes(left, bob_left, 2)) == std::vector<double>{0, 1, 1});
    CHECK(scores(seat_outcomes(left, bob_left, 3)) == std::vector<double>{0, 1, 0});
    // The same game with bob alone last and nobody leaving: every update the same.
    const auto last = individual_game({1, 4, 2, 3}, four_known_players);
    check_same_ratings(rate_game(left, bob_left), rate_game(last, nobody_left));
    CHECK(rate_game(left, bob_left)[1].rating.rating < 1480);
}

TEST_CASE("an abandonment in a game where everyone else ties still loses to all") {
    const std::vector<std::string> dee_left{"dee"};
    const auto tied = individual_game({1, 1, 1, 1}, four_new_players);
    CHECK(scores(seat_outcomes(tied, dee_left, 3)) == std::vector<double>{0, 0, 0});
    CHECK(scores(seat_outcomes(tied, dee_left, 0)) == std::vector<double>{0.5, 0.5, 1});
    const auto rated = rate_game(tied, dee_left);
    check_same_ratings(rated,
                       rate_game(individual_game({1, 1, 1, 4}, four_new_players), nobody_left));
    CHECK(rated[3].rating.rating < 1500);
    CHECK(rated[0].rating.rating > 1500);
}

TEST_CASE("two abandoners draw against each other and lose to the others") {
    const std::vector<std::string> two_left{"ann", "dee"};
    const auto seats = individual_game({1, 2, 3, 4}, four_known_players);
    CHECK(scores(seat_outcomes(seats, two_left, 0)) == std::vector<double>{0, 0, 0.5});
    CHECK(scores(seat_outcomes(seats, two_left, 3)) == std::vector<double>{0.5, 0, 0});
    CHECK(scores(seat_outcomes(seats, two_left, 1)) == std::vector<double>{1, 1, 1});
    CHECK(scores(seat_outcomes(seats, two_left, 2)) == std::vector<double>{1, 0, 1});
}

TEST_CASE(
    "a partner's abandonment: the abandoner loses to both opponents, the partner keeps its place") {
    const std::vector<GameSeat> seats{{"ann", Rating{}, 0, 1},
                                      {"bob", Rating{}, 1, 2},
                                      {"cy", Rating{}, 0, 1},
                                      {"dee", Rating{}, 1, 2}};
    const std::vector<std::string> ann_left{"ann"};
    CHECK(scores(seat_outcomes(seats, ann_left, 0)) == std::vector<double>{0, 0});
    CHECK(scores(seat_outcomes(seats, ann_left, 2)) == std::vector<double>{1, 1});
    CHECK(scores(seat_outcomes(seats, ann_left, 1)) == std::vector<double>{1, 0});
}

TEST_CASE("a two-seat game between equals: the winner gains what the loser loses") {
    const Rating equal{1500, 200, 0.06};
    const std::vector<GameSeat> seats{{"ann", equal, 0, 2}, {"bob", equal, 1, 1}};
    const auto rated = rate_game(seats, nobody_left);
    REQUIRE(rated.size() == 2);
    CHECK(rated[1].rating.rating > 1500);
    CHECK(rated[1].rating.rating - 1500 ==
          doctest::Approx(1500 - rated[0].rating.rating).epsilon(1e-12));
    CHECK(rated[0].rating.deviation == rated[1].rating.deviation);
    CHECK(rated[0].rating.volatility == rated[1].rating.volatility);
    // A draw between equals moves neither rating.
    const std::vector<GameSeat> drawn{{"ann", equal, 0, 1}, {"bob", equal, 1, 1}};
    for (const PlayerRating& p : rate_game(drawn, nobody_left)) CHECK(p.rating.rating == 1500);
}
