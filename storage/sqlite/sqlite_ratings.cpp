#include "storage/sqlite/sqlite_ratings.hpp"

#include <algorithm>
#include "storage/journal.hpp"
#include "storage/leaderboard_cursor.hpp"
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

}  // namespace

SqliteRatings::SqliteRatings(SQLite::Database& db)
    : db_(db),
      get_(db, std::string("SELECT ") + kColumns + " FROM ratings r WHERE r.player = ? AND r.preset = ?"),
      put_(db,
           "INSERT INTO ratings (player, preset, rating, deviation, volatility, games, wins, hands, bids, bids_made, "
           "nil_bids, nils_made, bags, moons, last_table, last_game, last_change, updated_ms) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, preset) DO UPDATE SET "
           "rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, "
           "games = excluded.games, wins = excluded.wins, hands = excluded.hands, bids = excluded.bids, "
           "bids_made = excluded.bids_made, nil_bids = excluded.nil_bids, nils_made = excluded.nils_made, "
           "bags = excluded.bags, moons = excluded.moons, last_table = excluded.last_table, "
           "last_game = excluded.last_game, last_change = excluded.last_change, updated_ms = excluded.updated_ms") {}

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
    for (const PresetRating& row : book.changed()) put(row);
}

void SqliteRatings::replace(const std::vector<PresetRating>& rows) {
    db_.exec("DELETE FROM ratings");
    for (const PresetRating& row : rows) put(row);
}

void SqliteRatings::put(const PresetRating& r) {
    int i = 0;
    put_.bind(++i, r.player);
    put_.bind(++i, r.preset);
    put_.bind(++i, r.rating);
    put_.bind(++i, r.deviation);
    put_.bind(++i, r.volatility);
    for (std::int64_t n : {r.games, r.wins, r.stats.hands, r.stats.bids, r.stats.bids_made, r.stats.nil_bids,
                           r.stats.nils_made, r.stats.bags, r.stats.moons})
        put_.bind(++i, n);
    put_.bind(++i, r.last_table);
    put_.bind(++i, r.last_game);
    put_.bind(++i, r.last_change);
    put_.bind(++i, r.updated);
    run_write(put_);
}

LeaderboardPage sqlite_leaderboard(SQLite::Database& db, const LeaderboardQuery& query) {
    const auto cursor = LeaderboardCursor::parse(query.cursor);
    const int limit = std::clamp(query.limit, 1, 500);
    const std::string from = " FROM ratings r WHERE r.preset = :preset AND r.games >= :min";
    std::string sql = std::string("SELECT ") + kColumns + ", COALESCE(p.name, '') FROM ratings r "
                      "LEFT JOIN players p ON p.id = r.player WHERE r.preset = :preset AND r.games >= :min";
    if (cursor) sql += " AND (r.rating < :cr OR (r.rating = :cr AND r.player > :cp))";
    sql += " ORDER BY r.rating DESC, r.player LIMIT :limit";
    SQLite::Statement q(db, sql);
    q.bind(":preset", query.preset);
    q.bind(":min", query.min_games);
    if (cursor) {
        q.bind(":cr", cursor->rating);
        q.bind(":cp", cursor->player);
    }
    q.bind(":limit", limit + 1);
    LeaderboardPage page;
    while (q.executeStep()) {
        page.players.push_back(row_of(q));
        page.players.back().name = q.getColumn(18).getString();
    }
    if (static_cast<int>(page.players.size()) > limit) {
        page.players.pop_back();
        page.next_cursor = LeaderboardCursor{page.players.back().rating, page.players.back().player}.text();
    }
    if (cursor) {
        // Ranks run on from the pages before: those ahead of the cursor.
        SQLite::Statement ahead(db, "SELECT COUNT(*)" + from + " AND (r.rating > :cr OR (r.rating = :cr AND r.player <= :cp))");
        ahead.bind(":preset", query.preset);
        ahead.bind(":min", query.min_games);
        ahead.bind(":cr", cursor->rating);
        ahead.bind(":cp", cursor->player);
        if (ahead.executeStep()) page.first_rank = ahead.getColumn(0).getInt64() + 1;
    }
    return page;
}

std::optional<PlayerRatings> sqlite_player_ratings(SQLite::Database& db, const std::string& player) {
    SQLite::Statement who(db, "SELECT id, name FROM players WHERE id = ?");
    who.bind(1, player);
    if (!who.executeStep()) return std::nullopt;
    PlayerRatings out{who.getColumn(0).getString(), who.getColumn(1).getString(), {}};
    SQLite::Statement rows(db, std::string("SELECT ") + kColumns + " FROM ratings r WHERE r.player = ? AND r.games > 0 ORDER BY r.preset");
    rows.bind(1, player);
    while (rows.executeStep()) {
        out.presets.push_back(row_of(rows));
        out.presets.back().name = out.name;
    }
    return out;
}

}  // namespace sparts::storage
