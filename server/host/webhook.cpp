#include "server/host/webhook.hpp"
#include "server/base/http_text.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <set>
#include <vector>
#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <spdlog/spdlog.h>
#include "protocol/sha256.hpp"
#include "server/base/secret.hpp"

// Asio's TLS code, compiled here once: sparts::asio (net/asio_beast.cpp) compiles
// the rest of Asio without it, so that only the server, the one user of TLS,
// links OpenSSL's libssl. Should another target need TLS, this line moves there.
#include <boost/asio/ssl/impl/src.hpp>

namespace sparts::server {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

constexpr char kHex[] = "0123456789abcdef";

[[noreturn]] void bad_url(std::string_view why) {
    throw std::invalid_argument("--webhook-url: " + std::string(why));
}

// Bytes a request line or Host header may not carry: they would split or end it.
bool has_control_or_space(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u <= 0x20 || u == 0x7f;
    });
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string base64(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

// The value of X-Sparts-Signature: the scheme's name first, so that a receiver
// can tell it from another should the scheme ever change.
std::string signature(const std::string& secret, const std::string& timestamp, const std::string& body) {
    const std::string signed_text = timestamp + "." + body;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (!HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
              reinterpret_cast<const unsigned char*>(signed_text.data()), signed_text.size(), mac, &size))
        throw std::runtime_error("webhook: OpenSSL's HMAC failed");
    std::string out = "sha256=";
    for (unsigned int i = 0; i < size; ++i) {
        out += kHex[mac[i] >> 4];
        out += kHex[mac[i] & 15];
    }
    return out;
}

// Retry-After as delta-seconds; the HTTP-date form (rare from an API) is left
// to the backoff rather than parsed.
std::optional<std::chrono::seconds> retry_after_seconds(std::string_view value) {
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (value.empty() || value.size() > 9) return std::nullopt;  // 9 digits: over 30 years, past any cap
    std::int64_t seconds = 0;
    for (const char c : value) {
        if (c < '0' || c > '9') return std::nullopt;
        seconds = seconds * 10 + (c - '0');
    }
    return std::chrono::seconds(seconds);
}

bool is_address(const std::string& host) {
    boost::system::error_code ec;
    net::ip::make_address(host, ec);
    return !ec;
}

}  // namespace

WebhookUrl parse_webhook_url(std::string_view url) {
    WebhookUrl out;
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos) bad_url("not an absolute URL (http://host/path or https://host/path)");
    const std::string scheme = lower(url.substr(0, scheme_end));
    if (scheme == "https") out.tls = true;
    else if (scheme != "http") bad_url("the scheme must be http or https, not '" + scheme + "'");
    std::string_view rest = url.substr(scheme_end + 3);
    if (const auto fragment = rest.find('#'); fragment != std::string_view::npos) rest = rest.substr(0, fragment);

    const auto authority_end = rest.find_first_of("/?");
    std::string_view authority = rest.substr(0, authority_end);
    std::string_view path_and_query = authority_end == std::string_view::npos ? "" : rest.substr(authority_end);

    if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
        auto userinfo = percent_decoded(authority.substr(0, at), false);
        if (!userinfo) bad_url("a bad %-escape in the user information");
        out.userinfo = std::move(*userinfo);
        authority = authority.substr(at + 1);
    }
    std::string_view host, port;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) bad_url("an IPv6 address without its closing ']'");
        host = authority.substr(1, close - 1);
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty() && after.front() != ':')
            bad_url("something after the IPv6 address's ']' that is not a port");
        if (!after.empty()) port = after.substr(1);
        boost::system::error_code ec;
        net::ip::make_address_v6(std::string(host), ec);
        if (ec) bad_url("'" + std::string(host) + "' is not an IPv6 address");
    } else {
        const auto colon = authority.find(':');
        host = authority.substr(0, colon);
        if (colon != std::string_view::npos) port = authority.substr(colon + 1);
        const bool host_ok = std::all_of(host.begin(), host.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                   c == '.' || c == '_' || c == '~';
        });
        if (!host_ok) bad_url("the host '" + std::string(host) + "' holds a character a host name may not");
    }
    if (host.empty()) bad_url("no host");
    out.host = std::string(host);

    const std::string default_port = out.tls ? "443" : "80";
    if (port.empty()) {
        out.port = default_port;
    } else {
        if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
            bad_url("the port '" + std::string(port) + "' is not a number");
        const int number = std::stoi(std::string(port));
        if (number < 1 || number > 65535) bad_url("the port " + std::string(port) + " is not within 1-65535");
        out.port = std::to_string(number);
    }

    if (has_control_or_space(path_and_query)) bad_url("the path holds a space or a control character");
    out.target = path_and_query.empty() || path_and_query.front() == '?' ? "/" + std::string(path_and_query)
                                                                         : std::string(path_and_query);
    const std::string bracketed = out.host.find(':') != std::string::npos ? "[" + out.host + "]" : out.host;
    out.redacted = scheme + "://" + bracketed + (port.empty() ? "" : ":" + out.port) +
                   out.target.substr(0, out.target.find('?'));
    return out;
}

