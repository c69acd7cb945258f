// The store: where the server writes everything a table does, and reads it
// back at start and for the archive. Two implementations: SQLite
// (sqlite/sqlite_store.hpp) and PostgreSQL (postgres/pg_store.hpp), chosen by
// backends/open_store.hpp; the interface names no SQLite or libpq type.
//
// Writes are queued and committed in order by one writer, many batches (from
// many tables) per transaction. `done` runs on the writer's thread once the
// batch is durable; a table publishes the batch's events to clients only then,
// so no client sees an event that a crash could lose. A batch that cannot be
// committed (a full disk) is retried, with the error in the log, until it
// can: tables stall rather than lose events.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "protocol/outcome.hpp"
#include "storage/records.hpp"

namespace sparts::storage {

// A backup made (Store::backup).
struct BackupDone {
    std::int64_t bytes = 0;       // the copy's size
    std::int64_t started_ms = 0;  // its moment (Unix ms): every commit before it is in the copy, none after
    std::int64_t took_ms = 0;
};

class Store {
public:
    virtual ~Store() = default;

    virtual void submit(Batch batch, std::function<void()> done) = 0;
    // Blocks until everything submitted so far is committed, or until `limit`
    // has passed (a disk that stays full); false in that case.
    virtual bool flush(std::optional<std::chrono::milliseconds> limit = std::nullopt) = 0;

    // At start: the players an open table names (seated there, or its
    // creator). Others are read when they come back (find_player).
    virtual std::vector<StoredPlayer> players() = 0;
    // A player by the SHA-256 of its token, or nothing. Any thread.
    virtual std::optional<StoredPlayer> find_player(const std::string& token_hash) = 0;
    virtual std::vector<OpenTableState> open_tables() = 0;  // once, at start
    virtual std::uint64_t last_table_number() = 0;
    // Every ban (PutBan, RemoveBan), by player id; at start.
    virtual std::vector<StoredBan> bans() = 0;
    // The game-over webhook summaries not delivered yet (FinishGame::webhook, WebhookDone), the oldest
    // first, at most `limit`. Any thread.
    virtual std::vector<PendingWebhook> pending_webhooks(std::size_t limit) = 0;

    // --- many nodes on one database (PostgreSQL with a node id; server/README.md) ---------
    // A table is held by one node at a time, through a lease with an epoch that every
    // taking over raises; every commit of a table's steps is fenced by it, in its
    // transaction, so that a node that lost a table can never write to it again. One
    // server alone (SQLite, or PostgreSQL without a node id) holds every table: the
    // defaults below.
    virtual bool clustered() const { return false; }
    // Takes the table for this node if it is free (released, expired, or this node's
    // already): its state to rebuild it from. Nothing while another node holds it: that
    // node is asked to hand it over (see `wanted`), and the caller tries again.
    enum class Taken { taken, held_elsewhere, no_such_table };
    struct TakeOver {
        Taken taken = Taken::no_such_table;
        std::optional<OpenTableState> state;
    };
    virtual TakeOver take_over(const std::string& table) {
        (void)table;
        return {};
    }
    // After every step of the table submitted so far is committed, frees it for any node.
    // `done` runs on the writer's thread once it is free.
    virtual void release(const std::string& table, std::function<void()> done) {
        (void)table;
        if (done) done();
    }
    // What the writer learns of this node's leases: a table another node now holds (its
    // steps are refused, nothing more of it may be sent), and a table a client reached
    // another node for (hand it over: release it). Called on the writer's thread.
    struct LeaseEvents {
        std::function<void(const std::string& table)> lost;
        std::function<void(const std::string& table)> wanted;
    };
    virtual void on_lease_events(LeaseEvents events) { (void)events; }
    // Every public open table (many nodes: whichever node holds it). Empty for one server
    // alone, whose lobby knows its tables itself.
    virtual std::vector<ListedTable> listed_tables() { return {}; }
    // Many nodes: the seats a player holds at open tables, whichever node holds them (table, seat).
    virtual std::vector<std::pair<std::string, int>> seats_of(const std::string& player) {
        (void)player;
        return {};
    }
    // The number of a new table ("t<n>"), unique across the nodes.
    virtual std::uint64_t next_table_number(std::uint64_t after_local) { return after_local + 1; }

