// End to end, the second round of hardening (issue 25): the host features and
// the lobby as a hostile stranger meets them, against the real process. Each
// case failed before its fix: quick play let one address fill the server, a
// refused connection flood starved /healthz, HEAD answers carried their body,
// malformed HTTP was closed without a status, and quick play on a full server
// said ok and never matched.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <string>
#include <vector>
#include "cluster.hpp"
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

json quick_play(const std::string& preset, const json& options = json::object()) {
    return {{"type", "quick_play"}, {"preset", preset}, {"options", options}};
}

std::unique_ptr<TestClient> player_from(EventLoop& loop, std::uint16_t port, const std::string& label,
                                        const std::string& source) {
    auto c = std::make_unique<TestClient>(loop, port, label, TestClient::Connect{.path = "/ws", .source = source, .headers = {}});
    REQUIRE(c->hello(label).value("type", "") == "ok");
    return c;
}

json matched(TestClient& c) {
    return c.wait_for([](const json& f) { return f.value("type", "") == "quick_play_matched"; }, "quick_play_matched");
}

// A TCP connection from `source` that sends nothing; -1 if it could not connect.
int silent_connection(std::uint16_t port, const std::string& source) {
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
    return fd;
}

// HAProxy 2.6 in front of one server, in HTTP mode with `option forwardfor`: it adds an X-Forwarded-For line of
// its own, naming the client it saw, after whatever the client sent.
class ForwardingProxy {
  public:
    explicit ForwardingProxy(std::uint16_t server_port) : port_(free_port()) {
        dir_ = (std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" /
                ("haproxy-forwardfor-" + std::to_string(::getpid()) + "-" + std::to_string(port_)))
                   .string();
        std::filesystem::create_directories(dir_);
        const std::string config = dir_ + "/haproxy.cfg";
        std::ofstream(config) << "global\n  maxconn 200\ndefaults\n  mode http\n  timeout connect 1s\n"
                                 "  timeout client 30s\n  timeout server 30s\n  option forwardfor\n"
                                 "frontend clients\n  bind 127.0.0.1:" << port_ << "\n  default_backend server\n"
                              << "backend server\n  server s 127.0.0.1:" << server_port << "\n";
        const std::string log = dir_ + "/haproxy.log";
        const pid_t parent = ::getpid();
        pid_ = ::fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(127);
            const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(fd, STDOUT_FILENO);
            ::dup2(fd, STDERR_FILENO);
            ::execlp("haproxy", "haproxy", "-db", "-f", config.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        for (int tries = 0;; ++tries) {
            const int fd = silent_connection(port_, "127.0.0.1");
            if (fd >= 0) {
                ::close(fd);
                break;
            }
            REQUIRE(tries < 200);
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
    }
    ~ForwardingProxy() {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    std::uint16_t port() const { return port_; }

  private:
    std::uint16_t port_;
    pid_t pid_ = -1;
    std::string dir_;
};

}  // namespace

TEST_CASE("e2e: behind HAProxy's option forwardfor, a client's own X-Forwarded-For line gains it nothing") {
    // HAProxy adds its line after the client's: the server read the first line only, so a client that wrote its own
    // chose its address for every request (70 WebSockets where 64 are allowed, 80 archive reads where 60 are).
    TestServer server({"--archive-reads-per-minute", "2", "--trusted-proxies", "127.0.0.1"});
    ForwardingProxy proxy(server.port());
    const std::string client = "127.0.0.44";
    int ok = 0, limited = 0;
    for (int i = 0; i < 5; ++i) {
        const int status = http_get(proxy.port(), "/api/games", {{"X-Forwarded-For", "10.77.0." + std::to_string(i)}}, client).status;
        ok += status == 200;
        limited += status == 429;
    }
    CHECK(ok == 2);
    CHECK(limited == 3);
    // Another client behind the same proxy has its own budget.
    CHECK(http_get(proxy.port(), "/api/games", {}, "127.0.0.45").status == 200);
}

TEST_CASE("e2e: quick play: a player seated at a game in progress cannot queue for another, unless the host allows "
          "it") {
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "60000"});
    EventLoop loop;
    std::vector<std::unique_ptr<TestClient>> four;
    for (int i = 0; i < 4; ++i) four.push_back(player_from(loop, server.port(), "qp-seated-" + std::to_string(i), "127.0.3.1"));
    for (auto& c : four) c->request_ok(quick_play("spades"));
    for (auto& c : four) matched(*c);
    // Straight back into the queue while their game plays: refused, and no second table.
    for (auto& c : four) {
        const json again = c->request(quick_play("spades"));
        CHECK(again.value("code", "") == "already_playing");
    }
    CHECK(metric(server.port(), "sparts_quick_play_tables_total") == 1);
    CHECK(metric(server.port(), "sparts_tables_open") == 1);
    // The refusal is logged at info (the server's log level is warn here: the metric and the code say it).

