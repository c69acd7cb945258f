#include "storage/legacy_events.hpp"

#include <optional>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <spdlog/spdlog.h>
#include "storage/game_log.hpp"
#include "storage/journal.hpp"

namespace sparts::storage {

namespace {

struct LegacyRow {
    std::uint64_t seq = 0;
    std::string type;
    std::string payload;
    Millis at = 0;
    std::optional<Cause> cause;
};

// The rows of one game as a log: an action's first event and the events after it
// with no action of their own are what that action caused; engine events with no
// action before them are the deal. nullopt: rows this reading cannot hold.
std::optional<GameLog> grouped(const std::vector<LegacyRow>& rows) {
    GameLog log;
    for (const LegacyRow& r : rows) {
        if (!is_engine_event(r.type)) {
            if (r.cause) return std::nullopt;
            log.entries.push_back(GameLogEntry::table(r.seq, r.at, r.type, r.payload));
        } else if (!r.cause && !log.entries.empty() && log.entries.back().kind == GameLogEntry::Kind::engine &&
                   log.entries.back().seq + log.entries.back().events == r.seq && log.entries.back().at == r.at) {
            ++log.entries.back().events;
        } else {
            log.entries.push_back(GameLogEntry::engine_events(r.seq, r.at, 1, r.cause));
        }
    }
    return log;
}

GameLog verbatim(const std::vector<LegacyRow>& rows) {
    GameLog log;
    log.verbatim = true;
    for (const LegacyRow& r : rows) log.entries.push_back(GameLogEntry::table(r.seq, r.at, r.type, r.payload, r.cause));
    return log;
}

// Whether the engine renders the log into exactly the stored rows.
bool renders_the_same(const GameLog& log, const std::vector<LegacyRow>& rows, const std::string& ruleset,
                      std::uint64_t seed, int game) {
    auto rendered = render(log, ruleset, seed, game);
    if (!rendered || rendered->events.size() != rows.size()) return false;
    std::size_t actions = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const StoredEvent& e = rendered->events[i];
        const LegacyRow& r = rows[i];
        if (e.seq != r.seq || e.type != r.type || e.payload != r.payload || e.at != r.at) return false;
        if (r.cause) {
            if (actions >= rendered->actions.size()) return false;
            const StoredAction& a = rendered->actions[actions++];
            if (a.seat != r.cause->seat || a.action != action_text(*r.cause) || a.seq != r.seq) return false;
        }
    }
    return actions == rendered->actions.size();
}

}  // namespace

LegacyFold fold_legacy_events(SQLite::Database& db) {
    LegacyFold fold;
    SQLite::Statement rows(db, "SELECT table_id, game, seq, type, payload, at_ms, seat, action FROM events "
                               "ORDER BY table_id, seq");
    SQLite::Statement table_state(db, "SELECT closed_ms IS NULL, (SELECT MAX(game) FROM games g WHERE g.table_id = t.id) "
                                      "FROM tables t WHERE id = ?");
    SQLite::Statement game_row(db, "SELECT finished_ms IS NOT NULL, ruleset, seed FROM games WHERE table_id = ? AND game = ?");
    SQLite::Statement put_record(db, "UPDATE games SET record = ? WHERE table_id = ? AND game = ?");
    JournalInsert journal(db);

    std::string table;
    int game = -1;
    std::vector<LegacyRow> group;
    auto finish_group = [&] {
        if (group.empty()) return;
        bool open = false;
        int latest = 0;
        table_state.bind(1, table);
        if (table_state.executeStep()) {
            open = table_state.getColumn(0).getInt() != 0;
            latest = table_state.getColumn(1).isNull() ? 0 : table_state.getColumn(1).getInt();
        }
        table_state.reset();
        game_row.bind(1, table);
        game_row.bind(2, game);
        if (game > 0 && game_row.executeStep() && game_row.getColumn(0).getInt() != 0) {
            const std::string ruleset = game_row.getColumn(1).getString();
            const auto seed = static_cast<std::uint64_t>(game_row.getColumn(2).getInt64());
            auto log = grouped(group);
            if (!log || !renders_the_same(*log, group, ruleset, seed, game)) {
                // Kept event by event: served exactly as before, the engine not asked.
                log = verbatim(group);
                ++fold.verbatim_games;
                spdlog::warn("migration: table {} game {}: the engine renders its stored events otherwise today; "
                             "they are kept as stored",
                             table, game);
            }
            put_record.bind(1, encode(*log));
            put_record.bind(2, table);
            put_record.bind(3, game);
            put_record.exec();
            put_record.reset();
            ++fold.games;
        }
        game_row.reset();
        // An open table's latest game (or what it did before its first) is what a restart rebuilds it from.
        if (open && game == latest) {
            auto log = grouped(group);
            for (const GameLogEntry& e : log ? log->entries : verbatim(group).entries) {
                journal.insert(table, game, e);
                ++fold.journal_rows;
            }
        }
        group.clear();
    };
    while (rows.executeStep()) {
        const std::string t = rows.getColumn(0).getString();
        const int g = rows.getColumn(1).getInt();
        if (t != table || g != game) {
            finish_group();
            table = t;
            game = g;
        }
        LegacyRow r;
        r.seq = static_cast<std::uint64_t>(rows.getColumn(2).getInt64());
        r.type = rows.getColumn(3).getString();
        r.payload = rows.getColumn(4).getString();
        r.at = rows.getColumn(5).getInt64();
        if (!rows.getColumn(7).isNull()) r.cause = cause_from_text(rows.getColumn(6).getInt(), rows.getColumn(7).getString());
        group.push_back(std::move(r));
        ++fold.events;
    }
    finish_group();
    db.exec("DROP TABLE events");
    return fold;
}

}  // namespace sparts::storage
