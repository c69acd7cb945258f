// The archive's pages on SQLite (schema version 10, its players numbered since 12): every shape of query (a player, a preset,
// a date range, all of them together, none; first pages, pages from a cursor, filters that
// match nothing) pages through exactly the games a plain filter of what was written gives,
// newest first; and SQLite's plan for each reads the page from an index in its order, so that
// a plan that scans the archive fails here rather than at a host with millions of games.
#include <doctest/doctest.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <algorithm>
#include <set>
#include "storage/archive_cursor.hpp"
#include "storage/sqlite/sqlite_archive.hpp"
#include "storage/sqlite/sqlite_ratings.hpp"
#include "storage/sqlite/sqlite_store.hpp"
#include "storage/temp_file.hpp"

using namespace sparts::storage;
using sparts::test::TempDatabase;

namespace {

struct Written {
    std::int64_t id = 0;  // its place in the archive: games are written in order, from 1
    std::string table;
    int game = 0;
    std::string preset;
    Millis finished = 0;
    std::vector<std::string> players;
    std::string rule_set;  // a host's named rule set: one spades game in three
};

const std::vector<std::string> kPresets = {"spades", "sparts", "spartsel"};

std::string player(int n) {
    char id[18];
    std::snprintf(id, sizeof id, "p%016x", n);
    return id;
}

// `games` finished games at 30 tables, three presets, 4 seats from 40 players (one game in five
// with a bot); three games a second, so that many share a millisecond... and, every seventh, a
// game that finished a little before the one archived before it (a commit's clock is its table's).
std::vector<Written> write_games(Store& store, int games) {
    std::vector<Written> out;
    Batch batch;
    std::uint64_t x = 12345;
    const auto next = [&] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>(x >> 33);
    };
    for (int i = 0; i < games; ++i) {
        Written w;
        w.id = i + 1;
        w.table = "t" + std::to_string(i % 30 + 1);
        w.game = i / 30 + 1;
        w.preset = kPresets[static_cast<std::size_t>(next() % 3)];
        w.finished = 1'700'000'000'000 + (i / 3) * 1000 - (i % 7 == 6 ? 2500 : 0);
        std::string players = "[";
        for (int s = 0; s < 4; ++s) {
            if (s == 3 && i % 5 == 0) {
                players += R"(,{"bot":true,"name":"Bot"})";
                continue;
            }
            std::string p;
            do p = player(next() % 40);
            while (std::find(w.players.begin(), w.players.end(), p) != w.players.end());
            w.players.push_back(p);
            players += (s ? "," : "") + std::string(R"({"player":")") + p + R"(","name":"N"})";
        }
        players += "]";
        if (w.preset == "spades" && i % 3 == 0) w.rule_set = "street";
        ArchiveGame g{{w.table, w.game, w.preset, R"({"preset":")" + w.preset + R"(","options":{}})", players,
                       R"({"game_over":{}})", w.finished - 60'000, w.finished, w.rule_set},
                      7,
                      "",
                      "not a record: these pages never read it"};
        batch.push_back(std::move(g));
        out.push_back(std::move(w));
        if (batch.size() == 200) {
            store.submit(std::move(batch), nullptr);
            batch.clear();
        }
    }
    store.submit(std::move(batch), nullptr);
    REQUIRE(store.flush(std::chrono::seconds(60)));
    return out;
}

// What a query's pages must hold, from a plain filter of what was written.
std::vector<std::pair<std::string, int>> expected(const std::vector<Written>& all, const ArchiveQuery& q) {
    std::vector<const Written*> match;
    for (const Written& w : all) {
        if (!q.player.empty() && std::find(w.players.begin(), w.players.end(), q.player) == w.players.end()) continue;
        if (!q.preset.empty() && w.preset != q.preset) continue;
        if (!q.rule_set.empty() && w.rule_set != q.rule_set) continue;
        if (q.from > 0 && w.finished < q.from) continue;
        if (q.to > 0 && w.finished >= q.to) continue;
        match.push_back(&w);
    }
    std::sort(match.begin(), match.end(), [](const Written* a, const Written* b) {
        return a->finished != b->finished ? a->finished > b->finished : a->id > b->id;
    });
    std::vector<std::pair<std::string, int>> out;
    for (const Written* w : match) out.emplace_back(w->table, w->game);
    return out;
}

std::vector<std::pair<std::string, int>> paged(Store& store, ArchiveQuery q, int* pages = nullptr) {
    std::vector<std::pair<std::string, int>> out;
    for (int n = 1;; ++n) {
        const ArchivePage page = store.list_games(q);
        CHECK(static_cast<int>(page.games.size()) <= q.limit);
        for (const auto& g : page.games) {
            out.emplace_back(g.table, g.game);
            if (!q.rule_set.empty()) CHECK(g.rule_set == q.rule_set);
        }
        if (pages) *pages = n;
        if (page.next_cursor.empty()) return out;
        REQUIRE(n < 10000);
        q.cursor = page.next_cursor;
    }
}

// Why a plan does not read its page from an index in page order; empty when it does. Without
// a player: one step, a SEARCH (or, for the first page of everything, an ordered SCAN) of
// archive_preset when a preset is asked for and archive_finished otherwise, and no sort. With a
// player: every step on archive_players a SEARCH of its key by player number and preset, the page's
// games then found by id; the sort merges the players' presets' first pages, a few hundred rows.
std::string plan_problem(const std::vector<std::string>& plan, const ArchiveQuery& q) {
    std::string all;
    for (const auto& line : plan) all += line + " | ";
    if (q.player.empty()) {
        if (plan.size() != 1) return "one step expected: " + all;
        if (!q.rule_set.empty()) {
            const std::string& line = plan[0];
            if (line.rfind("SEARCH a USING INDEX archive_rule_set (rule_set=?", 0) != 0)
                return "not a range of archive_rule_set: " + all;
            return {};
        }
        const std::string index = q.preset.empty() ? "archive_finished" : "archive_preset";
        const std::string& line = plan[0];
        const bool searched = line.rfind("SEARCH a USING INDEX " + index + " (", 0) == 0 ||
                              line.rfind("SEARCH a USING COVERING INDEX " + index + " (", 0) == 0;
        const bool ordered_scan = q.preset.empty() && q.from == 0 && q.to == 0 && q.cursor.empty() &&
                                  line == "SCAN a USING INDEX archive_finished";
        if (!searched && !ordered_scan) return "not a range of " + index + ": " + all;
        if (!q.preset.empty() && line.find("preset=?") == std::string::npos) return "the preset is not in the range: " + all;
        return {};
    }
    int searches = 0;
    for (const auto& line : plan) {
        if (line.find("archive_players") != std::string::npos) {
            if (line.rfind("SEARCH archive_players USING PRIMARY KEY (number=? AND preset=?", 0) != 0)
                return "not a range of a player's preset: " + all;
            ++searches;
        } else if (line.rfind("SCAN a", 0) == 0 || line.rfind("SEARCH a USING INDEX", 0) == 0 ||
                   line.rfind("SEARCH a USING COVERING INDEX", 0) == 0) {
            return "the archive itself is scanned: " + all;
        } else if (line.rfind("SEARCH a ", 0) == 0 && line != "SEARCH a USING INTEGER PRIMARY KEY (rowid=?)") {
            return "the games are not found by id: " + all;
        }
    }
    return searches == 0 ? "archive_players is not read: " + all : std::string();
}

}  // namespace

TEST_CASE("archive pages on SQLite: every filter and combination pages through exactly its games, newest first, each "
          "page read from an index in its order") {
    TempDatabase db("archive-pages");
    auto opened = SqliteStore::open(db.path());
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    SqliteStore& store = **opened;
    const std::vector<Written> all = write_games(store, 3000);
    const Millis first = all.front().finished;
    const Millis last = all.back().finished;

    std::vector<ArchiveQuery> shapes;
    const auto add = [&](std::string who, std::string preset, Millis from, Millis to, std::string rule_set = {}) {
        ArchiveQuery q;
        q.player = std::move(who);
        q.preset = std::move(preset);
        q.rule_set = std::move(rule_set);
        q.from = from;
        q.to = to;
        q.limit = 37;
        shapes.push_back(q);
    };
    const Millis mid = first + (last - first) / 2;
    for (const std::string& who : {std::string(), player(3), player(39), player(1000)})
        for (const std::string& preset : {std::string(), std::string("sparts"), std::string("worldwinner-spades")})
            for (const auto& [from, to] : std::vector<std::pair<Millis, Millis>>{
                     {0, 0}, {mid - 100'000, 0}, {0, mid}, {mid - 100'000, mid + 50'000}, {last + 1, 0}})
                add(who, preset, from, to);
    // A host's named rule set: alone, with a player, with dates; one no game has.
    for (const std::string& who : {std::string(), player(3), player(1000)})
        for (const std::string& set : {std::string("street"), std::string("no-such-set")})
            for (const auto& [from, to] : std::vector<std::pair<Millis, Millis>>{{0, 0}, {mid - 100'000, mid + 50'000}, {last + 1, 0}})
                add(who, "", from, to, set);

    for (const ArchiveQuery& q : shapes) {
        CAPTURE(q.player);
        CAPTURE(q.preset);
        CAPTURE(q.rule_set);
        CAPTURE(q.from);
        CAPTURE(q.to);
        const auto want = expected(all, q);
        int pages = 0;
        CHECK(paged(store, q, &pages) == want);
        CHECK(pages == std::max<int>(1, static_cast<int>((want.size() + 36) / 37)));
        // Every page's plan, the first and one from a cursor in the middle.
        CHECK(plan_problem(store.list_games_plan(q), q) == "");
        ArchiveQuery deeper = q;
        deeper.cursor = ArchiveCursor{mid, 1500}.text();
        CHECK(plan_problem(store.list_games_plan(deeper), deeper) == "");
    }

    // An older server's cursor ("finished/table/game") goes on after the game it names.
    ArchiveQuery q;
    q.limit = 10;
    const ArchivePage one = store.list_games(q);
    const auto& tenth = one.games.back();
    q.cursor = std::to_string(tenth.finished) + "/" + tenth.table + "/" + std::to_string(tenth.game);
    ArchiveQuery same;
    same.limit = 10;
    same.cursor = one.next_cursor;
    const ArchivePage legacy = store.list_games(q);
    const ArchivePage current = store.list_games(same);
    REQUIRE(legacy.games.size() == 10);
    for (std::size_t i = 0; i < 10; ++i) CHECK(legacy.games[i].table + std::to_string(legacy.games[i].game) ==
                                               current.games[i].table + std::to_string(current.games[i].game));
}

TEST_CASE("archive pages on SQLite: the plan check fails a plan that scans (an index dropped)") {
    TempDatabase db("archive-plan");
    {
        auto opened = SqliteStore::open(db.path());
        REQUIRE(opened);
        write_games(**opened, 300);
    }
    SQLite::Database raw(db.path(), SQLite::OPEN_READWRITE);
    ArchiveQuery preset;
    preset.preset = "sparts";
    ArchiveQuery range;
    range.from = 1'700'000'010'000;
    ArchiveQuery who;
    who.player = player(3);
    ArchiveQuery set;
    set.rule_set = "street";
    CHECK(plan_problem(sqlite_list_games_plan(raw, set), set) == "");
    raw.exec("DROP INDEX archive_rule_set");
    CHECK(plan_problem(sqlite_list_games_plan(raw, set), set) != "");
    CHECK(plan_problem(sqlite_list_games_plan(raw, preset), preset) == "");
    raw.exec("DROP INDEX archive_preset");
    CHECK(plan_problem(sqlite_list_games_plan(raw, preset), preset) != "");
    CHECK(plan_problem(sqlite_list_games_plan(raw, range), range) == "");
    raw.exec("DROP INDEX archive_finished");
    CHECK(plan_problem(sqlite_list_games_plan(raw, range), range) != "");
    CHECK(plan_problem(sqlite_list_games_plan(raw, who), who) == "");
    raw.exec("CREATE TABLE keep AS SELECT * FROM archive_players; DROP TABLE archive_players; "
             "CREATE TABLE archive_players (number INTEGER, preset TEXT, finished_ms INTEGER, id INTEGER); "
             "INSERT INTO archive_players SELECT * FROM keep");
    CHECK(plan_problem(sqlite_list_games_plan(raw, who), who) != "");
}

TEST_CASE("the leaderboard's stretches and a player's rows on SQLite are read from their indexes in order") {
    TempDatabase db("board-plan");
    { auto opened = SqliteStore::open(db.path()); REQUIRE(opened); }
    SQLite::Database raw(db.path(), SQLite::OPEN_READONLY);
    const std::vector<std::string> plans = sqlite_ratings_plan(raw);
    REQUIRE(plans.size() == 3);
    for (const std::string& plan : plans) {
        CAPTURE(plan);
        CHECK(plan.find("TEMP B-TREE") == std::string::npos);  // no sort: the index yields the order
        CHECK(plan.find("SCAN r") == std::string::npos);
    }
    CHECK(plans[0].rfind("SEARCH r USING INDEX ratings_board (preset=?)", 0) == 0);
    CHECK(plans[1].rfind("SEARCH r USING INDEX ratings_board (preset=? AND rating<?)", 0) == 0);
    CHECK(plans[2].rfind("SEARCH r USING PRIMARY KEY (player=?)", 0) == 0);
}
