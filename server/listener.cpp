#include "server/listener.hpp"

#include <boost/asio/strand.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <spdlog/spdlog.h>
#include "server/http_session.hpp"

namespace sparts::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

Listener::Listener(Hub& hub, const tcp::endpoint& endpoint) : hub_(hub), acceptor_(net::make_strand(hub.io)) {
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
    });
}

void Listener::do_accept() {
    acceptor_.async_accept(net::make_strand(hub_.io), [self = shared_from_this()](boost::system::error_code ec,
                                                                                  tcp::socket socket) {
        if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
        if (ec) {
            // Out of file descriptors and the like: say so, and keep accepting.
            spdlog::warn("accept: {}", ec.message());
        } else {
            socket.set_option(tcp::no_delay(true), ec);
            std::make_shared<HttpSession>(std::move(socket), self->hub_)->run();
        }
        self->do_accept();
    });
}

}  // namespace sparts::server
