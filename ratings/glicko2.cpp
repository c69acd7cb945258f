#include "ratings/glicko2.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace sparts::ratings {
namespace {

// Step 2: the Glicko-2 scale is the Glicko scale centred on 1500 and divided by this.
constexpr double glicko2_scale = 173.7178;
constexpr double scale_centre = 1500;

// Step 5 brackets the root by stepping down tau at a time, then narrows the bracket. Both
// end on any finite input (f is decreasing, +inf far left); the bounds only keep a bad
// input (a NaN that slipped past the asserts of a release build) from spinning forever.
constexpr int max_bracket_steps = 10'000;
constexpr int max_illinois_steps = 10'000;

double g(double phi) {
    return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected_score(double mu, double mu_j, double g_j) {
    return 1 / (1 + std::exp(-g_j * (mu - mu_j)));
}

// Step 5: the new volatility sigma' is exp(A/2) for the root A of f, found by the
// Illinois algorithm (regula falsi that halves the stale end's value), as the paper does:
// its result is what the paper's example prints, and it converges where Newton's method
// on f may not.
double new_volatility(double sigma, double phi, double v, double delta, double tau) {
    const double a = std::log(sigma * sigma);
    const double phi2 = phi * phi;
    const double delta2 = delta * delta;
    const auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi2 + v + ex;
        return ex * (delta2 - phi2 - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
    };

    double big_a = a;
    double big_b = 0;
    if (delta2 > phi2 + v) {
        big_b = std::log(delta2 - phi2 - v);
    } else {
        int k = 1;
        while (f(a - k * tau) < 0 && k < max_bracket_steps) ++k;
        big_b = a - k * tau;
    }

    double f_a = f(big_a);
    double f_b = f(big_b);
    for (int i = 0; std::abs(big_b - big_a) > volatility_epsilon && i < max_illinois_steps; ++i) {
        const double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        const double f_c = f(big_c);
        // "<= 0", not "< 0": when f(C) is exactly 0 the bracket must still move, or A
        // would stay where it is while B sits on the root, and the loop would not end.
        if (f_c * f_b <= 0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2;
        }
        big_b = big_c;
        f_b = f_c;
    }
    return std::exp(big_a / 2);
}

}  // namespace

Rating rate_period(const Rating& player, std::span<const Outcome> outcomes, double tau) {
    assert(tau > 0);
    assert(player.deviation > 0 && player.volatility > 0);
    assert(std::isfinite(player.rating) && std::isfinite(player.deviation) &&
           std::isfinite(player.volatility));

    // Step 2.
    const double mu = (player.rating - scale_centre) / glicko2_scale;
    const double phi = player.deviation / glicko2_scale;
    const double sigma = player.volatility;

    if (outcomes.empty()) {
        // Step 6 alone: the rating and the volatility stay as they were, bit for bit.
        Rating next = player;
        next.deviation =
            std::min(glicko2_scale * std::sqrt(phi * phi + sigma * sigma), max_deviation);
        return next;
    }

    // Steps 3 and 4: v, and the sum that is Delta / v and, in step 7, (mu' - mu) / phi'^2.
    double information = 0;
    double improvement = 0;
    for (const Outcome& o : outcomes) {
        assert(o.score >= 0 && o.score <= 1);
        assert(o.opponent.deviation > 0 && std::isfinite(o.opponent.rating));
        const double mu_j = (o.opponent.rating - scale_centre) / glicko2_scale;
        const double g_j = g(o.opponent.deviation / glicko2_scale);
        const double e = expected_score(mu, mu_j, g_j);
        information += g_j * g_j * e * (1 - e);
        improvement += g_j * (o.score - e);
    }
    // Zero only for rating gaps of thousands of points, where e rounds to 0 or 1.
    assert(information > 0);
    const double v = 1 / information;
    const double delta = v * improvement;

    // Steps 5 to 8.
    const double sigma_new = new_volatility(sigma, phi, v, delta, tau);
    const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
    const double phi_new = 1 / std::sqrt(1 / (phi_star * phi_star) + 1 / v);
    const double mu_new = mu + phi_new * phi_new * improvement;
    return Rating{
        .rating = glicko2_scale * mu_new + scale_centre,
        .deviation = std::min(glicko2_scale * phi_new, max_deviation),
        .volatility = sigma_new,
    };
}

}  // namespace sparts::ratings
