// The archive over HTTP, as JSON. Finished games only: a game in progress is
// never revealed (its deal is secret until the end).
//
//   GET /api/games?player=P&preset=spades&from=MS&to=MS&limit=50&cursor=C
//       -> {"games":[{table, game, preset, ruleset, players, result, started, finished}], "next_cursor": C | null}
//   GET /api/games/{table}/{game}
//       -> the game: seats, ruleset, seed, every hand with its deal revealed, every event, the result
//          (its events: game_started to game_over and the standings; the seat changes and
//          `again` requests after it belong to no game, except in games archived before schema 5)
//   GET /api/games/{table}/{game}/record
//       -> the game record (docs/game-record.md), which `sparts replay` plays back and checks
//
// Errors are {"error": code, "message": text} with 400 (a bad parameter),
// 404 (no such finished game) or 503 (the server keeps no archive: --database none).
#pragma once
#include <string>
#include <string_view>
#include <boost/beast/http/status.hpp>

namespace sparts::storage {
class Store;
}

namespace sparts::server {

struct ApiResponse {
    boost::beast::http::status status;
    std::string body;  // JSON
    std::string content_disposition;  // set for a download
};

// `target` is the request target ("/api/games?preset=spades"); the caller
// has checked that it starts with "/api/".
ApiResponse archive_api(std::string_view target, storage::Store* store);

}  // namespace sparts::server
