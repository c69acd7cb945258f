// sparts-server --retire-older-than DAYS --retire-to FILE: retention (docs/OPERATING.md,
// "Retention"). The finished games that ended more than DAYS days ago, the oldest first, a
// few hundred at a time: each step's games appended to FILE as JSON Lines (one game a line,
// server/archive/game_json.hpp's retired_line: its summary and game record), the file synced
// to disk, and only then the games dropped from the archive, in one commit with the rating
// rows they leave (storage/records.hpp, RetireGames), from which a later --recompute-ratings
// starts. The players' ratings are not changed. Stopped in the middle, it leaves every game
// either in the archive or in the file (a step whose commit did not happen is in both: run it
// again, and the file has those lines twice).
//
// Like --recompute-ratings, the database must not be in use by a server: it is opened as a
// server would open it, and refused the same way while one holds it.
#pragma once
#include "server/base/config.hpp"

namespace sparts::server {

// What happened, on standard output; 0 when every game due was retired.
int retire_command(const Config& config);

}  // namespace sparts::server
