#include "storage/sqlite/sqlite_store.hpp"
#include "protocol/overloaded.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include <SQLiteCpp/SQLiteCpp.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include "storage/game_log.hpp"
#include "storage/journal.hpp"
#include "storage/legacy_events.hpp"
#include "storage/sqlite/schema.hpp"
#include "storage/sqlite/sqlite_archive.hpp"
#include "storage/sqlite/sqlite_backup.hpp"
#include "storage/sqlite/sqlite_ratings.hpp"

namespace sparts::storage {

namespace {

std::int64_t as_int(std::uint64_t v) { return static_cast<std::int64_t>(v); }

// What went wrong opening the file, in the operator's words.
std::string explain(const SQLite::Exception& e, const std::string& path) {
    switch (e.getErrorCode()) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return "database " + path + " is locked: is another sparts-server using it? (" + e.what() + ")";
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB:
            return "database " + path + " is corrupt or not a SQLite database (" + e.what() + ")";
        case SQLITE_READONLY:
            return "database " + path + " is read-only: the server needs to write it, and its folder for the -wal and "
                   "-shm files beside it (" + e.what() + ")";
        case SQLITE_CANTOPEN:
            return "cannot open database " + path + ": check the path and its directory's permissions (" + e.what() + ")";
        case SQLITE_FULL:
            return "the disk holding " + path + " is full (" + e.what() + ")";
        case SQLITE_IOERR:
            // What a write past the end of a full disk or a file size limit gives, as often as SQLITE_FULL.
            return "database " + path + ": cannot write: is its disk full or failing? (" + e.what() + ")";
        default:
            return "database " + path + ": " + e.what();
    }
}

}  // namespace

namespace {

// What the writer knows of each open table, in step with the journal: the game in
// progress and its log so far (a few bytes an action, folded into the game's record
// when it ends), and which journal row holds the table's latest event (a restart
// numbers the table's next event from it).
struct TableLog {
    int game = 0;
    bool playing = false;  // game `game` is in progress
    std::int64_t last_row = 0;
    std::uint64_t rows = 0;  // journal rows of the game in progress
    std::optional<GameLogEncoder> log;
};

}  // namespace

