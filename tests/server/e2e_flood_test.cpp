// End to end, floods of creation against the real process: new players per
// address a minute, open tables per address and in all, each refused with its
// own error; and memory that comes back once the flood is over (closed tables
// and idle players freed, a returning player read back from the store).
#include <doctest/doctest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {


// Waits up to `limit` for `series` to reach `value` (or below, when `at_most`).
bool wait_metric(std::uint16_t port, const std::string& series, double value, std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    for (;;) {
        if (metric(port, series) <= value) return true;
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

// The server is built like this test (the same build folder): under a sanitizer its memory is
// the sanitizer's allocator's, and RSS cannot come back. ASan keeps freed memory in its
// quarantine; TSan's allocator keeps freed blocks in its caches, ignores malloc_trim, and
// adds shadow memory for everything touched at the peak.
// GCC says so with __SANITIZE_*__, clang with __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SPARTS_SANITIZER_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(SPARTS_SANITIZER_ALLOCATOR)
constexpr bool kSanitizerAllocator = true;
#else
constexpr bool kSanitizerAllocator = false;
#endif

}  // namespace

TEST_CASE("e2e: new players per address a minute are limited, a returning player is not") {
    TestServer server({"--players-per-address-per-minute", "3"});
    EventLoop loop;
    std::vector<std::unique_ptr<TestClient>> clients;
    std::string token;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<TestClient>(loop, server.port(), "newp-" + std::to_string(i)));
        CHECK(clients.back()->hello("p" + std::to_string(i)).value("type", "") == "ok");
        token = clients.back()->token();
    }
    TestClient fourth(loop, server.port(), "newp-3");
    const json refused = fourth.request({{"type", "hello"}, {"protocol", 1}, {"name", "p3"}});
    CHECK(refused.at("code") == "too_many_new_players");
    // The connection may still say hello, with a token: coming back costs nothing.
    CHECK(fourth.hello("p2 again", token).value("type", "") == "ok");
    CHECK(fourth.player() == clients[2]->player());
    // Another address is not affected.
    TestClient other(loop, server.port(), "newp-other", {.path = "/ws", .source = "127.0.0.30", .headers = {}});
    CHECK(other.hello("elsewhere").value("type", "") == "ok");
    CHECK(metric(server.port(), "sparts_limit_refusals_total{limit=\"players_per_address_per_minute\"}") == 1);
}

TEST_CASE("e2e: open tables per address and in all are limited, each with its own error, and given back on close") {
    TestServer server({"--tables-per-address", "3", "--tables-per-player", "100", "--max-tables", "5",
                       "--table-grace", "1"});
    EventLoop loop;
    TestClient a(loop, server.port(), "tables-a");
    TestClient b(loop, server.port(), "tables-b");  // the same address, another player
    a.hello("a");
    b.hello("b");
    for (int i = 0; i < 2; ++i) a.request_ok(create_table("spades"));
    b.request_ok(create_table("spades"));
    CHECK(b.request(create_table("spades")).at("code") == "too_many_tables_from_address");
    CHECK(a.request(create_table("spades")).at("code") == "too_many_tables_from_address");
    TestClient c(loop, server.port(), "tables-c", {.path = "/ws", .source = "127.0.0.31", .headers = {}});
    c.hello("c");
    c.request_ok(create_table("spades"));
    c.request_ok(create_table("spades"));
    CHECK(c.request(create_table("spades")).at("code") == "server_full");
    CHECK(metric(server.port(), "sparts_limit_refusals_total{limit=\"tables_per_address\"}") == 2);
    CHECK(metric(server.port(), "sparts_limit_refusals_total{limit=\"max_tables\"}") == 1);
    // Nobody sits: after the grace period every table closes, and the limits are given back.
    REQUIRE(wait_metric(server.port(), "sparts_tables_open", 0, std::chrono::seconds(30)));
    const json again = a.request(create_table("spades"));
    CHECK(again.value("type", "") == "ok");
}

TEST_CASE("e2e: after a flood of players and tables, closed tables and idle players are freed and memory comes "
          "back, and a freed player's token still works") {
    // Tables with nobody seated close after the grace period: long enough that the flood's tables are
    // all open at its peak, short enough for a test.
    TestServer server({"--players-per-address-per-minute", "100000", "--tables-per-address", "100000",
                       "--max-tables", "100000", "--table-grace", "15", "--player-idle-seconds", "1",
                       "--messages-per-second", "100000"});
    const auto port = server.port();
    EventLoop loop;
    {
        TestClient warm(loop, port, "flood-warm");
        warm.hello("warm");
        warm.request_ok(create_table("spades"));
    }
    REQUIRE(wait_metric(port, "sparts_tables_open", 0, std::chrono::seconds(60)));
    REQUIRE(wait_metric(port, "sparts_players_in_memory", 0, std::chrono::seconds(30)));
    const double baseline = metric(port, "process_resident_memory_bytes");

    // The flood: a player and a table for each of many connections, one after another. Under a
    // sanitizer, whose allocator keeps what is freed (no RSS check), a third of it shows the freeing.
    constexpr int kPlayers = kSanitizerAllocator ? 1000 : 3000;
    std::string first_token, first_player;
    std::vector<std::unique_ptr<TestClient>> open;
    for (int i = 0; i < kPlayers; ++i) {
        open.push_back(std::make_unique<TestClient>(loop, port, "flood"));
        TestClient& c = *open.back();
        REQUIRE(c.hello("flood " + std::to_string(i)).value("type", "") == "ok");
        if (i == 0) first_token = c.token(), first_player = c.player();
        c.request_ok(create_table("spades"));
        if (open.size() == 50) open.clear();  // keep within the per-address connection limit
    }
    open.clear();
    const double peak = metric(port, "process_resident_memory_bytes");
    CHECK(metric(port, "sparts_players_in_memory") > 0);
    CHECK(metric(port, "sparts_tables_open") > 0);

    // Everything closes and is freed: the tables after their grace, the players a second after.
    CHECK(wait_metric(port, "sparts_tables_open", 0, std::chrono::seconds(60)));
    CHECK(wait_metric(port, "sparts_players_in_memory", 0, std::chrono::seconds(60)));
    CHECK(metric(port, "sparts_players_dropped_total") >= kPlayers);
    const double after = metric(port, "process_resident_memory_bytes");
    MESSAGE("RSS: baseline " << baseline / 1e6 << " MB, peak " << peak / 1e6 << " MB, after " << after / 1e6 << " MB");
    if (!kSanitizerAllocator) CHECK(after - baseline < 0.5 * (peak - baseline) + 4e6);

    // A freed player's token still works: it is read back from the store, with its id.
    TestClient back(loop, port, "flood-back");
    CHECK(back.hello("back", first_token).value("type", "") == "ok");
    CHECK(back.player() == first_player);
}