    TestServer lenient({"--messages-per-second", "100000", "--quick-play-wait-ms", "60000", "--quick-play-while-seated", "on"});
    std::vector<std::unique_ptr<TestClient>> others;
    for (int i = 0; i < 4; ++i)
        others.push_back(player_from(loop, lenient.port(), "qp-lenient-" + std::to_string(i), "127.0.3.2"));
    for (auto& c : others) c->request_ok(quick_play("spades"));
    for (auto& c : others) matched(*c);
    for (auto& c : others) c->request_ok(quick_play("spades"));
    for (auto& c : others) matched(*c);
    CHECK(metric(lenient.port(), "sparts_quick_play_tables_total") == 2);
}

TEST_CASE("e2e: quick play's tables count against their players' address: one address cannot fill the server") {
    // Allowed to queue while seated (the host's choice), four players of one address matched again and again:
    // before the fix each match made a table counted against nobody, 299 in 36 s up to --max-tables.
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "60000", "--quick-play-while-seated",
                       "on", "--tables-per-address", "6", "--tables-per-player", "100", "--max-tables", "20"});
    EventLoop loop;
    std::vector<std::unique_ptr<TestClient>> four;
    for (int i = 0; i < 4; ++i) four.push_back(player_from(loop, server.port(), "qp-fill-" + std::to_string(i), "127.0.4.1"));
    int tables = 0;
    std::string refusal;
    for (int round = 0; round < 10 && refusal.empty(); ++round) {
        std::vector<json> replies;
        for (auto& c : four) replies.push_back(c->request(quick_play("spades")));
        for (const json& r : replies)
            if (r.value("type", "") == "error") refusal = r.value("code", "");
        if (!refusal.empty()) break;
        for (auto& c : four) matched(*c);
        ++tables;
    }
    CHECK(refusal == "too_many_tables_from_address");
    // Tables and waiting players together never pass the address's limit: three tables, then three of the four
    // queued (six places) and the fourth refused.
    CHECK(tables == 3);
    CHECK(metric(server.port(), "sparts_tables_open") == 3);
    // Whoever waits from that address holds a place too: nobody more may queue from it, for any game.
    auto fifth = player_from(loop, server.port(), "qp-fill-late", "127.0.4.1");
    CHECK(fifth->request(quick_play("sparts")).value("code", "") == "too_many_tables_from_address");
    // Nor create a table.
    CHECK(fifth->request({{"type", "create_table"}, {"ruleset", {{"preset", "spades"}}}}).value("code", "") ==
          "too_many_tables_from_address");
    // A stranger of another address is not held up by it: it creates a table, and quick play matches it.
    auto stranger = player_from(loop, server.port(), "qp-stranger", "127.0.4.2");
    CHECK(stranger->request({{"type", "create_table"}, {"ruleset", {{"preset", "spades"}}}}).value("type", "") == "ok");
    std::vector<std::unique_ptr<TestClient>> others;
    for (int i = 0; i < 4; ++i)
        others.push_back(player_from(loop, server.port(), "qp-others-" + std::to_string(i), "127.0.4." + std::to_string(10 + i)));
    // (A game of its own: three of the address's players still wait for plain Spades.)
    for (auto& c : others) c->request_ok(quick_play("spades", {{"target_score", 300}}));
    for (auto& c : others) matched(*c);
}

TEST_CASE("e2e: quick play on a full server is refused with server_full, not accepted and never matched") {
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "200", "--max-tables", "1"});
    EventLoop loop;
    auto host = player_from(loop, server.port(), "full-host", "127.0.5.1");
    host->request_ok({{"type", "create_table"}, {"ruleset", {{"preset", "spades"}}}});
    auto late = player_from(loop, server.port(), "full-late", "127.0.5.2");
    const json reply = late->request(quick_play("spades"));
    CHECK(reply.value("type", "") == "error");
    CHECK(reply.value("code", "") == "server_full");
    // Nothing was queued: a cancel finds nothing to cancel.
    CHECK(late->request({{"type", "quick_play_cancel"}}).value("code", "") == "not_queued");
}