// The writer's connection, its prepared statements and what it knows of the open
// tables; used on the writer thread only (and at open, before that thread starts).
class SqliteStore::Writer {
public:
    Writer(SQLite::Database db, const SqliteOptions& options)
        : db_(std::move(db)),
          options_(options),
          put_player_(db_, "INSERT INTO players (id, token_hash, name, created_ms) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (id) DO UPDATE SET name = excluded.name"),
          open_table_(db_, "INSERT INTO tables (id, number, ruleset, preset, seats, private, invite, turn_seconds, creator, "
                           "created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
          close_table_(db_, "UPDATE tables SET closed_ms = ?, close_reason = ? WHERE id = ?"),
          put_seat_(db_, "INSERT INTO seats (table_id, seat, player, name, bot, level) VALUES (?, ?, ?, ?, ?, ?) "
                         "ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player, name = excluded.name, "
                         "bot = excluded.bot, level = excluded.level"),
          start_game_(db_, "INSERT OR REPLACE INTO games_in_progress (table_id, game, seed, ruleset, preset, players, "
                           "started_ms, salt) VALUES (?, ?, ?, ?, json_extract(?, '$.preset'), ?, ?, ?)"),
          journal_(db_),
          // A game archived already (a step written twice) is left as it was: OR IGNORE.
          finish_game_(db_, "INSERT OR IGNORE INTO archive (table_id, game, preset, finished_ms, started_ms, seed, salt, "
                            "ruleset, players, result, rule_set) SELECT table_id, game, preset, ?, started_ms, seed, salt, "
                            "ruleset, players, ?, ? FROM games_in_progress WHERE table_id = ? AND game = ?"),
          end_game_(db_, "DELETE FROM games_in_progress WHERE table_id = ?"),
          archive_game_(db_, "INSERT OR IGNORE INTO archive (table_id, game, preset, finished_ms, started_ms, seed, salt, "
                             "ruleset, players, result, rule_set) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
          record_part_(db_, "INSERT OR REPLACE INTO archive_records (id, part, bytes) VALUES (?, ?, ?)"),
          // A game's players numbered (schema version 12), those new to the archive first.
          number_players_(db_, "INSERT OR IGNORE INTO player_numbers (player) "
                               "SELECT DISTINCT json_extract(s.value, '$.player') FROM archive a, json_each(a.players) s "
                               "WHERE a.id = ? AND json_extract(s.value, '$.player') IS NOT NULL"),
          archive_players_(db_, "INSERT OR IGNORE INTO archive_players (number, preset, finished_ms, id) "
                                "SELECT DISTINCT n.number, a.preset, a.finished_ms, a.id "
                                "FROM archive a, json_each(a.players) s "
                                "JOIN player_numbers n ON n.player = json_extract(s.value, '$.player') WHERE a.id = ?"),
          // A rule set's game is filed under its board too (records.hpp, rule_set_board).
          archive_rule_set_players_(db_, "INSERT OR IGNORE INTO archive_players (number, preset, finished_ms, id) "
                                         "SELECT DISTINCT n.number, 'set:' || a.rule_set, a.finished_ms, a.id "
                                         "FROM archive a, json_each(a.players) s "
                                         "JOIN player_numbers n ON n.player = json_extract(s.value, '$.player') "
                                         "WHERE a.id = ? AND a.rule_set IS NOT NULL"),
          count_rule_set_game_(db_, "INSERT INTO rule_set_games (name, games) VALUES (?, 1) "
                                    "ON CONFLICT (name) DO UPDATE SET games = games + 1"),
          ratings_(db_) {}

    // Everything in one transaction, or nothing.
    void commit(const std::deque<Pending>& group) {
        SQLite::Transaction tx(db_, SQLite::TransactionBehavior::IMMEDIATE);
        for (const Pending& p : group)
            for (const Write& w : p.batch) write(w);
        tx.commit();
    }

    // Reads back what the writer knows from the database: at open, and after a
    // failed transaction (its rollback undid the changes on disk, not in memory).
    // Returns what each open table's restart needs.
    std::unordered_map<std::string, Recovered> reload() {
        tables_.clear();
        live_rows_ = 0;
        journal_rows_ = 0;
        head_ = 0;
        std::unordered_map<std::string, Recovered> recovered;
        SQLite::Statement open(db_, "SELECT t.id, COALESCE(g.game, (SELECT MAX(game) FROM archive WHERE table_id = t.id), 0), "
                                    "g.game IS NOT NULL FROM tables t LEFT JOIN games_in_progress g ON g.table_id = t.id "
                                    "WHERE t.closed_ms IS NULL");
        while (open.executeStep()) {
            TableLog& t = tables_[open.getColumn(0).getString()];
            t.game = open.getColumn(1).getInt();
            t.playing = open.getColumn(2).getInt() != 0;
            recovered[open.getColumn(0).getString()];
        }
        std::unordered_map<std::string, std::vector<GameLogEntry>> games;
        SQLite::Statement rows(db_, std::string("SELECT ") + kJournalColumns + " FROM journal ORDER BY id");
        while (rows.executeStep()) {
            JournalRow r = journal_row(rows);
            if (journal_rows_++ == 0) head_ = r.id;
            auto it = tables_.find(r.table);
            if (it == tables_.end()) continue;  // a closed table's: removed by the next cleaning
            Recovered& back = recovered[r.table];
            const std::uint64_t last = r.entry.seq + r.entry.events - 1;
            if (last >= back.last_seq) {
                back.last_seq = last;
                back.last_at = r.entry.at;
                it->second.last_row = r.id;
            }
            if (it->second.playing && r.game == it->second.game) games[r.table].push_back(std::move(r.entry));
        }
        for (auto& [table, entries] : games) {
            // Rows moved to the tail by a cleaning are out of order: seq gives it back.
            std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
            TableLog& t = tables_[table];
            t.log.emplace();
            for (const GameLogEntry& e : entries) {
                t.log->add(e);
                if (e.cause) recovered[table].actions.push_back({e.cause->seat, action_text(*e.cause), e.seq});
            }
            t.rows = entries.size();
            live_rows_ += t.rows;
        }
        for (auto& [id, t] : tables_)
            if (t.playing && !t.log) t.log.emplace();
        return recovered;
    }

    // Rows that a restart or a record still needs: each open table's game in
    // progress, and the row of its latest event.
    std::uint64_t live_rows() const { return live_rows_ + tables_.size(); }
    std::uint64_t journal_rows() const { return journal_rows_; }

    bool cleaning_due() const {
        return journal_rows_ > static_cast<std::uint64_t>(options_.journal_clean_rows) && journal_rows_ > 2 * live_rows();
    }

    // One step of cleaning the journal from its head: the oldest rows go, those still
    // needed are appended again at the tail. Returns the rows removed.
    std::uint64_t clean() {
        SQLite::Transaction tx(db_, SQLite::TransactionBehavior::IMMEDIATE);
        // Never past the tail: the rows appended again below must stay out of the cut.
        const std::int64_t tail = db_.execAndGet("SELECT COALESCE(MAX(id), 0) FROM journal").getInt64();
        const std::int64_t end = std::min(head_ + options_.journal_clean_step, tail + 1);
        std::vector<JournalRow> keep;
        std::uint64_t seen = 0;
        {
            SQLite::Statement rows(db_, std::string("SELECT ") + kJournalColumns + " FROM journal WHERE id < ? ORDER BY id");
            rows.bind(1, end);
            while (rows.executeStep()) {
                ++seen;
                JournalRow r = journal_row(rows);
                auto it = tables_.find(r.table);
                if (it != tables_.end() &&
                    (it->second.last_row == r.id || (it->second.playing && r.game == it->second.game)))
                    keep.push_back(std::move(r));
            }
        }
        for (const JournalRow& r : keep) {
            const std::int64_t id = journal_.insert(r.table, r.game, r.entry);
            TableLog& t = tables_[r.table];
            if (t.last_row == r.id) t.last_row = id;
        }
        SQLite::Statement cut(db_, "DELETE FROM journal WHERE id < ?");
        cut.bind(1, end);
        cut.exec();
        tx.commit();
        head_ = end;
        journal_rows_ = journal_rows_ - seen + keep.size();
        return seen - keep.size();
    }

    SQLite::Database& db() { return db_; }

private:
    void journal(const std::string& table, int game, const GameLogEntry& e) {
        const std::int64_t id = journal_.insert(table, game, e);
        if (journal_rows_++ == 0) head_ = id;
        TableLog& t = tables_[table];
        t.last_row = id;
        if (t.playing && t.game == game && t.log) {
            t.log->add(e);
            ++t.rows;
            ++live_rows_;
        }
    }

    void end_game(TableLog& t) {
        live_rows_ -= t.rows;
        t.rows = 0;
        t.playing = false;
        t.log.reset();
    }

    void write(const Write& w) {
        std::visit(overloaded{
                       [&](const PutPlayer& p) {
                           put_player_.bind(1, p.id);
                           put_player_.bind(2, p.token_hash);
                           put_player_.bind(3, p.name);
                           put_player_.bind(4, p.at);
                           run_write(put_player_);
                       },
                       [&](const OpenTable& t) {
                           open_table_.bind(1, t.id);
                           open_table_.bind(2, t.number);
                           open_table_.bind(3, t.ruleset);
                           open_table_.bind(4, t.preset);
                           open_table_.bind(5, t.seats);
                           open_table_.bind(6, t.is_private ? 1 : 0);
                           open_table_.bind(7, t.invite);
                           open_table_.bind(8, t.turn_seconds);
                           open_table_.bind(9, t.creator);
                           open_table_.bind(10, t.at);
                           run_write(open_table_);
                           tables_[t.id];
                       },
                       [&](const CloseTable& c) {
                           close_table_.bind(1, c.at);
                           close_table_.bind(2, c.reason);
                           close_table_.bind(3, c.table);
                           run_write(close_table_);
                           end_game_.bind(1, c.table);  // a game left unfinished is not archived
                           run_write(end_game_);
                           if (auto it = tables_.find(c.table); it != tables_.end()) {
                               end_game(it->second);
                               tables_.erase(it);
                           }
                       },
                       [&](const PutSeat& s) {
                           put_seat_.bind(1, s.table);
                           put_seat_.bind(2, s.seat);
                           put_seat_.bind(3, s.player);
                           put_seat_.bind(4, s.name);
                           put_seat_.bind(5, s.bot ? 1 : 0);
                           put_seat_.bind(6, s.level);
                           run_write(put_seat_);
                       },
                       [&](const StartGame& g) {
                           start_game_.bind(1, g.table);
                           start_game_.bind(2, g.game);
                           start_game_.bind(3, as_int(g.seed));
                           start_game_.bind(4, g.ruleset);
                           start_game_.bind(5, g.ruleset);
                           start_game_.bind(6, g.players);
                           start_game_.bind(7, g.at);
                           if (g.salt.empty())
                               start_game_.bind(8);
                           else
                               start_game_.bind(8, g.salt);
                           run_write(start_game_);
                           TableLog& t = tables_[g.table];
                           end_game(t);
                           t.game = g.game;
                           t.playing = true;
                           t.log.emplace();
                       },
                       [&](const EngineEvents& e) {
                           journal(e.table, e.game, GameLogEntry::engine_events(e.seq, e.at, e.count, e.cause));
                       },
                       [&](const AppendEvent& e) {
                           journal(e.table, e.game, GameLogEntry::table(e.seq, e.at, e.type, e.payload));
                       },
                       [&](const FinishGame& f) {
                           TableLog& t = tables_[f.table];
                           finish_game_.bind(1, f.at);
                           finish_game_.bind(2, f.result);
                           if (f.rule_set.empty())
                               finish_game_.bind(3);
                           else
                               finish_game_.bind(3, f.rule_set);
                           finish_game_.bind(4, f.table);
                           finish_game_.bind(5, f.game);
                           run_write(finish_game_);
                           if (db_.getChanges() == 1) {
                               const std::int64_t id = db_.getLastInsertRowid();
                               if (t.playing && t.game == f.game && t.log)
                                   put_record(record_part_, id, t.log->bytes());
                               else
                                   spdlog::error("database: table {} game {} ends, but its log is not in progress: it "
                                                 "is kept without a record",
                                                 f.table, f.game);
                               file_game(id, f.rule_set);
                           } else {
                               spdlog::error("database: table {} game {} ends, but it is not in progress (or archived "
                                             "already): nothing is archived",
                                             f.table, f.game);
                           }
                           if (t.game == f.game) {
                               end_game_.bind(1, f.table);
                               run_write(end_game_);
                               end_game(t);
                           }
                           if (!f.rated.empty()) ratings_.finish(f);
                           if (!f.webhook.empty()) {
                               SQLite::Statement q(db_, "INSERT INTO webhook_outbox (table_id, game, body) VALUES (?, ?, ?) "
                                                        "ON CONFLICT (table_id, game) DO NOTHING");
                               q.bind(1, f.table);
                               q.bind(2, f.game);
                               q.bind(3, f.webhook);
                               run_write(q);
                           }
                       },
                       [&](const ReplaceRatings& r) { ratings_.replace(r.rows); },
                       // Prepared each time: bans are a rare operator's act, not a table's step.
                       [&](const PutBan& b) {
                           SQLite::Statement q(db_, "INSERT INTO bans (player, reason, at_ms) VALUES (?, ?, ?) "
                                                    "ON CONFLICT (player) DO UPDATE SET reason = excluded.reason, "
                                                    "at_ms = excluded.at_ms");
                           q.bind(1, b.player);
                           q.bind(2, b.reason);
                           q.bind(3, b.at);
                           run_write(q);
                       },
                       [&](const RemoveBan& b) {
                           SQLite::Statement q(db_, "DELETE FROM bans WHERE player = ?");
                           q.bind(1, b.player);
                           run_write(q);
                       },
                       [&](const WebhookDone& d) {
                           SQLite::Statement q(db_, "DELETE FROM webhook_outbox WHERE table_id = ? AND game = ?");
                           q.bind(1, d.table);
                           q.bind(2, d.game);
                           run_write(q);
                       },
                       [&](const ArchiveGame& a) {
                           const ArchivedGameSummary& g = a.summary;
                           int i = 0;
                           archive_game_.bind(++i, g.table);
                           archive_game_.bind(++i, g.game);
                           archive_game_.bind(++i, g.preset);
                           archive_game_.bind(++i, g.finished);
                           archive_game_.bind(++i, g.started);
                           archive_game_.bind(++i, as_int(a.seed));
                           if (a.salt.empty())
                               archive_game_.bind(++i);
                           else
                               archive_game_.bind(++i, a.salt);
                           archive_game_.bind(++i, g.ruleset);
                           archive_game_.bind(++i, g.players);
                           archive_game_.bind(++i, g.result);
                           if (g.rule_set.empty())
                               archive_game_.bind(++i);
                           else
                               archive_game_.bind(++i, g.rule_set);
                           run_write(archive_game_);
                           if (db_.getChanges() == 1) {
                               const std::int64_t id = db_.getLastInsertRowid();
                               put_record(record_part_, id, a.record);
                               file_game(id, g.rule_set);
                           }
                       },
                       // Prepared each time: retention runs in a few large steps, not a table's.
                       [&](const RetireGames& r) {
                           // A player's number stays when the player's last game goes: a few bytes a
                           // player, and a player who comes back is filed under it again.
                           SQLite::Statement players(
                               db_, "DELETE FROM archive_players WHERE (number, preset, finished_ms, id) IN ("
                                    "SELECT n.number, a.preset, a.finished_ms, a.id FROM archive a, json_each(a.players) s "
                                    "JOIN player_numbers n ON n.player = json_extract(s.value, '$.player') "
                                    "WHERE a.table_id = ? AND a.game = ?)");
                           SQLite::Statement set_players(
                               db_, "DELETE FROM archive_players WHERE (number, preset, finished_ms, id) IN ("
                                    "SELECT n.number, 'set:' || a.rule_set, a.finished_ms, a.id "
                                    "FROM archive a, json_each(a.players) s "
                                    "JOIN player_numbers n ON n.player = json_extract(s.value, '$.player') "
                                    "WHERE a.table_id = ? AND a.game = ? AND a.rule_set IS NOT NULL)");
                           SQLite::Statement record(db_, "DELETE FROM archive_records WHERE id = "
                                                         "(SELECT id FROM archive WHERE table_id = ? AND game = ?)");
                           SQLite::Statement game(db_, "DELETE FROM archive WHERE table_id = ? AND game = ?");
                           for (const auto& [table, number] : r.games) {
                               for (SQLite::Statement* q : {&players, &set_players, &record, &game}) {
                                   q->bind(1, table);
                                   q->bind(2, number);
                                   run_write(*q);
                               }
                           }
                           ratings_.retire(r.ratings);
                       },
                   },
                   w);
    }

    // A game just archived (its row `id`): filed under its players, and under its rule set's board
    // and count when it has one.
    void file_game(std::int64_t id, const std::string& rule_set) {
        number_players_.bind(1, id);
        run_write(number_players_);
        archive_players_.bind(1, id);
        run_write(archive_players_);
        if (rule_set.empty()) return;
        archive_rule_set_players_.bind(1, id);
        run_write(archive_rule_set_players_);
        count_rule_set_game_.bind(1, rule_set);
        run_write(count_rule_set_game_);
    }

    SQLite::Database db_;
    SqliteOptions options_;
    SQLite::Statement put_player_, open_table_, close_table_, put_seat_, start_game_;
    JournalInsert journal_;
    SQLite::Statement finish_game_, end_game_, archive_game_, record_part_, number_players_, archive_players_, archive_rule_set_players_,
        count_rule_set_game_;
    SqliteRatings ratings_;
    std::unordered_map<std::string, TableLog> tables_;
    std::uint64_t live_rows_ = 0;
    std::uint64_t journal_rows_ = 0;
    std::int64_t head_ = 0;
};

SqliteStore::SqliteStore(std::string path, SqliteOptions options)
    : path_(std::move(path)), options_(options), queue_(options.commit_interval, options.commit_batches) {}

Outcome<std::unique_ptr<SqliteStore>, std::string> SqliteStore::open(const std::string& path, SqliteOptions options) {
    std::unique_ptr<SqliteStore> store(new SqliteStore(path, options));
    // One server per file: a second one is refused at start rather than
    // interleaving its writes. The lock is on a file beside the database and
    // goes with the process, however it ends.
    store->lock_fd_ = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (store->lock_fd_ < 0)
        return "cannot open " + path + ".lock: " + std::strerror(errno) + " (check the directory's permissions)";
    if (::flock(store->lock_fd_, LOCK_EX | LOCK_NB) != 0)
        return "database " + path + " is locked: another sparts-server is using it";
    try {
        SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.setBusyTimeout(2000);
        // A file the server may not write is opened read-only, silently: every commit would then fail.
        if (sqlite3_db_readonly(db.getHandle(), "main") == 1)
            return "database " + path + " is read-only: the server needs to write it (check the file's permissions)";
        // Corruption shows here rather than in the middle of a game: a file of up to
        // check_at_open_bytes is checked before the server starts. quick_check reads every page
        // (1.5 s a GB here): a larger file is checked once the server is up (check_integrity), its
        // result logged and in the metrics. A file that is not a database is refused either way.
        std::error_code size_error;
        const auto bytes = std::filesystem::file_size(path, size_error);
        store->check_later_ = !size_error && bytes > options.check_at_open_bytes;
        if (!store->check_later_) {
            SQLite::Statement check(db, "PRAGMA quick_check");
            if (check.executeStep() && check.getColumn(0).getString() != "ok")
                return "database " + path + " is corrupt: " + check.getColumn(0).getString();
            store->stats_.integrity = 1;
        }
        const int version = db.execAndGet("PRAGMA user_version").getInt();
        if (version > latest_schema_version())
            return "database " + path + " has schema version " + std::to_string(version) +
                   ", newer than this server's " + std::to_string(latest_schema_version()) +
                   ": run a newer sparts-server, or point --database at another file";
        db.exec("PRAGMA journal_mode = WAL");
        if (db.execAndGet("PRAGMA journal_mode").getString() != "wal")
            return "database " + path + ": cannot switch to WAL mode (is the file on a network file system?)";
        db.exec(options.sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
        db.exec("PRAGMA wal_autocheckpoint = 0");  // the checkpointer thread does it
        db.exec("PRAGMA journal_size_limit = " + std::to_string(options.wal_limit_bytes));  // a restarted log is cut back
        db.exec("PRAGMA foreign_keys = ON");
        // The event and action indexes take inserts from every open table at once:
        // a larger page cache keeps their hot pages in memory instead of re-reading them.
        db.exec("PRAGMA cache_size = -65536");
        bool vacuum = false;
        for (int v = version; v < latest_schema_version(); ++v) {
            SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
            db.exec(migrations()[static_cast<std::size_t>(v)]);
            if (v + 1 == 10) vacuum = true;  // `games`' pages, free now, go back
            if (v + 1 == 5) {
                const LegacyFold fold = fold_legacy_events(db);
                if (fold.events > 0)
                    spdlog::info("database {}: {} events folded into {} game records ({} kept event by event) and {} "
                             "journal rows for the open tables",
                             path, fold.events, fold.games, fold.verbatim_games, fold.journal_rows);
                vacuum = vacuum || fold.events > 0;
            }
            db.exec("PRAGMA user_version = " + std::to_string(v + 1));
            tx.commit();
            spdlog::info("database {}: schema migrated to version {}", path, v + 1);
        }
        // The pages freed by a migration (the events folded into records at 5, `games` moved into
        // the archive at 10) are given back to the file system.
        if (vacuum) db.exec("VACUUM");
        store->writer_ = std::make_unique<Writer>(std::move(db), options);
        store->recovered_ = store->writer_->reload();
    } catch (const SQLite::Exception& e) {
        return explain(e, path);
    }
    store->thread_ = std::thread([s = store.get()] { s->run_writer(); });
    store->checkpointer_ = std::thread([s = store.get()] { s->run_checkpointer(); });
    if (store->check_later_) store->checker_ = std::thread([s = store.get()] { s->check_integrity(); });
    return store;
}

SqliteStore::~SqliteStore() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    queue_.stop();  // a commit that fails from here on is not retried
    checkpoint_wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (checkpointer_.joinable()) checkpointer_.join();
    if (checker_.joinable()) {
        {
            std::lock_guard lock(mutex_);
            if (checking_) sqlite3_interrupt(checking_);  // a check under way stops at the next page
        }
        checker_.join();
    }
    writer_.reset();
    reader_.reset();
    if (lock_fd_ >= 0) ::close(lock_fd_);
}

void SqliteStore::submit(Batch batch, std::function<void()> done) { queue_.submit({std::move(batch), std::move(done), {}}); }

bool SqliteStore::flush(std::optional<std::chrono::milliseconds> limit) { return queue_.flush(limit); }

void SqliteStore::run_writer() {
    std::deque<Pending> group;
    for (;;) {
        // An idle writer cleans the journal too, once a second: the rows of the games that ended last.
        if (!queue_.next(group, CommitQueue::Clock::now() + std::chrono::seconds(1))) return;  // stopped, all written
        if (group.empty()) {
            clean_journal();
            continue;
        }
        const bool written = queue_.write_group(
            group, path_, std::chrono::milliseconds(options_.retry_ms),
            {[&] {
                 // Between two commits the checkpointer may hold the gate for a log restart.
                 std::lock_guard gate(commit_gate_);
                 // A failed transaction was rolled back on disk, not in what the writer
                 // keeps in memory of the open tables: that is read back before the retry.
                 if (writer_dirty_) {
                     writer_->reload();
                     writer_dirty_ = false;
                 }
                 writer_->commit(group);
                 return true;
             },
             [&](const std::exception& e) {
                 const auto* sqlite = dynamic_cast<const SQLite::Exception*>(&e);
                 return sqlite ? explain(*sqlite, path_) : std::string(e.what());
             },
             [&] { writer_dirty_ = true; }, stats_, mutex_});
        if (!written) return;
        clean_journal();
    }
}

void SqliteStore::clean_journal() {
    // Tables waiting for a commit come first: the cleaning goes a step at a time, and
    // only while nothing is queued.
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            stats_.journal_rows = writer_->journal_rows();
            stats_.journal_live_rows = writer_->live_rows();
        }
        if (!queue_.idle()) return;
        try {
            std::lock_guard gate(commit_gate_);
            if (writer_dirty_) {
                writer_->reload();
                writer_dirty_ = false;
            }
            if (!writer_->cleaning_due()) return;
            const std::uint64_t removed = writer_->clean();
            std::lock_guard lock(mutex_);
            stats_.journal_rows_removed += removed;
            ++stats_.journal_cleanings;
        } catch (const SQLite::Exception& e) {
            spdlog::error("database {}: cleaning the journal failed, to be tried again: {}", path_, explain(e, path_));
            writer_dirty_ = true;  // read back before the next commit or cleaning
            return;
        }
    }
}

