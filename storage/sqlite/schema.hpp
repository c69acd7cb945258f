// The database schema as a list of migrations, applied in order at start.
// The version is SQLite's user_version: 0 for an empty file, N once the first
// N migrations are in. A file from a newer server is refused, not touched.
#pragma once
#include <string>
#include <vector>

namespace sparts::storage {

// migrations()[i] takes a database from version i to version i + 1.
const std::vector<std::string>& migrations();
inline int latest_schema_version() { return static_cast<int>(migrations().size()); }

}  // namespace sparts::storage
