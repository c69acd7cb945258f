#include "storage/rating_rebuild.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include "engine/game.hpp"
#include "protocol/action_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"
#include "storage/game_log.hpp"
#include "storage/game_tally.hpp"
#include "storage/rating_book.hpp"
#include "storage/store.hpp"

namespace sparts::storage {

Outcome<FinishGame, std::string> finish_of(const ArchivedGame& archived) {
    const ArchivedGameSummary& s = archived.summary;
    const auto doc = parse_json_text(s.ruleset);
    if (!doc) return std::string("its ruleset is not JSON");
    const auto rules = ruleset_from_json(*doc);
    if (!rules) return "its ruleset is refused: " + rules.error().message();
    auto created = Game::create(*rules, archived.seed);
    if (!created) return "the game cannot be created: " + created.error().message;
    Game game = std::move(*created);
    GameTally tally(*rules, GameTally::starters_of(s.players));
    std::optional<GameOver> over;
    const auto observe = [&](std::span<const Event> events) {
        for (const Event& e : events) {
            tally.observe(e);
            if (const auto* o = std::get_if<GameOver>(&e)) over = *o;
        }
    };
    // The events in the order they were published: the table's own read from the archive,
    // the engine's made again by the actions, each at the seq its first event had.
    std::size_t next_action = 0;
    bool dealt = false;
    for (const StoredEvent& e : archived.events) {
        if (!is_engine_event(e.type)) {
            if (const auto payload = parse_json_text(e.payload)) tally.observe_table_event(*payload);
            continue;
        }
        if (next_action < archived.actions.size() && archived.actions[next_action].seq == e.seq) {
            const StoredAction& a = archived.actions[next_action++];
            const auto text = parse_json_text(a.action);
            if (!text) return "action " + std::to_string(next_action) + " is not JSON";
            const auto action = action_from_json(*text);
            if (!action) return "action " + std::to_string(next_action) + ": " + action.error().message();
            const auto applied = game.apply(static_cast<Seat>(a.seat), *action);
            if (!applied) return "action " + std::to_string(next_action) + " is refused: " + applied.error().message;
            observe(*applied);
        } else if (!dealt) {
            dealt = true;
            observe(game.start());
        }
    }
    if (!over) return std::string("it has no game_over");
    FinishGame f{s.table, s.game, s.result, s.finished};
    f.preset = s.preset;
    f.rated = tally.result(*over);
    return f;
}

RebuiltRatings rebuild_ratings(Store& store) {
    RebuiltRatings out;
    std::vector<ArchivedGameSummary> games;
    ArchiveQuery q;
    q.limit = 500;
    for (;;) {
        ArchivePage page = store.list_games(q);
        for (auto& g : page.games) games.push_back(std::move(g));
        if (page.next_cursor.empty()) break;
        q.cursor = page.next_cursor;
    }
    std::reverse(games.begin(), games.end());  // the list is newest first
    // Games retired from the archive cannot be played again: their players' rows as they left
    // them are where the rest of the games take up.
    RatingBook book;
    for (PresetRating& row : store.retired_ratings()) book.put(std::move(row));
    for (const ArchivedGameSummary& summary : games) {
        ++out.games;
        const std::string name = summary.table + " game " + std::to_string(summary.game);
        const auto archived = store.load_game(summary.table, summary.game);
        if (!archived) {
            out.skipped.push_back(name + ": it cannot be read");
            continue;
        }
        const auto finish = finish_of(*archived);
        if (!finish) {
            out.skipped.push_back(name + ": " + finish.error());
            continue;
        }
        if (book.apply(*finish)) ++out.rated;
    }
    out.rows = book.all();
    return out;
}

}  // namespace sparts::storage
