#include "server/app/routes.hpp"
#include "server/base/guarded.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>
#include "protocol/overloaded.hpp"
#include "protocol/reply.hpp"
#include "server/admin/admin_api.hpp"
#include "server/archive/archive_api.hpp"
#include "server/archive/archive_reader.hpp"
#include "server/archive/replay.hpp"
#include "server/base/metrics.hpp"
#include "server/host/webhook.hpp"
#include "server/lobby/lobby.hpp"
#include "server/lobby/table_loader.hpp"
#include "server/net/session.hpp"
#include "server/table/table.hpp"
#include "server/table/table_registry.hpp"

namespace sparts::server {

namespace net = boost::asio;

namespace {

// One WebSocket connection's requests: the tables it follows (found first among them, then in
// the registry, then, with many nodes, brought from another node) and the replay it watches.
class SessionRoutes final : public ConnectionRoutes {
public:
    SessionRoutes(Hub& hub, ArchiveReader& archive, Session& session) : hub_(hub), archive_(archive), session_(session) {}

    ~SessionRoutes() override {
        if (replay_) replay_->stop();
        // Tables see their weak references expire; tell them to look again.
        for (auto& weak : joined_)
            if (auto t = weak.lock()) t->connections_changed();
    }

    void route(Request request) override {
        const auto self = session_.shared_from_this();
        RoutedRequest routed = by_destination(std::move(request));
        // Each group to its place, and within the lobby's each request to its handler: a request
        // without a place does not build (protocol/request.hpp).
        std::visit(overloaded{[&](LobbyRequest& r) { to_lobby(self, std::move(r)); },
                              [&](TableRequest& r) { to_table(self, std::move(r)); },
                              [&](ReplayRequest& r) {
                                  std::visit(overloaded{[&](const ReplayOpen& o) { open_replay(r.id, o); },
                                                        [&](const ReplayControl& c) { control_replay(r.id, c); }},
                                             r.body);
                              }},
                   routed);
    }

    void joined(std::shared_ptr<Followed> followed) override {
        std::erase_if(joined_, [](const std::weak_ptr<Followed>& w) { return w.expired(); });
        for (auto& w : joined_)
            if (w.lock() == followed) return;
        joined_.push_back(std::move(followed));
    }

private:
    void to_lobby(const std::shared_ptr<Session>& self, LobbyRequest r) {
        Lobby& lobby = hub_.lobby;
        const PlayerRef& player = session_.player();
        std::visit(overloaded{[&](const Hello&) { lobby.hello(self, std::move(r)); },
                              [&](const Ping&) { session_.send(ok_reply(r.id, "ping")); },
                              [&](const ListTables&) { lobby.list_tables(self, std::move(r)); },
                              [&](const CreateTable&) { lobby.create_table(self, player, std::move(r)); },
                              [&](const QuickPlay&) { lobby.quick_play(self, player, std::move(r)); },
                              [&](const QuickPlayCancel&) { lobby.quick_play_cancel(self, player, std::move(r)); }},
                   r.body);
    }

    void to_table(const std::shared_ptr<Session>& self, TableRequest r) {
        const std::string id = table_of(r.body);
        auto table = find_table(id);
        if (!table && hub_.loader) {
            // Many nodes: held by another node, or by none since its node went away.
            hub_.loader->load(id, [self, r = std::move(r)](
                                      std::shared_ptr<Table> t, std::string code, std::string message) mutable {
                net::post(self->executor(), [self, r = std::move(r), t = std::move(t), code = std::move(code),
                                             message = std::move(message)]() mutable {
                    if (!t) return self->send(error_reply(r.id, request_type(r.body), code, message));
                    t->request(self, self->player(), std::move(r));
                });
            });
            return;
        }
        if (!table)
            return session_.send(
                error_reply(r.id, request_type(r.body), "no_such_table", "there is no open table \"" + id + "\""));
        table->request(self, session_.player(), std::move(r));
    }

    std::shared_ptr<Table> find_table(const std::string& id) {
        for (auto& weak : joined_)
            // Only a table is ever followed (Table::sit, watch, seat_matched): the cast is safe.
            if (auto t = weak.lock(); t && t->id() == id) return std::static_pointer_cast<Table>(t);
        return hub_.tables.find(id);
    }