void SqliteStore::run_checkpointer() {
    std::unique_ptr<SQLite::Database> db;
    try {
        db = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READWRITE);
        db->setBusyTimeout(1000);
    } catch (const SQLite::Exception& e) {
        spdlog::error("database {}: no checkpoint connection, the WAL will grow: {}", path_, explain(e, path_));
        return;
    }
    std::unique_lock lock(mutex_);
    while (!checkpoint_wake_.wait_for(lock, std::chrono::milliseconds(options_.checkpoint_ms), [&] { return stopping_; })) {
        lock.unlock();
        checkpoint(db->getHandle());
        lock.lock();
    }
}

void SqliteStore::check_integrity() {
    const auto start = std::chrono::steady_clock::now();
    // The connection the destructor may interrupt, forgotten (under the mutex) before it closes.
    struct Forget {
        SqliteStore& store;
        ~Forget() {
            std::lock_guard lock(store.mutex_);
            store.checking_ = nullptr;
        }
    };
    try {
        SQLite::Database db(path_, SQLite::OPEN_READONLY);
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return;
            checking_ = db.getHandle();
        }
        std::string found;
        {
            const Forget forget{*this};
            SQLite::Statement check(db, "PRAGMA quick_check");
            found = check.executeStep() ? check.getColumn(0).getString() : "no answer";
        }
        std::lock_guard lock(mutex_);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (found == "ok") {
            stats_.integrity = 1;
            spdlog::info("database {}: integrity check passed ({:.1f} s)", path_, secs);
        } else {
            stats_.integrity = 0;
            spdlog::error("database {} is corrupt: {} (stop the server and restore a backup: docs/OPERATING.md, "
                          "\"Backups\")",
                          path_, found);
        }
    } catch (const SQLite::Exception& e) {
        std::lock_guard lock(mutex_);
        if (stopping_) return;  // interrupted
        stats_.integrity = 0;
        spdlog::error("database {}: the integrity check failed: {}", path_, explain(e, path_));
    }
}

