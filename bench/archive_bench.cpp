// The archive at scale: a generator of large archives, and the figures measured on one.
//
//   archive_bench generate --database DB [--games N] [--tables T] [--players P] [--distinct D]
//                          [--hand-cap H] [--days DAYS] [--open-tables] [--seed S]
//     (defaults: 100,000 games, 1,000 tables, 20,000 players, 200 distinct games of each preset,
//     half of them one hand and half up to H = 10 hands, over 365 days ending now)
//     N finished games (every preset, in turn) written into DB (a SQLite file or a PostgreSQL
//     URL, as sparts-server's --database) through the store, as ArchiveGame writes: T tables
//     play them side by side over DAYS days, each game archived when it ends, so that the
//     archive's order is the order they finished in, as on a server. P players, a few of them
//     at many tables, most at few; one game in seven has a bot at a seat (not rated). Each game
//     is real: its deal and every action come from the engine with random legal moves, and its
//     record passes `sparts verify`. To be fast, D games of each preset are played and each is
//     dealt again at many tables (its seed and actions, under another table, game number, salt,
//     players and time). The players' ratings are computed as the games are archived and
//     written at the end, as --recompute-ratings would make them. With --open-tables, each
//     table is left open in the middle of a game, as a server that stopped leaves them.
//
//   archive_bench measure --database DB [--runs R]
//     every shape of archive query (GET /api/games: none, a player, a preset, a date range,
//     and their combinations; first, middle and last pages; filters that match nothing) and the
//     leaderboard's and a player's page, each run R times through the store: p50, p99 and max.
//
//   archive_bench size --database DB
//     bytes on disk per finished game, the whole file's and the archive's tables' and indexes',
//     beside the payload the games' rows and records hold (SQLite's dbstat; on PostgreSQL each
//     relation's size, and the bytes of the archive's values).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <queue>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <nlohmann/json.hpp>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "protocol/deal_commitment.hpp"
#include "protocol/event_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/server_messages.hpp"
#include "storage/backends/open_store.hpp"
#include "storage/postgres/pg.hpp"
#include "storage/game_log.hpp"
#include "storage/game_tally.hpp"
#include "storage/rating_book.hpp"

using namespace sparts;
using namespace sparts::storage;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Args {
    std::string mode;
    std::string database;
    std::int64_t games = 100000;
    int tables = 1000;
    int players = 20000;
    int distinct = 200;
    int hand_cap = 10;
    double days = 365;
    bool open_tables = false;
    std::uint64_t seed = 1;
    int runs = 200;
};

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "archive_bench: %s\n", what.c_str());
    std::exit(1);
}

std::unique_ptr<Store> open(const std::string& database) {
    auto store = open_store(database, {});
    if (!store) fail(store.error());
    return std::move(*store);
}

// --- generate -------------------------------------------------------------------------

// A game played once, to be dealt again at many tables.
struct PlayedGame {
    std::string preset;
    Ruleset rules;
    std::string ruleset;  // JSON
    std::uint64_t seed = 0;
    std::vector<GameLogEntry> engine;  // the deal and each action's events; seq from 1, `at` the step's number
    json game_over;
    std::vector<RatedSeat> rated;      // players "0", "1", ...: the seats, replaced by who sat there
    int seats = 0;
    std::size_t actions = 0;
};

PlayedGame play(const std::string& preset, int hand_cap, std::uint64_t seed) {
    std::vector<OptionSetting> options;
    if (hand_cap > 0) options.push_back({"hand_cap", std::to_string(hand_cap)});
    auto rules = make_ruleset(preset, options);
    if (!rules) fail(preset + ": " + rules.error().message);
    PlayedGame out;
    out.preset = preset;
    out.rules = *rules;
    out.ruleset = dump_text(to_json(*rules));
    out.seed = seed;
    out.seats = rules->seats;
    auto created = Game::create(*rules, seed);
    if (!created) fail("cannot create a game of " + preset);
    Game g = std::move(*created);
    std::vector<std::string> starters;
    for (int s = 0; s < out.seats; ++s) starters.push_back(std::to_string(s));
    GameTally tally(*rules, starters);
    std::optional<GameOver> over;
    std::uint64_t seq = 1;
    Millis step = 0;
    const auto took = [&](std::span<const Event> events, std::optional<Cause> cause) {
        out.engine.push_back(GameLogEntry::engine_events(seq, step++, static_cast<std::uint32_t>(events.size()), cause));
        seq += events.size();
        for (const Event& e : events) {
            tally.observe(e);
            if (const auto* o = std::get_if<GameOver>(&e)) {
                over = *o;
                out.game_over = to_json(e);
            }
        }
    };
    took(g.start(), std::nullopt);
    Rng rng(seed, 99);
    while (!g.over()) {
        Seat seat = 0;
        while (!((g.waiting_for() >> seat) & 1)) ++seat;
        const Action action = random_action(g.legal_moves(seat), rng);
        const auto applied = g.apply(seat, action);
        if (!applied) fail("a legal move was refused");
        took(*applied, Cause{seat, action, {}});
        ++out.actions;
    }
    if (!over) fail("a game ended without game_over");
    out.rated = tally.result(*over);
    return out;
}

