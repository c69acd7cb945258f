// Accepts TCP connections, each on a strand of its own, and hands them to an
// HttpSession, counted (connection_limits.hpp) or, over a limit, to be refused.
//
// An accept that fails (out of file descriptors, mostly) would fail again at
// once, since the pending connection stays queued: the listener waits before
// the next try, longer each time up to a second, and logs the failures once
// per interval rather than once each (it used to spin a core and write
// millions of lines).
#pragma once
#include <chrono>
#include <memory>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include "server/net/hub.hpp"

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
    void on_accept(boost::system::error_code ec, boost::asio::ip::tcp::socket socket);
    void back_off(const boost::system::error_code& ec);

    Hub& hub_;
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer retry_timer_;
    std::chrono::milliseconds delay_{0};
    std::uint64_t failures_since_log_ = 0;
    std::chrono::steady_clock::time_point last_log_{};
};

}  // namespace sparts::server