void SqliteStore::checkpoint(sqlite3* db) {
    // A connection that has never read has not opened the WAL: SQLite 3.40's
    // checkpoint on it copies nothing, reports success and a log of -1 pages
    // (so the log was never restarted and grew to gigabytes while the server
    // ran). A read first opens it, and keeps it open for the next ones.
    sqlite3_exec(db, "SELECT 1 FROM sqlite_schema LIMIT 1", nullptr, nullptr, nullptr);
    // A passive checkpoint copies what it can without stopping the writer. But
    // while the writer commits without a pause, a passive checkpoint never
    // catches up with the end of the log, the log is never restarted, and it
    // grows without bound (a gigabyte in 15 s of load, seen here). Once the log
    // is over wal_restart_pages, the checkpoint waits for a gap between
    // commits, copies the little the passive pass left, and has the next
    // commit start the log from its beginning (journal_size_limit then cuts
    // the file back).
    int log = 0;
    int copied = 0;
    int rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
    const bool restart = rc == SQLITE_OK && log > options_.wal_restart_pages;
    if (restart) {
        // The writer commits back to back under load: a RESTART that merely
        // waits for a gap between commits was refused as busy almost every
        // time, and the log grew anyway. Holding the commit gate makes the gap:
        // the writer waits for the few pages the passive pass left.
        //
        // But a RESTART also waits for every reader to leave the log, and a long
        // reader (a backup, the integrity check of a large file) kept it waiting
        // out the busy timeout, a second each time, while the writer waited on
        // the gate: 1,000 tables' card plays stalled for a second at a time
        // (p99 1.07 s). So it does not wait: while a reader holds the log, the
        // RESTART is refused as busy and the log grows until the reader is done.
        std::lock_guard gate(commit_gate_);
        sqlite3_busy_timeout(db, 0);
        rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_RESTART, &log, &copied);
        sqlite3_busy_timeout(db, 1000);
    }
    if (rc != SQLITE_OK && rc != SQLITE_BUSY)
        spdlog::warn("database {}: checkpoint: {}", path_, sqlite3_errmsg(db));
    spdlog::trace("database {}: checkpoint rc {} log {} copied {} restart {}", path_, rc, log, copied, restart);
    std::lock_guard lock(mutex_);
    ++stats_.checkpoints;
    if (restart && rc == SQLITE_OK) ++stats_.log_restarts;
    if (rc == SQLITE_OK) {
        stats_.last_checkpoint_log = log;
        stats_.last_checkpoint_pages = copied;
    }
}

