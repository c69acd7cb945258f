// End to end: the host's named rule sets (--rule-sets FILE, docs/OPERATING.md).
// The hello lists them; a table created with one's ruleset, or seated by quick
// play with its preset and options, names it in its info (snapshot and list
// entry), and a table of other rules does not; quick play keeps a queue per rule
// set. A file that is not right stops the start, saying what and where.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

std::string rule_sets_file(const std::string& name, const std::string& text) {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db";
    std::filesystem::create_directories(dir);
    const auto path = (dir / ("rule-sets-" + name + "-" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(path, std::ios::trunc) << text;
    return path;
}

const char* kStreet = R"([
  {"name": "street-spades", "label": "Street Spades",
   "ruleset": {"preset": "spades", "options": {"joker_deck": "jjdd", "min_side_bid": 4, "ten_for_two_hundred": true, "target_score": 350}}},
  {"name": "hearts-50", "label": "Hearts to 50", "ruleset": {"preset": "hearts", "options": {"target_score": "50"}}}
])";

json snapshot_info(TestClient& c, const std::string& table) {
    return c.wait_for([&](const json& f) { return f.value("type", "") == "snapshot" && f.value("table", "") == table; },
                      "the snapshot of " + table)
        .at("info");
}

}  // namespace

TEST_CASE("e2e: named rule sets: listed at hello, named by the tables that play them, quick play by rule set") {
    TestServer server({"--messages-per-second", "100000", "--quick-play-wait-ms", "300", "--rule-sets",
                       rule_sets_file("street", kStreet)});
    EventLoop loop;
    TestClient ada(loop, server.port(), "rs-ada");
    const json hello = ada.hello("Ada");
    REQUIRE(hello.at("rule_sets").size() == 2);
    const json street = hello.at("rule_sets")[0];
    CHECK(street.at("name") == "street-spades");
    CHECK(street.at("label") == "Street Spades");
    // Written as the server writes rulesets: the preset and the options that differ, typed.
    CHECK(street.at("ruleset") == json::parse(R"({"preset": "spades", "options": {"joker_deck": "jjdd", "min_side_bid": 4,
        "ten_for_two_hundred": true, "target_score": 350}})"));
    CHECK(hello.at("rule_sets")[1].at("ruleset").at("options").at("target_score") == 50);

    // A table made with the rule set's ruleset is the rule set's.
    const json made = ada.request_ok({{"type", "create_table"}, {"ruleset", street.at("ruleset")}});
    const std::string table = made.at("table");
    ada.request_ok({{"type", "sit"}, {"table", table}});
    const json info = snapshot_info(ada, table);
    CHECK(info.at("rule_set") == json({{"name", "street-spades"}, {"label", "Street Spades"}}));
    // One option more is another game: no name.
    json other_rules = street.at("ruleset");
    other_rules["options"]["target_score"] = 500;
    const json other = ada.request_ok({{"type", "create_table"}, {"ruleset", other_rules}});
    const json listed = ada.request_ok({{"type", "list_tables"}});
    bool named = false, unnamed = false;
    for (const json& t : listed.at("tables")) {
        if (t.at("table") == table) named = t.value("rule_set", json()) == json({{"name", "street-spades"}, {"label", "Street Spades"}});
        if (t.at("table") == other.at("table")) unnamed = !t.contains("rule_set");
    }
    CHECK(named);
    CHECK(unnamed);

    // Quick play with the rule set's preset and options: its own queue, and the table it
    // makes carries the name.
    TestClient bo(loop, server.port(), "rs-bo");
    bo.hello("Bo");
    const json hearts = hello.at("rule_sets")[1].at("ruleset");
    const json waiting = bo.request_ok({{"type", "quick_play"}, {"preset", hearts.at("preset")}, {"options", hearts.at("options")}});
    CHECK(waiting.at("waiting") == 1);
    const json match = bo.wait_for([](const json& f) { return f.value("type", "") == "quick_play_matched"; }, "quick_play_matched");
    const std::string quick = match.at("table");
    CHECK(snapshot_info(bo, quick).at("rule_set") == json({{"name", "hearts-50"}, {"label", "Hearts to 50"}}));
    CHECK(stop_server(server, loop) == 0);
}

TEST_CASE("e2e: named rule sets: a file that is not right stops the start, saying what and where") {
    struct Case {
        const char* name;
        const char* text;
        const char* said;
    };
    const Case cases[] = {
        {"not-json", "[{", "not JSON"},
        {"not-array", R"({"name": "x"})", "expected a JSON array"},
        {"bad-name", R"([{"name": "Street Spades", "label": "S", "ruleset": {"preset": "spades"}}])", "rule set 1: name"},
        {"no-label", R"([{"name": "s", "ruleset": {"preset": "spades"}}])", "rule set \"s\": label"},
        {"bad-option", R"([{"name": "s", "label": "S", "ruleset": {"preset": "spades", "options": {"joker_deck": "three"}}}])",
         "rule set \"s\": ruleset"},
        {"twice", R"([{"name": "s", "label": "S", "ruleset": {"preset": "spades"}}, {"name": "s", "label": "T", "ruleset": {"preset": "hearts"}}])",
         "used twice"},
        {"same-rules", R"([{"name": "s", "label": "S", "ruleset": {"preset": "spades"}}, {"name": "t", "label": "T", "ruleset": {"preset": "spades", "options": {"target_score": 500}}}])",
         "the same rules as an earlier"},
        {"stranger", R"([{"name": "s", "label": "S", "ruleset": {"preset": "spades"}, "colour": "red"}])", "unknown member"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        const std::string path = rule_sets_file(c.name, c.text);
        const ServerRun run = run_server({"--port", "0", "--database", "none", "--rule-sets", path});
        REQUIRE(run.status.has_value());
        CHECK(*run.status == 1);
        const std::string said = run.out + run.err;
        CHECK(said.find("listening on") == std::string::npos);
        CHECK(said.find("--rule-sets") != std::string::npos);
        CHECK(said.find(path) != std::string::npos);
        CHECK(said.find(c.said) != std::string::npos);
    }
    const ServerRun missing = run_server({"--port", "0", "--database", "none", "--rule-sets", "/nonexistent/rule-sets.json"});
    REQUIRE(missing.status.has_value());
    CHECK(*missing.status == 1);
    CHECK((missing.out + missing.err).find("cannot read /nonexistent/rule-sets.json") != std::string::npos);
}