namespace {

struct Delivery {
    std::string table;  // the outbox's key with `game` (empty without an outbox)
    int game = 0;
    std::string id;     // the same on every attempt, and after a restart: the receiver's idempotency key
    std::string body;
    int attempts = 0;
    bool active = false;  // being tried, or waiting out a backoff
};

// One try of one delivery: its own connection, deadline and buffers, so that an
// abandoned try (timed out, stopped, pushed out) can finish cancelling on its
// own while the next one starts afresh.
struct Attempt {
    Attempt(const net::strand<net::any_io_executor>& strand, ssl::context* tls_context)
        : resolver(strand), deadline(strand) {
        if (tls_context) tls.emplace(strand, *tls_context);
        else plain.emplace(strand);
    }

    beast::tcp_stream& tcp() { return tls ? beast::get_lowest_layer(*tls) : *plain; }

    template <class F>
    void with_stream(F&& f) {
        if (tls) f(*tls);
        else f(*plain);
    }

    void cancel() {
        resolver.cancel();
        deadline.cancel();
        boost::system::error_code ignored;
        tcp().socket().close(ignored);
    }

    tcp::resolver resolver;
    net::steady_timer deadline;
    std::optional<beast::tcp_stream> plain;
    std::optional<beast::ssl_stream<beast::tcp_stream>> tls;
    http::request<http::string_body> request;
    beast::flat_buffer buffer;
    // Only the answer's header is read: the status and Retry-After are all that
    // matter, and a receiver's body (of any size) then costs nothing.
    http::response_parser<http::empty_body> parser;
};

// A delivery while it is active: its attempt in flight or its backoff timer.
struct Slot {
    explicit Slot(const net::strand<net::any_io_executor>& strand) : backoff(strand) {}
    std::shared_ptr<Delivery> delivery;
    std::shared_ptr<Attempt> attempt;
    net::steady_timer backoff;
    bool waiting = false;
    std::uint64_t wait_serial = 0;
};

// The delivery id: the first 128 bits of the body's SHA-256, so that it is the same on every retry, on any node
// and after a restart, and differs between games (a summary names its table, game, time and deal).
std::string delivery_id(const std::string& body) { return sha256_hex(body).substr(0, 32); }

}  // namespace

struct GameOverWebhook::State : std::enable_shared_from_this<GameOverWebhook::State> {
    State(net::any_io_executor executor, WebhookUrl parsed, std::string key, WebhookLimits lim)
        : strand(net::make_strand(std::move(executor))),
          url(std::move(parsed)),
          secret(std::move(key)),
          limits(lim),
          jitter(std::random_device{}()) {
        host_header = url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
        if (url.port != (url.tls ? "443" : "80")) host_header += ":" + url.port;
        if (!url.userinfo.empty()) authorization = "Basic " + base64(url.userinfo);
        if (url.tls) {
            tls_context.emplace(ssl::context::tls_client);
            tls_context->set_default_verify_paths();
            tls_context->set_verify_mode(ssl::verify_peer);
            SSL_CTX_set_min_proto_version(tls_context->native_handle(), TLS1_2_VERSION);
        }
    }

    using Key = std::pair<std::string, int>;

    void enqueue(std::string table, int game, std::string body) {
        if (stopped) return;
        if (!table.empty() && known.count({table, game})) return;  // already held, or being forgotten
        if (queue.size() >= limits.queue_capacity) {
            // Kept in the outbox: read back once the queue has room. Without one, the oldest goes.
            if (outbox && !table.empty()) {
                backlog = true;
                return;
            }
            drop_oldest();
        }
        auto d = std::make_shared<Delivery>(Delivery{std::move(table), game, {}, std::move(body), 0, false});
        d->id = delivery_id(d->body);
        if (!d->table.empty()) known.insert({d->table, d->game});
        queue.push_back(std::move(d));
        queued_count.store(queue.size());
        fill();
    }