std::string hex_of(std::uint64_t a, std::uint64_t b) {
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    return text;
}

std::string player_id(int n) { return "p" + hex_of(0x5eed0000u + static_cast<std::uint64_t>(n), 0).substr(0, 16); }

// At most this many batches written and not yet committed: the generator waits for the store.
class InFlight {
public:
    explicit InFlight(int most) : most_(most) {}
    std::function<void()> take() {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return n_ < most_; });
        ++n_;
        return [this] {
            {
                std::lock_guard l(m_);
                --n_;
            }
            cv_.notify_all();
        };
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    int n_ = 0;
    int most_;
};

int generate(const Args& a) {
    auto store = open(a.database);
    const std::vector<std::string> presets = {"spades", "sparts", "spartsel", "bga-sparts", "worldwinner-spades"};
    const auto t0 = Clock::now();
    std::vector<PlayedGame> pool;
    std::size_t entries = 0;
    // Half the games one hand (quick play), half up to hand_cap hands: random play seldom reaches a
    // target score, and its whole games run to hundreds of hands.
    for (int i = 0; i < a.distinct; ++i)
        for (const std::string& preset : presets) {
            pool.push_back(play(preset, i % 2 == 0 ? 1 : a.hand_cap, a.seed * 1000003u + pool.size()));
            entries += pool.back().engine.size();
        }
    const double mean_entries = static_cast<double>(entries) / static_cast<double>(pool.size());
    std::printf("played %zu distinct games (%d of each of %zu presets, %.0f engine steps on average) in %.1f s\n", pool.size(),
                a.distinct, presets.size(), mean_entries, std::chrono::duration<double>(Clock::now() - t0).count());

    // Time: the games of each table follow one another; all tables together play a.games over a.days.
    const Millis span = static_cast<Millis>(a.days * 86'400'000.0);
    const Millis game_ms = std::max<Millis>(1000, span * a.tables / std::max<std::int64_t>(1, a.games));
    const Millis step_ms = std::max<Millis>(1, static_cast<Millis>(static_cast<double>(game_ms) / (mean_entries + 2)));
    // The span ends now: retention's "older than N days" finds the games where a host's would be.
    const Millis now = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch()).count();
    const Millis begin = now - span;

    const std::uint64_t first_table = store->last_table_number() + 1;
    InFlight in_flight(8);
    {
        Batch b;
        for (int p = 0; p < a.players; ++p)
            b.push_back(PutPlayer{player_id(p), hex_of(0xabcdef00u + static_cast<std::uint64_t>(p), 7) + hex_of(1, 2),
                                  "Player " + std::to_string(p), begin});
        store->submit(std::move(b), in_flight.take());
    }

    struct TableClock {
        Millis free_at;
        int table;
        bool operator>(const TableClock& o) const { return free_at > o.free_at || (free_at == o.free_at && table > o.table); }
    };
    std::priority_queue<TableClock, std::vector<TableClock>, std::greater<>> next;
    struct Upcoming {
        std::size_t pooled = 0;
        Millis start = 0;
        int game = 0;
        std::uint64_t seq = 0;
    };
    std::vector<Upcoming> upcoming(static_cast<std::size_t>(a.tables));
    Rng rng(a.seed, 7);
    const auto schedule = [&](int t, Millis start) {
        Upcoming& u = upcoming[static_cast<std::size_t>(t)];
        u.pooled = static_cast<std::size_t>(rng.below(pool.size()));
        u.start = start;
        ++u.game;
        const PlayedGame& g = pool[u.pooled];
        next.push({start + static_cast<Millis>(g.engine.size() + 1) * step_ms, t});
    };
    for (int t = 0; t < a.tables; ++t) schedule(t, begin + static_cast<Millis>(rng.below(static_cast<std::uint64_t>(game_ms))));

    // Who sits: a few players at many tables, most at few (the square of a uniform draw).
    const auto someone = [&] {
        const double u = static_cast<double>(rng.below(1u << 30)) / static_cast<double>(1u << 30);
        return static_cast<int>(u * u * a.players);
    };
    RatingBook book;
    Batch batch;
    std::uint64_t actions = 0;
    std::uint64_t rated = 0;
    const auto t1 = Clock::now();
    auto report = t1;
    for (std::int64_t n = 0; n < a.games; ++n) {
        const TableClock done = next.top();
        next.pop();
        Upcoming& u = upcoming[static_cast<std::size_t>(done.table)];
        const PlayedGame& g = pool[u.pooled];
        const std::string table = "t" + std::to_string(first_table + static_cast<std::uint64_t>(done.table));
        // The seats: distinct players, and one game in seven a bot at one of them.
        json players = json::array();
        std::vector<int> seated;
        const bool with_bot = rng.below(7) == 0;
        for (int s = 0; s < g.seats; ++s) {
            if (with_bot && s == g.seats - 1) {
                players.push_back({{"bot", true}, {"name", "Bot"}, {"level", "basic"}});
                continue;
            }
            int p = someone();
            while (std::find(seated.begin(), seated.end(), p) != seated.end()) p = (p + 1) % a.players;
            seated.push_back(p);
            players.push_back({{"player", player_id(p)}, {"name", "Player " + std::to_string(p)}});
        }
        const std::string salt = hex_of(rng.next(), rng.next());
        // The log as a table writes it: game_started, the engine's steps, deal_revealed.
        GameLogEncoder log;
        std::uint64_t seq = u.seq;
        log.add(GameLogEntry::table(++seq, u.start, "game_started",
                                    dump_text(game_started_event(u.game, g.rules, deal_commitment(g.seed, salt), std::nullopt))));
        for (const GameLogEntry& e : g.engine) {
            GameLogEntry copy = e;
            copy.seq = seq + e.seq;
            copy.at = u.start + (e.at + 1) * step_ms;
            log.add(copy);
        }
        seq += g.engine.back().seq + g.engine.back().events - 1;
        log.add(GameLogEntry::table(++seq, done.free_at, "deal_revealed", dump_text(deal_revealed_event(u.game, g.seed, salt))));
        u.seq = seq;
        json result = {{"game_over", g.game_over}};
        ArchiveGame archived{{table, u.game, g.preset, g.ruleset, dump_text(players), dump_text(result), u.start, done.free_at},
                             g.seed, salt, log.bytes()};
        if (!with_bot) {
            FinishGame finish{table, u.game, archived.summary.result, done.free_at};
            finish.preset = g.preset;
            finish.rated = g.rated;
            for (RatedSeat& r : finish.rated) r.player = player_id(seated[static_cast<std::size_t>(std::stoi(r.player))]);
            if (book.apply(finish)) ++rated;
        }
        actions += g.actions;
        batch.push_back(std::move(archived));
        if (batch.size() == 500) {
            store->submit(std::move(batch), in_flight.take());
            batch.clear();
        }
        schedule(done.table, done.free_at + 5000);
        if (Clock::now() - report > std::chrono::seconds(10)) {
            report = Clock::now();
            const double secs = std::chrono::duration<double>(report - t1).count();
            std::printf("  %lld games (%.0f a second)\n", static_cast<long long>(n + 1), static_cast<double>(n + 1) / secs);
            std::fflush(stdout);
        }
    }
    batch.push_back(ReplaceRatings{book.all()});
    store->submit(std::move(batch), in_flight.take());
    if (!store->flush()) fail("the store could not commit");
    const double secs = std::chrono::duration<double>(Clock::now() - t1).count();
    std::printf("archived %lld games (%llu rated, %llu actions) at %d tables in %.1f s: %.0f games a second\n",
                static_cast<long long>(a.games), static_cast<unsigned long long>(rated),
                static_cast<unsigned long long>(actions), a.tables, secs, static_cast<double>(a.games) / secs);

    // The tables: closed, or left in the middle of a game (a few actions into the next one).
    for (int t = 0; t < a.tables; ++t) {
        const std::string table = "t" + std::to_string(first_table + static_cast<std::uint64_t>(t));
        Upcoming& u = upcoming[static_cast<std::size_t>(t)];
        // The table's row: its ruleset the one its last game is played by (a table rebuilt after a
        // restart plays its game in progress by it).
        const PlayedGame& last = pool[u.pooled];
        const std::uint64_t n = first_table + static_cast<std::uint64_t>(t);
        Batch b{OpenTable{table, static_cast<std::int64_t>(n), last.ruleset, last.preset, last.seats, false, "", 60,
                          player_id(0), begin}};
        if (!a.open_tables) {
            b.push_back(CloseTable{table, "over", begin + span});
        } else {
            const PlayedGame& g = pool[u.pooled];
            json players = json::array();
            for (int s = 0; s < g.seats; ++s) {
                const int p = (t * g.seats + s) % a.players;
                b.push_back(PutSeat{table, s, player_id(p), "Player " + std::to_string(p), false, ""});
                players.push_back({{"player", player_id(p)}, {"name", "Player " + std::to_string(p)}});
            }
            const std::string salt = hex_of(rng.next(), rng.next());
            b.push_back(StartGame{table, u.game, g.seed, g.ruleset, dump_text(players), u.start, salt});
            std::uint64_t seq = u.seq;
            b.push_back(AppendEvent{table, ++seq, u.game, "game_started",
                                    dump_text(game_started_event(u.game, g.rules, deal_commitment(g.seed, salt), std::nullopt)),
                                    u.start});
            for (std::size_t i = 0; i < std::min<std::size_t>(g.engine.size(), 30); ++i) {
                const GameLogEntry& e = g.engine[i];
                b.push_back(EngineEvents{table, seq + e.seq, e.events, u.game, u.start + e.at * step_ms, e.cause});
            }
        }
        store->submit(std::move(b), in_flight.take());
    }
    if (!store->flush()) fail("the store could not commit");
    std::printf("%d tables %s\n", a.tables, a.open_tables ? "left open, each in the middle of a game" : "closed");
    return 0;
}

