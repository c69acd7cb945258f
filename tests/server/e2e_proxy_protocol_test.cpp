// End to end, the real process behind HAProxy's send-proxy-v2: from a trusted
// proxy (127.0.0.1 here) each connection begins with a PROXY protocol v2
// header, and the per-address limits (archive reads, connections, a
// WebSocket's replays) see the client it names, not the proxy. A trusted
// proxy's connection without a valid header is closed unanswered; from a peer
// that is not trusted the header is just bad HTTP, so nobody names
// themselves.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <nlohmann/json.hpp>
#include "http_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// PROXY, TCP over IPv4 or IPv6 (by the form of `client`), from `client`:50000 to the server's 8080.
std::string proxy_v2_for(const std::string& client) {
    std::string h("\x0D\x0A\x0D\x0A\x00\x0D\x0A\x51\x55\x49\x54\x0A", 12);
    unsigned char a[16] = {};
    std::string block;
    if (::inet_pton(AF_INET, client.c_str(), a) == 1) {
        h += "\x21\x11";
        block.assign(reinterpret_cast<const char*>(a), 4);
        block += std::string("\xC0\x00\x02\x01", 4);
    } else if (::inet_pton(AF_INET6, client.c_str(), a) == 1) {
        h += "\x21\x21";
        block.assign(reinterpret_cast<const char*>(a), 16);
        block += std::string(15, '\0') + "\x01";
    } else {
        throw std::invalid_argument("not an address: " + client);
    }
    block += "\xC3\x50\x1F\x90";
    h += static_cast<char>(block.size() >> 8);
    h += static_cast<char>(block.size() & 0xff);
    return h + block;
}

// LOCAL, as HAProxy's health checks send it (check-send-proxy): the proxy speaks for itself.
std::string proxy_v2_local() { return std::string("\x0D\x0A\x0D\x0A\x00\x0D\x0A\x51\x55\x49\x54\x0A\x20\x00\x00\x00", 16); }

std::string get_request(const std::string& target, const std::string& more_headers = {}) {
    return "GET " + target + " HTTP/1.1\r\nHost: x\r\n" + more_headers + "\r\n";
}

const std::string kUpgradeRequest =
    "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

// A series of /metrics, asked from 127.0.0.2, which is not a proxy (from 127.0.0.1 it would need a header).
double metric_unproxied(std::uint16_t port, const std::string& series) {
    std::istringstream in(http_get(port, "/metrics", {}, "127.0.0.2").body);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
    return -1;
}

