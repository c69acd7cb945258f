// The archive's pages on PostgreSQL (schema version 6), as tests/storage/sqlite_archive_test.cpp
// on SQLite: every shape of query (a player, a preset, a date range, all of them together, none;
// first pages, pages from a cursor, the last page, filters that match nothing) pages through
// exactly the games a plain filter of what was written gives, newest first; and PostgreSQL's plan
// for each (EXPLAIN, on 20,000 games after VACUUM ANALYZE) reads the page from an index in its order, so
// that a plan that scans the archive fails here rather than at a host with millions of games.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include "storage/archive_cursor.hpp"
#include "storage/postgres/pg_store.hpp"
#include "support/postgres.hpp"

// A namespace of its own, not an anonymous one: the suites may be compiled as one source (SPARTS_UNITY),
// beside sqlite_archive_test.cpp's helpers of the same names.
namespace pg_archive_test {

using namespace sparts::storage;
using sparts::test::TempPgDatabase;

struct Written {
    std::int64_t id = 0;  // its place in the archive: games are written in order, from 1
    std::string table;
    int game = 0;
    std::string preset;
    Millis finished = 0;
    std::vector<std::string> players;
    std::string rule_set;  // a host's named rule set: one spades game in three
};

std::string player(int n) {
    char id[18];
    std::snprintf(id, sizeof id, "p%016x", n);
    return id;
}

// A preset for a draw from 0 to 99: spades half the games, bga-sparts two in a hundred.
std::string preset_of(int draw) {
    if (draw < 50) return "spades";
    if (draw < 75) return "sparts";
    if (draw < 90) return "spartsel";
    if (draw < 98) return "worldwinner-spades";
    return "bga-sparts";
}

// `games` finished games at 200 tables, five presets, 4 seats from 300 players (one game in five
// with a bot): players 280 to 299 play bga-sparts only, the others every other preset. A game
// every 43 seconds, three at a time in the same millisecond, over ten days; every seventh game
// finished a little before the one archived before it (a commit's clock is its table's).
std::vector<Written> write_games(Store& store, int games) {
    std::vector<Written> out;
    Batch batch;
    std::uint64_t x = 424242;
    const auto next = [&] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>(x >> 33);
    };
    for (int i = 0; i < games; ++i) {
        Written w;
        w.id = i + 1;
        w.table = "t" + std::to_string(i % 200 + 1);
        w.game = i / 200 + 1;
        w.preset = preset_of(next() % 100);
        w.finished = 1'700'000'000'000 + (i / 3) * 130'000 - (i % 7 == 6 ? 200'000 : 0);
        const bool few = w.preset == "bga-sparts";
        std::string players = "[";
        for (int s = 0; s < 4; ++s) {
            if (s == 3 && i % 5 == 0) {
                players += R"(,{"bot":true,"name":"Bot"})";
                continue;
            }
            std::string p;
            do p = player(few ? 280 + next() % 20 : next() % 280);
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
        if (batch.size() == 1000) {
            store.submit(std::move(batch), nullptr);
            batch.clear();
        }
    }
    store.submit(std::move(batch), nullptr);
    REQUIRE(store.flush(std::chrono::seconds(120)));
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

// The games of every page of `q`, and the cursors the pages gave.
std::vector<std::pair<std::string, int>> paged(Store& store, ArchiveQuery q, std::vector<std::string>& cursors) {
    std::vector<std::pair<std::string, int>> out;
    for (int n = 1;; ++n) {
        const ArchivePage page = store.list_games(q);
        CHECK(static_cast<int>(page.games.size()) <= q.limit);
        for (const auto& g : page.games) out.emplace_back(g.table, g.game);
        if (page.next_cursor.empty()) return out;
        REQUIRE(n < 10000);
        cursors.push_back(page.next_cursor);
        q.cursor = page.next_cursor;
    }
}

// Why a plan does not read its page from an index in page order; empty when it does. No Seq Scan,
// no bitmap scan (it reads a whole range, unordered), no Filter (rows read and thrown away): a
// range of an index alone. Without a player: one scan, of archive_preset when a preset is asked
// for and archive_finished otherwise, with the preset and the dates in its Index Cond, and no
// sort. With a player: archive_players read by its key, the player and a preset in each range's
// Index Cond (the steps that find the player's presets, the player alone), and the page's games
// then found in the archive by id; the sort merges the presets' first pages, a few hundred rows.
std::string plan_problem(const std::vector<std::string>& plan, const ArchiveQuery& q) {
    std::string all;
    for (const auto& line : plan) all += line + "\n";
    const auto has = [](const std::string& line, const std::string& what) { return line.find(what) != std::string::npos; };
    if (has(all, "Seq Scan")) return "a Seq Scan:\n" + all;
    if (has(all, "Bitmap")) return "a bitmap scan:\n" + all;
    // Each scan node and the lines that detail it (its Index Cond, its Filter), up to the next node.
    struct Scan {
        std::string node;
        std::string details;
    };
    std::vector<Scan> scans;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        if (!has(plan[i], " Scan ")) continue;
        Scan s{plan[i], {}};
        for (std::size_t j = i + 1; j < plan.size() && !has(plan[j], "->"); ++j) s.details += plan[j] + "\n";
        scans.push_back(s);
    }
    const bool dates = q.from > 0 || q.to > 0 || !q.cursor.empty();
    const auto bounded = [&](const Scan& s) {
        return has(s.details, "Index Cond: ") && !has(s.details, "Filter: ") &&
               (!dates || has(s.details, "finished_ms"));
    };
    if (q.player.empty()) {
        if (scans.size() != 1) return "one scan expected:\n" + all;
        if (has(all, "Sort")) return "a sort:\n" + all;
        const std::string index = !q.rule_set.empty() ? "archive_rule_set"
                                  : q.preset.empty()    ? "archive_finished"
                                                        : "archive_preset";
        if (!has(scans[0].node, "Index Scan Backward using " + index + " on archive a"))
            return "not a range of " + index + " read backwards:\n" + all;
        if (!q.preset.empty() && !has(scans[0].details, "ROW(preset, finished_ms, id)"))
            return "the preset is not in the range:\n" + all;
        if (!q.rule_set.empty() && !has(scans[0].details, "ROW(rule_set, finished_ms, id)"))
            return "the rule set is not in the range:\n" + all;
        if ((dates || !q.preset.empty() || !q.rule_set.empty()) && !bounded(scans[0]))
            return "not a range of the index alone:\n" + all;
        return {};
    }
    int ranges = 0;
    int games = 0;
    for (const Scan& s : scans) {
        if (has(s.node, "CTE Scan on presets") || has(s.node, "WorkTable Scan on presets")) continue;
        if (has(s.node, "using archive_players_pkey on archive_players")) {
            if (!has(s.details, "Index Cond: (") || !has(s.details, "(player = ") || has(s.details, "Filter: "))
                return "not a range of the player's:\n" + all;
            if (has(s.details, "ROW(preset, finished_ms, id)")) {
                if (!has(s.node, "Backward")) return "a player's range not read backwards:\n" + all;
                ++ranges;
            }
            continue;
        }
        if (has(s.node, "Index Scan using archive_pkey on archive a")) {
            if (!has(s.details, "Index Cond: (id = ") || has(s.details, "Filter: ")) return "the games are not found by id:\n" + all;
            ++games;
            continue;
        }
        return "a scan of neither archive_players' ranges nor the archive by id:\n" + all;
    }
    if (ranges == 0) return "no range of archive_players:\n" + all;
    if (games != 1) return "the archive is not read by id:\n" + all;
    return {};
}

