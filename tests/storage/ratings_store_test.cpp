// Ratings and statistics in the store, against both backends (storage/README.md, "Ratings"):
// a rated game's end moves its players' rows in the same commit, to what sparts::ratings
// computes; a failed commit writes neither; the leaderboard pages; what is rebuilt from the
// archive equals what was kept; and the schema upgrades of each backend.
#include <doctest/doctest.h>
#include "storage/exact_double.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <map>
#include <thread>
#include <nlohmann/json.hpp>
#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "protocol/action_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"
#include "ratings/game_rating.hpp"
#include "storage/backends.hpp"
#include "storage/game_log.hpp"
#include "storage/game_tally.hpp"
#include "storage/postgres/pg_schema.hpp"
#include "storage/rating_rebuild.hpp"
#include "storage/sqlite/schema.hpp"
#include "storage/backends/sqlite_to_postgres.hpp"

using namespace sparts;
using namespace sparts::storage;
using sparts::test::PostgresBackend;
using sparts::test::SqliteBackend;
using nlohmann::json;

namespace ratings_store_test {

struct Played {
    Batch writes;  // StartGame .. FinishGame, as a table writes them
    FinishGame finish;
};

// Every seat a person's (`players`, in seat order) plays `preset` through the engine with
// random legal moves to the end, written as a table writes it, tallied as a table tallies it.
// `leaver`: a seat whose person leaves after `leave_at` actions, a bot playing on for it.
Played play_rated(const std::string& table, int game, std::uint64_t seed, Millis at, const std::vector<std::string>& players,
                  std::string_view preset = "spades", std::vector<OptionSetting> options = {{"hand_cap", "2"}},
                  int leaver = -1, int leave_at = 0) {
    const Ruleset rules = *make_ruleset(preset, options);
    Played out;
    json seats = json::array();
    for (const auto& p : players) seats.push_back({{"player", p}, {"name", "name of " + p}});
    out.writes.push_back(StartGame{table, game, seed, dump_text(to_json(rules)), dump_text(seats), at, {}});
    GameTally tally(rules, players);
    std::uint64_t seq = static_cast<std::uint64_t>(game) * 100000;
    const auto table_event = [&](const json& e) {
        out.writes.push_back(AppendEvent{table, ++seq, game, e.at("type").get<std::string>(), dump_text(e), at});
        tally.observe_table_event(e);
    };
    std::optional<GameOver> over;
    const auto engine = [&](std::span<const Event> events, std::optional<Cause> cause) {
        out.writes.push_back(EngineEvents{table, seq + 1, static_cast<std::uint32_t>(events.size()), game, at, cause});
        seq += events.size();
        for (const Event& e : events) {
            tally.observe(e);
            if (const auto* o = std::get_if<GameOver>(&e)) over = *o;
        }
    };
    table_event({{"type", "game_started"}, {"game", game}, {"ruleset", to_json(rules)}});
    Game g = *Game::create(rules, seed);
    engine(g.start(), std::nullopt);
    Rng rng(seed, 1);
    for (int i = 0; !g.over(); ++i) {
        if (leaver >= 0 && i == leave_at) {
            table_event({{"type", "seat_left"}, {"seat", leaver}});
            table_event({{"type", "seat_taken"}, {"seat", leaver}, {"player", nullptr}, {"bot", true}});
        }
        at += 10;
        Seat seat = 0;
        while (!((g.waiting_for() >> seat) & 1)) ++seat;
        const Action action = random_action(g.legal_moves(seat), rng);
        auto applied = g.apply(seat, action);
        REQUIRE(applied);
        const std::vector<Event> events(applied->begin(), applied->end());
        engine(events, Cause{seat, action, {}});
    }
    REQUIRE(over);
    out.finish = FinishGame{table, game, R"({"game_over":{}})", at};
    out.finish.preset = to_string(rules.preset);
    out.finish.rated = tally.result(*over);
    out.writes.push_back(out.finish);
    return out;
}

void commit(Store& store, Batch batch) {
    store.submit(std::move(batch), nullptr);
    REQUIRE(store.flush(std::chrono::seconds(60)));
}

Batch people(const std::vector<std::string>& ids) {
    Batch b;
    for (const auto& id : ids) b.push_back(PutPlayer{id, "hash-" + id, "name of " + id, 1});
    return b;
}

Batch a_table(const std::string& id, int number) {
    return {OpenTable{id, number, R"({"preset":"spades","options":{}})", "spades", 4, false, "", 0, "p1", 1}};
}

// The rows sparts::ratings gives, game after game, written out here apart from the store's
// RatingBook: by (player, preset).
struct Expected {
    std::map<std::pair<std::string, std::string>, PresetRating> rows;

