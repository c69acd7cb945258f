// sparts-server --migrate-from FILE --database postgresql://…: the SQLite
// history copied into PostgreSQL (storage/backends/sqlite_to_postgres.hpp), then
// checked game by game: every finished game read back from PostgreSQL
// renders the same events and actions as from SQLite, and its record (as
// /api/games/{table}/{game}/record serves it) replays to its recorded result,
// as `sparts verify` checks it; every open table comes back the same.
#pragma once
#include "server/base/config.hpp"

namespace sparts::server {

// What happened, on standard output; 0 when everything was copied and checked.
int migrate_from_sqlite(const Config& config);

}  // namespace sparts::server
