// A game as the store keeps it: the actions that caused the engine's events
// (which the engine renders again, byte for byte, from the ruleset and seed)
// and the table's own events (seats taken, time-outs, standings) verbatim,
// each with its place in the table's sequence and its time.
//
// `encode` packs it into a few bytes an action (storage/README.md gives the
// layout); `render` plays it through the engine into the events and actions
// the archive and the replay serve, exactly as they were published.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include "engine/event.hpp"
#include "engine/ruleset.hpp"
#include "protocol/outcome.hpp"
#include "storage/records.hpp"

namespace sparts::storage {

struct GameLogEntry {
    enum class Kind : std::uint8_t {
        engine,       // `events` events of the engine: the deal (no cause) or an action's
        table_event,  // one event verbatim: `type` and `payload`
    };
    Kind kind = Kind::engine;
    std::uint64_t seq = 0;  // the first event's
    Millis at = 0;
    std::uint32_t events = 1;
    std::optional<Cause> cause;
    std::string type;
    std::string payload;

    friend bool operator==(const GameLogEntry&, const GameLogEntry&) = default;

    static GameLogEntry engine_events(std::uint64_t seq, Millis at, std::uint32_t events, std::optional<Cause> cause) {
        GameLogEntry e;
        e.seq = seq;
        e.at = at;
        e.events = events;
        e.cause = std::move(cause);
        return e;
    }
    static GameLogEntry table(std::uint64_t seq, Millis at, std::string type, std::string payload,
                              std::optional<Cause> cause = std::nullopt) {
        GameLogEntry e;
        e.kind = Kind::table_event;
        e.seq = seq;
        e.at = at;
        e.type = std::move(type);
        e.payload = std::move(payload);
        e.cause = std::move(cause);
        return e;
    }
};

struct GameLog {
    // Every event verbatim, none rendered: what a migrated game whose stored
    // events the engine no longer renders the same way keeps (see storage/README.md).
    bool verbatim = false;
    std::vector<GameLogEntry> entries;
};

// Appends entries to an encoded log one at a time: the store keeps a game in
// progress this way, a few bytes an action, until the game is over.
class GameLogEncoder {
public:
    explicit GameLogEncoder(bool verbatim = false);
    void add(const GameLogEntry& entry);
    const std::string& bytes() const { return bytes_; }
    std::uint64_t next_seq() const { return next_seq_; }

private:
    std::string bytes_;
    std::uint64_t next_seq_ = 0;
    Millis last_at_ = 0;
};

std::string encode(const GameLog& log);
Outcome<GameLog, std::string> decode_game_log(std::string_view bytes);

struct RenderedGame {
    std::vector<StoredEvent> events;
    std::vector<StoredAction> actions;
};

// What play_log shows a reader of a log: `engine` gets each engine entry with the events the
// engine made for it again (the deal's, then each action's); `table` each table event, with the
// events its action caused when it carries one (a game in progress when version 4 was
// migrated), none otherwise.
struct LogVisitor {
    std::function<void(const GameLogEntry&, std::span<const Event>)> engine;
    std::function<void(const GameLogEntry&, std::span<const Event>)> table;
};

// A game's ruleset JSON as the engine's ruleset; what is wrong otherwise.
Outcome<Ruleset, std::string> ruleset_of(const std::string& ruleset);

// Plays a log through the engine from its deal, for a reader that wants the engine's events
// rather than their JSON (the ratings' rebuild); what is wrong otherwise. A verbatim log has
// no engine entries to play: an error.
Outcome<bool, std::string> play_log(const GameLog& log, const Ruleset& rules, std::uint64_t seed, const LogVisitor& visit);

// The game's events and actions. `ruleset` is the game's ruleset JSON.
Outcome<RenderedGame, std::string> render(const GameLog& log, const std::string& ruleset, std::uint64_t seed, int game);

// A finished game's record, its bytes as a store keeps them, decoded and rendered; or what is wrong
// ("its record is unreadable: …", "its record does not play back: …").
Outcome<RenderedGame, std::string> render_record(std::string_view record, const std::string& ruleset, std::uint64_t seed,
                                                 int game);

// The actions alone (what a table rebuilt after a restart applies), without the engine.
std::vector<StoredAction> actions_of(const GameLog& log);

// An action in the few bytes the log and the journal keep it in, and back.
std::string encode_action(const Action& action);
std::optional<Action> decode_action(std::string_view bytes);
// The same code inside a longer string of bytes: appended to `out`; read from `bytes`
// at `at`, which moves past it (nullopt, and `at` unchanged, if it does not decode).
// With a count (a varint) beside it, for other compact lists (server/table/table_history.*).
void append_action(std::string& out, const Action& action);
std::optional<Action> read_action(std::string_view bytes, std::size_t& at);
void append_count(std::string& out, std::uint64_t count);
std::optional<std::uint64_t> read_count(std::string_view bytes, std::size_t& at);
// A cause from an action's JSON (a version-4 row, a journal row of its time): its text
// is kept only when to_json would not give it back byte for byte.
Cause cause_from_text(int seat, const std::string& text);
// The action's JSON, as the archive serves it.
std::string action_text(const Cause& cause);

// Whether an event type is one of the engine's (else it is the table's own).
bool is_engine_event(std::string_view type);

}  // namespace sparts::storage
