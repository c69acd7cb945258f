// Backups of the SQLite database into --backup-dir (docs/OPERATING.md, "Backups"),
// made while play goes on: on the admin API's request (POST /admin/backups), and
// every --backup-every-seconds if set. One at a time, on a thread of its own (a
// copy takes as long as the disk does, and no table or archive read waits for
// it); the newest --backup-keep files are kept, older ones removed. Each one is
// logged and counted in /metrics (sparts_backups_total, the last good one's
// moment, size and time taken).
//
// Files are named by their start, in UTC: sparts-20261128T174500Z.db, so that
// the names sort as the backups were made. A backup is restored by starting a
// server on a copy of its file (the server checks it at open).
#pragma once
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <nlohmann/json.hpp>
#include "protocol/outcome.hpp"
#include "server/base/metrics.hpp"

namespace sparts::storage {
class Store;
}

namespace sparts::server {

class Backups {
public:
    Backups(storage::Store& store, std::string dir, int keep, Metrics& metrics);
    ~Backups();  // waits for a backup under way
    Backups(const Backups&) = delete;
    Backups& operator=(const Backups&) = delete;

    struct Refusal {
        bool busy = false;  // another backup is under way (else the store cannot be backed up so)
        std::string message;
    };
    // Starts a backup unless one is under way: the name of the file it writes, or why not.
    // `why` goes to the log ("admin", "schedule").
    Outcome<std::string, Refusal> start(const std::string& why);

    // {"running": bool, "dir", "keep", "last": {file, at_ms, bytes, took_ms} or {file, error}
    // or null, "files": [{name, bytes}] newest first}.
    nlohmann::json status() const;

private:
    void run(const std::string& file, const std::string& why);
    void prune();
    std::vector<std::pair<std::string, std::int64_t>> files() const;  // backups in the folder, newest first

    storage::Store& store_;
    const std::string dir_;
    const int keep_;
    Metrics& metrics_;
    mutable std::mutex mutex_;  // what follows
    bool running_ = false;
    std::thread thread_;
    nlohmann::json last_;  // null until a backup has ended
};

}  // namespace sparts::server
