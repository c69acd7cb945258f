// End to end: the games of the host's named rule sets (docs/OPERATING.md, "Named rule
// sets"). People play a game of a rule set and a game of other rules of the same preset;
// the archive keeps the rule set's name with its game and filters by it (alone, with a
// player, with dates), never listing a player's game twice; the rule set has a leaderboard
// of its own and each player a rating on it, beside the preset's; the hello counts the rule
// set's games; --recompute-ratings rebuilds both boards as they were kept. Bad parameters
// get their errors. On SQLite, and on PostgreSQL.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include "http_client.hpp"
#include "support/postgres.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace e2e_rule_set_games {

std::string rule_sets_file() {
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "test-db";
    std::filesystem::create_directories(dir);
    const auto path = (dir / ("rule-set-games-" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(path, std::ios::trunc) << R"([
  {"name": "quick-spades", "label": "Quick Spades", "ruleset": {"preset": "spades", "options": {"hand_cap": 1}}},
  {"name": "hearts-50", "label": "Hearts to 50", "ruleset": {"preset": "hearts", "options": {"target_score": 50}}}
])";
    return path;
}

json get_json(std::uint16_t port, const std::string& target, int status = 200) {
    const HttpReply r = http_get(port, target);
    CAPTURE(target);
    CAPTURE(r.body);
    REQUIRE(r.status == status);
    return json::parse(r.body);
}

std::vector<std::string> players_of(const TableGame& g) {
    std::vector<std::string> out;
    for (int s = 0; s < g.seats; ++s) out.push_back(g.clients[static_cast<std::size_t>(s)]->player());
    return out;
}

std::vector<std::string> games_listed(std::uint16_t port, const std::string& query) {
    std::vector<std::string> out;
    const json page = get_json(port, "/api/games?" + query);
    for (const json& g : page.at("games"))
        out.push_back(g.at("table").get<std::string>() + "/" + std::to_string(g.at("game").get<int>()) + ":" +
                      g.value("rule_set", std::string("-")));
    return out;
}