std::unique_ptr<PgStore> open(const TempPgDatabase& db) {
    auto opened = PgStore::open(db.url());
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    return std::move(*opened);
}

TEST_CASE("archive pages on PostgreSQL: every filter and combination pages through exactly its games, newest first, "
          "each page read from an index in its order") {
    const TempPgDatabase db("archivepages");
    auto store = open(db);
    const std::vector<Written> all = write_games(*store, 20000);
    // As autovacuum leaves a table that grows (PostgreSQL 13 and after): its visibility map set, so that
    // a range of archive_players is read from the index alone, in order. (Just after the inserts, with
    // no page known all-visible, the planner read small ranges by a bitmap, then sorted them.)
    db.exec("VACUUM ANALYZE");
    const Millis first = all.front().finished;
    const Millis last = all.back().finished;
    const Millis day = 86'400'000;
    const Millis mid = first + (last - first) / 2;

    std::vector<ArchiveQuery> shapes;
    const auto add = [&](std::string who, std::string preset, std::string rule_set, Millis from, Millis to) {
        ArchiveQuery q;
        q.player = std::move(who);
        q.preset = std::move(preset);
        q.rule_set = std::move(rule_set);
        q.from = from;
        q.to = to;
        q.limit = 50;
        shapes.push_back(std::move(q));
    };
    for (const std::string& who : {std::string(), player(3), player(285), player(1000)})
        for (const std::string& preset : {std::string(), std::string("spades"), std::string("bga-sparts"),
                                          std::string("nonesuch")})
            for (const auto& [from, to] : std::vector<std::pair<Millis, Millis>>{
                     {0, 0}, {mid - day, 0}, {0, mid}, {mid - 2 * day, mid + day / 2}, {last + 1, 0}})
                add(who, preset, "", from, to);
    CHECK(shapes.size() == 80);
    // A host's named rule set: alone, with a player, with dates; one no game has.
    for (const std::string& who : {std::string(), player(3), player(1000)})
        for (const std::string& set : {std::string("street"), std::string("nonesuch")})
            for (const auto& [from, to] :
                 std::vector<std::pair<Millis, Millis>>{{0, 0}, {mid - 2 * day, mid + day / 2}, {last + 1, 0}})
                add(who, "", set, from, to);

    for (const ArchiveQuery& q : shapes) {
        CAPTURE(q.player);
        CAPTURE(q.preset);
        CAPTURE(q.rule_set);
        CAPTURE(q.from);
        CAPTURE(q.to);
        const auto want = expected(all, q);
        std::vector<std::string> cursors;
        CHECK(paged(*store, q, cursors) == want);
        CHECK(cursors.size() == (want.empty() ? 0 : (want.size() - 1) / 50));
        // The plans of the first page, of a page from a cursor in the middle of the archive, and
        // of the query's own last page.
        CHECK(plan_problem(store->list_games_plan(q), q) == "");
        ArchiveQuery deeper = q;
        deeper.cursor = ArchiveCursor{mid, 10000}.text();
        CHECK(plan_problem(store->list_games_plan(deeper), deeper) == "");
        if (!cursors.empty()) {
            ArchiveQuery final_page = q;
            final_page.cursor = cursors.back();
            CHECK(plan_problem(store->list_games_plan(final_page), final_page) == "");
        }
    }

    // An older server's cursor ("finished/table/game") goes on after the game it names.
    ArchiveQuery q;
    q.limit = 10;
    const ArchivePage one = store->list_games(q);
    const auto& tenth = one.games.back();
    q.cursor = std::to_string(tenth.finished) + "/" + tenth.table + "/" + std::to_string(tenth.game);
    ArchiveQuery same;
    same.limit = 10;
    same.cursor = one.next_cursor;
    const ArchivePage legacy = store->list_games(q);
    const ArchivePage current = store->list_games(same);
    REQUIRE(legacy.games.size() == 10);
    for (std::size_t i = 0; i < 10; ++i)
        CHECK(legacy.games[i].table + "/" + std::to_string(legacy.games[i].game) ==
              current.games[i].table + "/" + std::to_string(current.games[i].game));
}

