// `sparts-server --migrate-from FILE --database postgresql://…`: a SQLite
// history copied into an empty PostgreSQL database, row for row, in one
// transaction (all of it or nothing). The SQLite file is first brought to
// the latest schema, as a server's start would; both stores stay open (and
// locked against a server) while the copy runs. The caller checks the
// copied games (server/app/migrate.cpp).
#pragma once
#include <cstdint>
#include <string>
#include "protocol/outcome.hpp"

namespace sparts::storage {

struct CopiedHistory {
    std::uint64_t players = 0;
    std::uint64_t tables = 0;
    std::uint64_t open_tables = 0;
    std::uint64_t games = 0;
    std::uint64_t finished_games = 0;
    std::uint64_t journal_rows = 0;
};

Outcome<CopiedHistory, std::string> copy_sqlite_to_postgres(const std::string& sqlite_path, const std::string& url);

}  // namespace sparts::storage
