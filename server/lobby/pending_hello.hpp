// A hello on its way to an answer. A connection reads nothing more until its
// hello is answered (net/session.cpp), and the lobby answers it on several
// paths: refused at once, a token or a login checked, a player read back from
// the store off the strand, the new player stored first. Each path holds a
// copy of this; the connection is answered, and reads again, exactly once:
// when a path refuses or welcomes, or, should a path drop it unanswered (a
// defect of ours), when the last copy goes, as an internal error.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include "protocol/request.hpp"
#include "server/base/metrics.hpp"
#include "server/base/player.hpp"
#include "server/net/connection.hpp"

namespace sparts::server {

class PendingHello {
public:
    PendingHello(std::shared_ptr<Connection> connection, RequestId id, Metrics& metrics);

    const std::shared_ptr<Connection>& connection() const { return state_->connection; }
    const RequestId& id() const { return state_->id; }

    // An error to the hello; the connection reads on as nobody (it may say hello again).
    void refuse(std::string_view code, std::string_view message);
    // The ok to the hello (`ok_text`); the connection reads on as `player`.
    void welcome(PlayerRef player, std::string ok_text);

private:
    struct State {
        State(std::shared_ptr<Connection> c, RequestId i, Metrics& m)
            : connection(std::move(c)), id(std::move(i)), metrics(m) {}
        State(const State&) = delete;
        State& operator=(const State&) = delete;
        ~State();
        std::shared_ptr<Connection> connection;
        RequestId id;
        Metrics& metrics;
        bool answered = false;
    };
    std::shared_ptr<State> state_;
};

}  // namespace sparts::server