TEST_CASE("e2e: /healthz is answered at --max-connections while silent refused connections are held from many "
          "addresses") {
    // Two connections in all, both taken; then silent connections from a hundred addresses, each refused and held
    // open. Before the fix the refusals in flight filled up with silent ones and 98 of 100 probes were closed
    // unanswered: a supervisor would have restarted a live server, and every game with it.
    TestServer server({"--max-connections", "2", "--http-request-seconds", "30"});
    const auto port = server.port();
    std::vector<int> held;
    for (int i = 0; i < 2; ++i) held.push_back(silent_connection(port, "127.0.6." + std::to_string(i + 1)));
    int answered = 0;
    for (int probe = 0; probe < 100; ++probe) {
        for (int k = 0; k < 3; ++k) {
            const int fd = silent_connection(port, "127.0.7." + std::to_string(1 + (probe * 3 + k) % 250));
            if (fd >= 0) held.push_back(fd);
        }
        try {
            if (http_get(port, "/healthz", {}, "127.0.8." + std::to_string(1 + probe % 250)).status == 200) ++answered;
        } catch (const std::exception&) {
        }
    }
    CHECK(answered == 100);
    // Anything else is still refused: a 503 for a request that arrives, never a way in.
    const std::string other = raw_http(port, "GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n", std::chrono::seconds(5));
    CHECK((raw_status(other) == 503 || other.empty()));
    for (int fd : held)
        if (fd >= 0) ::close(fd);
}

