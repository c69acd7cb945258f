#include "storage/sqlite/sqlite_archive.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include "storage/archive_cursor.hpp"
#include "storage/journal.hpp"

namespace sparts::storage {

namespace {

constexpr const char* kColumns =
    "a.table_id, a.game, a.preset, a.ruleset, a.players, a.result, a.started_ms, a.finished_ms, a.id, a.rule_set";

// A player's presets never number more than the presets a server knows, a handful; this bounds
// the page's merge below whatever a database holds.
constexpr int kMostPresets = 64;

// The bounds of a page's index range, on the index's last two columns (finished_ms, id). One
// upper bound at most: given `to` and a cursor, SQLite's planner ranges on one of them and
// filters by the other, and had it chosen `to`, each page would start reading at `to`.
struct Bounds {
    bool from = false;
    bool to = false;
    bool cursor = false;

    Bounds(const ArchiveQuery& q, const std::optional<ArchiveCursor>& c)
        : from(q.from > 0),
          to(q.to > 0 && (!c || c->finished >= q.to)),  // a cursor before `to` implies it
          cursor(c && !to) {}
};

// One page's statement: its SQL and what it binds.
struct PageSql {
    std::string sql;
    std::vector<std::string> presets;  // :p0, :p1, ... (a player's page)
    std::int64_t number = 0;           // :number, the player's (a player's page; 0 numbers nobody)
};

std::string range_terms(const std::string& on, const Bounds& b) {
    std::string out;
    if (b.from) out += " AND " + on + "finished_ms >= :from";
    if (b.to) out += " AND " + on + "finished_ms < :to";
    if (b.cursor) out += " AND (" + on + "finished_ms, " + on + "id) < (:cf, :ci)";
    return out;
}

// A player's number in archive_players (schema version 12); none for a player with no game archived.
std::optional<std::int64_t> number_of(SQLite::Database& db, const std::string& player) {
    SQLite::Statement q(db, "SELECT number FROM player_numbers WHERE player = ?");
    q.bind(1, player);
    if (!q.executeStep()) return std::nullopt;
    return q.getColumn(0).getInt64();
}

// The presets a player has finished games of, each found by a step of the player's index
// (a few, however many games each holds).
std::vector<std::string> presets_of(SQLite::Database& db, std::int64_t number) {
    std::vector<std::string> out;
    SQLite::Statement next(db, "SELECT preset FROM archive_players WHERE number = ? AND preset > ? ORDER BY preset LIMIT 1");
    std::string after;
    while (static_cast<int>(out.size()) < kMostPresets) {
        next.bind(1, number);
        next.bind(2, after);
        if (!next.executeStep()) break;
        after = next.getColumn(0).getString();
        next.reset();
        // The rule sets' boards hold games their presets' boards hold already (records.hpp): the
        // next step goes past them all ("set;" is the first text after every "set:...").
        if (is_rule_set_board(after))
            after = "set;";
        else
            out.push_back(after);
    }
    return out;
}

PageSql page_sql(SQLite::Database& db, const ArchiveQuery& q, const Bounds& bounds) {
    PageSql out;
    const std::string order = " ORDER BY finished_ms DESC, id DESC LIMIT :limit";
    if (q.player.empty()) {
        // archive_preset (preset, finished_ms, id) or archive_finished (finished_ms, id), read backwards.
        out.sql = std::string("SELECT ") + kColumns + " FROM archive a WHERE 1";
        if (!q.preset.empty()) out.sql += " AND a.preset = :preset";
        if (!q.rule_set.empty()) out.sql += " AND a.rule_set = :rule_set";
        out.sql += range_terms("a.", bounds) + " ORDER BY a.finished_ms DESC, a.id DESC LIMIT :limit";
        return out;
    }
    // A player's page: archive_players (number, preset, finished_ms, id), one preset's range or, for
    // all the player's presets, the first page of each range merged; then the page's games alone
    // are read from the archive.
    const auto number = number_of(db, q.player);
    out.number = number.value_or(0);
    out.presets = !q.rule_set.empty() ? std::vector<std::string>{rule_set_board(q.rule_set)}
                  : q.preset.empty()    ? (number ? presets_of(db, *number) : std::vector<std::string>{})
                                        : std::vector<std::string>{q.preset};
    if (out.presets.empty()) out.presets.push_back("");  // no games: a range that holds none
    std::string ids;
    for (std::size_t i = 0; i < out.presets.size(); ++i) {
        if (i > 0) ids += " UNION ALL ";
        ids += "SELECT * FROM (SELECT finished_ms, id FROM archive_players WHERE number = :number AND preset = :p" +
               std::to_string(i) + range_terms("", bounds) + order + ")";
    }
    // The page's ids first, merged and cut to the page; only then their games read from the archive
    // (for a player of five presets, a page's games rather than five pages').
    out.sql = std::string("SELECT ") + kColumns + " FROM (SELECT * FROM (" + ids + ") ORDER BY finished_ms DESC, id DESC" +
              " LIMIT :limit) p JOIN archive a ON a.id = p.id ORDER BY p.finished_ms DESC, p.id DESC";
    return out;
}

void bind(SQLite::Statement& st, const PageSql& page, const ArchiveQuery& q, const Bounds& bounds,
          const std::optional<ArchiveCursor>& cursor, int limit) {
    if (!q.player.empty()) st.bind(":number", page.number);
    if (q.player.empty() && !q.preset.empty()) st.bind(":preset", q.preset);
    if (q.player.empty() && !q.rule_set.empty()) st.bind(":rule_set", q.rule_set);
    for (std::size_t i = 0; i < page.presets.size(); ++i) st.bind(":p" + std::to_string(i), page.presets[i]);
    if (bounds.from) st.bind(":from", q.from);
    if (bounds.to) st.bind(":to", q.to);
    if (bounds.cursor) {
        st.bind(":cf", cursor->finished);
        st.bind(":ci", cursor->id);
    }
    st.bind(":limit", limit);
}

// The cursor as this server reads it: an older server's names a game, whose id is looked up; a
// game no longer archived goes on from the end of its millisecond (games may repeat, none is skipped).
std::optional<ArchiveCursor> cursor_of(SQLite::Database& db, const std::string& text) {
    auto cursor = ArchiveCursor::parse(text);
    if (!cursor || !cursor->legacy()) return cursor;
    SQLite::Statement id(db, "SELECT id FROM archive WHERE table_id = ? AND game = ?");
    id.bind(1, cursor->table);
    id.bind(2, cursor->game);
    cursor->id = id.executeStep() ? id.getColumn(0).getInt64() : std::numeric_limits<std::int64_t>::max();
    return cursor;
}

ArchivedGameSummary summary_of(SQLite::Statement& q) {
    ArchivedGameSummary s;
    s.table = q.getColumn(0).getString();
    s.game = q.getColumn(1).getInt();
    s.preset = q.getColumn(2).getString();
    s.ruleset = q.getColumn(3).getString();
    s.players = q.getColumn(4).getString();
    s.result = q.getColumn(5).getString();
    s.started = q.getColumn(6).getInt64();
    s.finished = q.getColumn(7).getInt64();
    if (!q.getColumn(9).isNull()) s.rule_set = q.getColumn(9).getString();
    return s;
}

}  // namespace

void put_record(SQLite::Statement& insert, std::int64_t id, std::string_view bytes) {
    for (std::size_t at = 0, part = 0; at < bytes.size(); at += kRecordPart, ++part) {
        const std::size_t n = std::min(kRecordPart, bytes.size() - at);
        insert.bind(1, id);
        insert.bind(2, static_cast<std::int64_t>(part));
        insert.bind(3, bytes.data() + at, static_cast<int>(n));
        run_write(insert);
    }
}

std::optional<std::string> read_record(SQLite::Database& db, std::int64_t id) {
    SQLite::Statement q(db, "SELECT bytes FROM archive_records WHERE id = ? ORDER BY part");
    q.bind(1, id);
    std::optional<std::string> out;
    while (q.executeStep()) {
        if (!out) out.emplace();
        out->append(static_cast<const char*>(q.getColumn(0).getBlob()), static_cast<std::size_t>(q.getColumn(0).getBytes()));
    }
    return out;
}

ArchivePage sqlite_list_games(SQLite::Database& db, const ArchiveQuery& query) {
    const auto cursor = cursor_of(db, query.cursor);
    const int limit = std::clamp(query.limit, 1, 500);
    const Bounds bounds(query, cursor);
    const PageSql page_text = page_sql(db, query, bounds);
    SQLite::Statement q(db, page_text.sql);
    bind(q, page_text, query, bounds, cursor, limit + 1);
    ArchivePage page;
    std::int64_t last_id = 0;
    while (q.executeStep()) {
        if (static_cast<int>(page.games.size()) == limit) {
            const auto& last = page.games.back();
            page.next_cursor = ArchiveCursor{last.finished, last_id}.text();
            break;
        }
        page.games.push_back(summary_of(q));
        last_id = q.getColumn(8).getInt64();
    }
    return page;
}

std::vector<ArchivedGameSummary> sqlite_oldest_games(SQLite::Database& db, Millis before, int limit) {
    // archive_finished from its start: the order a rebuild of the ratings plays games in. An open
    // table's last game stays, whatever its age: the table is rebuilt from it after a restart, and
    // numbers its next game after it.
    SQLite::Statement q(db, std::string("SELECT ") + kColumns +
                                " FROM archive a WHERE a.finished_ms < ? AND NOT EXISTS (SELECT 1 FROM tables t "
                                "WHERE t.id = a.table_id AND t.closed_ms IS NULL AND a.game = "
                                "(SELECT MAX(game) FROM archive WHERE table_id = a.table_id)) "
                                "ORDER BY a.finished_ms, a.id LIMIT ?");
    q.bind(1, before);
    q.bind(2, std::max(1, limit));
    std::vector<ArchivedGameSummary> out;
    while (q.executeStep()) out.push_back(summary_of(q));
    return out;
}

std::vector<std::string> sqlite_list_games_plan(SQLite::Database& db, const ArchiveQuery& query) {
    const auto cursor = cursor_of(db, query.cursor);
    const Bounds bounds(query, cursor);
    const PageSql page_text = page_sql(db, query, bounds);
    SQLite::Statement q(db, "EXPLAIN QUERY PLAN " + page_text.sql);
    bind(q, page_text, query, bounds, cursor, std::clamp(query.limit, 1, 500) + 1);
    std::vector<std::string> out;
    while (q.executeStep()) out.push_back(q.getColumn(3).getString());
    return out;
}

}  // namespace sparts::storage
