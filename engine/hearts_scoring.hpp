// bga-sparts Hearts hands (seed 000): "All players are awarded 40 points. Then,
// each heart they took during the hand subtracts 2 ... The player who takes the
// queen of spades is penalized 26 points ... If you take no tricks at all during
// the hand, you receive 50 points instead of the usual 40 ... if any player takes
// all 13 hearts and the queen of spades ... that player receives 50 points and
// all other players receive none."
#pragma once

#include <span>

#include "engine/ruleset.hpp"
#include "engine/score_sheet.hpp"

namespace sparts {

struct HeartsTake {
    int hearts;
    int queens;
    int tricks;
    int jacks = 0;  // the jack of diamonds (the hearts preset's option)
};

// One sheet per seat; `out` has the same size as `takes`.
void score_bga_hearts(std::span<const HeartsTake> takes, int hearts_in_play, int queens_in_play,
                      std::span<ScoreSheet> out);

// The hearts preset (docs/RULES.md, "The hearts preset"): points are taken, and the
// lowest score wins. A heart is 1, the queen of spades 13, the jack of diamonds
// `jack_of_diamonds` (0: off). A side that takes every heart and the queen shoots
// the moon: its hearts and queen count 0 and every other side gets 26 (`add`), or
// it gets -26 (`subtract`); with `sun`, a side that takes every trick scores twice
// that. The jack still counts for whoever took it.
struct HeartsScoring {
    int jack_of_diamonds = 0;
    MoonScoring moon = MoonScoring::add;
    bool sun = false;
    int hearts_in_play = 13;
    int tricks_in_hand = 13;
    int target_score = 100;
    bool shooter_subtracts = false;  // `choose`: the shooter's answer (ActionKind::moon)
};

// The side that shot the moon (every heart and the queen) or the sun (every trick, with
// `sun`), or -1; `points`: 26, or 52 for the sun.
struct MoonShooter {
    int side = -1;
    int points = 0;
};
MoonShooter moon_shooter(std::span<const HeartsTake> takes, const HeartsScoring& how);

// `best`'s choice, and the bots' under `choose`: add to the others unless that ends the
// game (someone at the target) with the shooter not alone at the bottom. `scores` are the
// sides' game scores before the hand; the jack of diamonds counts as it will.
bool moon_subtract_is_best(std::span<const HeartsTake> takes, std::span<const int> scores, MoonShooter shot,
                           const HeartsScoring& how);

// `takes` per side; `scores` the sides' game scores before the hand (for `best`).
void score_hearts(std::span<const HeartsTake> takes, std::span<const int> scores, const HeartsScoring& how,
                  std::span<ScoreSheet> out);

}  // namespace sparts
