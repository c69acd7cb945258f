// One Glicko-2 rating period, exactly as in Mark E. Glickman, "Example of the Glicko-2
// system" (http://www.glicko.net/glicko/glicko2.pdf), steps 1 to 8, with the Illinois
// algorithm of step 5 for the new volatility (convergence tolerance 0.000001).
//
// Decisions:
// - Ratings are kept on the Glicko scale (1500/350/0.06 for a new player); the Glicko-2
//   scale (mu, phi) is internal, with the paper's factor 173.7178.
// - A period with no games changes only the deviation (step 6): phi' = sqrt(phi^2 + sigma^2).
// - The new deviation is capped at 350, the deviation of a player we know nothing about.
//   Only the result is capped, so that every period whose result is under the cap is the
//   paper's computation unchanged.
// - The sums of steps 3, 4 and 7 are taken in the order of the results given: the same
//   inputs give bit-identical outputs.
#pragma once

#include <span>

namespace sparts::ratings {

inline constexpr double default_tau = 0.5;    // the system constant tau (paper: 0.3 to 1.2)
inline constexpr double max_deviation = 350;  // cap on a new deviation (Glicko scale)
inline constexpr double volatility_epsilon = 0.000001;  // step 5's convergence tolerance

// A player's rating on the Glicko scale.
struct Rating {
    double rating = 1500;
    double deviation = 350;
    double volatility = 0.06;
};

// One game of the period, from the player's side: the opponent's rating at the start of
// the period and the player's score (1 a win, 0.5 a draw, 0 a loss).
struct Outcome {
    Rating opponent;
    double score;
};

// The player's rating after one rating period in which it had these outcomes (none: it
// did not play). tau > 0; deviations and volatilities > 0; scores in [0, 1].
Rating rate_period(const Rating& player, std::span<const Outcome> outcomes,
                   double tau = default_tau);

}  // namespace sparts::ratings
