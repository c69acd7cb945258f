#include "server/net/session.hpp"
#include "server/base/guarded.hpp"

#include <atomic>
#include <spdlog/spdlog.h>
#include "protocol/reply.hpp"

namespace sparts::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;

namespace {
std::atomic<std::uint64_t> next_serial{1};

bool quiet(beast::error_code ec) {
    return ec == websocket::error::closed || ec == net::error::operation_aborted || ec == net::error::eof ||
           ec == beast::error::timeout || ec == net::error::connection_reset || ec == net::error::broken_pipe;
}
}  // namespace

Session::Session(net::ip::tcp::socket&& socket, Hub& hub, std::string address, Ticket ticket)
    : ws_(std::move(socket)),
      hub_(hub),
      address_(std::move(address)),
      ticket_(std::move(ticket)),
      admitted_(ticket_.admitted()),
      serial_(next_serial++),
      rate_(hub.config.messages_per_second),
      chat_rate_(hub.config.chat_per_minute / 60.0, hub.config.chat_burst),
      hello_timer_(ws_.get_executor()),
      kill_timer_(ws_.get_executor()) {}

Session::~Session() {
    // First: its replay stops, and the tables it followed are told to look again (an empty
    // table starts its grace period).
    routes_.reset();
    hub_.sessions.remove(serial_);
}

void Session::run(http::request<http::string_body> upgrade) {
    websocket::stream_base::timeout t = websocket::stream_base::timeout::suggested(beast::role_type::server);
    t.idle_timeout = std::chrono::seconds(hub_.config.idle_timeout_seconds);
    t.keep_alive_pings = true;  // a ping at half the idle time; a pong resets it
    ws_.set_option(t);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "sparts-server"); }));
    ws_.read_message_max(hub_.config.max_frame_bytes);
    ws_.auto_fragment(false);
    ws_.async_accept(upgrade, beast::bind_front_handler(&Session::on_accept, shared_from_this()));
}

void Session::on_accept(beast::error_code ec) {
    if (ec) {
        if (!quiet(ec)) spdlog::debug("session {}: accept: {}", serial_, ec.message());
        return;
    }
    if (!admitted_) {
        on_close(CloseCode::too_many_connections, "too many connections");
        do_read();  // to see the close through
        return;
    }
    hub_.sessions.add(serial_, weak_from_this());
    hub_.metrics.connections_opened.fetch_add(1, std::memory_order_relaxed);
    routes_ = hub_.routes->for_connection(*this);
    if (hub_.stopping) {
        on_close(CloseCode::going_away, "shutting down");
        do_read();
        return;
    }
    hello_timer_.expires_after(std::chrono::seconds(hub_.config.hello_timeout_seconds));
    hello_timer_.async_wait([self = shared_from_this()](beast::error_code e) {
        if (!e && !self->player_) self->on_close(CloseCode::hello_timeout, "no hello in time");
    });
    do_read();
}

void Session::do_read() {
    // A message is read in pieces of kReadPiece bytes: Beast's whole-message read
    // makes room for 1,536 bytes before anything arrives, and a connection waits
    // for its next message most of its life. Requests are a few dozen bytes.
    constexpr std::size_t kReadPiece = 256;
    ws_.async_read_some(buffer_, kReadPiece, beast::bind_front_handler(&Session::on_read, shared_from_this()));
}