// A connection from 127.0.0.1, the trusted proxy, that says exactly what it is told to: HTTP responses
// are read one at a time (the connection stays open), WebSocket frames by hand.
class ProxiedSocket {
public:
    explicit ProxiedSocket(std::uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
        sockaddr_in remote{};
        remote.sin_family = AF_INET;
        remote.sin_port = htons(port);
        ::inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
        if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&remote), sizeof remote) != 0) {
            if (fd_ >= 0) ::close(fd_);
            throw std::runtime_error("cannot connect");
        }
        timeval limit{10, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    }
    ~ProxiedSocket() { ::close(fd_); }
    ProxiedSocket(const ProxiedSocket&) = delete;
    ProxiedSocket& operator=(const ProxiedSocket&) = delete;

    void send(const std::string& bytes) {
        if (::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(bytes.size()))
            throw std::runtime_error("send failed");
    }

    // The next HTTP response's head and body (by Content-Length; none: the head only), or "" if the
    // server closed the connection or said nothing for 10 s.
    std::string response() {
        for (;;) {
            const auto end = in_.find("\r\n\r\n");
            if (end != std::string::npos) {
                std::size_t length = 0;
                const auto cl = in_.find("Content-Length: ");
                if (cl != std::string::npos && cl < end) length = std::stoul(in_.substr(cl + 16));
                if (in_.size() >= end + 4 + length) {
                    std::string out = in_.substr(0, end + 4 + length);
                    in_.erase(0, end + 4 + length);
                    return out;
                }
            }
            if (!fill()) return {};
        }
    }

    // A text frame, masked as a client's must be.
    void send_text(const std::string& text) {
        std::string frame = "\x81";
        if (text.size() < 126) {
            frame += static_cast<char>(0x80 | text.size());
        } else {
            frame += static_cast<char>(0x80 | 126);
            frame += static_cast<char>(text.size() >> 8);
            frame += static_cast<char>(text.size() & 0xff);
        }
        const char mask[4] = {0x11, 0x22, 0x33, 0x44};
        frame.append(mask, 4);
        for (std::size_t i = 0; i < text.size(); ++i) frame += static_cast<char>(text[i] ^ mask[i % 4]);
        send(frame);
    }

    // The next frame from the server: its opcode and payload, or nothing if the connection ended.
    std::optional<std::pair<int, std::string>> frame() {
        if (!need(2)) return std::nullopt;
        const int opcode = static_cast<unsigned char>(in_[0]) & 0x0f;
        std::size_t length = static_cast<unsigned char>(in_[1]) & 0x7f;
        std::size_t at = 2;
        if (length >= 126) {
            const std::size_t bytes = length == 126 ? 2 : 8;
            if (!need(2 + bytes)) return std::nullopt;
            length = 0;
            for (std::size_t i = 0; i < bytes; ++i) length = length << 8 | static_cast<unsigned char>(in_[2 + i]);
            at += bytes;
        }
        if (!need(at + length)) return std::nullopt;
        std::pair<int, std::string> out{opcode, in_.substr(at, length)};
        in_.erase(0, at + length);
        return out;
    }

    // The reply to the request of this id, skipping whatever else the server says meanwhile.
    nlohmann::json reply(int id) {
        while (const auto f = frame()) {
            if (f->first != 1) continue;
            const auto message = nlohmann::json::parse(f->second, nullptr, false);
            if (message.is_object() && message.value("id", 0) == id) return message;
        }
        throw std::runtime_error("no reply to request " + std::to_string(id));
    }

private:
    bool fill() {
        char chunk[4096];
        const auto n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n <= 0) return false;
        in_.append(chunk, static_cast<std::size_t>(n));
        return true;
    }
    bool need(std::size_t n) {
        while (in_.size() < n)
            if (!fill()) return false;
        return true;
    }

    int fd_;
    std::string in_;
};

// Whether a GET of `target` proxied for `client` answers 200 within 10 s, asking again every 100 ms
// (a closed connection's place comes back once the server has seen it close).
bool proxied_answers_soon(std::uint16_t port, const std::string& client, const std::string& target) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        if (raw_status(raw_http(port, proxy_v2_for(client) + get_request(target))) == 200) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

}  // namespace

TEST_CASE("e2e: behind a PROXY v2 header, archive reads are limited per client, not per proxy") {
    TestServer server(
        {"--proxy-protocol", "v2", "--trusted-proxies", "127.0.0.1", "--archive-reads-per-minute", "2"});
    const auto port = server.port();
    // Header and request in one write: the header is read to its last byte and not one further.
    for (int i = 0; i < 2; ++i) CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.7") + get_request("/api/games"))) == 200);
    const std::string refused = raw_http(port, proxy_v2_for("203.0.113.7") + get_request("/api/games"));
    CHECK(raw_status(refused) == 429);
    CHECK(nlohmann::json::parse(raw_body(refused)).at("error") == "rate_limited");
    // X-Forwarded-For on a connection the header named is not read: the client cannot pick another address.
    CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.7") +
                                        get_request("/api/games", "X-Forwarded-For: 10.1.1.1\r\n"))) == 429);
    // Another client behind the same proxy has its own budget, over IPv4 or IPv6.
    CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.8") + get_request("/api/games"))) == 200);
    CHECK(raw_status(raw_http(port, proxy_v2_for("2001:db8::7") + get_request("/api/games"))) == 200);
    // Several requests on one connection all speak for its client.
    {
        ProxiedSocket keep(port);
        keep.send(proxy_v2_for("198.51.100.4") + get_request("/api/games"));
        CHECK(raw_status(keep.response()) == 200);
        keep.send(get_request("/api/games"));
        CHECK(raw_status(keep.response()) == 200);
        keep.send(get_request("/api/games"));
        CHECK(raw_status(keep.response()) == 429);
    }
    // LOCAL (the proxy's own health checks) speaks for the proxy: 127.0.0.1's budget.
    for (int i = 0; i < 2; ++i) CHECK(raw_status(raw_http(port, proxy_v2_local() + get_request("/api/games"))) == 200);
    CHECK(raw_status(raw_http(port, proxy_v2_local() + get_request("/api/games"))) == 429);
    CHECK(raw_status(raw_http(port, proxy_v2_local() + get_request("/healthz"))) == 200);
    // A peer that is not a proxy speaks plain HTTP, for its own address.
    CHECK(http_get(port, "/api/games", {}, "127.0.0.2").status == 200);
    CHECK(metric_unproxied(port, "sparts_limit_refusals_total{limit=\"archive_reads_per_minute\"}") == 4);
    CHECK(metric_unproxied(port, "sparts_proxy_header_errors_total") == 0);
}

