#include "storage/postgres/pg_ratings.hpp"

#include <algorithm>
#include <set>
#include "storage/leaderboard_page.hpp"
#include "storage/rating_book.hpp"

namespace sparts::storage {

namespace {

constexpr const char* kColumns =
    "r.player, r.preset, r.rating, r.deviation, r.volatility, r.games, r.wins, r.hands, r.bids, r.bids_made, "
    "r.nil_bids, r.nils_made, r.bags, r.moons, r.last_table, r.last_game, r.last_change, r.updated_ms";

// float8's text (PostgreSQL 12 on writes the shortest that reads back exactly).
double real(const pg::Result& r, int row, int column) { return exact_number(r.text(row, column)).value_or(0); }

PresetRating row_of(const pg::Result& r, int i) {
    PresetRating x;
    x.player = r.text(i, 0);
    x.preset = r.text(i, 1);
    x.rating = real(r, i, 2);
    x.deviation = real(r, i, 3);
    x.volatility = real(r, i, 4);
    x.games = r.number(i, 5);
    x.wins = r.number(i, 6);
    x.stats.hands = r.number(i, 7);
    x.stats.bids = r.number(i, 8);
    x.stats.bids_made = r.number(i, 9);
    x.stats.nil_bids = r.number(i, 10);
    x.stats.nils_made = r.number(i, 11);
    x.stats.bags = r.number(i, 12);
    x.stats.moons = r.number(i, 13);
    x.last_table = r.text(i, 14);
    x.last_game = static_cast<int>(r.number(i, 15));
    x.last_change = real(r, i, 16);
    x.updated = r.number(i, 17);
    return x;
}

}  // namespace

const std::vector<std::pair<const char*, const char*>>& pg_rating_statements() {
    static const std::vector<std::pair<const char*, const char*>> all = {
        // A new player's row, made so that it can be locked (rows that do not exist lock nothing):
        // two nodes rating one newcomer at once then wait for each other instead of both writing.
        {"ratings_lock",
         "INSERT INTO ratings (player, preset) SELECT p, r FROM unnest($1::text[], $2::text[]) AS k(p, r) "
         "ORDER BY 1, 2 ON CONFLICT DO NOTHING"},
        {"ratings_read",
         "SELECT r.player, r.preset, r.rating, r.deviation, r.volatility, r.games, r.wins, r.hands, r.bids, "
         "r.bids_made, r.nil_bids, r.nils_made, r.bags, r.moons, r.last_table, r.last_game, r.last_change, "
         "r.updated_ms FROM ratings r WHERE (r.player, r.preset) IN (SELECT * FROM unnest($1::text[], $2::text[])) "
         "ORDER BY r.player, r.preset FOR UPDATE"},
        {"ratings_put",
         "INSERT INTO ratings (player, preset, rating, deviation, volatility, games, wins, hands, bids, bids_made, "
         "nil_bids, nils_made, bags, moons, last_table, last_game, last_change, updated_ms) "
         "SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::bigint[], "
         "$7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], "
         "$14::bigint[], $15::text[], $16::integer[], $17::float8[], $18::bigint[]) "
         "ON CONFLICT (player, preset) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
         "volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, hands = excluded.hands, "
         "bids = excluded.bids, bids_made = excluded.bids_made, nil_bids = excluded.nil_bids, "
         "nils_made = excluded.nils_made, bags = excluded.bags, moons = excluded.moons, "
         "last_table = excluded.last_table, last_game = excluded.last_game, last_change = excluded.last_change, "
         "updated_ms = excluded.updated_ms"},
        // Retention: the rows the retired games left (RetireGames), which a rebuild starts from.
        {"ratings_retire",
         "INSERT INTO ratings_retired (player, preset, rating, deviation, volatility, games, wins, hands, bids, bids_made, "
         "nil_bids, nils_made, bags, moons, last_table, last_game, last_change, updated_ms) "
         "SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::bigint[], "
         "$7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], "
         "$14::bigint[], $15::text[], $16::integer[], $17::float8[], $18::bigint[]) "
         "ON CONFLICT (player, preset) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
         "volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, hands = excluded.hands, "
         "bids = excluded.bids, bids_made = excluded.bids_made, nil_bids = excluded.nil_bids, "
         "nils_made = excluded.nils_made, bags = excluded.bags, moons = excluded.moons, "
         "last_table = excluded.last_table, last_game = excluded.last_game, last_change = excluded.last_change, "
         "updated_ms = excluded.updated_ms"},
        {"ratings_clear", "DELETE FROM ratings"},
    };
    return all;
}

std::vector<std::pair<std::string, std::string>> rating_keys(const std::deque<CommitQueue::Pending>& group) {
    std::set<std::pair<std::string, std::string>> keys;
    for (const CommitQueue::Pending& p : group)
        for (const Write& w : p.batch)
            if (const auto* f = std::get_if<FinishGame>(&w))
                for (auto& k : RatingBook::keys_of(*f)) keys.insert(std::move(k));
    return {keys.begin(), keys.end()};
}

pg::Params rating_key_params(const std::vector<std::pair<std::string, std::string>>& keys) {
    pg::ArrayText players, presets;
    for (const auto& [player, preset] : keys) {
        players.text(player);
        presets.text(preset);
    }
    return pg::Params().text(players.done()).text(presets.done());
}

std::vector<PresetRating> rating_rows(const pg::Result& r) {
    std::vector<PresetRating> out;
    for (int i = 0; i < r.rows(); ++i) out.push_back(row_of(r, i));
    return out;
}

pg::Params rating_put_params(const std::vector<PresetRating>& rows) {
    std::vector<pg::ArrayText> a(18);
    for (const PresetRating& r : rows) {
        int i = 0;
        a[i++].text(r.player);
        a[i++].text(r.preset);
        for (double d : {r.rating, r.deviation, r.volatility}) a[i++].text(exact_text(d));
        for (std::int64_t n : {r.games, r.wins, r.stats.hands, r.stats.bids, r.stats.bids_made, r.stats.nil_bids,
                               r.stats.nils_made, r.stats.bags, r.stats.moons})
            a[i++].number(n);
        a[i++].text(r.last_table);
        a[i++].number(r.last_game);
        a[i++].text(exact_text(r.last_change));
        a[i++].number(r.updated);
    }
    pg::Params p;
    for (const auto& x : a) p.text(x.done());
    return p;
}

LeaderboardPage pg_leaderboard(pg::Connection& db, const LeaderboardQuery& query) {
    BoardReads reads;
    reads.read = [&](const std::optional<LeaderboardCursor>& after, int n) {
        // ratings_board from the cursor: (preset, rating DESC, player) read from (rating, player)
        // on, a range of the index however deep the page.
        pg::Params params;
        params.text(query.preset).number(n);
        std::string sql = std::string("SELECT ") + kColumns + ", COALESCE(p.name, '') FROM ratings r "
                          "LEFT JOIN players p ON p.id = r.player WHERE r.preset = $1";
        if (after) {
            sql += " AND r.rating <= $3::float8 AND (r.rating < $3::float8 OR r.player > $4::text COLLATE \"C\")";
            params.text(exact_text(after->rating)).text(after->player);
        }
        sql += " ORDER BY r.rating DESC, r.player LIMIT $2";
        const pg::Result r = db.exec(sql, params);
        std::vector<PresetRating> rows;
        for (int i = 0; i < r.rows(); ++i) {
            rows.push_back(row_of(r, i));
            rows.back().name = r.text(i, 18);
        }
        return rows;
    };
    reads.ahead = [&](const LeaderboardCursor& at) {
        const pg::Result ahead = db.exec(
            "SELECT count(*) FROM ratings r WHERE r.preset = $1 AND r.games >= $2 AND "
            "(r.rating > $3::float8 OR (r.rating = $3::float8 AND r.player <= $4::text COLLATE \"C\"))",
            pg::Params().text(query.preset).number(query.min_games).text(exact_text(at.rating)).text(at.player));
        return ahead.number(0, 0);
    };
    return leaderboard_page(query, reads);
}

std::vector<PresetRating> pg_retired_ratings(pg::Connection& db) {
    return rating_rows(db.exec(std::string("SELECT ") + kColumns + " FROM ratings_retired r ORDER BY r.player, r.preset", {}));
}

std::optional<PlayerRatings> pg_player_ratings(pg::Connection& db, const std::string& player) {
    const pg::Result who = db.exec("SELECT id, name FROM players WHERE id = $1", pg::Params().text(player));
    if (who.rows() == 0) return std::nullopt;
    PlayerRatings out{who.text(0, 0), who.text(0, 1), {}};
    const pg::Result rows = db.exec(std::string("SELECT ") + kColumns + " FROM ratings r WHERE r.player = $1 "
                                    "AND r.games > 0 ORDER BY r.preset COLLATE \"C\"", pg::Params().text(player));
    for (int i = 0; i < rows.rows(); ++i) {
        out.presets.push_back(row_of(rows, i));
        out.presets.back().name = out.name;
    }
    return out;
}

}  // namespace sparts::storage
