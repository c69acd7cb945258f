// End to end: a host's own logins. A player whose login (a JWT the host signed)
// is good is one player on every device and across a restart, with its seats;
// each bad login gets its own error and no player; no login, good or bad, nor
// the secret, ever reaches the log; --guests off admits players who log in only.
#include <doctest/doctest.h>

#include <jwt.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include "http_client.hpp"
#include "jwt_signing.hpp"
#include "support/postgres.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

const std::string kSecret = "the host's secret, at least 32 bytes long";
const std::string kIssuer = "https://cards.example";
const std::string kAudience = "sparts";

std::int64_t now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string sign(const json& claims, const std::string& key = kSecret, jwt_alg_t alg = JWT_ALG_HS256) {
    return sparts::test::sign_jwt(alg, key, claims);
}

json claims(const std::string& sub, const std::string& name = "Alice") {
    return {{"sub", sub}, {"name", name}, {"exp", now_seconds() + 600}, {"iss", kIssuer}, {"aud", kAudience}};
}

json hello_with(TestClient& c, const std::string& login, const std::string& name = "Typed") {
    return c.request({{"type", "hello"}, {"id", 1}, {"protocol", 1}, {"name", name}, {"login", login}});
}

std::string secret_file(const std::string& name) {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" / (name + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto file = dir / "login-secret";
    std::ofstream(file) << kSecret << "\n";  // as `echo` writes it
    return file.string();
}

std::vector<std::string> login_flags(const std::string& secret) {
    return {"--messages-per-second", "100000", "--login-algorithm", "HS256", "--login-secret-file", secret,
            "--login-issuer", kIssuer, "--login-audience", kAudience, "--log-level", "debug"};
}

}  // namespace

TEST_CASE("e2e: a login makes one player on every device and across a restart, and each bad login its own error") {
    const std::string secret = secret_file("login");
    const std::string db = fresh_database_path("login");
    auto flags = login_flags(secret);
    flags.insert(flags.end(), {"--database", db});
    std::vector<std::string> sent;  // every login sent: none may reach the log
    std::string player, table;
    {
        TestServer server(flags);
        EventLoop loop;
        TestClient phone(loop, server.port(), "login-phone");
        sent.push_back(sign(claims("user-42")));
        const json hello = hello_with(phone, sent.back());
        REQUIRE(hello.value("type", "") == "ok");
        player = hello.at("player").get<std::string>();
        CHECK(player.size() == 17);
        CHECK(player[0] == 'p');
        CHECK(hello.at("name") == "Alice");  // the host's name, not the one typed
        CHECK(hello.at("account") == "user-42");
        CHECK_FALSE(hello.contains("token"));
        table = phone.request_ok(create_table("spades")).at("table").get<std::string>();
        phone.request_ok({{"type", "sit"}, {"table", table}, {"seat", 2}});

        // Another device, a fresh login of the same account: the same player, holding its seat.
        TestClient laptop(loop, server.port(), "login-laptop");
        sent.push_back(sign(claims("user-42", "Alice A.")));
        const json again = hello_with(laptop, sent.back());
        REQUIRE(again.value("type", "") == "ok");
        CHECK(again.at("player") == player);
        CHECK(again.at("name") == "Alice A.");
        CHECK(again.at("seats") == json::array({{{"table", table}, {"seat", 2}}}));
        // Another account is another player.
        TestClient other(loop, server.port(), "login-other");
        sent.push_back(sign(claims("user-43", "Bo")));
        const json bo = hello_with(other, sent.back());
        REQUIRE(bo.value("type", "") == "ok");
        CHECK(bo.at("player") != player);
        // A guest still plays beside them.
        TestClient guest(loop, server.port(), "login-guest");
        CHECK(guest.hello("Guest").value("type", "") == "ok");

        // Each bad login: its own code, no player, and the connection may try again.
        auto refused = [&](const std::string& login, const std::string& code) {
            sent.push_back(login);
            TestClient c(loop, server.port(), "login-bad-" + code);
            const json r = hello_with(c, login);
            CAPTURE(code);
            CHECK(r.value("type", "") == "error");
            CHECK(r.value("code", "") == code);
            CHECK(r.dump().find(login) == std::string::npos);  // never quoted back
            // No player was made: the next request is still refused as before a hello.
            CHECK(c.request({{"type", "list_tables"}}).value("code", "") == "hello_first");
        };
        json expired = claims("user-42");
        expired["exp"] = now_seconds() - 3600;
        refused(sign(expired), "login_expired");
        json early = claims("user-42");
        early["nbf"] = now_seconds() + 3600;
        refused(sign(early), "login_not_yet_valid");
        refused(sign(claims("user-42"), "another secret of at least 32 bytes!!"), "login_bad_signature");
        refused(sign(claims("user-42"), "", JWT_ALG_NONE), "login_bad_signature");
        json wrong_iss = claims("user-42");
        wrong_iss["iss"] = "https://evil.example";
        refused(sign(wrong_iss), "login_wrong_issuer");
        json wrong_aud = claims("user-42");
        wrong_aud["aud"] = "another-server";
        refused(sign(wrong_aud), "login_wrong_audience");
        refused(sign(claims("user 42 with spaces")), "login_bad_subject");
        json no_exp = claims("user-42");
        no_exp.erase("exp");
        refused(sign(no_exp), "login_malformed");
        refused("not.a.jwt", "login_malformed");
        // Tampered: the payload of one account under the signature of another.
        const std::string a = sign(claims("user-42")), b = sign(claims("user-99"));
        refused(b.substr(0, b.find('.')) + b.substr(b.find('.'), b.rfind('.') - b.find('.')) + a.substr(a.rfind('.')),
                "login_bad_signature");
        // A login and a token at once: refused as a malformed hello.
        TestClient both(loop, server.port(), "login-both");
        const json r = both.request({{"type", "hello"}, {"protocol", 1}, {"name", "X"}, {"login", sent[0]},
                                     {"token", "00112233445566778899aabbccddeeff"}});
        CHECK(r.value("code", "") == "bad_message");
        CHECK(r.value("field", "") == "login");

        CHECK(metric(server.port(), "sparts_logins_total") == 3);
        CHECK(metric(server.port(), "sparts_login_refusals_total") == 10);
        REQUIRE(stop_server(server, loop).value_or(-1) == 0);
        const std::string log = server.output();
        for (const auto& login : sent) CHECK(log.find(login) == std::string::npos);
        CHECK(log.find(kSecret) == std::string::npos);
    }

    // After a restart on the same database, the account is still that player, at its seat.
    TestServer server(flags);
    EventLoop loop;
    TestClient back(loop, server.port(), "login-back");
    const json hello = hello_with(back, sign(claims("user-42")));
    REQUIRE(hello.value("type", "") == "ok");
    CHECK(hello.at("player") == player);
    CHECK(hello.at("seats") == json::array({{{"table", table}, {"seat", 2}}}));
}

