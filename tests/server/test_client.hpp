// A WebSocket client for the end-to-end tests, written against the protocol
// as the server speaks it (protocol/PROTOCOL.md), and a bot that plays through
// it.
//
// TestClient is synchronous from the test's point of view: send() returns
// once the frame is written; receive() and wait_for() wait, with a deadline,
// for frames the server sent. Several clients may share one EventLoop (one
// io_context, one thread): a test then drives a whole table from one thread,
// and while it waits on one client the others keep reading into their own
// queues. Nothing here is thread-safe; a loop and its clients belong to one
// thread.
//
// Every frame a client sends or receives is kept in memory and written, as it
// happens, to SPARTS_BINARY_DIR/frames/<label>.jsonl (or the folder named by
// the environment variable SPARTS_FRAMES_DIR), one JSON object a line:
//   {"dir":"in","frame":{...}}    a frame the client sent (in to the server)
//   {"dir":"out","frame":{...}}   a frame the server sent (out of the server)
//   {"dir":"in","text":"..."}     a text frame sent that is not JSON
//   {"dir":"in","binary_bytes":N} a binary frame sent
//   {"dir":"out","close":C}       the connection closed (C: the close code, or
//                                 null when it ended without a close frame)
// so that the frames can be checked against the protocol's JSON Schemas.
#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <map>
#include <vector>
#include <nlohmann/json.hpp>
#include "test_server.hpp"

