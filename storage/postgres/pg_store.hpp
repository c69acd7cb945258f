// The PostgreSQL store: the same journal and records as SQLite's version 5
// (storage/README.md), through libpq. One writer thread commits every batch
// queued since its last commit in one transaction, sent as one pipeline (a
// round trip a commit, whatever it holds); archive and start-up reads go
// through a connection of their own.
//
// open() refuses, with a message for the operator: a URL libpq cannot read,
// a server it cannot reach, a database that holds tables not ours, one from a
// newer server, and one another single server already uses (an advisory
// lock held by its writer's session).
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include "protocol/outcome.hpp"
#include "storage/commit_queue.hpp"
#include "storage/store.hpp"

namespace sparts::storage {

struct PgOptions {
    // This node's id among the nodes sharing the database; empty: one server alone,
    // which holds every table (and the database: a second server is refused).
    std::string node;
    int lease_ms = 3000;  // a table's lease lasts this long unrenewed (renewed every third of it)
    int retry_ms = 1000;  // wait before retrying a failed commit
    // Under load, commits at most this often, unless `commit_batches` table steps are waiting.
    std::chrono::microseconds commit_interval{1000};
    int commit_batches = 256;
};

class PgStore final : public Store {
public:
    static Outcome<std::unique_ptr<PgStore>, std::string> open(const std::string& url, PgOptions options = {});
    ~PgStore() override;

    void submit(Batch batch, std::function<void()> done) override;
    bool flush(std::optional<std::chrono::milliseconds> limit = std::nullopt) override;

    std::vector<StoredPlayer> players() override;
    std::optional<StoredPlayer> find_player(const std::string& token_hash) override;
    std::vector<OpenTableState> open_tables() override;
    std::uint64_t last_table_number() override;
    std::vector<StoredBan> bans() override;
    std::vector<PendingWebhook> pending_webhooks(std::size_t limit) override;

    std::map<std::string, std::int64_t> rule_set_games() override;
    ArchivePage list_games(const ArchiveQuery& query) override;
    // EXPLAIN of what list_games runs for `query` (pg_archive.hpp).
    std::vector<std::string> list_games_plan(const ArchiveQuery& query);
    std::optional<ArchivedGame> load_game(const std::string& table, int game) override;
    std::optional<ArchivedRecord> load_record(const std::string& table, int game) override;
    std::vector<ArchivedGameSummary> oldest_games(Millis before, int limit) override;
    std::vector<PresetRating> retired_ratings() override;
    Outcome<std::unique_ptr<RetirementHold>, std::string> hold_retirement() override;
    LeaderboardPage leaderboard(const LeaderboardQuery& query) override;
    std::optional<PlayerRatings> player_ratings(const std::string& player) override;

    Stats stats() const override;

    bool clustered() const override { return !options_.node.empty(); }
    TakeOver take_over(const std::string& table) override;
    void release(const std::string& table, std::function<void()> done) override;
    void on_lease_events(LeaseEvents events) override;
    std::uint64_t next_table_number(std::uint64_t after_local) override;
    std::vector<ListedTable> listed_tables() override;
    std::vector<std::pair<std::string, int>> seats_of(const std::string& player) override;

private:
    using Pending = CommitQueue::Pending;
    // Of a group about to be committed: the tables whose leases fence it.
    struct Fence {
        std::vector<std::string> tables;
        std::vector<std::uint64_t> epochs;
    };
    class Writer;
    class Reader;

    PgStore(std::string url, PgOptions options);
    void run_writer();
    // One attempt at committing `group` with its fences and releases (CommitQueue::write_group's
    // commit): throws on failure; false when steps of tables another node took were dropped.
    bool commit_fenced(std::deque<Pending>& group);
    // Cluster: the table a batch is fenced by (a table's step), or empty (a player, a new table).
    static std::string fenced_table(const Batch& batch);
    // Drops the batches of tables this node no longer holds (counted done, never called);
    // the fence of the rest, and the tables to tell `lost` about.
    Fence fence(std::deque<Pending>& group, std::vector<std::string>& lost);
    void renew_leases();
    std::vector<OpenTableState> read_tables(const std::string* only);

    std::string url_;  // as given; redacted in every message
    PgOptions options_;
    std::unique_ptr<Writer> writer_;
    std::unique_ptr<Reader> reader_;
    std::thread thread_;
    using Clock = CommitQueue::Clock;
    CommitQueue queue_;

    mutable std::mutex mutex_;  // the stats and the leases below
    Stats stats_;

    // Cluster: the tables this node holds and their epochs (under mutex_); what the writer
    // has told `wanted` of; when it last renewed the leases (writer thread).
    std::unordered_map<std::string, std::uint64_t> held_;
    std::unordered_map<std::string, std::uint64_t> wanted_told_;
    LeaseEvents events_;
    Clock::time_point last_renewal_{};
    std::unique_ptr<Reader> leases_;  // take_over's connection
};

}  // namespace sparts::storage
