// Accepts TCP connections, each on a strand of its own, and hands them to an
// HttpSession.
#pragma once
#include <memory>
#include <boost/asio/ip/tcp.hpp>
#include "server/hub.hpp"

namespace sparts::server {

class Listener : public std::enable_shared_from_this<Listener> {
public:
    // Throws on a failure to bind or listen (a start-up failure).
    Listener(Hub& hub, const boost::asio::ip::tcp::endpoint& endpoint);
    void run();
    void stop();
    std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

private:
    void do_accept();
    Hub& hub_;
    boost::asio::ip::tcp::acceptor acceptor_;
};

}  // namespace sparts::server
