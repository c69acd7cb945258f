#include "storage/postgres/pg.hpp"

#include <libpq-fe.h>

#include <algorithm>

namespace sparts::storage::pg {

namespace {

std::string trimmed(std::string message) {
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    return message;
}

std::string state_of(const PGresult* r) {
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    return state ? state : "";
}

// The result, or an Error with PostgreSQL's message and SQLSTATE.
Result checked(PGconn* c, PGresult* raw) {
    Result r(raw);
    const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
    switch (status) {
        case PGRES_COMMAND_OK:
        case PGRES_TUPLES_OK:
        case PGRES_PIPELINE_SYNC:
            return r;
        case PGRES_PIPELINE_ABORTED:
            throw Error("not run: an earlier statement of the transaction failed", "25P02");
        default: {
            std::string message = raw ? PQresultErrorMessage(raw) : "";
            if (message.empty()) message = PQerrorMessage(c);
            throw Error(trimmed(message), state_of(raw));
        }
    }
}

}  // namespace

void ResultFree::operator()(pg_result* r) const { PQclear(r); }
void ConnectionFree::operator()(pg_conn* c) const { PQfinish(c); }

int Result::rows() const { return r_ ? PQntuples(r_.get()) : 0; }
bool Result::null(int row, int column) const { return PQgetisnull(r_.get(), row, column) != 0; }
std::string Result::text(int row, int column) const {
    return std::string(PQgetvalue(r_.get(), row, column), static_cast<std::size_t>(PQgetlength(r_.get(), row, column)));
}
std::int64_t Result::number(int row, int column) const {
    return null(row, column) ? 0 : std::stoll(PQgetvalue(r_.get(), row, column));
}
bool Result::boolean(int row, int column) const { return PQgetvalue(r_.get(), row, column)[0] == 't'; }
std::string Result::bytes(int row, int column) const {
    std::size_t length = 0;
    unsigned char* raw = PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(r_.get(), row, column)), &length);
    if (!raw) throw Error("out of memory decoding a bytea value", "53200");
    std::string out(reinterpret_cast<const char*>(raw), length);
    PQfreemem(raw);
    return out;
}

void Params::add(std::optional<std::string> v, int format) {
    values_.push_back(std::move(v));
    formats_.push_back(format);
}
const char* const* Params::values() const {
    pointers_.clear();
    for (const auto& value : values_) pointers_.push_back(value ? value->data() : nullptr);
    return pointers_.data();
}
const int* Params::lengths() const {
    lengths_.clear();
    for (const auto& value : values_) lengths_.push_back(value ? static_cast<int>(value->size()) : 0);
    return lengths_.data();
}
Params& Params::text(std::string value) {
    add(std::move(value), 0);
    return *this;
}
Params& Params::bytes(std::string value) {
    add(std::move(value), 1);
    return *this;
}
Params& Params::null() {
    add(std::nullopt, 0);
    return *this;
}

void ArrayText::comma() {
    if (!first_) body_ += ',';
    first_ = false;
}
void ArrayText::text(std::string_view value) {
    comma();
    body_ += '"';
    for (const char ch : value) {
        if (ch == '"' || ch == '\\') body_ += '\\';
        body_ += ch;
    }
    body_ += '"';
}
void ArrayText::number(std::int64_t value) {
    comma();
    body_ += std::to_string(value);
}
void ArrayText::bytes(std::string_view value) {
    static constexpr char kHex[] = "0123456789abcdef";
    comma();
    body_ += "\"\\\\x";  // the element "\\x..": the array's own escape, then bytea's hex form
    for (const char ch : value) {
        const auto b = static_cast<unsigned char>(ch);
        body_ += kHex[b >> 4];
        body_ += kHex[b & 15];
    }
    body_ += '"';
}
void ArrayText::null() {
    comma();
    body_ += "NULL";
}

Connection::Connection(const std::string& url) : url_(url), c_(PQconnectdb(url.c_str())) {
    if (!c_) throw Error("out of memory connecting to PostgreSQL", "08001");
    if (PQstatus(c_.get()) != CONNECTION_OK)
        throw Error("cannot connect to PostgreSQL at " + redact(url) + ": " + scrub(trimmed(PQerrorMessage(c_.get())), url),
                    "08001");
    // Our messages are read by the log, not a terminal: notices (a table that already exists) stay quiet.
    PQsetNoticeProcessor(c_.get(), [](void*, const char*) {}, nullptr);
}

bool Connection::ok() const { return PQstatus(c_.get()) == CONNECTION_OK; }

void Connection::reset() {
    if (PQpipelineStatus(c_.get()) != PQ_PIPELINE_OFF) PQexitPipelineMode(c_.get());
    PQreset(c_.get());
    if (!ok())
        throw Error("cannot connect to PostgreSQL at " + redact(url_) + ": " + scrub(trimmed(PQerrorMessage(c_.get())), url_),
                    "08001");
}

