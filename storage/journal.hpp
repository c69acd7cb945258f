// The journal (schema version 5): one row per engine step or table event of
// every open table, under one global increasing key, so that a commit appends
// to the tail pages whatever the number of busy tables. A row is a
// GameLogEntry and the table and game it belongs to.
#pragma once
#include <cstdint>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>
#include "storage/game_log.hpp"

namespace sparts::storage {

inline constexpr const char* kJournalColumns = "id, table_id, game, seq, at_ms, events, seat, action, type, payload";

struct JournalRow {
    std::int64_t id = 0;
    std::string table;
    int game = 0;
    GameLogEntry entry;
};

// Runs a prepared write and makes it ready for the next one, also when it fails: a
// statement left half way would fail the retry of the whole commit forever.
void run_write(SQLite::Statement& st);

// A row read with kJournalColumns, in that order.
JournalRow journal_row(SQLite::Statement& q);

class JournalInsert {
public:
    explicit JournalInsert(SQLite::Database& db);
    // The new row's key.
    std::int64_t insert(const std::string& table, int game, const GameLogEntry& e);

private:
    SQLite::Database& db_;
    SQLite::Statement insert_;
};

}  // namespace sparts::storage
