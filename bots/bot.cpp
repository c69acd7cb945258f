#include "bots/bot.hpp"

#include <stdexcept>
#include <string>

#include "bots/basic_bot.hpp"
#include "engine/random_policy.hpp"
#include "bots/strong_bot.hpp"

namespace sparts {

const char* to_string(BotLevel level) {
    switch (level) {
        case BotLevel::random: return "random";
        case BotLevel::basic: return "basic";
        case BotLevel::strong: return "strong";
    }
    return "?";
}

std::optional<BotLevel> parse_bot_level(std::string_view name) {
    for (int i = 0; i < kBotLevelCount; ++i)
        if (name == to_string(static_cast<BotLevel>(i))) return static_cast<BotLevel>(i);
    return std::nullopt;
}

Action decide(BotLevel level, const SeatView& view, const BotMemory& memory, Rng& rng, const BotOptions& options) {
    if (!view.legal.any) throw std::logic_error("decide: the seat has nothing to do");
    Action a;
    switch (level) {
        case BotLevel::random: a = random_action(view.legal, rng); break;
        case BotLevel::basic: a = basic_action(view, memory, rng); break;
        case BotLevel::strong: a = strong_action(view, memory, rng, options); break;
    }
    // A bot that picks an illegal action is a bug in the bot: stop loudly, in
    // every build (the check is one mask test).
    if (!view.legal.contains(a))
        throw std::logic_error(std::string("decide: the ") + to_string(level) + " bot chose an illegal " +
                               to_string(a.kind));
    return a;
}

}  // namespace sparts
