#include "protocol/replay.hpp"
#include "protocol/json_text.hpp"

#include "protocol/action_json.hpp"

namespace sparts {

namespace {

std::string seat_text(Seat seat) { return seat == kTableSeat ? "the table" : "seat " + std::to_string(seat); }

std::string result_text(const RecordResult& r) {
    nlohmann::json j = {{"scores", r.scores}, {"ranks", r.ranks}, {"reason", to_string(r.reason)}};
    return dump_text(j);
}

}  // namespace

Outcome<Replay, ReplayError> replay(const GameRecord& record) {
    auto game = Game::create(record.rules, record.seed, record.deals);
    if (!game) return ReplayError{std::nullopt, "the game cannot be created: " + game.error().message};

    Replay out;
    for (const Event& e : game->start()) out.events.push_back(e);
    for (std::size_t i = 0; i < record.actions.size(); ++i) {
        const RecordedAction& a = record.actions[i];
        auto events = game->apply(a.seat, a.action);
        if (!events) {
            nlohmann::json action = to_json(a.action);
            const RuleError& error = events.error();
            std::string message = "action " + std::to_string(i + 1) + " (index " + std::to_string(i) + ") by " +
                                  seat_text(a.seat) + ", " + dump_text(action) + ", was refused: " +
                                  to_string(error.code) + ": " + error.message;
            return ReplayError{ReplayError::RefusedAction{i, a.seat, std::move(action), error}, std::move(message)};
        }
        for (const Event& e : *events) {
            out.events.push_back(e);
            if (const auto* over = std::get_if<GameOver>(&e)) out.game_over = *over;
        }
    }

    if (record.result) {
        if (!out.game_over)
            return ReplayError{std::nullopt, "the record has a result, but its " + std::to_string(record.actions.size()) +
                                                 " actions stop before the game is over"};
        const RecordResult got = result_of(*out.game_over);
        if (got != *record.result)
            return ReplayError{std::nullopt, "the record's result " + result_text(*record.result) +
                                                 " differs from the replay's " + result_text(got)};
    }
    return out;
}

}  // namespace sparts
