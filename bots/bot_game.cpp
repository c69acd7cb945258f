#include "bots/bot_game.hpp"

#include <bit>
#include <stdexcept>
#include <vector>

#include "engine/view.hpp"

namespace sparts {

BotGameResult play_bot_game(const Ruleset& rules, std::uint64_t seed, std::span<const BotLevel> levels) {
    if (static_cast<int>(levels.size()) != rules.seats) throw std::logic_error("play_bot_game: one level a seat");
    auto created = Game::create(rules, seed);
    if (!created) throw std::logic_error("play_bot_game: " + created.error().message);
    Game& game = *created;
    std::vector<Bot> bots;
    bots.reserve(levels.size());
    for (int s = 0; s < rules.seats; ++s)
        bots.emplace_back(levels[static_cast<std::size_t>(s)], rules, static_cast<Seat>(s), seed);

    BotGameResult result;
    auto observe = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            for (Bot& b : bots) b.observe(e);
            if (const auto* over = std::get_if<GameOver>(&e)) result.over = *over;
        }
    };
    observe(game.start());
    while (!game.over()) {
        const std::uint16_t waiting = game.waiting_for();
        if (!waiting) throw std::logic_error("play_bot_game: the game waits for nobody");
        const Seat seat = static_cast<Seat>(std::countr_zero(waiting));
        const Action action = bots[seat].act(view_of(game, seat));
        auto events = game.apply(seat, action);
        if (!events)
            throw std::logic_error("play_bot_game: a bot's legal action was refused: " + events.error().message);
        ++result.actions;
        observe(*events);
    }
    return result;
}

}  // namespace sparts
