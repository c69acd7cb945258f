// sparts-server --recompute-ratings: every rating and statistic rebuilt from the archive
// (storage/rating_rebuild.hpp: each finished game's record played again, the rated ones
// applied in the order they finished) and written in place of the rows kept, in one commit.
// For a database whose games were finished before ratings were kept (schema version 7 on
// SQLite, 3 on PostgreSQL), or to check the rows against the archive. The database must not
// be in use by a server (it is opened as a server would open it, and refused the same way).
#pragma once
#include "server/base/config.hpp"

namespace sparts::server {

// What happened, on standard output; 0 when the rows were written.
int recompute_ratings(const Config& config);

}  // namespace sparts::server
