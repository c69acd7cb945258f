// The SQLite store: WAL mode, one writer thread with group commit, readers
// on connections of their own.
//
// The writer takes every batch queued since its last commit and commits them
// in one transaction, so that throughput grows with the number of tables
// instead of falling. Checkpoints (copying the WAL into the database, with
// its disk sync) run on a thread and connection of their own, twice a second,
// in PASSIVE mode: a commit never waits behind a disk sync. synchronous=NORMAL by default: in WAL mode a commit is
// in the operating system's hands when it returns, so a killed process loses
// nothing; `sync_full` also survives power loss, at a cost per commit.
//
// open() refuses, with a message for the operator: a file another server holds
// (an flock on "<file>.lock"), a corrupt file (quick_check), a read-only file or
// directory, and a schema newer than this server's.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include "protocol/outcome.hpp"
#include "storage/commit_queue.hpp"
#include "storage/store.hpp"

struct sqlite3;
namespace SQLite {
class Database;
}

namespace sparts::storage {

struct SqliteOptions {
    bool sync_full = false;
    int retry_ms = 1000;  // wait before retrying a failed commit
    int wal_restart_pages = 8192;  // a log longer than this is restarted (RESTART checkpoint)
    std::int64_t wal_limit_bytes = 64LL * 1024 * 1024;  // a restarted log is cut back to this (journal_size_limit)
    int checkpoint_ms = 500;       // how often the checkpointer runs
    int journal_clean_rows = 20000;  // the journal is cleaned once over this many rows and twice those still needed
    int journal_clean_step = 4096;   // rows taken from its head at a time
    // Under load, commits at most this often, unless `commit_batches` table steps are waiting.
    std::chrono::microseconds commit_interval{1000};
    int commit_batches = 256;
    // A file up to this size is checked (quick_check, which reads every page: 1.5 s a GB here)
    // before the server starts; a larger one once it is up, its result logged and in the metrics.
    std::uintmax_t check_at_open_bytes = 1ULL << 30;
};

class SqliteStore final : public Store {
public:
    static Outcome<std::unique_ptr<SqliteStore>, std::string> open(const std::string& path, SqliteOptions options = {});
    ~SqliteStore() override;

    void submit(Batch batch, std::function<void()> done) override;
    bool flush(std::optional<std::chrono::milliseconds> limit = std::nullopt) override;

    std::vector<StoredPlayer> players() override;
    std::optional<StoredPlayer> find_player(const std::string& token_hash) override;
    std::vector<OpenTableState> open_tables() override;
    std::uint64_t last_table_number() override;
    std::vector<StoredBan> bans() override;
    std::vector<PendingWebhook> pending_webhooks(std::size_t limit) override;

    ArchivePage list_games(const ArchiveQuery& query) override;
    std::vector<ArchivedGameSummary> oldest_games(Millis before, int limit) override;
    std::vector<PresetRating> retired_ratings() override;
    Outcome<std::unique_ptr<RetirementHold>, std::string> hold_retirement() override;
    // EXPLAIN QUERY PLAN of what list_games runs for `query` (sqlite_archive.hpp).
    std::vector<std::string> list_games_plan(const ArchiveQuery& query);
    std::optional<ArchivedGame> load_game(const std::string& table, int game) override;
    std::optional<ArchivedRecord> load_record(const std::string& table, int game) override;
    std::map<std::string, std::int64_t> rule_set_games() override;
    LeaderboardPage leaderboard(const LeaderboardQuery& query) override;
    std::optional<PlayerRatings> player_ratings(const std::string& player) override;

    Stats stats() const override;
    Outcome<BackupDone, std::string> backup(const std::string& to) override;

private:
    using Pending = CommitQueue::Pending;
    // What an open table's restart needs, read from the journal at open.
    struct Recovered {
        std::vector<StoredAction> actions;  // of its game in progress
        std::uint64_t last_seq = 0;
        Millis last_at = 0;
    };
    class Writer;

    SqliteStore(std::string path, SqliteOptions options);
    void run_writer();
    void run_checkpointer();
    void checkpoint(sqlite3* db);
    void check_integrity();
    void clean_journal();
    std::unique_ptr<SQLite::Database> open_reader();

    std::string path_;
    SqliteOptions options_;
    // Retention's hold (hold_retirement): this process's alone, the file being one server's.
    // Before the writer: a hold in a pending commit's callback ends before this does.
    std::atomic<bool> retirement_held_{false};
    int lock_fd_ = -1;
    std::unique_ptr<Writer> writer_;
    bool writer_dirty_ = false;  // writer thread: a transaction failed, its memory of the tables is to be read again
    std::thread thread_;
    std::thread checkpointer_;
    std::thread checker_;  // a large file's integrity check, once, after open

    CommitQueue queue_;
    mutable std::mutex mutex_;  // the stats, and the checkpointer's wait
    std::condition_variable checkpoint_wake_;
    bool stopping_ = false;     // for the checkpointer and the checker
    bool check_later_ = false;  // the file is checked once open (check_integrity), not before
    sqlite3* checking_ = nullptr;  // the checker's connection while it checks; under mutex_
    Stats stats_;

    std::mutex commit_gate_;  // held by the writer for each commit, by the checkpointer for a log restart
    std::mutex reader_mutex_;
    std::unique_ptr<SQLite::Database> reader_;
    std::unordered_map<std::string, Recovered> recovered_;  // until open_tables() takes it; under reader_mutex_
};

}  // namespace sparts::storage
