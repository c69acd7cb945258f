// sparts-server --backup-to FILE: a consistent copy of the SQLite --database in FILE
// (storage/sqlite/sqlite_backup.hpp), made while a server may be playing on it: it takes
// no lock and opens the database read-only, so a cron job or an operator's shell can run it
// beside the server. A PostgreSQL --database is refused with the way to back it up
// (docs/OPERATING.md, "Backups").
#pragma once
#include "server/base/config.hpp"

namespace sparts::server {

// What happened, on standard output (or why not, on standard error); 0 when FILE was written.
int backup_command(const Config& config);

}  // namespace sparts::server
