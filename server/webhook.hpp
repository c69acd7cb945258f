// The game-over webhook: when the host sets --webhook-url, each finished game's
// summary (a JSON text the caller renders) is POSTed to that URL, signed, and
// retried with backoff until the receiver takes it or the attempts run out.
// It never holds up a table: post() only hands the text to the webhook's own
// strand, and the queue there is bounded (a full queue gives up its oldest
// delivery, counted, rather than refuse the newest or grow without limit).
//
// Deliveries go one at a time, in the order they were posted, each attempt on
// a fresh connection: a receiver then sees games in the order they finished,
// and the sender needs no connection pool. The next delivery waits until the
// one before it is delivered or given up (refused, out of attempts, or pushed
// out of a full queue: then its attempt in flight or backoff is abandoned).
//
// For receivers: what each request holds and how to check it
//
//   POST <path>[?query]                 over http or https, as the URL says
//   Content-Type: application/json
//   User-Agent: sparts-server
//   X-Sparts-Delivery: <32 lower-case hex digits>
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
//   Retry-After in seconds is obeyed instead (up to the same 5 min). After 8
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
#include <memory>
#include <string>
#include <string_view>
#include <boost/asio/any_io_executor.hpp>

namespace sparts::server {

struct WebhookLimits {
    std::size_t queue_capacity = 1000;                     // deliveries held, the one being tried included
    int max_attempts = 8;                                  // per delivery, the first included
    std::chrono::milliseconds first_backoff{1000};         // doubled after each failed attempt...
    std::chrono::milliseconds max_backoff{5 * 60 * 1000};  // ...up to this (Retry-After too), then ±20%
    std::chrono::milliseconds attempt_timeout{10000};      // resolve, connect, TLS, send, answer's header
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

    // From any thread; returns at once and never throws for a full queue.
    void post(std::string body);
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