// --- measure --------------------------------------------------------------------------

struct Figures {
    double p50 = 0, p99 = 0, max = 0;
};

template <class F>
Figures time_runs(int runs, F&& f) {
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto t = Clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
    }
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))]; };
    return {at(0.5), at(0.99), ms.back()};
}

int measure(const Args& a) {
    auto store = open(a.database);
    // What the archive holds, from its first and last pages.
    ArchiveQuery all;
    all.limit = 1;
    const ArchivePage newest = store->list_games(all);
    if (newest.games.empty()) fail("the archive is empty");
    const Millis last = newest.games[0].finished;
    // Players: the busiest, one in the middle, the least busy and one that never played.
    const std::string busy = player_id(0);
    const std::string middling = player_id(a.players / 3);
    const std::string rare = player_id(a.players - 1);
    const std::string nobody = "p0000000000000000";
    const Millis day = 86'400'000;
    struct Shape {
        std::string name;
        ArchiveQuery q;
    };
    std::vector<Shape> shapes;
    const auto add = [&](std::string name, ArchiveQuery q) { shapes.push_back({std::move(name), std::move(q)}); };
    ArchiveQuery q;
    add("all, first page", q);
    q = {};
    q.preset = "spartsel";
    add("preset, first page", q);
    q = {};
    q.preset = "no-such-preset";
    add("preset with no games", q);
    for (const auto& [who, name] : std::vector<std::pair<std::string, std::string>>{
             {busy, "busiest player"}, {middling, "a middling player"}, {rare, "the least busy player"}}) {
        q = {};
        q.player = who;
        add(name + ", first page", q);
        q.preset = "spades";
        add(name + " and preset", q);
        q.preset = {};
        q.from = last - 30 * day;
        q.to = last - 29 * day;
        add(name + " on one day", q);
        q.preset = "bga-sparts";
        add(name + ", preset and day", q);
    }
    q = {};
    q.player = nobody;
    add("player with no games", q);
    q.preset = "spades";
    add("player with no games and preset", q);
    q = {};
    q.from = last - 100 * day;
    q.to = last - 99 * day;
    add("one day", q);
    q.preset = "sparts";
    add("preset and day", q);
    q = {};
    q.from = last + 10 * day;
    add("dates with no games", q);
    // Pages deep inside: the cursor of a game half a year back, and of the oldest.
    // The cursor that goes on after the newest game finished before `when`.
    const auto cursor_at = [&](Millis when) {
        ArchiveQuery c;
        c.to = when;
        c.limit = 1;
        return store->list_games(c).next_cursor;
    };
    const std::string middle_cursor = cursor_at(last - 180 * day);
    q = {};
    q.cursor = middle_cursor;
    add("all, a page half a year back", q);
    q.preset = "spades";
    add("preset, a page half a year back", q);
    q = {};
    q.player = busy;
    q.cursor = middle_cursor;
    add("busiest player, a page half a year back", q);
    // The last pages: the oldest games.
    const auto oldest = store->oldest_games(std::numeric_limits<Millis>::max(), 1);
    if (oldest.empty()) fail("no oldest game");
    q = {};
    q.to = oldest[0].finished + day;
    add("all, the last page", q);
    q.player = middling;
    q.to = oldest[0].finished + 30 * day;
    add("a middling player, the last page", q);

    std::printf("%-45s %9s %9s %9s %6s\n", "archive query (limit 50)", "p50 ms", "p99 ms", "max ms", "games");
    for (const Shape& s : shapes) {
        std::size_t found = 0;
        const Figures f = time_runs(a.runs, [&] { found = store->list_games(s.q).games.size(); });
        std::printf("%-45s %9.3f %9.3f %9.3f %6zu\n", s.name.c_str(), f.p50, f.p99, f.max, found);
    }
    // The leaderboard: the first page, a page in the middle, the last; and a player's page.
    LeaderboardQuery board;
    board.preset = "spades";
    board.limit = 50;
    std::vector<std::string> cursors;
    for (LeaderboardPage p = store->leaderboard(board); !p.next_cursor.empty();) {
        cursors.push_back(p.next_cursor);
        board.cursor = p.next_cursor;
        p = store->leaderboard(board);
    }
    const auto time_board = [&](const std::string& name, const std::string& cursor) {
        LeaderboardQuery b;
        b.preset = "spades";
        b.limit = 50;
        b.cursor = cursor;
        std::size_t found = 0;
        const Figures f = time_runs(a.runs, [&] { found = store->leaderboard(b).players.size(); });
        std::printf("%-45s %9.3f %9.3f %9.3f %6zu\n", name.c_str(), f.p50, f.p99, f.max, found);
    };
    std::printf("leaderboard (spades, %zu pages of 50)\n", cursors.size() + 1);
    time_board("leaderboard, first page", "");
    if (!cursors.empty()) {
        time_board("leaderboard, the middle page", cursors[cursors.size() / 2]);
        time_board("leaderboard, the last page", cursors.back());
    }
    const Figures f = time_runs(a.runs, [&] { (void)store->player_ratings(busy); });
    std::printf("%-45s %9.3f %9.3f %9.3f\n", "a player's page (the busiest)", f.p50, f.p99, f.max);
    return 0;
}