Store::Stats SqliteStore::stats() const {
    Stats out;
    {
        std::lock_guard lock(mutex_);
        out = stats_;
    }
    std::error_code ec;
    const auto wal = std::filesystem::file_size(path_ + "-wal", ec);
    out.wal_bytes = ec ? 0 : static_cast<std::int64_t>(wal);
    const auto main = std::filesystem::file_size(path_, ec);
    out.database_bytes = ec ? 0 : static_cast<std::int64_t>(main);
    return out;
}

// --- reads ----------------------------------------------------------------------
// Reads at start happen before any write is queued, on the writer's
// connection; archive reads go through a connection of their own, which WAL
// lets read while the writer writes.

Outcome<BackupDone, std::string> SqliteStore::backup(const std::string& to) { return backup_sqlite(path_, to); }

std::unique_ptr<SQLite::Database> SqliteStore::open_reader() {
    auto db = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READONLY);
    db->setBusyTimeout(2000);
    return db;
}

std::vector<StoredPlayer> SqliteStore::players() {
    std::lock_guard lock(reader_mutex_);
    std::lock_guard gate(commit_gate_);  // the writer's connection: its thread may be cleaning already
    std::vector<StoredPlayer> out;
    SQLite::Statement q(writer_->db(),
                        "SELECT id, token_hash, name FROM players WHERE id IN ("
                        "SELECT s.player FROM seats s JOIN tables t ON t.id = s.table_id "
                        "WHERE t.closed_ms IS NULL AND s.player <> '' "
                        "UNION SELECT creator FROM tables WHERE closed_ms IS NULL)");
    while (q.executeStep()) out.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getString()});
    return out;
}

