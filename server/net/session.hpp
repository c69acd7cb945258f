// One WebSocket connection: reads text frames, turns each into a request
// (protocol/request.hpp) or an error reply, hands requests to its routes
// (net/routes.hpp: the lobby, a table, a replay), and writes what they send
// back through one bounded queue.
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
#include "server/base/frame.hpp"
#include "server/base/player.hpp"
#include "server/base/rate_limiter.hpp"
#include "server/base/vector_queue.hpp"
#include "server/net/close_code.hpp"
#include "server/net/connection.hpp"
#include "server/net/connection_limits.hpp"
#include "server/net/hub.hpp"
#include "server/net/routes.hpp"

namespace sparts::server {

class Session final : public Connection, public std::enable_shared_from_this<Session> {
public:
    // `address` is the client's address key (client_address.hpp); `ticket`
    // its place in the connection counts, or a refusal (closed with 4003).
    Session(boost::asio::ip::tcp::socket&& socket, Hub& hub, std::string address, Ticket ticket);
    ~Session();

    void run(boost::beast::http::request<boost::beast::http::string_body> upgrade);

    // Connection (connection.hpp); thread-safe.
    using Connection::send;
    void send(Frame frame) override;
    void send(std::vector<Frame> frames) override;
    void close(CloseCode code, std::string reason) override;
    void hello_done(PlayerRef player) override;
    void joined(std::shared_ptr<Followed> followed) override;

    // The connection's strand, for work that comes back to it.
    boost::asio::any_io_executor executor() { return ws_.get_executor(); }

    // For the admin API (session_admin.cpp); thread-safe, each answered through `done` from this
    // connection's strand. What it is (serial, player, address, since when), or nothing once closing.
    void admin_view(std::function<void(std::optional<nlohmann::json>)> done);
    // If it speaks for `player`: `closing` "banned", then close 4006. Whether it did.
    void ban(std::string player, std::function<void(bool)> done);
    // Queues `frame` if the connection has said hello and is not closing. Whether it did.
    void announce(Frame frame, std::function<void(bool)> done);

    // Who this connection speaks for. Set once, before the connection sends a table any
    // request (which happens after, through a post): a table may read it on its strand.
    const PlayerRef& player() const override { return player_; }
    std::uint64_t serial() const override { return serial_; }
    const std::string& address() const override { return address_; }

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
    std::unique_ptr<ConnectionRoutes> routes_;  // made when it is admitted; gone first when it goes

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