// --- size -----------------------------------------------------------------------------

// PostgreSQL's: each relation's bytes on disk (its heap, TOAST and indexes), against the payload
// the archive's rows hold: the bytes of their values (text and bytea as stored before any
// compression, 4 or 8 a number), the record included.
int size_postgres(const Args& a) {
    pg::Connection db(a.database);
    const auto one = [&](const std::string& sql) { return static_cast<double>(db.exec(sql).number(0, 0)); };
    const double games = one("SELECT count(*) FROM archive");
    const double whole = one("SELECT pg_database_size(current_database())");
    std::printf("%.0f games, database %.1f MB\n", games, whole / 1e6);
    const pg::Result per = db.exec(
        "SELECT c.relname, pg_relation_size(c.oid), COALESCE(pg_total_relation_size(c.reltoastrelid), 0), "
        "pg_indexes_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind = 'r' AND n.nspname = current_schema() ORDER BY pg_total_relation_size(c.oid) DESC");
    double archive_bytes = 0;
    for (int r = 0; r < per.rows(); ++r) {
        const std::string name = per.text(r, 0);
        const double heap = static_cast<double>(per.number(r, 1)), toast = static_cast<double>(per.number(r, 2)),
                     indexes = static_cast<double>(per.number(r, 3));
        if (name == "archive" || name.starts_with("archive_")) archive_bytes += heap + toast + indexes;
        std::printf("  %-28s heap %10.1f MB  toast %8.1f MB  indexes %8.1f MB\n", name.c_str(), heap / 1e6, toast / 1e6,
                    indexes / 1e6);
    }
    const double payload = one(
        "SELECT COALESCE(sum(octet_length(table_id) + octet_length(preset) + octet_length(ruleset) + "
        "octet_length(players) + octet_length(result) + COALESCE(octet_length(salt), 0) + "
        "COALESCE(octet_length(rule_set), 0) + COALESCE(octet_length(record), 0) + 4 + 4 * 8), 0)::bigint FROM archive");
    if (games > 0 && payload > 0)
        std::printf("per game: %.0f bytes of payload (the archive's rows and records); the archive's tables, TOAST and "
                    "indexes %.0f bytes: %.3fx; the whole database %.0f bytes: %.3fx\n",
                    payload / games, archive_bytes / games, archive_bytes / payload, whole / games, whole / payload);
    return 0;
}

