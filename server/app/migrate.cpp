#include "server/app/migrate.hpp"

#include <cstdio>
#include <iostream>

#include "protocol/game_record.hpp"
#include "protocol/replay.hpp"
#include "server/archive/archive_api.hpp"
#include "storage/postgres/pg.hpp"
#include "storage/postgres/pg_store.hpp"
#include "storage/sqlite/sqlite_store.hpp"
#include "storage/backends/sqlite_to_postgres.hpp"

namespace sparts::server {

namespace {

// Where the two stores' readings of one game differ, or empty.
std::string difference(const storage::ArchivedGame& a, const storage::ArchivedGame& b) {
    if (a.seed != b.seed) return "seed";
    if (a.summary.result != b.summary.result || a.summary.players != b.summary.players ||
        a.summary.ruleset != b.summary.ruleset || a.summary.started != b.summary.started ||
        a.summary.finished != b.summary.finished)
        return "summary";
    if (a.actions.size() != b.actions.size()) return "number of actions";
    for (std::size_t i = 0; i < a.actions.size(); ++i)
        if (a.actions[i].seat != b.actions[i].seat || a.actions[i].action != b.actions[i].action ||
            a.actions[i].seq != b.actions[i].seq)
            return "action " + std::to_string(i);
    if (a.events.size() != b.events.size()) return "number of events";
    for (std::size_t i = 0; i < a.events.size(); ++i)
        if (a.events[i].seq != b.events[i].seq || a.events[i].type != b.events[i].type ||
            a.events[i].payload != b.events[i].payload || a.events[i].at != b.events[i].at)
            return "event seq " + std::to_string(a.events[i].seq);
    return {};
}

std::string difference(const storage::OpenTableState& a, const storage::OpenTableState& b) {
    if (a.table.ruleset != b.table.ruleset || a.table.seats != b.table.seats || a.table.invite != b.table.invite ||
        a.table.creator != b.table.creator)
        return "its settings";
    for (std::size_t s = 0; s < a.seats.size(); ++s)
        if (a.seats[s].player != b.seats[s].player || a.seats[s].bot != b.seats[s].bot ||
            a.seats[s].level != b.seats[s].level || a.seats[s].name != b.seats[s].name)
            return "seat " + std::to_string(s);
    if (a.game != b.game || a.seed != b.seed || a.salt != b.salt || a.game_finished != b.game_finished) return "its game";
    if (a.actions.size() != b.actions.size()) return "its number of actions";
    for (std::size_t i = 0; i < a.actions.size(); ++i)
        if (a.actions[i].action != b.actions[i].action || a.actions[i].seq != b.actions[i].seq) return "action " + std::to_string(i);
    if (a.last_seq != b.last_seq || a.last_event_at != b.last_event_at) return "its last event";
    return {};
}

}  // namespace

int migrate_from_sqlite(const Config& config) {
    if (!storage::pg::is_url(config.database)) {
        std::cerr << "--migrate-from copies into PostgreSQL: give --database postgresql://…\n";
        return 2;
    }
    const std::string shown = storage::pg::redact(config.database);
    auto copied = storage::copy_sqlite_to_postgres(config.migrate_from, config.database);
    if (!copied) {
        std::cerr << "migration refused: " << copied.error() << "\n";
        return 1;
    }
    std::cout << "copied " << config.migrate_from << " into " << shown << ": " << copied->players << " players, "
              << copied->tables << " tables (" << copied->open_tables << " open), " << copied->games << " games ("
              << copied->finished_games << " finished), " << copied->journal_rows << " journal rows" << std::endl;

    auto sqlite = storage::SqliteStore::open(config.migrate_from);
    if (!sqlite) {
        std::cerr << "cannot check the migration: " << sqlite.error() << "\n";
        return 1;
    }
    auto pg = storage::PgStore::open(config.database);
    if (!pg) {
        std::cerr << "cannot check the migration: " << pg.error() << "\n";
        return 1;
    }
    std::uint64_t verified = 0;
    storage::ArchiveQuery query;
    query.limit = 500;
    for (;;) {
        const storage::ArchivePage page = (*sqlite)->list_games(query);
        for (const auto& g : page.games) {
            const std::string name = g.table + " game " + std::to_string(g.game);
            const auto from = (*sqlite)->load_game(g.table, g.game);
            const auto to = (*pg)->load_game(g.table, g.game);
            if (!from || !to) {
                std::cout << name << ": cannot be read back from " << (from ? "PostgreSQL" : "the SQLite file") << "\n";
                return 1;
            }
            if (const std::string d = difference(*from, *to); !d.empty()) {
                std::cout << name << ": PostgreSQL's copy differs from the SQLite file's: " << d << "\n";
                return 1;
            }
            // What `sparts verify` does, on the record the archive serves from PostgreSQL.
            const std::string target = "/api/games/" + g.table + "/" + std::to_string(g.game) + "/record";
            const ApiResponse served = archive_api(target, pg->get());
            if (served.status != boost::beast::http::status::ok) {
                std::cout << name << ": the archive does not serve its record: " << served.body << "\n";
                return 1;
            }
            const auto record = parse_game_record(served.body);
            if (!record) {
                std::cout << name << ": not a valid game record: " << record.error().message() << "\n";
                return 1;
            }
            if (record->result) {
                if (const auto replayed = replay(*record); !replayed) {
                    std::cout << name << ": does not verify: " << replayed.error().message << "\n";
                    return 1;
                }
            }
            ++verified;
        }
        if (page.next_cursor.empty()) break;
        query.cursor = page.next_cursor;
    }
    const auto open_from = (*sqlite)->open_tables();
    const auto open_to = (*pg)->open_tables();
    if (open_from.size() != open_to.size()) {
        std::cout << "open tables: " << open_from.size() << " in the SQLite file, " << open_to.size() << " in PostgreSQL\n";
        return 1;
    }
    for (std::size_t i = 0; i < open_from.size(); ++i)
        if (const std::string d = difference(open_from[i], open_to[i]); !d.empty() || open_from[i].table.id != open_to[i].table.id) {
            std::cout << "open table " << open_from[i].table.id << ": PostgreSQL's copy differs: " << (d.empty() ? "its id" : d) << "\n";
            return 1;
        }
    std::cout << "checked: " << verified << " finished games read back the same and verify (sparts verify), "
              << open_to.size() << " open tables come back the same" << std::endl;
    return 0;
}

}  // namespace sparts::server
