// A webhook receiver for the tests: a small Beast HTTP (or HTTPS) server on
// 127.0.0.1, on a thread of its own, that answers from a script and records
// every request it gets; and the signature a receiver checks, recomputed with
// libcrypto.
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <doctest/doctest.h>

namespace sparts::test {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

// What the receiver answers one request with.
struct Reply {
    Reply(unsigned s = 200, std::string after = "") : status(s), retry_after(std::move(after)) {}
    static Reply silent() {
        Reply r;
        r.hang = true;
        return r;
    }
    unsigned status = 200;
    std::string retry_after;  // sent when not empty
    bool hang = false;        // read the request, never answer
};

struct Received {
    std::chrono::steady_clock::time_point at;
    std::string method, target, content_type, user_agent, authorization;
    std::string delivery, timestamp, signature, body;
};

class Receiver {
public:
    // `script` answers the first requests in turn, `otherwise` the rest. With
    // `tls`, each connection is a TLS server with that context.
    explicit Receiver(std::vector<Reply> script, Reply otherwise = {}, ssl::context* tls = nullptr)
        : script_(script.begin(), script.end()), otherwise_(otherwise), tls_(tls),
          acceptor_(io_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
        accept();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~Receiver() {
        io_.stop();
        thread_.join();
    }

    unsigned short port() const { return acceptor_.local_endpoint().port(); }
    std::string url(const std::string& path = "/hook") const {
        return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port()) + path;
    }

    std::vector<Received> received() const {
        std::lock_guard lock(mutex_);
        return received_;
    }
    // True once `count` requests have come (false only after a minute: a hang).
    bool wait_for(std::size_t count) const {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, 60s, [&] { return received_.size() >= count; });
    }

private:
    struct Connection {
        explicit Connection(tcp::socket s) : plain(std::move(s)) {}
        tcp::socket& lowest() { return tls ? tls->next_layer() : plain; }
        tcp::socket plain;
        std::optional<ssl::stream<tcp::socket>> tls;  // the socket moved in, for TLS
        beast::flat_buffer buffer;
        http::request<http::string_body> request;
        http::response<http::string_body> response;
    };

    void accept() {
        acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
            if (ec) return;
            auto c = std::make_shared<Connection>(std::move(socket));
            if (tls_) {
                c->tls.emplace(std::move(c->plain), *tls_);
                c->tls->async_handshake(ssl::stream_base::server, [this, c](boost::system::error_code e) {
                    if (!e) read(c);
                });
            } else {
                read(c);
            }
            accept();
        });
    }

    template <class F>
    static void with_stream(Connection& c, F&& f) {
        if (c.tls) f(*c.tls);
        else f(c.plain);
    }

    void read(const std::shared_ptr<Connection>& c) {
        with_stream(*c, [&](auto& stream) {
            http::async_read(stream, c->buffer, c->request, [this, c](boost::system::error_code ec, std::size_t) {
                if (!ec) answer(c);
            });
        });
    }

    void answer(const std::shared_ptr<Connection>& c) {
        const auto& req = c->request;
        Reply reply = otherwise_;
        {
            std::lock_guard lock(mutex_);
            received_.push_back(Received{std::chrono::steady_clock::now(), std::string(req.method_string()), std::string(req.target()),
                                         std::string(req[http::field::content_type]),
                                         std::string(req[http::field::user_agent]),
                                         std::string(req[http::field::authorization]),
                                         std::string(req["X-Sparts-Delivery"]), std::string(req["X-Sparts-Timestamp"]),
                                         std::string(req["X-Sparts-Signature"]), req.body()});
            if (!script_.empty()) {
                reply = script_.front();
                script_.pop_front();
            }
        }
        changed_.notify_all();
        if (reply.hang) {
            held_.push_back(c);  // kept open, never answered
            return;
        }
        c->response = http::response<http::string_body>(static_cast<http::status>(reply.status), 11);
        if (!reply.retry_after.empty()) c->response.set(http::field::retry_after, reply.retry_after);
        c->response.body() = "thanks";
        c->response.prepare_payload();
        with_stream(*c, [&](auto& stream) {
            http::async_write(stream, c->response, [c](boost::system::error_code, std::size_t) {
                boost::system::error_code ignored;
                c->lowest().shutdown(tcp::socket::shutdown_send, ignored);
            });
        });
    }

    net::io_context io_;
    std::deque<Reply> script_;  // under mutex_
    const Reply otherwise_;
    ssl::context* tls_;
    tcp::acceptor acceptor_;
    std::vector<std::shared_ptr<Connection>> held_;  // on io_'s thread
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::vector<Received> received_;
    std::thread thread_;
};


// The signature recomputed here with libcrypto, as a receiver would.
inline std::string expected_signature(const std::string& secret, const std::string& timestamp, const std::string& body) {
    const std::string text = timestamp + "." + body;
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    REQUIRE(HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
                 reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac, &size) != nullptr);
    std::string hex = "sha256=";
    for (unsigned i = 0; i < size; ++i) {
        static constexpr char kDigits[] = "0123456789abcdef";
        hex += kDigits[mac[i] >> 4];
        hex += kDigits[mac[i] & 15];
    }
    return hex;
}

}  // namespace sparts::test
