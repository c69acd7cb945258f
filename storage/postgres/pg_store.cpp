#include "storage/postgres/pg_store.hpp"
#include "protocol/overloaded.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include <spdlog/spdlog.h>
#include "storage/game_log.hpp"
#include "storage/postgres/pg.hpp"
#include "storage/postgres/pg_archive.hpp"
#include "storage/postgres/pg_ratings.hpp"
#include "storage/postgres/pg_schema.hpp"
#include "storage/rating_book.hpp"

namespace sparts::storage {

namespace {

// The advisory lock a single server holds alone and the nodes of a cluster
// share; and the one migrations take, so that nodes starting together migrate once.
constexpr std::int64_t kServerLock = 0x5350415254530001;   // "SPARTS" 1
constexpr std::int64_t kMigrationLock = 0x5350415254530002;
// Retention's (Store::hold_retirement): one process of every node's at a time.
constexpr std::int64_t kRetirementLock = 0x5350415254530003;

constexpr const char* kJournalColumns = "table_id, game, seq, at_ms, events, seat, action, action_text, type, payload";

// A journal row read with kJournalColumns (after `first` columns of the caller's).
GameLogEntry journal_entry(const pg::Result& r, int row, int first) {
    GameLogEntry e;
    e.seq = static_cast<std::uint64_t>(r.number(row, first + 2));
    e.at = r.number(row, first + 3);
    e.events = static_cast<std::uint32_t>(r.number(row, first + 4));
    if (!r.null(row, first + 6)) {
        const std::string bytes = r.bytes(row, first + 6);
        const auto action = decode_action(bytes);
        if (!action) throw pg::Error("a journal row's action is unreadable", "XX001");
        e.cause = Cause{static_cast<int>(r.number(row, first + 5)), *action, {}};
    } else if (!r.null(row, first + 7)) {
        e.cause = cause_from_text(static_cast<int>(r.number(row, first + 5)), r.text(row, first + 7));
    }
    if (!r.null(row, first + 8)) {
        e.kind = GameLogEntry::Kind::table_event;
        e.type = r.text(row, first + 8);
        e.payload = r.text(row, first + 9);
    }
    return e;
}

// Many journal rows as one INSERT ... SELECT FROM unnest(arrays): one statement
// for every table step of a commit, instead of one each.
class JournalRows {
public:
    void add(const std::string& table, int game, const GameLogEntry& e) {
        table_.text(table);
        game_.number(game);
        seq_.number(static_cast<std::int64_t>(e.seq));
        at_.number(e.at);
        events_.number(e.events);
        if (e.cause) {
            seat_.number(e.cause->seat);
            if (e.cause->text.empty()) {
                action_.bytes(encode_action(e.cause->action));
                action_text_.null();
            } else {
                action_.null();
                action_text_.text(e.cause->text);
            }
        } else {
            seat_.null();
            action_.null();
            action_text_.null();
        }
        if (e.kind == GameLogEntry::Kind::table_event) {
            type_.text(e.type);
            payload_.text(e.payload);
        } else {
            type_.null();
            payload_.null();
        }
        ++rows_;
    }
    int rows() const { return rows_; }
    pg::Params params() const {
        pg::Params p;
        p.text(table_.done()).text(game_.done()).text(seq_.done()).text(at_.done()).text(events_.done());
        p.text(seat_.done()).text(action_.done()).text(action_text_.done()).text(type_.done()).text(payload_.done());
        return p;
    }
    static constexpr const char* kSql =
        "INSERT INTO journal (table_id, game, seq, at_ms, events, seat, action, action_text, type, payload) "
        "SELECT * FROM unnest($1::text[], $2::integer[], $3::bigint[], $4::bigint[], $5::integer[], $6::integer[], "
        "$7::bytea[], $8::text[], $9::text[], $10::text[])";

private:
    pg::ArrayText table_, game_, seq_, at_, events_, seat_, action_, action_text_, type_, payload_;
    int rows_ = 0;
};

// What a finished game adds beside its row, from the `a` of a statement that inserted into the
// archive ... RETURNING id, preset, finished_ms, players, rule_set (a game archived already returns
// nothing, and adds nothing): its rows of archive_players, one a player (a seat a bot held has none)
// under its preset and one under its rule set's board (records.hpp, rule_set_board) when it has
// one; and one more game to its rule set's count. Two WITH queries, `p` and `c`.
constexpr const char* kArchivePlayers =
    "p AS (INSERT INTO archive_players (player, preset, finished_ms, id) "
    "SELECT DISTINCT e->>'player', b.board, a.finished_ms, a.id FROM a "
    "CROSS JOIN LATERAL (VALUES (a.preset), ('set:' || a.rule_set)) AS b(board), json_array_elements(a.players::json) e "
    "WHERE e->>'player' IS NOT NULL AND b.board IS NOT NULL), "
    "c AS (INSERT INTO rule_set_games (name, games) SELECT a.rule_set, count(*) FROM a WHERE a.rule_set IS NOT NULL "
    "GROUP BY a.rule_set ON CONFLICT (name) DO UPDATE SET games = rule_set_games.games + excluded.games)";

// Games written straight into the archive (ArchiveGame), many in one statement, as JournalRows.
class ArchiveRows {
public:
    void add(const ArchiveGame& g) {
        const ArchivedGameSummary& s = g.summary;
        table_.text(s.table);
        game_.number(s.game);
        preset_.text(s.preset);
        finished_.number(s.finished);
        started_.number(s.started);
        seed_.number(static_cast<std::int64_t>(g.seed));
        if (g.salt.empty())
            salt_.null();
        else
            salt_.text(g.salt);
        ruleset_.text(s.ruleset);
        players_.text(s.players);
        result_.text(s.result);
        record_.bytes(g.record);
        if (s.rule_set.empty())
            rule_set_.null();
        else
            rule_set_.text(s.rule_set);
        ++rows_;
    }
    int rows() const { return rows_; }
    pg::Params params() const {
        pg::Params p;
        p.text(table_.done()).text(game_.done()).text(preset_.done()).text(finished_.done()).text(started_.done());
        p.text(seed_.done()).text(salt_.done()).text(ruleset_.done()).text(players_.done()).text(result_.done());
        p.text(record_.done()).text(rule_set_.done());
        return p;
    }
    // The ids go in the rows' order (unnest's, one INSERT); a game archived already is left as it is.
    static std::string sql() {
        return std::string(
                   "WITH a AS (INSERT INTO archive (table_id, game, preset, finished_ms, started_ms, seed, salt, ruleset, "
                   "players, result, record, rule_set) SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], "
                   "$4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[], "
                   "$11::bytea[], $12::text[]) "
                   "ON CONFLICT (table_id, game) DO NOTHING RETURNING id, preset, finished_ms, players, rule_set), ") +
               kArchivePlayers + " SELECT count(*) FROM a";
    }
    // Rows a statement: the arrays of a statement are held in memory twice (built, then sent).
    static constexpr int kMostRows = 500;

private:
    pg::ArrayText table_, game_, preset_, finished_, started_, seed_, salt_, ruleset_, players_, result_, record_, rule_set_;
    int rows_ = 0;
};

// A statement of a commit, built before anything is sent.
struct Statement {
    Statement(const char* prepared, pg::Params p, std::string what = {})
        : name(prepared), params(std::move(p)), game(std::move(what)) {}
    const char* name;  // prepared
    pg::Params params;
    std::string game;  // finish_game: "table t1 game 2", for the log
};

// A finished game that was not in progress (its row gone, or never there) archives
// nothing: finish_game returns no row then, and the log says so, as the SQLite store does.
void say_if_not_finished(const Statement& s, const pg::Result& r) {
    if (std::string_view(s.name) == "finish_game" && r.rows() == 0)
        spdlog::error("database: {} ends, but it is not in progress (or archived already): nothing was archived", s.game);
}

const std::vector<std::pair<const char*, std::string>>& prepared_statements() {
    static const std::vector<std::pair<const char*, std::string>> all = {
        {"put_player",
         "INSERT INTO players (id, token_hash, name, created_ms) VALUES ($1, $2, $3, $4) "
         "ON CONFLICT (id) DO UPDATE SET name = excluded.name"},
        {"open_table",
         "INSERT INTO tables (id, number, ruleset, preset, seats, private, invite, turn_seconds, creator, created_ms) "
         "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"},
        {"close_table", "UPDATE tables SET closed_ms = $1, close_reason = $2 WHERE id = $3"},
        // Nothing of a closed table is read again from the journal.
        {"close_journal", "DELETE FROM journal WHERE table_id = $1"},
        {"put_seat",
         "INSERT INTO seats (table_id, seat, player, name, bot, level) VALUES ($1, $2, $3, $4, $5, $6) "
         "ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player, name = excluded.name, "
         "bot = excluded.bot, level = excluded.level"},
        // A game left unfinished is not archived.
        {"close_game", "DELETE FROM games_in_progress WHERE table_id = $1"},
        // The table's game in progress, replacing one it left unfinished.
        {"start_game",
         "INSERT INTO games_in_progress (table_id, game, seed, ruleset, preset, players, started_ms, salt) "
         "VALUES ($1, $2, $3, $4::text, ($4::text::json)->>'preset', $5, $6, $7) "
         "ON CONFLICT (table_id) DO UPDATE SET game = excluded.game, seed = excluded.seed, ruleset = excluded.ruleset, "
         "preset = excluded.preset, players = excluded.players, started_ms = excluded.started_ms, salt = excluded.salt"},
        // A new game: the earlier games' rows go, but the table's latest row, which numbers its next event.
        {"start_journal",
         "DELETE FROM journal WHERE table_id = $1::text AND game < $2::integer "
         "AND seq < (SELECT max(seq) FROM journal WHERE table_id = $1::text)"},
        // The game in progress moves to the archive's tail with its result and record, and its players'
        // rows are added, in one statement. A game archived already (a step written twice) is left as it was.
        {"finish_game",
         "WITH a AS (INSERT INTO archive (table_id, game, preset, finished_ms, started_ms, seed, salt, ruleset, players, "
         "result, record, rule_set) SELECT table_id, game, preset, $1::bigint, started_ms, seed, salt, ruleset, players, "
         "$2::text, $3::bytea, $6::text FROM games_in_progress WHERE table_id = $4::text AND game = $5::integer "
         "ON CONFLICT (table_id, game) DO NOTHING RETURNING id, preset, finished_ms, players, rule_set), " +
             std::string(kArchivePlayers) + " DELETE FROM games_in_progress WHERE table_id = $4::text AND game = $5::integer RETURNING table_id"},
        {"archive_games", ArchiveRows::sql()},
        // Retention: games exported, then dropped with their players' rows.
        {"retire_games",
         "WITH g AS (DELETE FROM archive a USING unnest($1::text[], $2::integer[]) AS k(t, n) "
         "WHERE a.table_id = k.t AND a.game = k.n RETURNING a.id, a.preset, a.finished_ms, a.players, a.rule_set) "
         "DELETE FROM archive_players p USING g, json_array_elements(g.players::json) e "
         "WHERE p.player = e->>'player' AND p.preset IN (g.preset, 'set:' || g.rule_set) "
         "AND p.finished_ms = g.finished_ms AND p.id = g.id"},
        {"journal", JournalRows::kSql},
        {"fence", "SELECT sparts_fence($1::text, $2::text[], $3::bigint[])"},
        {"release",
         "UPDATE leases SET node = '', wanted_by = '', expires_at = clock_timestamp() "
         "WHERE table_id = $1 AND node = $2 AND epoch = $3"},
        {"put_ban",
         "INSERT INTO bans (player, reason, at_ms) VALUES ($1, $2, $3) "
         "ON CONFLICT (player) DO UPDATE SET reason = excluded.reason, at_ms = excluded.at_ms"},
        {"remove_ban", "DELETE FROM bans WHERE player = $1"},
        {"webhook_keep",
         "INSERT INTO webhook_outbox (table_id, game, body) VALUES ($1, $2, $3) ON CONFLICT (table_id, game) DO NOTHING"},
        {"webhook_done", "DELETE FROM webhook_outbox WHERE table_id = $1 AND game = $2"},
    };
    return all;
}

}  // namespace

// The writer's connection and the game logs of the games in progress it has
// seen (folded into a record when a game ends). A log it does not have (a
// table brought back after a restart, or after a failed commit, which may
// have added entries that never reached the database) is read from the
// journal when it is needed.
class PgStore::Writer {
public:
    explicit Writer(const std::string& url) : conn_(url) {}

