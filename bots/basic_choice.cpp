// The basic bot's choice of game for the hand (bga-sparts, seed 000): "If you
// can bid at least 4, it's almost always best to choose Spades. However, if
// your hand isn't very strong and might be a bid of 2, Hearts will probably be
// a better choice." and "it's important to notice if no cards are being passed
// (which is called a "hold hand") because you won't have a chance to adjust
// your hand."
#include "bots/basic_bot.hpp"
#include "bots/bot_hand_value.hpp"
#include "bots/bot_reading.hpp"

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

}  // namespace sparts::bot
