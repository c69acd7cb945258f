// What the server stores, as plain values: no SQLite type appears here or in
// store.hpp, so that another backend can be written against the same
// interface. JSON travels as text (the protocol's own rendering).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>
#include "engine/action.hpp"
#include "storage/rating_records.hpp"

namespace sparts::storage {

using Millis = std::int64_t;  // milliseconds since the Unix epoch

// A host's named rule set (server/table/rule_sets.hpp) keeps its games' ratings and its players'
// archive pages apart from its preset's: they are filed under this "board", where a preset's are
// filed under the preset's name. The prefix keeps a rule set named like a preset apart from it.
inline constexpr const char* kRuleSetBoardPrefix = "set:";
inline std::string rule_set_board(const std::string& rule_set) { return kRuleSetBoardPrefix + rule_set; }
inline bool is_rule_set_board(const std::string& board) { return board.rfind(kRuleSetBoardPrefix, 0) == 0; }

// --- writes -------------------------------------------------------------------

struct PutPlayer {
    std::string id;
    std::string token_hash;
    std::string name;
    Millis at = 0;
};
struct OpenTable {
    std::string id;
    std::int64_t number = 0;  // the n of the id "tn"
    std::string ruleset;  // JSON: {"preset":...,"options":{...}}
    std::string preset;
    int seats = 0;
    bool is_private = false;
    std::string invite;
    int turn_seconds = 0;
    std::string creator;
    Millis at = 0;
};
struct CloseTable {
    std::string table;
    std::string reason;
    Millis at = 0;
};
// The seat's holder now: a player id, a bot, or nobody (both empty/false).
struct PutSeat {
    std::string table;
    int seat = 0;
    std::string player;
    std::string name;
    bool bot = false;
    std::string level;   // a bot's: "random", "basic" or "strong"; empty for a person
};
struct StartGame {
    std::string table;
    int game = 0;
    std::uint64_t seed = 0;
    std::string ruleset;
    std::string players;  // JSON array per seat: {"player":id,"name":...} or {"bot":true,"name":...}
    Millis at = 0;
    std::string salt;     // provably fair deals (protocol/deal_commitment.hpp): published with the seed at the end
};
// The action applied to the game that caused engine events.
struct Cause {
    int seat = 0;  // 250: the table itself (the game clock)
    Action action;
    // The action's JSON when it is not what to_json(action) writes (a form an older
    // server stored); empty otherwise, and then the JSON is to_json's.
    std::string text;

