#include "server/net/http_session.hpp"
#include "server/base/guarded.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/range/iterator_range.hpp>
#include <spdlog/spdlog.h>
#include "server/net/client_address.hpp"
#include "server/net/proxy_header.hpp"
#include "server/net/session.hpp"
#include "server/net/web_assets.hpp"
#include "server/net/routes.hpp"

namespace sparts::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr std::string_view kJson = "application/json";

// Every X-Forwarded-For line of the request as one list, in order (RFC 9110 §5.3: a field sent
// on several lines is the same as one line of their values joined by commas). A proxy that adds a
// line of its own rather than extending the client's (HAProxy's `option forwardfor`) puts the
// address it saw last, where the right-most entry is read from; the first line alone would be the
// client's own say.
std::string forwarded_for(const HttpSession::Request& req) {
    std::string joined;
    for (const auto& line : boost::make_iterator_range(req.equal_range("X-Forwarded-For"))) {
        if (!joined.empty()) joined += ',';
        joined += line.value();
    }
    return joined;
}

// The path of a target, without its query string.
std::string_view path_of(std::string_view target) { return target.substr(0, target.find('?')); }

// For the log: a request target may hold any bytes.
std::string printable(std::string_view text) {
    std::string out;
    for (const char c : text.substr(0, 200)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) out += c;
        else out += fmt::format("\\x{:02x}", u);
    }
    return out;
}

}  // namespace

HttpSession::Response text_response(const HttpSession::Request& req, http::status status, std::string body) {
    HttpSession::Response res{status, req.version()};
    res.keep_alive(req.keep_alive());
    res.set(http::field::server, "sparts-server");
    res.set(http::field::content_type, "text/plain");
    res.body() = std::move(body);
    return res;
}

HttpSession::HttpSession(net::ip::tcp::socket&& socket, Hub& hub, std::string peer, Ticket ticket)
    : stream_(std::move(socket)), hub_(hub), peer_(std::move(peer)), ticket_(std::move(ticket)) {
    hub_.metrics.http_connections.fetch_add(1, std::memory_order_relaxed);
}

HttpSession::~HttpSession() { hub_.metrics.http_connections.fetch_sub(1, std::memory_order_relaxed); }

void HttpSession::run() {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::start, shared_from_this()));
}

void HttpSession::start() {
    if (!ticket_.admitted()) watch_refusal();
    // Only a trusted proxy may name a client: from anyone else the first bytes are HTTP.
    if (hub_.config.proxy_protocol && hub_.trusted_proxies.trusts(peer_)) return read_proxy_header();
    do_read();
}

void HttpSession::watch_refusal() {
    // Until its request arrives, a refused connection may be cut short to make room for a newer refusal: silent
    // connections cannot keep a probe's from being answered.
    hub_.connections.watch(ticket_, [weak = weak_from_this(), executor = stream_.get_executor()] {
        net::post(executor, [weak] {
            if (auto self = weak.lock()) {
                beast::error_code ignored;
                self->stream_.socket().close(ignored);
            }
        });
    });
}

// A refused connection gets a short one.
std::chrono::seconds HttpSession::request_deadline() const {
    return ticket_.admitted() ? std::chrono::seconds(hub_.config.http_request_seconds) : std::chrono::seconds(2);
}

void HttpSession::read_proxy_header() {
    // Exact reads into a buffer of our own, never Beast's: a byte read past the
    // header would be a byte taken from the HTTP request behind it. Both reads
    // share one deadline, as a request's bytes do.
    proxy_header_.resize(kProxyHeaderFixed);
    stream_.expires_after(request_deadline());
    net::async_read(stream_, net::buffer(proxy_header_),
                    beast::bind_front_handler(&HttpSession::on_proxy_fixed, shared_from_this()));
}

void HttpSession::on_proxy_fixed(beast::error_code ec, std::size_t bytes) {
    if (ec) {
        // Closed before a byte: a proxy's plain TCP health check, not an error.
        const bool silent = bytes == 0 && (ec == net::error::eof || ec == net::error::connection_reset);
        if (silent || ec == net::error::operation_aborted) return;
        return refuse_proxy("reading the header: " + ec.message());
    }
    const auto rest = proxy_header_rest(proxy_header_);
    if (!rest) return refuse_proxy(rest.error());
    if (*rest == 0) return use_proxy_header();
    proxy_header_.resize(kProxyHeaderFixed + *rest);
    net::async_read(stream_, net::buffer(proxy_header_.data() + kProxyHeaderFixed, *rest),
                    beast::bind_front_handler(&HttpSession::on_proxy_rest, shared_from_this()));
}

