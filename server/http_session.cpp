#include "server/http_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/beast/websocket.hpp>
#include <spdlog/spdlog.h>
#include "server/admin_api.hpp"
#include "server/archive_reader.hpp"
#include "server/client_address.hpp"
#include "server/proxy_header.hpp"
#include "server/session.hpp"
#include "server/table_registry.hpp"
#include "server/web_assets.hpp"
#include "server/webhook.hpp"

namespace sparts::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr std::string_view kJson = "application/json";

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
    // Only a trusted proxy may name a client: from anyone else the first bytes are HTTP.
    if (hub_.config.proxy_protocol && hub_.trusted_proxies.trusts(peer_)) return read_proxy_header();
    do_read();
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
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) {
        stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
        return;
    }
    if (ec) {
        if (ec != beast::error::timeout && ec != net::error::operation_aborted)
            spdlog::debug("http: read: {}", ec.message());
        return;
    }
    Request req = parser_->release();
    hub_.metrics.http_requests.fetch_add(1, std::memory_order_relaxed);
    const std::string target = printable(req.target());
    try {
        handle(std::move(req));
    } catch (const std::exception& e) {
        hub_.metrics.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
        spdlog::error("http: {} from {}: the handler threw: {}", target, peer_, e.what());
        Response res{http::status::internal_server_error, 11};
        res.set(http::field::server, "sparts-server");
        res.set(http::field::content_type, "text/plain");
        res.body() = "internal error\n";
        res.keep_alive(false);
        write(std::move(res));
    }
}

void HttpSession::handle(Request req) {
    // Named by the PROXY header, or else by X-Forwarded-For from a trusted proxy, or else the peer.
    const std::string client =
        proxied_ ? *proxied_ : client_address(peer_, req["X-Forwarded-For"], hub_.trusted_proxies);
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
    if (hub_.admin && AdminApi::is_admin_path(path)) return answer_admin(req, client);
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
                                 hub_.metrics.render(static_cast<std::int64_t>(hub_.sessions.size()),
                                                     static_cast<std::int64_t>(hub_.tables.size())) +
                                     store_metrics(hub_.store) + (hub_.webhook ? hub_.webhook->metrics_text() : ""));
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
        ApiResponse api;
        try {
            api = self->hub_.archive.http(target);
        } catch (const std::exception& e) {
            self->hub_.metrics.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
            spdlog::error("http: {}: the archive read threw: {}", printable(target), e.what());
            api = {http::status::internal_server_error, R"({"error":"internal","message":"internal error"})", {}};
        }
        net::post(self->stream_.get_executor(), [self, base, api = std::move(api)]() mutable {
            base->result(api.status);
            base->set(http::field::content_type, kJson);
            if (!api.content_disposition.empty()) base->set(http::field::content_disposition, api.content_disposition);
            base->body() = std::move(api.body);
            self->write(std::move(*base));
        });
    });
}

void HttpSession::answer_admin(const Request& req, const std::string& client) {
    auto base = std::make_shared<Response>(text_response(req, http::status::ok, {}));
    hub_.admin->handle(req, client, [self = shared_from_this(), base](AdminAnswer answer) {
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
