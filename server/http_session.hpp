// One HTTP connection: answers plain requests (/healthz) and hands a
// WebSocket upgrade on /ws to a Session. Bodies and headers are bounded.
#pragma once
#include <memory>
#include <optional>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include "server/hub.hpp"

namespace sparts::server {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(boost::asio::ip::tcp::socket&& socket, Hub& hub);
    void run();

private:
    void do_read();
    void on_read(boost::beast::error_code ec, std::size_t bytes);
    void on_write(bool close, boost::beast::error_code ec, std::size_t bytes);

    boost::beast::tcp_stream stream_;
    boost::beast::flat_buffer buffer_;
    Hub& hub_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::shared_ptr<void> response_;
};

}  // namespace sparts::server