    pg::Connection& conn() { return conn_; }

    // One server alone holds the server lock by itself; the nodes of a cluster share it, and
    // each holds its node id's. Empty, or who holds what this server needs.
    std::string lock(const std::string& node, int lease_ms) {
        node_ = node;
        if (node.empty()) {
            if (!conn_.exec("SELECT pg_try_advisory_lock($1)", pg::Params().number(kServerLock)).boolean(0, 0))
                return "is in use by another sparts-server: one server per database (or give every server a --node-id)";
            return {};
        }
        if (!conn_.exec("SELECT pg_try_advisory_lock_shared($1)", pg::Params().number(kServerLock)).boolean(0, 0))
            return "is in use by a sparts-server without a --node-id: the nodes of a cluster each need one";
        if (!conn_.exec("SELECT pg_try_advisory_lock(hashtextextended($1, 7))", pg::Params().text("sparts node " + node))
                 .boolean(0, 0))
            return "is in use by another sparts-server with --node-id " + node + ": each node needs an id of its own";
        // A stopped node's transaction must not keep its leases locked (sparts_fence) for longer than a lease.
        conn_.exec("SELECT set_config('idle_in_transaction_session_timeout', $1, false)",
                   pg::Params().text(std::to_string(lease_ms) + "ms"));
        lease_ms_ = lease_ms;
        return {};
    }

