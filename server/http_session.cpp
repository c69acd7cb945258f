#include "server/http_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket.hpp>
#include <spdlog/spdlog.h>
#include "server/archive_api.hpp"
#include "server/session.hpp"
#include "server/table_registry.hpp"
#include "server/web_assets.hpp"

namespace sparts::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

HttpSession::HttpSession(net::ip::tcp::socket&& socket, Hub& hub) : stream_(std::move(socket)), hub_(hub) {}

void HttpSession::run() {
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    parser_->body_limit(8 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
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
    auto req = parser_->release();
    if (beast::websocket::is_upgrade(req)) {
        if (req.target() != "/ws") {
            http::response<http::string_body> res{http::status::not_found, req.version()};
            res.set(http::field::content_type, "text/plain");
            res.body() = "WebSocket is served on /ws\n";
            res.prepare_payload();
            auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
            response_ = sp;
            return http::async_write(stream_, *sp,
                                     beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), true));
        }
        beast::error_code ignored;
        auto endpoint = stream_.socket().remote_endpoint(ignored);
        const std::string address = endpoint.address().to_string();
        const bool admitted = !hub_.stopping && hub_.connections.admit(address);
        stream_.expires_never();
        std::make_shared<Session>(stream_.release_socket(), hub_, address, admitted)->run(std::move(req));
        return;
    }
    http::response<http::string_body> res;
    res.version(req.version());
    res.keep_alive(req.keep_alive());
    res.set(http::field::server, "sparts-server");
    res.set(http::field::content_type, "text/plain");
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
        res.result(http::status::method_not_allowed);
        res.body() = "only GET\n";
    } else if (req.target().substr(0, 5) == "/api/") {
        const ApiResponse api = archive_api(req.target(), hub_.store);
        res.result(api.status);
        res.set(http::field::content_type, "application/json");
        if (!api.content_disposition.empty()) res.set(http::field::content_disposition, api.content_disposition);
        res.body() = api.body;
    } else if (req.target() == "/healthz") {
        res.result(http::status::ok);
        res.body() = "ok\n";
    } else if (req.target() == "/readyz") {
        // Ready: accepting connections and, unless told to keep nothing, with its database open.
        const bool ready = !hub_.stopping && (hub_.store || hub_.config.database == "none");
        res.result(ready ? http::status::ok : http::status::service_unavailable);
        res.body() = ready ? "ready\n" : "not ready\n";
    } else if (req.target() == "/metrics") {
        res.result(http::status::ok);
        res.set(http::field::content_type, "text/plain; version=0.0.4");
        res.body() = hub_.metrics.render(static_cast<std::int64_t>(hub_.sessions.size()),
                                         static_cast<std::int64_t>(hub_.tables.size()));
    } else if (auto file = find_static_file(req.target())) {
        // The web client (web/, embedded at build time). Revalidated on each load
        // (no-cache + ETag): a new server version is picked up at once, and an
        // unchanged file costs a 304.
        res.set(http::field::cache_control, "no-cache");
        res.set(http::field::etag, file->etag);
        res.set("X-Content-Type-Options", "nosniff");
        res.set("Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'");
        if (req[http::field::if_none_match] == file->etag) {
            res.result(http::status::not_modified);
            res.erase(http::field::content_type);
        } else {
            res.result(http::status::ok);
            res.set(http::field::content_type, file->content_type);
            res.body() = std::string(file->body);
        }
    } else {
        res.result(http::status::not_found);
        res.body() = "not found\n";
    }
    res.prepare_payload();
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    response_ = sp;
    http::async_write(stream_, *sp, beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), sp->need_eof()));
}

void HttpSession::on_write(bool close, beast::error_code ec, std::size_t) {
    response_.reset();
    if (ec) return;
    if (close) {
        stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
        return;
    }
    do_read();
}

}  // namespace sparts::server
