// A file's bytes, or a folder's entries (a file renamed into it), made durable: fsync by
// name. For files written beside the database: a backup's copy, the host's rule sets.
#pragma once
#include <string>

namespace sparts::storage {

// false if it could not be opened or synced.
bool sync_path(const std::string& path, bool folder);

}  // namespace sparts::storage
