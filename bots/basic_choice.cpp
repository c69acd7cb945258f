// The basic bot's choice of game for the hand (bga-sparts, seed 000): "If you
// can bid at least 4, it's almost always best to choose Spades. However, if
// your hand isn't very strong and might be a bid of 2, Hearts will probably be
// a better choice." and "it's important to notice if no cards are being passed
// (which is called a "hold hand") because you won't have a chance to adjust
// your hand."
//
// A shot moon under moon_scoring "choose" is scored as `best` would score it (docs/RULES.md
// moon): 26 to every other side, unless that ends the game with the shooter not alone first.
#include "bots/basic_bot.hpp"
#include "bots/bot_hand_value.hpp"
#include "bots/bot_reading.hpp"
#include "engine/hearts_scoring.hpp"

namespace sparts::bot {

Action basic_choice(const Reading& r) {
    const LegalMoves& m = r.view.legal;
    if (!m.choose_spades) return Action::choose(HandKind::hearts);
    if (!m.choose_hearts) return Action::choose(HandKind::spades);
    const double tricks = estimate_tricks(r.hand, r.rules);
    const double danger = hearts_danger(r.hand);
    const bool hold = r.memory.hearts_hands_played() % 4 == 3;  // left, right, across, hold
    bool spades = tricks >= 3.5;
    if (!spades && tricks >= 2.5 && danger >= (hold ? 1.5 : 2.5)) spades = true;
    if (!spades && hold && danger >= 4) spades = true;  // no pass to get rid of it
    return Action::choose(spades ? HandKind::spades : HandKind::hearts);
}

Action basic_moon(const Reading& r) {
    const SeatView& v = r.view;
    const int sides = r.rules.sides();
    std::array<HeartsTake, kMaxSeats> takes{};
    std::array<int, kMaxSeats> scores{};
    int shooter_tricks = 0;
    const int shooter = r.rules.side_of(r.me);
    for (int side = 0; side < sides; ++side) {
        scores[side] = v.scores[side];
        for (int s = 0; s < r.seats; ++s) {
            if (!(r.rules.side_seats(side) & (1u << s))) continue;
            takes[side].jacks += v.points_taken[s].contains(kJackOfDiamonds) ? 1 : 0;
            if (side == shooter) shooter_tricks += v.tricks[s];
        }
    }
    HeartsScoring how;
    how.jack_of_diamonds = r.rules.jack_of_diamonds;
    how.target_score = r.rules.target_score;
    const MoonShooter shot{shooter, r.rules.shoot_the_sun && shooter_tricks == r.rules.hand_size ? 52 : 26};
    const auto n = static_cast<std::size_t>(sides);
    return Action::moon(moon_subtract_is_best(std::span(takes.data(), n), std::span(scores.data(), n), shot, how));
}

}  // namespace sparts::bot
