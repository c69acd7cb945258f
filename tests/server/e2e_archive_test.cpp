// End to end: the HTTP archive of finished games. Games are played by real
// clients at several tables (the same players at more than one, two presets,
// a table that plays twice), then the archive is listed with every filter and
// walked page by page, one game is fetched with its deal and events and
// compared with what the clients were shown, its game record is downloaded
// and accepted by the command line's `sparts verify`, and a game still in
// progress is shown nowhere.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include "http_client.hpp"
#include "test_client.hpp"
#include "test_server.hpp"

using namespace sparts::e2e;

namespace {

struct Played {
    std::string table;
    std::vector<std::unique_ptr<Bot>> bots;
    std::vector<Bot*> all() const {
        std::vector<Bot*> v;
        for (const auto& b : bots) v.push_back(b.get());
        return v;
    }
};

// `players` sit in seat order at a new table made by the first, which starts it.
Played open_table(EventLoop& loop, const std::vector<TestClient*>& players, const json& create, std::uint64_t seed) {
    Played p;
    p.table = players[0]->request_ok(create).at("table").get<std::string>();
    for (std::size_t s = 0; s < players.size(); ++s) {
        players[s]->request_ok({{"type", "sit"}, {"table", p.table}, {"seat", s}});
        p.bots.push_back(std::make_unique<Bot>(*players[s], p.table, static_cast<int>(s), seed * 100 + s));
    }
    players[0]->request_ok({{"type", "start"}, {"table", p.table}});
    (void)loop;
    return p;
}

void play_games(EventLoop& loop, Played& p, int games) {
    run_until(
        loop, p.all(),
        // Until the deal's reveal, which follows game_over: the same clients play at the next table.
        [&] { return std::all_of(p.bots.begin(), p.bots.end(), [&](const auto& b) { return b->deals_revealed >= games; }); },
        "game over " + std::to_string(games) + " at " + p.table);
    for (const auto& b : p.bots)
        for (const auto& problem : b->problems) FAIL_CHECK(problem);
}

json get_json(std::uint16_t port, const std::string& target, int status = 200) {
    const HttpReply r = http_get(port, target);
    CAPTURE(target);
    CAPTURE(r.body);
    REQUIRE(r.status == status);
    CHECK(r.header("content-type") == "application/json");
    return json::parse(r.body);
}

using GameId = std::pair<std::string, int>;

std::vector<GameId> ids_of(const json& games) {
    std::vector<GameId> v;
    for (const auto& g : games) v.emplace_back(g.at("table").get<std::string>(), g.at("game").get<int>());
    return v;
}

// Every page of a listing, `limit` at a time, following next_cursor.
std::vector<GameId> walk(std::uint16_t port, const std::string& query, int limit, int* pages = nullptr) {
    std::vector<GameId> all;
    std::string cursor;
    int n = 0;
    for (;;) {
        std::string target = "/api/games?limit=" + std::to_string(limit) + query;
        if (!cursor.empty()) target += "&cursor=" + url_encode(cursor);
        const json page = get_json(port, target);
        const auto ids = ids_of(page.at("games"));
        REQUIRE(static_cast<int>(ids.size()) <= limit);
        all.insert(all.end(), ids.begin(), ids.end());
        ++n;
        REQUIRE(n < 100);
        if (page.at("next_cursor").is_null()) break;
        REQUIRE(static_cast<int>(ids.size()) == limit);  // only a full page has a next one
        cursor = page.at("next_cursor").get<std::string>();
    }
    if (pages) *pages = n;
    return all;
}

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// `sparts verify FILE`: its exit code and what it printed.
std::pair<int, std::string> sparts_verify(const std::filesystem::path& file) {
    const auto out = file.string() + ".out";
    const std::string command = quoted(SPARTS_CLI) + " verify " + quoted(file.string()) + " >" + quoted(out) + " 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

}  // namespace

TEST_CASE("e2e: the archive lists finished games by player, preset and date in pages, serves each with its deal, "
          "events and scores and as a record sparts verify accepts, and shows no game in progress") {
    TestServer server({"--messages-per-second", "100000"});
    const auto port = server.port();
    EventLoop loop;
    std::map<std::string, std::unique_ptr<TestClient>> people;
    for (const char* name : {"ann", "bob", "cat", "dan"}) {
        people[name] = std::make_unique<TestClient>(loop, port, std::string("archive-") + name);
        REQUIRE(people[name]->hello(name).value("type", "") == "ok");
    }
    auto who = [&](const char* name) { return people[name].get(); };
    const json two_seats = create_table("spartsel", {{"seats", 2}, {"hands", 1}});

    // t1: ann and bob, two games. t2: spades, the four of them, one hand. t3: cat and dan.
    Played t1 = open_table(loop, {who("ann"), who("bob")}, two_seats, 1);
    play_games(loop, t1, 1);
    for (auto* c : {who("ann"), who("bob")}) c->request_ok({{"type", "again"}, {"table", t1.table}});
    play_games(loop, t1, 2);
    Played t2 = open_table(loop, {who("ann"), who("cat"), who("dan"), who("bob")},
                           create_table("spades", {{"hand_cap", 1}}), 2);
    play_games(loop, t2, 1);
    Played t3 = open_table(loop, {who("cat"), who("dan")}, two_seats, 3);
    play_games(loop, t3, 1);
    // t4: ann and dan, a game of two hands left in its first.
    Played t4 = open_table(loop, {who("ann"), who("dan")}, create_table("spartsel", {{"seats", 2}, {"hands", 2}}), 4);
    run_until(loop, t4.all(), [&] { return t4.bots[0]->trick_cards == 1; }, "a card played at " + t4.table);

    const std::set<GameId> finished = {{t1.table, 1}, {t1.table, 2}, {t2.table, 1}, {t3.table, 1}};

    // --- the whole list: finished games only, newest first ---------------------------
    const json all = get_json(port, "/api/games");
    CHECK(all.at("next_cursor").is_null());
    const auto all_ids = ids_of(all.at("games"));
    CHECK(std::set<GameId>(all_ids.begin(), all_ids.end()) == finished);
    CHECK(all_ids.size() == finished.size());
    std::map<GameId, json> summary;
    for (const auto& g : all.at("games")) {
        summary[{g.at("table").get<std::string>(), g.at("game").get<int>()}] = g;
        CHECK(g.at("started").get<std::int64_t>() <= g.at("finished").get<std::int64_t>());
        CHECK(g.at("result").contains("game_over"));
    }
    for (std::size_t i = 1; i < all_ids.size(); ++i)
        CHECK(all.at("games")[i - 1].at("finished").get<std::int64_t>() >= all.at("games")[i].at("finished").get<std::int64_t>());
    CHECK(summary[{t2.table, 1}].at("preset") == "spades");
    CHECK(summary[{t1.table, 2}].at("preset") == "spartsel");
    {
        const json& players = summary[{t2.table, 1}].at("players");
        REQUIRE(players.size() == 4);
        const std::vector<std::string> order = {"ann", "cat", "dan", "bob"};
        for (std::size_t s = 0; s < 4; ++s) {
            CHECK(players[s].at("name") == order[s]);
            CHECK(players[s].at("player") == who(order[s].c_str())->player());
        }
    }

    // --- filters --------------------------------------------------------------------------
    auto listed = [&](const std::string& query) {
        const auto ids = ids_of(get_json(port, "/api/games?" + query).at("games"));
        return std::set<GameId>(ids.begin(), ids.end());
    };
    CHECK(listed("player=" + url_encode(who("ann")->player())) ==
          std::set<GameId>{{t1.table, 1}, {t1.table, 2}, {t2.table, 1}});
    CHECK(listed("player=" + url_encode(who("cat")->player())) == std::set<GameId>{{t2.table, 1}, {t3.table, 1}});
    CHECK(listed("player=nobody-at-all").empty());
    CHECK(listed("preset=spades") == std::set<GameId>{{t2.table, 1}});
    CHECK(listed("preset=spartsel") == std::set<GameId>{{t1.table, 1}, {t1.table, 2}, {t3.table, 1}});
    CHECK(listed("preset=spartsel&player=" + url_encode(who("dan")->player())) == std::set<GameId>{{t3.table, 1}});
    // Dates: from is inclusive, to is exclusive; the two halves make the whole.
    const auto pivot = summary[{t2.table, 1}].at("finished").get<std::int64_t>();
    std::set<GameId> before, after;
    for (const auto& [id, g] : summary) (g.at("finished").get<std::int64_t>() < pivot ? before : after).insert(id);
    CHECK(listed("from=" + std::to_string(pivot)) == after);
    CHECK(listed("to=" + std::to_string(pivot)) == before);
    CHECK(after.contains({t2.table, 1}));
    CHECK(listed("from=" + std::to_string(pivot) + "&to=" + std::to_string(pivot + 1)).contains({t2.table, 1}));
    CHECK(listed("from=0&to=1").empty());

    // --- pages: every game once, in the order of the whole list -----------------------------
    for (int limit : {1, 2, 3, 4, 5}) {
        CAPTURE(limit);
        int pages = 0;
        CHECK(walk(port, "", limit, &pages) == all_ids);
        const int n = static_cast<int>(all_ids.size());
        CHECK(pages == (n + limit - 1) / limit);  // a page that ends the list says so: no empty last page
    }
    {
        const auto anns = walk(port, "&player=" + url_encode(who("ann")->player()), 1);
        CHECK(anns.size() == 3);
        CHECK(std::set<GameId>(anns.begin(), anns.end()).size() == 3);
    }

    // --- bad requests ---------------------------------------------------------------------
    for (const char* q : {"limit=0", "limit=501", "limit=ten", "from=yesterday", "to=-5", "colour=red", "player=%zz",
                          "cursor=garbage", "cursor=1%2Ft1", "cursor=x%2Ft1%2F1"}) {
        CAPTURE(q);
        const json e = get_json(port, std::string("/api/games?") + q, 400);
        CHECK(e.at("error") == "bad_parameter");
    }
    CHECK(get_json(port, "/api/games/" + t1.table + "/3", 404).at("error") == "no_such_game");
    CHECK(get_json(port, "/api/games/" + t1.table + "/zero", 404).at("error") == "not_found");
    CHECK(get_json(port, "/api/games/nosuchtable/1", 404).at("error") == "no_such_game");
    CHECK(get_json(port, "/api/games/" + t1.table + "/1/movie", 404).at("error") == "not_found");

    // --- a game in progress is not shown -------------------------------------------------------
    CHECK(get_json(port, "/api/games/" + t4.table + "/1", 404).at("error") == "no_such_game");
    CHECK(get_json(port, "/api/games/" + t4.table + "/1/record", 404).at("error") == "no_such_game");
    CHECK(listed("player=" + url_encode(who("dan")->player())).size() == 2);  // t2 and t3, not t4
    CHECK(listed("limit=500").size() == finished.size());

    // --- one game in full: the spades game ------------------------------------------------------
    const json game = get_json(port, "/api/games/" + t2.table + "/1");
    CHECK(game.at("table") == t2.table);
    CHECK(game.at("game") == 1);
    CHECK(game.at("preset") == "spades");
    CHECK(game.at("ruleset").at("preset") == "spades");
    CHECK(game.at("ruleset").at("options").at("hand_cap") == 1);
    CHECK(game.at("players") == summary[{t2.table, 1}].at("players"));
    // The deal of every seat, shown now that the game is over, as each seat was dealt it.
    REQUIRE(game.at("hands").size() == 1);
    const json& deal = game.at("hands")[0].at("deal");
    std::set<std::string> deck;
    for (int s = 0; s < 4; ++s) {
        CAPTURE(s);
        const json& cards = deal.at(std::to_string(s));
        CHECK(cards.size() == 13);
        for (const auto& c : cards) deck.insert(c.get<std::string>());
        const Bot& bot = *t2.bots[static_cast<std::size_t>(s)];
        const auto dealt = std::find_if(bot.events.begin(), bot.events.end(), [&](const json& f) {
            return is_event(f, "cards_dealt") && event_of(f).value("seat", -1) == s;
        });
        REQUIRE(dealt != bot.events.end());
        CHECK(event_of(*dealt).at("cards") == cards);
    }
    CHECK(deck.size() == 52);
    CHECK(!game.at("hands")[0].at("scored").is_null());
    // Every event, in seq order, as the clients were shown it (a seat's secret ones as the seat saw them).
    std::map<std::uint64_t, json> stored;
    std::uint64_t previous = 0;
    for (const auto& e : game.at("events")) {
        const auto seq = e.at("seq").get<std::uint64_t>();
        CHECK(seq > previous);
        previous = seq;
        stored[seq] = e.at("event");
    }
    std::size_t compared = 0;
    std::uint64_t first = UINT64_MAX, last = 0;
    for (const auto& b : t2.bots)
        for (const auto& f : b->events) {
            const std::string type = event_of(f).value("type", "");
            if (type == "seat_taken" || type == "game_started") continue;
            const auto seq = f.at("seq").get<std::uint64_t>();
            CAPTURE(seq);
            REQUIRE(stored.contains(seq));
            if (event_of(f).contains("cards") || !stored[seq].contains("cards")) CHECK(stored[seq] == event_of(f));
            else CHECK(stored[seq].at("type") == type);  // another seat's secret: the archive shows more
            first = std::min(first, seq);
            last = std::max(last, seq);
            ++compared;
        }
    CHECK(compared > 4 * 52);
    CHECK(stored.begin()->first <= first);  // nothing the clients saw is missing at the start
    CHECK(stored.rbegin()->first == last);  // the archive ends at the deal's reveal the clients saw
    CHECK(stored.rbegin()->second.at("type") == "deal_revealed");
    // The scores: the game_over every client saw, just before.
    const json over = t2.bots[0]->game_over->at("event");
    for (const auto& b : t2.bots) CHECK(b->game_over->at("event") == over);
    CHECK(std::prev(stored.end(), 2)->second == over);
    CHECK(game.at("result").at("game_over") == over);

    // --- the game records, through the command line ---------------------------------------------------
    const auto dir = std::filesystem::path(SPARTS_BINARY_DIR) / "e2e-scratch" / ("archive-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const auto& id : finished) {
        CAPTURE(id.first);
        CAPTURE(id.second);
        const std::string name = id.first + "-" + std::to_string(id.second);
        const HttpReply r = http_get(port, "/api/games/" + id.first + "/" + std::to_string(id.second) + "/record");
        REQUIRE(r.status == 200);
        CHECK(r.header("content-type") == "application/json");
        CHECK(r.header("content-disposition") == "attachment; filename=\"" + name + ".json\"");
        const json record = json::parse(r.body);
        CHECK(record.at("ruleset").at("preset") == summary[id].at("preset"));
        CHECK(record.at("seats").size() == summary[id].at("players").size());
        CHECK(record.at("result").at("scores") == summary[id].at("result").at("game_over").at("scores"));
        std::ofstream(dir / (name + ".json")) << r.body;
        const auto [code, said] = sparts_verify(dir / (name + ".json"));
        const std::string verify_said = said;  // clang 15 cannot capture a structured binding
        CAPTURE(verify_said);
        CHECK(code == 0);
        CHECK(said.find("verified") != std::string::npos);
    }
    // And sparts verify is no rubber stamp: the same record with a score changed is refused.
    {
        json record = json::parse(http_get(port, "/api/games/" + t2.table + "/1/record").body);
        record["result"]["scores"][0] = record["result"]["scores"][0].get<int>() + 10;
        std::ofstream(dir / "tampered.json") << record.dump();
        const auto [code, said] = sparts_verify(dir / "tampered.json");
        const std::string verify_said = said;  // clang 15 cannot capture a structured binding
        CAPTURE(verify_said);
        CHECK(code == 2);
    }
    std::filesystem::remove_all(dir);

    // Once t4's game ends, it is listed.
    run_until(
        loop, t4.all(), [&] { return t4.bots[0]->games_over > 0 && t4.bots[1]->games_over > 0; }, "game over at " + t4.table);
    CHECK(listed("player=" + url_encode(who("dan")->player())).size() == 3);
    CHECK(get_json(port, "/api/games/" + t4.table + "/1").at("hands").size() == 2);
    CHECK(stop_server(server, loop) == 0);
}
