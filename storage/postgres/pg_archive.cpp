#include "storage/postgres/pg_archive.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include "storage/archive_cursor.hpp"

namespace sparts::storage {

namespace {

constexpr const char* kColumns =
    "a.table_id, a.game, a.preset, a.ruleset, a.players, a.result, a.started_ms, a.finished_ms, a.id, a.rule_set";

// A player's presets never number more than the presets a server knows, a handful; this bounds
// the page's merge below whatever a database holds.
constexpr int kMostPresets = 64;

// The bounds of a page's index range, on the index's last two columns (finished_ms, id). One
// upper bound at most, as on SQLite (sqlite_archive.cpp): a planner given `to` and a cursor may
// range on `to` and filter by the cursor, and each page would start reading at `to`.
struct Bounds {
    bool from = false;
    bool to = false;
    bool cursor = false;

    Bounds(const ArchiveQuery& q, const std::optional<ArchiveCursor>& c)
        : from(q.from > 0),
          to(q.to > 0 && (!c || c->finished >= q.to)),  // a cursor before `to` implies it
          cursor(c && !to) {}
};

// One page's statement: its SQL and its parameters, numbered as they are added (each added in a
// statement of its own before the SQL that names it is put together: the operands of a `+` are
// evaluated in no set order).
class PageSql {
public:
    std::string sql;
    pg::Params params;

