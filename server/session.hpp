// One WebSocket connection: reads text frames, turns each into a request
// (protocol/request.hpp) or an error reply, hands requests to the lobby or to
// a table, and writes what they send back through one bounded queue.
//
// Everything here runs on the connection's own strand. send() and close() may
// be called from any strand (a table's, the lobby's): they post. The limits
// (frame size, messages a second, queued bytes, idle time, time to hello) are
// enforced here, and abuse ends the connection with a stable close code.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include "protocol/request.hpp"
#include "server/connection_limits.hpp"
#include "server/frame.hpp"
#include "server/hub.hpp"
#include "server/player.hpp"
#include "server/rate_limiter.hpp"
#include "server/vector_queue.hpp"

namespace sparts::server {

class Table;
class Replay;

// WebSocket close codes this server uses (4000-4999 are for applications).
enum class CloseCode : std::uint16_t {
    going_away = 1001,       // the server shuts down
    too_big = 1009,          // a frame over max_frame_bytes (sent by Beast)
    rate_limited = 4001,     // kept flooding after rate_limited errors
    too_slow = 4002,         // its write queue went over write_queue_bytes
    too_many_connections = 4003,
    hello_timeout = 4004,    // no hello within hello_timeout_seconds
    table_moved = 4005,      // a table it followed moved to another node of a cluster: reconnect
    banned = 4006,           // its player was banned (the admin API): a hello with its token is refused
};

class Session : public std::enable_shared_from_this<Session> {
public:
    // `address` is the client's address key (client_address.hpp); `ticket`
    // its place in the connection counts, or a refusal (closed with 4003).
    Session(boost::asio::ip::tcp::socket&& socket, Hub& hub, std::string address, Ticket ticket);
    ~Session();

    void run(boost::beast::http::request<boost::beast::http::string_body> upgrade);

    // Thread-safe.
    void send(Frame frame);
    void send(std::string text) { send(std::make_shared<const std::string>(std::move(text))); }
    // Several frames, in order, in one hop to this connection's strand.
    void send(std::vector<Frame> frames);
    void close(CloseCode code, std::string reason);

    // From the lobby, after a hello: who this connection speaks for.
    void hello_done(PlayerRef player);
    // From a table: this connection now follows it (a seat or a spectator).
    void joined(std::shared_ptr<Table> table);

    // For the admin API (session_admin.cpp); thread-safe, each answered through `done` from this
    // connection's strand. What it is (serial, player, address, since when), or nothing once closing.
    void admin_view(std::function<void(std::optional<nlohmann::json>)> done);
    // If it speaks for `player`: `closing` "banned", then close 4006. Whether it did.
    void ban(std::string player, std::function<void(bool)> done);
    // Queues `frame` if the connection has said hello and is not closing. Whether it did.
    void announce(Frame frame, std::function<void(bool)> done);

    // Who this connection speaks for. Set once, before the connection sends a table any
    // request (which happens after, through a post): a table may read it on its strand.
    const PlayerRef& player() const { return player_; }
    std::uint64_t serial() const { return serial_; }
    const std::string& address() const { return address_; }

private:
    void on_accept(boost::beast::error_code ec);
    void do_read();
    void on_read(boost::beast::error_code ec, std::size_t bytes);
    void handle(std::string_view text);
    void dispatch(Request request);
    void on_send(Frame frame);
    bool enqueue(Frame frame);  // false once the connection is closing
    void do_write();
    void on_write(boost::beast::error_code ec, std::size_t bytes);
    void on_close(CloseCode code, std::string reason);
    void do_close();
    std::shared_ptr<Table> find_table(const std::string& id);
    void open_replay(const Request& r);
    void replay_opened(const Request& r, std::shared_ptr<Replay> replay, std::string problem);
    void control_replay(const Request& r);

    // On the bare socket: Beast's tcp_stream adds its own timers and a layer to
    // every operation (about 700 bytes a connection); the WebSocket stream's
    // timeouts (idle, handshake, close) are its own and all this needs.
    boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws_;
    boost::beast::flat_buffer buffer_;  // the message being read
    Hub& hub_;
    std::string address_;
    Ticket ticket_;
    bool admitted_;
    std::uint64_t serial_;
    RateLimiter rate_;
    RateLimiter chat_rate_;  // table chat, within rate_: chat_per_minute, bursts of chat_burst
    int refused_in_a_row_ = 0;
    boost::asio::steady_timer hello_timer_;
    boost::asio::steady_timer kill_timer_;

    PlayerRef player_;
    const std::chrono::system_clock::time_point connected_at_ = std::chrono::system_clock::now();
    bool hello_pending_ = false;
    std::vector<std::weak_ptr<Table>> joined_;
    std::shared_ptr<Replay> replay_;

    VectorQueue<Frame> queue_;
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;
    bool batch_ = false;            // the client asked for several messages a WebSocket message
    std::size_t in_flight_ = 0;     // frames of the queue's front in the write in flight
    std::vector<boost::asio::const_buffer> gather_;  // their text and the newlines between, when batching
    bool closing_ = false;   // a close is wanted: nothing more is queued
    bool closed_ = false;    // async_close started or the socket is shut
    boost::beast::websocket::close_reason close_reason_;
};

}  // namespace sparts::server