std::optional<StoredPlayer> SqliteStore::find_player(const std::string& token_hash) {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    SQLite::Statement q(*reader_, "SELECT id, token_hash, name FROM players WHERE token_hash = ?");
    q.bind(1, token_hash);
    if (!q.executeStep()) return std::nullopt;
    return StoredPlayer{q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getString()};
}

std::uint64_t SqliteStore::last_table_number() {
    std::lock_guard lock(reader_mutex_);
    std::lock_guard gate(commit_gate_);  // the writer's connection: its thread may be cleaning already
    return static_cast<std::uint64_t>(writer_->db().execAndGet("SELECT COALESCE(MAX(number), 0) FROM tables").getInt64());
}

std::vector<StoredBan> SqliteStore::bans() {
    std::lock_guard lock(reader_mutex_);
    std::lock_guard gate(commit_gate_);  // the writer's connection: its thread may be cleaning already
    std::vector<StoredBan> out;
    SQLite::Statement q(writer_->db(), "SELECT player, reason, at_ms FROM bans ORDER BY player");
    while (q.executeStep()) out.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getInt64()});
    return out;
}

std::vector<PendingWebhook> SqliteStore::pending_webhooks(std::size_t limit) {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    SQLite::Statement q(*reader_, "SELECT table_id, game, body FROM webhook_outbox ORDER BY rowid LIMIT ?");
    q.bind(1, static_cast<std::int64_t>(limit));
    std::vector<PendingWebhook> out;
    while (q.executeStep()) out.push_back({q.getColumn(0).getString(), q.getColumn(1).getInt(), q.getColumn(2).getString()});
    return out;
}

