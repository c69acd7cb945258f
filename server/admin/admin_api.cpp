#include "server/admin/admin_api.hpp"
#include "server/base/http_text.hpp"
#include "server/base/guarded.hpp"

#include <algorithm>
#include <functional>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <spdlog/spdlog.h>
#include "protocol/server_messages.hpp"
#include "protocol/json_text.hpp"
#include "server/admin/admin_request.hpp"
#include "server/admin/backups.hpp"
#include "server/admin/retirement.hpp"
#include "server/net/hub.hpp"
#include "server/lobby/lobby.hpp"
#include "server/net/session.hpp"
#include "storage/store.hpp"
#include "server/table/rule_sets.hpp"
#include "server/table/table.hpp"
#include "server/table/table_registry.hpp"

namespace sparts::server {

namespace http = boost::beast::http;
namespace net = boost::asio;
using nlohmann::json;

namespace {

using Respond = std::function<void(AdminAnswer)>;

AdminAnswer error(http::status status, std::string_view code, std::string_view message) {
    return {status, dump_text(json{{"error", code}, {"message", message}}), {}};
}

AdminAnswer ok(json body) { return {http::status::ok, dump_text(body), {}}; }

// Collects `n` answers that come back from other strands and hands them all to `done` once the
// last has come, on whichever thread brought it.
template <class T>
std::function<void(T)> gather(std::size_t n, std::function<void(std::vector<T>)> done) {
    struct State {
        std::mutex mutex;
        std::vector<T> items;
        std::size_t left;
        std::function<void(std::vector<T>)> done;
    };
    auto state = std::make_shared<State>();
    state->left = n;
    state->done = std::move(done);
    if (n == 0) {
        state->done({});
        return {};
    }
    return [state](T item) {
        std::unique_lock lock(state->mutex);
        state->items.push_back(std::move(item));
        if (--state->left > 0) return;
        std::vector<T> items = std::move(state->items);
        lock.unlock();
        state->done(std::move(items));
    };
}

// "t12" after "t9": tables by their number.
bool table_order(const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

json ban_json(const Lobby::Ban& b) { return {{"player", b.player}, {"reason", b.reason}, {"at", b.at}}; }

// One authenticated request: its route, body and client, and the answer's one way out.
class Action : public std::enable_shared_from_this<Action> {
public:
    Action(Hub& hub, std::string client, Respond respond) : hub_(hub), client_(std::move(client)), respond_(std::move(respond)) {}

    void route(http::verb method, std::string_view path, const std::string& body);

private:
    // A handler's last net: a defect of ours answers 500, is logged and counted, and the
    // thread it ran on (a table's, the store's writer) goes on.
    template <class F>
    void guarded(F&& f) {
        server::guarded(
            hub_.metrics, std::forward<F>(f),
            [&] { respond_(error(http::status::internal_server_error, "internal", "internal error")); }, "admin: {}",
            what_);
    }
    // Done: logged, counted, answered.
    void did(AdminAction action, const std::string& target, json answer) {
        hub_.metrics.admin_actions[static_cast<std::size_t>(action)].fetch_add(1, std::memory_order_relaxed);
        spdlog::info("admin: {} {}from {}", to_string(action), target.empty() ? "" : target + " ", client_);
        respond_(ok(std::move(answer)));
    }
    void refuse(http::status status, std::string_view code, std::string_view message) {
        spdlog::info("admin: {} from {} refused: {}", what_, client_, message);
        respond_(error(status, code, message));
    }
    void list_tables();
    void list_connections();
    void list_connections_following(const std::vector<std::optional<Table::AdminView>>& views);
    // Each with what read_admin_request read from the request.
    void close_table(const std::string& table);
    void remove_player(const std::string& table, const std::string& id);
    void list_bans();
    void ban(const std::string& player, const std::string& reason);
    void unban(const std::string& player);
    void broadcast(const std::string& text);
    void backup();
    void list_backups();
    void retire();
    void list_retirements();
    void list_rule_sets();
    void put_rule_set(const std::string& name, const std::string& label, const std::string& ruleset);
    void remove_rule_set(const std::string& name);
    void edit_rule_sets(AdminAction action, const std::string& name,
                        const std::function<Outcome<RuleSets, std::string>(const RuleSets&)>& change, json done);
    void refuse_retirement_off() {
        refuse(http::status::conflict, "retirement_off",
               "this server retires no games: start it with --retire-dir and --retire-after-days");
    }
    void refuse_backups_off() {
        refuse(http::status::conflict, "backups_off", "this server makes no backups: start it with --backup-dir");
    }

    Hub& hub_;
    const std::string client_;
    const Respond respond_;
    std::string what_;  // the method and path, for the log
};

void Action::route(http::verb method, std::string_view path, const std::string& body) {
    what_ = std::string(http::to_string(method)) + " " + shown(path, 80);
    auto request = read_admin_request(method, path, body);
    if (!request) {
        const AdminRefusal& r = request.error();
        if (r.status == http::status::bad_request) return refuse(r.status, r.code, r.message);
        AdminAnswer a = error(r.status, r.code, r.message);
        if (!r.allow.empty()) a.headers.emplace_back(http::field::allow, r.allow);
        return respond_(std::move(a));
    }
    guarded([&] {
        AdminRequest& q = *request;
        switch (q.action) {
            case AdminAction::list_tables: return list_tables();
            case AdminAction::list_connections: return list_connections();
            case AdminAction::close_table: return close_table(q.table);
            case AdminAction::remove_player: return remove_player(q.table, q.player);
            case AdminAction::list_bans: return list_bans();
            case AdminAction::ban: return ban(q.player, q.reason);
            case AdminAction::unban: return unban(q.player);
            case AdminAction::broadcast: return broadcast(q.text);
            case AdminAction::backup: return backup();
            case AdminAction::list_backups: return list_backups();
            case AdminAction::retire: return retire();
            case AdminAction::list_retirements: return list_retirements();
            case AdminAction::list_rule_sets: return list_rule_sets();
            case AdminAction::put_rule_set: return put_rule_set(q.rule_set, q.label, q.ruleset);
            case AdminAction::remove_rule_set: return remove_rule_set(q.rule_set);
        }
    });
}

void Action::list_tables() {
    std::vector<std::shared_ptr<Table>> tables;
    hub_.tables.for_each([&](const std::shared_ptr<Table>& t) { tables.push_back(t); });
    auto add = gather<std::optional<Table::AdminView>>(
        tables.size(), [self = shared_from_this()](std::vector<std::optional<Table::AdminView>> views) {
            self->guarded([&] {
                std::vector<json> listed;
                for (auto& v : views)
                    if (v) listed.push_back(std::move(v->info));
                std::sort(listed.begin(), listed.end(), [](const json& a, const json& b) {
                    return table_order(a["table"].get<std::string>(), b["table"].get<std::string>());
                });
                self->did(AdminAction::list_tables, "", {{"tables", listed}});
            });
        });
    for (const auto& t : tables) t->admin_view(add);
}

void Action::list_connections() {
    // The tables first (who follows which), then the connections themselves.
    std::vector<std::shared_ptr<Table>> tables;
    hub_.tables.for_each([&](const std::shared_ptr<Table>& t) { tables.push_back(t); });
    auto add = gather<std::optional<Table::AdminView>>(
        tables.size(), [self = shared_from_this()](std::vector<std::optional<Table::AdminView>> views) {
            self->guarded([&] { self->list_connections_following(views); });
        });
    for (const auto& t : tables) t->admin_view(add);
}

void Action::list_connections_following(const std::vector<std::optional<Table::AdminView>>& views) {
    auto at = std::make_shared<std::map<std::uint64_t, json>>();  // connection serial -> [{table, seat}]
    for (const auto& v : views) {
        if (!v) continue;
        for (const auto& [serial, seat] : v->followers) {
            json& list = (*at)[serial];
            if (list.is_null()) list = json::array();
            list.push_back({{"table", v->info["table"]}, {"seat", seat < 0 ? json(nullptr) : json(seat)}});
        }
    }
    std::vector<std::shared_ptr<Session>> sessions;
    hub_.sessions.for_each([&](const std::shared_ptr<Session>& s) { sessions.push_back(s); });
    auto add = gather<std::optional<json>>(sessions.size(), [self = shared_from_this(), at](std::vector<std::optional<json>> seen) {
        self->guarded([&] {
            std::vector<json> listed;
            for (auto& c : seen) {
                if (!c) continue;
                const auto it = at->find((*c)["connection"].get<std::uint64_t>());
                (*c)["tables"] = it == at->end() ? json::array() : it->second;
                listed.push_back(std::move(*c));
            }
            std::sort(listed.begin(), listed.end(), [](const json& a, const json& b) {
                return a["connection"].get<std::uint64_t>() < b["connection"].get<std::uint64_t>();
            });
            self->did(AdminAction::list_connections, "", {{"connections", listed}});
        });
    });
    for (const auto& s : sessions) s->admin_view(add);
}

void Action::close_table(const std::string& table) {
    auto t = hub_.tables.find(table);
    if (!t) return refuse(http::status::not_found, "no_such_table", "no open table \"" + shown(table, 80) + "\" on this server");
    t->admin_close([self = shared_from_this(), table](bool closed) {
        self->guarded([&] {
            if (!closed) return self->refuse(http::status::not_found, "no_such_table", "table " + table + " is closed already");
            self->did(AdminAction::close_table, table, {{"table", table}, {"closed", true}});
        });
    });
}

void Action::remove_player(const std::string& table, const std::string& id) {
    auto t = hub_.tables.find(table);
    if (!t) return refuse(http::status::not_found, "no_such_table", "no open table \"" + shown(table, 80) + "\" on this server");
    t->admin_remove(id, [self = shared_from_this(), table, id](int seat, bool bot) {
        self->guarded([&] {
            if (seat == -2) return self->refuse(http::status::not_found, "no_such_table", "table " + table + " is closed");
            if (seat < 0)
                return self->refuse(http::status::not_found, "not_seated", "player " + id + " holds no seat at table " + table);
            self->did(AdminAction::remove_player, id + " at " + table,
                      {{"table", table}, {"player", id}, {"seat", seat}, {"bot", bot}});
        });
    });
}

void Action::list_bans() {
    hub_.lobby.bans([self = shared_from_this()](std::vector<Lobby::Ban> bans) {
        self->guarded([&] {
            json list = json::array();
            for (const auto& b : bans) list.push_back(ban_json(b));
            self->did(AdminAction::list_bans, "", {{"bans", std::move(list)}});
        });
    });
}

void Action::ban(const std::string& player, const std::string& reason) {
    // Banned first (no hello gets in from here on), stored, then its connections closed.
    hub_.lobby.ban(player, reason, [self = shared_from_this()](Lobby::Ban b) {
        self->guarded([&] {
            std::vector<std::shared_ptr<Session>> sessions;
            self->hub_.sessions.for_each([&](const std::shared_ptr<Session>& s) { sessions.push_back(s); });
            auto closed = gather<bool>(sessions.size(), [self, b](std::vector<bool> each) {
                self->guarded([&] {
                    const auto n = std::count(each.begin(), each.end(), true);
                    self->did(AdminAction::ban, b.player + " (" + std::to_string(n) + " connections closed)",
                              {{"ban", ban_json(b)}, {"connections_closed", n}});
                });
            });
            for (const auto& s : sessions) s->ban(b.player, closed);
        });
    });
}

void Action::unban(const std::string& player) {
    hub_.lobby.unban(player, [self = shared_from_this(), player](std::optional<Lobby::Ban> lifted) {
        self->guarded([&] {
            if (!lifted) return self->refuse(http::status::not_found, "not_banned", "player " + player + " is not banned");
            self->did(AdminAction::unban, player, {{"ban", ban_json(*lifted)}});
        });
    });
}

void Action::broadcast(const std::string& text) {
    const auto at = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                        .count();
    // Rendered once, the same frame to every connection; the text is data, never markup.
    const Frame frame = std::make_shared<const std::string>(announcement_frame(text, at));
    std::vector<std::shared_ptr<Session>> sessions;
    hub_.sessions.for_each([&](const std::shared_ptr<Session>& s) { sessions.push_back(s); });
    auto sent = gather<bool>(sessions.size(), [self = shared_from_this(), text, at](std::vector<bool> each) {
        self->guarded([&] {
            const auto n = std::count(each.begin(), each.end(), true);
            self->did(AdminAction::broadcast, "\"" + text + "\" (to " + std::to_string(n) + " connections)",
                      {{"text", text}, {"at", at}, {"connections", n}});
        });
    });
    for (const auto& s : sessions) s->announce(frame, sent);
}

void Action::backup() {
    if (!hub_.backups) return refuse_backups_off();
    auto started = hub_.backups->start("admin");
    if (!started)
        return refuse(http::status::conflict, started.error().busy ? "backup_running" : "backup_failed",
                      started.error().message);
    did(AdminAction::backup, *started, {{"backup", *started}, {"running", true}});
}

void Action::list_backups() {
    if (!hub_.backups) return refuse_backups_off();
    did(AdminAction::list_backups, "", hub_.backups->status());
}

void Action::retire() {
    if (!hub_.retirement) return refuse_retirement_off();
    auto started = hub_.retirement->start("admin");
    if (!started)
        return refuse(http::status::conflict, started.error().busy ? "retirement_running" : "retirement_failed",
                      started.error().message);
    did(AdminAction::retire, *started, {{"file", *started}, {"running", true}});
}

void Action::list_retirements() {
    if (!hub_.retirement) return refuse_retirement_off();
    did(AdminAction::list_retirements, "", hub_.retirement->status());
}

void Action::list_rule_sets() {
    // The counts are the store's: read on the archive threads, not on this connection's.
    net::post(hub_.archive_threads, [self = shared_from_this()] {
        self->guarded([&] {
            std::map<std::string, std::int64_t> games;
            if (self->hub_.store) games = self->hub_.store->rule_set_games();
            const auto sets = self->hub_.rule_sets->now();
            json list = sets ? sets->to_json(games) : json::array();
            const std::string& file = self->hub_.rule_sets->file();
            self->did(AdminAction::list_rule_sets, "",
                      {{"rule_sets", std::move(list)}, {"file", file.empty() ? json(nullptr) : json(file)}});
        });
    });
}

void Action::put_rule_set(const std::string& name, const std::string& label, const std::string& ruleset) {
    const auto before = hub_.rule_sets->now();
    const bool known = before && before->find(name);
    edit_rule_sets(
        AdminAction::put_rule_set, name,
        [&](const RuleSets& sets) { return sets.with(name, label, ruleset); }, {{"created", !known}});
}

void Action::remove_rule_set(const std::string& name) {
    const auto before = hub_.rule_sets->now();
    if (!before || !before->find(name))
        return refuse(http::status::not_found, "no_such_rule_set", "no rule set \"" + name + "\"");
    edit_rule_sets(
        AdminAction::remove_rule_set, name, [&](const RuleSets& sets) { return sets.without(name); }, {{"removed", true}});
}

// The change saved to the --rule-sets file, then offered to every hello and every table made
// from now on; tables open already keep the rule set they were made with (docs/OPERATING.md).
void Action::edit_rule_sets(AdminAction action, const std::string& name,
                            const std::function<Outcome<RuleSets, std::string>(const RuleSets&)>& change, json done) {
    auto edited = hub_.rule_sets->edit(change);
    if (!edited) {
        using Kind = RuleSetShelf::EditError::Kind;
        switch (edited.error().kind) {
            case Kind::no_file:
                return refuse(http::status::conflict, "no_rule_sets_file",
                              "this server keeps no rule sets: start it with --rule-sets FILE, the file that keeps them");
            case Kind::not_saved:
                return refuse(http::status::internal_server_error, "rule_sets_not_saved", edited.error().message);
            case Kind::refused: return refuse(http::status::bad_request, "bad_rule_set", edited.error().message);
        }
    }
    const RuleSet* set = (*edited)->find(name);
    done["rule_set"] = set ? json{{"name", set->name}, {"label", set->label}, {"ruleset", set->ruleset}} : json(name);
    done["rule_sets"] = (*edited)->all().size();
    did(action, name, std::move(done));
}

}  // namespace

AdminApi::AdminApi(Hub& hub, AdminToken token)
    : hub_(hub), token_(std::move(token)), failures_(hub.config.admin_auth_failures_per_minute) {}

bool AdminApi::is_admin_path(std::string_view path) { return path == "/admin" || path.rfind("/admin/", 0) == 0; }

void AdminApi::handle(const Request& req, const std::string& client, std::function<void(AdminAnswer)> respond) {
    const std::string_view target = req.target();
    const std::string_view path = target.substr(0, target.find('?'));
    // The token is compared first: the limit counts and refuses failures only, so that nobody who shares
    // the operator's address (a NAT, an office) can lock the operator out with a few wrong tokens.
    const auto token = bearer_token(req[http::field::authorization]);
    if (!token || !token_.matches(*token)) {
        if (failures_.exhausted(client)) {
            hub_.metrics.refused_admin_auth.fetch_add(1, std::memory_order_relaxed);
            AdminAnswer a = error(http::status::too_many_requests, "rate_limited",
                                  "more than " + std::to_string(hub_.config.admin_auth_failures_per_minute) +
                                      " admin requests with a wrong or missing token a minute from this address: try "
                                      "again later");
            a.headers.emplace_back(http::field::retry_after,
                                   std::to_string(std::max(1, 60 / hub_.config.admin_auth_failures_per_minute)));
            return respond(std::move(a));
        }
        failures_.allow(client);  // counts the failure
        hub_.metrics.admin_auth_failures.fetch_add(1, std::memory_order_relaxed);
        spdlog::warn("admin: {} {} from {}: {} token, refused", std::string(http::to_string(req.method())), shown(path, 80),
                     client, token ? "a wrong" : "no");
        AdminAnswer a = error(http::status::unauthorized, "unauthorized",
                              token ? "the token is wrong" : "the admin API needs Authorization: Bearer <token>");
        a.headers.emplace_back(http::field::www_authenticate,
                               token ? R"(Bearer realm="sparts-admin", error="invalid_token")" : R"(Bearer realm="sparts-admin")");
        return respond(std::move(a));
    }
    if (path.size() != target.size())
        return respond(error(http::status::bad_request, "bad_parameter", "the admin API takes no query parameters"));
    std::make_shared<Action>(hub_, client, std::move(respond))->route(req.method(), path, req.body());
}

}  // namespace sparts::server