Result Connection::exec(const std::string& sql, const Params& params) {
    return checked(c_.get(), PQexecParams(c_.get(), sql.c_str(), params.size(), nullptr, params.values(),
                                          params.lengths(), params.formats(), 0));
}

void Connection::exec_script(const std::string& sql) { checked(c_.get(), PQexec(c_.get(), sql.c_str())); }

void Connection::prepare(const std::string& name, const std::string& sql) {
    checked(c_.get(), PQprepare(c_.get(), name.c_str(), sql.c_str(), 0, nullptr));
}

void Connection::enter_pipeline() {
    if (PQenterPipelineMode(c_.get()) != 1) throw Error("cannot enter pipeline mode: " + trimmed(PQerrorMessage(c_.get())), "");
}

void Connection::exit_pipeline() {
    if (PQpipelineStatus(c_.get()) != PQ_PIPELINE_OFF && PQexitPipelineMode(c_.get()) != 1)
        throw Error("cannot leave pipeline mode: " + trimmed(PQerrorMessage(c_.get())), "");
}

void Connection::send(const std::string& sql, const Params& params) {
    if (PQsendQueryParams(c_.get(), sql.c_str(), params.size(), nullptr, params.values(), params.lengths(),
                          params.formats(), 0) != 1)
        throw Error("cannot send a query: " + trimmed(PQerrorMessage(c_.get())), "08006");
}

void Connection::send_prepared(const std::string& name, const Params& params) {
    if (PQsendQueryPrepared(c_.get(), name.c_str(), params.size(), params.values(), params.lengths(), params.formats(),
                            0) != 1)
        throw Error("cannot send a query: " + trimmed(PQerrorMessage(c_.get())), "08006");
}

void Connection::sync() {
    if (PQpipelineSync(c_.get()) != 1) throw Error("cannot send to PostgreSQL: " + trimmed(PQerrorMessage(c_.get())), "08006");
}

Result Connection::next_result() {
    PGresult* raw = PQgetResult(c_.get());
    if (!raw) throw Error("PostgreSQL sent no result: " + trimmed(PQerrorMessage(c_.get())), "08006");
    Result r = checked(c_.get(), raw);
    // The NULL that ends this query's results (none follows a sync).
    if (PQresultStatus(r.get()) != PGRES_PIPELINE_SYNC)
        while (PGresult* extra = PQgetResult(c_.get())) PQclear(extra);
    return r;
}

void Connection::skip_to_sync() {
    for (int nulls = 0; nulls < 2;) {
        PGresult* raw = PQgetResult(c_.get());
        if (!raw) {
            // Two NULLs in a row: nothing more is coming (the connection broke).
            if (!ok()) return;
            ++nulls;
            continue;
        }
        nulls = 0;
        const bool sync = PQresultStatus(raw) == PGRES_PIPELINE_SYNC;
        PQclear(raw);
        if (sync) return;
    }
}

namespace {

// The password's places in a URL: in its user info (user:password@) and as password=… parameters.
std::vector<std::pair<std::size_t, std::size_t>> password_spans(const std::string& url) {
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    if (const auto scheme = url.find("://"); scheme != std::string::npos) {
        const auto start = scheme + 3;
        const auto at = url.find('@', start);
        const auto slash = url.find('/', start);
        if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
            const auto colon = url.find(':', start);
            if (colon != std::string::npos && colon < at) spans.emplace_back(colon + 1, at);
        }
    }
    for (auto p = url.find("password="); p != std::string::npos; p = url.find("password=", p + 1)) {
        const auto from = p + 9;
        auto end = url.find_first_of("& ", from);
        if (end == std::string::npos) end = url.size();
        spans.emplace_back(from, end);
    }
    return spans;
}

}  // namespace

std::string redact(const std::string& url) {
    std::string out = url;
    auto spans = password_spans(url);
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [from, to] : spans)
        if (to > from) out.replace(from, to - from, "***");
    return out;
}

std::string scrub(std::string message, const std::string& url) {
    // libpq's messages may quote the URL whole: its password goes first, wherever it shows.
    for (const auto& [from, to] : password_spans(url)) {
        const std::string password = url.substr(from, to - from);
        if (password.size() < 3) continue;  // too short to find without mangling the rest
        for (auto p = message.find(password); p != std::string::npos; p = message.find(password, p + 3))
            message.replace(p, password.size(), "***");
    }
    return message;
}

std::string check_url(const std::string& url) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
    if (!options) {
        std::string message = error ? trimmed(error) : "out of memory";
        if (error) PQfreemem(error);
        return scrub(message, url);
    }
    PQconninfoFree(options);
    return {};
}

bool is_url(std::string_view database) {
    return database.starts_with("postgresql://") || database.starts_with("postgres://");
}

}  // namespace sparts::storage::pg