    void prepare() {
        conn_.exec("DEALLOCATE ALL");  // what a failed attempt prepared
        for (const auto& [name, sql] : prepared_statements()) conn_.prepare(name, sql);
        for (const auto& [name, sql] : pg_rating_statements()) conn_.prepare(name, sql);
        prepared_ = true;
    }

    // `fence`: the tables whose leases the group's steps need (none: no fence); `releases`:
    // tables freed once the group's writes are in, with their epochs.
    void commit(const std::deque<Pending>& group, const Fence& fence,
                const std::vector<std::pair<std::string, std::uint64_t>>& releases) {
        if (!conn_.ok()) {
            logs_.clear();
            conn_.reset();
            prepared_ = false;
            if (const std::string taken = lock(node_, lease_ms_); !taken.empty())
                throw pg::Error("the database " + taken + " (taken while the connection was down)", "55P03");
        }
        if (!prepared_) prepare();
        try {
            load_missing_logs(group);
            std::vector<Statement> statements;
            std::vector<Statement> rest;
            if (!fence.tables.empty()) {
                pg::ArrayText tables, epochs;
                for (std::size_t i = 0; i < fence.tables.size(); ++i) {
                    tables.text(fence.tables[i]);
                    epochs.number(static_cast<std::int64_t>(fence.epochs[i]));
                }
                statements.push_back({"fence", pg::Params().text(node_).text(tables.done()).text(epochs.done())});
            }
            for (Statement& st : build(group)) rest.push_back(std::move(st));
            for (const auto& [table, epoch] : releases)
                rest.push_back({"release", pg::Params().text(table).text(node_).number(static_cast<std::int64_t>(epoch))});
            if (const auto keys = rating_keys(group); !keys.empty())
                return run_rated(std::move(statements), keys, group, std::move(rest));
            for (Statement& st : rest) statements.push_back(std::move(st));
            run(statements);
        } catch (...) {
            // The logs may hold entries the rollback undid: read again when needed.
            logs_.clear();
            throw;
        }
    }

    // Extends the leases of the tables this node holds; what the database says of each.
    struct LeaseRow {
        std::string table;
        std::uint64_t epoch = 0;
        std::string wanted_by;
    };
    std::vector<LeaseRow> renew(const std::vector<std::string>& tables) {
        pg::ArrayText list;
        for (const auto& t : tables) list.text(t);
        const pg::Result r = conn_.exec(
            "UPDATE leases SET expires_at = clock_timestamp() + $3::integer * interval '1 millisecond' "
            "WHERE node = $1 AND table_id = ANY ($2::text[]) RETURNING table_id, epoch, wanted_by",
            pg::Params().text(node_).text(list.done()).number(lease_ms_));
        std::vector<LeaseRow> out;
        for (int i = 0; i < r.rows(); ++i)
            out.push_back({r.text(i, 0), static_cast<std::uint64_t>(r.number(i, 1)), r.text(i, 2)});
        return out;
    }

    // Of the fence's tables, those this node no longer holds at their epochs.
    std::vector<std::string> lost_of(const Fence& fence) {
        pg::ArrayText tables, epochs;
        for (std::size_t i = 0; i < fence.tables.size(); ++i) {
            tables.text(fence.tables[i]);
            epochs.number(static_cast<std::int64_t>(fence.epochs[i]));
        }
        const pg::Result r = conn_.exec(
            "SELECT t.id FROM unnest($2::text[], $3::bigint[]) AS t(id, epoch) LEFT JOIN leases l ON l.table_id = t.id "
            "WHERE l.table_id IS NULL OR l.node <> $1 OR l.epoch <> t.epoch",
            pg::Params().text(node_).text(tables.done()).text(epochs.done()));
        std::vector<std::string> out;
        for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
        return out;
    }

    // At a node's start: leases its id held before (a process that died) are freed, so
    // that no other node waits for them to expire.
    void release_stale() {
        conn_.exec("UPDATE leases SET node = '', wanted_by = '', expires_at = clock_timestamp() WHERE node = $1",
                   pg::Params().text(node_));
    }

private:
    struct Log {
        int game = 0;
        GameLogEncoder encoder;
    };

    // The log of each game the group finishes that the writer does not have.
    void load_missing_logs(const std::deque<Pending>& group) {
        std::set<std::pair<std::string, int>> started;
        for (const Pending& p : group)
            for (const Write& w : p.batch) {
                if (const auto* s = std::get_if<StartGame>(&w)) started.emplace(s->table, s->game);
                const auto* f = std::get_if<FinishGame>(&w);
                if (!f || started.count({f->table, f->game})) continue;
                if (auto it = logs_.find(f->table); it != logs_.end() && it->second.game == f->game) continue;
                const pg::Result r = conn_.exec(std::string("SELECT ") + kJournalColumns +
                                                    " FROM journal WHERE table_id = $1 AND game = $2 ORDER BY seq",
                                                pg::Params().text(f->table).number(f->game));
                Log log{f->game, GameLogEncoder()};
                for (int row = 0; row < r.rows(); ++row) log.encoder.add(journal_entry(r, row, 0));
                logs_.insert_or_assign(f->table, std::move(log));
            }
    }

    void journal(JournalRows& rows, const std::string& table, int game, const GameLogEntry& e) {
        rows.add(table, game, e);
        if (auto it = logs_.find(table); it != logs_.end() && it->second.game == game) it->second.encoder.add(e);
    }

