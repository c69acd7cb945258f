// End to end: ratings and statistics (storage/README.md, "Ratings"). People play real games
// through the server; after each, every player's page holds the rating sparts::ratings
// computes here from the ratings before the game and the game_over the clients were shown,
// and the statistics counted here from the events they were shown. A game with a bot seat
// rates nobody; a player who leaves mid-game (a bot takes the seat) loses; partners from
// equal ratings move equally; the leaderboard pages by rating; bad requests get their
// errors; `--recompute-ratings` rebuilds from the archive exactly what was kept. On SQLite,
// and on PostgreSQL.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include "http_client.hpp"
#include "ratings/game_rating.hpp"
#include "support/postgres.hpp"
#include "test_client.hpp"
#include "test_server.hpp"
#include "verify_record.hpp"
#include <SQLiteCpp/SQLiteCpp.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

using namespace sparts::e2e;
namespace ratings = sparts::ratings;

namespace e2e_ratings {

json get_json(std::uint16_t port, const std::string& target, int status = 200) {
    const HttpReply r = http_get(port, target);
    CAPTURE(target);
    CAPTURE(r.body);
    REQUIRE(r.status == status);
    CHECK(r.header("content-type") == "application/json");
    return json::parse(r.body);
}

// The player's row for `preset` on its page, or null.
json row_of(std::uint16_t port, const std::string& player, const std::string& preset) {
    const json page = get_json(port, "/api/players/" + player);
    CHECK(page.at("player") == player);
    for (const json& r : page.at("ratings"))
        if (r.at("preset") == preset) return r;
    return nullptr;
}

ratings::Rating rating_of(const json& row) {
    if (row.is_null()) return {};
    return {row.at("rating").get<double>(), row.at("deviation").get<double>(), row.at("volatility").get<double>()};
}

// The statistics of `seat` counted from the events a client was shown (the definitions of
// storage/game_tally.hpp, written out again here from the protocol's events).
struct Counted {
    std::int64_t hands = 0, bids = 0, bids_made = 0, nil_bids = 0, nils_made = 0, bags = 0, moons = 0;
};
Counted count_stats(const std::vector<json>& frames, int seat) {
    Counted c;
    std::map<int, json> bid;
    std::map<int, int> tricks;
    for (const json& f : frames) {
        const json& e = f.at("event");
        const std::string type = e.value("type", "");
        if (type == "bid_made") {
            bid[e.at("seat").get<int>()] = e.at("bid");
        } else if (type == "trick_won") {
            ++tricks[e.at("winner").get<int>()];
        } else if (type == "hand_scored") {
            int best = 0;
            bool moon = false;
            for (const json& side : e.at("sides")) {
                const int m = side.at("score_sheet").value("moon", 0);
                best = &side == &e.at("sides").front() ? m : std::max(best, m);
                moon = moon || m != 0;
            }
            for (const json& side : e.at("sides")) {
                const auto& seats = side.at("seats");
                if (std::find(seats.begin(), seats.end(), seat) == seats.end()) continue;
                ++c.hands;
                const json& sheet = side.at("score_sheet");
                if (moon && sheet.value("moon", 0) == best) ++c.moons;
                const json mine = bid.count(seat) ? bid[seat] : json(nullptr);
                if (mine == "nil") {
                    ++c.nil_bids;
                    c.nils_made += tricks[seat] == 0;
                } else if (mine.is_number() && !side.at("bid").is_null()) {
                    ++c.bids;
                    c.bids_made += !sheet.contains("set");
                    c.bags += sheet.value("overtricks", 0);
                }
            }
            bid.clear();
            tricks.clear();
        }
    }
    return c;
}

void check_stats(const json& row, const Counted& c) {
    const json& s = row.at("statistics");
    CHECK(s.at("hands") == c.hands);
    CHECK(s.at("bids") == c.bids);
    CHECK(s.at("bids_made") == c.bids_made);
    CHECK(s.at("nil_bids") == c.nil_bids);
    CHECK(s.at("nils_made") == c.nils_made);
    CHECK(s.at("nils_set") == c.nil_bids - c.nils_made);
    CHECK(s.at("bags") == c.bags);
    CHECK(s.at("moons") == c.moons);
}

// What sparts::ratings makes of a finished game: the ratings before it, by seat, and its
// game_over (scores and ranks per side; seat s is on side s mod the number of sides).
std::vector<ratings::PlayerRating> rated(const std::vector<std::string>& players, const std::vector<ratings::Rating>& before,
                                         const json& over, const std::vector<std::string>& abandoned = {}) {
    const int sides = static_cast<int>(over.at("scores").size());
    std::vector<ratings::GameSeat> seats;
    for (std::size_t s = 0; s < players.size(); ++s) {
        const int team = static_cast<int>(s) % sides;
        seats.push_back({players[s], before[s], team, over.at("ranks")[static_cast<std::size_t>(team)].get<int>()});
    }
    return ratings::rate_game(seats, abandoned);
}

std::vector<std::string> players_of(const TableGame& g) {
    std::vector<std::string> out;
    for (int s = 0; s < g.seats; ++s) out.push_back(g.clients[static_cast<std::size_t>(s)]->player());
    return out;
}

std::vector<ratings::Rating> ratings_now(std::uint16_t port, const std::vector<std::string>& players, const std::string& preset) {
    std::vector<ratings::Rating> out;
    for (const auto& p : players) out.push_back(rating_of(row_of(port, p, preset)));
    return out;
}

// Plays `games` games of spades (one hand each) at one table of four people, checking every
// player's rating and statistics after each; the players' ids.
std::vector<std::string> play_and_check(EventLoop& loop, std::uint16_t port, const std::string& label, int games) {
    TableGame g = set_up_table(loop, port, label, create_table("spades", {{"hand_cap", 1}}), 4, 0, 7);
    const auto players = players_of(g);
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    for (int game = 1; game <= games; ++game) {
        CAPTURE(game);
        const auto before = ratings_now(port, players, "spades");
        g.play_to_game_over(loop, game);
        for (const auto* b : g.all())
            for (const auto& p : b->problems) FAIL_CHECK(p);
        const json over = event_of(*g.seat(0).game_over);
        const auto after = rated(players, before, over);
        for (int s = 0; s < 4; ++s) {
            CAPTURE(s);
            const json row = row_of(port, players[static_cast<std::size_t>(s)], "spades");
            REQUIRE(row.is_object());
            CHECK(row.at("rating").get<double>() == after[static_cast<std::size_t>(s)].rating.rating);
            CHECK(row.at("deviation").get<double>() == after[static_cast<std::size_t>(s)].rating.deviation);
            CHECK(row.at("volatility").get<double>() == after[static_cast<std::size_t>(s)].rating.volatility);
            CHECK(row.at("games") == game);
            CHECK(row.at("last_game").at("table") == g.table);
            CHECK(row.at("last_game").at("game") == game);
            CHECK(row.at("last_game").at("change").get<double>() ==
                  after[static_cast<std::size_t>(s)].rating.rating - before[static_cast<std::size_t>(s)].rating);
            check_stats(row, count_stats(g.seat(0).events, s));
        }
        // Partners (seats 0 and 2, 1 and 3) from equal ratings move equally.
        if (before[0].rating == before[2].rating && before[0].deviation == before[2].deviation)
            CHECK(rating_of(row_of(port, players[0], "spades")).rating == rating_of(row_of(port, players[2], "spades")).rating);
        if (game < games)
            for (int s = 0; s < 4; ++s) g.clients[static_cast<std::size_t>(s)]->request_ok({{"type", "again"}, {"table", g.table}});
    }
    return players;
}

// Every player's page, by player.
std::map<std::string, json> pages(std::uint16_t port, const std::vector<std::string>& players) {
    std::map<std::string, json> out;
    for (const auto& p : players) out[p] = get_json(port, "/api/players/" + p);
    return out;
}

// A server started on a database another process has just let go of: PostgreSQL frees the
// process's advisory lock once its backend sees the connection close, a moment later.
std::unique_ptr<TestServer> start_on(const std::string& database) {
    for (int attempt = 1;; ++attempt) {
        try {
            return std::make_unique<TestServer>(std::vector<std::string>{"--database", database});
        } catch (const std::exception&) {
            if (attempt == 20) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    }
}

ServerRun recompute(const std::string& database) {
    for (int attempt = 1;; ++attempt) {
        ServerRun run = run_server({"--database", database, "--recompute-ratings", "--log-level", "warn"});
        if (run.status == 0 || attempt == 20 || (run.out + run.err).find("in use") == std::string::npos) return run;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
}

ServerRun retire(const std::string& database, const std::string& file) {
    for (int attempt = 1;; ++attempt) {
        ServerRun run = run_server({"--database", database, "--retire-older-than", "30", "--retire-to", file,
                                    "--log-level", "warn"});
        if (run.status == 0 || attempt == 20 || (run.out + run.err).find("in use") == std::string::npos) return run;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
}

// Retention on `database`: four games played, games 1 and 2 made 40 days old by `age` (the SQL
// that moves their times back, on the backend's own connection), then retired.
// `label` names the clients' frame captures (each test its own: the tests run side by side).
void retire_and_check(const std::string& label, const std::string& database, const std::string& file,
                      const std::function<void(const std::string& sql)>& age) {
    std::vector<std::string> players;
    std::map<std::string, json> kept;
    std::string table;
    {
        TestServer server({"--database", database, "--messages-per-second", "100000", "--bot-delay-ms", "0"});
        EventLoop loop;
        players = play_and_check(loop, server.port(), label, 4);
        kept = pages(server.port(), players);
        table = get_json(server.port(), "/api/games?limit=1").at("games")[0].at("table").get<std::string>();
        REQUIRE(stop_server(server, loop) == 0);
    }
    // Games 1 and 2 ended 40 days ago, as far as the archive knows.
    const std::string days = std::to_string(40LL * 86'400'000);
    age("UPDATE archive_players SET finished_ms = finished_ms - " + days +
        " WHERE id IN (SELECT id FROM archive WHERE game <= 2)");
    age("UPDATE archive SET started_ms = started_ms - " + days + ", finished_ms = finished_ms - " + days +
        " WHERE game <= 2");
    // Without a file, or without days: refused, nothing done.
    const ServerRun alone = run_server({"--database", database, "--retire-older-than", "30"});
    REQUIRE(alone.status);
    CHECK(*alone.status == 2);
    CHECK(alone.err.find("go together") != std::string::npos);

    const ServerRun run = retire(database, file);
    CAPTURE(run.out);
    CAPTURE(run.err);
    REQUIRE(run.status == 0);
    CHECK(run.out.find("2 finished games older than 30 days retired to " + file) != std::string::npos);
    std::vector<json> lines;
    {
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
    }
    REQUIRE(lines.size() == 2);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        CAPTURE(i);
        CHECK(lines[i].at("table") == table);
        CHECK(lines[i].at("game") == static_cast<int>(i) + 1);  // the oldest first
        CHECK(lines[i].at("players").size() == 4);
        const auto [status, said] = verify_record(lines[i].at("record").dump(), "retired-" + std::to_string(i));
        const std::string words = said;
        CHECK_MESSAGE(status == 0, words);
    }
    // A second run finds nothing more to retire, and adds nothing to the file.
    const ServerRun again = retire(database, file);
    REQUIRE(again.status == 0);
    CHECK(again.out.find("0 finished games older than 30 days retired") != std::string::npos);
    {
        std::ifstream in(file);
        CHECK(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n') == 2);
    }
    {
        const auto server = start_on(database);
        CHECK(pages(server->port(), players) == kept);
        const json list = get_json(server->port(), "/api/games?player=" + players[0]);
        REQUIRE(list.at("games").size() == 2);
        CHECK(list.at("games")[0].at("game") == 4);
        CHECK(list.at("games")[1].at("game") == 3);
        get_json(server->port(), "/api/games/" + table + "/1", 404);
    }
    // A rebuild plays the two games left from the rows the retired two left: the same ratings.
    const ServerRun rebuilt = recompute(database);
    CAPTURE(rebuilt.out);
    REQUIRE(rebuilt.status == 0);
    CHECK(rebuilt.out.find("2 finished games read, 2 rated, 0 skipped: 4 rating rows written") != std::string::npos);
    const auto server = start_on(database);
    CHECK(pages(server->port(), players) == kept);
}

const std::string kAdminToken = "5b1e9c7a3d2f4e6a8c0b1d3f5e7a9c2b4d6f8e0a1c3e5b7d9f2a4c6e8b0d1f3a";

HttpReply admin(std::uint16_t port, const std::string& method, const std::string& target) {
    return http_request(port, method, target, "", {{"Authorization", "Bearer " + kAdminToken}});
}

// GET /admin/retirements until no run is under way: its last run.
json last_retirement(std::uint16_t port) {
    for (int i = 0; i < 400; ++i) {
        const HttpReply r = admin(port, "GET", "/admin/retirements");
        REQUIRE(r.status == 200);
        const json status = json::parse(r.body);
        if (!status.at("running").get<bool>()) return status.at("last");
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL("the retirement did not end");
    return nullptr;
}

// Retention while the server runs, on `database`: four games played, games 1 and 2 made 40 days
// old by `age` while the server runs, then retired by the admin API's request, into --retire-dir.
void retire_live_and_check(const std::string& label, const std::string& database,
                           const std::function<void(const std::string& sql)>& age) {
    const auto dir = std::filesystem::path(fresh_database_path(label + "-dir"));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string token = (dir / "admin-token").string();
    std::ofstream(token) << kAdminToken << "\n";
    ::chmod(token.c_str(), 0600);
    const auto retired_dir = dir / "retired";

    TestServer server({"--database", database, "--messages-per-second", "100000", "--bot-delay-ms", "0",
                       "--admin-token-file", token, "--retire-dir", retired_dir.string(), "--retire-after-days", "30",
                       "--retire-every-seconds", "0"});
    const auto port = server.port();
    EventLoop loop;
    const auto players = play_and_check(loop, port, label, 4);
    const auto kept = pages(port, players);
    const std::string table = get_json(port, "/api/games?limit=1").at("games")[0].at("table").get<std::string>();
    // Nothing is old yet: a run retires nothing and writes no file.
    REQUIRE(admin(port, "POST", "/admin/retirements").status == 200);
    json last = last_retirement(port);
    CHECK(last.at("games") == 0);
    CHECK(last.at("file").is_null());
    const bool wrote = std::filesystem::exists(retired_dir) && !std::filesystem::is_empty(retired_dir);
    CHECK_FALSE(wrote);

    // Games 1 and 2 ended 40 days ago, as far as the archive knows.
    const std::string days = std::to_string(40LL * 86'400'000);
    age("UPDATE archive_players SET finished_ms = finished_ms - " + days +
        " WHERE id IN (SELECT id FROM archive WHERE game <= 2)");
    age("UPDATE archive SET started_ms = started_ms - " + days + ", finished_ms = finished_ms - " + days +
        " WHERE game <= 2");
    // Game 1 read before it goes: the archive's cache holds it then.
    get_json(port, "/api/games/" + table + "/1");
    get_json(port, "/api/games/" + table + "/1/record");
    const HttpReply started = admin(port, "POST", "/admin/retirements");
    REQUIRE(started.status == 200);
    const std::string name = json::parse(started.body).at("file").get<std::string>();
    CHECK(name.starts_with("games-"));
    last = last_retirement(port);
    CAPTURE(last.dump());
    REQUIRE(last.at("games") == 2);
    CHECK(last.at("file") == name);
    std::vector<json> lines;
    {
        std::ifstream in(retired_dir / name);
        for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
    }
    REQUIRE(lines.size() == 2);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        CAPTURE(i);
        CHECK(lines[i].at("table") == table);
        CHECK(lines[i].at("game") == static_cast<int>(i) + 1);  // the oldest first
        const auto [status, said] = verify_record(lines[i].at("record").dump(), label + "-" + std::to_string(i));
        const std::string words = said;
        CHECK_MESSAGE(status == 0, words);
    }
    CHECK(metric(port, "sparts_games_retired_total") == 2);
    CHECK(metric(port, "sparts_retirement_last_success_timestamp_seconds") > 0);
    // Gone from the archive at once, every rating as it was.
    CHECK(pages(port, players) == kept);
    const json list = get_json(port, "/api/games?player=" + players[0]);
    REQUIRE(list.at("games").size() == 2);
    CHECK(list.at("games")[0].at("game") == 4);
    CHECK(list.at("games")[1].at("game") == 3);
    get_json(port, "/api/games/" + table + "/1", 404);
    get_json(port, "/api/games/" + table + "/1/record", 404);
    // Play goes on: a new table's game is archived and rated.
    play_and_check(loop, port, label + "-after", 1);
    REQUIRE(stop_server(server, loop) == 0);

    // A rebuild plays the games left from the rows the retired two left: the same ratings.
    const ServerRun rebuilt = recompute(database);
    CAPTURE(rebuilt.out);
    REQUIRE(rebuilt.status == 0);
    CHECK(rebuilt.out.find("3 finished games read, 3 rated, 0 skipped") != std::string::npos);
    const auto again = start_on(database);
    CHECK(pages(again->port(), players) == kept);
}

}  // namespace e2e_ratings

using namespace e2e_ratings;

TEST_CASE("e2e: ratings: all-human games move each player's rating as sparts::ratings computes it from the ratings "
          "before, the player page counts the statistics, the leaderboard pages by rating, and bad requests get "
          "their errors") {
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0"});
    const auto port = server.port();
    EventLoop loop;
    const auto players = play_and_check(loop, port, "ratings", 2);

    // The leaderboard: every player, by rating, best first; ranks; pages of one.
    const json board = get_json(port, "/api/leaderboard/spades");
    CHECK(board.at("preset") == "spades");
    CHECK(board.at("min_games") == 1);
    CHECK(board.at("next_cursor").is_null());
    REQUIRE(board.at("players").size() == 4);
    std::vector<std::pair<double, std::string>> order;
    for (const auto& p : players) order.emplace_back(rating_of(row_of(port, p, "spades")).rating, p);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (std::size_t i = 0; i < 4; ++i) {
        const json& p = board.at("players")[i];
        CHECK(p.at("rank") == i + 1);
        CHECK(p.at("player") == order[i].second);
        CHECK(p.at("rating").get<double>() == order[i].first);
        CHECK(p.at("games") == 2);
        CHECK(p.at("name").get<std::string>().rfind("ratings s", 0) == 0);
    }
    std::vector<std::string> walked;
    std::string target = "/api/leaderboard/spades?limit=1";
    for (int pages = 0; pages < 10; ++pages) {
        const json page = get_json(port, target);
        REQUIRE(page.at("players").size() == 1);
        CHECK(page.at("players")[0].at("rank") == walked.size() + 1);
        walked.push_back(page.at("players")[0].at("player"));
        if (page.at("next_cursor").is_null()) break;
        target = "/api/leaderboard/spades?limit=1&cursor=" + url_encode(page.at("next_cursor").get<std::string>());
    }
    REQUIRE(walked.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) CHECK(walked[i] == order[i].second);
    CHECK(get_json(port, "/api/leaderboard/spades?min_games=2").at("players").size() == 4);
    CHECK(get_json(port, "/api/leaderboard/spades?min_games=3").at("players").empty());
    CHECK(get_json(port, "/api/leaderboard/sparts").at("players").empty());

    // Errors.
    for (const char* bad : {"/api/leaderboard/nonsense", "/api/leaderboard/spades?limit=0",
                            "/api/leaderboard/spades?limit=501", "/api/leaderboard/spades?min_games=0",
                            "/api/leaderboard/spades?cursor=nonsense", "/api/leaderboard/spades?cursor=1500%2Fbad%21id",
                            "/api/leaderboard/spades?bogus=1", "/api/players/bad%21id", "/api/players/p1?x=1"}) {
        CAPTURE(bad);
        CHECK(get_json(port, bad, 400).at("error") == "bad_parameter");
    }
    CHECK(get_json(port, "/api/players/p0000000000000000", 404).at("error") == "no_such_player");
    CHECK(get_json(port, "/api/leaderboard/", 404).at("error") == "not_found");
    CHECK(get_json(port, "/api/players/" + players[0] + "/more", 404).at("error") == "not_found");

    TestServer none({"--database", "none"});
    CHECK(get_json(none.port(), "/api/leaderboard/spades", 503).at("error") == "no_archive");
    CHECK(get_json(none.port(), "/api/players/" + players[0], 503).at("error") == "no_archive");
}

TEST_CASE("e2e: ratings: a game with a bot seat rates nobody") {
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0"});
    const auto port = server.port();
    EventLoop loop;
    TableGame g = set_up_table(loop, port, "unrated", create_table("spades", {{"hand_cap", 1}}), 3, 0, 8);
    g.clients[0]->request_ok({{"type", "add_bot"}, {"table", g.table}, {"seat", 3}});
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    g.play_to_game_over(loop);
    for (int s = 0; s < 3; ++s)
        CHECK(get_json(port, "/api/players/" + g.clients[static_cast<std::size_t>(s)]->player()).at("ratings").empty());
    CHECK(get_json(port, "/api/leaderboard/spades").at("players").empty());
}

TEST_CASE("e2e: ratings: a player who leaves mid-game loses (a bot takes the seat), the others are rated, and the "
          "hands after it left are not its") {
    TestServer server({"--messages-per-second", "100000", "--bot-delay-ms", "0"});
    const auto port = server.port();
    EventLoop loop;
    TableGame g = set_up_table(loop, port, "leaver", create_table("spades", {{"hand_cap", 1}}), 4, 0, 9);
    const auto players = players_of(g);
    g.clients[0]->request_ok({{"type", "start"}, {"table", g.table}});
    // Seat 1 leaves once the bidding is done and a few cards are played.
    run_until(loop, g.all(), [&] { return g.seat(0).trick_cards >= 2 || g.seat(0).hands_started > 1; }, "cards played");
    g.seat(1).acting = false;
    g.clients[1]->request_ok({{"type", "leave"}, {"table", g.table}});
    std::vector<Bot*> staying = {&g.seat(0), &g.seat(2), &g.seat(3)};
    run_until(loop, staying, [&] { return std::all_of(staying.begin(), staying.end(), [](Bot* b) { return b->games_over >= 1; }); },
              "game over without seat 1");
    const json over = event_of(*g.seat(0).game_over);
    const std::vector<ratings::Rating> before(4);
    const auto after = rated(players, before, over, {players[1]});
    for (int s = 0; s < 4; ++s) {
        CAPTURE(s);
        const json row = row_of(port, players[static_cast<std::size_t>(s)], "spades");
        REQUIRE(row.is_object());
        CHECK(row.at("rating").get<double>() == after[static_cast<std::size_t>(s)].rating.rating);
        CHECK(row.at("deviation").get<double>() == after[static_cast<std::size_t>(s)].rating.deviation);
        CHECK(row.at("games") == 1);
    }
    const json leaver = row_of(port, players[1], "spades");
    CHECK(leaver.at("rating").get<double>() < 1500);
    CHECK(leaver.at("wins") == 0);
    CHECK(leaver.at("statistics").at("hands") == 0);  // the one hand was scored after it left
    CHECK(row_of(port, players[0], "spades").at("statistics").at("hands") == 1);
    // Its partner keeps its place: it is rated as if the seat were still its partner's.
    const int partner_place = over.at("ranks")[1].get<int>();
    CHECK(row_of(port, players[3], "spades").at("wins") == (partner_place == 1 ? 1 : 0));
}

TEST_CASE("e2e: ratings: sparts-server --recompute-ratings rebuilds from the archive exactly the ratings and "
          "statistics kept at each game's end") {
    const std::string database = fresh_database_path("ratings-recompute");
    std::vector<std::string> players;
    std::map<std::string, json> kept;
    {
        TestServer server({"--database", database, "--messages-per-second", "100000", "--bot-delay-ms", "0"});
        EventLoop loop;
        players = play_and_check(loop, server.port(), "recompute", 2);
        kept = pages(server.port(), players);
        REQUIRE(stop_server(server, loop) == 0);
    }
    const ServerRun run = recompute(database);
    CAPTURE(run.out);
    CAPTURE(run.err);
    REQUIRE(run.status == 0);
    CHECK(run.out.find("2 finished games read, 2 rated, 0 skipped: 4 rating rows written") != std::string::npos);
    const auto again = start_on(database);
    CHECK(pages(again->port(), players) == kept);
}

TEST_CASE("e2e: retention: --retire-older-than exports the old games to JSON Lines, each record verifying, drops them "
          "from the archive, and leaves every rating as it was, then and after --recompute-ratings") {
    const std::string database = fresh_database_path("retire");
    retire_and_check("retire", database, database + ".retired.jsonl", [&](const std::string& sql) {
        SQLite::Database raw(database, SQLite::OPEN_READWRITE);
        raw.exec(sql);
    });
}

TEST_CASE("e2e: retention on PostgreSQL: the same, the ratings left by the retired games kept for a rebuild") {
    const sparts::test::TempPgDatabase db("e2eretire");
    const std::string file = fresh_database_path("retire-pg") + ".retired.jsonl";
    retire_and_check("retire-pg", db.url(), file, [&](const std::string& sql) { db.exec(sql); });
}

TEST_CASE("e2e: retention while the server runs: the admin API's run exports the old games into --retire-dir, each "
          "record verifying, drops them from the archive at once, every rating as it was, and play goes on") {
    const std::string database = fresh_database_path("retire-live");
    retire_live_and_check("retire-live", database, [&](const std::string& sql) {
        SQLite::Database raw(database, SQLite::OPEN_READWRITE);
        raw.setBusyTimeout(10000);
        raw.exec(sql);
    });
}

TEST_CASE("e2e: retention while a server runs on PostgreSQL: the same") {
    const sparts::test::TempPgDatabase db("e2eretirelive");
    retire_live_and_check("retire-live-pg", db.url(), [&](const std::string& sql) { db.exec(sql); });
}

TEST_CASE("e2e: retention settings that cannot work stop the start, and a server without them refuses the admin "
          "API's run") {
    const std::string database = fresh_database_path("retire-settings");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--database", database, "--retire-dir", database + ".retired"},
          std::vector<std::string>{"--database", database, "--retire-after-days", "30"},
          std::vector<std::string>{"--database", "none", "--retire-dir", database + ".retired", "--retire-after-days", "30"}}) {
        const ServerRun run = run_server(args);
        REQUIRE(run.status);
        CHECK(*run.status != 0);
        CHECK_MESSAGE((run.err.find("--retire-dir") != std::string::npos), run.err);
    }
    const auto dir = std::filesystem::path(database + ".admin");
    std::filesystem::create_directories(dir);
    const std::string token = (dir / "admin-token").string();
    std::ofstream(token) << kAdminToken << "\n";
    ::chmod(token.c_str(), 0600);
    TestServer server({"--database", database, "--admin-token-file", token});
    for (const char* method : {"GET", "POST"}) {
        const HttpReply r = admin(server.port(), method, "/admin/retirements");
        CHECK(r.status == 409);
        CHECK(json::parse(r.body).at("error") == "retirement_off");
    }
}

TEST_CASE("e2e: ratings on PostgreSQL: games move the ratings as on SQLite, and --recompute-ratings rebuilds them") {
    const sparts::test::TempPgDatabase db("e2eratings");
    std::vector<std::string> players;
    std::map<std::string, json> kept;
    {
        TestServer server({"--database", db.url(), "--messages-per-second", "100000", "--bot-delay-ms", "0"});
        EventLoop loop;
        players = play_and_check(loop, server.port(), "ratings-pg", 2);
        kept = pages(server.port(), players);
        const json board = get_json(server.port(), "/api/leaderboard/spades?limit=2");
        CHECK(board.at("players").size() == 2);
        CHECK_FALSE(board.at("next_cursor").is_null());
        REQUIRE(stop_server(server, loop) == 0);
    }
    const ServerRun run = recompute(db.url());
    CAPTURE(run.out);
    CAPTURE(run.err);
    REQUIRE(run.status == 0);
    const auto again = start_on(db.url());
    CHECK(pages(again->port(), players) == kept);
}
