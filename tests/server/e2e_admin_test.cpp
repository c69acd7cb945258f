// End to end: the admin API (server/admin/admin_api.hpp) against the real server and
// real clients. Without --admin-token-file it does not exist; with it, a wrong
// or missing token is refused (401, counted) and a guessing address stopped
// (429); each endpoint does what it says to the tables and connections of
// real clients (a table closed mid-game, a player removed mid-game whose seat
// a bot plays to the end, a ban that closes connections, refuses hellos and
// survives a restart on SQLite and on PostgreSQL, a broadcast); bad requests
// change nothing; every action is counted and logged, the token never.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>
#include "http_client.hpp"
#include "support/postgres.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

// 64 hex digits, as `openssl rand -hex 32` makes them.
const std::string kToken = "5f1c0e9a7b3d42e6a8c1f0d9b7e5a3c2d4f6e8a0b2c4d6e8f0a1b3c5d7e9f1a3";

// A token file of this test process (mode 600), with `text` in it.
std::string token_file(const std::string& name, const std::string& text = kToken + "\n") {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db";
    std::filesystem::create_directories(dir);
    const auto path = (dir / ("admin-token-" + name + "-" + std::to_string(::getpid()))).string();
    std::ofstream(path, std::ios::trunc) << text;
    ::chmod(path.c_str(), 0600);
    return path;
}

Headers bearer(const std::string& token = kToken) { return {{"Authorization", "Bearer " + token}}; }

HttpReply admin(std::uint16_t port, const std::string& method, const std::string& target, const std::string& body = {},
                const std::string& source = {}) {
    return http_request(port, method, target, body, bearer(), source);
}

json body_of(const HttpReply& r) {
    const json j = json::parse(r.body, nullptr, false);
    if (j.is_discarded()) FAIL("not JSON: " << r.body);
    return j;
}

// An error answer: the archive's shape, {"error", "message"} and nothing else, with this code.
void check_error(const HttpReply& r, int status, const std::string& code) {
    CAPTURE(r.body);
    CHECK(r.status == status);
    CHECK(r.header("content-type") == "application/json");
    const json j = body_of(r);
    CHECK(j.size() == 2);
    CHECK(j.value("error", "") == code);
    CHECK(j.contains("message"));
}

double admin_metric(std::uint16_t port, const std::string& action) {
    return metric(port, "sparts_admin_actions_total{action=\"" + action + "\"}");
}

// The frames `c` has received so far that are announcements.
std::size_t announcements(const TestClient& c) {
    return static_cast<std::size_t>(std::count_if(c.received().begin(), c.received().end(),
                                                  [](const json& f) { return f.value("type", "") == "announcement"; }));
}

const json* seat_of(const json& table, int seat) {
    for (const auto& s : table.at("seats"))
        if (s.at("seat") == seat) return &s;
    return nullptr;
}

}  // namespace

TEST_CASE("e2e: admin API absent without --admin-token-file: its paths answer as any unknown path does") {
    TestServer server;
    for (const std::string method : {"GET", "POST", "DELETE"}) {
        CAPTURE(method);
        const HttpReply unknown = http_request(server.port(), method, "/nowhere/tables", "", bearer());
        for (const std::string path : {"/admin/tables", "/admin/bans", "/admin/bans/p0123456789abcdef", "/admin"}) {
            CAPTURE(path);
            const HttpReply r = http_request(server.port(), method, path, method == "POST" ? R"({"text":"hi"})" : "", bearer());
            CHECK(r.status == unknown.status);
            CHECK(r.body == unknown.body);
            CHECK(r.header("www-authenticate").empty());
        }
    }
    CHECK(http_get(server.port(), "/admin/tables", bearer()).status == 404);
    CHECK(http_request(server.port(), "POST", "/admin/broadcast", R"({"text":"hi"})", bearer()).status == 405);
    CHECK(metric(server.port(), "sparts_admin_auth_failures_total") == 0);
}