TEST_CASE("e2e: HEAD answers send headers only, so a keep-alive connection reads the next answer whole") {
    TestServer server;
    const auto port = server.port();
    for (const std::string path : {"/healthz", "/readyz", "/metrics", "/api/games", "/", "/nowhere"}) {
        INFO(path);
        // HEAD then GET on one connection: the GET's status line must come right after the HEAD's headers.
        const std::string both = raw_http(port,
                                          "HEAD " + path + " HTTP/1.1\r\nHost: x\r\n\r\n" +
                                              "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                                          std::chrono::seconds(10));
        const auto first_end = both.find("\r\n\r\n");
        REQUIRE(first_end != std::string::npos);
        CHECK(both.compare(first_end + 4, 9, "HTTP/1.1 ") == 0);
        CHECK(both.find("HTTP/1.1 200", first_end) == first_end + 4);
        // The HEAD's Content-Length is the GET's, though no body follows it.
        if (path == "/healthz") CHECK(both.find("Content-Length: 3\r\n") < first_end);
        CHECK(raw_body(both.substr(first_end + 4)) == "ready\n");
    }
}

TEST_CASE("e2e: a request that is not HTTP/1.1 as RFC 9112 has it gets a status that says why, then the connection "
          "closes") {
    TestServer server;
    const auto port = server.port();
    auto status_of = [&](const std::string& bytes) { return raw_status(raw_http(port, bytes, std::chrono::seconds(10))); };
    // Headers over 8 KiB: 431.
    CHECK(status_of("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n") == 431);
    // A Content-Length that is not digits alone: 400.
    CHECK(status_of("POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello") == 400);
    // A version this port does not speak: 505.
    CHECK(status_of("GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n") == 505);
    // A NUL or a lone CR in a header: 400.
    CHECK(status_of(std::string("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n", 42)) == 400);
    CHECK(status_of("GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n") == 400);
    // A body over 8 KiB: 413.
    CHECK(status_of("POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 9000\r\n\r\n" + std::string(9000, 'b')) == 413);
    // A last transfer coding that is not chunked: 400, and the request pipelined behind it is not swallowed as
    // its body (the connection closes instead).
    const std::string gzip = raw_http(port,
                                      "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"
                                      "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n",
                                      std::chrono::seconds(10));
    CHECK(raw_status(gzip) == 400);
    CHECK(gzip.find("ready\n") == std::string::npos);
    // The server plays on.
    CHECK(http_get(port, "/healthz").status == 200);
}

TEST_CASE("e2e: a target in absolute form is served as its path, and Expect: 100-continue is answered 100") {
    TestServer server;
    const auto port = server.port();
    const std::string absolute = raw_http(port, "GET http://example.org/healthz HTTP/1.1\r\nHost: example.org\r\n"
                                                "Connection: close\r\n\r\n");
    CHECK(raw_status(absolute) == 200);
    CHECK(raw_body(absolute) == "ok\n");
    CHECK(raw_status(raw_http(port, "GET http://example.org:8080/api/games?limit=1 HTTP/1.1\r\nHost: x\r\n"
                                    "Connection: close\r\n\r\n")) == 200);

    // The client sends its headers and waits for the 100 before the body.
    const int fd = silent_connection(port, "127.0.0.1");
    REQUIRE(fd >= 0);
    const std::string head =
        "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n";
    REQUIRE(::send(fd, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size()));
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[256];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    REQUIRE(n > 0);
    CHECK(std::string(buf, static_cast<std::size_t>(n)).rfind("HTTP/1.1 100 Continue\r\n\r\n", 0) == 0);
    ::send(fd, "{}", 2, MSG_NOSIGNAL);
    std::string rest;
    for (ssize_t m; (m = ::recv(fd, buf, sizeof buf, 0)) > 0;) rest.append(buf, static_cast<std::size_t>(m));
    ::close(fd);
    CHECK(raw_status(rest) == 405);  // the request itself was read whole and answered (POST /healthz: only GET)
}

TEST_CASE("e2e: list_tables is paged and capped: a lobby of many tables answers every client, a page at a time") {
    // A write queue of 32 KiB: before the fix, two hundred public tables made a list_tables reply larger than it,
    // and every lobby client that asked was closed with 4002 before any answer (290 tables at the default 256 KiB).
    TestServer server({"--messages-per-second", "100000", "--tables-per-player", "1000", "--write-queue-bytes", "32768"});
    EventLoop loop;
    TestClient host(loop, server.port(), "list-host");
    host.hello("A host with a rather long name");
    std::vector<std::string> made;
    for (int i = 0; i < 200; ++i) {
        const json ruleset = i % 2 ? json{{"preset", "spades"}} : json{{"preset", "sparts"}, {"options", {{"seats", 5}}}};
        made.push_back(host.request_ok({{"type", "create_table"}, {"ruleset", ruleset}}).at("table").get<std::string>());
    }
    host.request_ok({{"type", "create_table"}, {"ruleset", {{"preset", "spades"}}}, {"private", true}});

    TestClient lobby(loop, server.port(), "list-lobby");
    lobby.hello("Lobby");
    // The first page: 50 tables by default, the oldest first, with the count and the cursor of the next.
    const json first = lobby.request_ok({{"type", "list_tables"}, {"open", false}});
    CHECK(first.at("tables").size() == 50);
    CHECK(first.at("total") == 200);
    REQUIRE(first.contains("next"));
    CHECK(first.at("tables")[0].at("table") == made[0]);
    // Following the cursors shows every public table once, in order, and the private one never.
    std::vector<std::string> seen;
    json page = first;
    for (int pages = 1;; ++pages) {
        REQUIRE(pages < 20);
        for (const auto& t : page.at("tables")) seen.push_back(t.at("table").get<std::string>());
        if (!page.contains("next")) break;
        page = lobby.request_ok({{"type", "list_tables"}, {"open", false}, {"after", page.at("next")}});
    }
    CHECK(seen == made);
    // A hundred asked: the reply stops before half the write queue, and says where to go on.
    const json big = lobby.request_ok({{"type", "list_tables"}, {"open", false}, {"limit", 100}});
    CHECK(big.at("tables").size() < 100);
    CHECK(big.at("tables").size() > 10);
    CHECK(big.dump().size() < 16384);  // half the write queue
    CHECK(big.contains("next"));
    // Filters and pages together: the spades tables only, ten at a time.
    const json spades = lobby.request_ok({{"type", "list_tables"}, {"preset", "spades"}, {"limit", 10}});
    CHECK(spades.at("total") == 100);
    CHECK(spades.at("tables").size() == 10);
    for (const auto& t : spades.at("tables")) CHECK(t.at("ruleset").at("preset") == "spades");
    const json five_seats = lobby.request_ok({{"type", "list_tables"}, {"seats", 5}, {"limit", 100}});
    CHECK(five_seats.at("total") == 100);
    for (const auto& t : five_seats.at("tables")) CHECK(t.at("seats").size() == 5);
    // A cursor past the last table: an empty last page.
    const json past = lobby.request_ok({{"type", "list_tables"}, {"after", "t99999"}});
    CHECK(past.at("tables").empty());
    CHECK_FALSE(past.contains("next"));
    // Bad pages are refused, naming the field.
    for (const json& bad : {json{{"type", "list_tables"}, {"limit", 0}}, json{{"type", "list_tables"}, {"limit", 101}},
                            json{{"type", "list_tables"}, {"limit", "ten"}}, json{{"type", "list_tables"}, {"after", "x1"}},
                            json{{"type", "list_tables"}, {"after", 5}}, json{{"type", "list_tables"}, {"after", "t01"}}}) {
        const json r = lobby.request(bad);
        INFO(bad.dump());
        CHECK(r.value("code", "") == "bad_message");
        CHECK(r.value("field", "") == (bad.contains("limit") ? "limit" : "after"));
    }
    // Many lobby clients asking at once are each answered, none closed.
    std::vector<std::unique_ptr<TestClient>> crowd;
    for (int i = 0; i < 20; ++i) {
        crowd.push_back(std::make_unique<TestClient>(loop, server.port(), "list-crowd-" + std::to_string(i)));
        crowd.back()->hello("Crowd");
    }
    for (auto& c : crowd) c->send({{"type", "list_tables"}, {"id", 77}, {"open", false}, {"limit", 100}});
    for (auto& c : crowd) {
        const json r = c->wait_for([](const json& f) { return f.value("re", "") == "list_tables"; }, "the list");
        CHECK(r.value("type", "") == "ok");
        CHECK_FALSE(c->closed());
    }
}