    std::vector<Statement> build(const std::deque<Pending>& group) {
        std::vector<Statement> out;
        JournalRows rows;
        const auto flush_rows = [&] {
            if (rows.rows() == 0) return;
            out.push_back({"journal", rows.params()});
            rows = JournalRows();
        };
        ArchiveRows archived;
        const auto flush_archived = [&] {
            if (archived.rows() == 0) return;
            out.push_back({"archive_games", archived.params()});
            archived = ArchiveRows();
        };
        for (const Pending& p : group)
            for (const Write& w : p.batch) {
                if (const auto* a = std::get_if<ArchiveGame>(&w)) {
                    flush_rows();
                    archived.add(*a);
                    if (archived.rows() == ArchiveRows::kMostRows) flush_archived();
                    continue;
                }
                flush_archived();
                if (std::holds_alternative<EngineEvents>(w) || std::holds_alternative<AppendEvent>(w)) {
                    if (const auto* e = std::get_if<EngineEvents>(&w))
                        journal(rows, e->table, e->game, GameLogEntry::engine_events(e->seq, e->at, e->count, e->cause));
                    else if (const auto* a = std::get_if<AppendEvent>(&w))
                        journal(rows, a->table, a->game, GameLogEntry::table(a->seq, a->at, a->type, a->payload));
                    continue;
                }
                flush_rows();
                std::visit(overloaded{
                               [&](const PutPlayer& x) {
                                   out.push_back({"put_player",
                                                  pg::Params().text(x.id).text(x.token_hash).text(x.name).number(x.at)});
                               },
                               [&](const OpenTable& t) {
                                   out.push_back({"open_table", pg::Params()
                                                                    .text(t.id)
                                                                    .number(t.number)
                                                                    .text(t.ruleset)
                                                                    .text(t.preset)
                                                                    .number(t.seats)
                                                                    .boolean(t.is_private)
                                                                    .text(t.invite)
                                                                    .number(t.turn_seconds)
                                                                    .text(t.creator)
                                                                    .number(t.at)});
                               },
                               [&](const PutBan& b) {
                                   out.push_back({"put_ban", pg::Params().text(b.player).text(b.reason).number(b.at)});
                               },
                               [&](const RemoveBan& b) { out.push_back({"remove_ban", pg::Params().text(b.player)}); },
                               [&](const WebhookDone& d) {
                                   out.push_back({"webhook_done", pg::Params().text(d.table).number(d.game)});
                               },
                               [&](const ReplaceRatings& r) {
                                   out.push_back({"ratings_clear", {}});
                                   if (!r.rows.empty()) out.push_back({"ratings_put", rating_put_params(r.rows)});
                               },
                               [&](const CloseTable& c) {
                                   out.push_back({"close_table", pg::Params().number(c.at).text(c.reason).text(c.table)});
                                   out.push_back({"close_journal", pg::Params().text(c.table)});
                                   out.push_back({"close_game", pg::Params().text(c.table)});
                                   logs_.erase(c.table);
                               },
                               [&](const PutSeat& s) {
                                   out.push_back({"put_seat", pg::Params()
                                                                  .text(s.table)
                                                                  .number(s.seat)
                                                                  .text(s.player)
                                                                  .text(s.name)
                                                                  .boolean(s.bot)
                                                                  .text(s.level)});
                               },
                               [&](const StartGame& g) {
                                   pg::Params params;
                                   params.text(g.table)
                                       .number(g.game)
                                       .number(static_cast<std::int64_t>(g.seed))
                                       .text(g.ruleset)
                                       .text(g.players)
                                       .number(g.at);
                                   if (g.salt.empty())
                                       params.null();
                                   else
                                       params.text(g.salt);
                                   out.push_back({"start_game", std::move(params)});
                                   out.push_back({"start_journal", pg::Params().text(g.table).number(g.game)});
                                   logs_.insert_or_assign(g.table, Log{g.game, GameLogEncoder()});
                               },
                               [&](const FinishGame& f) {
                                   pg::Params params;
                                   params.number(f.at).text(f.result);
                                   auto it = logs_.find(f.table);
                                   if (it != logs_.end() && it->second.game == f.game) {
                                       params.bytes(it->second.encoder.bytes());
                                       logs_.erase(it);
                                   } else {
                                       spdlog::error("database: table {} game {} ends, but its log is not in progress: "
                                                     "it is kept without a record",
                                                     f.table, f.game);
                                       params.null();
                                   }
                                   params.text(f.table).number(f.game);
                                   if (f.rule_set.empty())
                                       params.null();
                                   else
                                       params.text(f.rule_set);
                                   out.push_back({"finish_game", std::move(params),
                                                  "table " + f.table + " game " + std::to_string(f.game)});
                                   if (!f.webhook.empty())
                                       out.push_back({"webhook_keep",
                                                      pg::Params().text(f.table).number(f.game).text(f.webhook)});
                               },
                               [&](const RetireGames& r) {
                                   pg::ArrayText tables, games;
                                   for (const auto& [table, game] : r.games) {
                                       tables.text(table);
                                       games.number(game);
                                   }
                                   out.push_back({"retire_games", pg::Params().text(tables.done()).text(games.done())});
                                   if (!r.ratings.empty())
                                       out.push_back({"ratings_retire", rating_put_params(r.ratings)});
                               },
                               [](const auto&) {},
                           },
                           w);
            }
        flush_rows();
        flush_archived();
        return out;
    }

    // A group that ends rated games: BEGIN, the fence (`head`), its players' rating rows made and
    // locked (FOR UPDATE, in key order: another node ending a game of the same players waits) and
    // read; then the new ratings, computed from them in the group's order, go with the rest of the
    // group and COMMIT. Two round trips, only for such a group.
    void run_rated(std::vector<Statement> head, const std::vector<std::pair<std::string, std::string>>& keys,
                   const std::deque<Pending>& group, std::vector<Statement> rest) {
        head.push_back({"ratings_lock", rating_key_params(keys)});
        head.push_back({"ratings_read", rating_key_params(keys)});
        conn_.enter_pipeline();
        try {
            conn_.send("BEGIN", {});
            for (const Statement& s : head) conn_.send_prepared(s.name, s.params);
            conn_.sync();
            conn_.next_result();  // BEGIN
            pg::Result read;
            for (const Statement& s : head) {
                read = conn_.next_result();
                say_if_not_finished(s, read);
            }
            conn_.next_result();  // the sync
            RatingBook book;
            for (PresetRating& row : rating_rows(read)) book.put(std::move(row));
            for (const Pending& p : group)
                for (const Write& w : p.batch)
                    if (const auto* f = std::get_if<FinishGame>(&w)) book.apply(*f);
            rest.push_back({"ratings_put", rating_put_params(book.changed())});
            for (const Statement& s : rest) conn_.send_prepared(s.name, s.params);
            conn_.send("COMMIT", {});
            conn_.sync();
            for (const Statement& s : rest) say_if_not_finished(s, conn_.next_result());
            conn_.next_result();  // COMMIT
            conn_.next_result();  // the sync
            conn_.exit_pipeline();
        } catch (const pg::Error&) {
            abandon_pipeline();
            throw;
        }
    }

    // After a failure inside a pipeline: out of it, and the transaction rolled back, while the
    // connection lives (a broken one is replaced by the caller).
    void abandon_pipeline() {
        if (!conn_.ok()) return;
        conn_.skip_to_sync();
        conn_.exit_pipeline();
        try {
            conn_.exec("ROLLBACK");
        } catch (const pg::Error&) {
        }
    }

    // BEGIN, the statements and COMMIT in one pipeline: one round trip.
    void run(const std::vector<Statement>& statements) {
        conn_.enter_pipeline();
        try {
            conn_.send("BEGIN", {});
            for (const Statement& s : statements) conn_.send_prepared(s.name, s.params);
            conn_.send("COMMIT", {});
            conn_.sync();
            conn_.next_result();  // BEGIN
            for (const Statement& s : statements) say_if_not_finished(s, conn_.next_result());
            conn_.next_result();  // COMMIT
            conn_.next_result();  // the sync
            conn_.exit_pipeline();
        } catch (const pg::Error&) {
            abandon_pipeline();
            throw;
        }
    }