TEST_CASE("archive pages on PostgreSQL: the plan check fails a plan that scans (an index dropped), and passes again "
          "once it is back") {
    const TempPgDatabase db("archiveplan");
    auto store = open(db);
    write_games(*store, 3000);
    db.exec("VACUUM ANALYZE");  // as above
    ArchiveQuery preset;
    preset.preset = "sparts";
    ArchiveQuery range;
    range.from = 1'700'000'000'000 + 200 * 130'000;
    ArchiveQuery who;
    who.player = player(3);
    ArchiveQuery who_preset = who;
    who_preset.preset = "spades";
    for (const ArchiveQuery* q : {&preset, &range, &who, &who_preset}) CHECK(plan_problem(store->list_games_plan(*q), *q) == "");

    db.exec("DROP INDEX archive_preset");
    CHECK(plan_problem(store->list_games_plan(preset), preset) != "");
    db.exec("CREATE INDEX archive_preset ON archive (preset, finished_ms, id)");
    CHECK(plan_problem(store->list_games_plan(preset), preset) == "");

    db.exec("DROP INDEX archive_finished");
    CHECK(plan_problem(store->list_games_plan(range), range) != "");
    db.exec("CREATE INDEX archive_finished ON archive (finished_ms, id)");
    CHECK(plan_problem(store->list_games_plan(range), range) == "");

    db.exec("ALTER TABLE archive_players DROP CONSTRAINT archive_players_pkey");
    CHECK(plan_problem(store->list_games_plan(who), who) != "");
    CHECK(plan_problem(store->list_games_plan(who_preset), who_preset) != "");
    db.exec("ALTER TABLE archive_players ADD PRIMARY KEY (player, preset, finished_ms, id)");
    CHECK(plan_problem(store->list_games_plan(who), who) == "");
    CHECK(plan_problem(store->list_games_plan(who_preset), who_preset) == "");
}

}  // namespace pg_archive_test
