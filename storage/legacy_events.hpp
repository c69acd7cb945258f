// Schema version 5's data migration: the per-table `events` of versions 1 to 4
// folded into each finished game's record (games.record) and, for the open
// tables, into journal rows; then the `events` table is dropped. Runs inside
// the migration's transaction, after its SQL.
#pragma once
#include <cstdint>

namespace SQLite {
class Database;
}

namespace sparts::storage {

struct LegacyFold {
    std::uint64_t events = 0;          // rows read
    std::uint64_t games = 0;           // finished games given a record
    std::uint64_t verbatim_games = 0;  // of them, kept event by event: the engine renders them otherwise today
    std::uint64_t journal_rows = 0;    // rows written for the open tables
};

LegacyFold fold_legacy_events(SQLite::Database& db);

}  // namespace sparts::storage
