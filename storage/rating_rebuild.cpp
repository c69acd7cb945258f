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

namespace {

// A game's tally, kept as the table kept it live, event by event.
struct Count {
    GameTally tally;
    std::optional<GameOver> over;

    void observe(std::span<const Event> events) {
        for (const Event& e : events) {
            tally.observe(e);
            if (const auto* o = std::get_if<GameOver>(&e)) over = *o;
        }
    }
    Outcome<FinishGame, std::string> finish(const ArchivedGameSummary& s) const {
        if (!over) return std::string("it has no game_over");
        FinishGame f{s.table, s.game, s.result, s.finished};
        f.preset = s.preset;
        f.rule_set = s.rule_set;
        f.rated = tally.result(*over);
        return f;
    }
};

}  // namespace

Outcome<FinishGame, std::string> finish_of(const ArchivedGame& archived) {
    const ArchivedGameSummary& s = archived.summary;
    const auto rules = ruleset_of(s.ruleset);
    if (!rules) return rules.error();
    auto created = Game::create(*rules, archived.seed);
    if (!created) return "the game cannot be created: " + created.error().message;
    Game game = std::move(*created);
    Count count{GameTally(*rules, GameTally::starters_of(s.players)), std::nullopt};
    // The events in the order they were published: the table's own read from the archive,
    // the engine's made again by the actions, each at the seq its first event had.
    std::size_t next_action = 0;
    bool dealt = false;
    for (const StoredEvent& e : archived.events) {
        if (!is_engine_event(e.type)) {
            if (const auto payload = parse_json_text(e.payload)) count.tally.observe_table_event(*payload);
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
            count.observe(*applied);
        } else if (!dealt) {
            dealt = true;
            count.observe(game.start());
        }
    }
    return count.finish(s);
}

Outcome<FinishGame, std::string> finish_of(const ArchivedRecord& stored) {
    const ArchivedGameSummary& s = stored.summary;
    auto log = decode_game_log(stored.record);
    if (!log) return "its record is unreadable: " + log.error();
    if (log->verbatim) {
        // Its events as stored, not the engine's: read the way the archive serves them.
        auto rendered = render(*log, s.ruleset, stored.seed, s.game);
        if (!rendered) return "its record does not play back: " + rendered.error();
        return finish_of(ArchivedGame{s, stored.seed, stored.salt, std::move(rendered->actions), std::move(rendered->events)});
    }
    // The engine's events themselves, as the table tallied them: none rendered to JSON and parsed back.
    const auto rules = ruleset_of(s.ruleset);
    if (!rules) return rules.error();
    Count count{GameTally(*rules, GameTally::starters_of(s.players)), std::nullopt};
    LogVisitor visit;
    visit.engine = [&](const GameLogEntry&, std::span<const Event> events) { count.observe(events); };
    visit.table = [&](const GameLogEntry& e, std::span<const Event> caused) {
        if (!caused.empty()) return count.observe(caused);  // a migrated game's action, its events kept as stored
        if (is_engine_event(e.type)) return;                // the rest of those events
        if (const auto payload = parse_json_text(e.payload)) count.tally.observe_table_event(*payload);
    };
    const auto played = play_log(*log, *rules, stored.seed, visit);
    if (!played) return "its record does not play back: " + played.error();
    return count.finish(s);
}

RebuiltRatings rebuild_ratings(Store& store) {
    RebuiltRatings out;
    // The games' keys alone, newest first as the archive lists them: a few dozen bytes a game
    // (whole summaries took 700 MB at a million games).
    std::vector<std::pair<std::string, int>> games;
    ArchiveQuery q;
    q.limit = 500;
    for (;;) {
        ArchivePage page = store.list_games(q);
        for (auto& g : page.games) games.emplace_back(std::move(g.table), g.game);
        if (page.next_cursor.empty()) break;
        q.cursor = page.next_cursor;
    }
    games.shrink_to_fit();
    // Games retired from the archive cannot be played again: their players' rows as they left
    // them are where the rest of the games take up.
    RatingBook book;
    for (PresetRating& row : store.retired_ratings()) book.put(std::move(row));
    for (auto game = games.rbegin(); game != games.rend(); ++game) {
        ++out.games;
        const std::string name = game->first + " game " + std::to_string(game->second);
        const auto stored = store.load_record(game->first, game->second);
        if (!stored) {
            out.skipped.push_back(name + ": it cannot be read");
            continue;
        }
        const auto finish = finish_of(*stored);
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