int size(const Args& a) {
    if (pg::is_url(a.database)) return size_postgres(a);
    SQLite::Database db(a.database, SQLite::OPEN_READONLY);
    const double pages = db.execAndGet("PRAGMA page_count").getDouble();
    const double page_size = db.execAndGet("PRAGMA page_size").getDouble();
    const double freelist = db.execAndGet("PRAGMA freelist_count").getDouble();
    const double games = db.execAndGet("SELECT count(*) FROM archive").getDouble();
    std::printf("%.0f games, file %.1f MB (%.0f free pages)\n", games, pages * page_size / 1e6, freelist);
    SQLite::Statement per(db, "SELECT name, sum(pgsize), sum(payload), sum(unused) FROM dbstat GROUP BY name ORDER BY 2 DESC");
    double payload = 0;            // the games' rows and records
    double archive_bytes = 0;      // the archive's tables and indexes, on disk
    double archive_payload = 0;    // ... and what they hold, the indexes' keys included
    while (per.executeStep()) {
        const std::string name = per.getColumn(0).getString();
        if (name == "archive" || name == "archive_records") payload += per.getColumn(2).getDouble();
        // The archive's own: its tables and indexes, and the numbers of its players (schema version 12).
        if (name == "archive" || name.starts_with("archive_") || name.find("player_numbers") != std::string::npos) {
            archive_bytes += per.getColumn(1).getDouble();
            archive_payload += per.getColumn(2).getDouble();
        }
        std::printf("  %-28s %10.1f MB  payload %10.1f MB  unused %8.1f MB\n", name.c_str(), per.getColumn(1).getDouble() / 1e6,
                    per.getColumn(2).getDouble() / 1e6, per.getColumn(3).getDouble() / 1e6);
    }
    if (games > 0 && payload > 0) {
        std::printf("per game: %.0f bytes on disk, %.0f bytes of payload (the archive's rows and records): %.3fx\n",
                    pages * page_size / games, payload / games, pages * page_size / payload);
        // The archive alone, without what the tables open at the time hold (the journal, the games in progress).
        std::printf("the archive's tables and indexes: %.0f bytes a game: %.3fx the rows' and records' payload, "
                    "%.2fx their own (the indexes' keys included)\n",
                    archive_bytes / games, archive_bytes / payload, archive_bytes / archive_payload);
    }
    return 0;
}

