#include <doctest/doctest.h>

#include <fstream>

#include "server/base/config.hpp"

using namespace sparts::server;

TEST_CASE("with nothing set, the server serves on localhost with its defaults") {
    auto c = read_config({}, {});
    REQUIRE(c);
    CHECK(c->address == "127.0.0.1");
    CHECK(c->port == 8080);
    CHECK(c->database == "sparts.db");
    CHECK(c->max_frame_bytes == 16 * 1024);
    CHECK(c->turn_seconds == 60);
}

TEST_CASE("flags and environment variables set every value and flags win") {
    auto c = read_config({"--port", "9000", "--max-frame-bytes=4096", "--log-level", "debug"},
                         {"SPARTS_PORT=7000", "SPARTS_TURN_SECONDS=15", "PATH=/bin", "SPARTS_DATABASE=/var/x.db"});
    REQUIRE(c);
    CHECK(c->port == 9000);
    CHECK(c->max_frame_bytes == 4096);
    CHECK(c->log_level == "debug");
    CHECK(c->turn_seconds == 15);
    CHECK(c->database == "/var/x.db");
}

TEST_CASE("a bad value or an unknown flag is refused with what was expected") {
    auto port = read_config({"--port", "70000"}, {});
    REQUIRE_FALSE(port);
    CHECK(port.error().find("--port") != std::string::npos);
    CHECK(port.error().find("0 to 65535") != std::string::npos);
    auto env = read_config({}, {"SPARTS_THREADS=many"});
    REQUIRE_FALSE(env);
    CHECK(env.error().find("SPARTS_THREADS") != std::string::npos);
    auto unknown = read_config({"--colour", "red"}, {});
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().find("unknown flag \"--colour\"") != std::string::npos);
    CHECK_FALSE(read_config({"--port"}, {}));
    CHECK_FALSE(read_config({"--log-level", "loud"}, {}));
    CHECK_FALSE(read_config({"stray"}, {}));
}

TEST_CASE("--help lists every setting with its environment variable") {
    auto help = read_config({"--help"}, {});
    REQUIRE_FALSE(help);
    for (const char* name : {"--address", "SPARTS_ADDRESS", "--max-frame-bytes", "--messages-per-second",
                             "--write-queue-bytes", "--idle-timeout", "--tables-per-player",
                             "--connections-per-address", "--turn-seconds", "--table-grace", "SPARTS_DATABASE"})
        CHECK_MESSAGE(help.error().find(name) != std::string::npos, name);
}

TEST_CASE("a settings file is read under the environment and the flags") {
    const std::string path = std::string(SPARTS_BINARY_DIR) + "/config-test.conf";
    {
        std::ofstream f(path);
        f << "# a comment\nport = 7100\n  turn-seconds=20   # trailing comment\nlog-format = json\n\ntable-grace = 5\n";
    }
    auto c = read_config({"--config", path, "--table-grace", "9"}, {"SPARTS_TURN_SECONDS=30"});
    REQUIRE_MESSAGE(c, (c ? "" : c.error()));
    CHECK(c->port == 7100);
    CHECK(c->turn_seconds == 30);   // the environment over the file
    CHECK(c->table_grace_seconds == 9);  // the flag over the file
    CHECK(c->log_json);
    auto by_env = read_config({}, {"SPARTS_CONFIG=" + path});
    REQUIRE(by_env);
    CHECK(by_env->port == 7100);

    {
        std::ofstream f(path);
        f << "port = 7100\ncolour = red\n";
    }
    auto bad = read_config({"--config=" + path}, {});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().find(":2: unknown setting \"colour\"") != std::string::npos);
    auto missing = read_config({"--config", path + ".missing"}, {});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().find("cannot read") != std::string::npos);
}

TEST_CASE("logins: an algorithm needs its key, and guests off needs logins") {
    const auto c = read_config({"--login-algorithm", "RS256", "--login-public-key", "/etc/host.pem", "--login-issuer",
                                "https://cards.example", "--guests", "off"},
                               {});
    REQUIRE(c);
    CHECK(c->login_algorithm == "RS256");
    CHECK(c->login_public_key == "/etc/host.pem");
    CHECK(c->login_issuer == "https://cards.example");
    CHECK_FALSE(c->guests);
    CHECK(read_config({}, {})->login_algorithm == "off");
    CHECK(read_config({}, {})->guests);

    const auto no_secret = read_config({"--login-algorithm", "HS256"}, {});
    REQUIRE_FALSE(no_secret);
    CHECK(no_secret.error().find("--login-secret-file") != std::string::npos);
    const auto no_key = read_config({}, {"SPARTS_LOGIN_ALGORITHM=ES256"});
    REQUIRE_FALSE(no_key);
    CHECK(no_key.error().find("--login-public-key") != std::string::npos);
    const auto nobody = read_config({"--guests", "off"}, {});
    REQUIRE_FALSE(nobody);
    CHECK(nobody.error().find("nobody could play") != std::string::npos);
    const auto bad = read_config({"--login-algorithm", "HS512"}, {});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().find("expected off, HS256, RS256 or ES256") != std::string::npos);
}
