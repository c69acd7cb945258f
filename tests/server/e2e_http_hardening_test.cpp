// End to end, the HTTP side of the real process as an attacker sees it: bytes
// that are not UTF-8 in a request target, requests that never finish
// (slowloris) with the server short of file descriptors, the per-address
// limits on archive reads and connections, and X-Forwarded-For, believed from
// a trusted proxy only. Each of these ended the process, spun a core or let
// one address take everything before it was fixed.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
#include <nlohmann/json.hpp>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {


// CPU seconds the process has used (user + system), from /proc/PID/stat.
double cpu_seconds(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string f;
    double utime = 0, stime = 0;
    for (int i = 3; fields >> f; ++i) {
        if (i == 14) utime = std::stod(f);
        if (i == 15) {
            stime = std::stod(f);
            break;
        }
    }
    return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// A TCP connection from `source` (any address of 127/8) that sends the start
// of a request and never finishes it. -1 if it could not connect.
int half_sent_request(std::uint16_t port, const std::string& source) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, source.c_str(), &local.sin_addr);
    sockaddr_in remote{};
    remote.sin_family = AF_INET;
    remote.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
        ::connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote) != 0) {
        ::close(fd);
        return -1;
    }
    const std::string start = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    if (::send(fd, start.data(), start.size(), MSG_NOSIGNAL) < 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Whether GET `target` answers 200 before `deadline`, asking every 200 ms (a refused or
// dropped connection is simply asked again).
bool answers_by(std::uint16_t port, const std::string& target, std::chrono::steady_clock::time_point deadline,
                const std::string& source = {}) {
    for (;;) {
        try {
            if (http_get(port, target, {}, source).status == 200) return true;
        } catch (const std::exception&) {
        }
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

std::size_t count_lines(const std::string& text) {
    std::size_t n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

}  // namespace

TEST_CASE("e2e: bytes that are not UTF-8 in an archive request get a JSON error and the server plays on") {
    TestServer server;
    const auto port = server.port();
    // Each of these ended the process (nlohmann's dump() threw on invalid UTF-8, nothing caught it).
    const std::vector<std::pair<std::string, int>> attacks = {
        {"GET /api/games?%ff=1 HTTP/1.1\r\nHost: x\r\n\r\n", 400},
        {"GET /api/games?player=%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n", 200},
        {"GET /api/games?preset=a&%c3%28=2 HTTP/1.1\r\nHost: x\r\n\r\n", 400},
        {"GET /api/games/\xff\xfe/1 HTTP/1.1\r\nHost: x\r\n\r\n", 404},
        {"GET /api/games/%ff/1 HTTP/1.1\r\nHost: x\r\n\r\n", 404},
        {"GET /api/games/t1/1/\xc0\xaf HTTP/1.1\r\nHost: x\r\n\r\n", 404},
        {"GET /api/games?cursor=1/\xff/2 HTTP/1.1\r\nHost: x\r\n\r\n", 400},
    };
    for (const auto& [request, status] : attacks) {
        const std::string reply = raw_http(port, request);
        const std::string sent = request;  // clang 15 cannot capture a structured binding
        INFO(sent);
        CHECK(raw_status(reply) == status);
        const auto body = nlohmann::json::parse(raw_body(reply), nullptr, false);
        CHECK_FALSE(body.is_discarded());  // valid JSON (and UTF-8: the bad bytes became U+FFFD)
        if (status != 200) CHECK(body.contains("error"));
        REQUIRE_MESSAGE(server.running(), server.output());
    }
    CHECK(http_get(port, "/healthz").status == 200);
    CHECK(metric(port, "sparts_handler_exceptions_total") == 0);
    const auto status = server.stop(SIGTERM, kWait);
    CHECK_MESSAGE(status == 0, server.output());
}

TEST_CASE("e2e: out of file descriptors with requests that never finish, the server neither spins nor floods its "
          "log, and answers /healthz again within seconds") {
    // 256 descriptors; 300 connections from ten addresses, each sending half a
    // request. It used to spin a core on a failing accept, write millions of
    // log lines, and answer nothing until the half requests timed out (30 s).
    ChildSetup setup;
    setup.open_files_limit = 256;
    TestServer server({"--http-request-seconds", "3", "--connections-per-address", "64"}, setup);
    const auto port = server.port();
    CHECK(server.output().find("at most 192 connections") != std::string::npos);
    const double cpu_before = cpu_seconds(server.pid());
    const auto started = std::chrono::steady_clock::now();
    std::vector<int> fds;
    for (int i = 0; i < 300; ++i) {
        const int fd = half_sent_request(port, "127.0.0." + std::to_string(2 + i % 10));
        if (fd >= 0) fds.push_back(fd);
    }
    CHECK(fds.size() >= 250);  // connected (the kernel's backlog takes what the server has not accepted)
    // Within a few seconds (the request deadline and the refusals' 2 s), /healthz answers.
    const bool healthy = answers_by(port, "/healthz", started + std::chrono::seconds(20));
    CHECK(healthy);
    // (/healthz now answers at once, past the silent refusals: the CPU is measured over two seconds all the
    // same, long enough for a spinning accept loop to show.)
    std::this_thread::sleep_until(started + std::chrono::seconds(2));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // Spinning would burn a whole core for the whole time; waiting on timers burns next to nothing.
    const double cpu = cpu_seconds(server.pid()) - cpu_before;
    CHECK_MESSAGE(cpu < 0.5 * elapsed, "CPU " << cpu << " s in " << elapsed << " s");
    CHECK(count_lines(server.output()) < 100);
    // The half requests are cut at their deadline (3 s) while their senders still hold them open: after
    // that, ordinary requests are admitted again.
    const bool admitted = answers_by(port, "/metrics", started + std::chrono::seconds(30));
    CHECK(admitted);
    CHECK(metric(port, "sparts_limit_refusals_total{limit=\"connections\"}") > 0);
    for (int fd : fds) ::close(fd);
    CHECK(server.running());
}

TEST_CASE("e2e: when accept itself fails for want of descriptors, the server backs off and logs it once in a while") {
    // 64 descriptors: the database, the log and the refusals in flight leave too few for a flood of 200,
    // so accept fails with EMFILE; each failure used to be retried at once and logged.
    ChildSetup setup;
    setup.open_files_limit = 64;
    TestServer server({"--http-request-seconds", "2", "--connections-per-address", "1000"}, setup);
    const auto port = server.port();
    const double cpu_before = cpu_seconds(server.pid());
    const auto started = std::chrono::steady_clock::now();
    std::vector<int> fds;
    for (int i = 0; i < 200; ++i)
        if (const int fd = half_sent_request(port, "127.0.0." + std::to_string(40 + i % 5)); fd >= 0) fds.push_back(fd);
    std::this_thread::sleep_for(std::chrono::seconds(3));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double cpu = cpu_seconds(server.pid()) - cpu_before;
    CHECK_MESSAGE(cpu < 0.5 * elapsed, "CPU " << cpu << " s in " << elapsed << " s");
    for (int fd : fds) ::close(fd);
    // Once the flood goes, the server answers again.
    const bool healthy = answers_by(port, "/metrics", started + std::chrono::seconds(30));
    REQUIRE_MESSAGE(healthy, server.output());
    CHECK(metric(port, "sparts_accept_errors_total") > 0);
    CHECK(count_lines(server.output()) < 50);
    CHECK(server.output().find("accept:") != std::string::npos);
}

TEST_CASE("e2e: a plain HTTP request that trickles in is cut off at the request deadline") {
    TestServer server({"--http-request-seconds", "1"});
    const int fd = half_sent_request(server.port(), "127.0.0.3");
    REQUIRE(fd >= 0);
    // The server closes it: a read returns 0 (end of stream) well before our own limit.
    timeval limit{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    const auto started = std::chrono::steady_clock::now();
    char c;
    const auto n = ::recv(fd, &c, 1, 0);
    CHECK(n == 0);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(8));
    ::close(fd);
}

TEST_CASE("e2e: plain HTTP connections count toward the per-address limit, and a refused one gets a 503 while "
          "/healthz still answers") {
    TestServer server({"--connections-per-address", "3"});
    const auto port = server.port();
    std::vector<std::unique_ptr<HttpConnection>> held;
    for (int i = 0; i < 3; ++i) {
        held.push_back(std::make_unique<HttpConnection>(port, "127.0.0.9"));
        CHECK(held.back()->get("/healthz").status == 200);
    }
    // The fourth from that address: refused with a word, except for the liveness probe.
    CHECK(http_get(port, "/api/games", {}, "127.0.0.9").status == 503);
    CHECK(http_get(port, "/healthz", {}, "127.0.0.9").status == 200);
    // Another address is not affected.
    CHECK(http_get(port, "/api/games", {}, "127.0.0.10").status == 200);
    // A WebSocket from the full address is closed with 4003.
    EventLoop loop;
    TestClient ws(loop, port, "http-limit-ws", {.path = "/ws", .source = "127.0.0.9", .headers = {}});
    CHECK(ws.wait_closed() == 4003);
    held.clear();
    // Given back: the address may connect again.
    CHECK(answers_by(port, "/api/games", std::chrono::steady_clock::now() + std::chrono::seconds(10), "127.0.0.9"));
}

TEST_CASE("e2e: archive reads are limited per address, over HTTP and replay, with 429 and rate_limited") {
    TestServer server({"--archive-reads-per-minute", "3"});
    const auto port = server.port();
    for (int i = 0; i < 3; ++i) CHECK(http_get(port, "/api/games", {}, "127.0.0.4").status == 200);
    const HttpReply refused = http_get(port, "/api/games", {}, "127.0.0.4");
    CHECK(refused.status == 429);
    CHECK(!refused.header("retry-after").empty());
    CHECK(nlohmann::json::parse(refused.body).at("error") == "rate_limited");
    // A replay from the same address counts against the same budget.
    EventLoop loop;
    TestClient c(loop, port, "archive-rate", {.path = "/ws", .source = "127.0.0.4", .headers = {}});
    c.hello("reader");
    const json reply = c.request({{"type", "replay"}, {"table", "t1"}, {"game", 1}});
    CHECK(reply.at("code") == "rate_limited");
    // Another address has its own.
    CHECK(http_get(port, "/api/games", {}, "127.0.0.5").status == 200);
    CHECK(metric(port, "sparts_limit_refusals_total{limit=\"archive_reads_per_minute\"}") == 2);
}

TEST_CASE("e2e: X-Forwarded-For is believed from a trusted proxy only") {
    // 127.0.0.20 by address; the proxies of 127.0.1.0/24 by network.
    TestServer server({"--archive-reads-per-minute", "2", "--trusted-proxies", "127.0.0.20, 127.0.1.0/24"});
    const auto port = server.port();
    // From an untrusted peer the header is ignored: a client cannot pick a fresh address for each request.
    for (int i = 0; i < 2; ++i)
        CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.0.0." + std::to_string(i)}}, "127.0.0.21").status ==
              200);
    CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.0.0.9"}}, "127.0.0.21").status == 429);
    // Through the trusted proxy each client has its own budget: the right-most address not a proxy counts.
    for (int i = 0; i < 2; ++i) CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.1.1.1"}}, "127.0.0.20").status == 200);
    CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.1.1.1"}}, "127.0.0.20").status == 429);
    CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.1.1.2"}}, "127.0.0.20").status == 200);
    // What the client put further left is its own say: only the entry the proxy appended counts.
    CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "1.2.3.4, 10.1.1.1"}}, "127.0.0.20").status == 429);
    // A chain of trusted proxies (one of the network in front of the other): the first address not a proxy.
    CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.1.1.4, 127.0.1.9"}}, "127.0.0.20").status == 200);
    CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.1.1.4"}}, "127.0.1.7").status == 200);
    CHECK(http_get(port, "/api/games", {{"X-Forwarded-For", "10.1.1.4"}}, "127.0.1.8").status == 429);
    // A WebSocket through the proxy counts against the client's address.
    EventLoop loop;
    TestClient c(loop, port, "proxy-ws", {.path = "/ws", .source = "127.0.0.20", .headers = {{"X-Forwarded-For", "10.1.1.3"}}});
    c.hello("proxied");
    CHECK(c.request({{"type", "replay"}, {"table", "t1"}, {"game", 1}}).at("code") == "no_such_game");
    CHECK(c.request({{"type", "replay"}, {"table", "t1"}, {"game", 1}}).at("code") == "no_such_game");
    CHECK(c.request({{"type", "replay"}, {"table", "t1"}, {"game", 1}}).at("code") == "rate_limited");
}