    pg::Connection conn_;
    bool prepared_ = false;
    std::string node_;
    int lease_ms_ = 0;
    std::unordered_map<std::string, Log> logs_;
};

// The connection reads go through: archive pages and games, a returning
// player, the open tables at start. One at a time, under the store's reader
// mutex; a connection that broke is opened again for the next read.
class PgStore::Reader {
public:
    explicit Reader(const std::string& url) : conn_(url) {}

    template <class F>
    auto with(F&& f) {
        std::lock_guard lock(mutex_);
        for (int attempt = 1;; ++attempt) {
            try {
                if (!conn_.ok()) conn_.reset();
                return f(conn_);
            } catch (const pg::Error&) {
                if (attempt >= 2 || conn_.ok()) throw;
            }
        }
    }

private:
    std::mutex mutex_;
    pg::Connection conn_;
};

PgStore::PgStore(std::string url, PgOptions options)
    : url_(std::move(url)), options_(options), queue_(options.commit_interval, options.commit_batches) {}

Outcome<std::unique_ptr<PgStore>, std::string> PgStore::open(const std::string& url, PgOptions options) {
    const std::string shown = pg::redact(url);
    if (const std::string bad = pg::check_url(url); !bad.empty())
        return "--database " + shown + " is not a PostgreSQL URL libpq can read: " + bad;
    std::unique_ptr<PgStore> store(new PgStore(url, options));
    try {
        store->writer_ = std::make_unique<Writer>(url);
        pg::Connection& db = store->writer_->conn();
        const std::string where = "PostgreSQL database " + shown;
        // Nodes starting together inspect and migrate one at a time. (Looking first and locking
        // after let two nodes both find an empty database and both create the schema; and a
        // session's cached catalog did not see a table another session had just created: the
        // catalog is read with a query, which takes a fresh snapshot.)
        db.exec("SELECT pg_advisory_lock($1)", pg::Params().number(kMigrationLock));
        const auto has_schema = [&] {
            return db.exec("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() "
                           "AND tablename = 'sparts_schema')")
                .boolean(0, 0);
        };
        int version = 0;
        if (!has_schema()) {
            const pg::Result others = db.exec(
                "SELECT string_agg(tablename, ', ' ORDER BY tablename) FROM (SELECT tablename FROM pg_tables "
                "WHERE schemaname = current_schema() ORDER BY tablename LIMIT 5) t");
            if (!others.null(0, 0))
                return where + " holds tables that are not sparts's (" + others.text(0, 0) +
                       "): give sparts-server a database of its own";
        } else {
            version = static_cast<int>(db.exec("SELECT version FROM sparts_schema").number(0, 0));
        }
        if (version > latest_pg_schema_version())
            return where + " has schema version " + std::to_string(version) + ", newer than this server's " +
                   std::to_string(latest_pg_schema_version()) + ": run a newer sparts-server, or point --database elsewhere";
        const int found = version;
        for (; version < latest_pg_schema_version(); ++version) {
            db.exec("BEGIN");
            try {
                db.exec_script(pg_migrations()[static_cast<std::size_t>(version)]);
                db.exec("UPDATE sparts_schema SET version = $1", pg::Params().number(version + 1));
                db.exec("COMMIT");
            } catch (...) {
                db.exec("ROLLBACK");
                throw;
            }
            spdlog::info("database {}: schema migrated to version {}", shown, version + 1);
        }
        // The archive a migration to version 6 filled gets what autovacuum would give it later: its
        // statistics, and its visibility map, without which the planner read a player's small ranges by
        // a bitmap and a sort rather than from the index in order. (VACUUM runs outside a transaction.)
        if (found > 0 && found < 6 && version >= 6) db.exec("VACUUM (ANALYZE) archive, archive_players, games_in_progress");
        db.exec("SELECT pg_advisory_unlock($1)", pg::Params().number(kMigrationLock));
        if (const std::string taken = store->writer_->lock(options.node, options.lease_ms); !taken.empty())
            return where + " " + taken;
        store->writer_->prepare();
        store->reader_ = std::make_unique<Reader>(url);
        if (!options.node.empty()) {
            store->writer_->release_stale();
            store->leases_ = std::make_unique<Reader>(url);
        }
    } catch (const pg::Error& e) {
        return std::string(e.what());
    }
    store->thread_ = std::thread([s = store.get()] { s->run_writer(); });
    return store;
}

PgStore::~PgStore() {
    queue_.stop();  // a commit that fails from here on is not retried
    if (thread_.joinable()) thread_.join();
    // The server's locks go now, not when PostgreSQL notices the connection closed a moment
    // later: a server started again at once (or --recompute-ratings right after) was refused.
    try {
        if (writer_ && writer_->conn().ok()) writer_->conn().exec("SELECT pg_advisory_unlock_all()");
    } catch (const pg::Error&) {
    }
}

void PgStore::submit(Batch batch, std::function<void()> done) { queue_.submit({std::move(batch), std::move(done), {}}); }

bool PgStore::flush(std::optional<std::chrono::milliseconds> limit) { return queue_.flush(limit); }

std::string PgStore::fenced_table(const Batch& batch) {
    // A table's creation is nobody's until a node takes it.
    for (const Write& w : batch)
        if (std::holds_alternative<OpenTable>(w)) return {};
    for (const Write& w : batch) {
        if (std::holds_alternative<PutPlayer>(w) || std::holds_alternative<OpenTable>(w)) continue;
        return std::visit(overloaded{[](const PutPlayer&) { return std::string(); },
                                     [](const ReplaceRatings&) { return std::string(); },
                                     [](const PutBan&) { return std::string(); },
                                     [](const RemoveBan&) { return std::string(); },
                                     // Whichever node delivered it: the table may be another's by now.
                                     [](const WebhookDone&) { return std::string(); },
                                     // Not a table's step: an archived game's table is closed, or never was here.
                                     [](const ArchiveGame&) { return std::string(); },
                                     [](const RetireGames&) { return std::string(); },
                                     [](const OpenTable& t) { return t.id; },
                                     [](const auto& x) { return x.table; }},
                          w);
    }
    return {};
}

PgStore::Fence PgStore::fence(std::deque<Pending>& group, std::vector<std::string>& lost) {
    Fence f;
    if (!clustered()) return f;
    std::lock_guard lock(mutex_);
    std::unordered_map<std::string, bool> seen;
    std::uint64_t dropped = 0;
    for (auto it = group.begin(); it != group.end();) {
        const std::string table = it->release.empty() ? fenced_table(it->batch) : std::string();
        if (table.empty()) {
            ++it;
            continue;
        }
        const auto held = held_.find(table);
        if (held == held_.end()) {
            // A table this node let go of or lost: its steps are never committed, nor sent.
            if (!seen.count(table)) lost.push_back(table);
            seen[table] = false;
            it = group.erase(it);
            ++dropped;
            continue;
        }
        if (!seen.count(table)) {
            f.tables.push_back(table);
            f.epochs.push_back(held->second);
        }
        seen[table] = true;
        ++it;
    }
    if (dropped > 0) queue_.finished(dropped);
    return f;
}

void PgStore::renew_leases() {
    std::vector<std::string> tables;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [table, epoch] : held_) tables.push_back(table);
    }
    last_renewal_ = Clock::now();
    if (tables.empty()) return;
    const auto rows = writer_->renew(tables);
    std::vector<std::string> lost, wanted;
    {
        std::lock_guard lock(mutex_);
        std::unordered_map<std::string, const Writer::LeaseRow*> by_table;
        for (const auto& r : rows) by_table[r.table] = &r;
        for (const std::string& table : tables) {
            const auto held = held_.find(table);
            if (held == held_.end()) continue;  // released meanwhile
            const auto row = by_table.find(table);
            if (row == by_table.end() || row->second->epoch != held->second) {
                held_.erase(held);
                wanted_told_.erase(table);
                lost.push_back(table);
                continue;
            }
            const std::string& by = row->second->wanted_by;
            if (!by.empty() && by != options_.node && wanted_told_[table] != held->second) {
                wanted_told_[table] = held->second;
                wanted.push_back(table);
            }
        }
    }
    for (const auto& t : lost) {
        spdlog::warn("database: node {} lost table {}: another node holds it now", options_.node, t);
        if (events_.lost) events_.lost(t);
    }
    for (const auto& t : wanted)
        if (events_.wanted) events_.wanted(t);
}