namespace sparts::e2e {

using nlohmann::json;
using Millis = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// How long a test waits for one thing to happen. Generous: under ASan and
// UBSan everything runs several times slower, and a passing test never waits
// this long.
inline constexpr Millis kWait{30'000};

class EventLoop {
public:
    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    // Runs one completion handler (a frame read, a write done...), waiting
    // until `deadline` at the most. False if the deadline passed first or
    // there is nothing left to wait for.
    bool run_one(Clock::time_point deadline);

    struct Impl;
    std::unique_ptr<Impl> impl;
};

class TestClient {
public:
    // Connects to ws://127.0.0.1:<port>/ws (throws if it cannot). `label`
    // names the frame log; a label used before in this process gets a suffix.
    TestClient(EventLoop& loop, std::uint16_t port, std::string label);
    // The same, with more say in how it connects.
    struct Connect {
        std::string path = "/ws";  // the request target of the upgrade
        std::string source;        // the local address to connect from (any of 127/8); empty: the system's
        std::vector<std::pair<std::string, std::string>> headers;  // added to the upgrade request
    };
    TestClient(EventLoop& loop, std::uint16_t port, std::string label, const Connect& how);
    ~TestClient();
    TestClient(const TestClient&) = delete;
    TestClient& operator=(const TestClient&) = delete;

    const std::string& label() const { return label_; }

    // False if the frame could not be written (the connection is gone).
    bool send(const json& frame);
    bool send_text(const std::string& text);  // as is, JSON or not
    bool send_binary(const std::string& bytes);

    // The oldest frame received and not yet taken, without waiting.
    std::optional<json> poll();
    // The oldest frame not yet taken, waiting up to `timeout` for one.
    std::optional<json> receive(Millis timeout = kWait);
    // The first frame not yet taken that satisfies `pred`, waiting for it;
    // frames before it stay queued. Throws, naming `what`, after `timeout` or
    // if the connection closes first.
    json wait_for(const std::function<bool(const json&)>& pred, const std::string& what, Millis timeout = kWait);
    // Sends `request` with a fresh integer `id` (unless it has one) and waits
    // for the reply with that id: {"type":"ok",...} or {"type":"error",...}.
    json request(json request, Millis timeout = kWait);
    // request(), and throws unless the reply is ok.
    json request_ok(json request, Millis timeout = kWait);
    // hello; keeps the player id and the token.
    json hello(const std::string& name, const std::optional<std::string>& token = {});

    // Waits for the connection to close; its close code (1006 if it ended
    // without a close frame), or nothing if it is still open after `timeout`.
    std::optional<int> wait_closed(Millis timeout = kWait);
    bool closed() const { return closed_; }
    // Closes the TCP connection at once, with no WebSocket close handshake.
    void drop();

    // Every frame received, in order, whether taken or not.
    const std::vector<json>& received() const { return received_; }
    const std::string& token() const { return token_; }
    const std::string& player() const { return player_; }

    // Internal: called by the read loop.
    void on_frame(std::string text);
    void on_closed(std::optional<int> code, const std::string& why);

private:
    bool write(const std::string& text, bool binary);
    void record(const json& line);
    bool pump(Clock::time_point deadline);
    std::string recent() const;

    EventLoop& loop_;
    std::string label_;
    std::ofstream log_;
    std::deque<json> inbox_;
    std::vector<json> received_;
    bool closed_ = false;
    std::optional<int> close_code_;
    std::string close_why_;
    std::int64_t next_id_ = 1;
    std::string token_;
    std::string player_;

    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Plays one seat (or watches, seat -1) through a TestClient: takes the frames
// the client received, keeps track of what they say, and on its turn answers
// with a random legal action from `legal` (seeded: a run is reproducible as
// far as the server's deal allows). Anything unexpected it sees (a gap or a
// repeat in the event seq, an error reply to its own action, a your_turn sent
// to a spectator, legal cards it does not hold) goes to `problems`.
class Bot {
public:
    Bot(TestClient& client, std::string table, int seat, std::uint64_t seed);

    TestClient& client;
    const std::string table;
    const int seat;       // -1: a spectator
    bool acting = true;   // answers its turns by itself in step()
    // When set and true for the turn at hand, step() leaves that turn to the test.
    std::function<bool(const Bot&)> pause_when;

    // What the frames said so far.
    std::optional<std::uint64_t> last_seq;  // of the last event (or snapshot)
    std::vector<json> events;               // every event frame, in order
    std::optional<json> turn;               // the latest your_turn not answered yet
    std::optional<json> game_over;          // the last game_over event frame
    int games_over = 0;
    int deals_revealed = 0;                 // deal_revealed events: the last of a game's step but WorldWinner's standings
    std::set<std::string> hand;             // the seat's cards now
    int trick_cards = 0;                    // cards in the trick being played
    int hands_started = 0;
    int actions = 0;                        // actions sent
    int turns = 0;                          // your_turn frames received
    std::vector<std::string> problems;

    // Handles every frame the client has received; acts if it may.
    void step();
    void handle(const json& frame);
    // A turn to answer, and no action of ours still waiting for its reply.
    bool ready() const { return turn.has_value() && !awaiting_; }
    // An action of ours was sent and its reply has not come yet.
    bool awaiting() const { return awaiting_.has_value(); }
    // The kind of move the pending turn asks for ("play", "bid"...), or "".
    std::string turn_kind() const;
    // A random legal action for the current turn.
    json choose();
    // Sends `action` for the current turn (without waiting for the reply).
    void act(const json& action);
    void act() { act(choose()); }

private:
    void problem(const std::string& what);

    std::mt19937_64 rng_;
    std::optional<std::string> awaiting_;  // the id of our act request in flight
    std::uint64_t answered_seq_ = 0;       // a your_turn older than this is stale
    int next_act_ = 1;
};

// Steps every bot (each acting if it may) and runs the loop until `done()`;
// throws, naming `what` and the bots' state, after `timeout`.
void run_until(EventLoop& loop, const std::vector<Bot*>& bots, const std::function<bool()>& done,
               const std::string& what, Millis timeout = Millis(120'000));

// One table with a client in every seat and some spectators, all on one loop.
struct TableGame {
    std::string table;
    std::string invite;
    int seats = 0;
    std::vector<std::unique_ptr<TestClient>> clients;  // seat i is clients[i]; spectators after the seats
    std::vector<std::unique_ptr<Bot>> bots;            // bots[i] plays through clients[i]

    Bot& seat(int s) { return *bots[static_cast<std::size_t>(s)]; }
    std::vector<Bot*> all() const;
    // Runs every bot until each has seen game_over number `games`.
    void play_to_game_over(EventLoop& loop, int games = 1, Millis timeout = Millis(120'000));
};

// Connects `seats` clients (labels "<label>-s<i>") and `spectators` more
// ("<label>-w<i>"), says hello for each, creates the table with `create`
// (a create_table request) from the first, seats them in order and has the
// spectators watch. The game is not started.
TableGame set_up_table(EventLoop& loop, std::uint16_t port, const std::string& label, const json& create, int seats,
                       int spectators, std::uint64_t seed);

// Stops `server` with SIGTERM while the loop runs, so that its clients answer
// the close handshake; its exit status (0 for a clean stop), or nothing if it
// has not exited after `timeout`. A sanitizer report in the server (a leak
// found at exit, say) shows as a status other than 0.
std::optional<int> stop_server(TestServer& server, EventLoop& loop, Millis timeout = kWait);

// Every event frame the bots received, by seq (a secret one in its fullest copy).
void collect(const std::vector<Bot*>& bots, std::map<std::uint64_t, json>& told);

// A database file of this test process under SPARTS_BINARY_DIR/test-db, with
// any file of an earlier run of the same name (and its -wal, -shm, .lock) gone.
std::string fresh_database_path(const std::string& name);

// {"type":"create_table","ruleset":{"preset":...,"options":...},"turn_seconds":0}
json create_table(const std::string& preset, const json& options = json::object(), int turn_seconds = 0);

// The event inside an event frame ({"type":"event","seq":..,"event":{...}}).
inline const json& event_of(const json& frame) { return frame.at("event"); }
inline bool is_event(const json& frame, const std::string& type) {
    return frame.value("type", "") == "event" && frame.at("event").value("type", "") == type;
}
inline bool is_reply_to(const json& frame, const std::string& re) {
    const auto t = frame.value("type", "");
    return (t == "ok" || t == "error") && frame.value("re", "") == re;
}

}  // namespace sparts::e2e
