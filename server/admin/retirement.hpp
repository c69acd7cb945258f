// Retention (docs/OPERATING.md, "Retention"): the finished games older than a number of days
// appended to a JSON Lines file as game records, then dropped from the archive, every rating as
// it was. Two ways in: the command (app/retire_command.hpp), and, while play goes on,
// Retirement: every --retire-every-seconds and on the admin API's request (POST
// /admin/retirements), into a file of --retire-dir named by its start, on a thread of its own
// (a year of games takes minutes, and no table waits for it). One at a time across every
// process that shares the database (Store::hold_retirement).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <nlohmann/json.hpp>
#include "protocol/outcome.hpp"
#include "server/base/metrics.hpp"
#include "storage/records.hpp"

namespace sparts::storage {
class Store;
}

namespace sparts::server {

// What a run did: the games retired (those of the steps before an error too), the bytes
// written, and why it stopped early, if it did.
struct Retired {
    std::uint64_t games = 0;
    std::uint64_t bytes = 0;      // written to the file
    std::string error;            // empty: every game due was retired
    bool held_elsewhere = false;  // another process was retiring: nothing done, not an error
};

// Retires every finished game that ended before `before` (Unix ms) but an open table's last,
// the oldest first, a step of a few hundred at a time: a step's lines are written to `file`
// (appended to; made, and its folder synced, with the first step) and synced before its games
// are dropped, so that a stop at any point loses none. The hold (Store::hold_retirement) lasts
// until the last step's drop is committed, even past a return on `stop`. `stop` is read between
// steps and while a step's drop waits; `stepped` is called after each step's commit.
Retired retire_games(storage::Store& store, storage::Millis before, const std::string& file,
                     const std::atomic<bool>* stop = nullptr, const std::function<void()>& stepped = {});

class Retirement {
public:
    // `stepped`: after each step's commit (the archive's cache forgets the games it held).
    Retirement(storage::Store& store, std::string dir, int after_days, Metrics& metrics, std::function<void()> stepped);
    ~Retirement();  // stops a run under way after its step, and waits for it
    // At the server's stop: a run under way ends after its step (its drop commits later).
    void request_stop() { stopping_.store(true, std::memory_order_relaxed); }
    Retirement(const Retirement&) = delete;
    Retirement& operator=(const Retirement&) = delete;

    struct Refusal {
        bool busy = false;  // a run is under way here
        std::string message;
    };
    // Starts a run unless one is under way: the name of the file it appends to, or why not.
    // `why` goes to the log ("admin", "schedule").
    Outcome<std::string, Refusal> start(const std::string& why);

    // {"running", "dir", "after_days", "last": {file (null: nothing written), at_ms, games, bytes,
    // took_ms, and error or skipped when it ended early} or null}.
    nlohmann::json status() const;

private:
    void run(const std::string& file, const std::string& why);

    storage::Store& store_;
    const std::string dir_;
    const int after_days_;
    Metrics& metrics_;
    const std::function<void()> stepped_;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;  // what follows
    bool running_ = false;
    std::thread thread_;
    nlohmann::json last_;  // null until a run has ended
};

}  // namespace sparts::server