    // Starts deliveries, oldest first, until `concurrency` are active.
    void fill() {
        if (stopped) return;
        for (const auto& d : queue) {
            if (slots.size() >= limits.concurrency) break;
            if (d->active) continue;
            d->active = true;
            auto slot = std::make_shared<Slot>(strand);
            slot->delivery = d;
            slots.push_back(slot);
            start_attempt(slot);
        }
    }

    // Without an outbox, a full queue gives up its oldest delivery: it has had the most chances, and keeping
    // the newest games is what a receiver that comes back wants.
    void drop_oldest() {
        const std::shared_ptr<Delivery> oldest = queue.front();
        ++drops_since_log;
        const auto now = std::chrono::steady_clock::now();
        const bool never_logged = last_drop_log == std::chrono::steady_clock::time_point{};
        if (never_logged || now - last_drop_log >= std::chrono::seconds(10)) {
            spdlog::warn("webhook {}: the queue is full ({} deliveries): dropped the oldest, {} ({} dropped since the "
                         "last report)",
                         url.redacted, limits.queue_capacity, oldest->id, drops_since_log);
            drops_since_log = 0;
            last_drop_log = now;
        }
        if (auto slot = slot_of(oldest)) release(slot);
        queue.pop_front();
        queued_count.store(queue.size());
        dropped_full_count.fetch_add(1);
    }

    std::shared_ptr<Slot> slot_of(const std::shared_ptr<Delivery>& d) {
        for (const auto& s : slots)
            if (s->delivery == d) return s;
        return nullptr;
    }

    // Ends whatever the slot is doing and frees it.
    void release(const std::shared_ptr<Slot>& slot) {
        if (slot->attempt) {
            slot->attempt->cancel();
            slot->attempt.reset();
        }
        slot->waiting = false;
        slot->backoff.cancel();
        slot->delivery->active = false;
        std::erase(slots, slot);
    }

    void start_attempt(const std::shared_ptr<Slot>& slot) {
        Delivery& delivery = *slot->delivery;
        ++delivery.attempts;
        auto a = std::make_shared<Attempt>(strand, tls_context ? &*tls_context : nullptr);
        slot->attempt = a;

        const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
        const std::string timestamp = std::to_string(seconds);
        auto& req = a->request;
        req.method(http::verb::post);
        req.target(url.target);
        req.version(11);
        req.set(http::field::host, host_header);
        req.set(http::field::content_type, "application/json");
        req.set(http::field::user_agent, "sparts-server");
        if (!authorization.empty()) req.set(http::field::authorization, authorization);
        req.set("X-Sparts-Delivery", delivery.id);
        req.set("X-Sparts-Timestamp", timestamp);
        req.set("X-Sparts-Signature", signature(secret, timestamp, delivery.body));
        req.keep_alive(false);
        req.body() = delivery.body;
        req.prepare_payload();

        a->deadline.expires_after(limits.attempt_timeout);
        a->deadline.async_wait([self = shared_from_this(), slot, a](boost::system::error_code ec) {
            if (ec || a != slot->attempt) return;
            self->attempt_failed(slot, fmt::format("no answer within {} ms", self->limits.attempt_timeout.count()));
        });
        a->resolver.async_resolve(url.host, url.port,
                                  [self = shared_from_this(), slot, a](boost::system::error_code ec,
                                                                       tcp::resolver::results_type r) {
                                      self->on_resolve(slot, a, ec, std::move(r));
                                  });
    }

    void on_resolve(const std::shared_ptr<Slot>& slot, const std::shared_ptr<Attempt>& a, boost::system::error_code ec,
                    tcp::resolver::results_type results) {
        if (a != slot->attempt) return;
        if (ec) return attempt_failed(slot, "resolving " + url.host + ": " + ec.message());
        a->tcp().async_connect(results, [self = shared_from_this(), slot, a](boost::system::error_code e,
                                                                             const tcp::endpoint&) {
            self->on_connect(slot, a, e);
        });
    }