    void game(const FinishGame& f) {
        std::vector<ratings::GameSeat> seats;
        std::vector<std::string> abandoned;
        for (const RatedSeat& s : f.rated) {
            PresetRating& r = row(s.player, f.preset);
            seats.push_back({s.player, {r.rating, r.deviation, r.volatility}, s.team, s.place});
            if (s.abandoned) abandoned.push_back(s.player);
        }
        const auto after = ratings::rate_game(seats, abandoned);
        for (std::size_t i = 0; i < f.rated.size(); ++i) {
            const RatedSeat& s = f.rated[i];
            PresetRating& r = row(s.player, f.preset);
            r.last_change = after[i].rating.rating - r.rating;
            r.rating = after[i].rating.rating;
            r.deviation = after[i].rating.deviation;
            r.volatility = after[i].rating.volatility;
            ++r.games;
            r.wins += s.place == 1 && !s.abandoned;
            r.stats += s.stats;
            r.last_table = f.table;
            r.last_game = f.game;
            r.updated = f.at;
        }
    }
    PresetRating& row(const std::string& player, const std::string& preset) {
        PresetRating& r = rows[{player, preset}];
        r.player = player;
        r.preset = preset;
        return r;
    }
};

// The store's row of (player, preset), its name aside.
PresetRating stored(Store& store, const std::string& player, const std::string& preset) {
    const auto p = store.player_ratings(player);
    REQUIRE(p);
    for (PresetRating r : p->presets)
        if (r.preset == preset) {
            CHECK(r.name == "name of " + player);
            r.name.clear();
            return r;
        }
    FAIL("no row for " << player << " " << preset);
    return {};
}

void check_rows(Store& store, const Expected& expected) {
    for (const auto& row : expected.rows) {
        // Not a structured binding: clang 15 cannot capture one (CAPTURE makes a lambda).
        const auto& key = row.first;
        const auto& want = row.second;
        CAPTURE(key.first);
        CAPTURE(key.second);
        const PresetRating got = stored(store, key.first, key.second);
        CHECK(got.rating == want.rating);
        CHECK(got.deviation == want.deviation);
        CHECK(got.volatility == want.volatility);
        CHECK(got == want);
    }
}

// A trigger that refuses every write of `table` (INSERT or UPDATE), on either backend.
template <class Backend>
void refuse_writes(const Backend& db, const std::string& table, const std::string& what);
template <>
void refuse_writes(const SqliteBackend& db, const std::string& table, const std::string& what) {
    SQLite::Database raw(db.location(), SQLite::OPEN_READWRITE);
    raw.setBusyTimeout(5000);
    raw.exec("CREATE TRIGGER refuse_" + table + " BEFORE " + what + " ON " + table +
             " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
}
template <>
void refuse_writes(const PostgresBackend& db, const std::string& table, const std::string& what) {
    db.database().exec("CREATE OR REPLACE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
                       "$$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$");
    db.database().exec("CREATE TRIGGER refuse_" + table + " BEFORE " + what + " ON " + table +
                       " FOR EACH ROW EXECUTE FUNCTION refuse()");
}
template <class Backend>
void allow_writes(const Backend& db, const std::string& table);
template <>
void allow_writes(const SqliteBackend& db, const std::string& table) {
    SQLite::Database raw(db.location(), SQLite::OPEN_READWRITE);
    raw.setBusyTimeout(5000);
    raw.exec("DROP TRIGGER refuse_" + table);
}
template <>
void allow_writes(const PostgresBackend& db, const std::string& table) {
    db.database().exec("DROP TRIGGER refuse_" + table + " ON " + table);
}

// The game's log, as a finished game's record keeps it.
std::string record_of(const Batch& writes) {
    GameLogEncoder log;
    for (const Write& w : writes) {
        if (const auto* e = std::get_if<EngineEvents>(&w)) log.add(GameLogEntry::engine_events(e->seq, e->at, e->count, e->cause));
        if (const auto* t = std::get_if<AppendEvent>(&w)) log.add(GameLogEntry::table(t->seq, t->at, t->type, t->payload));
    }
    return log.bytes();
}

const std::vector<std::string> kFour = {"p1", "p2", "p3", "p4"};

}  // namespace ratings_store_test

using namespace ratings_store_test;

TEST_CASE_TEMPLATE("ratings: a rated game's end moves its players' ratings in its commit as sparts::ratings computes "
                   "them, statistics add up, a game that is not rated moves none, and the leaderboard pages",
                   Backend, SqliteBackend, PostgresBackend) {
    const Backend db("ratings");
    auto store = db.open();
    commit(*store, people({"p1", "p2", "p3", "p4", "p5"}));
    commit(*store, a_table("t1", 1));
    Expected expected;

    // Spades: partners across the table (seats 0 and 2, 1 and 3).
    const Played first = play_rated("t1", 1, 11, 1000, kFour);
    REQUIRE(first.finish.rated.size() == 4);
    CHECK(first.finish.rated[0].team == first.finish.rated[2].team);
    CHECK(first.finish.rated[0].place == first.finish.rated[2].place);
    CHECK(first.finish.rated[0].stats.hands == 2);
    commit(*store, first.writes);
    expected.game(first.finish);
    check_rows(*store, expected);
    // Partners from equal ratings get equal updates.
    CHECK(stored(*store, "p1", "spades").rating == stored(*store, "p3", "spades").rating);
    CHECK(stored(*store, "p2", "spades").rating == stored(*store, "p4", "spades").rating);

    // The next game starts from the ratings the first left.
    const Played second = play_rated("t1", 2, 12, 5000, kFour);
    commit(*store, second.writes);
    expected.game(second.finish);
    check_rows(*store, expected);

    // A player who leaves loses to everyone of the other team, whatever the places.
    FinishGame left{"t1", 3, R"({"game_over":{}})", 9000};
    left.preset = "spades";
    left.rated = {{"p1", 0, 1, true, {}}, {"p2", 1, 2, false, {}}, {"p3", 0, 1, false, {}}, {"p4", 1, 2, false, {}}};
    left.rated[1].stats.hands = 3;
    commit(*store, {StartGame{"t1", 3, 13, R"({"preset":"spades","options":{}})", "[]", 8000, {}}, left});
    expected.game(left);
    check_rows(*store, expected);
    CHECK(stored(*store, "p1", "spades").last_change < 0);

    // Not rated (a bot seat): nothing moves.
    FinishGame unrated{"t1", 4, R"({"game_over":{}})", 11000};
    unrated.preset = "spades";
    commit(*store, {StartGame{"t1", 4, 14, R"({"preset":"spades","options":{}})", "[]", 10000, {}}, unrated});
    check_rows(*store, expected);

    // Another preset is another rating.
    const Played hearts = play_rated("t1", 5, 15, 20000, kFour, "bga-sparts", {{"hand_cap", "2"}});
    commit(*store, hearts.writes);
    expected.game(hearts.finish);
    check_rows(*store, expected);
    CHECK(store->player_ratings("p1")->presets.size() == 2);

    // Players: an unknown one is none; one without rated games has no rows.
    CHECK_FALSE(store->player_ratings("nobody"));
    const auto p5 = store->player_ratings("p5");
    REQUIRE(p5);
    CHECK(p5->name == "name of p5");
    CHECK(p5->presets.empty());

    // The leaderboard: by rating, best first; ranks and pages follow it.
    std::vector<PresetRating> by_rating;
    for (const auto& [key, row] : expected.rows)
        if (key.second == "spades") by_rating.push_back(row);
    std::sort(by_rating.begin(), by_rating.end(), [](const auto& a, const auto& b) {
        return a.rating != b.rating ? a.rating > b.rating : a.player < b.player;
    });
    LeaderboardQuery q;
    q.preset = "spades";
    const LeaderboardPage all = store->leaderboard(q);
    CHECK(all.next_cursor.empty());
    CHECK(all.first_rank == 1);
    REQUIRE(all.players.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(all.players[i].player == by_rating[i].player);
        CHECK(all.players[i].rating == by_rating[i].rating);
        CHECK(all.players[i].name == "name of " + by_rating[i].player);
    }
    for (int limit : {1, 2, 3}) {
        CAPTURE(limit);
        std::vector<std::string> walked;
        q.limit = limit;
        q.cursor.clear();
        for (int pages = 0;; ++pages) {
            REQUIRE(pages < 10);
            const LeaderboardPage page = store->leaderboard(q);
            CHECK(page.first_rank == static_cast<std::int64_t>(walked.size()) + 1);
            for (const auto& r : page.players) walked.push_back(r.player);
            if (page.next_cursor.empty()) break;
            q.cursor = page.next_cursor;
        }
        CHECK(walked.size() == 4);
        for (std::size_t i = 0; i < walked.size(); ++i) CHECK(walked[i] == by_rating[i].player);
    }
    q = LeaderboardQuery{};
    q.preset = "spades";
    q.min_games = 3;  // three rated games of spades each: everyone
    CHECK(store->leaderboard(q).players.size() == 4);
    q.min_games = 4;
    CHECK(store->leaderboard(q).players.empty());
    q.min_games = 1;
    q.preset = "hearts";  // no such preset here: nobody
    CHECK(store->leaderboard(q).players.empty());

    // Kept across a restart.
    store.reset();
    store = db.open();
    check_rows(*store, expected);
}

TEST_CASE_TEMPLATE("ratings: the leaderboard pages through a large board, min_games that few reach included, each page "
                   "reading a bounded stretch of the board and ranking on from the cursor",
                   Backend, SqliteBackend, PostgresBackend) {
    const Backend db("board");
    auto store = db.open();
    // 6,000 players of spades; one in 500 has played 30 games, the rest 1 to 3; ratings with ties.
    std::vector<PresetRating> rows;
    for (int i = 0; i < 6000; ++i) {
        PresetRating r;
        char id[18];
        std::snprintf(id, sizeof id, "p%016x", i);
        r.player = id;
        r.preset = "spades";
        r.rating = 1000 + (i * 7919 % 3001) / 3.0;
        r.games = i % 500 == 0 ? 30 : 1 + i % 3;
        r.updated = 1;
        rows.push_back(r);
    }
    commit(*store, {ReplaceRatings{rows}});
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.rating != b.rating ? a.rating > b.rating : a.player < b.player;
    });
    for (int min_games : {1, 3, 30, 31}) {
        CAPTURE(min_games);
        std::vector<std::string> want;
        for (const auto& r : rows)
            if (r.games >= min_games) want.push_back(r.player);
        LeaderboardQuery q;
        q.preset = "spades";
        q.min_games = min_games;
        q.limit = 50;
        std::vector<std::string> walked;
        bool short_page_with_more = false;
        for (int pages = 0;; ++pages) {
            REQUIRE(pages < 1000);
            const LeaderboardPage page = store->leaderboard(q);
            CHECK(page.first_rank == static_cast<std::int64_t>(walked.size()) + 1);
            for (const auto& r : page.players) {
                CHECK(r.games >= min_games);
                walked.push_back(r.player);
            }
            if (page.next_cursor.empty()) break;
            if (page.players.size() < 50) short_page_with_more = true;
            q.cursor = page.next_cursor;
        }
        CHECK(walked == want);
        // Twelve players have 30 games, one in every 500 of the board: a page reads at most
        // kMostRead rows, so their pages come short, with a cursor to go on.
        CHECK(short_page_with_more == (min_games >= 30));
    }
    // An older server's cursor ("rating/player", no rank): its rank is counted.
    LeaderboardQuery q;
    q.preset = "spades";
    q.limit = 10;
    q.cursor = exact_text(rows[99].rating) + "/" + rows[99].player;
    const LeaderboardPage page = store->leaderboard(q);
    CHECK(page.first_rank == 101);
    REQUIRE(page.players.size() == 10);
    CHECK(page.players[0].player == rows[100].player);
}

