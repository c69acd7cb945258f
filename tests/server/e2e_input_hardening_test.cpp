// End to end, the smaller openings a stranger's WebSocket messages had:
// rate_limited errors that could not be matched to their request, duplicate
// JSON keys read one way here and another elsewhere, and display names that
// reorder or hide the text around them.
#include <doctest/doctest.h>

#include <string>
#include <vector>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

TEST_CASE("e2e: a rate_limited error carries the id of the request it refused") {
    TestServer server({"--messages-per-second", "1", "--flood-close-after", "1000"});
    EventLoop loop;
    TestClient c(loop, server.port(), "rate-id");
    for (int i = 1; i <= 10; ++i) c.send({{"type", "ping"}, {"id", "p" + std::to_string(i)}});
    int limited = 0;
    for (int i = 1; i <= 10; ++i) {
        const json reply = c.wait_for([&](const json& f) { return f.value("id", json()) == "p" + std::to_string(i); },
                                      "the reply to ping p" + std::to_string(i));
        if (reply.value("type", "") == "error") {
            CHECK(reply.at("code") == "rate_limited");
            ++limited;
        }
    }
    CHECK(limited > 0);  // burst of 2: most of the ten were refused, each by its id
}

TEST_CASE("e2e: a message with the same key twice is refused with the key as the field, and changes nothing") {
    TestServer server;
    EventLoop loop;
    TestClient c(loop, server.port(), "dup-keys");
    const json twice = c.request(json::parse(R"({"type":"hello","protocol":1,"name":"a"})"));
    REQUIRE(twice.value("type", "") == "ok");
    c.send_text(R"({"type":"create_table","id":7,"ruleset":{"preset":"spades","preset":"sparts"}})");
    const json refused = c.wait_for([](const json& f) { return f.value("type", "") == "error"; }, "an error");
    CHECK(refused.at("code") == "bad_json");
    CHECK(refused.at("field") == "ruleset.preset");
    c.send_text(R"({"type":"ping","id":8,"id":9})");
    const json id_twice = c.wait_for([](const json& f) { return f.value("type", "") == "error"; }, "an error");
    CHECK(id_twice.at("field") == "id");
    CHECK(c.request({{"type", "list_tables"}}).at("tables").empty());  // nothing was created
}

TEST_CASE("e2e: display names with bidirectional overrides, control characters or nothing that shows are refused") {
    TestServer server;
    EventLoop loop;
    const std::vector<std::string> refused = {
        "\u202Eevil",            // right-to-left override
        "a\u2066b\u2069",         // isolates
        "x\u200Fy",              // right-to-left mark
        "a\u0085b",              // C1 control (next line)
        "a\u0007b",              // C0 control (bell)
        "\u200B\u200B",          // only zero-width spaces
        "\u3164",                // Hangul filler, shows nothing
        "\u2800",                // blank Braille pattern
        "a\u2028b",              // line separator
        "\u00A0name",            // leading no-break space
        // Invisible format characters that made a name look like another's (round two of the hardening).
        "\u200BAdmin",           // a zero-width space before a name
        "Ad\u200Dmin",           // a zero-width joiner between letters
        "Ad\u200Bmin",
        "\u206AAdmin",           // deprecated format characters U+206A–U+206F
        "Admin\u206F",
        "\u180BAdmin",           // Mongolian free variation selector
        "Admin\U0001D173",       // musical symbol format
        "\U00013430Admin",       // Egyptian hieroglyph format
        "\u0600Admin",           // Arabic number sign
        "Ada  Lovelace",         // two spaces
        "\u206A",               // nothing that shows
    };
    int n = 0;
    for (const std::string& name : refused) {
        TestClient c(loop, server.port(), "names-" + std::to_string(n++));
        const json reply = c.request({{"type", "hello"}, {"protocol", 1}, {"name", name}});
        INFO(json(name).dump());
        CHECK(reply.at("code") == "bad_message");
        CHECK(reply.at("field") == "name");
    }
    for (const std::string& name : {std::string("Zoë"), std::string("李雷"), std::string("Ada Lovelace"),
                                    std::string("\U0001F469\u200D\U0001F4BB Ada"), std::string("\u2764\uFE0F"),
                                    std::string("مريم"), std::string("🂡 ace")}) {
        TestClient c(loop, server.port(), "names-ok-" + std::to_string(n++));
        INFO(name);
        CHECK(c.hello(name).value("type", "") == "ok");
    }
}
