// A thin layer over libpq (PostgreSQL's own C client): connections and
// results that free themselves, parameters that keep their bytes alive until
// the query is sent, and errors that carry PostgreSQL's SQLSTATE. Only
// storage/pg_*.cpp use it; nothing outside storage/ sees a libpq type.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct pg_conn;
struct pg_result;

namespace sparts::storage::pg {

// What failed, with PostgreSQL's SQLSTATE when the server gave one ("" for a
// connection that broke, "08006" and such for connection errors).
class Error : public std::runtime_error {
public:
    Error(const std::string& what, std::string sqlstate) : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
    const std::string& sqlstate() const { return sqlstate_; }

private:
    std::string sqlstate_;
};

struct ResultFree {
    void operator()(pg_result* r) const;
};
class Result {
public:
    Result() = default;
    explicit Result(pg_result* r) : r_(r) {}
    int rows() const;
    bool null(int row, int column) const;
    std::string text(int row, int column) const;
    std::int64_t number(int row, int column) const;
    bool boolean(int row, int column) const;
    std::string bytes(int row, int column) const;  // a bytea column, in the text result format
    pg_result* get() const { return r_.get(); }

private:
    std::unique_ptr<pg_result, ResultFree> r_;
};

// Parameters of one query, in text form except those given as bytes (bytea).
class Params {
public:
    Params& text(std::string value);
    Params& number(std::int64_t value) { return text(std::to_string(value)); }
    Params& boolean(bool value) { return text(value ? "t" : "f"); }
    Params& bytes(std::string value);
    Params& null();

    int size() const { return static_cast<int>(values_.size()); }
    // Pointers into the values, taken when asked for: Params move (a short string's
    // bytes with them), and the values vector grows.
    const char* const* values() const;
    const int* lengths() const;
    const int* formats() const { return formats_.data(); }

private:
    void add(std::optional<std::string> v, int format);
    std::vector<std::optional<std::string>> values_;
    mutable std::vector<const char*> pointers_;
    mutable std::vector<int> lengths_;
    std::vector<int> formats_;
};

// A PostgreSQL array literal built element by element ({"a","b",NULL}), for
// sending many rows in one statement through unnest().
class ArrayText {
public:
    void text(std::string_view value);
    void number(std::int64_t value);
    void bytes(std::string_view value);  // as a bytea element: "\\x0a0b"
    void null();
    std::string done() const { return "{" + body_ + "}"; }
    bool empty() const { return body_.empty(); }

private:
    void comma();
    std::string body_;
    bool first_ = true;
};

struct ConnectionFree {
    void operator()(pg_conn* c) const;
};

class Connection {
public:
    // Throws Error (sqlstate "08001") when it cannot connect.
    explicit Connection(const std::string& url);
    pg_conn* get() const { return c_.get(); }
    bool ok() const;
    void reset();  // connects again, as the URL says

    Result exec(const std::string& sql, const Params& params = {});
    // Several statements in one string (a migration), through the simple query protocol.
    void exec_script(const std::string& sql);
    void prepare(const std::string& name, const std::string& sql);

    // Pipeline mode (PostgreSQL 14's): queries sent without waiting, their
    // results read in order afterwards.
    void enter_pipeline();
    void exit_pipeline();
    void send(const std::string& sql, const Params& params);
    void send_prepared(const std::string& name, const Params& params);
    void sync();
    // The next query's result in the pipeline; throws Error for a failed or
    // aborted one (after which the caller reads on to the sync, then rolls back).
    Result next_result();
    // Reads past the results up to and including the next sync point.
    void skip_to_sync();

private:
    std::string url_;
    std::unique_ptr<pg_conn, ConnectionFree> c_;
};

// Checks a connection URL without connecting: empty, or what is wrong.
std::string check_url(const std::string& url);
// The URL with its password replaced by "***", for logs and messages.
std::string redact(const std::string& url);
// A message (libpq's) with the URL's password, wherever it shows, replaced by "***".
std::string scrub(std::string message, const std::string& url);
// Whether `database` names a PostgreSQL database rather than a SQLite file.
bool is_url(std::string_view database);

}  // namespace sparts::storage::pg
