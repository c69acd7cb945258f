#include "server/lobby.hpp"

#include <spdlog/spdlog.h>
#include "protocol/reply.hpp"
#include "protocol/ruleset_json.hpp"
#include "server/secret.hpp"
#include "server/session.hpp"
#include "server/sha256.hpp"
#include "server/table.hpp"
#include "server/table_registry.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace net = boost::asio;
using nlohmann::json;

namespace {
std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}
}  // namespace

void Lobby::hello(std::shared_ptr<Session> session, Request request) {
    net::post(strand_, [this, session = std::move(session), request = std::move(request)]() mutable {
        auto& h = std::get<Hello>(request.body);
        if (h.protocol != kProtocolVersion) {
            session->send(error_reply(request.id, "hello", "unsupported_protocol",
                                      "this server speaks protocol 1, not " + std::to_string(h.protocol)));
            return session->hello_done(nullptr);
        }
        json reply;
        PlayerRef player;
        if (h.token) {
            auto it = players_.find(sha256_hex(*h.token));
            if (it == players_.end()) {
                session->send(error_reply(request.id, "hello", "unknown_token",
                                          "no player has this token; say hello without one to get a new one"));
                return session->hello_done(nullptr);
            }
            // A returning player keeps its id; the name it gives now is shown at the seats it takes from now on.
            auto fresh = std::make_shared<Player>(*it->second.player);
            fresh->name = h.name;
            it->second.player = fresh;
            player = fresh;
            json seats = json::array();
            for (const auto& [id, t] : tables_)
                for (int s = 0; s < t.seats; ++s)
                    if (t.seat_players[static_cast<std::size_t>(s)] == player->id)
                        seats.push_back({{"table", id}, {"seat", s}});
            reply = {{"protocol", kProtocolVersion}, {"player", player->id}, {"name", player->name}, {"seats", seats}};
        } else {
            const std::string token = random_hex(16);  // 128 bits
            auto fresh = std::make_shared<Player>(Player{"p" + random_hex(8), h.name});
            const std::string hash = sha256_hex(token);
            players_[hash] = PlayerEntry{fresh, 0};
            token_by_player_[fresh->id] = hash;
            player = fresh;
            reply = {{"protocol", kProtocolVersion}, {"player", player->id}, {"name", player->name},
                     {"token", token},               {"seats", json::array()}};
        }
        // The player (and its name) is stored before the client hears of it:
        // a token handed out is a token that survives a crash.
        std::string text = ok_reply(request.id, "hello", std::move(reply));
        auto answer = [session, player, text = std::move(text)]() mutable {
            session->send(std::move(text));
            session->hello_done(std::move(player));
        };
        if (!hub_->store) return answer();
        hub_->store->submit({storage::PutPlayer{player->id, token_by_player_[player->id], player->name, now_ms()}},
                            std::move(answer));
    });
}

void Lobby::list_tables(std::shared_ptr<Session> session, Request request) {
    net::post(strand_, [this, session = std::move(session), request = std::move(request)] {
        const auto& l = std::get<ListTables>(request.body);
        json list = json::array();
        for (const auto& [id, t] : tables_) {
            if (t.is_private) continue;
            if (l.preset && *l.preset != t.preset) continue;
            if (l.seats && *l.seats != t.seats) continue;
            if (l.open_only && (t.free_seats() == 0 || t.state == "playing")) continue;
            list.push_back(t.to_json());
        }
        session->send(ok_reply(request.id, "list_tables", {{"tables", std::move(list)}}));
    });
}

void Lobby::create_table(std::shared_ptr<Session> session, PlayerRef player, Request request) {
    net::post(strand_, [this, session = std::move(session), player = std::move(player),
                        request = std::move(request)]() mutable {
        if (hub_->stopping) {
            return session->send(error_reply(request.id, "create_table", "shutting_down", "the server is shutting down"));
        }
        auto hash = token_by_player_.find(player->id);
        if (hash == token_by_player_.end()) return;  // cannot happen: a session's player came from here
        PlayerEntry& entry = players_[hash->second];
        if (entry.open_tables >= hub_->config.tables_per_player)
            return session->send(error_reply(request.id, "create_table", "too_many_tables",
                                             "a player may have " + std::to_string(hub_->config.tables_per_player) +
                                                 " open tables at once; close or finish one first"));
        auto& c = std::get<CreateTable>(request.body);
        const std::string id = "t" + std::to_string(next_table_++);
        const std::string invite = c.is_private ? random_hex(6) : std::string();
        const int turn_seconds = c.turn_seconds < 0 ? hub_->config.turn_seconds : c.turn_seconds;
        const auto number = static_cast<std::int64_t>(next_table_ - 1);
        auto table = std::make_shared<Table>(*hub_, id, number, c.rules, c.is_private, invite, turn_seconds, player->id);
        ++entry.open_tables;
        json reply = {{"table", id}, {"ruleset", to_json(c.rules)}, {"turn_seconds", turn_seconds}};
        if (c.is_private) reply["invite"] = invite;
        spdlog::debug("table {} opened by {} ({})", id, player->id, to_string(c.rules.preset));
        // Findable, and announced, once stored.
        auto answer = [this, session, table, id, text = ok_reply(request.id, "create_table", std::move(reply))] {
            net::post(strand_, [this, session, table, id, text] {
                tables_[id] = table->initial_summary();
                hub_->tables.add(id, table);
                session->send(text);
                table->start_grace();  // closed if nobody sits down
            });
        };
        if (!hub_->store) return answer();
        hub_->store->submit({table->record()}, std::move(answer));
    });
}

void Lobby::table_changed(TableSummary summary) {
    net::post(strand_, [this, summary = std::move(summary)]() mutable {
        auto it = tables_.find(summary.id);
        if (it != tables_.end()) it->second = std::move(summary);
    });
}

void Lobby::table_closed(std::string id, std::string creator) {
    net::post(strand_, [this, id = std::move(id), creator = std::move(creator)] {
        if (tables_.erase(id) == 0) return;
        hub_->tables.remove(id);
        if (auto hash = token_by_player_.find(creator); hash != token_by_player_.end())
            --players_[hash->second].open_tables;
    });
}

void Lobby::restore(const std::vector<PlayerRef>& players, const std::vector<std::string>& token_hashes,
                    const std::vector<std::shared_ptr<Table>>& tables, std::uint64_t last_table_number) {
    for (std::size_t i = 0; i < players.size(); ++i) {
        players_[token_hashes[i]] = PlayerEntry{players[i], 0};
        token_by_player_[players[i]->id] = token_hashes[i];
    }
    for (const auto& t : tables) {
        const TableSummary& s = t->initial_summary();
        tables_[s.id] = s;
        hub_->tables.add(s.id, t);
        if (auto hash = token_by_player_.find(s.creator); hash != token_by_player_.end())
            ++players_[hash->second].open_tables;
    }
    next_table_ = last_table_number + 1;
}

}  // namespace sparts::server
