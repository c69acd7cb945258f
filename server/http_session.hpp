// One HTTP connection: answers plain requests (/healthz, /metrics, /api/…, the
// web client) and hands a WebSocket upgrade on /ws to a Session.
//
// Everything a stranger sends is bounded: headers and body (8 KiB each), and
// the time a request may take to arrive whole (--http-request-seconds, so a
// slow sender cannot hold a connection open by trickling bytes). The
// connection counts toward the per-address and total connection limits;
// refused at the door, it gets a 503 (or WebSocket close 4003) and goes.
// Archive reads run on the archive threads, rate-limited per address, never
// on the I/O threads. No exception from a handler leaves this class: the
// request gets a 500, the log says why, a counter counts it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include "server/connection_limits.hpp"
#include "server/hub.hpp"

namespace sparts::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    using Request = boost::beast::http::request<boost::beast::http::string_body>;
    using Response = boost::beast::http::response<boost::beast::http::string_body>;

    // `peer` is the peer's address (text); `ticket` its place in the connection
    // counts, or a refusal (ticket.admitted() false).
    HttpSession(boost::asio::ip::tcp::socket&& socket, Hub& hub, std::string peer, Ticket ticket);
    ~HttpSession();
    void run();

private:
    void do_read();
    void on_read(boost::beast::error_code ec, std::size_t bytes);
    void handle(Request req);
    void upgrade(Request req, const std::string& client);
    void answer_api(const Request& req, const std::string& client);
    void write(Response res);
    void on_write(bool close, boost::beast::error_code ec, std::size_t bytes);

    boost::beast::tcp_stream stream_;
    boost::beast::flat_buffer buffer_;
    Hub& hub_;
    std::string peer_;
    Ticket ticket_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::shared_ptr<Response> response_;
};

// A plain-text response to `req`, as the server sends them.
HttpSession::Response text_response(const HttpSession::Request& req, boost::beast::http::status status,
                                    std::string body);

}  // namespace sparts::server