void HttpSession::on_proxy_rest(beast::error_code ec, std::size_t) {
    if (ec == net::error::operation_aborted) return;
    if (ec) return refuse_proxy("reading the header: " + ec.message());
    use_proxy_header();
}

void HttpSession::use_proxy_header() {
    const auto header = parse_proxy_header(proxy_header_);
    std::string().swap(proxy_header_);
    if (!header) return refuse_proxy(header.error());
    proxied_ = address_key(header->source.empty() ? peer_ : header->source);
    // The proxy's connection was admitted in the total only: now that its client is known, it counts against
    // the client's address as well, as the client's own connection would.
    if (!header->source.empty() && ticket_.admitted() && !hub_.connections.count_against(ticket_, *proxied_)) {
        hub_.metrics.refused_connections.fetch_add(1, std::memory_order_relaxed);
        ticket_ = hub_.connections.refusal();
        if (!ticket_) return;  // too many refusals in flight: closed without a word
        watch_refusal();
    }
    do_read();
}

void HttpSession::refuse_proxy(const std::string& reason) {
    hub_.metrics.proxy_header_errors.fetch_add(1, std::memory_order_relaxed);
    spdlog::debug("http: {}: no valid PROXY protocol v2 header ({}): closed", peer_, reason);
    stream_.close();
}

void HttpSession::do_read() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    parser_->body_limit(8 * 1024);
    // The whole request, headers and body, within the deadline: a sender that
    // trickles a byte at a time is cut off all the same.
    stream_.expires_after(request_deadline());
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&HttpSession::on_header, shared_from_this()));
}

void HttpSession::on_header(beast::error_code ec, std::size_t) {
    if (ec) return on_read(ec, 0);
    const auto& req = parser_->get();
    // RFC 9112: HTTP/1.0 and 1.1 are what a request on this port may be (a client of HTTP/2 starts with its
    // preface, which is no HTTP/1 request at all).
    if (req.version() != 10 && req.version() != 11)
        return refuse_request(http::status::http_version_not_supported, "HTTP/1.1 only\n");
    // RFC 9112 §6.3: a request whose last transfer coding is not chunked has no length the server can know:
    // read to the end of the connection, it would swallow every request pipelined behind it.
    if (req.count(http::field::transfer_encoding) != 0 && !parser_->chunked())
        return refuse_request(http::status::bad_request, "a request's last transfer coding must be chunked\n");
    if (parser_->is_done()) return on_read({}, 0);
    // A client that waits for leave to send its body (Expect: 100-continue) gets it at once: every body this
    // server takes is small and read whole under the request's deadline.
    if (beast::iequals(req[http::field::expect], "100-continue")) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        return net::async_write(stream_, net::buffer(kContinue.data(), kContinue.size()),
                                [self = shared_from_this()](beast::error_code e, std::size_t) {
                                    if (e) return;
                                    self->read_body();
                                });
    }
    read_body();
}