Args parse(int argc, char** argv) {
    Args a;
    if (argc < 2) fail("usage: archive_bench generate|measure|size --database DB [options] (see the file's head)");
    a.mode = argv[1];
    for (int i = 2; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--open-tables") {
            a.open_tables = true;
            continue;
        }
        if (i + 1 >= argc) fail(k + ": expected a value");
        const std::string v = argv[++i];
        try {
            if (k == "--database") a.database = v;
            else if (k == "--games") a.games = std::stoll(v);
            else if (k == "--tables") a.tables = std::stoi(v);
            else if (k == "--players") a.players = std::stoi(v);
            else if (k == "--distinct") a.distinct = std::stoi(v);
            else if (k == "--hand-cap") a.hand_cap = std::stoi(v);
            else if (k == "--days") a.days = std::stod(v);
            else if (k == "--seed") a.seed = std::stoull(v);
            else if (k == "--runs") a.runs = std::stoi(v);
            else fail("unknown option " + k);
        } catch (const std::exception&) {
            fail(k + ": not a number: " + v);
        }
    }
    if (a.database.empty()) fail("--database is needed");
    if (a.tables < 1 || a.players < 8 || a.distinct < 1 || a.games < 1 || a.runs < 1) fail("a count is out of range");
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    const Args a = parse(argc, argv);
    if (a.mode == "generate") return generate(a);
    if (a.mode == "measure") return measure(a);
    if (a.mode == "size") return size(a);
    fail("unknown mode " + a.mode + ": expected generate, measure or size");
}
