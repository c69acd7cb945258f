#include "tools/load/client.hpp"

#include <deque>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace sparts::load {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
// The socket's executor is the table's strand itself, not the type-erased
// any_io_executor: every completion skips a virtual dispatch.
using Socket = net::basic_stream_socket<tcp, Strand>;

struct Client::Impl {
    Impl(Strand strand, ClientOwner& o, int i) : ws(Socket(std::move(strand))), owner(o), index(i) {}

    websocket::stream<Socket> ws;
    beast::flat_buffer buffer;
    ClientOwner& owner;
    const int index;
    std::string host;
    std::string path = "/ws";
    std::deque<std::string> queue;
    bool writing = false;
    bool is_open = false;
    bool failed = false;

    void fail(const char* what, beast::error_code ec) {
        if (failed) return;
        failed = true;
        is_open = false;
        std::string why = std::string(what) + ": " + ec.message();
        if (ec == websocket::error::closed)
            why += " (close code " + std::to_string(ws.reason().code) + ", \"" + std::string(ws.reason().reason.c_str()) + "\")";
        owner.on_failed(index, why);
    }

    void connect(const tcp::endpoint& server) {
        ws.next_layer().async_connect(server, [this](beast::error_code ec) {
            if (ec) return fail("connect", ec);
            beast::error_code ignored;
            ws.next_layer().set_option(tcp::no_delay(true), ignored);
            ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
            ws.secure_prng(false);  // masking keys need not be secret here
            ws.auto_fragment(false);
            ws.async_handshake(host, path, [this](beast::error_code e) {
                if (e) return fail("handshake", e);
                ws.text(true);
                is_open = true;
                read();
                owner.on_open(index);
                write();
            });
        });
    }

    void read() {
        ws.async_read(buffer, [this](beast::error_code ec, std::size_t) {
            if (ec) return fail("read", ec);
            const auto data = buffer.cdata();
            // The clients say hello with "batch":true: a message may hold several, one a line.
            std::string_view all(static_cast<const char*>(data.data()), data.size());
            while (!all.empty()) {
                const auto nl = all.find('\n');
                owner.on_frame(index, all.substr(0, nl));
                if (nl == std::string_view::npos) break;
                all.remove_prefix(nl + 1);
            }
            buffer.consume(buffer.size());
            read();
        });
    }

    void write() {
        if (writing || !is_open || queue.empty()) return;
        writing = true;
        ws.async_write(net::buffer(queue.front()), [this](beast::error_code ec, std::size_t) {
            writing = false;
            if (ec) return fail("write", ec);
            queue.pop_front();
            write();
        });
    }
};

Client::Client(Strand strand, ClientOwner& owner, int index)
    : impl_(std::make_unique<Impl>(std::move(strand), owner, index)) {}

Client::~Client() = default;

void Client::connect(const tcp::endpoint& server, const std::string& host, const std::string& path) {
    impl_->host = host;
    impl_->path = path;
    impl_->connect(server);
}

void Client::send(std::string text) {
    impl_->queue.push_back(std::move(text));
    impl_->write();
}

bool Client::open() const { return impl_->is_open; }

}  // namespace sparts::load
