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

}  // namespace sparts
