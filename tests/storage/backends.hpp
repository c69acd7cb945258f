// The two stores the storage tests run against, each in a place of its own
// for one test: a SQLite file under the build tree, or a fresh database in a
// real PostgreSQL (tests/support/postgres.hpp). The tests written once for
// both are TEST_CASE_TEMPLATEs over these.
#pragma once
#include <memory>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>
#include <doctest/doctest.h>
#include "storage/postgres/pg_store.hpp"
#include "storage/sqlite/sqlite_store.hpp"
#include "storage/temp_file.hpp"
#include "support/postgres.hpp"

namespace sparts::test {

class SqliteBackend {
public:
    explicit SqliteBackend(const std::string& hint) : db_(hint) {}
    std::string location() const { return db_.path(); }
    std::unique_ptr<storage::Store> open() const {
        auto s = storage::SqliteStore::open(db_.path());
        REQUIRE_MESSAGE(s, (s ? "" : s.error()));
        return std::move(*s);
    }
    int count(const std::string& sql) const {
        SQLite::Database db(db_.path(), SQLite::OPEN_READONLY);
        return db.execAndGet(sql).getInt();
    }

private:
    TempDatabase db_;
};

class PostgresBackend {
public:
    explicit PostgresBackend(const std::string& hint) : db_(hint) {}
    std::string location() const { return db_.url(); }
    std::unique_ptr<storage::Store> open(storage::PgOptions options = {}) const {
        auto s = storage::PgStore::open(db_.url(), options);
        REQUIRE_MESSAGE(s, (s ? "" : s.error()));
        return std::move(*s);
    }
    int count(const std::string& sql) const { return std::stoi(db_.query(sql)); }
    const TempPgDatabase& database() const { return db_; }

private:
    TempPgDatabase db_;
};

}  // namespace sparts::test
