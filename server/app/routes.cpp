#include "server/app/routes.hpp"
#include "server/base/guarded.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>
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

    void route(Request r) override {
        std::visit(
            [&](auto& body) {
                using T = std::decay_t<decltype(body)>;
                const auto self = session_.shared_from_this();
                if constexpr (std::is_same_v<T, Hello>) {
                    hub_.lobby.hello(self, std::move(r));
                } else if constexpr (std::is_same_v<T, Ping>) {
                    session_.send(ok_reply(r.id, "ping"));
                } else if constexpr (std::is_same_v<T, ListTables>) {
                    hub_.lobby.list_tables(self, std::move(r));
                } else if constexpr (std::is_same_v<T, CreateTable>) {
                    hub_.lobby.create_table(self, session_.player(), std::move(r));
                } else if constexpr (std::is_same_v<T, QuickPlay>) {
                    hub_.lobby.quick_play(self, session_.player(), std::move(r));
                } else if constexpr (std::is_same_v<T, QuickPlayCancel>) {
                    hub_.lobby.quick_play_cancel(self, session_.player(), std::move(r));
                } else if constexpr (std::is_same_v<T, ReplayOpen>) {
                    open_replay(r);
                } else if constexpr (std::is_same_v<T, ReplayControl>) {
                    control_replay(r);
                } else {
                    std::string id = body.table;  // before r is moved from
                    to_table(self, id, std::move(r));
                }
            },
            r.body);
    }

    void joined(std::shared_ptr<Followed> followed) override {
        std::erase_if(joined_, [](const std::weak_ptr<Followed>& w) { return w.expired(); });
        for (auto& w : joined_)
            if (w.lock() == followed) return;
        joined_.push_back(std::move(followed));
    }

private:
    void to_table(const std::shared_ptr<Session>& self, const std::string& id, Request r) {
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

    void open_replay(const Request& r) {
        const auto& o = std::get<ReplayOpen>(r.body);
        if (!hub_.store) return session_.send(error_reply(r.id, "replay", "no_archive", "this server keeps no archive"));
        if (!hub_.archive_reads.allow(session_.address())) {
            hub_.metrics.refused_archive_reads.fetch_add(1, std::memory_order_relaxed);
            return session_.send(error_reply(r.id, "replay", "rate_limited",
                                             "more than " + std::to_string(hub_.config.archive_reads_per_minute) +
                                                 " archive reads a minute from this address: try again later"));
        }
        // The read and the replay's preparation run on the archive threads, off the I/O threads. The
        // session is held by the work, and these routes with it.
        net::post(hub_.archive_threads, [this, self = session_.shared_from_this(), r, table = o.table, number = o.game] {
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
            net::post(self->executor(), [this, self, r, replay = std::move(replay), problem = std::move(problem)] {
                replay_opened(r, replay, problem);
            });
        });
    }

    void replay_opened(const Request& r, std::shared_ptr<Replay> replay, std::string problem) {
        if (!replay) {
            const bool missing = problem.rfind("no finished game", 0) == 0;
            const bool internal = problem == "internal error";
            return session_.send(error_reply(
                r.id, "replay", missing ? "no_such_game" : internal ? "internal" : "broken_record", problem));
        }
        if (replay_) replay_->stop();
        replay_ = std::move(replay);
        session_.send(ok_reply(r.id, "replay", replay_->outline()));
        replay_->play(std::get<ReplayOpen>(r.body).speed);
    }

    void control_replay(const Request& r) {
        const auto& c = std::get<ReplayControl>(r.body);
        if (!replay_) return session_.send(error_reply(r.id, "replay_control", "no_replay", "open a replay first"));
        switch (c.kind) {
            case ReplayControl::Kind::pause: replay_->pause(); break;
            case ReplayControl::Kind::step: replay_->step(); break;
            case ReplayControl::Kind::play: replay_->play(c.speed.value_or(2.0)); break;
            case ReplayControl::Kind::seek:
                if (std::string problem = replay_->seek(c.position, c.hand, c.trick); !problem.empty())
                    return session_.send(error_reply(r.id, "replay_control", "bad_position", problem));
                break;
        }
        session_.send(ok_reply(r.id, "replay_control"));
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