TEST_CASE("e2e: X-Forwarded-For on several lines is one list: a proxy that appends its own line decides, not the "
          "client's line before it") {
    // HAProxy's `option forwardfor` adds a line of its own rather than extending the client's; RFC 9110 §5.3 makes
    // the lines one list, in order. Reading the first line alone let a client choose its address for every request.
    TestServer server({"--archive-reads-per-minute", "2", "--trusted-proxies", "127.0.0.30"});
    const auto port = server.port();
    auto through_proxy = [&](const std::string& forged, const std::string& seen) {
        return http_get(port, "/api/games", {{"X-Forwarded-For", forged}, {"X-Forwarded-For", seen}}, "127.0.0.30").status;
    };
    CHECK(through_proxy("10.9.0.1", "10.2.2.2") == 200);
    CHECK(through_proxy("10.9.0.2", "10.2.2.2") == 200);
    // A fresh forged line each time gains nothing: the proxy's line names the same client.
    CHECK(through_proxy("10.9.0.3", "10.2.2.2") == 429);
    CHECK(through_proxy("10.9.0.4, 10.9.0.5", "10.2.2.2") == 429);
    // Another client behind the same proxy has its own budget.
    CHECK(through_proxy("10.9.0.3", "10.2.2.3") == 200);
    // A WebSocket through the proxy counts against the address on the proxy's line too.
    EventLoop loop;
    TestClient c(loop, port, "proxy-ws-lines",
                 {.path = "/ws", .source = "127.0.0.30", .headers = {{"X-Forwarded-For", "10.9.9.9"}, {"X-Forwarded-For", "10.2.2.3"}}});
    c.hello("proxied");
    // 10.2.2.3 has one read left of its two: this one, then no more.
    CHECK(c.request({{"type", "replay"}, {"table", "t1"}, {"game", 1}}).at("code") == "no_such_game");
    CHECK(c.request({{"type", "replay"}, {"table", "t1"}, {"game", 1}}).at("code") == "rate_limited");
}