void HttpSession::read_body() {
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::refuse_request(http::status status, std::string body) {
    // What follows a request the server could not read cannot be read either: answered, then closed.
    Response res{status, 11};
    res.set(http::field::server, "sparts-server");
    res.set(http::field::content_type, "text/plain");
    res.body() = std::move(body);
    res.keep_alive(false);
    head_ = false;
    write(std::move(res));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) {
        stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
        return;
    }
    if (ec) {
        // Gone, timed out, or cut short to make room for a newer refusal (closed under the read): nobody to answer.
        if (ec == beast::error::timeout || ec == net::error::operation_aborted || ec == net::error::eof ||
            ec == net::error::connection_reset || ec == net::error::bad_descriptor || ec == http::error::partial_message ||
            !stream_.socket().is_open())
            return;
        spdlog::debug("http: {}: read: {}", peer_, ec.message());
        // A request that is not HTTP as RFC 9112 has it gets a status that says why, then the connection closes.
        if (ec == http::error::header_limit) return refuse_request(http::status::request_header_fields_too_large,
                                                                   "the request's headers are over 8 KiB\n");
        if (ec == http::error::body_limit)
            return refuse_request(http::status::payload_too_large, "the request's body is over 8 KiB\n");
        if (ec == http::error::bad_version)
            return refuse_request(http::status::http_version_not_supported, "HTTP/1.1 only\n");
        return refuse_request(http::status::bad_request, "a malformed request\n");
    }
    Request req = parser_->release();
    hub_.connections.settle(ticket_);  // a refusal with its request in hand is answered, never cut short
    hub_.metrics.http_requests.fetch_add(1, std::memory_order_relaxed);
    head_ = req.method() == http::verb::head;
    // RFC 9112 §3.2.2: a server takes a request in absolute form ("http://host/path", as sent to a proxy) as
    // its path.
    if (const std::string_view t = req.target(); !t.empty() && t.front() != '/' && t != "*") {
        if (const auto scheme = t.find("://"); scheme != std::string_view::npos) {
            const std::string_view rest = t.substr(scheme + 3);
            const auto slash = rest.find_first_of("/?");
            std::string path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
            if (path.front() == '?') path.insert(0, "/");
            req.target(path);
        }
    }
    // Its path only: a query may hold a secret (a login, /?login=JWT), and logs are kept and shared.
    const std::string target = printable(path_of(req.target()));
    guarded(hub_.metrics, [&] { handle(std::move(req)); }, [&] {
        Response res{http::status::internal_server_error, 11};
        res.set(http::field::server, "sparts-server");
        res.set(http::field::content_type, "text/plain");
        res.body() = "internal error\n";
        res.keep_alive(false);
        write(std::move(res));
    }, "http: {} from {}: the handler", target, peer_);
}

void HttpSession::handle(Request req) {
    // Named by the PROXY header, or else by X-Forwarded-For from a trusted proxy, or else the peer.
    const std::string client =
        proxied_ ? *proxied_ : client_address(peer_, forwarded_for(req), hub_.trusted_proxies);
    if (beast::websocket::is_upgrade(req)) {
        // A query string is the client's business (a cache buster, a version): /ws?v=2 is /ws.
        if (path_of(req.target()) != "/ws")
            return write(text_response(req, http::status::not_found, "WebSocket is served on /ws\n"));
        return upgrade(std::move(req), client);
    }
    const std::string_view path = path_of(req.target());
    if (!ticket_.admitted()) {
        // Over a limit: a word and goodbye. The liveness probe still gets its answer, so that a
        // server saturated by a flood is not restarted by its supervisor as if it were dead.
        const bool probe = path == "/healthz";
        auto res = text_response(req, probe ? http::status::ok : http::status::service_unavailable,
                                 probe ? "ok\n" : "too many connections\n");
        res.keep_alive(false);
        return write(std::move(res));
    }
    // The one place that takes POST and DELETE; a server without an admin token has no such paths.
    if (hub_.routes->is_admin_path(path)) return answer_admin(req, client);
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
        auto res = text_response(req, http::status::method_not_allowed, "only GET\n");
        res.set(http::field::allow, "GET, HEAD");
        return write(std::move(res));
    }
    if (path.substr(0, 5) == "/api/") return answer_api(req, client);
    if (path == "/healthz") return write(text_response(req, http::status::ok, "ok\n"));
    if (path == "/readyz") {
        // Ready: accepting connections and, unless told to keep nothing, with its database open.
        const bool ready = !hub_.stopping && (hub_.store || hub_.config.database == "none");
        return write(text_response(req, ready ? http::status::ok : http::status::service_unavailable,
                                   ready ? "ready\n" : "not ready\n"));
    }
    if (path == "/metrics") {
        auto res = text_response(req, http::status::ok,
                                 hub_.routes->metrics_text(static_cast<std::int64_t>(hub_.sessions.size())));
        res.set(http::field::content_type, "text/plain; version=0.0.4");
        return write(std::move(res));
    }
    if (auto file = find_static_file(req.target())) {
        // The web client (web/, embedded at build time). Revalidated on each load
        // (no-cache + ETag): a new server version is picked up at once, and an
        // unchanged file costs a 304.
        auto res = text_response(req, http::status::ok, {});
        res.set(http::field::cache_control, "no-cache");
        res.set(http::field::etag, file->etag);
        res.set("X-Content-Type-Options", "nosniff");
        // The page's own requests (its scripts, styles, icon) would otherwise send its address, a
        // login in its query included (/?login=JWT), to whatever logs them as a Referer.
        res.set("Referrer-Policy", "no-referrer");
        res.set("Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'");
        if (req[http::field::if_none_match] == file->etag) {
            res.result(http::status::not_modified);
            res.erase(http::field::content_type);
        } else {
            res.set(http::field::content_type, file->content_type);
            res.body() = std::string(file->body);
        }
        return write(std::move(res));
    }
    write(text_response(req, http::status::not_found, "not found\n"));
}

