#include "bots/basic_bot.hpp"

#include "bots/bot_reading.hpp"

namespace sparts {

Action basic_action(const SeatView& view, const BotMemory& memory, Rng& /*rng: the basic bot is deterministic*/) {
    const bot::Reading r(view, memory);
    switch (view.legal.kind) {
        case ActionKind::choose: return bot::basic_choice(r);
        case ActionKind::pass: return bot::basic_pass(r);
        case ActionKind::bid: return bot::basic_bid(r);
        case ActionKind::play: return bot::basic_play(r);
        case ActionKind::moon: return bot::basic_moon(r);
        case ActionKind::clock_expired:
        case ActionKind::show_cards: break;
    }
    return Action::clock_expired();
}

}  // namespace sparts