    void open_replay(const RequestId& id, const ReplayOpen& o) {
        if (!hub_.store) return session_.send(error_reply(id, "replay", "no_archive", "this server keeps no archive"));
        if (!hub_.archive_reads.allow(session_.address())) {
            hub_.metrics.refused_archive_reads.fetch_add(1, std::memory_order_relaxed);
            return session_.send(error_reply(id, "replay", "rate_limited",
                                             "more than " + std::to_string(hub_.config.archive_reads_per_minute) +
                                                 " archive reads a minute from this address: try again later"));
        }
        // The read and the replay's preparation run on the archive threads, off the I/O threads. The
        // session is held by the work, and these routes with it.
        net::post(hub_.archive_threads, [this, self = session_.shared_from_this(), id, speed = o.speed, table = o.table,
                                         number = o.game] {
            std::shared_ptr<Replay> replay;
            std::string problem;
            guarded(
                hub_.metrics,
                [&] {
                    auto game = archive_.game(table, number);
                    if (!game) {
                        problem = "no finished game " + std::to_string(number) + " at table " + table;
                    } else if (auto opened = Replay::open(std::move(game), self->executor(), self->weak_from_this())) {
                        replay = std::move(*opened);
                    } else {
                        problem = opened.error();
                    }
                },
                [&] { problem = "internal error"; }, "session {}: replay of {}/{}", self->serial(), table, number);
            net::post(self->executor(), [this, self, id, speed, replay = std::move(replay), problem = std::move(problem)] {
                replay_opened(id, speed, replay, problem);
            });
        });
    }

    void replay_opened(const RequestId& id, double speed, std::shared_ptr<Replay> replay, std::string problem) {
        if (!replay) {
            const bool missing = problem.rfind("no finished game", 0) == 0;
            const bool internal = problem == "internal error";
            return session_.send(error_reply(
                id, "replay", missing ? "no_such_game" : internal ? "internal" : "broken_record", problem));
        }
        if (replay_) replay_->stop();
        replay_ = std::move(replay);
        session_.send(ok_reply(id, "replay", replay_->outline()));
        replay_->play(speed);
    }

    void control_replay(const RequestId& id, const ReplayControl& c) {
        if (!replay_) return session_.send(error_reply(id, "replay_control", "no_replay", "open a replay first"));
        switch (c.kind) {
            case ReplayControl::Kind::pause: replay_->pause(); break;
            case ReplayControl::Kind::step: replay_->step(); break;
            case ReplayControl::Kind::play: replay_->play(c.speed.value_or(2.0)); break;
            case ReplayControl::Kind::seek:
                if (std::string problem = replay_->seek(c.position, c.hand, c.trick); !problem.empty())
                    return session_.send(error_reply(id, "replay_control", "bad_position", problem));
                break;
        }
        session_.send(ok_reply(id, "replay_control"));
    }

    Hub& hub_;
    ArchiveReader& archive_;
    Session& session_;  // owns these routes
    std::vector<std::weak_ptr<Followed>> joined_;
    std::shared_ptr<Replay> replay_;
};

}  // namespace

ServerRoutes::ServerRoutes(Hub& hub, ArchiveReader& archive, AdminApi* admin)
    : hub_(hub), archive_(archive), admin_(admin) {}

std::unique_ptr<ConnectionRoutes> ServerRoutes::for_connection(Session& session) {
    return std::make_unique<SessionRoutes>(hub_, archive_, session);
}

bool ServerRoutes::is_admin_path(std::string_view path) const { return admin_ && AdminApi::is_admin_path(path); }

void ServerRoutes::admin(const HttpRequest& request, const std::string& client, std::function<void(HttpAnswer)> done) {
    admin_->handle(request, client, std::move(done));
}

HttpAnswer ServerRoutes::api(const std::string& target) {
    ApiResponse api = archive_.http(target);
    HttpAnswer answer{api.status, std::move(api.body), {}};
    if (!api.content_disposition.empty())
        answer.headers.emplace_back(boost::beast::http::field::content_disposition, std::move(api.content_disposition));
    return answer;
}

std::string ServerRoutes::metrics_text(std::int64_t sessions_open) {
    return hub_.metrics.render(sessions_open, static_cast<std::int64_t>(hub_.tables.size())) + store_metrics(hub_.store) +
           (hub_.webhook ? hub_.webhook->metrics_text() : "");
}

}  // namespace sparts::server