    friend bool operator==(const Cause&, const Cause&) = default;
};
// The engine's events seq .. seq + count - 1: the deal at a game's start (no
// cause) or what one action caused. The store keeps the action, not the
// events: the engine renders them again, byte for byte, from the game's
// ruleset and seed (storage/game_log.hpp), secret cards included.
struct EngineEvents {
    std::string table;
    std::uint64_t seq = 0;   // the first event's
    std::uint32_t count = 0;
    int game = 0;
    Millis at = 0;
    std::optional<Cause> cause;
};
// One of the table's own events (a seat taken, a time-out, the standings), kept as published.
struct AppendEvent {
    std::string table;
    std::uint64_t seq = 0;
    int game = 0;         // 0: before the first game
    std::string type;
    std::string payload;  // JSON
    Millis at = 0;
};
struct FinishGame {
    std::string table;
    int game = 0;
    std::string result;   // JSON: the game_over event (and standings, when any)
    Millis at = 0;
    // A rated game (every seat a person's when it started): its players' ratings and statistics
    // for `preset` are updated in the same commit (storage/README.md, "Ratings"). Empty: not rated.
    std::string preset{};
    std::vector<RatedSeat> rated{};
    // The host's named rule set the table plays (its name), if any: the archive files the game
    // under it too, a rated game rates its players on the rule set's board as well as the
    // preset's, and the rule set's count of games played goes up by one.
    std::string rule_set{};
    // The game-over webhook's summary (server/host/webhook.hpp), kept in the same commit until it is delivered:
    // a receiver that is down, slow or far behind loses nothing committed. Empty: no webhook.
    std::string webhook{};
};
// Every rating row at once, rebuilt from the archive (sparts-server --recompute-ratings).
struct ReplaceRatings {
    std::vector<PresetRating> rows;
};

// A player banned by the server's operator (the admin API), or banned again with a new reason.
struct PutBan {
    std::string player;
    std::string reason;
    Millis at = 0;
};
// The ban of `player` lifted.
struct RemoveBan {
    std::string player;
};

// A game-over webhook summary delivered (or refused for good by the receiver): forgotten.
struct WebhookDone {
    std::string table;
    int game = 0;
};

// A finished game as the archive lists it.
struct ArchivedGameSummary {
    std::string table;
    int game = 0;
    std::string preset;
    std::string ruleset;
    std::string players;  // JSON
    std::string result;   // JSON
    Millis started = 0;
    Millis finished = 0;
    std::string rule_set{};  // the host's named rule set it was played under; empty: none
};

// A finished game put into the archive whole, not played at a table of this server: nothing of it
// is in the journal (the games `sparts-archive-gen` writes to measure a large archive). A game
// the archive holds already is left as it is.
struct ArchiveGame {
    ArchivedGameSummary summary;
    std::uint64_t seed = 0;
    std::string salt;    // empty: a game started before deals were committed to
    std::string record;  // its game log's bytes (storage/game_log.hpp)
};

// Finished games dropped from the archive by retention (docs/OPERATING.md, "Retention"), once
// exported. A player's rating keeps what they made of it; a rebuild of the ratings cannot play
// them again, so it starts from `ratings`: the rows of the players of these games after them
// (and after every game retired before), which replace those rows of Store::retired_ratings().
struct RetireGames {
    std::vector<std::pair<std::string, int>> games;  // (table, game)
    std::vector<PresetRating> ratings;
};

using Write = std::variant<PutPlayer, OpenTable, CloseTable, PutSeat, StartGame, EngineEvents, AppendEvent, FinishGame,
                           ReplaceRatings, PutBan, RemoveBan, WebhookDone, ArchiveGame, RetireGames>;

// A game-over webhook summary not delivered yet (Store::pending_webhooks).
struct PendingWebhook {
    std::string table;
    int game = 0;
    std::string body;
};

// Everything one step of one table (or the lobby) writes: committed together or not at all.
using Batch = std::vector<Write>;

// --- reads --------------------------------------------------------------------

struct StoredBan {
    std::string player;
    std::string reason;
    Millis at = 0;
};

struct StoredPlayer {
    std::string id;
    std::string token_hash;
    std::string name;
};

struct StoredSeat {
    std::string player;  // empty: a bot or nobody
    std::string name;
    bool bot = false;
    std::string level;   // a bot's level; empty before schema version 4 (played as "basic")
};

struct StoredAction {
    int seat = 0;
    std::string action;  // JSON
    std::uint64_t seq = 0;
};

struct StoredEvent {
    std::uint64_t seq = 0;
    int game = 0;
    std::string type;
    std::string payload;
    Millis at = 0;
};

// A table that was open when the server stopped, with what it takes to rebuild it.
struct OpenTableState {
    OpenTable table;
    std::vector<StoredSeat> seats;         // one per seat
    int game = 0;                          // the latest game; 0: none started
    std::uint64_t seed = 0;
    std::string salt;                      // empty: a game started before deals were committed to
    std::string players{};                 // JSON, per seat, as StartGame had it: who held each when it began
    bool game_finished = false;
    Millis game_started = 0;
    std::vector<StoredAction> actions;     // of the latest game, in order
    std::uint64_t last_seq = 0;
    Millis last_event_at = 0;              // when the table last did anything
};

// An open table as the lobby lists it, read from the store (many nodes: any node lists them all).
struct ListedTable {
    std::string id;
    std::string ruleset;  // JSON
    std::string preset;
    int seats = 0;
    int turn_seconds = 0;
    std::string creator;
    std::vector<StoredSeat> seated;  // one per seat
    int game = 0;                    // games started
    bool playing = false;            // its latest game is in progress
};

struct ArchiveQuery {
    std::string player;   // only games this player sat in
    std::string preset;
    std::string rule_set; // only games of this named rule set (not with `preset`)
    Millis from = 0;      // finished at or after
    Millis to = 0;        // finished before; 0: no bound
    int limit = 50;
    std::string cursor;   // from the previous page; empty: the first page
};


struct ArchivePage {
    std::vector<ArchivedGameSummary> games;
    std::string next_cursor;  // empty: no more
};

// A finished game as a store keeps it, its record not played through the engine yet
// (storage/game_log.hpp): what a reader that plays it itself needs (the ratings' rebuild).
struct ArchivedRecord {
    ArchivedGameSummary summary;
    std::uint64_t seed = 0;
    std::string salt;    // empty: a game started before deals were committed to
    std::string record;  // the encoded log
};

struct ArchivedGame {
    ArchivedGameSummary summary;
    std::uint64_t seed = 0;
    std::string salt;                 // empty: a game started before deals were committed to
    std::vector<StoredAction> actions;
    std::vector<StoredEvent> events;  // the game's events, secret cards included
};

}  // namespace sparts::storage