void Session::on_read(beast::error_code ec, std::size_t) {
    if (ec) {
        // Beast has already answered an oversized frame with close code 1009.
        if (ec == websocket::error::message_too_big)
            spdlog::info("session {} ({}): frame over {} bytes, closed", serial_, address_,
                         hub_.config.max_frame_bytes);
        else if (!quiet(ec))
            spdlog::debug("session {}: read: {}", serial_, ec.message());
        hello_timer_.cancel();
        kill_timer_.cancel();
        return;
    }
    if (!ws_.is_message_done()) return do_read();  // Beast stops it at read_message_max
    if (closing_) {
        buffer_.consume(buffer_.size());
        return do_read();
    }
    if (!ws_.got_text()) {
        buffer_.consume(buffer_.size());
        send(error_reply({}, {}, "binary_frame", "frames must be text (JSON), not binary"));
        return do_read();
    }
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (buffer_.capacity() > 1024) buffer_.shrink_to_fit();  // a long message's room is not kept
    if (!rate_.allow()) {
        if (++refused_in_a_row_ >= hub_.config.flood_close_after) {
            hub_.metrics.closed_flooding.fetch_add(1, std::memory_order_relaxed);
            on_close(CloseCode::rate_limited, "too many messages");
        } else {
            // Not read as a request, but its id is echoed so that the client knows which one to send again.
            send(error_reply(request_id_of(text), {}, "rate_limited",
                             "more than " + std::to_string(hub_.config.messages_per_second) +
                                 " messages a second: this one was not read"));
        }
        return do_read();
    }
    refused_in_a_row_ = 0;
    // A defect of ours, not the client's: it gets an answer, and the connection goes on.
    guarded(
        hub_.metrics, [&] { handle(text); },
        [&] {
            hello_pending_ = false;
            send(error_reply(request_id_of(text), {}, "internal", "the server failed to handle this request"));
        },
        "session {} ({}): the handler", serial_, address_);
    if (!hello_pending_) do_read();  // after a hello, reading resumes once the lobby has answered
}

void Session::handle(std::string_view text) {
    auto parsed = parse_request(text);
    if (!parsed) {
        hub_.metrics.protocol_errors.fetch_add(1, std::memory_order_relaxed);
        return send(error_reply(parsed.error()));
    }
    Request& r = *parsed;
    const bool is_hello = std::holds_alternative<Hello>(r.body);
    if (is_hello && player_)
        return send(error_reply(r.id, "hello", "already_hello", "this connection has already said hello"));
    if (!is_hello && !player_ && !std::holds_alternative<Ping>(r.body))
        return send(error_reply(r.id, request_type(r.body), "hello_first",
                                "say hello first: {\"type\":\"hello\",\"protocol\":1,\"name\":\"...\"}"));
    // Per connection, so that one talker cannot drown a table's chat; the table never sees what is refused here.
    if (std::holds_alternative<Chat>(r.body) && !chat_rate_.allow()) {
        hub_.metrics.refused_chat.fetch_add(1, std::memory_order_relaxed);
        return send(error_reply(r.id, "chat", "chat_rate_limited",
                                "more than " + std::to_string(hub_.config.chat_burst) + " chat messages at once or " +
                                    std::to_string(hub_.config.chat_per_minute) +
                                    " a minute: this one was not said; wait a little"));
    }
    dispatch(std::move(r));
}

void Session::dispatch(Request r) {
    if (const auto* hello = std::get_if<Hello>(&r.body)) {
        batch_ = hello->batch;
        hello_pending_ = true;  // reading resumes with hello_done()
    }
    routes_->route(std::move(r));
}

void Session::hello_done(PlayerRef player) {
    net::post(ws_.get_executor(), [self = shared_from_this(), player = std::move(player)]() mutable {
        self->hello_pending_ = false;
        if (player) {
            self->player_ = std::move(player);
            self->hello_timer_.cancel();
        }
        self->do_read();
    });
}

void Session::joined(std::shared_ptr<Followed> followed) {
    net::post(ws_.get_executor(), [self = shared_from_this(), followed = std::move(followed)]() mutable {
        if (self->routes_) self->routes_->joined(std::move(followed));
    });
}

void Session::send(Frame frame) {
    net::post(ws_.get_executor(), beast::bind_front_handler(&Session::on_send, shared_from_this(), std::move(frame)));
}

void Session::send(std::vector<Frame> frames) {
    net::post(ws_.get_executor(), [self = shared_from_this(), frames = std::move(frames)]() mutable {
        // All of them queued before the first write, so that a batching client
        // gets a table step's frames in one WebSocket message.
        for (Frame& f : frames)
            if (!self->enqueue(std::move(f))) return;
        if (!self->writing_ && !self->queue_.empty()) self->do_write();
    });
}

