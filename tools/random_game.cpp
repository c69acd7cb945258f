#include "tools/random_game.hpp"

#include <bit>
#include <stdexcept>

#include "engine/random_policy.hpp"

namespace sparts::cli {

Seat next_seat(const Game& game) {
    const std::uint16_t waiting = game.waiting_for();
    return waiting ? static_cast<Seat>(std::countr_zero(waiting)) : kNoSeat;
}

PlayedGame play_random_game(const Ruleset& rules, std::uint64_t seed) {
    auto created = Game::create(rules, seed);
    if (!created) throw std::logic_error("play_random_game: " + created.error().message);
    Game& game = *created;
    Rng players(seed, kPlayerStream);

    PlayedGame played;
    played.record.rules = rules;
    played.record.seed = seed;
    played.events = game.start().size();
    while (!game.over()) {
        const Seat seat = next_seat(game);
        if (seat == kNoSeat) throw std::logic_error("play_random_game: the game waits for nobody");
        const Action action = random_action(game.legal_moves(seat), players);
        auto events = game.apply(seat, action);
        // A legal move refused is an engine bug, not bad input: stop loudly.
        if (!events) throw std::logic_error("play_random_game: the engine refused its own legal move: " +
                                            events.error().message);
        played.record.actions.push_back({seat, action});
        played.events += events->size();
        for (const Event& e : *events)
            if (const auto* over = std::get_if<GameOver>(&e)) played.over = *over;
    }
    played.record.result = result_of(played.over);
    return played;
}

}  // namespace sparts::cli
