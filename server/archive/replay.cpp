#include "server/archive/replay.hpp"

#include "protocol/server_messages.hpp"

#include <boost/asio/dispatch.hpp>
#include "engine/game.hpp"
#include "protocol/action_json.hpp"
#include "protocol/card_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/view_json.hpp"
#include "server/net/connection.hpp"

namespace sparts::server {

using nlohmann::json;

Outcome<std::shared_ptr<Replay>, std::string> Replay::open(std::shared_ptr<const storage::ArchivedGame> game,
                                                           boost::asio::any_io_executor executor,
                                                           std::weak_ptr<Connection> session) {
    auto ruleset = parse_json_text(game->summary.ruleset);
    if (!ruleset) return std::string("the stored ruleset is not JSON");
    auto rules = ruleset_from_json(*ruleset);
    if (!rules) return "the stored ruleset is refused: " + rules.error().message();
    return std::shared_ptr<Replay>(new Replay(std::move(game), *rules, std::move(executor), std::move(session)));
}

Replay::Replay(std::shared_ptr<const storage::ArchivedGame> game, Ruleset rules, boost::asio::any_io_executor executor,
               std::weak_ptr<Connection> session)
    : game_(std::move(game)), rules_(rules), timer_(std::move(executor)), session_(std::move(session)) {
    bool trick_open = false;
    for (std::size_t i = 0; i < game_->events.size(); ++i) {
        auto e = parse_json_text(game_->events[i].payload);
        events_.push_back(e ? *e : json(nullptr));
        const std::string type = events_.back().is_object() ? events_.back().value("type", "") : "";
        if (type == "hand_started") {
            hand_starts_.push_back(i);
            trick_starts_.emplace_back();
            trick_open = false;
        } else if (type == "card_played" && !trick_open && !trick_starts_.empty()) {
            trick_starts_.back().push_back(i);
            trick_open = true;
        } else if (type == "trick_won") {
            trick_open = false;
        }
    }
}

json Replay::outline() const {
    json hands = json::array();
    for (std::size_t h = 0; h < hand_starts_.size(); ++h)
        hands.push_back({{"hand", h + 1}, {"position", hand_starts_[h]}, {"tricks", trick_starts_[h]}});
    return {{"table", game_->summary.table}, {"game", game_->summary.game}, {"events", events_.size()},
            {"hands", hands}, {"ruleset", to_json(rules_)}};
}

void Replay::send(std::string text) {
    if (auto s = session_.lock()) s->send(std::move(text));
}

void Replay::send_event() {
    if (position_ >= events_.size()) {
        playing_ = false;
        send(replay_ended_frame(game_->summary.table, game_->summary.game, position_));
        return;
    }
    send(replay_event_frame(game_->summary.table, game_->summary.game, position_, game_->events[position_].seq,
                            events_[position_]));
    ++position_;
}

void Replay::arm() {
    if (!playing_ || speed_ <= 0) return;
    timer_.expires_after(std::chrono::microseconds(static_cast<long long>(1e6 / speed_)));
    timer_.async_wait([self = shared_from_this(), g = ++generation_](boost::system::error_code ec) {
        if (ec || g != self->generation_ || !self->playing_) return;
        self->send_event();
        self->arm();
    });
}

void Replay::play(double speed) {
    speed_ = speed;
    playing_ = speed > 0;
    ++generation_;
    timer_.cancel();
    if (playing_) {
        send_event();
        arm();
    }
}

void Replay::pause() {
    playing_ = false;
    ++generation_;
    timer_.cancel();
}

void Replay::step() {
    pause();
    send_event();
}

void Replay::stop() {
    // ~Connection calls this, and a Connection is destroyed wherever its last reference goes: a
    // table's strand, the lobby's, the store's writer thread. Meanwhile this replay's timer
    // handler may be running on the connection's strand (it holds the replay, not the
    // session), reading and writing playing_, generation_, position_ and timer_: that raced.
    // The pause runs on the strand (at once when already there); the timer's executor keeps
    // the strand alive after the session is gone.
    boost::asio::dispatch(timer_.get_executor(), [self = shared_from_this()] { self->pause(); });
}

std::string Replay::seek(std::optional<int> position, std::optional<int> hand, std::optional<int> trick) {
    std::size_t target = 0;
    if (position) {
        if (static_cast<std::size_t>(*position) > events_.size())
            return "position " + std::to_string(*position) + " is past the end (" + std::to_string(events_.size()) + " events)";
        target = static_cast<std::size_t>(*position);
    } else {
        const auto h = static_cast<std::size_t>(*hand);
        if (h > hand_starts_.size())
            return "hand " + std::to_string(h) + ": this game has " + std::to_string(hand_starts_.size()) + " hands";
        target = hand_starts_[h - 1];
        if (trick) {
            const auto t = static_cast<std::size_t>(*trick);
            if (t > trick_starts_[h - 1].size())
                return "trick " + std::to_string(t) + ": hand " + std::to_string(h) + " has " +
                       std::to_string(trick_starts_[h - 1].size()) + " tricks";
            target = trick_starts_[h - 1][t - 1];
        }
    }
    const bool was_playing = playing_;
    pause();
    position_ = target;
    send(dump_text(state_at(target)));
    if (was_playing) play(speed_);
    return {};
}

json Replay::state_at(std::size_t position) const {
    // Every action whose first event comes before `position` is applied.
    const std::uint64_t seq = position < game_->events.size() ? game_->events[position].seq : UINT64_MAX;
    auto created = Game::create(rules_, game_->seed);
    json out = {{"type", "replay_state"}, {"table", game_->summary.table}, {"game", game_->summary.game},
                {"position", position}};
    if (!created) return out;
    Game game = std::move(*created);
    game.start();
    for (const auto& a : game_->actions) {
        if (a.seq >= seq) break;
        auto j = parse_json_text(a.action);
        if (!j) break;
        auto action = action_from_json(*j);
        if (!action || !game.apply(static_cast<Seat>(a.seat), *action)) break;
    }
    json hands = json::array();
    for (int s = 0; s < rules_.seats; ++s) hands.push_back(to_json(game.state().hands[static_cast<std::size_t>(s)]));
    out["hands"] = hands;
    out["view"] = seat_view_json(game, kSpectator);
    return out;
}

}  // namespace sparts::server
