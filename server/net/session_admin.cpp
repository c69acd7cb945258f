// What the admin API (admin_api.hpp) asks of a connection, on the connection's
// own strand like everything else of it.
#include "server/net/session.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>
#include "protocol/server_messages.hpp"

namespace sparts::server {

namespace net = boost::asio;

void Session::admin_view(std::function<void(std::optional<nlohmann::json>)> done) {
    net::post(ws_.get_executor(), [self = shared_from_this(), done = std::move(done)] {
        if (self->closing_ || !self->admitted_) return done(std::nullopt);
        const auto since =
            std::chrono::duration_cast<std::chrono::milliseconds>(self->connected_at_.time_since_epoch()).count();
        nlohmann::json view = {{"connection", self->serial_},
                               {"player", self->player_ ? nlohmann::json(self->player_->id) : nlohmann::json(nullptr)},
                               {"name", self->player_ ? nlohmann::json(self->player_->name) : nlohmann::json(nullptr)},
                               {"address", self->address_},
                               {"connected_at", since}};
        done(std::move(view));
    });
}

void Session::ban(std::string player, std::function<void(bool)> done) {
    net::post(ws_.get_executor(), [self = shared_from_this(), player = std::move(player), done = std::move(done)] {
        if (self->closing_ || !self->player_ || self->player_->id != player) return done(false);
        spdlog::info("session {} ({}): player {} is banned: closed", self->serial_, self->address_, player);
        self->on_send(std::make_shared<const std::string>(closing_frame("banned")));
        self->on_close(CloseCode::banned, "banned");
        done(true);
    });
}

void Session::announce(Frame frame, std::function<void(bool)> done) {
    net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame), done = std::move(done)]() mutable {
        if (self->closing_ || !self->player_) return done(false);
        self->on_send(std::move(frame));
        done(true);
    });
}

}  // namespace sparts::server