TEST_CASE("e2e: admin token settings: a short token or a missing file stop the start, and the environment or a "
          "settings file give the token too") {
    const ServerRun short_token =
        run_server({"--port", "0", "--database", "none", "--admin-token-file", token_file("short", "abc123\n")});
    REQUIRE(short_token.status.has_value());
    CHECK(*short_token.status == 1);
    CHECK(short_token.out.find("listening on") == std::string::npos);
    CHECK((short_token.out + short_token.err).find("--admin-token-file") != std::string::npos);
    CHECK((short_token.out + short_token.err).find("at least 32") != std::string::npos);

    const ServerRun spaced = run_server(
        {"--port", "0", "--database", "none", "--admin-token-file", token_file("spaced", "0123456789abcdef 0123456789abcdef\n")});
    REQUIRE(spaced.status.has_value());
    CHECK(*spaced.status == 1);

    const ServerRun missing =
        run_server({"--port", "0", "--database", "none", "--admin-token-file", "/nonexistent/admin-token"});
    REQUIRE(missing.status.has_value());
    CHECK(*missing.status == 1);
    CHECK((missing.out + missing.err).find("/nonexistent/admin-token") != std::string::npos);

    {
        ChildSetup env;
        env.env.push_back("SPARTS_ADMIN_TOKEN_FILE=" + token_file("env"));
        TestServer server({}, env);
        CHECK(http_get(server.port(), "/admin/tables", bearer()).status == 200);
        CHECK(http_get(server.port(), "/admin/tables").status == 401);
    }
    {
        const auto settings = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db" /
                              ("admin-settings-" + std::to_string(::getpid()) + ".conf");
        std::ofstream(settings) << "# the operator's settings\nadmin-token-file = " << token_file("conf") << "\n";
        TestServer server({"--config", settings.string()});
        CHECK(http_get(server.port(), "/admin/tables", bearer()).status == 200);
    }
}

TEST_CASE("e2e: admin without the right token: 401 with WWW-Authenticate, counted, and past the limit 429 for "
          "failures only: the right token from the same address is still served") {
    TestServer server({"--admin-token-file", token_file("auth"), "--admin-auth-failures-per-minute", "10"});
    const std::uint16_t port = server.port();
    const std::string guesser = "127.0.0.9";

    const HttpReply none = http_request(port, "GET", "/admin/tables", "", {}, guesser);
    check_error(none, 401, "unauthorized");
    CHECK(none.header("www-authenticate").rfind("Bearer", 0) == 0);
    CHECK(metric(port, "sparts_admin_auth_failures_total") == 1);

    const HttpReply wrong = http_request(port, "GET", "/admin/tables", "", bearer(kToken.substr(0, 63) + "0"), guesser);
    check_error(wrong, 401, "unauthorized");
    CHECK(wrong.header("www-authenticate").find("invalid_token") != std::string::npos);
    check_error(http_request(port, "POST", "/admin/broadcast", R"({"text":"x"})", {{"Authorization", "Basic " + kToken}}, guesser),
                401, "unauthorized");
    check_error(http_request(port, "DELETE", "/admin/bans/p0123456789abcdef", "", bearer(kToken + "x"), guesser), 401,
                "unauthorized");
    // Not even an unknown admin path is told apart before the token is right.
    check_error(http_request(port, "GET", "/admin/secrets", "", bearer("nope"), guesser), 401, "unauthorized");
    CHECK(metric(port, "sparts_admin_auth_failures_total") == 5);
    // The right token, in any case of the scheme, from the same address: the failures so far do not stop it.
    CHECK(http_request(port, "GET", "/admin/tables", "", {{"Authorization", "bEaReR " + kToken}}, guesser).status == 200);

    // Guessing on: the 10th failure is the last answered 401, then 429 for every wrong or missing token.
    for (int i = 5; i < 10; ++i)
        CHECK(http_request(port, "GET", "/admin/tables", "", bearer("guess" + std::to_string(i)), guesser).status == 401);
    CHECK(metric(port, "sparts_admin_auth_failures_total") == 10);
    const HttpReply stopped = http_request(port, "GET", "/admin/tables", "", bearer("guess10"), guesser);
    check_error(stopped, 429, "rate_limited");
    CHECK(std::stoi(stopped.header("retry-after")) >= 1);
    check_error(http_request(port, "GET", "/admin/tables", "", {}, guesser), 429, "rate_limited");
    CHECK(metric(port, "sparts_admin_auth_failures_total") == 10);  // refused unanswered: not counted as failures
    CHECK(metric(port, "sparts_limit_refusals_total{limit=\"admin_auth_failures_per_minute\"}") == 2);
    // The operator behind the same address (a NAT, an office) is not locked out by the guesser: the token is
    // compared first, and only failures are limited.
    CHECK(http_request(port, "GET", "/admin/tables", "", bearer(), guesser).status == 200);
    CHECK(http_request(port, "POST", "/admin/broadcast", R"({"text":"still here"})", bearer(), guesser).status == 200);
    check_error(http_request(port, "GET", "/admin/tables", "", bearer("guess11"), guesser), 429, "rate_limited");
    // Another address is not held up by this one.
    CHECK(http_request(port, "GET", "/admin/tables", "", bearer(), "127.0.0.10").status == 200);
    // And the public side is not either.
    CHECK(http_request(port, "GET", "/healthz", "", {}, guesser).status == 200);
}

