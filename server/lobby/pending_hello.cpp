#include "server/lobby/pending_hello.hpp"

#include <utility>

#include "protocol/reply.hpp"

namespace sparts::server {

PendingHello::PendingHello(std::shared_ptr<Connection> connection, RequestId id, Metrics& metrics)
    : state_(std::make_shared<State>(std::move(connection), std::move(id), metrics)) {}

void PendingHello::refuse(std::string_view code, std::string_view message) {
    if (std::exchange(state_->answered, true)) return;
    state_->connection->send(error_reply(state_->id, "hello", code, message));
    state_->connection->hello_done(nullptr);
}

void PendingHello::welcome(PlayerRef player, std::string ok_text) {
    if (std::exchange(state_->answered, true)) return;
    state_->connection->send(std::move(ok_text));
    state_->connection->hello_done(std::move(player));
}

PendingHello::State::~State() {
    if (answered || !connection) return;
    metrics.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
    connection->send(error_reply(id, "hello", "internal", "the server failed to handle this request"));
    connection->hello_done(nullptr);
}

}  // namespace sparts::server
