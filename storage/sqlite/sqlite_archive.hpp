// The archive's reads on SQLite (schema version 10): each page of finished games read from
// an index in the order the page lists them, newest first, whatever the filters (a player,
// a preset, a date range, any of them together) and however many games the archive holds.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <SQLiteCpp/SQLiteCpp.h>
#include "storage/records.hpp"

namespace sparts::storage {

ArchivePage sqlite_list_games(SQLite::Database& db, const ArchiveQuery& query);

// A finished game's record in archive_records, in parts of kRecordPart bytes (schema.cpp, version 10;
// storage/README.md says why 480). Earlier records have 960-byte parts: a reader joins parts of any size.
inline constexpr std::size_t kRecordPart = 480;
// `insert`: "INSERT ... INTO archive_records (id, part, bytes) VALUES (?, ?, ?)".
void put_record(SQLite::Statement& insert, std::int64_t id, std::string_view bytes);
// The record of game `id`; nothing when it has none.
std::optional<std::string> read_record(SQLite::Database& db, std::int64_t id);

// Retention: the oldest of the games finished before `before` (Store::oldest_games).
std::vector<ArchivedGameSummary> sqlite_oldest_games(SQLite::Database& db, Millis before, int limit);

// What SQLite's planner does with each statement `sqlite_list_games` runs for `query`, one line
// a step of EXPLAIN QUERY PLAN: for the tests that hold every page to an index.
std::vector<std::string> sqlite_list_games_plan(SQLite::Database& db, const ArchiveQuery& query);

}  // namespace sparts::storage
