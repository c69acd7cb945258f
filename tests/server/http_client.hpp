// HTTP/1.1 against the server under test, for the end-to-end tests of its
// HTTP side (/healthz, /readyz, /metrics, /api/..., and the admin API's
// POST and DELETE under /admin/).
#pragma once
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>
#include <map>
#include <memory>
#include <string>

namespace sparts::e2e {

struct HttpReply {
    int status = 0;
    std::string body;
    std::map<std::string, std::string> headers;  // names in lower case

    std::string header(const std::string& lower_case_name) const {
        const auto it = headers.find(lower_case_name);
        return it == headers.end() ? std::string() : it->second;
    }
};

using Headers = std::vector<std::pair<std::string, std::string>>;

// One GET on a connection of its own; throws if the connection fails.
// `source`: the local address to connect from ("127.0.0.7"; any of 127/8 is
// this machine), for tests of per-address limits; empty: the system's choice.
HttpReply http_get(std::uint16_t port, const std::string& target, const Headers& headers = {},
                   const std::string& source = {});
// One request of any method ("POST", "DELETE"...) with `body` (sent as application/json
// when not empty, unless `headers` say otherwise), on a connection of its own.
HttpReply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                       const std::string& body = {}, const Headers& headers = {}, const std::string& source = {});

// A keep-alive connection: several GETs on one TCP connection (throws if it
// cannot connect, or a request gets no answer within 30 s).
class HttpConnection {
public:
    explicit HttpConnection(std::uint16_t port, const std::string& source = {});
    ~HttpConnection();
    HttpConnection(const HttpConnection&) = delete;
    HttpConnection& operator=(const HttpConnection&) = delete;
    HttpReply get(const std::string& target, const Headers& headers = {});
    HttpReply request(const std::string& method, const std::string& target, const std::string& body = {},
                      const Headers& headers = {});

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Sends `bytes` as they are on a connection of its own and returns what the
// server sends back until it closes the connection or `timeout` passes: for
// requests no well-behaved client library would send (raw bytes over 0x7f in
// the target, say).
std::string raw_http(std::uint16_t port, const std::string& bytes,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10));

// The status code of a raw HTTP response ("HTTP/1.1 404 Not Found" -> 404), or 0.
int raw_status(const std::string& response);
// Its body (after the blank line).
std::string raw_body(const std::string& response);

// The value of one sample of /metrics, by its series as written there
// ("sparts_tables_open", "sparts_limit_refusals_total{limit=\"max_tables\"}"), or -1
// when there is no such line.
double metric(std::uint16_t port, const std::string& series);

// "a b/c" -> "a%20b%2Fc", for query strings.
std::string url_encode(const std::string& text);

}  // namespace sparts::e2e
