// Ratings and statistics rebuilt from the archive: every finished game's record played
// through the engine again and tallied as the table tallied it live (game_tally.hpp), the
// rated ones applied in the order they finished (rating_book.hpp). What
// `sparts-server --recompute-ratings` writes, and what the tests compare the rows kept at
// each game's end with. Backend-neutral: it reads through the Store's archive reads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "protocol/outcome.hpp"
#include "storage/records.hpp"

namespace sparts::storage {

class Store;

// One finished game as the table ended it: its rated seats tallied again from its record.
// `rated` is empty for a game that is not rated; an error for a record the engine cannot play.
Outcome<FinishGame, std::string> finish_of(const ArchivedGame& game);
// The same from its record, played through the engine without rendering an event (what the
// rebuild uses: several times faster); the same answer as finish_of(the game as load_game serves it).
Outcome<FinishGame, std::string> finish_of(const ArchivedRecord& game);

struct RebuiltRatings {
    std::vector<PresetRating> rows;  // by (player, preset)
    std::uint64_t games = 0;         // finished games read
    std::uint64_t rated = 0;         // of them, rated
    std::vector<std::string> skipped;  // games that could not be read or played, and why
};

// Every finished game of the archive, the first to finish first, from the rows the games
// retired from the archive left (Store::retired_ratings).
RebuiltRatings rebuild_ratings(Store& store);

}  // namespace sparts::storage
