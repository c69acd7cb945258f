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
#include "protocol/outcome.hpp"
#include "storage/store.hpp"

namespace sparts::storage {

struct PgOptions {
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

    ArchivePage list_games(const ArchiveQuery& query) override;
    std::optional<ArchivedGame> load_game(const std::string& table, int game) override;

    Stats stats() const override;

private:
    struct Pending {
        Batch batch;
        std::function<void()> done;
    };
    class Writer;
    class Reader;

    PgStore(std::string url, PgOptions options);
    void run_writer();

    std::string url_;  // as given; redacted in every message
    PgOptions options_;
    std::unique_ptr<Writer> writer_;
    std::unique_ptr<Reader> reader_;
    std::thread thread_;
    using Clock = std::chrono::steady_clock;
    Clock::time_point last_commit_{};  // writer thread

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable committed_;
    std::deque<Pending> queue_;
    enum class WriterWait { none, any, enough };
    WriterWait writer_wait_ = WriterWait::none;
    bool stopping_ = false;
    bool abandon_ = false;
    std::uint64_t submitted_ = 0;
    std::uint64_t done_ = 0;
    Stats stats_;
};

}  // namespace sparts::storage