TEST_CASE("e2e: a finished game's pages and replays are served from the cache the second time, the same") {
    TestServer server({"--bot-delay-ms", "0", "--messages-per-second", "100000"});
    const auto port = server.port();
    EventLoop loop;
    TestClient human(loop, port, "cache-human");
    human.hello("human");
    const std::string table =
        human.request_ok(create_table("spartsel", {{"seats", 2}, {"hands", 1}})).at("table").get<std::string>();
    human.request_ok({{"type", "sit"}, {"table", table}});
    human.request_ok({{"type", "add_bot"}, {"table", table}});
    Bot me(human, table, 0, 3);
    human.request_ok({{"type", "start"}, {"table", table}});
    run_until(loop, {&me}, [&] { return me.games_over == 1; }, "game over");
    const std::string page = "/api/games/" + table + "/1";
    // The game is listed once its end is committed; wait for that.
    for (int i = 0; i < 100 && http_get(port, page).status != 200; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const double hits_before = metric(port, "sparts_archive_cache_hits_total");
    const HttpReply first = http_get(port, page);
    const HttpReply second = http_get(port, page);
    REQUIRE(first.status == 200);
    CHECK(second.body == first.body);
    CHECK(http_get(port, page + "/record").body == http_get(port, page + "/record").body);
    CHECK(metric(port, "sparts_archive_cache_hits_total") >= hits_before + 2);
    const double before_replays = metric(port, "sparts_archive_cache_hits_total");
    for (int i = 0; i < 2; ++i)
        CHECK(human.request({{"type", "replay"}, {"table", table}, {"game", 1}, {"speed", 0}}).value("type", "") == "ok");
    CHECK(metric(port, "sparts_archive_cache_hits_total") >= before_replays + 1);
}

TEST_CASE("e2e: a trusted proxy that is neither an address nor a network is refused at start") {
    const ServerRun run = run_server({"--port", "0", "--database", "none", "--trusted-proxies", "nginx"});
    CHECK(run.status == 1);
    CHECK((run.out + run.err).find("--trusted-proxies: \"nginx\"") != std::string::npos);
}

TEST_CASE("e2e: a WebSocket upgrade on /ws with a query string is served, not a 404") {
    TestServer server;
    EventLoop loop;
    TestClient c(loop, server.port(), "ws-query", {.path = "/ws?v=1&cache=abc", .source = {}, .headers = {}});
    CHECK(c.hello("query").value("type", "") == "ok");
    const std::string other = raw_http(server.port(),
                                       "GET /wsx HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    CHECK(raw_status(other) == 404);
}