void Session::on_send(Frame frame) {
    if (enqueue(std::move(frame)) && !writing_) do_write();
}

bool Session::enqueue(Frame frame) {
    if (closing_) return false;
    queued_bytes_ += frame->size();
    if (queued_bytes_ > hub_.config.write_queue_bytes) {
        spdlog::info("session {} ({}): over {} bytes queued, closed as too slow", serial_, address_,
                     hub_.config.write_queue_bytes);
        // What is queued will never be read in time: drop it, keep only the frame in flight.
        while (queue_.size() > (writing_ ? in_flight_ : 0u)) {
            queued_bytes_ -= queue_.back()->size();
            queue_.pop_back();
        }
        queued_bytes_ -= frame->size();
        hub_.metrics.closed_too_slow.fetch_add(1, std::memory_order_relaxed);
        on_close(CloseCode::too_slow, "too slow reading");
        return false;
    }
    queue_.push_back(std::move(frame));
    hub_.metrics.frames_sent.fetch_add(1, std::memory_order_relaxed);
    return true;
}

void Session::do_write() {
    writing_ = true;
    ws_.text(true);
    if (!batch_ || queue_.size() == 1) {
        in_flight_ = 1;
        ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&Session::on_write, shared_from_this()));
        return;
    }
    // Everything queued, one message a line, in one WebSocket message (and one
    // system call): the client asked for it in its hello. The frames are written
    // where they are, not copied into one string: that string kept the capacity of
    // the longest batch for the connection's life (tens of KiB a connection).
    constexpr std::size_t kMaxJoined = 64 * 1024;
    static constexpr char kNewline = '\n';
    gather_.clear();
    in_flight_ = 0;
    std::size_t joined = 0;
    for (const Frame& f : queue_) {
        if (in_flight_ > 0 && joined + f->size() + 1 > kMaxJoined) break;
        if (in_flight_ > 0) gather_.emplace_back(&kNewline, 1);
        gather_.emplace_back(f->data(), f->size());
        joined += f->size() + (in_flight_ > 0 ? 1 : 0);
        ++in_flight_;
    }
    ws_.async_write(gather_, beast::bind_front_handler(&Session::on_write, shared_from_this()));
}

void Session::on_write(beast::error_code ec, std::size_t) {
    writing_ = false;
    if (ec) {
        if (!quiet(ec)) spdlog::debug("session {}: write: {}", serial_, ec.message());
        queue_.clear();
        queued_bytes_ = 0;
        in_flight_ = 0;
        closed_ = true;
        return;
    }
    for (; in_flight_ > 0; --in_flight_) {
        queued_bytes_ -= queue_.front()->size();
        queue_.pop_front();
    }
    if (gather_.capacity() > 64) std::vector<net::const_buffer>().swap(gather_);  // a long batch's list is not kept
    if (!queue_.empty()) return do_write();
    if (closing_) do_close();
}

void Session::close(CloseCode code, std::string reason) {
    net::post(ws_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
        self->on_close(code, std::move(reason));
    });
}

void Session::on_close(CloseCode code, std::string reason) {
    if (closing_) return;
    closing_ = true;
    close_reason_.code = static_cast<std::uint16_t>(code);
    close_reason_.reason = reason;
    // A reader that does not read may never let the last write finish: it
    // gets a few seconds, then the socket is shut.
    kill_timer_.expires_after(std::chrono::seconds(5));
    kill_timer_.async_wait([self = shared_from_this()](beast::error_code e) {
        if (e) return;
        beast::error_code ignored;
        self->ws_.next_layer().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
        self->ws_.next_layer().close(ignored);
    });
    if (!writing_) do_close();
}

void Session::do_close() {
    if (closed_) return;
    closed_ = true;
    ws_.async_close(close_reason_, [self = shared_from_this()](beast::error_code ec) {
        if (ec && !quiet(ec)) spdlog::debug("session {}: close: {}", self->serial_, ec.message());
    });
}

}  // namespace sparts::server