    void on_connect(const std::shared_ptr<Slot>& slot, const std::shared_ptr<Attempt>& a, boost::system::error_code ec) {
        if (a != slot->attempt) return;
        if (ec) return attempt_failed(slot, "connecting: " + ec.message());
        if (!a->tls) return send(slot, a);
        // SNI names the host so that a server with many names picks the right
        // certificate; an address may not be sent as a name (RFC 6066).
        if (!is_address(url.host) && !SSL_set_tlsext_host_name(a->tls->native_handle(), url.host.c_str()))
            return attempt_failed(slot, "TLS: could not set the server name");
        a->tls->set_verify_callback(ssl::host_name_verification(url.host));
        a->tls->async_handshake(ssl::stream_base::client,
                                [self = shared_from_this(), slot, a](boost::system::error_code e) {
                                    if (a != slot->attempt) return;
                                    if (e) return self->attempt_failed(slot, "TLS handshake: " + e.message());
                                    self->send(slot, a);
                                });
    }

    void send(const std::shared_ptr<Slot>& slot, const std::shared_ptr<Attempt>& a) {
        a->with_stream([&](auto& stream) {
            http::async_write(stream, a->request,
                              [self = shared_from_this(), slot, a](boost::system::error_code ec, std::size_t) {
                                  if (a != slot->attempt) return;
                                  if (ec) return self->attempt_failed(slot, "sending: " + ec.message());
                                  self->read_answer(slot, a);
                              });
        });
    }

    void read_answer(const std::shared_ptr<Slot>& slot, const std::shared_ptr<Attempt>& a) {
        a->with_stream([&](auto& stream) {
            http::async_read_header(stream, a->buffer, a->parser,
                                    [self = shared_from_this(), slot, a](boost::system::error_code ec, std::size_t) {
                                        if (a != slot->attempt) return;
                                        if (ec) return self->attempt_failed(slot, "reading the answer: " + ec.message());
                                        self->on_answer(slot, a);
                                    });
        });
    }