void PgStore::run_writer() {
    const std::string shown = pg::redact(url_);
    const auto renewal = std::chrono::milliseconds(std::max(1, options_.lease_ms / 3));
    std::deque<Pending> group;
    for (;;) {
        // Many nodes: the writer wakes for its leases' renewal too.
        const auto until = clustered() ? std::optional(last_renewal_ + renewal) : std::nullopt;
        if (!queue_.next(group, until)) return;  // stopped, everything written
        if (clustered() && Clock::now() >= last_renewal_ + renewal) {
            try {
                renew_leases();
            } catch (const pg::Error& e) {
                // Leases not renewed expire, and other nodes take the tables over: their commits here are then refused.
                spdlog::error("database {}: node {} cannot renew its leases: {}", shown, options_.node, e.what());
                last_renewal_ = Clock::now();
            }
        }
        if (group.empty()) continue;
        // A failed commit (PostgreSQL restarting, a full disk, a broken connection) is retried
        // until it succeeds; only a server going away gives up, and says what it leaves.
        const bool written = queue_.write_group(
            group, shown, std::chrono::milliseconds(options_.retry_ms),
            {[&] { return commit_fenced(group); }, [](const std::exception& e) { return std::string(e.what()); }, {},
             stats_, mutex_});
        if (!written) return;
    }
}

bool PgStore::commit_fenced(std::deque<Pending>& group) {
    const std::string shown = pg::redact(url_);
    std::vector<std::string> lost;
    const Fence fenced = fence(group, lost);
    for (const auto& t : lost)
        if (events_.lost) events_.lost(t);
    std::vector<std::pair<std::string, std::uint64_t>> releases;
    {
        std::lock_guard lock(mutex_);
        for (const Pending& p : group)
            if (!p.release.empty())
                if (auto it = held_.find(p.release); it != held_.end()) releases.emplace_back(it->first, it->second);
    }
    try {
        writer_->commit(group, fenced, releases);
    } catch (const pg::Error& e) {
        if (e.sqlstate() != "SP001") throw;
        // Another node took a table over: its steps go, the rest are committed at once.
        std::vector<std::string> gone;
        try {
            gone = writer_->lost_of(fenced);
        } catch (const pg::Error&) {
        }
        {
            std::lock_guard lock(mutex_);
            for (const auto& t : gone) {
                held_.erase(t);
                wanted_told_.erase(t);
            }
        }
        spdlog::warn("database {}: node {}: a commit was refused, {} table(s) held by another node now: {}", shown,
                     options_.node, gone.size(), e.what());
        if (gone.empty()) throw;
        return false;
    }
    std::lock_guard lock(mutex_);
    for (const auto& [table, epoch] : releases) {
        held_.erase(table);
        wanted_told_.erase(table);
    }
    return true;
}

void PgStore::release(const std::string& table, std::function<void()> done) {
    queue_.submit({{}, std::move(done), table});
}

void PgStore::on_lease_events(LeaseEvents events) {
    std::lock_guard lock(mutex_);
    events_ = std::move(events);
}

std::uint64_t PgStore::next_table_number(std::uint64_t after_local) {
    if (!clustered()) return after_local + 1;
    return leases_->with([](pg::Connection& db) {
        return static_cast<std::uint64_t>(db.exec("SELECT nextval('table_numbers')").number(0, 0));
    });
}

std::vector<ListedTable> PgStore::listed_tables() {
    if (!clustered()) return {};
    return reader_->with([](pg::Connection& db) {
        std::vector<ListedTable> out;
        std::unordered_map<std::string, std::size_t> index;
        const pg::Result tables = db.exec(
            // The latest game: the one in progress, else the last the table finished (archive_game,
            // read only for a table between games).
            "SELECT t.id, t.ruleset, t.preset, t.seats, t.turn_seconds, t.creator, "
            "COALESCE(g.game, (SELECT max(a.game) FROM archive a WHERE a.table_id = t.id), 0), g.game IS NOT NULL "
            "FROM tables t LEFT JOIN games_in_progress g ON g.table_id = t.id "
            "WHERE t.closed_ms IS NULL AND NOT t.private ORDER BY t.number");
        for (int i = 0; i < tables.rows(); ++i) {
            ListedTable t;
            t.id = tables.text(i, 0);
            t.ruleset = tables.text(i, 1);
            t.preset = tables.text(i, 2);
            t.seats = static_cast<int>(tables.number(i, 3));
            t.turn_seconds = static_cast<int>(tables.number(i, 4));
            t.creator = tables.text(i, 5);
            t.game = static_cast<int>(tables.number(i, 6));
            t.playing = tables.boolean(i, 7);
            t.seated.resize(static_cast<std::size_t>(std::max(0, t.seats)));
            index[t.id] = out.size();
            out.push_back(std::move(t));
        }
        const pg::Result seats = db.exec(
            "SELECT s.table_id, s.seat, s.player, s.name, s.bot FROM seats s JOIN tables t ON t.id = s.table_id "
            "WHERE t.closed_ms IS NULL AND NOT t.private");
        for (int i = 0; i < seats.rows(); ++i) {
            const auto it = index.find(seats.text(i, 0));
            if (it == index.end()) continue;
            ListedTable& t = out[it->second];
            const auto s = seats.number(i, 1);
            if (s < 0 || s >= t.seats) continue;
            t.seated[static_cast<std::size_t>(s)] = StoredSeat{seats.text(i, 2), seats.text(i, 3), seats.boolean(i, 4), {}};
        }
        return out;
    });
}

