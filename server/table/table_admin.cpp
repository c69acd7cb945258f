// What the admin API (admin_api.hpp) asks of a table: a look at it, closing
// it, removing a player from it. On the table's strand, as everything of it.
#include <boost/asio/post.hpp>
#include "server/table/table.hpp"

namespace sparts::server {

namespace net = boost::asio;

void Table::admin_view(std::function<void(std::optional<AdminView>)> done) {
    net::post(strand_, [self = shared_from_this(), done = std::move(done)] { done(self->core_.admin_view()); });
}

void Table::admin_close(std::function<void(bool)> done) {
    net::post(strand_, [self = shared_from_this(), done = std::move(done)] {
        if (self->core_.closed()) return done(false);
        self->carry_out(self->core_.close("closed_by_admin", now()));
        done(self->core_.closed());
    });
}

void Table::admin_remove(std::string player, std::function<void(int seat, bool bot)> done) {
    net::post(strand_, [self = shared_from_this(), player = std::move(player), done = std::move(done)] {
        auto removal = self->core_.admin_remove(player, now());
        self->carry_out(std::move(removal.effects));
        done(removal.seat, removal.bot);
    });
}

}  // namespace sparts::server
