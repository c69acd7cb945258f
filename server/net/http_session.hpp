// One HTTP connection: answers plain requests (/healthz, /metrics, /api/…, the
// web client, and with --admin-token-file the admin API under /admin/, the one
// place that takes POST and DELETE: admin_api.hpp) and hands a WebSocket
// upgrade on /ws to a Session.
//
// Requests are HTTP/1.1 as RFC 9112 has it: one that is not (headers over
// 8 KiB, a malformed line, a version other than 1.0 or 1.1, a last transfer
// coding other than chunked) is answered with the status that says so (431,
// 400, 505) and the connection closed; a target in absolute form is taken as
// its path; `Expect: 100-continue` is answered 100; a HEAD answer has the
// GET's headers and no body.
//
// Everything a stranger sends is bounded: headers and body (8 KiB each), and
// the time a request may take to arrive whole (--http-request-seconds, so a
// slow sender cannot hold a connection open by trickling bytes). The
// connection counts toward the per-address and total connection limits;
// refused at the door, it gets a 503 (or WebSocket close 4003) and goes.
// Archive reads run on the archive threads, rate-limited per address, never
// on the I/O threads. No exception from a handler leaves this class: the
// request gets a 500, the log says why, a counter counts it.
//
// Behind HAProxy with --proxy-protocol v2, a connection from a trusted proxy
// must begin with a PROXY protocol v2 header (proxy_header.hpp), read under
// the same deadline as a request and to its last byte only, so that the HTTP
// request behind it is left whole for the parser. Its source address is then
// the client's for every request on the connection (X-Forwarded-For is not
// read), and the connection counts against that address too, refused with a
// 503 (or close 4003) over the per-address limit. A trusted proxy's connection
// without a valid header is closed unanswered. A peer that is not a trusted
// proxy is never read for a header: its bytes are HTTP, and a header there is
// a bad request, so that nobody can choose their own address.
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include "server/net/connection_limits.hpp"
#include "server/net/hub.hpp"

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
    void start();
    void watch_refusal();
    std::chrono::seconds request_deadline() const;
    void read_proxy_header();
    void on_proxy_fixed(boost::beast::error_code ec, std::size_t bytes);
    void on_proxy_rest(boost::beast::error_code ec, std::size_t bytes);
    void use_proxy_header();
    void refuse_proxy(const std::string& reason);
    void do_read();
    void on_header(boost::beast::error_code ec, std::size_t bytes);
    void read_body();
    void on_read(boost::beast::error_code ec, std::size_t bytes);
    // Answers a request that cannot be served as HTTP/1.1 with `status`, then closes.
    void refuse_request(boost::beast::http::status status, std::string body);
    void handle(Request req);
    void upgrade(Request req, const std::string& client);
    void answer_api(const Request& req, const std::string& client);
    void answer_admin(const Request& req, const std::string& client);
    void write(Response res);
    void on_write(bool close, boost::beast::error_code ec, std::size_t bytes);

    boost::beast::tcp_stream stream_;
    boost::beast::flat_buffer buffer_;
    Hub& hub_;
    std::string peer_;
    Ticket ticket_;
    std::string proxy_header_;  // the PROXY header while it is read; empty after
    // The client's address key as the PROXY header named it (the peer's for
    // LOCAL); nothing without one: X-Forwarded-For decides (client_address.hpp).
    std::optional<std::string> proxied_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::shared_ptr<Response> response_;
    bool head_ = false;  // the request being answered is a HEAD: headers only
};

// A plain-text response to `req`, as the server sends them.
HttpSession::Response text_response(const HttpSession::Request& req, boost::beast::http::status status,
                                    std::string body);

}  // namespace sparts::server