    void on_answer(const std::shared_ptr<Slot>& slot, const std::shared_ptr<Attempt>& a) {
        const auto& res = a->parser.get();
        const unsigned status = res.result_int();
        std::optional<std::chrono::seconds> retry_after;
        if (status == 429 || status == 503) retry_after = retry_after_seconds(res[http::field::retry_after]);
        // Closed rather than shut down: the answer is in, and a TLS close_notify
        // would only cost the receiver a round trip it has no use for.
        end_attempt(slot);
        if (status >= 200 && status < 300) return finish(slot, delivered_count);
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
            spdlog::warn("webhook {}: delivery {} refused with HTTP {}: dropped, not tried again", url.redacted,
                         slot->delivery->id, status);
            return finish(slot, failed_count);
        }
        retry_later(slot, fmt::format("HTTP {}", status), retry_after);
    }

    void attempt_failed(const std::shared_ptr<Slot>& slot, const std::string& why) {
        end_attempt(slot);
        retry_later(slot, why, std::nullopt);
    }

    void end_attempt(const std::shared_ptr<Slot>& slot) {
        slot->attempt->cancel();
        slot->attempt.reset();
    }

    void retry_later(const std::shared_ptr<Slot>& slot, const std::string& why,
                     std::optional<std::chrono::seconds> retry_after) {
        Delivery& delivery = *slot->delivery;
        // Kept in the outbox, a delivery is tried until the receiver takes it or refuses it: nothing committed is
        // dropped for a receiver that is down. Without one, it is given up after its last attempt.
        if (!durable(delivery) && delivery.attempts >= limits.max_attempts) {
            spdlog::warn("webhook {}: delivery {} dropped after {} attempt{}; the last: {}", url.redacted, delivery.id,
                         delivery.attempts, delivery.attempts == 1 ? "" : "s", why);
            return finish(slot, failed_count);
        }
        const auto delay = retry_after ? std::min<std::chrono::milliseconds>(*retry_after, limits.max_backoff)
                                       : backoff(delivery.attempts);
        spdlog::debug("webhook {}: delivery {} attempt {} failed ({}); next in {} ms", url.redacted, delivery.id,
                      delivery.attempts, why, delay.count());
        retried_count.fetch_add(1);
        slot->waiting = true;
        const std::uint64_t serial = ++slot->wait_serial;
        slot->backoff.expires_after(delay);
        slot->backoff.async_wait([self = shared_from_this(), slot, serial](boost::system::error_code ec) {
            // The serial tells this wait from a later one: a wait cancelled (the delivery
            // pushed out) after its time had already come still completes without an error.
            if (ec || !slot->waiting || serial != slot->wait_serial || self->stopped) return;
            slot->waiting = false;
            self->start_attempt(slot);
        });
    }

    bool durable(const Delivery& d) const { return outbox.has_value() && !d.table.empty(); }

    // first_backoff doubled for each failed attempt, capped, then spread by ±20%
    // (after the cap, so that servers waiting the longest do not retry in step).
    std::chrono::milliseconds backoff(int failed_attempts) {
        const double doubled = static_cast<double>(limits.first_backoff.count()) * std::exp2(std::min(failed_attempts, 60) - 1);
        const double capped = std::min(doubled, static_cast<double>(limits.max_backoff.count()));
        const double spread = std::uniform_real_distribution<double>(0.8, 1.2)(jitter);
        return std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(capped * spread)));
    }

    // Delivered, or given up: out of the queue (and, kept in the outbox, out of it too), and the next one starts.
    // The counter after the queue: a reader that sees the delivery counted sees it gone.
    void finish(const std::shared_ptr<Slot>& slot, std::atomic<std::uint64_t>& outcome) {
        const std::shared_ptr<Delivery> d = slot->delivery;
        release(slot);
        std::erase(queue, d);
        queued_count.store(queue.size());
        outcome.fetch_add(1);
        if (durable(*d)) {
            // Known until the outbox has forgotten it, so that a read of the outbox meanwhile does not bring it back.
            outbox->forget(d->table, d->game, [weak = weak_from_this(), key = Key{d->table, d->game}] {
                if (auto self = weak.lock())
                    net::post(self->strand, [self, key] {
                        // A read under way may have begun before the removal was committed, and may bring the
                        // summary back: it stays known until that read's rows are in.
                        if (self->loading)
                            self->forgotten_while_loading.push_back(key);
                        else
                            self->known.erase(key);
                        self->load_more();
                    });
            });
        } else if (!d->table.empty()) {
            known.erase({d->table, d->game});
        }
        fill();
        load_more();
    }

    // Reads the outbox again when deliveries wait there and the queue has room for them.
    void load_more() {
        if (!outbox || !backlog || loading || stopped || queue.size() > limits.queue_capacity / 2) return;
        loading = true;
        backlog = false;  // set again by a post the queue has no room for while this read runs
        const std::size_t limit = limits.queue_capacity + known.size();
        net::post(outbox->reader, [self = shared_from_this(), limit] {
            std::vector<WebhookPending> rows;
            bool failed = false;
            try {
                rows = self->outbox->load(limit);
            } catch (const std::exception& e) {
                failed = true;
                spdlog::error("webhook {}: cannot read the undelivered summaries: {}", self->url.redacted, e.what());
            }
            net::post(self->strand, [self, rows = std::move(rows), limit, failed]() mutable {
                self->loading = false;
                if (failed || rows.size() >= limit) self->backlog = true;
                for (WebhookPending& r : rows) {
                    if (self->known.count({r.table, r.game})) continue;
                    if (self->queue.size() >= self->limits.queue_capacity) {
                        self->backlog = true;
                        break;
                    }
                    self->enqueue(std::move(r.table), r.game, std::move(r.body));
                }
                for (const Key& key : self->forgotten_while_loading) self->known.erase(key);
                self->forgotten_while_loading.clear();
                if (failed) {
                    // Tried again in a while rather than at once: the database may be down.
                    self->retry_load.expires_after(std::chrono::seconds(5));
                    self->retry_load.async_wait([self](boost::system::error_code ec) {
                        if (!ec) self->load_more();
                    });
                }
            });
        });
    }

    void halt() {
        if (stopped) return;
        stopped = true;
        while (!slots.empty()) release(slots.front());
        retry_load.cancel();
        if (!queue.empty())
            spdlog::warn("webhook {}: stopped with {} deliveries not made{}", url.redacted, queue.size(),
                         outbox ? " (kept in the database: delivered after the next start)" : "");
    }

    net::strand<net::any_io_executor> strand;
    const WebhookUrl url;
    const std::string secret;
    const WebhookLimits limits;
    std::string host_header;
    std::string authorization;
    std::optional<ssl::context> tls_context;

    // Owned by the strand.
    std::optional<WebhookOutbox> outbox;
    std::deque<std::shared_ptr<Delivery>> queue;  // in the order posted; the active ones have a slot
    std::vector<std::shared_ptr<Slot>> slots;
    std::set<Key> known;   // the outbox's keys in the queue, or being forgotten
    std::vector<Key> forgotten_while_loading;  // forgotten, and known until the read under way is in
    bool backlog = false;  // the outbox may hold deliveries the queue does not
    bool loading = false;
    net::steady_timer retry_load{strand};
    bool stopped = false;
    std::mt19937 jitter;
    std::chrono::steady_clock::time_point last_drop_log{};
    std::uint64_t drops_since_log = 0;

    // Read from any thread.
    std::atomic<std::uint64_t> delivered_count{0};
    std::atomic<std::uint64_t> retried_count{0};
    std::atomic<std::uint64_t> failed_count{0};
    std::atomic<std::uint64_t> dropped_full_count{0};
    std::atomic<std::size_t> queued_count{0};
};

