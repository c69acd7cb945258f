#include "storage/sqlite/sqlite_backup.hpp"
#include "storage/file_sync.hpp"

#include <chrono>
#include <filesystem>
#include <sqlite3.h>

namespace sparts::storage {

namespace {

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Closes a connection however its function returns.
struct Connection {
    sqlite3* db = nullptr;
    ~Connection() { close(); }
    void close() {
        sqlite3_close_v2(db);
        db = nullptr;
    }
};

}  // namespace

Outcome<BackupDone, std::string> backup_sqlite(const std::string& from, const std::string& to) {
    namespace fs = std::filesystem;
    const auto began = std::chrono::steady_clock::now();
    std::error_code ec;
    if (!fs::exists(from, ec)) return "no database at " + from;
    if (fs::weakly_canonical(from, ec) == fs::weakly_canonical(to, ec))
        return "the backup " + to + " would overwrite the database itself";
    const std::string partial = to + ".partial";
    fs::remove(partial, ec);

    Connection source, copy;
    // Read-only, and no URI tricks: the file is the one named.
    if (sqlite3_open_v2(from.c_str(), &source.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
        return "cannot open the database " + from + ": " + sqlite3_errmsg(source.db);
    sqlite3_busy_timeout(source.db, 5000);
    if (sqlite3_open_v2(partial.c_str(), &copy.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
        return "cannot write the backup " + partial + ": " + sqlite3_errmsg(copy.db);

    BackupDone done;
    done.started_ms = now_ms();
    sqlite3_backup* backup = sqlite3_backup_init(copy.db, "main", source.db, "main");
    if (!backup) return "cannot start the backup of " + from + ": " + sqlite3_errmsg(copy.db);
    // Every page in one step: one read transaction, so one moment, and no restart when the
    // server commits meanwhile (a step at a time would start again after each of its commits).
    int rc = sqlite3_backup_step(backup, -1);
    for (int tries = 0; (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && tries < 200; ++tries) {
        sqlite3_sleep(50);
        done.started_ms = now_ms();
        rc = sqlite3_backup_step(backup, -1);
    }
    const int finished = sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE || finished != SQLITE_OK) {
        const std::string why = sqlite3_errmsg(copy.db);
        copy.close();
        fs::remove(partial, ec);
        return "the backup of " + from + " failed: " + why;
    }
    copy.close();  // written out before it is synced and named
    // Whole on disk before it takes the final name, and the name itself synced.
    if (!sync_path(partial, false)) {
        fs::remove(partial, ec);
        return "cannot sync the backup " + partial;
    }
    fs::rename(partial, to, ec);
    if (ec) {
        fs::remove(partial, ec);
        return "cannot rename the backup to " + to + ": " + ec.message();
    }
    const fs::path folder = fs::absolute(to, ec).parent_path();
    sync_path(folder.string(), true);
    done.bytes = static_cast<std::int64_t>(fs::file_size(to, ec));
    done.took_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began).count();
    return done;
}

}  // namespace sparts::storage
