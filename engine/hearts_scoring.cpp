#include "engine/hearts_scoring.hpp"

namespace sparts {

void score_bga_hearts(std::span<const HeartsTake> takes, int hearts_in_play, int queens_in_play,
                      std::span<ScoreSheet> out) {
    int mooner = -1;
    for (std::size_t i = 0; i < takes.size(); ++i)
        if (takes[i].hearts == hearts_in_play && takes[i].queens == queens_in_play)
            mooner = static_cast<int>(i);
    for (std::size_t i = 0; i < takes.size(); ++i) {
        ScoreSheet& s = out[i];
        s = {};
        if (mooner >= 0) {
            if (static_cast<int>(i) == mooner) add(s, ScoreComponent::moon, 50);
            continue;
        }
        add(s, ScoreComponent::base, 40);
        if (takes[i].tricks == 0) add(s, ScoreComponent::no_tricks, 10);
        add(s, ScoreComponent::hearts, -2 * takes[i].hearts);
        add(s, ScoreComponent::queen_of_spades, -26 * takes[i].queens);
    }
}

MoonShooter moon_shooter(std::span<const HeartsTake> takes, const HeartsScoring& how) {
    MoonShooter shot;
    for (std::size_t i = 0; i < takes.size(); ++i) {
        if (takes[i].hearts == how.hearts_in_play && takes[i].queens == 1) shot = {static_cast<int>(i), 26};
        if (how.sun && takes[i].tricks == how.tricks_in_hand) shot = {static_cast<int>(i), 52};
    }
    return shot;
}

bool moon_subtract_is_best(std::span<const HeartsTake> takes, std::span<const int> scores, MoonShooter shot,
                           const HeartsScoring& how) {
    const int n = static_cast<int>(takes.size());
    auto jack = [&](int i) { return how.jack_of_diamonds * takes[i].jacks; };
    const int shooter_after = scores[shot.side] + jack(shot.side);
    const bool target = how.target_score > 0;  // no target: nothing ends the game
    bool ends = target && shooter_after >= how.target_score, alone_lowest = true;
    for (int i = 0; i < n; ++i) {
        if (i == shot.side) continue;
        const int after = scores[i] + jack(i) + shot.points;
        if (target && after >= how.target_score) ends = true;
        if (after <= shooter_after) alone_lowest = false;
    }
    return ends && !alone_lowest;
}

void score_hearts(std::span<const HeartsTake> takes, std::span<const int> scores, const HeartsScoring& how,
                  std::span<ScoreSheet> out) {
    const int n = static_cast<int>(takes.size());
    const MoonShooter shot = moon_shooter(takes, how);
    const int shooter = shot.side, moon = shot.points;
    bool subtract = how.moon == MoonScoring::subtract;
    if (shooter >= 0 && how.moon == MoonScoring::best) subtract = moon_subtract_is_best(takes, scores, shot, how);
    if (shooter >= 0 && how.moon == MoonScoring::choose) subtract = how.shooter_subtracts;
    for (int i = 0; i < n; ++i) {
        ScoreSheet& s = out[i];
        s = {};
        if (how.jack_of_diamonds) add(s, ScoreComponent::jack_of_diamonds, how.jack_of_diamonds * takes[i].jacks);
        if (shooter < 0) {
            add(s, ScoreComponent::hearts, takes[i].hearts);
            add(s, ScoreComponent::queen_of_spades, 13 * takes[i].queens);
        } else if (i == shooter) {
            if (subtract) add(s, ScoreComponent::moon, -moon);
        } else if (!subtract) {
            add(s, ScoreComponent::moon, moon);
        }
    }
}

}  // namespace sparts
