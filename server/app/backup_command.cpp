#include "server/app/backup_command.hpp"

#include <cstdio>
#include <iostream>

#include "storage/postgres/pg.hpp"
#include "storage/sqlite/sqlite_backup.hpp"

namespace sparts::server {

int backup_command(const Config& config) {
    if (config.database == "none") {
        std::cerr << "--backup-to needs a --database: with none there is nothing to copy\n";
        return 2;
    }
    if (storage::pg::is_url(config.database)) {
        std::cerr << "--backup-to copies a SQLite database; back PostgreSQL up with pg_dump, or with base backups "
                     "and WAL archiving (docs/OPERATING.md, \"Backups\")\n";
        return 2;
    }
    const auto done = storage::backup_sqlite(config.database, config.backup_to);
    if (!done) {
        std::cerr << done.error() << "\n";
        return 1;
    }
    std::printf("%s: %lld bytes, every commit before %lld (Unix ms), in %lld ms\n", config.backup_to.c_str(),
                static_cast<long long>(done->bytes), static_cast<long long>(done->started_ms),
                static_cast<long long>(done->took_ms));
    return 0;
}

}  // namespace sparts::server