TEST_CASE_TEMPLATE("ratings: a commit that fails writes neither the game's end nor its ratings, and once it succeeds "
                   "both",
                   Backend, SqliteBackend, PostgresBackend) {
    const Backend db("ratingsfail");
    auto store = db.open();
    commit(*store, people(kFour));
    commit(*store, a_table("t1", 1));
    const std::string finished = "SELECT count(*) FROM archive";
    // The game's end refused (its rating rows come after it in the transaction), then its ratings.
    int game = 0;
    for (const char* refused : {"archive", "ratings"}) {
        CAPTURE(refused);
        ++game;
        const Played played = play_rated("t1", game, 20 + static_cast<std::uint64_t>(game), 1000 * game, kFour);
        refuse_writes(db, refused, "INSERT");
        store->submit(played.writes, nullptr);
        CHECK_FALSE(store->flush(std::chrono::milliseconds(2500)));  // failing, retried
        CHECK(db.count(finished) == game - 1);
        CHECK(db.count("SELECT count(*) FROM ratings") == (game == 1 ? 0 : 4));
        CHECK(db.count("SELECT COALESCE(max(games), 0) FROM ratings") == game - 1);
        allow_writes(db, refused);
        REQUIRE(store->flush(std::chrono::seconds(60)));
        CHECK(db.count(finished) == game);
        CHECK(db.count("SELECT count(*) FROM ratings") == 4);
        CHECK(db.count("SELECT min(games) FROM ratings") == game);
    }
}

