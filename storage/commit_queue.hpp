// The queue between the tables and a store's one writer thread, the same for
// every backend: tables submit batches from any thread; the writer takes
// everything queued since its last commit as one group, committing at most
// once every `interval` under load (a commit has a cost whatever it holds:
// SQLite writes at least the journal's tail page, PostgreSQL a round trip and
// a WAL flush), unless `enough` batches wait; a lone batch after a quiet spell
// goes at once. Only a writer that waits for what a submit brings is woken:
// a futex wake and two context switches for every table step were a quarter
// of the server's CPU at human pace.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include "storage/records.hpp"
#include "storage/store.hpp"

namespace sparts::storage {

class CommitQueue {
public:
    using Clock = std::chrono::steady_clock;
    struct Pending {
        Batch batch;
        std::function<void()> done;  // on the writer's thread, once the batch is committed
        std::string release;         // many nodes: a table to free after the batches before it (no batch)
    };

    CommitQueue(std::chrono::microseconds interval, int enough) : interval_(interval), enough_(static_cast<std::size_t>(enough)) {}

    void submit(Pending p);
    // Blocks until everything submitted so far is done, or `limit` has passed (false then).
    bool flush(std::optional<std::chrono::milliseconds> limit);

    // The writer's next group, into `group` (empty before): waits for a first batch (until
    // `until`, when given: the writer has other work then), then within the interval since
    // the last group for more. False once stopped with nothing left. An empty group: `until` came.
    bool next(std::deque<Pending>& group, std::optional<Clock::time_point> until);
    // `n` batches are done (committed, or dropped for good): flush() counts them.
    void finished(std::uint64_t n);
    // Nothing queued and not stopping: the writer may do its own work between commits.
    bool idle() const;
    std::size_t size() const;

    // What a writer does with one group, the same for every backend. `commit` writes the
    // group in one transaction and throws on failure, or returns false to be called again
    // at once (PostgreSQL: the steps of a table another node took were dropped from it). A
    // failure is counted in `stats` (under `stats_mutex`), told to `failed` when there is
    // one, and tried again every `retry` until it succeeds: nothing is dropped while the
    // server runs. Only a store going away (abandoned) gives the group up, with everything
    // still queued, and the log says what is lost. Once committed, each batch's `done` runs,
    // `stats` counts the commit, and the queue hears that the batches are finished.
    struct Writer {
        std::function<bool()> commit;
        std::function<std::string(const std::exception&)> explain;  // a failure, for the log
        std::function<void()> failed;                                // may be empty
        Store::Stats& stats;
        std::mutex& stats_mutex;
    };
    // False: given up (the writer ends).
    bool write_group(std::deque<Pending>& group, const std::string& database, std::chrono::milliseconds retry,
                     const Writer& writer);

    // From the store's destructor: the writer commits what is queued and ends; a commit that
    // fails from then on is given up (abandoned()).
    void stop();
    bool abandoned() const;
    // Giving up: every batch still queued is dropped; how many.
    std::size_t drop_all();

private:
    const std::chrono::microseconds interval_;
    const std::size_t enough_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable finished_;
    std::deque<Pending> queue_;
    enum class Wait { none, any, enough };
    Wait waiting_ = Wait::none;  // what the writer waits for now
    bool stopping_ = false;
    std::uint64_t submitted_ = 0;
    std::uint64_t done_ = 0;
    Clock::time_point last_group_{};
};

}  // namespace sparts::storage