// The hello's count of each rule set's games, read again until `want` (the lobby reads the
// counts every few seconds).
void wait_for_count(EventLoop& loop, std::uint16_t port, std::int64_t want) {
    json sets;
    for (int attempt = 0; attempt < 60; ++attempt) {
        TestClient c(loop, port, "rsg-count");
        sets = c.hello("Counter").at("rule_sets");
        if (sets.at(0).at("games") == want) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    CAPTURE(sets.dump());
    CHECK(sets.at(0).at("name") == "quick-spades");
    CHECK(sets.at(0).at("games") == want);
    CHECK(sets.at(1).at("games") == 0);
}

// Every player's page, by player.
std::map<std::string, json> pages(std::uint16_t port, const std::vector<std::string>& players) {
    std::map<std::string, json> out;
    for (const auto& p : players) out[p] = get_json(port, "/api/players/" + p);
    return out;
}

void play_and_check(const std::string& database, const std::string& label, bool rebuild) {
    const std::string sets = rule_sets_file();
    std::vector<std::string> ours, theirs;
    std::map<std::string, json> kept;
    std::string set_table, plain_table;
    {
        TestServer server({"--database", database, "--messages-per-second", "100000", "--rule-sets", sets});
        EventLoop loop;
        // The rule set's rules, and the same preset with one option more: not the rule set.
        TableGame named = set_up_table(loop, server.port(), label + "-n", create_table("spades", {{"hand_cap", 1}}), 4, 0, 11);
        TableGame plain = set_up_table(loop, server.port(), label + "-p",
                                       create_table("spades", {{"hand_cap", 1}, {"target_score", 250}}), 4, 0, 12);
        set_table = named.table;
        plain_table = plain.table;
        ours = players_of(named);
        theirs = players_of(plain);
        for (TableGame* g : {&named, &plain}) {
            g->clients[0]->request_ok({{"type", "start"}, {"table", g->table}});
            g->play_to_game_over(loop, 1);
            for (const auto* b : g->all())
                for (const auto& p : b->problems) FAIL_CHECK(p);
        }
        const std::uint16_t port = server.port();
        wait_for_count(loop, port, 1);

        // The archive: the rule set's game carries its name; filters by it alone, with a player,
        // with dates; a player's games listed once though filed under the rule set too.
        const std::string ours_game = set_table + "/1:quick-spades";
        const std::string theirs_game = plain_table + "/1:-";
        CHECK(games_listed(port, "rule_set=quick-spades") == std::vector<std::string>{ours_game});
        CHECK(games_listed(port, "rule_set=hearts-50").empty());
        CHECK(games_listed(port, "rule_set=no-such-set").empty());
        CHECK(games_listed(port, "player=" + ours[0] + "&rule_set=quick-spades") == std::vector<std::string>{ours_game});
        CHECK(games_listed(port, "player=" + theirs[0] + "&rule_set=quick-spades").empty());
        CHECK(games_listed(port, "player=" + ours[1]) == std::vector<std::string>{ours_game});
        CHECK(games_listed(port, "player=" + ours[1] + "&preset=spades") == std::vector<std::string>{ours_game});
        CHECK(games_listed(port, "player=" + theirs[1]) == std::vector<std::string>{theirs_game});
        CHECK(games_listed(port, "preset=spades").size() == 2);
        CHECK(games_listed(port, "rule_set=quick-spades&from=1&limit=5") == std::vector<std::string>{ours_game});
        CHECK(games_listed(port, "rule_set=quick-spades&to=1").empty());
        const json one = get_json(port, "/api/games/" + set_table + "/1");
        CHECK(one.at("rule_set") == "quick-spades");
        CHECK_FALSE(get_json(port, "/api/games/" + plain_table + "/1").contains("rule_set"));

        // Ratings: the rule set's board holds its four players, the preset's all eight; each of
        // ours has a rating on both, the same after one game from the same start.
        const json board = get_json(port, "/api/leaderboard/rule-set/quick-spades");
        CHECK(board.at("rule_set") == "quick-spades");
        CHECK_FALSE(board.contains("preset"));
        REQUIRE(board.at("players").size() == 4);
        for (const json& p : board.at("players"))
            CHECK(std::find(ours.begin(), ours.end(), p.at("player").get<std::string>()) != ours.end());
        CHECK(get_json(port, "/api/leaderboard/spades").at("players").size() == 8);
        CHECK(get_json(port, "/api/leaderboard/rule-set/hearts-50").at("players").empty());
        for (const auto& p : ours) {
            const json page = get_json(port, "/api/players/" + p);
            REQUIRE(page.at("ratings").size() == 1);
            REQUIRE(page.at("rule_sets").size() == 1);
            const json& preset = page.at("ratings")[0];
            const json& set = page.at("rule_sets")[0];
            CHECK(preset.at("preset") == "spades");
            CHECK(set.at("rule_set") == "quick-spades");
            CHECK_FALSE(set.contains("preset"));
            CHECK(set.at("games") == 1);
            CHECK(set.at("rating") == preset.at("rating"));
            CHECK(set.at("statistics") == preset.at("statistics"));
            CHECK(set.at("last_game").at("table") == set_table);
        }
        for (const auto& p : theirs) {
            const json page = get_json(port, "/api/players/" + p);
            CHECK(page.at("ratings").size() == 1);
            CHECK(page.at("rule_sets").empty());
        }

        // Bad requests: clear errors.
        CHECK(get_json(port, "/api/games?rule_set=Quick%20Spades", 400).at("error") == "bad_parameter");
        CHECK(get_json(port, "/api/games?rule_set=quick-spades&preset=spades", 400).at("message") ==
              "preset and rule_set: give one of them, not both");
        CHECK(get_json(port, "/api/leaderboard/rule-set/-bad", 400).at("error") == "bad_parameter");
        CHECK(get_json(port, "/api/leaderboard/rule-set/", 404).at("error") == "not_found");
        CHECK(get_json(port, "/api/leaderboard/rule-set/a/b", 404).at("error") == "not_found");

        std::vector<std::string> everyone = ours;
        everyone.insert(everyone.end(), theirs.begin(), theirs.end());
        kept = pages(port, everyone);
        REQUIRE(stop_server(server, loop) == 0);
    }
    if (!rebuild) return;
    // A rebuild of the ratings from the archive makes both boards again, as they were kept.
    const ServerRun run = run_server({"--database", database, "--recompute-ratings", "--log-level", "warn"});
    CAPTURE(run.out);
    CAPTURE(run.err);
    REQUIRE(run.status == 0);
    CHECK(run.out.find("2 finished games read, 2 rated, 0 skipped: 12 rating rows written") != std::string::npos);
    TestServer again({"--database", database, "--rule-sets", sets});
    std::vector<std::string> everyone = ours;
    everyone.insert(everyone.end(), theirs.begin(), theirs.end());
    CHECK(pages(again.port(), everyone) == kept);
}

}  // namespace e2e_rule_set_games

TEST_CASE("e2e: a named rule set's games: archived under its name and filtered by it, rated on a board of their own "
          "beside the preset's, counted at hello, rebuilt by --recompute-ratings") {
    e2e_rule_set_games::play_and_check(fresh_database_path("rule-set-games"), "rsg", true);
}

TEST_CASE("e2e: a named rule set's games on PostgreSQL: the same") {
    const sparts::test::TempPgDatabase db("e2erulesetgames");
    e2e_rule_set_games::play_and_check(db.url(), "rsg-pg", true);
}