TEST_CASE_TEMPLATE("ratings: rebuilt from the archive they equal the rows kept at each game's end, and replace them",
                   Backend, SqliteBackend, PostgresBackend) {
    const Backend db("ratingsrebuild");
    auto store = db.open();
    commit(*store, people({"p1", "p2", "p3", "p4", "p5", "p6"}));
    commit(*store, a_table("t1", 1));
    commit(*store, a_table("t2", 2));
    Expected expected;
    const std::vector<std::string> other = {"p5", "p2", "p6", "p4"};
    std::vector<Played> games = {
        play_rated("t1", 1, 31, 1000, kFour),
        play_rated("t2", 1, 32, 2000, other, "spades", {{"hand_cap", "3"}}, 2, 30),  // p6 leaves
        play_rated("t1", 2, 33, 3000, kFour, "sparts", {{"hands", "2"}}),
        play_rated("t2", 2, 34, 4000, other, "bga-sparts", {{"hand_cap", "3"}}, 0, 5),  // p5 leaves
        play_rated("t1", 3, 35, 5000, kFour, "spartsel", {{"hands", "2"}}),
    };
    for (const Played& g : games) {
        commit(*store, g.writes);
        expected.game(g.finish);
    }
    CHECK(games[1].finish.rated[2].abandoned);
    CHECK(games[1].finish.rated[2].stats.hands < 3);  // the hands after it left are not its
    check_rows(*store, expected);

    const RebuiltRatings rebuilt = rebuild_ratings(*store);
    CHECK(rebuilt.games == games.size());
    CHECK(rebuilt.rated == games.size());
    CHECK(rebuilt.skipped.empty());
    REQUIRE(rebuilt.rows.size() == expected.rows.size());
    for (const PresetRating& r : rebuilt.rows) {
        CAPTURE(r.player);
        CAPTURE(r.preset);
        CHECK(r == expected.rows.at({r.player, r.preset}));
    }
    // The rebuild plays each record without rendering it: the same tally as from the events the archive serves,
    // and as from a verbatim log of them (a migrated game whose events are kept as stored).
    for (const Played& g : games) {
        const FinishGame& fin = g.finish;
        CAPTURE(fin.table);
        CAPTURE(fin.game);
        const auto stored = store->load_record(fin.table, fin.game);
        const auto served = store->load_game(fin.table, fin.game);
        REQUIRE(stored);
        REQUIRE(served);
        const auto from_record = finish_of(*stored);
        const auto from_events = finish_of(*served);
        REQUIRE(from_record);
        REQUIRE(from_events);
        CHECK(from_record->rated == from_events->rated);
        CHECK(from_record->rated == g.finish.rated);
        CHECK(from_record->preset == g.finish.preset);
        GameLog verbatim;
        verbatim.verbatim = true;
        std::size_t next_action = 0;
        for (const StoredEvent& e : served->events) {
            std::optional<Cause> cause;
            if (next_action < served->actions.size() && served->actions[next_action].seq == e.seq) {
                const StoredAction& a = served->actions[next_action++];
                cause = Cause{a.seat, *action_from_json(*parse_json_text(a.action)), {}};
            }
            verbatim.entries.push_back(GameLogEntry::table(e.seq, e.at, e.type, e.payload, cause));
        }
        ArchivedRecord as_stored = *stored;
        as_stored.record = encode(verbatim);
        const auto from_verbatim = finish_of(as_stored);
        REQUIRE(from_verbatim);
        CHECK(from_verbatim->rated == g.finish.rated);
        // A record that does not play back is named, not thrown.
        as_stored.record = stored->record.substr(0, stored->record.size() / 2);
        CHECK_FALSE(finish_of(as_stored));
    }

    // And written in place of the kept rows: a row the archive does not give goes.
    PresetRating stray;
    stray.player = "p5";
    stray.preset = "worldwinner-spades";
    stray.games = 7;
    commit(*store, {ReplaceRatings{{stray}}});
    CHECK(store->player_ratings("p5")->presets.size() == 1);
    commit(*store, {ReplaceRatings{rebuilt.rows}});
    check_rows(*store, expected);
    CHECK(db.count("SELECT count(*) FROM ratings") == static_cast<int>(expected.rows.size()));
}