TEST_CASE("e2e: admin lists the open tables and the connections of real clients") {
    TestServer server({"--admin-token-file", token_file("list"), "--bot-delay-ms", "0"});
    const std::uint16_t port = server.port();
    EventLoop loop;
    TableGame g = set_up_table(loop, port, "admin-list", create_table("sparts"), 4, 1, 7);
    TestClient lurker(loop, port, "admin-list-nohello");  // connected, no hello yet
    REQUIRE(lurker.request({{"type", "ping"}}).at("type") == "ok");

    json tables = body_of(admin(port, "GET", "/admin/tables"));
    REQUIRE(tables.at("tables").size() == 1);
    json t = tables.at("tables")[0];
    CHECK(t.at("table") == g.table);
    CHECK(t.at("preset") == "sparts");
    CHECK(t.at("state") == "waiting");
    CHECK(t.at("game") == 0);
    CHECK(t.at("spectators") == 1);
    CHECK(t.at("private") == false);
    CHECK(t.at("creator") == g.clients[0]->player());
    REQUIRE(t.at("seats").size() == 4);
    for (int s = 0; s < 4; ++s) {
        const json& seat = *seat_of(t, s);
        CHECK(seat.at("player") == g.clients[static_cast<std::size_t>(s)]->player());
        CHECK(seat.at("name") == "admin-list s" + std::to_string(s));
        CHECK(seat.at("bot") == false);
        CHECK(seat.at("connected") == true);
    }

    // Seat 3 goes, a bot takes it; the game starts; seat 2's connection drops.
    g.clients[3]->request_ok({{"type", "leave"}, {"table", g.table}});
    g.clients[0]->request_ok({{"type", "add_bot"}, {"table", g.table}, {"seat", 3}});
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    g.clients[2]->drop();
    json seat2;
    for (int tries = 0; tries < 200; ++tries) {
        t = body_of(admin(port, "GET", "/admin/tables")).at("tables")[0];
        seat2 = *seat_of(t, 2);
        if (seat2.at("connected") == false) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    CHECK(seat2.at("connected") == false);
    CHECK(seat2.at("player") == g.clients[2]->player());
    CHECK(t.at("state") == "playing");
    CHECK(t.at("game") == 1);
    CHECK(seat_of(t, 3)->at("bot") == true);
    CHECK(seat_of(t, 3)->at("player").is_null());
    CHECK(seat_of(t, 3)->at("connected") == false);

    const json connections = body_of(admin(port, "GET", "/admin/connections")).at("connections");
    std::map<std::string, json> by_player;
    int anonymous = 0;
    for (const auto& c : connections) {
        CHECK(c.at("address") == "127.0.0.1");
        CHECK(c.at("connected_at").get<std::int64_t>() > 1'600'000'000'000);
        if (c.at("player").is_null()) ++anonymous;
        else by_player[c.at("player").get<std::string>()] = c;
    }
    CHECK(anonymous == 1);  // the lurker
    CHECK(by_player.size() == 4);  // seats 0, 1, the spectator, and seat 3's player (no table now)
    CHECK(!by_player.count(g.clients[2]->player()));  // dropped
    const json s0 = by_player.at(g.clients[0]->player());
    CHECK(s0.at("name") == "admin-list s0");
    CHECK(s0.at("tables") == json::array({{{"table", g.table}, {"seat", 0}}}));
    CHECK(by_player.at(g.clients[4]->player()).at("tables") == json::array({{{"table", g.table}, {"seat", nullptr}}}));
    CHECK(by_player.at(g.clients[3]->player()).at("tables") == json::array());
    CHECK(admin_metric(port, "list_tables") >= 2);
    CHECK(admin_metric(port, "list_connections") == 1);
}

TEST_CASE("e2e: admin closes a table mid-game: its clients get table_closed closed_by_admin, and it stays closed") {
    const std::string db = fresh_database_path("admin-close");
    const std::string token = token_file("close");
    std::string table;
    {
        TestServer server({"--database", db, "--admin-token-file", token, "--bot-delay-ms", "0"});
        const std::uint16_t port = server.port();
        EventLoop loop;
        TableGame g = set_up_table(loop, port, "admin-close", create_table("spades"), 4, 1, 11);
        table = g.table;
        g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
        run_until(loop, g.all(), [&] { return g.seat(0).actions >= 2; }, "a few actions");
        // Nobody acts while the table closes: a request in flight would rightly be refused.
        for (auto& b : g.bots) b->acting = false;
        run_until(loop, g.all(), [&] { return std::none_of(g.bots.begin(), g.bots.end(), [](const auto& b) { return b->awaiting(); }); },
                  "the actions in flight answered");

        const HttpReply closed = admin(port, "POST", "/admin/tables/" + g.table + "/close");
        CAPTURE(closed.body);
        REQUIRE(closed.status == 200);
        CHECK(body_of(closed) == json{{"table", g.table}, {"closed", true}});
        for (auto& c : g.clients) {
            const json f = c->wait_for([](const json& x) { return is_event(x, "table_closed"); }, "table_closed");
            CHECK(event_of(f).at("reason") == "closed_by_admin");
        }
        for (auto& b : g.bots)
            for (const auto& p : b->problems) FAIL_CHECK(p);
        CHECK(g.clients[1]->request({{"type", "sit"}, {"table", g.table}}).at("code") == "no_such_table");
        CHECK(body_of(admin(port, "GET", "/admin/tables")).at("tables").empty());
        check_error(admin(port, "POST", "/admin/tables/" + g.table + "/close"), 404, "no_such_table");
        check_error(admin(port, "POST", "/admin/tables/t999/close"), 404, "no_such_table");
        CHECK(admin_metric(port, "close_table") == 1);
        CHECK(stop_server(server, loop) == 0);
    }
    // Closed in the store as an abandoned table is: it does not come back.
    TestServer again({"--database", db, "--admin-token-file", token});
    EventLoop loop;
    TestClient c(loop, again.port(), "admin-close-after");
    c.hello("after");
    CHECK(c.request({{"type", "watch"}, {"table", table}}).at("code") == "no_such_table");
    CHECK(body_of(admin(again.port(), "GET", "/admin/tables")).at("tables").empty());
}

TEST_CASE("e2e: admin removes a player mid-game: a bot plays the seat to game over, the player is told and may not "
          "sit again") {
    TestServer server({"--admin-token-file", token_file("remove"), "--bot-delay-ms", "0"});
    const std::uint16_t port = server.port();
    EventLoop loop;
    TableGame g = set_up_table(loop, port, "admin-remove", create_table("sparts", {{"hands", 1}}), 4, 1, 23);
    Bot& gone = g.seat(1);
    const std::string player = g.clients[1]->player();
    gone.pause_when = [](const Bot&) { return true; };  // seat 1 holds its turn: the test takes it away
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    run_until(loop, g.all(), [&] { return gone.ready(); }, "seat 1's turn");

    check_error(admin(port, "POST", "/admin/tables/" + g.table + "/remove", R"({"player":"p0000000000000000"})"), 404,
                "not_seated");
    const HttpReply removed = admin(port, "POST", "/admin/tables/" + g.table + "/remove", json{{"player", player}}.dump());
    CAPTURE(removed.body);
    REQUIRE(removed.status == 200);
    CHECK(body_of(removed) == json{{"table", g.table}, {"player", player}, {"seat", 1}, {"bot", true}});

    // The removed player's connection is told, in the table's event stream.
    const json left = g.clients[1]->wait_for([](const json& f) { return is_event(f, "seat_left"); }, "seat_left");
    CHECK(event_of(left) == json{{"type", "seat_left"}, {"seat", 1}, {"reason", "removed_by_admin"}});
    // The others see the seat go and a bot take it, and play on with it to the end.
    std::vector<Bot*> rest = {&g.seat(0), &g.seat(2), &g.seat(3), g.bots[4].get()};
    run_until(loop, rest, [&] { return std::all_of(rest.begin(), rest.end(), [](Bot* b) { return b->games_over >= 1; }); },
              "game over without seat 1's player");
    for (Bot* b : rest) {
        for (const auto& p : b->problems) FAIL_CHECK(p);
        const auto taken = std::find_if(b->events.begin(), b->events.end(), [](const json& f) {
            return is_event(f, "seat_taken") && event_of(f).at("seat") == 1 && event_of(f).at("bot") == true;
        });
        CHECK(taken != b->events.end());
    }
    // The removed player heard nothing more of the table after its seat_left (a round trip first:
    // anything sent to it before the reply has arrived), and may not sit again; watching is allowed.
    REQUIRE(g.clients[1]->request({{"type", "ping"}}).at("type") == "ok");
    const auto& got = g.clients[1]->received();
    const auto told = std::find_if(got.begin(), got.end(), [](const json& f) { return is_event(f, "seat_left"); });
    REQUIRE(told != got.end());
    CHECK(std::none_of(told + 1, got.end(), [](const json& f) {
        return f.value("type", "") == "event" || f.value("type", "") == "your_turn";
    }));
    const json sit = g.clients[1]->request({{"type", "sit"}, {"table", g.table}});
    CHECK(sit.at("code") == "removed_from_table");
    CHECK(g.clients[1]->request({{"type", "watch"}, {"table", g.table}}).at("type") == "ok");
    const json t = body_of(admin(port, "GET", "/admin/tables")).at("tables")[0];
    CHECK(seat_of(t, 1)->at("bot") == true);
    check_error(admin(port, "POST", "/admin/tables/" + g.table + "/remove", json{{"player", player}}.dump()), 404,
                "not_seated");
    check_error(admin(port, "POST", "/admin/tables/t999/remove", json{{"player", player}}.dump()), 404, "no_such_table");
    CHECK(admin_metric(port, "remove_player") == 1);

    // At a table waiting for its game, the seat is simply free again.
    TableGame w = set_up_table(loop, port, "admin-remove-wait", create_table("sparts"), 2, 0, 5);
    const HttpReply freed =
        admin(port, "POST", "/admin/tables/" + w.table + "/remove", json{{"player", w.clients[1]->player()}}.dump());
    CHECK(body_of(freed).at("bot") == false);
    const json wt = body_of(admin(port, "GET", "/admin/tables")).at("tables");
    for (const auto& x : wt)
        if (x.at("table") == w.table) CHECK(seat_of(x, 1)->at("player").is_null());
    CHECK(w.clients[1]->request({{"type", "sit"}, {"table", w.table}}).at("code") == "removed_from_table");
    CHECK(admin_metric(port, "remove_player") == 2);
}

TEST_CASE("e2e: admin bans a player: its connections close with 4006, its hello is refused, the ban survives a "
          "restart, and unbanning lets it in") {
    const std::string db = fresh_database_path("admin-ban");
    const std::string token = token_file("ban");
    std::string banned_token, banned_player;
    {
        TestServer server({"--database", db, "--admin-token-file", token});
        const std::uint16_t port = server.port();
        EventLoop loop;
        TestClient tab1(loop, port, "admin-ban-tab1");
        tab1.hello("Mallory");
        banned_token = tab1.token();
        banned_player = tab1.player();
        TestClient tab2(loop, port, "admin-ban-tab2");
        REQUIRE(tab2.hello("Mallory", banned_token).at("type") == "ok");
        TestClient other(loop, port, "admin-ban-other");
        other.hello("Alice");

        const HttpReply ban =
            admin(port, "POST", "/admin/bans", json{{"player", banned_player}, {"reason", "  cheating  "}}.dump());
        CAPTURE(ban.body);
        REQUIRE(ban.status == 200);
        const json b = body_of(ban);
        CHECK(b.at("connections_closed") == 2);
        CHECK(b.at("ban").at("player") == banned_player);
        CHECK(b.at("ban").at("reason") == "cheating");
        for (TestClient* c : {&tab1, &tab2}) {
            const json closing = c->wait_for([](const json& f) { return f.value("type", "") == "closing"; }, "closing");
            CHECK(closing == json{{"type", "closing"}, {"reason", "banned"}});
            CHECK(c->wait_closed() == 4006);
        }
        CHECK(other.request({{"type", "ping"}}).at("type") == "ok");
        CHECK(!other.closed());

        TestClient back(loop, port, "admin-ban-back");
        const json refused = back.hello("Mallory", banned_token);
        CHECK(refused.at("type") == "error");
        CHECK(refused.at("code") == "banned");
        CHECK(!back.closed());
        // A ban of a player already banned gives it a new reason; the list has it once.
        CHECK(admin(port, "POST", "/admin/bans", json{{"player", banned_player}, {"reason", "still cheating"}}.dump()).status == 200);
        const json list = body_of(admin(port, "GET", "/admin/bans")).at("bans");
        REQUIRE(list.size() == 1);
        CHECK(list[0].at("player") == banned_player);
        CHECK(list[0].at("reason") == "still cheating");
        CHECK(admin_metric(port, "ban") == 2);
        CHECK(stop_server(server, loop) == 0);
    }
    // The same database, a new process: still banned.
    TestServer server({"--database", db, "--admin-token-file", token});
    const std::uint16_t port = server.port();
    EventLoop loop;
    TestClient back(loop, port, "admin-ban-restart");
    CHECK(back.hello("Mallory", banned_token).at("code") == "banned");
    const json list = body_of(admin(port, "GET", "/admin/bans")).at("bans");
    REQUIRE(list.size() == 1);
    CHECK(list[0].at("player") == banned_player);
    CHECK(list[0].at("reason") == "still cheating");

    const HttpReply lifted = admin(port, "DELETE", "/admin/bans/" + banned_player);
    CAPTURE(lifted.body);
    REQUIRE(lifted.status == 200);
    CHECK(body_of(lifted).at("ban").at("player") == banned_player);
    const json welcome = back.hello("Mallory", banned_token);
    CHECK(welcome.at("type") == "ok");
    CHECK(welcome.at("player") == banned_player);
    check_error(admin(port, "DELETE", "/admin/bans/" + banned_player), 404, "not_banned");
    CHECK(body_of(admin(port, "GET", "/admin/bans")).at("bans").empty());
    CHECK(admin_metric(port, "unban") == 1);
}

TEST_CASE("e2e: admin bans on PostgreSQL survive a restart, and their lifting too") {
    sparts::test::TempPgDatabase pg("e2eadminbans");
    const std::string token = token_file("ban-pg");
    std::string banned_token, banned_player, kept_player;
    {
        TestServer server({"--database", pg.url(), "--admin-token-file", token});
        EventLoop loop;
        TestClient c(loop, server.port(), "admin-ban-pg");
        c.hello("Mallory");
        banned_token = c.token();
        banned_player = c.player();
        REQUIRE(admin(server.port(), "POST", "/admin/bans", json{{"player", banned_player}, {"reason", "spam"}}.dump()).status == 200);
        CHECK(c.wait_closed() == 4006);
        // A second ban, lifted before the restart: its lifting is stored too.
        kept_player = "p00000000000000aa";
        REQUIRE(admin(server.port(), "POST", "/admin/bans", json{{"player", kept_player}}.dump()).status == 200);
        REQUIRE(admin(server.port(), "DELETE", "/admin/bans/" + kept_player).status == 200);
        CHECK(stop_server(server, loop) == 0);
    }
    TestServer server({"--database", pg.url(), "--admin-token-file", token});
    EventLoop loop;
    TestClient back(loop, server.port(), "admin-ban-pg-back");
    CHECK(back.hello("Mallory", banned_token).at("code") == "banned");
    const json list = body_of(admin(server.port(), "GET", "/admin/bans")).at("bans");
    REQUIRE(list.size() == 1);
    CHECK(list[0].at("player") == banned_player);
    CHECK(list[0].at("reason") == "spam");
    REQUIRE(admin(server.port(), "DELETE", "/admin/bans/" + banned_player).status == 200);
    CHECK(back.hello("Mallory", banned_token).at("player") == banned_player);
}

TEST_CASE("e2e: admin broadcast reaches every connection that said hello as an announcement, as plain text") {
    TestServer server({"--admin-token-file", token_file("broadcast")});
    const std::uint16_t port = server.port();
    EventLoop loop;
    TableGame g = set_up_table(loop, port, "admin-broadcast", create_table("sparts"), 2, 1, 3);
    TestClient lobby(loop, port, "admin-broadcast-lobby");
    lobby.hello("Lobby");
    TestClient anonymous(loop, port, "admin-broadcast-nohello");
    REQUIRE(anonymous.request({{"type", "ping"}}).at("type") == "ok");

    const std::string text = "Restart at 10:00 — <b>save</b> & \"wait\"";
    const HttpReply sent = admin(port, "POST", "/admin/broadcast", json{{"text", "  " + text + "  "}}.dump());
    CAPTURE(sent.body);
    REQUIRE(sent.status == 200);
    const json answer = body_of(sent);
    CHECK(answer.at("text") == text);
    CHECK(answer.at("connections") == 4);
    std::vector<TestClient*> told = {g.clients[0].get(), g.clients[1].get(), g.clients[2].get(), &lobby};
    for (TestClient* c : told) {
        const json a = c->wait_for([](const json& f) { return f.value("type", "") == "announcement"; }, "announcement");
        CHECK(a == json{{"type", "announcement"}, {"text", text}, {"at", answer.at("at")}});
    }
    // A connection that has not said hello is no player yet: after a round trip, it has nothing.
    REQUIRE(anonymous.request({{"type", "ping"}}).at("type") == "ok");
    CHECK(announcements(anonymous) == 0);
    for (TestClient* c : told) CHECK(announcements(*c) == 1);
    CHECK(admin_metric(port, "broadcast") == 1);
}

TEST_CASE("e2e: admin refuses bad requests with a clear error and changes nothing, and POST elsewhere is still 405") {
    TestServer server({"--admin-token-file", token_file("bad")});
    const std::uint16_t port = server.port();
    EventLoop loop;
    TableGame g = set_up_table(loop, port, "admin-bad", create_table("sparts"), 2, 0, 9);
    const std::string remove = "/admin/tables/" + g.table + "/remove";
    const std::string close = "/admin/tables/" + g.table + "/close";
    const std::string seated = g.clients[1]->player();

    struct Bad {
        std::string method, target, body, code;
    };
    const std::vector<Bad> bad = {
        {"POST", "/admin/broadcast", "hello", "bad_json"},
        {"POST", "/admin/broadcast", "", "bad_json"},
        {"POST", "/admin/broadcast", R"({"text":"a","text":"b"})", "bad_json"},  // a key twice
        {"POST", "/admin/broadcast", R"(["text"])", "bad_body"},
        {"POST", "/admin/broadcast", R"({"text":"hi","html":true})", "bad_body"},
        {"POST", "/admin/broadcast", R"({"message":"hi"})", "bad_body"},
        {"POST", "/admin/broadcast", R"({"text":42})", "bad_body"},
        {"POST", "/admin/broadcast", R"({"text":"   "})", "bad_body"},
        {"POST", "/admin/broadcast", R"({"text":"two\nlines"})", "bad_body"},
        {"POST", "/admin/broadcast", R"({"text":"hid\u202eden"})", "bad_body"},
        {"POST", "/admin/broadcast", json{{"text", std::string(501, 'x')}}.dump(), "bad_body"},
        {"POST", "/admin/broadcast", json{{"text", std::string(5000, 'x')}}.dump(), "body_too_large"},
        {"POST", "/admin/bans", R"({"reason":"no player"})", "bad_body"},
        {"POST", "/admin/bans", R"({"player":"mallory"})", "bad_body"},
        {"POST", "/admin/bans", json{{"player", seated}, {"reason", std::string(201, 'r')}}.dump(), "bad_body"},
        {"POST", "/admin/bans", json{{"player", seated}, {"reason", 7}}.dump(), "bad_body"},
        {"POST", "/admin/bans", json{{"player", seated}, {"until", 7}}.dump(), "bad_body"},
        {"POST", remove, "{}", "bad_body"},
        {"POST", remove, R"({"player":["p0123456789abcdef"]})", "bad_body"},
        {"POST", remove, json{{"player", seated}, {"seat", 1}}.dump(), "bad_body"},
        {"POST", close, R"({"now":true})", "bad_body"},
        {"POST", close, "not json", "bad_json"},
        {"GET", "/admin/bans", R"({"player":"p0123456789abcdef"})", "bad_body"},
        {"DELETE", "/admin/bans/" + seated, R"({"player":"x"})", "bad_body"},
        {"GET", "/admin/tables?all=1", "", "bad_parameter"},
    };
    for (const Bad& b : bad) {
        CAPTURE(b.method);
        CAPTURE(b.target);
        CAPTURE(b.body.substr(0, 100));
        check_error(admin(port, b.method, b.target, b.body), 400, b.code);
    }
    check_error(admin(port, "GET", "/admin/nothing"), 404, "not_found");
    check_error(admin(port, "GET", "/admin/tables/" + g.table), 404, "not_found");
    check_error(admin(port, "POST", "/admin/tables/" + g.table + "/explode"), 404, "not_found");
    const HttpReply wrong_method = admin(port, "DELETE", "/admin/tables");
    check_error(wrong_method, 405, "method_not_allowed");
    CHECK(wrong_method.header("allow") == "GET");
    CHECK(admin(port, "PUT", "/admin/bans").header("allow") == "GET, POST");

    // Nothing changed: no ban, no announcement, the table open with both players seated, nothing counted.
    CHECK(body_of(admin(port, "GET", "/admin/bans")).at("bans").empty());
    const json tables = body_of(admin(port, "GET", "/admin/tables")).at("tables");
    REQUIRE(tables.size() == 1);
    CHECK(seat_of(tables[0], 1)->at("player") == seated);
    REQUIRE(g.clients[1]->request({{"type", "ping"}}).at("type") == "ok");
    for (auto& c : g.clients) CHECK(announcements(*c) == 0);
    for (const std::string a : {"close_table", "remove_player", "ban", "unban", "broadcast"}) CHECK(admin_metric(port, a) == 0);

    // Outside /admin/, only GET and HEAD, as before.
    for (const std::string path : {"/api/games", "/healthz", "/", "/metrics", "/administrator"}) {
        CAPTURE(path);
        const HttpReply r = http_request(port, "POST", path, R"({"text":"hi"})", bearer());
        CHECK(r.status == 405);
        CHECK(r.header("allow") == "GET, HEAD");
    }
}

TEST_CASE("e2e: admin actions are logged with their target and client address, the token never") {
    TestServer server({"--admin-token-file", token_file("log"), "--log-level", "info"});
    const std::uint16_t port = server.port();
    EventLoop loop;
    TableGame g = set_up_table(loop, port, "admin-log", create_table("sparts"), 2, 0, 13);
    REQUIRE(admin(port, "POST", "/admin/broadcast", R"({"text":"hello"})").status == 200);
    REQUIRE(admin(port, "POST", "/admin/tables/" + g.table + "/remove", json{{"player", g.clients[1]->player()}}.dump()).status == 200);
    REQUIRE(admin(port, "POST", "/admin/bans", json{{"player", g.clients[1]->player()}}.dump()).status == 200);
    CHECK(g.clients[1]->wait_closed() == 4006);
    REQUIRE(admin(port, "POST", "/admin/tables/" + g.table + "/close").status == 200);
    const std::string near_miss = kToken.substr(0, 40) + "ffffffffffffffffffffffff";
    CHECK(http_get(port, "/admin/tables", bearer(near_miss)).status == 401);
    const std::string out = [&] {
        // The log is written as it happens: wait for the last line expected.
        for (int tries = 0; tries < 200; ++tries) {
            if (server.output().find("close_table") != std::string::npos) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        return server.output();
    }();
    CAPTURE(out);
    CHECK(out.find("admin: broadcast \"hello\"") != std::string::npos);
    CHECK(out.find("admin: remove_player " + g.clients[1]->player() + " at " + g.table + " from 127.0.0.1") != std::string::npos);
    CHECK(out.find("admin: ban " + g.clients[1]->player()) != std::string::npos);
    CHECK(out.find("admin: close_table " + g.table + " from 127.0.0.1") != std::string::npos);
    CHECK(out.find("a wrong token, refused") != std::string::npos);
    CHECK(out.find(kToken) == std::string::npos);
    CHECK(out.find(kToken.substr(0, 16)) == std::string::npos);
    CHECK(out.find(near_miss) == std::string::npos);
    CHECK(stop_server(server, loop) == 0);
}