std::vector<std::pair<std::string, int>> PgStore::seats_of(const std::string& player) {
    if (!clustered()) return {};
    return reader_->with([&](pg::Connection& db) {
        const pg::Result r = db.exec(
            "SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.id = s.table_id "
            "WHERE t.closed_ms IS NULL AND s.player = $1 ORDER BY t.number, s.seat",
            pg::Params().text(player));
        std::vector<std::pair<std::string, int>> out;
        for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.text(i, 0), static_cast<int>(r.number(i, 1)));
        return out;
    });
}

Store::TakeOver PgStore::take_over(const std::string& table) {
    if (!clustered()) return {};
    const Taken taken = leases_->with([&](pg::Connection& db) {
        const pg::Result open = db.exec("SELECT 1 FROM tables WHERE id = $1 AND closed_ms IS NULL", pg::Params().text(table));
        if (open.rows() == 0) return Taken::no_such_table;
        // Free (released or expired) or this node's already: taken, at a new epoch. This
        // waits for a commit of the previous holder in flight (sparts_fence's lock): what
        // is read next holds everything it wrote.
        const pg::Result r = db.exec(
            "INSERT INTO leases (table_id, node, epoch, expires_at) "
            "VALUES ($1, $2, 1, clock_timestamp() + $3::integer * interval '1 millisecond') "
            "ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, epoch = leases.epoch + 1, "
            "expires_at = excluded.expires_at, wanted_by = '' "
            "WHERE leases.node = excluded.node OR leases.node = '' OR leases.expires_at < clock_timestamp() "
            "RETURNING epoch",
            pg::Params().text(table).text(options_.node).number(options_.lease_ms));
        if (r.rows() == 0) {
            db.exec("UPDATE leases SET wanted_by = $2 WHERE table_id = $1 AND node <> $2", pg::Params().text(table).text(options_.node));
            return Taken::held_elsewhere;
        }
        std::lock_guard lock(mutex_);
        held_[table] = static_cast<std::uint64_t>(r.number(0, 0));
        return Taken::taken;
    });
    TakeOver out;
    out.taken = taken;
    if (taken != Taken::taken) return out;
    auto states = read_tables(&table);
    if (states.empty()) {
        out.taken = Taken::no_such_table;  // closed meanwhile
        return out;
    }
    out.state = std::move(states.front());
    return out;
}

Store::Stats PgStore::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

// --- reads ----------------------------------------------------------------------

std::vector<StoredPlayer> PgStore::players() {
    return reader_->with([](pg::Connection& db) {
        const pg::Result r = db.exec(
            "SELECT id, token_hash, name FROM players WHERE id IN ("
            "SELECT s.player FROM seats s JOIN tables t ON t.id = s.table_id WHERE t.closed_ms IS NULL AND s.player <> '' "
            "UNION SELECT creator FROM tables WHERE closed_ms IS NULL)");
        std::vector<StoredPlayer> out;
        for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.text(i, 1), r.text(i, 2)});
        return out;
    });
}

std::optional<StoredPlayer> PgStore::find_player(const std::string& token_hash) {
    return reader_->with([&](pg::Connection& db) -> std::optional<StoredPlayer> {
        const pg::Result r =
            db.exec("SELECT id, token_hash, name FROM players WHERE token_hash = $1", pg::Params().text(token_hash));
        if (r.rows() == 0) return std::nullopt;
        return StoredPlayer{r.text(0, 0), r.text(0, 1), r.text(0, 2)};
    });
}

std::vector<StoredBan> PgStore::bans() {
    return reader_->with([](pg::Connection& db) {
        const pg::Result r = db.exec("SELECT player, reason, at_ms FROM bans ORDER BY player");
        std::vector<StoredBan> out;
        for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.text(i, 1), r.number(i, 2)});
        return out;
    });
}

std::vector<PendingWebhook> PgStore::pending_webhooks(std::size_t limit) {
    return reader_->with([limit](pg::Connection& db) {
        const pg::Result r = db.exec("SELECT table_id, game, body FROM webhook_outbox ORDER BY id LIMIT $1",
                                     pg::Params().number(static_cast<std::int64_t>(limit)));
        std::vector<PendingWebhook> out;
        for (int i = 0; i < r.rows(); ++i)
            out.push_back({r.text(i, 0), static_cast<int>(r.number(i, 1)), r.text(i, 2)});
        return out;
    });
}

std::uint64_t PgStore::last_table_number() {
    return reader_->with([](pg::Connection& db) {
        return static_cast<std::uint64_t>(db.exec("SELECT COALESCE(max(number), 0) FROM tables").number(0, 0));
    });
}

std::vector<OpenTableState> PgStore::open_tables() {
    // A cluster's nodes bring tables back one at a time, as their clients come (take_over).
    if (clustered()) return {};
    return read_tables(nullptr);
}

