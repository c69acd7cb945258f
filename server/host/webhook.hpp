// The game-over webhook: when the host sets --webhook-url, each finished game's
// summary (a JSON text the caller renders) is POSTed to that URL, signed, and
// retried with backoff until the receiver takes it or the attempts run out.
// It never holds up a table: post() only hands the text to the webhook's own
// strand, and the queue there is bounded.
//
// With a database (keep_in()), nothing committed is ever dropped: each
// summary is written to the database's webhook outbox in the commit that ends
// its game (storage::FinishGame::webhook) and forgotten only once the receiver
// took it (2xx) or refused it for good (4xx); a delivery is tried until then,
// at the capped backoff. The queue in memory holds at most queue_capacity of
// them; the rest wait in the database and are read back, oldest first, as the
// queue empties, and so are those a stop or a crash left (on any node). What
// one address's games may cost the receiver is bounded by the deliveries in
// flight at once (concurrency, in all) and by the tables an address may have
// open (--tables-per-address), whose games are the only ones it can finish.
// Without a database (--database none) a full queue gives up its oldest
// delivery, counted, and a delivery is dropped after max_attempts.
//
// Up to `concurrency` deliveries are in flight at once, the oldest first, each
// attempt on a fresh connection (the sender needs no connection pool); with a
// concurrency of 1 a receiver sees the games in the order they finished.
//
// For receivers: what each request holds and how to check it
//
//   POST <path>[?query]                 over http or https, as the URL says
//   Content-Type: application/json
//   User-Agent: sparts-server
//   X-Sparts-Delivery: <32 lower-case hex digits: the first half of the body's SHA-256>
//   X-Sparts-Timestamp: <unix seconds when this attempt was made>
//   X-Sparts-Signature: sha256=<64 lower-case hex digits>
//   (Authorization: Basic ...           only when the URL has user:password@)
//
//   The signature is HMAC-SHA-256, keyed with the shared secret, of the
//   timestamp's decimal text, one '.', and the body exactly as received:
//       hex(HMAC_SHA256(secret, timestamp + "." + body))
//   To accept a request:
//   1. recompute it over the raw body bytes (before any JSON parsing) and
//      compare in constant time (hmac.compare_digest, crypto.timingSafeEqual);
//   2. refuse a timestamp more than a few minutes from your clock: the
//      timestamp is signed precisely so that a recorded request cannot be
//      replayed later (the signature covers it, so it cannot be changed);
//   3. treat X-Sparts-Delivery as an idempotency key: it is the same on every
//      retry of a delivery (a retry may come after you stored the game but
//      before your answer reached the server), and different between
//      deliveries. Within the replay window, refuse or ignore an id seen before.
//   Answer 2xx once the game is stored. A 4xx other than 408 and 429 means
//   "never send this again": the delivery is dropped at once. Anything else
//   (5xx, 408, 429, no answer within the timeout, a refused connection) is
//   tried again after a backoff: 1 s, then doubling, at most 5 min, each ±20%
//   at random so that many servers do not retry in step; on 429 and 503 a
//   Retry-After in seconds is obeyed instead (up to the same 5 min). With a
//   database it is tried until it is taken or refused; without one, after 8
//   attempts the delivery is dropped. Redirects are not followed.
//
// An https URL's certificate is checked against the system's trusted roots,
// and its name against the URL's host (SNI is sent for a host name).
//
// Logged at warn: each delivery given up (refused, out of attempts, or pushed
// out of a full queue, the latter at most every 10 s). The log names the URL
// without its user:password@ and its query (either may hold a credential); the
// secret is never logged.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <boost/asio/any_io_executor.hpp>

namespace sparts::server {

struct WebhookLimits {
    std::size_t queue_capacity = 1000;                     // deliveries held, the one being tried included
    int max_attempts = 8;                                  // per delivery, the first included
    std::chrono::milliseconds first_backoff{1000};         // doubled after each failed attempt...
    std::chrono::milliseconds max_backoff{5 * 60 * 1000};  // ...up to this (Retry-After too), then ±20%
    std::chrono::milliseconds attempt_timeout{10000};      // resolve, connect, TLS, send, answer's header
    std::size_t concurrency = 1;                           // deliveries in flight at once
};

// A summary kept in the outbox and not delivered yet.
struct WebhookPending {
    std::string table;
    int game = 0;
    std::string body;
};

// Where summaries wait until they are delivered: the store's webhook outbox.
struct WebhookOutbox {
    // The oldest `limit` summaries not delivered yet; blocks, and runs on `reader`.
    std::function<std::vector<WebhookPending>(std::size_t limit)> load;
    // Forgets a summary delivered or refused; `stored` runs (on any thread) once that is committed.
    std::function<void(const std::string& table, int game, std::function<void()> stored)> forget;
    boost::asio::any_io_executor reader;
};

// The parts of a webhook URL, as parse_webhook_url finds them.
struct WebhookUrl {
    bool tls = false;      // https
    std::string userinfo;  // "user:password", percent-decoded; sent as Basic authorization
    std::string host;      // a name or an address (an IPv6 one without its brackets)
    std::string port;      // always set: 80 or 443 if the URL has none
    std::string target;    // path and query: what the request line carries
    std::string redacted;  // scheme://host[:port]/path: what the log may show
};

// Throws std::invalid_argument naming --webhook-url when `url` is not an
// absolute http:// or https:// URL with a host.
WebhookUrl parse_webhook_url(std::string_view url);

class GameOverWebhook {
public:
    // Starts nothing: the first post() does. Throws std::invalid_argument for a
    // bad URL (naming --webhook-url), an empty secret (naming --webhook-secret)
    // or a limit out of range, so that a misconfigured server stops at start-up.
    GameOverWebhook(boost::asio::any_io_executor executor, std::string_view url, std::string secret,
                    WebhookLimits limits = {});
    // Stops (see stop()); deliveries not made by then are lost. The handlers in
    // flight keep what they use alive, but the io_context must outlive this.
    ~GameOverWebhook();
    GameOverWebhook(const GameOverWebhook&) = delete;
    GameOverWebhook& operator=(const GameOverWebhook&) = delete;

    // From any thread; returns at once and never throws for a full queue. A summary of `table`'s `game`
    // already kept in the outbox (FinishGame::webhook) names them; one not kept anywhere names none.
    void post(std::string body);
    void post(std::string table, int game, std::string body);
    // From any thread, once, before the first post that names a game: summaries are kept in `outbox` until
    // delivered, and those a last run left there are delivered now.
    void keep_in(WebhookOutbox outbox);
    // From any thread: cancels the backoff wait and the attempt in flight and
    // takes no more posts, so that the executor's io_context runs out of work.
    void stop();

    // From any thread.
    std::uint64_t delivered() const;     // answered 2xx
    std::uint64_t retried() const;       // failed attempts that were followed by a wait and another try
    std::uint64_t failed() const;        // dropped: refused with a 4xx, or out of attempts
    std::uint64_t dropped_full() const;  // pushed out of a full queue, never delivered
    std::size_t queued() const;          // held: waiting, or being tried
    // The counters above in Prometheus' text format, for /metrics.
    std::string metrics_text() const;

private:
    struct State;  // everything the strand owns (webhook.cpp)
    std::shared_ptr<State> state_;
};

}  // namespace sparts::server