    std::string text(const std::string& value) {
        params.text(value);
        return next() + "::text";
    }
    std::string number(std::int64_t value) {
        params.number(value);
        return next() + "::bigint";
    }

private:
    std::string next() { return "$" + std::to_string(++n_); }
    int n_ = 0;
};

// The page's range of an index, as two row comparisons on the index's columns, from `key`'s (the
// preset's column, or none) to its last two (finished_ms, id): from (key, from) up to (key, the
// cursor or `to`), whichever bounds are given. Given `preset = $1` instead, the planner may read
// archive_finished backwards and filter by preset (it did, at 20,000 games, for a preset of half
// of them, whose rows lie in the table's order), reading more rows the rarer the preset; the row
// comparisons on (preset, finished_ms, id), with the page's ORDER BY preset, ..., are a range of
// archive_preset and of no other index, read in the page's order; the same on archive_players.
// A rule set's page is the same on archive_rule_set (rule_set, finished_ms, id): `column`.
std::string range(PageSql& page, const std::string& on, const std::string& key, const ArchiveQuery& q, const Bounds& b,
                  const std::optional<ArchiveCursor>& cursor, const std::string& column = "preset") {
    constexpr std::int64_t kLeast = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t kMost = std::numeric_limits<std::int64_t>::max();
    const std::string columns = "(" + (key.empty() ? "" : on + column + ", ") + on + "finished_ms, " + on + "id)";
    const std::string first = key.empty() ? "" : key + ", ";
    const std::string from_finished = page.number(b.from ? q.from : kLeast);
    const std::string from_id = page.number(kLeast);
    // finished_ms < to: (finished_ms, id) < (to, any id at all).
    const std::string to_finished = page.number(b.cursor ? cursor->finished : b.to ? q.to : kMost);
    const std::string to_id = page.number(b.cursor ? cursor->id : b.to ? kLeast : kMost);
    return columns + " >= (" + first + from_finished + ", " + from_id + ") AND " + columns + " < (" + first + to_finished +
           ", " + to_id + ")";
}

PageSql page_sql(const ArchiveQuery& q, const Bounds& bounds, const std::optional<ArchiveCursor>& cursor, int limit) {
    PageSql page;
    if (q.player.empty() && !q.rule_set.empty()) {
        // archive_rule_set (rule_set, finished_ms, id), read backwards; the index holds only the
        // games of a rule set, which the planner is told in as many words.
        const std::string set = page.text(q.rule_set);
        const std::string where = range(page, "a.", set, q, bounds, cursor, "rule_set");
        const std::string n = page.number(limit);
        page.sql = std::string("SELECT ") + kColumns + " FROM archive a WHERE a.rule_set IS NOT NULL AND " + where +
                   " ORDER BY a.rule_set DESC, a.finished_ms DESC, a.id DESC LIMIT " + n;
        return page;
    }
    if (q.player.empty()) {
        // archive_preset (preset, finished_ms, id) or archive_finished (finished_ms, id), read backwards.
        const std::string preset = q.preset.empty() ? "" : page.text(q.preset);
        const std::string where = range(page, "a.", preset, q, bounds, cursor);
        const std::string n = page.number(limit);
        page.sql = std::string("SELECT ") + kColumns + " FROM archive a WHERE " + where + " ORDER BY " +
                   (preset.empty() ? "" : "a.preset DESC, ") + "a.finished_ms DESC, a.id DESC LIMIT " + n;
        return page;
    }
    // A player's page: archive_players (player, preset, finished_ms, id), one preset's range, or for
    // all the player's presets the first page of each range (the presets found by stepping the
    // index, a recursive query: one step a preset), merged; then the page's games alone are read
    // from the archive by id.
    const std::string player = page.text(q.player);
    const std::string order = " ORDER BY preset DESC, finished_ms DESC, id DESC LIMIT ";
    std::string ids;
    if (!q.preset.empty() || !q.rule_set.empty()) {
        const std::string preset = page.text(q.rule_set.empty() ? q.preset : rule_set_board(q.rule_set));
        const std::string where = range(page, "", preset, q, bounds, cursor);
        const std::string n = page.number(limit);
        ids = "SELECT finished_ms, id FROM archive_players WHERE player = " + player + " AND " + where + order + n;
    } else {
        const std::string where = range(page, "", "s.preset", q, bounds, cursor);
        const std::string n = page.number(limit);
        // The rule sets' boards hold games their presets' boards hold already (records.hpp): a step
        // from one goes past them all ('set;' is the first text after every 'set:...').
        page.sql = "WITH RECURSIVE presets (preset) AS ("
                   "(SELECT preset FROM archive_players WHERE player = " + player + " ORDER BY preset LIMIT 1) "
                   "UNION ALL SELECT (SELECT p.preset FROM archive_players p WHERE p.player = " + player +
                   " AND p.preset > (CASE WHEN s.preset LIKE 'set:%' THEN 'set;' ELSE s.preset END) "
                   "ORDER BY p.preset LIMIT 1) FROM presets s WHERE s.preset IS NOT NULL) ";
        ids = "SELECT r.finished_ms, r.id FROM (SELECT preset FROM presets WHERE preset IS NOT NULL AND preset NOT LIKE "
              "'set:%' LIMIT " +
              std::to_string(kMostPresets) + ") s CROSS JOIN LATERAL (SELECT finished_ms, id FROM archive_players "
              "WHERE player = " + player + " AND " + where + order + n + ") r ORDER BY r.finished_ms DESC, r.id DESC LIMIT " + n;
    }
    page.sql += std::string("SELECT ") + kColumns + " FROM (" + ids +
                ") r JOIN archive a ON a.id = r.id ORDER BY r.finished_ms DESC, r.id DESC";
    return page;
}

// The cursor as this server reads it: an older server's names a game, whose id is looked up; a
// game no longer archived goes on from the end of its millisecond (games may repeat, none is skipped).
std::optional<ArchiveCursor> cursor_of(pg::Connection& db, const std::string& text) {
    auto cursor = ArchiveCursor::parse(text);
    if (!cursor || !cursor->legacy()) return cursor;
    const pg::Result r = db.exec("SELECT id FROM archive WHERE table_id = $1 AND game = $2",
                                 pg::Params().text(cursor->table).number(cursor->game));
    cursor->id = r.rows() > 0 ? r.number(0, 0) : std::numeric_limits<std::int64_t>::max();
    return cursor;
}

ArchivedGameSummary summary_of(const pg::Result& r, int i) {
    ArchivedGameSummary s;
    s.table = r.text(i, 0);
    s.game = static_cast<int>(r.number(i, 1));
    s.preset = r.text(i, 2);
    s.ruleset = r.text(i, 3);
    s.players = r.text(i, 4);
    s.result = r.text(i, 5);
    s.started = r.number(i, 6);
    s.finished = r.number(i, 7);
    if (!r.null(i, 9)) s.rule_set = r.text(i, 9);
    return s;
}

}  // namespace

ArchivePage pg_list_games(pg::Connection& db, const ArchiveQuery& query) {
    const auto cursor = cursor_of(db, query.cursor);
    const int limit = std::clamp(query.limit, 1, 500);
    const Bounds bounds(query, cursor);
    const PageSql page_text = page_sql(query, bounds, cursor, limit + 1);
    const pg::Result r = db.exec(page_text.sql, page_text.params);
    ArchivePage page;
    for (int i = 0; i < r.rows() && i < limit; ++i) page.games.push_back(summary_of(r, i));
    if (r.rows() > limit) {
        const auto& last = page.games.back();
        page.next_cursor = ArchiveCursor{last.finished, r.number(limit - 1, 8)}.text();
    }
    return page;
}

std::vector<ArchivedGameSummary> pg_oldest_games(pg::Connection& db, Millis before, int limit) {
    // archive_finished from its start, in the order a rebuild of the ratings plays games. An open
    // table's last game stays, whatever its age: the table is rebuilt from it after a restart, and
    // numbers its next game after it.
    const pg::Result r = db.exec(std::string("SELECT ") + kColumns +
                                     " FROM archive a WHERE a.finished_ms < $1 AND NOT EXISTS (SELECT 1 FROM tables t "
                                     "WHERE t.id = a.table_id AND t.closed_ms IS NULL AND a.game = "
                                     "(SELECT max(game) FROM archive WHERE table_id = a.table_id)) "
                                     "ORDER BY a.finished_ms, a.id LIMIT $2",
                                 pg::Params().number(before).number(std::max(1, limit)));
    std::vector<ArchivedGameSummary> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(summary_of(r, i));
    return out;
}

std::vector<std::string> pg_list_games_plan(pg::Connection& db, const ArchiveQuery& query) {
    const auto cursor = cursor_of(db, query.cursor);
    const Bounds bounds(query, cursor);
    const PageSql page_text = page_sql(query, bounds, cursor, std::clamp(query.limit, 1, 500) + 1);
    const pg::Result r = db.exec("EXPLAIN " + page_text.sql, page_text.params);
    std::vector<std::string> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
    return out;
}

}  // namespace sparts::storage