std::vector<OpenTableState> SqliteStore::open_tables() {
    std::lock_guard lock(reader_mutex_);
    std::lock_guard gate(commit_gate_);  // the writer's connection: its thread may be cleaning already
    SQLite::Database& db = writer_->db();
    std::vector<OpenTableState> out;
    SQLite::Statement tables(db,
                             "SELECT id, number, ruleset, preset, seats, private, invite, turn_seconds, creator, created_ms "
                             "FROM tables WHERE closed_ms IS NULL ORDER BY number");
    SQLite::Statement seats(db, "SELECT seat, player, name, bot, level FROM seats WHERE table_id = ?");
    // The latest game: the one in progress, else the last the table finished.
    SQLite::Statement playing(db, "SELECT game, seed, 0, started_ms, 0, salt, players FROM games_in_progress "
                                  "WHERE table_id = ?");
    SQLite::Statement finished(db, "SELECT game, seed, 1, started_ms, id, salt, players FROM archive "
                                   "WHERE table_id = ? ORDER BY game DESC LIMIT 1");
    while (tables.executeStep()) {
        OpenTableState t;
        t.table.id = tables.getColumn(0).getString();
        t.table.number = tables.getColumn(1).getInt64();
        t.table.ruleset = tables.getColumn(2).getString();
        t.table.preset = tables.getColumn(3).getString();
        t.table.seats = tables.getColumn(4).getInt();
        t.table.is_private = tables.getColumn(5).getInt() != 0;
        t.table.invite = tables.getColumn(6).getString();
        t.table.turn_seconds = tables.getColumn(7).getInt();
        t.table.creator = tables.getColumn(8).getString();
        t.table.at = tables.getColumn(9).getInt64();
        t.seats.resize(static_cast<std::size_t>(std::max(0, t.table.seats)));
        seats.bind(1, t.table.id);
        while (seats.executeStep()) {
            const int s = seats.getColumn(0).getInt();
            if (s < 0 || s >= t.table.seats) continue;
            t.seats[static_cast<std::size_t>(s)] =
                StoredSeat{seats.getColumn(1).getString(), seats.getColumn(2).getString(), seats.getColumn(3).getInt() != 0,
                           seats.getColumn(4).getString()};
        }
        seats.reset();
        playing.bind(1, t.table.id);
        finished.bind(1, t.table.id);
        const Recovered& back = recovered_[t.table.id];
        SQLite::Statement& game = playing.executeStep() ? playing : finished;
        if (&game == &playing || game.executeStep()) {
            t.game = game.getColumn(0).getInt();
            t.seed = static_cast<std::uint64_t>(game.getColumn(1).getInt64());
            t.game_finished = game.getColumn(2).getInt() != 0;
            t.game_started = game.getColumn(3).getInt64();
            if (!game.getColumn(5).isNull()) t.salt = game.getColumn(5).getString();
            t.players = game.getColumn(6).getString();
            if (!t.game_finished) {
                t.actions = back.actions;
            } else if (const auto record = read_record(db, game.getColumn(4).getInt64()); !record) {
                spdlog::error("database {}: table {} game {} is over but has no record: it comes back dealt again", path_,
                              t.table.id, t.game);
            } else if (auto log = decode_game_log(*record); !log) {
                spdlog::error("database {}: table {} game {}: its record is unreadable ({}): it comes back dealt again",
                              path_, t.table.id, t.game, log.error());
            } else {
                t.actions = actions_of(*log);
            }
        }
        playing.reset();
        finished.reset();
        t.last_seq = back.last_seq;
        t.last_event_at = back.last_at;
        out.push_back(std::move(t));
    }
    recovered_.clear();  // read once, at start
    return out;
}

