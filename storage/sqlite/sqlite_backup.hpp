// A consistent copy of a live SQLite database (docs/OPERATING.md, "Backups").
//
// SQLite's online backup API copies every page in one read transaction: the
// copy is the database as it stood when that transaction began, every commit
// before it included and none after, while the server goes on committing to
// its write-ahead log (a reader never blocks the writer in WAL mode). It needs
// no lock on the database, so it runs in the server (the admin API and the
// schedule) or in another process beside it (sparts-server --backup-to).
//
// The copy is written to "<file>.partial", synced, and renamed over `to`: a
// backup is whole or absent, never a torn file under the final name.
#pragma once
#include <string>
#include "protocol/outcome.hpp"
#include "storage/store.hpp"

namespace sparts::storage {

// Copies the SQLite database `from` to `to`; what it did, or why not (the file named).
Outcome<BackupDone, std::string> backup_sqlite(const std::string& from, const std::string& to);

}  // namespace sparts::storage
