// A real PostgreSQL for the tests, and a fresh database in it for each test.
//
// Under CTest the suites share one cluster, started before them by the
// `postgres/start` fixture (tests/support/postgres.sh) in the build folder and
// named by SPARTS_TEST_POSTGRES (its socket folder). A suite run by hand
// starts its own in a temporary folder, and stops it when it exits.
#pragma once
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

#include <libpq-fe.h>
#include <unistd.h>

namespace sparts::test {

class Postgres {
public:
    // The cluster's socket folder; started on first use when no fixture did.
    static const Postgres& shared() {
        static Postgres instance;
        return instance;
    }

    std::string url(const std::string& database) const {
        return "postgresql://sparts@/" + database + "?host=" + dir_;
    }
    const std::string& dir() const { return dir_; }

    // Runs SQL on the given database (the cluster's "postgres" by default); throws on failure.
    void exec(const std::string& sql, const std::string& database = "postgres") const {
        PGconn* c = PQconnectdb(url(database).c_str());
        if (PQstatus(c) != CONNECTION_OK) {
            std::string message = PQerrorMessage(c);
            PQfinish(c);
            throw std::runtime_error("test postgres: " + message);
        }
        PGresult* r = PQexec(c, sql.c_str());
        const auto status = PQresultStatus(r);
        std::string message = PQresultErrorMessage(r);
        PQclear(r);
        PQfinish(c);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) throw std::runtime_error("test postgres: " + sql + ": " + message);
    }

    // The first column of the first row, as text ("" for no row or NULL).
    std::string query(const std::string& sql, const std::string& database) const {
        PGconn* c = PQconnectdb(url(database).c_str());
        PGresult* r = PQexec(c, sql.c_str());
        std::string out;
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 && !PQgetisnull(r, 0, 0)) out = PQgetvalue(r, 0, 0);
        const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
        std::string message = PQresultErrorMessage(r);
        PQclear(r);
        PQfinish(c);
        if (!ok) throw std::runtime_error("test postgres: " + sql + ": " + message);
        return out;
    }

    ~Postgres() {
        if (own_) std::system((script() + " stop " + dir_ + " >/dev/null 2>&1").c_str());
    }

private:
    static std::string script() { return std::string(SPARTS_SOURCE_DIR) + "/tests/support/postgres.sh"; }

    Postgres() {
        if (const char* dir = std::getenv("SPARTS_TEST_POSTGRES"); dir && *dir) {
            dir_ = dir;
            return;
        }
        dir_ = (std::filesystem::temp_directory_path() / ("sparts-pg-" + std::to_string(::getpid()))).string();
        own_ = true;
        if (std::system((script() + " start " + dir_ + " >/dev/null").c_str()) != 0)
            throw std::runtime_error("cannot start a test PostgreSQL in " + dir_ + " (" + script() + ")");
    }

    std::string dir_;
    bool own_ = false;
};

// A database of its own for one test, dropped at the end.
class TempPgDatabase {
public:
    explicit TempPgDatabase(const std::string& hint) {
        static std::atomic<int> counter{0};
        std::random_device random;
        name_ = "t_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + std::to_string(random() % 100000);
        for (const char ch : hint)
            if (std::isalnum(static_cast<unsigned char>(ch)) && name_.size() < 60) name_ += static_cast<char>(std::tolower(ch));
        Postgres::shared().exec("CREATE DATABASE " + name_);
    }
    ~TempPgDatabase() {
        try {
            Postgres::shared().exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
        } catch (const std::exception&) {
        }
    }
    TempPgDatabase(const TempPgDatabase&) = delete;
    TempPgDatabase& operator=(const TempPgDatabase&) = delete;

    const std::string& name() const { return name_; }
    std::string url() const { return Postgres::shared().url(name_); }
    void exec(const std::string& sql) const { Postgres::shared().exec(sql, name_); }
    std::string query(const std::string& sql) const { return Postgres::shared().query(sql, name_); }

private:
    std::string name_;
};

}  // namespace sparts::test
