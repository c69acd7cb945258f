#include "http_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>

namespace sparts::e2e {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct HttpConnection::Impl {
    net::io_context io;
    beast::tcp_stream stream{io};
    beast::flat_buffer buffer;
};

HttpConnection::HttpConnection(std::uint16_t port) : impl_(std::make_unique<Impl>()) {
    net::ip::tcp::resolver resolver(impl_->io);
    impl_->stream.connect(resolver.resolve("127.0.0.1", std::to_string(port)));
}

HttpConnection::~HttpConnection() {
    beast::error_code ignored;
    impl_->stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
}

HttpReply HttpConnection::get(const std::string& target) {
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.keep_alive(true);
    // Synchronous, with a deadline so that a server that never answers fails the test instead of hanging it.
    impl_->stream.expires_after(std::chrono::seconds(30));
    http::write(impl_->stream, req);
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    http::read(impl_->stream, impl_->buffer, parser);
    auto res = parser.release();
    HttpReply reply;
    reply.status = static_cast<int>(res.result_int());
    reply.body = std::move(res.body());
    for (const auto& field : res) {
        std::string name(field.name_string());
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        reply.headers[name] = std::string(field.value());
    }
    return reply;
}

HttpReply http_get(std::uint16_t port, const std::string& target) {
    HttpConnection connection(port);
    return connection.get(target);
}

std::string url_encode(const std::string& text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

}  // namespace sparts::e2e
