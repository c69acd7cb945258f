// HTTP/1.1 GET against the server under test, for the end-to-end tests of
// its HTTP side (/healthz, /readyz, /metrics, /api/...).
#pragma once
#include <cstdint>
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

// One GET on a connection of its own; throws if the connection fails.
HttpReply http_get(std::uint16_t port, const std::string& target);

// A keep-alive connection: several GETs on one TCP connection (throws if it
// cannot connect, or a request gets no answer within 30 s).
class HttpConnection {
public:
    explicit HttpConnection(std::uint16_t port);
    ~HttpConnection();
    HttpConnection(const HttpConnection&) = delete;
    HttpConnection& operator=(const HttpConnection&) = delete;
    HttpReply get(const std::string& target);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// "a b/c" -> "a%20b%2Fc", for query strings.
std::string url_encode(const std::string& text);

}  // namespace sparts::e2e
