// A finished game of the archive as JSON: its summary (what GET /api/games lists), its game
// record (docs/game-record.md: what `sparts verify` and `sparts replay` read), and the line
// retention exports it as. One rendering for the archive API and for retention, so that a
// retired game's line holds exactly what the archive served of it.
#pragma once
#include <string>
#include <nlohmann/json.hpp>
#include "storage/records.hpp"

namespace sparts::server {

// Stored JSON text as a value (null for text that is not JSON).
nlohmann::json parsed(const std::string& text);

// {table, game, preset, ruleset, players, result, started, finished}
nlohmann::json summary_json(const storage::ArchivedGameSummary& g);

// The commitment the players were shown when the game started (its game_started event, as
// published), rather than one computed again from the stored seed and salt: so that a seed or
// salt changed in the database since fails the record's check. Empty: a game without one.
std::string published_commitment(const storage::ArchivedGame& g);

// The game record, as GET /api/games/{table}/{game}/record serves it (before its check by the parser).
nlohmann::json record_of(const storage::ArchivedGame& g);

// A retired game's line (docs/OPERATING.md, "Retention"): its summary and, under "record", its
// game record; the seed and salt are in the record.
nlohmann::json retired_line(const storage::ArchivedGame& g);

}  // namespace sparts::server