namespace {
// An HS256 token of the claims exactly as written (a member given twice included), signed with the host's secret.
std::string sign_text(const std::string& claims_text) {
    return sparts::test::sign_hs256_text(R"({"alg":"HS256","typ":"JWT"})", claims_text, kSecret);
}
}  // namespace

TEST_CASE("e2e: a login naming a claim twice is refused, and a login over 4096 bytes is never quoted back") {
    TestServer server(login_flags(secret_file("login-strict")));
    EventLoop loop;
    const std::string rest = R"("exp":)" + std::to_string(now_seconds() + 600) + R"(,"iss":")" + kIssuer + R"(","aud":")" +
                             kAudience + R"("})";
    {
        // The same claims once each: a player.
        TestClient c(loop, server.port(), "login-once");
        CHECK(hello_with(c, sign_text(R"({"sub":"carol",)" + rest)).value("type", "") == "ok");
    }
    {
        // `sub` twice, signed by the host's key: libjwt reads the last, our parser refuses the text. Which account
        // did the host mean? Neither: refused, no player made.
        TestClient c(loop, server.port(), "login-twice");
        const json r = hello_with(c, sign_text(R"({"sub":"carol","sub":"admin",)" + rest));
        CHECK(r.value("code", "") == "login_malformed");
    }
    {
        // Over 4096 bytes: refused before it is read, and not a byte of it in the answer (it was quoted, 40
        // characters of it, before).
        TestClient c(loop, server.port(), "login-long");
        const std::string login = sign(claims("dave")) + std::string(5000, 'Q');
        const json r = hello_with(c, login);
        CHECK(r.value("code", "") == "bad_message");
        CHECK(r.value("field", "") == "login");
        CHECK(r.dump().find(login.substr(0, 12)) == std::string::npos);
        CHECK(r.dump().find("QQQQ") == std::string::npos);
    }
}

TEST_CASE("e2e: login guests off admits only players who log in, and a server without logins refuses one") {
    const std::string secret = secret_file("guests-off");
    auto flags = login_flags(secret);
    flags.insert(flags.end(), {"--guests", "off"});
    {
        TestServer server(flags);
        EventLoop loop;
        TestClient guest(loop, server.port(), "guests-off-guest");
        CHECK(guest.hello("Guest").value("code", "") == "guests_off");
        // A token from before does not let a guest in either.
        TestClient returning(loop, server.port(), "guests-off-token");
        CHECK(returning.hello("Guest", "00112233445566778899aabbccddeeff").value("code", "") == "guests_off");
        TestClient member(loop, server.port(), "guests-off-member");
        CHECK(hello_with(member, sign(claims("member-1", "Mo"))).value("type", "") == "ok");
    }
    TestServer plain({"--messages-per-second", "100000"});
    EventLoop loop;
    TestClient c(loop, plain.port(), "no-logins");
    CHECK(hello_with(c, sign(claims("user-42"))).value("code", "") == "logins_off");
    CHECK(c.hello("Ann").value("type", "") == "ok");
}

TEST_CASE("e2e: login on PostgreSQL: the account is the same player after a restart, and quick play seats it") {
    sparts::test::TempPgDatabase pg("e2elogin");
    auto flags = login_flags(secret_file("login-pg"));
    flags.insert(flags.end(), {"--database", pg.url(), "--quick-play-wait-ms", "200", "--bot-delay-ms", "0"});
    std::string player, table;
    {
        TestServer server(flags);
        EventLoop loop;
        TestClient c(loop, server.port(), "login-pg");
        const json hello = hello_with(c, sign(claims("pg-user")));
        REQUIRE(hello.value("type", "") == "ok");
        player = hello.at("player").get<std::string>();
        // Quick play on this backend too: alone, seated with bots after the wait.
        c.request_ok({{"type", "quick_play"}, {"preset", "spades"}});
        const json m = c.wait_for([](const json& f) { return f.value("type", "") == "quick_play_matched"; }, "matched");
        table = m.at("table").get<std::string>();
        CHECK(m.at("seat") == 0);
        REQUIRE(stop_server(server, loop).value_or(-1) == 0);
    }
    TestServer server(flags);
    EventLoop loop;
    TestClient back(loop, server.port(), "login-pg-back");
    const json hello = hello_with(back, sign(claims("pg-user")));
    REQUIRE(hello.value("type", "") == "ok");
    CHECK(hello.at("player") == player);
    CHECK(hello.at("seats") == json::array({{{"table", table}, {"seat", 0}}}));
}

