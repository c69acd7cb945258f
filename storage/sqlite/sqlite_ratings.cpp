#include "storage/sqlite/sqlite_ratings.hpp"

#include <algorithm>
#include "storage/journal.hpp"
#include "storage/leaderboard_page.hpp"
#include "storage/rating_book.hpp"

namespace sparts::storage {

namespace {

constexpr const char* kColumns =
    "r.player, r.preset, r.rating, r.deviation, r.volatility, r.games, r.wins, r.hands, r.bids, r.bids_made, "
    "r.nil_bids, r.nils_made, r.bags, r.moons, r.last_table, r.last_game, r.last_change, r.updated_ms";

// A row read with kColumns from column `first` on.
PresetRating row_of(SQLite::Statement& q, int first = 0) {
    const auto col = [&](int i) { return q.getColumn(first + i); };
    PresetRating r;
    r.player = col(0).getString();
    r.preset = col(1).getString();
    r.rating = col(2).getDouble();
    r.deviation = col(3).getDouble();
    r.volatility = col(4).getDouble();
    r.games = col(5).getInt64();
    r.wins = col(6).getInt64();
    r.stats.hands = col(7).getInt64();
    r.stats.bids = col(8).getInt64();
    r.stats.bids_made = col(9).getInt64();
    r.stats.nil_bids = col(10).getInt64();
    r.stats.nils_made = col(11).getInt64();
    r.stats.bags = col(12).getInt64();
    r.stats.moons = col(13).getInt64();
    r.last_table = col(14).getString();
    r.last_game = col(15).getInt();
    r.last_change = col(16).getDouble();
    r.updated = col(17).getInt64();
    return r;
}

// A row of `table` (ratings, or ratings_retired: the same columns) written, or written over.
std::string upsert(const std::string& table) {
    return "INSERT INTO " + table +
           " (player, preset, rating, deviation, volatility, games, wins, hands, bids, bids_made, "
           "nil_bids, nils_made, bags, moons, last_table, last_game, last_change, updated_ms) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, preset) DO UPDATE SET "
           "rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, "
           "games = excluded.games, wins = excluded.wins, hands = excluded.hands, bids = excluded.bids, "
           "bids_made = excluded.bids_made, nil_bids = excluded.nil_bids, nils_made = excluded.nils_made, "
           "bags = excluded.bags, moons = excluded.moons, last_table = excluded.last_table, "
           "last_game = excluded.last_game, last_change = excluded.last_change, updated_ms = excluded.updated_ms";
}

}  // namespace

SqliteRatings::SqliteRatings(SQLite::Database& db)
    : db_(db),
      get_(db, std::string("SELECT ") + kColumns + " FROM ratings r WHERE r.player = ? AND r.preset = ?"),
      put_(db, upsert("ratings")),
      put_retired_(db, upsert("ratings_retired")) {}

void SqliteRatings::retire(const std::vector<PresetRating>& rows) {
    for (const PresetRating& row : rows) put(put_retired_, row);
}

void SqliteRatings::finish(const FinishGame& game) {
    RatingBook book;
    for (const auto& [player, preset] : RatingBook::keys_of(game)) {
        get_.bind(1, player);
        get_.bind(2, preset);
        try {
            if (get_.executeStep()) book.put(row_of(get_));
        } catch (const SQLite::Exception&) {
            get_.tryReset();  // a statement left mid-step refuses every later use: the retry's too
            throw;
        }
        get_.reset();
    }
    if (!book.apply(game)) return;
    for (const PresetRating& row : book.changed()) put(put_, row);
}

void SqliteRatings::replace(const std::vector<PresetRating>& rows) {
    db_.exec("DELETE FROM ratings");
    for (const PresetRating& row : rows) put(put_, row);
}

void SqliteRatings::put(SQLite::Statement& into, const PresetRating& r) {
    int i = 0;
    into.bind(++i, r.player);
    into.bind(++i, r.preset);
    into.bind(++i, r.rating);
    into.bind(++i, r.deviation);
    into.bind(++i, r.volatility);
    for (std::int64_t n : {r.games, r.wins, r.stats.hands, r.stats.bids, r.stats.bids_made, r.stats.nil_bids,
                           r.stats.nils_made, r.stats.bags, r.stats.moons})
        into.bind(++i, n);
    into.bind(++i, r.last_table);
    into.bind(++i, r.last_game);
    into.bind(++i, r.last_change);
    into.bind(++i, r.updated);
    run_write(into);
}

namespace {

// A stretch of the board: ratings_board from the cursor, its rating the range's bound (a rating
// range SQLite reads from the index), the player breaking ties within it.
std::string board_sql(bool after) {
    std::string sql = std::string("SELECT ") + kColumns + ", COALESCE(p.name, '') FROM ratings r "
                      "LEFT JOIN players p ON p.id = r.player WHERE r.preset = :preset";
    if (after) sql += " AND r.rating <= :cr AND (r.rating < :cr OR r.player > :cp)";
    return sql + " ORDER BY r.rating DESC, r.player LIMIT :n";
}

const std::string kPlayerRows =
    std::string("SELECT ") + kColumns + " FROM ratings r WHERE r.player = ? AND r.games > 0 ORDER BY r.preset";

}  // namespace

std::vector<std::string> sqlite_ratings_plan(SQLite::Database& db) {
    std::vector<std::string> out;
    for (const std::string& sql : {board_sql(false), board_sql(true), kPlayerRows}) {
        SQLite::Statement q(db, "EXPLAIN QUERY PLAN " + sql);
        std::string steps;
        while (q.executeStep()) steps += (steps.empty() ? "" : " | ") + q.getColumn(3).getString();
        out.push_back(steps);
    }
    return out;
}

LeaderboardPage sqlite_leaderboard(SQLite::Database& db, const LeaderboardQuery& query) {
    BoardReads reads;
    reads.read = [&](const std::optional<LeaderboardCursor>& after, int n) {
        SQLite::Statement q(db, board_sql(after.has_value()));
        q.bind(":preset", query.preset);
        if (after) {
            q.bind(":cr", after->rating);
            q.bind(":cp", after->player);
        }
        q.bind(":n", n);
        std::vector<PresetRating> rows;
        while (q.executeStep()) {
            rows.push_back(row_of(q));
            rows.back().name = q.getColumn(18).getString();
        }
        return rows;
    };
    reads.ahead = [&](const LeaderboardCursor& at) {
        SQLite::Statement ahead(db, "SELECT COUNT(*) FROM ratings r WHERE r.preset = :preset AND r.games >= :min "
                                    "AND (r.rating > :cr OR (r.rating = :cr AND r.player <= :cp))");
        ahead.bind(":preset", query.preset);
        ahead.bind(":min", query.min_games);
        ahead.bind(":cr", at.rating);
        ahead.bind(":cp", at.player);
        return ahead.executeStep() ? ahead.getColumn(0).getInt64() : std::int64_t{0};
    };
    return leaderboard_page(query, reads);
}

std::vector<PresetRating> sqlite_retired_ratings(SQLite::Database& db) {
    SQLite::Statement q(db, std::string("SELECT ") + kColumns + " FROM ratings_retired r ORDER BY r.player, r.preset");
    std::vector<PresetRating> out;
    while (q.executeStep()) out.push_back(row_of(q));
    return out;
}

std::optional<PlayerRatings> sqlite_player_ratings(SQLite::Database& db, const std::string& player) {
    SQLite::Statement who(db, "SELECT id, name FROM players WHERE id = ?");
    who.bind(1, player);
    if (!who.executeStep()) return std::nullopt;
    PlayerRatings out{who.getColumn(0).getString(), who.getColumn(1).getString(), {}};
    SQLite::Statement rows(db, kPlayerRows);
    rows.bind(1, player);
    while (rows.executeStep()) {
        out.presets.push_back(row_of(rows));
        out.presets.back().name = out.name;
    }
    return out;
}

}  // namespace sparts::storage
