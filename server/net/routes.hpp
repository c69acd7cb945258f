// Where what arrives on a connection goes. The network layer (this folder)
// knows no lobby, table, archive or admin API: the server (app/routes.*) hands
// it these two interfaces, and every request of a client is routed there, in
// one place.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <boost/beast/http.hpp>
#include "protocol/request.hpp"
#include "server/net/connection.hpp"

namespace sparts::server {

class Session;

// A WebSocket connection's requests, made for it when it opens and owned by it;
// called only on the connection's strand. Its end is the connection's: whatever
// the connection followed is told then.
class ConnectionRoutes {
public:
    virtual ~ConnectionRoutes() = default;
    // A request the connection may make now: its hello, or any but a ping after one.
    virtual void route(Request request) = 0;
    // A table the connection now follows (Connection::joined).
    virtual void joined(std::shared_ptr<Followed> followed) = 0;
};

// An HTTP answer made above the network layer: JSON, with a few headers of its own.
struct HttpAnswer {
    boost::beast::http::status status = boost::beast::http::status::ok;
    std::string body;  // JSON
    std::vector<std::pair<boost::beast::http::field, std::string>> headers;  // WWW-Authenticate, Allow, Retry-After, …
};

// The server's, one for all connections; thread-safe.
class Routes {
public:
    using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
    virtual ~Routes() = default;

    virtual std::unique_ptr<ConnectionRoutes> for_connection(Session& session) = 0;

    // The admin API, the one place that takes POST and DELETE (none without an admin token).
    virtual bool is_admin_path(std::string_view path) const = 0;
    // `done` is called once, from whichever strand finished the work.
    virtual void admin(const HttpRequest& request, const std::string& client, std::function<void(HttpAnswer)> done) = 0;
    // GET /api/…: the archive and the ratings. Called on the archive threads.
    virtual HttpAnswer api(const std::string& target) = 0;
    // /metrics: the counters of the parts above the network (open tables, the store, the webhook).
    virtual std::string metrics_text(std::int64_t sessions_open) = 0;
};

}  // namespace sparts::server
