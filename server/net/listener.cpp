#include "server/net/listener.hpp"

#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>
#include "server/net/client_address.hpp"
#include "server/net/http_session.hpp"

namespace sparts::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

Listener::Listener(Hub& hub, const tcp::endpoint& endpoint)
    : hub_(hub), acceptor_(net::make_strand(hub.io)), retry_timer_(acceptor_.get_executor()) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(net::socket_base::max_listen_connections);
}

void Listener::run() { do_accept(); }

void Listener::stop() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
        boost::system::error_code ignored;
        self->acceptor_.close(ignored);
        self->retry_timer_.cancel();
    });
}

void Listener::do_accept() {
    acceptor_.async_accept(net::make_strand(hub_.io),
                           [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
                               self->on_accept(ec, std::move(socket));
                           });
}

void Listener::on_accept(boost::system::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) return back_off(ec);
    delay_ = std::chrono::milliseconds(0);
    socket.set_option(tcp::no_delay(true), ec);
    boost::system::error_code peer_ec;
    const auto peer = socket.remote_endpoint(peer_ec);
    if (!peer_ec) {
        const std::string address = peer.address().to_string();
        const std::string key = address_key(address);
        // A trusted proxy's connection counts in the total only: its clients are told apart by X-Forwarded-For,
        // or by the PROXY header HttpSession reads first (which then counts it against the client's address).
        const bool proxy = hub_.trusted_proxies.trusts(address);
        Ticket ticket = hub_.stopping ? Ticket{} : hub_.connections.admit(proxy ? std::string() : key);
        if (ticket) {
            std::make_shared<HttpSession>(std::move(socket), hub_, address, std::move(ticket))->run();
        } else {
            hub_.metrics.refused_connections.fetch_add(1, std::memory_order_relaxed);
            // Refused with a word (503, or WebSocket close 4003): few refusals are in flight, the
            // oldest still silent giving way to this one; with none silent, the connection is closed.
            if (Ticket refusal = hub_.connections.refusal())
                std::make_shared<HttpSession>(std::move(socket), hub_, address, std::move(refusal))->run();
        }
    }
    do_accept();
}

void Listener::back_off(const boost::system::error_code& ec) {
    hub_.metrics.accept_errors.fetch_add(1, std::memory_order_relaxed);
    ++failures_since_log_;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_log_ >= std::chrono::seconds(10)) {
        spdlog::warn("accept: {} ({} failures in a row since the last report); retrying after a pause", ec.message(),
                     failures_since_log_);
        failures_since_log_ = 0;
        last_log_ = now;
    }
    delay_ = std::min<std::chrono::milliseconds>(std::chrono::milliseconds(1000),
                                                 std::max<std::chrono::milliseconds>(std::chrono::milliseconds(10), delay_ * 2));
    retry_timer_.expires_after(delay_);
    retry_timer_.async_wait([self = shared_from_this()](boost::system::error_code e) {
        if (!e && self->acceptor_.is_open()) self->do_accept();
    });
}

}  // namespace sparts::server