TEST_CASE("ratings: a SQLite file of schema version 6 migrates to version 7, its finished games rated by a rebuild") {
    sparts::test::TempDatabase file("ratings-v6");
    const Played played = play_rated("t1", 1, 41, 1000, kFour);
    {
        SQLite::Database raw(file.path(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        for (int v = 0; v < 6; ++v) raw.exec(migrations()[static_cast<std::size_t>(v)]);
        raw.exec("PRAGMA user_version = 6");
        for (const auto& p : kFour)
            raw.exec("INSERT INTO players (id, token_hash, name, created_ms) VALUES ('" + p + "', 'h" + p + "', 'name of " +
                     p + "', 1)");
        raw.exec("INSERT INTO tables (id, number, ruleset, preset, seats, private, invite, turn_seconds, creator, "
                 "created_ms, closed_ms, close_reason) VALUES ('t1', 1, '{}', 'spades', 4, 0, '', 0, 'p1', 1, 2, 'over')");
        const auto& start = std::get<StartGame>(played.writes.front());
        SQLite::Statement game(raw, "INSERT INTO games (table_id, game, seed, ruleset, preset, players, started_ms, "
                                    "finished_ms, result, record) VALUES ('t1', 1, ?, ?, 'spades', ?, 1000, ?, ?, ?)");
        game.bind(1, static_cast<std::int64_t>(start.seed));
        game.bind(2, start.ruleset);
        game.bind(3, start.players);
        game.bind(4, played.finish.at);
        game.bind(5, played.finish.result);
        const std::string record = record_of(played.writes);
        game.bind(6, record.data(), static_cast<int>(record.size()));
        game.exec();
    }
    auto opened = SqliteStore::open(file.path());
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    auto store = std::move(*opened);
    {
        SQLite::Database check(file.path(), SQLite::OPEN_READONLY);
        CHECK(check.execAndGet("PRAGMA user_version").getInt() == latest_schema_version());
        CHECK(check.tableExists("ratings"));
        CHECK(check.execAndGet("SELECT count(*) FROM ratings").getInt() == 0);  // the migration rates nothing
    }
    CHECK(store->player_ratings("p1")->presets.empty());
    const RebuiltRatings rebuilt = rebuild_ratings(*store);
    CHECK(rebuilt.rated == 1);
    commit(*store, {ReplaceRatings{rebuilt.rows}});
    Expected expected;
    expected.game(played.finish);
    check_rows(*store, expected);
}

TEST_CASE("ratings: a PostgreSQL database of schema version 2 is brought to version 3, keeping its data") {
    const sparts::test::TempPgDatabase db("ratingspg2");
    for (int v = 0; v < 2; ++v) db.exec(pg_migrations()[static_cast<std::size_t>(v)]);
    db.exec("UPDATE sparts_schema SET version = 2");
    db.exec("INSERT INTO players (id, token_hash, name, created_ms) VALUES ('p1', 'h1', 'name of p1', 1)");
    CHECK(db.query("SELECT to_regclass('ratings') IS NULL") == "t");
    auto opened = PgStore::open(db.url());
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    auto store = std::move(*opened);
    CHECK(db.query("SELECT version FROM sparts_schema") == std::to_string(latest_pg_schema_version()));
    CHECK(db.query("SELECT to_regclass('ratings') IS NULL") == "f");
    REQUIRE(store->find_player("h1"));
    commit(*store, people({"p2", "p3", "p4"}));
    commit(*store, a_table("t1", 1));
    const Played played = play_rated("t1", 1, 51, 1000, kFour);
    commit(*store, played.writes);
    Expected expected;
    expected.game(played.finish);
    check_rows(*store, expected);
}

TEST_CASE("ratings: PostgreSQL nodes ending games of the same players at once lose no update") {
    const sparts::test::TempPgDatabase db("ratingsnodes");
    std::vector<std::unique_ptr<PgStore>> nodes;
    for (const char* id : {"a", "b"}) {
        PgOptions o;
        o.node = id;
        auto opened = PgStore::open(db.url(), o);
        REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
        nodes.push_back(std::move(*opened));
    }
    commit(*nodes[0], people(kFour));
    const int games = 6;
    std::vector<std::vector<Played>> played(2);
    PlayStats total;
    for (int n = 0; n < 2; ++n) {
        const std::string table = "t" + std::to_string(n + 1);
        commit(*nodes[static_cast<std::size_t>(n)], a_table(table, n + 1));
        REQUIRE(nodes[static_cast<std::size_t>(n)]->take_over(table).taken == Store::Taken::taken);
        for (int g = 1; g <= games; ++g) {
            played[static_cast<std::size_t>(n)].push_back(
                play_rated(table, g, static_cast<std::uint64_t>(100 * n + g), 1000 * g, kFour, "spades", {{"hand_cap", "1"}}));
            total += played[static_cast<std::size_t>(n)].back().finish.rated[0].stats;
        }
    }
    // Each node ends its table's games one commit at a time, both at once.
    std::vector<std::thread> threads;
    for (int n = 0; n < 2; ++n)
        threads.emplace_back([&, n] {
            for (const Played& p : played[static_cast<std::size_t>(n)]) {
                nodes[static_cast<std::size_t>(n)]->submit(p.writes, nullptr);
                nodes[static_cast<std::size_t>(n)]->flush(std::chrono::seconds(60));
            }
        });
    for (auto& t : threads) t.join();
    const PresetRating p1 = stored(*nodes[1], "p1", "spades");
    CHECK(p1.games == 2 * games);
    CHECK(p1.stats == total);
    CHECK(db.query("SELECT min(games) FROM ratings") == std::to_string(2 * games));
}

TEST_CASE_TEMPLATE("ratings: a table open across a restart knows who began its game", Backend, SqliteBackend,
                   PostgresBackend) {
    const Backend db("ratingsopen");
    const Played played = play_rated("t1", 1, 61, 1000, kFour);
    const auto& start = std::get<StartGame>(played.writes.front());
    {
        auto store = db.open();
        commit(*store, people(kFour));
        commit(*store, a_table("t1", 1));
        commit(*store, Batch(played.writes.begin(), played.writes.begin() + 10));
    }
    auto store = db.open();
    const auto open = store->open_tables();
    REQUIRE(open.size() == 1);
    CHECK(open[0].players == start.players);
    CHECK(GameTally::starters_of(open[0].players) == kFour);
}

TEST_CASE("ratings: --migrate-from copies every rating into PostgreSQL, every bit of each double") {
    sparts::test::TempDatabase file("ratings-copy");
    const sparts::test::TempPgDatabase pg("ratingscopy");
    Expected expected;
    {
        auto opened = SqliteStore::open(file.path());
        REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
        auto store = std::move(*opened);
        commit(*store, people(kFour));
        commit(*store, a_table("t1", 1));
        for (int game = 1; game <= 3; ++game) {
            const Played played = play_rated("t1", game, 70 + static_cast<std::uint64_t>(game), 1000 * game, kFour);
            commit(*store, played.writes);
            expected.game(played.finish);
        }
    }
    const auto copied = copy_sqlite_to_postgres(file.path(), pg.url());
    REQUIRE_MESSAGE(copied, (copied ? "" : copied.error()));
    auto opened = PgStore::open(pg.url());
    REQUIRE_MESSAGE(opened, (opened ? "" : opened.error()));
    check_rows(**opened, expected);
}

// A player's moons are the hands its side shot the moon. In the hearts preset points are
// taken: the shooter's moon line is 0 (moon_scoring add: the others get +26) or -26
// (subtract: the others 0), the lowest line of the hand; in bga-sparts' Hearts hands it is
// the +50, and with Sparts' mooning 0 against the others' negative lines: the highest.
TEST_CASE("ratings: the moon is counted for the side that shot it, where points are taken too") {
    auto hand = [](const Ruleset& rules, std::vector<int> moon_lines) {
        HandScored h{};
        h.hand = 1;
        h.kind = rules.family() == Family::hearts ? HandKind::hearts : HandKind::sparts;
        for (int side = 0; side < static_cast<int>(moon_lines.size()); ++side) {
            SideScore s{};
            s.seats = rules.side_seats(side);
            s.bid = -1;
            s.delta[static_cast<std::size_t>(ScoreComponent::moon)] = static_cast<std::int16_t>(moon_lines[static_cast<std::size_t>(side)]);
            h.sides.push_back(s);
        }
        return h;
    };
    auto moons = [&](const Ruleset& rules, std::vector<int> moon_lines) {
        GameTally tally(rules, kFour);
        tally.observe(hand(rules, std::move(moon_lines)));
        GameOver over{};
        over.side_count = static_cast<std::uint8_t>(rules.sides());
        for (int i = 0; i < over.side_count; ++i) over.ranks[static_cast<std::size_t>(i)] = 1;
        std::vector<std::int64_t> out;
        for (const RatedSeat& r : tally.result(over)) out.push_back(r.stats.moons);
        return out;
    };
    const Ruleset hearts = *make_ruleset("hearts", std::vector<OptionSetting>{});
    CHECK(moons(hearts, {26, 0, 26, 26}) == std::vector<std::int64_t>{0, 1, 0, 0});   // add
    CHECK(moons(hearts, {0, -26, 0, 0}) == std::vector<std::int64_t>{0, 1, 0, 0});    // subtract
    CHECK(moons(hearts, {0, 0, 0, 0}) == std::vector<std::int64_t>{0, 0, 0, 0});      // no moon
    const Ruleset across = *make_ruleset("hearts", std::vector<OptionSetting>{{"partnership", "across"}});
    CHECK(moons(across, {0, 26}) == std::vector<std::int64_t>{1, 0, 1, 0});           // side 0: seats 0 and 2
    const Ruleset sparts_rules = *make_ruleset("sparts", std::vector<OptionSetting>{{"mooning", "true"}});
    CHECK(moons(sparts_rules, {-35, -35, 0, -35}) == std::vector<std::int64_t>{0, 0, 1, 0});
}
