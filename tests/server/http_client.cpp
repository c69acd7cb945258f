#include "http_client.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace sparts::e2e {

namespace {

// Under CTest (SPARTS_FRAMES_DIR set), every answer the end-to-end tests get is logged to
// <dir>/http/<pid>.jsonl, one JSON line each; server/e2e_http_matches_openapi checks them all
// against protocol/openapi.yaml once the tests have run.
void log_answer(const std::string& method, const std::string& target, const HttpReply& reply) {
    const char* dir = std::getenv("SPARTS_FRAMES_DIR");
    if (!dir || !*dir) return;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    const auto folder = std::filesystem::path(dir) / "http";
    std::filesystem::create_directories(folder);
    std::ofstream out(folder / (std::to_string(::getpid()) + ".jsonl"), std::ios::app);
    nlohmann::json headers = nlohmann::json::object();
    for (const auto& [name, value] : reply.headers) headers[name] = value;
    // Bodies are text (JSON, plain text, a record); bytes that are not UTF-8 are replaced.
    out << nlohmann::json{{"method", method}, {"target", target}, {"status", reply.status}, {"headers", headers},
                          {"body", reply.body}}
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
}

}  // namespace


namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct HttpConnection::Impl {
    net::io_context io;
    beast::tcp_stream stream{io};
    beast::flat_buffer buffer;
};

HttpConnection::HttpConnection(std::uint16_t port, const std::string& source) : impl_(std::make_unique<Impl>()) {
    auto& socket = impl_->stream.socket();
    if (!source.empty()) {
        socket.open(net::ip::tcp::v4());
        socket.bind(net::ip::tcp::endpoint(net::ip::make_address(source), 0));
    }
    socket.connect(net::ip::tcp::endpoint(net::ip::address_v4::loopback(), port));
}

HttpConnection::~HttpConnection() {
    beast::error_code ignored;
    impl_->stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
}

HttpReply HttpConnection::get(const std::string& target, const Headers& headers) {
    return request("GET", target, {}, headers);
}

HttpReply HttpConnection::request(const std::string& method, const std::string& target, const std::string& body,
                                  const Headers& headers) {
    const http::verb verb = http::string_to_verb(method);
    if (verb == http::verb::unknown) throw std::invalid_argument("http_client: unknown method " + method);
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!body.empty()) req.set(http::field::content_type, "application/json");
    // The test's headers replace the defaults of the same name; a name given twice is sent on two lines.
    for (const auto& [name, value] : headers) req.erase(name);
    for (const auto& [name, value] : headers) req.insert(name, value);
    req.keep_alive(true);
    req.body() = body;
    if (!body.empty() || verb == http::verb::post) req.prepare_payload();
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
    log_answer(method, target, reply);
    return reply;
}

HttpReply http_get(std::uint16_t port, const std::string& target, const Headers& headers, const std::string& source) {
    HttpConnection connection(port, source);
    return connection.get(target, headers);
}

HttpReply http_request(std::uint16_t port, const std::string& method, const std::string& target, const std::string& body,
                       const Headers& headers, const std::string& source) {
    HttpConnection connection(port, source);
    return connection.request(method, target, body, headers);
}

std::string raw_http(std::uint16_t port, const std::string& bytes, std::chrono::milliseconds timeout) {
    net::io_context io;
    beast::tcp_stream stream(io);
    stream.connect(net::ip::tcp::endpoint(net::ip::address_v4::loopback(), port));
    stream.expires_after(timeout);
    net::write(stream, net::buffer(bytes));
    std::string out;
    char chunk[4096];
    for (;;) {
        beast::error_code ec;
        const std::size_t n = stream.read_some(net::buffer(chunk), ec);
        out.append(chunk, n);
        if (ec) break;
        // One response is enough: stop once its body is complete.
        const auto end = out.find("\r\n\r\n");
        if (end == std::string::npos) continue;
        const auto cl = out.find("Content-Length: ");
        if (cl != std::string::npos && cl < end) {
            const std::size_t length = std::stoul(out.substr(cl + 16));
            if (out.size() >= end + 4 + length) break;
        }
    }
    return out;
}

int raw_status(const std::string& response) {
    if (response.rfind("HTTP/1.", 0) != 0 || response.size() < 12) return 0;
    return std::atoi(response.substr(9, 3).c_str());
}

std::string raw_body(const std::string& response) {
    const auto end = response.find("\r\n\r\n");
    return end == std::string::npos ? std::string() : response.substr(end + 4);
}

double metric(std::uint16_t port, const std::string& series) {
    const std::string body = http_get(port, "/metrics").body;
    std::istringstream in(body);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
    return -1;
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
