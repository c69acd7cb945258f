#include "storage/backends/sqlite_to_postgres.hpp"

#include <functional>

#include <SQLiteCpp/SQLiteCpp.h>
#include <spdlog/spdlog.h>
#include "storage/exact_double.hpp"
#include "storage/postgres/pg.hpp"
#include "storage/postgres/pg_store.hpp"
#include "storage/sqlite/sqlite_archive.hpp"
#include "storage/sqlite/sqlite_store.hpp"

namespace sparts::storage {

namespace {

// How a SQLite column goes into a PostgreSQL array element.
// `record`: the column is an archive id, and what goes is that game's record (archive_records'
// parts, put together), or NULL for a game without one.
enum class As { text, number, boolean, bytes, real, record };

struct Column {
    const char* select;  // the SQLite expression
    const char* name;    // the PostgreSQL column
    const char* type;    // its array type, for unnest()
    As as;
};

void put(SQLite::Database& sqlite, pg::ArrayText& out, const SQLite::Column& c, As as) {
    if (c.isNull()) return out.null();
    switch (as) {
        case As::text:
            return out.text(c.getString());
        case As::number:
            return out.number(c.getInt64());
        case As::boolean:
            return out.text(c.getInt64() != 0 ? "t" : "f");
        case As::bytes:
            return out.bytes(std::string_view(static_cast<const char*>(c.getBlob()), static_cast<std::size_t>(c.getBytes())));
        case As::real:  // every bit of it: SQLite's own text of a REAL keeps 15 digits
            return out.text(exact_text(c.getDouble()));
        case As::record:
            if (const auto record = read_record(sqlite, c.getInt64())) return out.bytes(*record);
            return out.null();
    }
}

// Every row of `from` (SQLite), in `order`, into `to` (PostgreSQL), 500 rows a statement.
std::uint64_t copy(SQLite::Database& sqlite, pg::Connection& pg, const std::string& from, const std::string& to,
                   const std::vector<Column>& columns, const std::string& order) {
    std::string select = "SELECT ";
    std::string names;
    std::string unnest;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        select += (i ? ", " : "") + std::string(columns[i].select);
        names += (i ? ", " : "") + std::string(columns[i].name);
        unnest += (i ? ", $" : "$") + std::to_string(i + 1) + "::" + columns[i].type + "[]";
    }
    select += " FROM " + from + " ORDER BY " + order;
    const std::string insert = "INSERT INTO " + to + " (" + names + ") SELECT * FROM unnest(" + unnest + ")";
    SQLite::Statement rows(sqlite, select);
    std::vector<pg::ArrayText> arrays(columns.size());
    std::uint64_t total = 0;
    int pending = 0;
    const auto send = [&] {
        if (pending == 0) return;
        pg::Params params;
        for (const auto& a : arrays) params.text(a.done());
        pg.exec(insert, params);
        arrays.assign(columns.size(), pg::ArrayText());
        pending = 0;
    };
    while (rows.executeStep()) {
        for (std::size_t i = 0; i < columns.size(); ++i)
            put(sqlite, arrays[i], rows.getColumn(static_cast<int>(i)), columns[i].as);
        ++total;
        if (++pending == 500) send();
    }
    send();
    return total;
}

}  // namespace