GameOverWebhook::GameOverWebhook(net::any_io_executor executor, std::string_view url, std::string secret,
                                 WebhookLimits limits) {
    WebhookUrl parsed = parse_webhook_url(url);
    if (secret.empty()) throw std::invalid_argument("--webhook-secret: must not be empty when --webhook-url is set");
    if (limits.queue_capacity < 1) throw std::invalid_argument("webhook: the queue capacity must be at least 1");
    if (limits.max_attempts < 1) throw std::invalid_argument("webhook: the attempts must be at least 1");
    if (limits.first_backoff.count() < 1 || limits.max_backoff < limits.first_backoff)
        throw std::invalid_argument("webhook: the backoff must be positive and its cap no less than its start");
    if (limits.attempt_timeout.count() < 1)
        throw std::invalid_argument("webhook: the attempt timeout must be positive");
    if (limits.concurrency < 1) throw std::invalid_argument("webhook: the concurrency must be at least 1");
    state_ = std::make_shared<State>(std::move(executor), std::move(parsed), std::move(secret), limits);
}

GameOverWebhook::~GameOverWebhook() { stop(); }

void GameOverWebhook::post(std::string body) { post({}, 0, std::move(body)); }

void GameOverWebhook::post(std::string table, int game, std::string body) {
    net::post(state_->strand, [state = state_, table = std::move(table), game, body = std::move(body)]() mutable {
        state->enqueue(std::move(table), game, std::move(body));
    });
}

void GameOverWebhook::keep_in(WebhookOutbox outbox) {
    net::post(state_->strand, [state = state_, outbox = std::move(outbox)]() mutable {
        state->outbox = std::move(outbox);
        state->backlog = true;  // what the last run left undelivered
        state->load_more();
    });
}

void GameOverWebhook::stop() {
    net::post(state_->strand, [state = state_] { state->halt(); });
}

std::uint64_t GameOverWebhook::delivered() const { return state_->delivered_count.load(); }
std::uint64_t GameOverWebhook::retried() const { return state_->retried_count.load(); }
std::uint64_t GameOverWebhook::failed() const { return state_->failed_count.load(); }
std::uint64_t GameOverWebhook::dropped_full() const {
    return state_->dropped_full_count.load();
}
std::size_t GameOverWebhook::queued() const { return state_->queued_count.load(); }

std::string GameOverWebhook::metrics_text() const {
    std::string out;
    const auto counter = [&](const char* name, const char* help, std::uint64_t value) {
        out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name + " " +
               std::to_string(value) + "\n";
    };
    counter("sparts_webhook_delivered_total", "Game-over webhook deliveries answered with a 2xx.", delivered());
    counter("sparts_webhook_retries_total", "Game-over webhook attempts that failed and were tried again.", retried());
    counter("sparts_webhook_failed_total", "Game-over webhook deliveries given up (a 4xx, or out of attempts).", failed());
    counter("sparts_webhook_dropped_total",
            "Game-over webhook deliveries pushed out of a full queue (never with a database: they wait in it).",
            dropped_full());
    out += "# HELP sparts_webhook_queued Game-over webhook deliveries waiting or being tried.\n"
           "# TYPE sparts_webhook_queued gauge\nsparts_webhook_queued " + std::to_string(queued()) + "\n";
    return out;
}

}  // namespace sparts::server
