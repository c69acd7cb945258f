// The store the server's --database names: a PostgreSQL URL
// (postgresql://… or postgres://…) or a SQLite file.
#pragma once
#include <memory>
#include <string>
#include "protocol/outcome.hpp"
#include "storage/postgres/pg_store.hpp"
#include "storage/sqlite/sqlite_store.hpp"

namespace sparts::storage {

struct StoreOptions {
    SqliteOptions sqlite;
    PgOptions postgres;
};

Outcome<std::unique_ptr<Store>, std::string> open_store(const std::string& database, const StoreOptions& options);

}  // namespace sparts::storage
