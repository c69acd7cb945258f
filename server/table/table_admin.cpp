// What the admin API (admin_api.hpp) asks of a table: a look at it, closing
// it, removing a player from it. On the table's strand, as everything of it.
#include "server/table/table.hpp"

#include <algorithm>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>
#include "protocol/ruleset_json.hpp"

namespace sparts::server {

namespace net = boost::asio;
using nlohmann::json;

void Table::admin_view(std::function<void(std::optional<AdminView>)> done) {
    net::post(strand_, [self = shared_from_this(), done = std::move(done)] {
        if (self->closed_) return done(std::nullopt);
        AdminView view;
        json seats = json::array();
        for (int i = 0; i < self->rules_.seats; ++i) {
            const SeatState& st = self->seats_[static_cast<std::size_t>(i)];
            const auto session = st.session.lock();
            seats.push_back({{"seat", i},
                             {"player", st.human() ? json(st.player) : json(nullptr)},
                             {"name", st.empty() ? json(nullptr) : json(st.name)},
                             {"bot", st.bot},
                             {"connected", st.human() && session != nullptr},
                             {"absent", st.absent}});
            if (session) view.followers.emplace_back(session->serial(), i);
        }
        int spectators = 0;
        for (const auto& w : self->spectators_)
            if (const auto s = w.lock()) {
                ++spectators;
                view.followers.emplace_back(s->serial(), -1);
            }
        view.info = {{"table", self->id_},
                     {"preset", to_string(self->rules_.preset)},
                     {"ruleset", to_json(self->rules_)},
                     {"private", self->is_private_},
                     {"state", self->state_name()},
                     {"game", self->game_number_},
                     {"turn_seconds", self->turn_seconds_},
                     {"creator", self->creator_},
                     {"seats", std::move(seats)},
                     {"spectators", spectators}};
        done(std::move(view));
    });
}

void Table::admin_close(std::function<void(bool)> done) {
    net::post(strand_, [self = shared_from_this(), done = std::move(done)] {
        if (self->closed_) return done(false);
        // On the strand already: close() runs here and now (its dispatch does not defer).
        self->close("closed_by_admin");
        done(self->closed_);
    });
}

void Table::admin_remove(std::string player, std::function<void(int seat, bool bot)> done) {
    net::post(strand_, [self = shared_from_this(), player = std::move(player), done = std::move(done)] {
        if (self->closed_) return done(-2, false);
        const int seat = self->seat_of(player);
        if (seat < 0) return done(-1, false);
        self->now_ = wall_now();
        SeatState& st = self->seats_[static_cast<std::size_t>(seat)];
        const bool playing = self->game_ && !self->game_->over();
        // Published while the seat is still theirs, so that their connection is told why it
        // hears no more of the table. (A player who leaves is not sent its own seat_left.)
        self->publish_table_event({{"type", "seat_left"}, {"seat", seat}, {"reason", "removed_by_admin"}});
        st = SeatState{};
        self->chat_.forget(player);
        // Then as when a player leaves (on_leave): mid-game a bot plays the seat until someone takes it.
        if (playing) {
            st.bot = true;
            st.level = parse_bot_level(self->hub_.config.absent_bot_level).value_or(BotLevel::basic);
            st.name = "Bot";
            self->publish_table_event({{"type", "seat_taken"}, {"seat", seat}, {"player", nullptr}, {"bot", true}});
        }
        self->store_seat(seat);
        if (std::find(self->removed_.begin(), self->removed_.end(), player) == self->removed_.end())
            self->removed_.push_back(player);
        self->summary_changed();
        self->schedule();
        self->check_grace();
        self->end_step();
        done(seat, playing);
    });
}

}  // namespace sparts::server
