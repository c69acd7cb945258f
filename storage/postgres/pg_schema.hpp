// The PostgreSQL schema as a list of migrations, applied in order at start,
// each in a transaction of its own under an advisory lock (so that nodes
// starting together migrate once). The version is the one row of
// sparts_schema; a database without it that holds tables of its own is not
// ours and is refused, as is one from a newer server.
#pragma once
#include <string>
#include <vector>

namespace sparts::storage {

// pg_migrations()[i] takes a database from version i to version i + 1.
const std::vector<std::string>& pg_migrations();
inline int latest_pg_schema_version() { return static_cast<int>(pg_migrations().size()); }

}  // namespace sparts::storage
