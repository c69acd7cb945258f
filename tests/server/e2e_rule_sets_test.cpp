// End to end: the host's named rule sets (--rule-sets FILE, docs/OPERATING.md).
// The hello lists them; a table created with one's ruleset, or seated by quick
// play with its preset and options, names it in its info (snapshot and list
// entry), and a table of other rules does not; quick play keeps a queue per rule
// set. A file that is not right stops the start, saying what and where. The admin API
// lists, adds, replaces and removes rule sets, saving the file first: a bad one is
// refused and changes nothing, an edit shows at the next hello and after a restart, and
// a table open before it keeps the rule set it was made with.
#include <doctest/doctest.h>

#include <unistd.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include "http_client.hpp"
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

const std::string kAdminToken = "9c1e0d8a7b6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d";

std::string admin_token_file() {
    const auto path = rule_sets_file("admin-token", kAdminToken + "\n");
    ::chmod(path.c_str(), 0600);
    return path;
}

struct Admin {
    std::uint16_t port;
    json call(const std::string& method, const std::string& target, const std::string& body, int status) const {
        const HttpReply r = http_request(port, method, target, body, {{"Authorization", "Bearer " + kAdminToken}});
        CAPTURE(method);
        CAPTURE(target);
        CAPTURE(r.body);
        CHECK(r.status == status);
        return json::parse(r.body);
    }
};

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> names_at_hello(EventLoop& loop, std::uint16_t port) {
    TestClient c(loop, port, "rs-names");
    std::vector<std::string> out;
    const json h = c.hello("Names");
    for (const json& set : h.at("rule_sets")) out.push_back(set.at("name").get<std::string>());
    return out;
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

TEST_CASE("e2e: named rule sets: the admin API lists, adds, replaces and removes them, the file saved first, and a bad one "
          "changes nothing, and a table made before an edit keeps its rule set") {
    const std::string path = rule_sets_file("admin", kStreet);
    const std::string token = admin_token_file();
    {
        TestServer server({"--messages-per-second", "100000", "--rule-sets", path, "--admin-token-file", token});
        EventLoop loop;
        const Admin admin{server.port()};
        const json listed = admin.call("GET", "/admin/rule-sets", "", 200);
        REQUIRE(listed.at("rule_sets").size() == 2);
        CHECK(listed.at("rule_sets")[0].at("name") == "street-spades");
        CHECK(listed.at("rule_sets")[0].at("games") == 0);
        CHECK(listed.at("file") == path);

        // A table of Hearts to 50, made before the edits: it keeps its name whatever they do.
        TestClient ada(loop, server.port(), "rs-admin-ada");
        ada.hello("Ada");
        const json hearts50 = listed.at("rule_sets")[1].at("ruleset");
        const std::string early = ada.request_ok({{"type", "create_table"}, {"ruleset", hearts50}}).at("table");

        // Refused, and nothing changes (the file neither): a ruleset the engine refuses, a label
        // that is not one, the rules of another rule set, a bad name, a stranger's member.
        const std::string before = file_text(path);
        const json bad_option = admin.call("PUT", "/admin/rule-sets/big-joker",
                                           R"({"label": "Big Joker", "ruleset": {"preset": "spades", "options": {"joker_deck": "three"}}})", 400);
        CHECK(bad_option.at("error") == "bad_rule_set");
        CHECK(bad_option.at("message").get<std::string>().find("rule set \"big-joker\": ruleset") != std::string::npos);
        CHECK(admin.call("PUT", "/admin/rule-sets/big-joker", R"({"label": " ", "ruleset": {"preset": "spades"}})", 400)
                  .at("message").get<std::string>().find("label") != std::string::npos);
        CHECK(admin.call("PUT", "/admin/rule-sets/twin", R"({"label": "Twin", "ruleset": {"preset": "hearts", "options": {"target_score": 50}}})", 400)
                  .at("message").get<std::string>().find("the same rules as an earlier rule set, \"hearts-50\"") != std::string::npos);
        CHECK(admin.call("PUT", "/admin/rule-sets/Big%20Joker", R"({"label": "B", "ruleset": {"preset": "spades"}})", 400)
                  .at("error") == "bad_rule_set");
        CHECK(admin.call("PUT", "/admin/rule-sets/b", R"({"label": "B", "ruleset": {"preset": "spades"}, "colour": 1})", 400)
                  .at("error") == "bad_body");
        CHECK(admin.call("PUT", "/admin/rule-sets/b", R"({"label": "B"})", 400).at("error") == "bad_body");
        CHECK(admin.call("DELETE", "/admin/rule-sets/no-such", "", 404).at("error") == "no_such_rule_set");
        CHECK(file_text(path) == before);
        CHECK(names_at_hello(loop, server.port()) == std::vector<std::string>{"street-spades", "hearts-50"});

        // Added: at the end, saved, offered at the next hello; a table made with its rules is its.
        const json added = admin.call("PUT", "/admin/rule-sets/cutthroat",
                                      R"({"label": "Cutthroat Spades", "ruleset": {"preset": "spades", "options": {"target_score": 300}}})", 200);
        CHECK(added.at("created") == true);
        CHECK(added.at("rule_set").at("label") == "Cutthroat Spades");
        CHECK(names_at_hello(loop, server.port()) == std::vector<std::string>{"street-spades", "hearts-50", "cutthroat"});
        CHECK(json::parse(file_text(path)).size() == 3);
        const std::string cut = ada.request_ok({{"type", "create_table"}, {"ruleset", added.at("rule_set").at("ruleset")}}).at("table");
        ada.request_ok({{"type", "sit"}, {"table", cut}});
        CHECK(snapshot_info(ada, cut).at("rule_set") == json({{"name", "cutthroat"}, {"label", "Cutthroat Spades"}}));

        // Replaced in its place: a new label.
        const json replaced = admin.call("PUT", "/admin/rule-sets/street-spades",
                                         R"({"label": "Street", "ruleset": {"preset": "spades", "options": {"joker_deck": "jjdd", "min_side_bid": 4, "ten_for_two_hundred": true, "target_score": 350}}})",
                                         200);
        CHECK(replaced.at("created") == false);
        const json listed_again = admin.call("GET", "/admin/rule-sets", "", 200);
        CHECK(listed_again.at("rule_sets")[0].at("label") == "Street");

        // Removed: gone from the hello and the file; the table made before keeps its name.
        CHECK(admin.call("DELETE", "/admin/rule-sets/hearts-50", "", 200).at("removed") == true);
        CHECK(names_at_hello(loop, server.port()) == std::vector<std::string>{"street-spades", "cutthroat"});
        ada.request_ok({{"type", "sit"}, {"table", early}});
        CHECK(snapshot_info(ada, early).at("rule_set") == json({{"name", "hearts-50"}, {"label", "Hearts to 50"}}));
        CHECK(stop_server(server, loop) == 0);
    }
    // After a restart, the file holds what the edits left.
    TestServer again({"--rule-sets", path});
    EventLoop loop;
    CHECK(names_at_hello(loop, again.port()) == std::vector<std::string>{"street-spades", "cutthroat"});
    CHECK(stop_server(again, loop) == 0);

    // Without --rule-sets there is no file to keep an edit: refused, saying so.
    TestServer bare({"--admin-token-file", token});
    const json refused = Admin{bare.port()}.call("PUT", "/admin/rule-sets/x", R"({"label": "X", "ruleset": {"preset": "spades"}})", 409);
    CHECK(refused.at("error") == "no_rule_sets_file");
    CHECK(Admin{bare.port()}.call("GET", "/admin/rule-sets", "", 200).at("rule_sets").empty());
}
