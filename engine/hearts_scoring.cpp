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

void score_hearts(std::span<const HeartsTake> takes, std::span<const int> scores, const HeartsScoring& how,
                  std::span<ScoreSheet> out) {
    const int n = static_cast<int>(takes.size());
    int shooter = -1;
    bool sun = false;
    for (int i = 0; i < n; ++i) {
        if (takes[i].hearts == how.hearts_in_play && takes[i].queens == 1) shooter = i;
        if (how.sun && takes[i].tricks == how.tricks_in_hand) shooter = i, sun = true;
    }
    const int moon = sun ? 52 : 26;
    bool subtract = how.moon == MoonScoring::subtract;
    if (shooter >= 0 && how.moon == MoonScoring::best) {
        // The shooter's choice, made for them: add to the others unless that ends the game
        // (someone at the target) with the shooter not alone at the bottom; the scores after
        // the hand, the jack of diamonds included.
        auto jack = [&](int i) { return how.jack_of_diamonds * takes[i].jacks; };
        const int shooter_after = scores[shooter] + jack(shooter);
        const bool target = how.target_score > 0;  // no target: nothing ends the game
        bool ends = target && shooter_after >= how.target_score, alone_lowest = true;
        for (int i = 0; i < n; ++i) {
            if (i == shooter) continue;
            const int after = scores[i] + jack(i) + moon;
            if (target && after >= how.target_score) ends = true;
            if (after <= shooter_after) alone_lowest = false;
        }
        subtract = ends && !alone_lowest;
    }
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