void HttpSession::upgrade(Request req, const std::string& client) {
    Ticket ticket = std::move(ticket_);
    // Through a trusted proxy the connection was counted in the total only:
    // the WebSocket counts against the client's own address. A client named by
    // a PROXY header is counted against already, by this very ticket.
    if (!proxied_ && ticket.admitted() && hub_.trusted_proxies.trusts(peer_) && client != address_key(peer_)) {
        ticket = hub_.connections.admit(client);
        if (!ticket) {
            hub_.metrics.refused_connections.fetch_add(1, std::memory_order_relaxed);
            ticket = hub_.connections.refusal();
        }
    }
    stream_.expires_never();
    std::make_shared<Session>(stream_.release_socket(), hub_, client, std::move(ticket))->run(std::move(req));
}

void HttpSession::answer_api(const Request& req, const std::string& client) {
    if (!hub_.archive_reads.allow(client)) {
        hub_.metrics.refused_archive_reads.fetch_add(1, std::memory_order_relaxed);
        auto res = text_response(req, http::status::too_many_requests,
                                 R"({"error":"rate_limited","message":"more than )" +
                                     std::to_string(hub_.config.archive_reads_per_minute) +
                                     R"( archive reads a minute from this address: try again later"})");
        res.set(http::field::content_type, kJson);
        res.set(http::field::retry_after, "10");
        return write(std::move(res));
    }
    // Off the I/O threads: the read and its rendering, then back to this connection's strand.
    auto base = std::make_shared<Response>(text_response(req, http::status::ok, {}));
    net::post(hub_.archive_threads, [self = shared_from_this(), base, target = std::string(req.target())] {
        HttpAnswer api;
        guarded(
            self->hub_.metrics, [&] { api = self->hub_.routes->api(target); },
            [&] { api = {http::status::internal_server_error, R"({"error":"internal","message":"internal error"})", {}}; },
            "http: {}: the archive read", printable(path_of(target)));
        net::post(self->stream_.get_executor(), [self, base, api = std::move(api)]() mutable {
            base->result(api.status);
            base->set(http::field::content_type, kJson);
            for (auto& [field, value] : api.headers) base->set(field, value);
            base->body() = std::move(api.body);
            self->write(std::move(*base));
        });
    });
}

void HttpSession::answer_admin(const Request& req, const std::string& client) {
    auto base = std::make_shared<Response>(text_response(req, http::status::ok, {}));
    hub_.routes->admin(req, client, [self = shared_from_this(), base](HttpAnswer answer) {
        // From whichever strand finished the work: back to this connection's.
        net::post(self->stream_.get_executor(), [self, base, answer = std::move(answer)]() mutable {
            base->result(answer.status);
            base->set(http::field::content_type, kJson);
            // What the operator is told of the server is not for caches on the way.
            base->set(http::field::cache_control, "no-store");
            for (auto& [field, value] : answer.headers) base->set(field, value);
            base->body() = std::move(answer.body);
            self->write(std::move(*base));
        });
    });
}

void HttpSession::write(Response res) {
    res.prepare_payload();
    // A HEAD answer is the GET's headers, its Content-Length included, and no body: a byte of body would be
    // read by a keep-alive client or proxy as the start of the next response.
    if (head_) {
        const auto length = res.body().size();
        res.body().clear();
        res.content_length(length);
    }
    response_ = std::make_shared<Response>(std::move(res));
    // The answer has its own deadline: a client that does not read it is dropped.
    stream_.expires_after(std::chrono::seconds(std::max(10, hub_.config.http_request_seconds)));
    http::async_write(stream_, *response_,
                      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), response_->need_eof()));
}

void HttpSession::on_write(bool close, beast::error_code ec, std::size_t) {
    response_.reset();
    if (ec) return;
    if (close || !ticket_.admitted()) {
        stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
        return;
    }
    do_read();
}

}  // namespace sparts::server