std::vector<OpenTableState> PgStore::read_tables(const std::string* only) {
    const std::string shown = pg::redact(url_);
    // One table, or every open one.
    const std::string which = only ? " AND t.id = $1" : "";
    pg::Params params;
    if (only) params.text(*only);
    return reader_->with([&](pg::Connection& db) {
        std::vector<OpenTableState> out;
        std::unordered_map<std::string, std::size_t> index;
        const pg::Result tables = db.exec(
            "SELECT id, number, ruleset, preset, seats, private, invite, turn_seconds, creator, created_ms "
            "FROM tables t WHERE closed_ms IS NULL" + which + " ORDER BY number", params);
        for (int i = 0; i < tables.rows(); ++i) {
            OpenTableState t;
            t.table.id = tables.text(i, 0);
            t.table.number = tables.number(i, 1);
            t.table.ruleset = tables.text(i, 2);
            t.table.preset = tables.text(i, 3);
            t.table.seats = static_cast<int>(tables.number(i, 4));
            t.table.is_private = tables.boolean(i, 5);
            t.table.invite = tables.text(i, 6);
            t.table.turn_seconds = static_cast<int>(tables.number(i, 7));
            t.table.creator = tables.text(i, 8);
            t.table.at = tables.number(i, 9);
            t.seats.resize(static_cast<std::size_t>(std::max(0, t.table.seats)));
            index[t.table.id] = out.size();
            out.push_back(std::move(t));
        }
        const pg::Result seats = db.exec(
            "SELECT s.table_id, s.seat, s.player, s.name, s.bot, s.level FROM seats s "
            "JOIN tables t ON t.id = s.table_id WHERE t.closed_ms IS NULL" + which, params);
        for (int i = 0; i < seats.rows(); ++i) {
            OpenTableState& t = out[index.at(seats.text(i, 0))];
            const auto s = seats.number(i, 1);
            if (s < 0 || s >= t.table.seats) continue;
            t.seats[static_cast<std::size_t>(s)] =
                StoredSeat{seats.text(i, 2), seats.text(i, 3), seats.boolean(i, 4), seats.text(i, 5)};
        }
        // Each table's latest game: the one in progress, else the last it finished (archive_game,
        // one step back for each table between games).
        const pg::Result games = db.exec(
            "SELECT g.table_id, g.game, g.seed, false, g.started_ms, NULL::bytea, g.salt, g.players "
            "FROM games_in_progress g JOIN tables t ON t.id = g.table_id WHERE t.closed_ms IS NULL" + which +
            " UNION ALL SELECT t.id, a.game, a.seed, true, a.started_ms, a.record, a.salt, a.players FROM tables t "
            "CROSS JOIN LATERAL (SELECT game, seed, started_ms, record, salt, players FROM archive "
            "WHERE table_id = t.id ORDER BY game DESC LIMIT 1) a WHERE t.closed_ms IS NULL" + which +
            " AND NOT EXISTS (SELECT 1 FROM games_in_progress g WHERE g.table_id = t.id)", params);
        for (int i = 0; i < games.rows(); ++i) {
            OpenTableState& t = out[index.at(games.text(i, 0))];
            t.game = static_cast<int>(games.number(i, 1));
            t.seed = static_cast<std::uint64_t>(games.number(i, 2));
            t.game_finished = games.boolean(i, 3);
            t.game_started = games.number(i, 4);
            if (!games.null(i, 6)) t.salt = games.text(i, 6);
            t.players = games.text(i, 7);
            if (!t.game_finished) continue;
            if (games.null(i, 5)) {
                spdlog::error("database {}: table {} game {} is over but has no record: it comes back dealt again", shown,
                              t.table.id, t.game);
            } else if (auto log = decode_game_log(games.bytes(i, 5)); !log) {
                spdlog::error("database {}: table {} game {}: its record is unreadable ({}): it comes back dealt again",
                              shown, t.table.id, t.game, log.error());
            } else {
                t.actions = actions_of(*log);
            }
        }
        const pg::Result rows = db.exec(std::string("SELECT j.id, ") + kJournalColumns +
                                        " FROM journal j JOIN tables t ON t.id = j.table_id "
                                        "WHERE t.closed_ms IS NULL" + which + " ORDER BY j.table_id, j.seq", params);
        for (int i = 0; i < rows.rows(); ++i) {
            OpenTableState& t = out[index.at(rows.text(i, 1))];
            const int game = static_cast<int>(rows.number(i, 2));
            const GameLogEntry e = journal_entry(rows, i, 1);
            const std::uint64_t last = e.seq + e.events - 1;
            if (last >= t.last_seq) {
                t.last_seq = last;
                t.last_event_at = e.at;
            }
            if (!t.game_finished && game == t.game && e.cause) t.actions.push_back({e.cause->seat, action_text(*e.cause), e.seq});
        }
        return out;
    });
}

std::map<std::string, std::int64_t> PgStore::rule_set_games() {
    return reader_->with([&](pg::Connection& db) {
        std::map<std::string, std::int64_t> out;
        const pg::Result r = db.exec("SELECT name, games FROM rule_set_games", {});
        for (int i = 0; i < r.rows(); ++i) out[r.text(i, 0)] = r.number(i, 1);
        return out;
    });
}

ArchivePage PgStore::list_games(const ArchiveQuery& query) {
    return reader_->with([&](pg::Connection& db) { return pg_list_games(db, query); });
}

std::vector<std::string> PgStore::list_games_plan(const ArchiveQuery& query) {
    return reader_->with([&](pg::Connection& db) { return pg_list_games_plan(db, query); });
}

std::optional<ArchivedRecord> PgStore::load_record(const std::string& table, int game) {
    const std::string shown = pg::redact(url_);
    ArchivedRecord g;
    const bool found = reader_->with([&](pg::Connection& db) {
        const pg::Result r = db.exec(
            "SELECT table_id, game, preset, ruleset, players, result, started_ms, finished_ms, seed, record, salt, "
            "rule_set FROM archive WHERE table_id = $1 AND game = $2",
            pg::Params().text(table).number(game));
        if (r.rows() == 0) return false;
        g.summary.table = r.text(0, 0);
        g.summary.game = static_cast<int>(r.number(0, 1));
        g.summary.preset = r.text(0, 2);
        g.summary.ruleset = r.text(0, 3);
        g.summary.players = r.text(0, 4);
        g.summary.result = r.text(0, 5);
        g.summary.started = r.number(0, 6);
        g.summary.finished = r.number(0, 7);
        g.seed = static_cast<std::uint64_t>(r.number(0, 8));
        if (!r.null(0, 10)) g.salt = r.text(0, 10);
        if (!r.null(0, 11)) g.summary.rule_set = r.text(0, 11);
        if (r.null(0, 9)) {
            spdlog::error("database {}: table {} game {} is over but has no record", shown, table, game);
            return false;
        }
        g.record = r.bytes(0, 9);
        return true;
    });
    if (!found) return std::nullopt;
    return g;
}

std::optional<ArchivedGame> PgStore::load_game(const std::string& table, int game) {
    auto stored = load_record(table, game);
    if (!stored) return std::nullopt;
    auto rendered = render_record(stored->record, stored->summary.ruleset, stored->seed, game);
    if (!rendered) {
        spdlog::error("database {}: table {} game {}: {}", pg::redact(url_), table, game, rendered.error());
        return std::nullopt;
    }
    return ArchivedGame{std::move(stored->summary), stored->seed, std::move(stored->salt), std::move(rendered->actions),
                        std::move(rendered->events)};
}

LeaderboardPage PgStore::leaderboard(const LeaderboardQuery& query) {
    return reader_->with([&](pg::Connection& db) { return pg_leaderboard(db, query); });
}

std::optional<PlayerRatings> PgStore::player_ratings(const std::string& player) {
    return reader_->with([&](pg::Connection& db) { return pg_player_ratings(db, player); });
}

std::vector<ArchivedGameSummary> PgStore::oldest_games(Millis before, int limit) {
    return reader_->with([&](pg::Connection& db) { return pg_oldest_games(db, before, limit); });
}

Outcome<std::unique_ptr<Store::RetirementHold>, std::string> PgStore::hold_retirement() {
    // A session's advisory lock, on a connection of the hold's own: it ends with the connection,
    // whatever ends the process.
    struct Hold final : RetirementHold {
        explicit Hold(const std::string& url) : conn(url) {}
        pg::Connection conn;
    };
    try {
        auto hold = std::make_unique<Hold>(url_);
        if (!hold->conn.exec("SELECT pg_try_advisory_lock($1)", pg::Params().number(kRetirementLock)).boolean(0, 0))
            return std::unique_ptr<RetirementHold>();  // this node or another is retiring
        return std::unique_ptr<RetirementHold>(std::move(hold));
    } catch (const pg::Error& e) {
        return "cannot hold the retirement lock: " + pg::scrub(e.what(), url_);
    }
}

std::vector<PresetRating> PgStore::retired_ratings() {
    return reader_->with([&](pg::Connection& db) { return pg_retired_ratings(db); });
}

}  // namespace sparts::storage