    // The archive: finished games only.
    virtual ArchivePage list_games(const ArchiveQuery& query) = 0;
    virtual std::optional<ArchivedGame> load_game(const std::string& table, int game) = 0;
    // The same game unplayed: its summary, deal and encoded record (nothing: no such game, or one without a record).
    virtual std::optional<ArchivedRecord> load_record(const std::string& table, int game) = 0;
    // Retention: the oldest games of those that finished before `before`, at most `limit`, in the
    // order a rebuild of the ratings plays them (finished, then archived), but never an open
    // table's last game (its state after a restart); and the rating rows of every game retired
    // so far (RetireGames), which a rebuild starts from.
    virtual std::vector<ArchivedGameSummary> oldest_games(Millis before, int limit) = 0;
    virtual std::vector<PresetRating> retired_ratings() = 0;
    // Retention by one process at a time of all that share the database: each step's rating rows
    // go on from those the steps before it left, so two at once would play some games twice. The
    // hold lasts as long as the object (which any thread may end); null when another process
    // holds it; an error when it cannot be asked for (a database that does not answer).
    struct RetirementHold {
        virtual ~RetirementHold() = default;
    };
    virtual Outcome<std::unique_ptr<RetirementHold>, std::string> hold_retirement() = 0;

    // How many games each of the host's named rule sets has had (FinishGame::rule_set), by name:
    // a row each, read, not counted. Any thread.
    virtual std::map<std::string, std::int64_t> rule_set_games() { return {}; }

    // Ratings (storage/README.md, "Ratings"): a preset's players by rating, best first, a page
    // at a time; and one player with its rows (nothing: no such player). Any thread.
    virtual LeaderboardPage leaderboard(const LeaderboardQuery& query) = 0;
    virtual std::optional<PlayerRatings> player_ratings(const std::string& player) = 0;

    // A consistent copy of the whole database in the file `to`, made while play goes on
    // (docs/OPERATING.md, "Backups"); whole or not at all. SQLite only: PostgreSQL is backed up
    // with its own tools (pg_dump, base backups), and says so. Any thread; it takes as long as
    // copying the file does.
    virtual Outcome<BackupDone, std::string> backup(const std::string& to) {
        (void)to;
        return std::string("this database is backed up with its own tools (pg_dump, or base backups and WAL "
                           "archiving: docs/OPERATING.md, \"Backups\")");
    }

    // Figures for benchmarks and metrics.
    struct Stats {
        std::uint64_t batches = 0;
        std::uint64_t commits = 0;
        std::uint64_t writes = 0;
        std::uint64_t failed_commits = 0;
        std::uint64_t checkpoints = 0;
        std::uint64_t log_restarts = 0;  // checkpoints that had to wait for the writer to restart the log
        std::int64_t wal_bytes = 0;              // the write-ahead log's size on disk now
        std::int64_t last_checkpoint_log = 0;    // pages in the log at the last checkpoint
        std::int64_t last_checkpoint_pages = 0;  // pages it copied into the database
        std::int64_t database_bytes = 0;         // the database file's size on disk now
        std::uint64_t journal_rows = 0;          // rows in the journal now
        std::uint64_t journal_live_rows = 0;     // of them, still needed (games in progress, each table's latest)
        std::uint64_t journal_rows_removed = 0;  // by cleanings
        std::uint64_t journal_cleanings = 0;
        // The database's integrity check (SQLite's quick_check): -1 not done yet (a large file is
        // checked once the server is up), 1 passed, 0 failed (the log says what it found).
        int integrity = -1;
    };
    virtual Stats stats() const = 0;
};

}  // namespace sparts::storage