ArchivePage SqliteStore::list_games(const ArchiveQuery& query) {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    return sqlite_list_games(*reader_, query);
}

std::vector<ArchivedGameSummary> SqliteStore::oldest_games(Millis before, int limit) {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    return sqlite_oldest_games(*reader_, before, limit);
}

Outcome<std::unique_ptr<Store::RetirementHold>, std::string> SqliteStore::hold_retirement() {
    // A flag, not a mutex: the hold may end on the writer's thread, with the last step's commit.
    struct Hold final : RetirementHold {
        explicit Hold(std::atomic<bool>& f) : held(f) {}
        ~Hold() override { held.store(false); }
        std::atomic<bool>& held;
    };
    bool free = false;
    if (!retirement_held_.compare_exchange_strong(free, true)) return std::unique_ptr<RetirementHold>();
    return std::unique_ptr<RetirementHold>(std::make_unique<Hold>(retirement_held_));
}

std::vector<PresetRating> SqliteStore::retired_ratings() {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    return sqlite_retired_ratings(*reader_);
}

std::vector<std::string> SqliteStore::list_games_plan(const ArchiveQuery& query) {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    return sqlite_list_games_plan(*reader_, query);
}

std::optional<ArchivedRecord> SqliteStore::load_record(const std::string& table, int game) {
    ArchivedRecord g;
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    SQLite::Statement q(*reader_,
                        "SELECT table_id, game, preset, ruleset, players, result, started_ms, finished_ms, seed, id, salt, "
                        "rule_set FROM archive WHERE table_id = ? AND game = ?");
    q.bind(1, table);
    q.bind(2, game);
    if (!q.executeStep()) return std::nullopt;
    g.summary.table = q.getColumn(0).getString();
    g.summary.game = q.getColumn(1).getInt();
    g.summary.preset = q.getColumn(2).getString();
    g.summary.ruleset = q.getColumn(3).getString();
    g.summary.players = q.getColumn(4).getString();
    g.summary.result = q.getColumn(5).getString();
    g.summary.started = q.getColumn(6).getInt64();
    g.summary.finished = q.getColumn(7).getInt64();
    g.seed = static_cast<std::uint64_t>(q.getColumn(8).getInt64());
    if (!q.getColumn(10).isNull()) g.salt = q.getColumn(10).getString();
    if (!q.getColumn(11).isNull()) g.summary.rule_set = q.getColumn(11).getString();
    auto stored = read_record(*reader_, q.getColumn(9).getInt64());
    if (!stored) {
        spdlog::error("database {}: table {} game {} is over but has no record", path_, table, game);
        return std::nullopt;
    }
    g.record = std::move(*stored);
    return g;
}

std::optional<ArchivedGame> SqliteStore::load_game(const std::string& table, int game) {
    auto stored = load_record(table, game);
    if (!stored) return std::nullopt;
    // The engine renders the events again, outside the reader's lock: a few milliseconds for a long game.
    auto rendered = render_record(stored->record, stored->summary.ruleset, stored->seed, game);
    if (!rendered) {
        spdlog::error("database {}: table {} game {}: {}", path_, table, game, rendered.error());
        return std::nullopt;
    }
    return ArchivedGame{std::move(stored->summary), stored->seed, std::move(stored->salt), std::move(rendered->actions),
                        std::move(rendered->events)};
}

std::map<std::string, std::int64_t> SqliteStore::rule_set_games() {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    std::map<std::string, std::int64_t> out;
    SQLite::Statement q(*reader_, "SELECT name, games FROM rule_set_games");
    while (q.executeStep()) out[q.getColumn(0).getString()] = q.getColumn(1).getInt64();
    return out;
}

LeaderboardPage SqliteStore::leaderboard(const LeaderboardQuery& query) {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    return sqlite_leaderboard(*reader_, query);
}

std::optional<PlayerRatings> SqliteStore::player_ratings(const std::string& player) {
    std::lock_guard lock(reader_mutex_);
    if (!reader_) reader_ = open_reader();
    return sqlite_player_ratings(*reader_, player);
}

}  // namespace sparts::storage
