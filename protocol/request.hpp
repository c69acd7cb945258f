// What a client may ask of the server: a closed set of requests, each parsed
// totally from one text frame. Every frame becomes a Request or a
// RequestError naming the field and what was expected there; the request's
// `id` is recovered whenever the frame was an object with a well-formed `id`,
// so that even an error reply can be matched to its request.
//
// The wire format is in protocol/PROTOCOL.md, with a JSON Schema for every
// message in protocol/schemas/.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <nlohmann/json.hpp>
#include "engine/action.hpp"
#include "engine/ruleset.hpp"
#include "protocol/display_name.hpp"
#include "protocol/parse_error.hpp"

namespace sparts {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kMaxIdLength = 64;
inline constexpr int kMaxTurnSeconds = 3600;
inline constexpr std::size_t kMaxLoginLength = 4096;

// The client's `id`, echoed in the reply: a JSON integer or a short string.
using RequestId = std::optional<nlohmann::json>;

struct Hello {
    int protocol = kProtocolVersion;
    std::string name;
    std::optional<std::string> token;  // a player token from an earlier hello
    std::optional<std::string> login;  // a JWT the host signed (server/host/host_token.hpp)
    // The client reads several messages from one WebSocket message, one a
    // line: the server then joins what it has queued for the connection.
    bool batch = false;
};
inline constexpr int kListTablesDefaultLimit = 50;
inline constexpr int kListTablesMaxLimit = 100;
struct ListTables {
    std::optional<Preset> preset;
    std::optional<int> seats;
    bool open_only = true;  // only tables with a free seat and no game running
    int limit = kListTablesDefaultLimit;  // at most this many tables in the reply
    std::uint64_t after = 0;              // the cursor: tables numbered after this one (0: from the first)
};
struct CreateTable {
    Ruleset rules;
    bool is_private = false;
    int turn_seconds = -1;  // -1: the server's default; 0: no limit
};
struct Sit {
    std::string table;
    std::optional<int> seat;  // none: the lowest free seat
    std::string invite;
};
struct Leave { std::string table; };
struct Watch {
    std::string table;
    std::string invite;
};
struct AddBot {
    std::string table;
    std::optional<int> seat;
    std::string level = "basic";  // random, basic or strong (checked when parsed)
};
struct Start { std::string table; };
struct Again { std::string table; };
struct Act {
    std::string table;
    Action action;
};
struct Resume {
    std::string table;
    std::uint64_t seq = 0;  // the last seq the client has seen; 0: none
};
// Table chat (PROTOCOL.md, "Table chat").
struct Chat {
    std::string table;
    std::string text;  // as said: checked, and cut of white space at either end (chat_text.hpp)
};
struct Mute {
    static constexpr int kSpectators = -1;  // the spectators' channel as a whole
    std::string table;
    int seat = kSpectators;  // a seat, or kSpectators
    bool muted = true;
};
struct Ping {};
// Quick play (server/lobby/quick_play.hpp): be seated with others waiting for the same game.
struct QuickPlay {
    Ruleset rules;
};
struct QuickPlayCancel {};
// Archived games, replayed over the connection (server/archive/replay.hpp).
struct ReplayOpen {
    std::string table;
    int game = 1;
    double speed = 2.0;  // events a second; 0: paused
};
struct ReplayControl {
    enum class Kind { pause, play, step, seek } kind = Kind::pause;
    std::optional<double> speed;     // play: a new speed
    std::optional<int> position;     // seek: an event index
    std::optional<int> hand;         // seek: the start of a hand (1-based)
    std::optional<int> trick;        // seek: with hand, the start of a trick (1-based)
};

using RequestBody = std::variant<Hello, ListTables, CreateTable, Sit, Leave, Watch, AddBot, Start,
                                 Again, Act, Resume, Ping, ReplayOpen, ReplayControl, Chat, Mute, QuickPlay,
                                 QuickPlayCancel>;

struct Request {
    RequestId id;
    RequestBody body;
};

// Why a frame is not a request: `code` is one of the protocol's stable error
// codes (bad_json, bad_message, unknown_type, bad_ruleset; for a chat's text
// chat_bad_text, chat_empty, chat_too_long), `error` says which
// field and what was expected. `type` is the request's type when it was known.
struct RequestError {
    std::string code;
    ParseError error;
    RequestId id;
    std::string type;
};

Outcome<Request, RequestError> parse_request(std::string_view text);

// The `id` of a frame, when it is a JSON object with a well-formed one: for
// the replies to frames that are refused before they are read (rate_limited).
RequestId request_id_of(std::string_view text);

// The request's `type` as on the wire ("create_table").
const char* request_type(const RequestBody& body);

// --- requests by where they go ---------------------------------------------------
// The server routes each request to one place: the lobby (with the connection's own
// ping), the table it names, or the connection's replay. Each group is a type: a router
// visits the three groups, and each place visits only its own requests, so the compiler
// checks that every request has exactly one place and that every place answers all of
// its own (a request added to RequestBody and to no group fails to build: request.cpp).
using LobbyRequestBody = std::variant<Hello, Ping, ListTables, CreateTable, QuickPlay, QuickPlayCancel>;
using TableRequestBody = std::variant<Sit, Leave, Watch, AddBot, Start, Again, Act, Resume, Chat, Mute>;
using ReplayRequestBody = std::variant<ReplayOpen, ReplayControl>;

template <class Body>
struct RequestTo {
    RequestId id;
    Body body;
};
using LobbyRequest = RequestTo<LobbyRequestBody>;
using TableRequest = RequestTo<TableRequestBody>;
using ReplayRequest = RequestTo<ReplayRequestBody>;
using RoutedRequest = std::variant<LobbyRequest, TableRequest, ReplayRequest>;

// `r` moved into its group.
RoutedRequest by_destination(Request r);
const char* request_type(const LobbyRequestBody& body);
const char* request_type(const TableRequestBody& body);
const char* request_type(const ReplayRequestBody& body);
// The table a table request names.
const std::string& table_of(const TableRequestBody& body);

}  // namespace sparts