TEST_CASE("e2e: behind a PROXY v2 header, a client's connections count against its own address, WebSocket too") {
    TestServer server(
        {"--proxy-protocol", "v2", "--trusted-proxies", "127.0.0.1", "--connections-per-address", "1"});
    const auto port = server.port();
    {
        ProxiedSocket held(port);
        held.send(proxy_v2_for("203.0.113.7") + get_request("/healthz"));
        CHECK(raw_status(held.response()) == 200);
        // The client's second connection at once: refused with a word, as if it had come itself.
        const std::string refused = raw_http(port, proxy_v2_for("203.0.113.7") + get_request("/api/games"));
        CHECK(raw_status(refused) == 503);
        CHECK(raw_body(refused) == "too many connections\n");
        // Another client through the same proxy, while the first is held: the proxy is not held to one.
        CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.8") + get_request("/api/games"))) == 200);
        // The held connection still serves its client.
        held.send(get_request("/api/games"));
        CHECK(raw_status(held.response()) == 200);
    }
    // Closed: the client's place is given back.
    CHECK(proxied_answers_soon(port, "203.0.113.7", "/api/games"));
    // A WebSocket through a header is switched, and holds its client's place.
    ProxiedSocket ws(port);
    ws.send(proxy_v2_for("203.0.113.9") + kUpgradeRequest);
    const std::string switched = ws.response();
    CHECK(raw_status(switched) == 101);
    ws.send_text(R"({"type":"hello","id":1,"protocol":1,"name":"proxied"})");
    CHECK(ws.reply(1).value("type", "") == "ok");
    CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.9") + get_request("/api/games"))) == 503);
    // A second WebSocket for that client is switched and then closed with 4003, too many connections.
    ProxiedSocket second(port);
    second.send(proxy_v2_for("203.0.113.9") + kUpgradeRequest);
    CHECK(raw_status(second.response()) == 101);
    const auto closing = second.frame();
    REQUIRE(closing);
    CHECK(closing->first == 8);
    REQUIRE(closing->second.size() >= 2);
    CHECK((static_cast<unsigned char>(closing->second[0]) << 8 | static_cast<unsigned char>(closing->second[1])) == 4003);
    CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.10") + get_request("/api/games"))) == 200);
    CHECK(metric_unproxied(port, "sparts_limit_refusals_total{limit=\"connections\"}") >= 3);
}