Outcome<CopiedHistory, std::string> copy_sqlite_to_postgres(const std::string& sqlite_path, const std::string& url) {
    // Opened as a server would: migrated to the latest schema, locked against a server meanwhile.
    auto source = SqliteStore::open(sqlite_path);
    if (!source) return "--migrate-from: " + source.error();
    auto target = PgStore::open(url);
    if (!target) return target.error();
    const std::string shown = pg::redact(url);
    CopiedHistory copied;
    try {
        pg::Connection pg(url);
        if (pg.exec("SELECT EXISTS (SELECT 1 FROM tables) OR EXISTS (SELECT 1 FROM players)").boolean(0, 0))
            return "PostgreSQL database " + shown +
                   " already holds players or tables: --migrate-from copies into an empty database only";
        SQLite::Database sqlite(sqlite_path, SQLite::OPEN_READONLY);
        pg.exec("BEGIN");
        try {
            copied.players = copy(sqlite, pg, "players", "players",
                                  {{"id", "id", "text", As::text},
                                   {"token_hash", "token_hash", "text", As::text},
                                   {"name", "name", "text", As::text},
                                   {"created_ms", "created_ms", "bigint", As::number}},
                                  "id");
            copied.tables = copy(sqlite, pg, "tables", "tables",
                                 {{"id", "id", "text", As::text},
                                  {"number", "number", "bigint", As::number},
                                  {"ruleset", "ruleset", "text", As::text},
                                  {"preset", "preset", "text", As::text},
                                  {"seats", "seats", "integer", As::number},
                                  {"private", "private", "boolean", As::boolean},
                                  {"invite", "invite", "text", As::text},
                                  {"turn_seconds", "turn_seconds", "integer", As::number},
                                  {"creator", "creator", "text", As::text},
                                  {"created_ms", "created_ms", "bigint", As::number},
                                  {"closed_ms", "closed_ms", "bigint", As::number},
                                  {"close_reason", "close_reason", "text", As::text}},
                                 "number");
            copy(sqlite, pg, "seats", "seats",
                 {{"table_id", "table_id", "text", As::text},
                  {"seat", "seat", "integer", As::number},
                  {"player", "player", "text", As::text},
                  {"name", "name", "text", As::text},
                  {"bot", "bot", "boolean", As::boolean},
                  {"level", "level", "text", As::text}},
                 "table_id, seat");
            // The archive with its ids (its order, and the cursors clients hold), each game's record
            // put together from its parts; then its players' rows, and the games in progress.
            copied.finished_games = copy(sqlite, pg, "archive", "archive",
                                         {{"id", "id", "bigint", As::number},
                                          {"table_id", "table_id", "text", As::text},
                                          {"game", "game", "integer", As::number},
                                          {"preset", "preset", "text", As::text},
                                          {"finished_ms", "finished_ms", "bigint", As::number},
                                          {"started_ms", "started_ms", "bigint", As::number},
                                          {"seed", "seed", "bigint", As::number},
                                          {"salt", "salt", "text", As::text},
                                          {"ruleset", "ruleset", "text", As::text},
                                          {"players", "players", "text", As::text},
                                          {"result", "result", "text", As::text},
                                          {"rule_set", "rule_set", "text", As::text},
                                          {"id", "record", "bytea", As::record}},
                                         "id");
            // SQLite numbers the players of archive_players (its version 12); PostgreSQL keys them by id.
            copy(sqlite, pg, "archive_players p JOIN player_numbers n ON n.number = p.number", "archive_players",
                 {{"n.player", "player", "text", As::text},
                  {"p.preset", "preset", "text", As::text},
                  {"p.finished_ms", "finished_ms", "bigint", As::number},
                  {"p.id", "id", "bigint", As::number}},
                 "p.number, p.preset, p.finished_ms, p.id");  // its key's order: no sort
            copied.games = copied.finished_games +
                           copy(sqlite, pg, "games_in_progress", "games_in_progress",
                                {{"table_id", "table_id", "text", As::text},
                                 {"game", "game", "integer", As::number},
                                 {"seed", "seed", "bigint", As::number},
                                 {"salt", "salt", "text", As::text},
                                 {"ruleset", "ruleset", "text", As::text},
                                 {"preset", "preset", "text", As::text},
                                 {"players", "players", "text", As::text},
                                 {"started_ms", "started_ms", "bigint", As::number}},
                                "table_id");
            // An action is a BLOB of its compact bytes, or (a version-4 row) its JSON text.
            copied.journal_rows = copy(sqlite, pg, "journal", "journal",
                                       {{"table_id", "table_id", "text", As::text},
                                        {"game", "game", "integer", As::number},
                                        {"seq", "seq", "bigint", As::number},
                                        {"at_ms", "at_ms", "bigint", As::number},
                                        {"events", "events", "integer", As::number},
                                        {"seat", "seat", "integer", As::number},
                                        {"CASE WHEN typeof(action) = 'blob' THEN action END", "action", "bytea", As::bytes},
                                        {"CASE WHEN typeof(action) = 'text' THEN action END", "action_text", "text", As::text},
                                        {"type", "type", "text", As::text},
                                        {"payload", "payload", "text", As::text}},
                                       "id");
            const std::vector<Column> rating_columns = {
                {"player", "player", "text", As::text},
                {"preset", "preset", "text", As::text},
                {"rating", "rating", "float8", As::real},
                {"deviation", "deviation", "float8", As::real},
                {"volatility", "volatility", "float8", As::real},
                {"games", "games", "bigint", As::number},
                {"wins", "wins", "bigint", As::number},
                {"hands", "hands", "bigint", As::number},
                {"bids", "bids", "bigint", As::number},
                {"bids_made", "bids_made", "bigint", As::number},
                {"nil_bids", "nil_bids", "bigint", As::number},
                {"nils_made", "nils_made", "bigint", As::number},
                {"bags", "bags", "bigint", As::number},
                {"moons", "moons", "bigint", As::number},
                {"last_table", "last_table", "text", As::text},
                {"last_game", "last_game", "integer", As::number},
                {"last_change", "last_change", "float8", As::real},
                {"updated_ms", "updated_ms", "bigint", As::number}};
            copy(sqlite, pg, "ratings", "ratings", rating_columns, "player, preset");
            copy(sqlite, pg, "ratings_retired", "ratings_retired", rating_columns, "player, preset");
            copy(sqlite, pg, "rule_set_games", "rule_set_games",
                 {{"name", "name", "text", As::text}, {"games", "games", "bigint", As::number}}, "name");
            copy(sqlite, pg, "bans", "bans",
                 {{"player", "player", "text", As::text},
                  {"reason", "reason", "text", As::text},
                  {"at_ms", "at_ms", "bigint", As::number}},
                 "player");
            // Summaries the webhook has not delivered yet: the new server delivers them, in the same order.
            copy(sqlite, pg, "webhook_outbox", "webhook_outbox",
                 {{"table_id", "table_id", "text", As::text},
                  {"game", "game", "integer", As::number},
                  {"body", "body", "text", As::text}},
                 "rowid");
            pg.exec("SELECT setval('table_numbers', (SELECT max(number) FROM tables)) WHERE EXISTS (SELECT 1 FROM tables)");
            // The archive's next id goes on after the copied ones.
            pg.exec("SELECT setval(pg_get_serial_sequence('archive', 'id'), max(id)) FROM archive HAVING max(id) IS NOT NULL");
            pg.exec("COMMIT");
        } catch (...) {
            if (pg.ok()) pg.exec("ROLLBACK");
            throw;
        }
        copied.open_tables =
            static_cast<std::uint64_t>(pg.exec("SELECT count(*) FROM tables WHERE closed_ms IS NULL").number(0, 0));
        // Read back: every finished game copied is in the archive.
        if (const auto archived = static_cast<std::uint64_t>(pg.exec("SELECT count(*) FROM archive").number(0, 0));
            archived != copied.finished_games)
            return "PostgreSQL database " + shown + ": " + std::to_string(copied.finished_games) +
                   " finished games copied, " + std::to_string(archived) + " in its archive";
    } catch (const SQLite::Exception& e) {
        return "--migrate-from " + sqlite_path + ": " + e.what();
    } catch (const pg::Error& e) {
        return "PostgreSQL database " + shown + ": " + e.what();
    }
    return copied;
}

}  // namespace sparts::storage
