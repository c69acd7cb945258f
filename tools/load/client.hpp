// One bot connection of the load generator: a WebSocket client (Boost.Beast)
// that connects, hands every text frame it reads to its owner, and writes what
// it is given in order through one queue. Everything runs on the executor it
// is given (its table's strand), so the owner needs no locks.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>

namespace sparts::load {

using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

// What a client tells its owner. Each is called on the client's strand.
struct ClientOwner {
    virtual ~ClientOwner() = default;
    virtual void on_open(int client) = 0;
    virtual void on_frame(int client, std::string_view text) = 0;
    virtual void on_failed(int client, const std::string& what) = 0;
};

class Client {
public:
    Client(Strand strand, ClientOwner& owner, int index);
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // TCP connect, then the WebSocket handshake on /ws; on_open once it is done.
    void connect(const boost::asio::ip::tcp::endpoint& server, const std::string& host, const std::string& path = "/ws");
    void send(std::string text);
    bool open() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sparts::load