TEST_CASE("e2e: a WebSocket through a PROXY v2 header speaks for the proxied client") {
    TestServer server(
        {"--proxy-protocol", "v2", "--trusted-proxies", "127.0.0.1", "--archive-reads-per-minute", "1"});
    const auto port = server.port();
    // 203.0.113.7 spends its one archive read over HTTP...
    CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.7") + get_request("/api/games"))) == 200);
    // ...so its WebSocket's replay is refused, while another client's is read.
    ProxiedSocket spent(port);
    spent.send(proxy_v2_for("203.0.113.7") + kUpgradeRequest);
    REQUIRE(raw_status(spent.response()) == 101);
    spent.send_text(R"({"type":"hello","id":1,"protocol":1,"name":"spent"})");
    CHECK(spent.reply(1).value("type", "") == "ok");
    spent.send_text(R"({"type":"replay","id":2,"table":"t1","game":1})");
    CHECK(spent.reply(2).value("code", "") == "rate_limited");
    ProxiedSocket fresh(port);
    fresh.send(proxy_v2_for("203.0.113.8") + kUpgradeRequest);
    REQUIRE(raw_status(fresh.response()) == 101);
    fresh.send_text(R"({"type":"hello","id":1,"protocol":1,"name":"fresh"})");
    CHECK(fresh.reply(1).value("type", "") == "ok");
    fresh.send_text(R"({"type":"replay","id":2,"table":"t1","game":1})");
    CHECK(fresh.reply(2).value("code", "") == "no_such_game");
}

TEST_CASE("e2e: with --proxy-protocol v2, a trusted proxy's connection without a valid header is closed unanswered") {
    TestServer server({"--proxy-protocol", "v2", "--trusted-proxies", "127.0.0.1", "--http-request-seconds", "30"});
    const auto port = server.port();
    const auto started = std::chrono::steady_clock::now();
    // Plain HTTP from the proxy: no header, no answer.
    CHECK(raw_http(port, get_request("/healthz")).empty());
    // A header of version 1 (the text one is not even a v2 signature), and a v2 header of version 3.
    CHECK(raw_http(port, "PROXY TCP4 203.0.113.7 192.0.2.1 50000 8080\r\n" + get_request("/healthz")).empty());
    std::string v3 = proxy_v2_for("203.0.113.7");
    v3[12] = '\x31';
    CHECK(raw_http(port, v3 + get_request("/healthz")).empty());
    // UDP is not ours to serve.
    std::string udp = proxy_v2_for("203.0.113.7");
    udp[13] = '\x12';
    CHECK(raw_http(port, udp + get_request("/healthz")).empty());
    // A header announcing 65,535 bytes is refused from its first 16, not waited for.
    std::string huge = proxy_v2_for("203.0.113.7").substr(0, 14) + "\xff\xff";
    CHECK(raw_http(port, huge).empty());
    // All at once, not at the 30 s request deadline.
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(8));
    CHECK(metric_unproxied(port, "sparts_proxy_header_errors_total") == 5);
    // The server plays on, for proxied clients and for peers that are not proxies.
    CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.7") + get_request("/healthz"))) == 200);
    CHECK(http_get(port, "/healthz", {}, "127.0.0.2").status == 200);
    CHECK(server.running());
}

TEST_CASE("e2e: a PROXY v2 header from a peer that is not a trusted proxy is not believed") {
    TestServer server({"--proxy-protocol", "v2", "--trusted-proxies", "10.9.9.9", "--archive-reads-per-minute", "1"});
    const auto port = server.port();
    // From 127.0.0.1, which is not trusted, the header is not read as one: it is a bad request.
    const std::string reply = raw_http(port, proxy_v2_for("203.0.113.7") + get_request("/api/games"));
    // Answered, not closed without a word: 400, and nothing of what followed the header is served.
    CHECK(raw_status(reply) == 400);
    CHECK(reply.find("HTTP/1.1 200") == std::string::npos);
    // Plain HTTP from it is served, for its own address.
    CHECK(http_get(port, "/api/games").status == 200);
    CHECK(http_get(port, "/api/games").status == 429);
    CHECK(metric_unproxied(port, "sparts_proxy_header_errors_total") == 0);
}

TEST_CASE("e2e: with --proxy-protocol off, a trusted proxy speaks plain HTTP and a header is not read") {
    TestServer server({"--trusted-proxies", "127.0.0.1"});
    const auto port = server.port();
    CHECK(http_get(port, "/healthz").status == 200);
    CHECK(raw_status(raw_http(port, proxy_v2_for("203.0.113.7") + get_request("/healthz"))) != 200);
}
