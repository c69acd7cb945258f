// The lobby's bans (the admin API), on the lobby's strand like the players
// they refuse. Stored before they are answered, so that a ban the operator saw
// done survives a crash; the store commits in order, so a hello answered
// before the ban is committed before it too, and its connection has been told
// who it is by the time the caller closes the banned player's connections.
#include "server/lobby/lobby.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>
#include "storage/store.hpp"

namespace sparts::server {

namespace net = boost::asio;

namespace {
std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}
}  // namespace

void Lobby::ban(std::string player, std::string reason, std::function<void(Ban)> done) {
    net::post(strand_, [this, player = std::move(player), reason = std::move(reason), done = std::move(done)]() mutable {
        Ban b{player, std::move(reason), now_ms()};
        bans_[player] = b;
        if (!hub_->store) return done(std::move(b));
        hub_->store->submit({storage::PutBan{b.player, b.reason, b.at}},
                            [b, done = std::move(done)]() mutable { done(std::move(b)); });
    });
}

void Lobby::unban(std::string player, std::function<void(std::optional<Ban>)> done) {
    net::post(strand_, [this, player = std::move(player), done = std::move(done)]() mutable {
        const auto it = bans_.find(player);
        if (it == bans_.end()) return done(std::nullopt);
        Ban lifted = std::move(it->second);
        bans_.erase(it);
        if (!hub_->store) return done(std::move(lifted));
        hub_->store->submit({storage::RemoveBan{player}},
                            [lifted = std::move(lifted), done = std::move(done)]() mutable { done(std::move(lifted)); });
    });
}

void Lobby::bans(std::function<void(std::vector<Ban>)> done) {
    net::post(strand_, [this, done = std::move(done)] {
        std::vector<Ban> all;
        all.reserve(bans_.size());
        for (const auto& [id, b] : bans_) all.push_back(b);
        std::sort(all.begin(), all.end(), [](const Ban& a, const Ban& b) { return a.player < b.player; });
        done(std::move(all));
    });
}

void Lobby::restore_bans(std::vector<Ban> bans) {
    for (Ban& b : bans) bans_[b.player] = std::move(b);
}

}  // namespace sparts::server
