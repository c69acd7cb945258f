#include "server/admin_api.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <spdlog/spdlog.h>
#include "protocol/json_text.hpp"
#include "protocol/unicode_text.hpp"
#include "server/hub.hpp"
#include "server/lobby.hpp"
#include "server/session.hpp"
#include "server/table.hpp"
#include "server/table_registry.hpp"

namespace sparts::server {

namespace http = boost::beast::http;
using nlohmann::json;

namespace {

using Respond = std::function<void(AdminAnswer)>;

AdminAnswer error(http::status status, std::string_view code, std::string_view message) {
    return {status, dump_text(json{{"error", code}, {"message", message}}), {}};
}

AdminAnswer ok(json body) { return {http::status::ok, dump_text(body), {}}; }

// For the log and for messages: what a stranger sent, as printable ASCII, short.
std::string shown(std::string_view s) {
    std::string out;
    for (const char c : s.substr(0, 80)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return s.size() > 80 ? out + "..." : out;
}

std::vector<std::string_view> segments(std::string_view path) {
    std::vector<std::string_view> out;
    std::size_t start = 1;  // after the leading '/'
    while (start <= path.size()) {
        const std::size_t slash = std::min(path.find('/', start), path.size());
        out.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return out;
}

// The ids the server makes: tables "t" and digits (any 1 to 32 of [A-Za-z0-9_-], as the archive
// takes them), players "p" and 16 hex digits.
bool table_id(std::string_view s) {
    return !s.empty() && s.size() <= 32 && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    });
}

bool player_id(std::string_view s) {
    return s.size() == 17 && s[0] == 'p' &&
           std::all_of(s.begin() + 1, s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Text an operator writes for players to read (a broadcast, a ban's reason): shown as plain
// text, refused rather than cleaned as the table chat's is. Valid UTF-8 (the JSON parser has
// checked it), no control character (line breaks included: they could reorder or hide what
// is around it), cut of the white space at either end, at most `max` code points; something
// that shows unless `may_be_empty`. The text, or what is wrong.
struct TextProblem {
    std::string what;
};
Outcome<std::string, TextProblem> operator_text(std::string_view raw, std::size_t max, bool may_be_empty) {
    struct Point {
        std::size_t at, end;
        long c;
    };
    std::vector<Point> points;
    for (std::size_t i = 0; i < raw.size();) {
        const std::size_t at = i;
        const long c = next_code_point(raw, i);
        if (c < 0) return TextProblem{"is not UTF-8"};
        if (is_control_character(c)) return TextProblem{"holds a control character (a line break, a tab, ...)"};
        points.push_back({at, i, c});
    }
    std::size_t b = 0, e = points.size();
    while (b < e && is_space_character(points[b].c)) ++b;
    while (e > b && is_space_character(points[e - 1].c)) --e;
    const bool shows =
        std::any_of(points.begin() + static_cast<std::ptrdiff_t>(b), points.begin() + static_cast<std::ptrdiff_t>(e),
                    [](const Point& p) { return !is_invisible_character(p.c); });
    if (!shows) {
        if (may_be_empty) return std::string();
        return TextProblem{"shows nothing"};
    }
    if (e - b > max) return TextProblem{"is longer than " + std::to_string(max) + " characters"};
    return std::string(raw.substr(points[b].at, points[e - 1].end - points[b].at));
}

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
        try {
            f();
        } catch (const std::exception& e) {
            hub_.metrics.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
            spdlog::error("admin: {} threw: {}", what_, e.what());
            respond_(error(http::status::internal_server_error, "internal", "internal error"));
        }
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
    // The body as a JSON object with only `allowed` members; or nothing, refused.
    std::optional<json> object_body(const std::string& body, std::initializer_list<std::string_view> allowed);

    void list_tables();
    void list_connections();
    void list_connections_following(const std::vector<std::optional<Table::AdminView>>& views);
    void close_table(const std::string& table, const std::string& body);
    void remove_player(const std::string& table, const std::string& body);
    void list_bans();
    void ban(const std::string& body);
    void unban(const std::string& player);
    void broadcast(const std::string& body);

    Hub& hub_;
    const std::string client_;
    const Respond respond_;
    std::string what_;  // the method and path, for the log
};

std::optional<json> Action::object_body(const std::string& body, std::initializer_list<std::string_view> allowed) {
    auto parsed = parse_json_text(body);
    if (!parsed) {
        refuse(http::status::bad_request, "bad_json", "the body is not JSON: " + parsed.error().message());
        return std::nullopt;
    }
    if (!parsed->is_object()) {
        refuse(http::status::bad_request, "bad_body", "the body must be a JSON object");
        return std::nullopt;
    }
    for (const auto& [key, value] : parsed->items())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            refuse(http::status::bad_request, "bad_body", "unknown member \"" + shown(key) + "\"");
            return std::nullopt;
        }
    return std::move(*parsed);
}

void Action::route(http::verb method, std::string_view path, const std::string& body) {
    what_ = std::string(http::to_string(method)) + " " + shown(path);
    const auto parts = segments(path);
    // Each route: its segments ("*" a parameter), its method, and what it does.
    struct Route {
        std::vector<std::string_view> pattern;
        http::verb method;
        std::function<void(const std::vector<std::string_view>&)> run;
    };
    const auto self = shared_from_this();
    const std::vector<Route> routes = {
        {{"admin", "tables"}, http::verb::get, [self](const auto&) { self->list_tables(); }},
        {{"admin", "connections"}, http::verb::get, [self](const auto&) { self->list_connections(); }},
        {{"admin", "tables", "*", "close"}, http::verb::post,
         [self, &body](const auto& p) { self->close_table(std::string(p[2]), body); }},
        {{"admin", "tables", "*", "remove"}, http::verb::post,
         [self, &body](const auto& p) { self->remove_player(std::string(p[2]), body); }},
        {{"admin", "bans"}, http::verb::get, [self](const auto&) { self->list_bans(); }},
        {{"admin", "bans"}, http::verb::post, [self, &body](const auto&) { self->ban(body); }},
        {{"admin", "bans", "*"}, http::verb::delete_, [self](const auto& p) { self->unban(std::string(p[2])); }},
        {{"admin", "broadcast"}, http::verb::post, [self, &body](const auto&) { self->broadcast(body); }},
    };
    std::string allow;
    for (const Route& r : routes) {
        if (r.pattern.size() != parts.size()) continue;
        bool match = true;
        for (std::size_t i = 0; i < parts.size() && match; ++i)
            match = r.pattern[i] == "*" ? !parts[i].empty() : r.pattern[i] == parts[i];
        if (!match) continue;
        if (r.method != method) {
            allow += (allow.empty() ? "" : ", ") + std::string(http::to_string(r.method));
            continue;
        }
        if (body.size() > kMaxAdminBodyBytes)
            return refuse(http::status::bad_request, "body_too_large",
                          "the body is over " + std::to_string(kMaxAdminBodyBytes) + " bytes");
        if (method != http::verb::post && !body.empty())
            return refuse(http::status::bad_request, "bad_body", what_ + " takes no body");
        return guarded([&] { r.run(parts); });
    }
    if (!allow.empty()) {
        AdminAnswer a = error(http::status::method_not_allowed, "method_not_allowed", what_ + ": allowed: " + allow);
        a.headers.emplace_back(http::field::allow, allow);
        return respond_(std::move(a));
    }
    respond_(error(http::status::not_found, "not_found", "no admin endpoint " + what_));
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

void Action::close_table(const std::string& table, const std::string& body) {
    // No body, or an empty object (what a client that always sends JSON sends).
    if (!body.empty() && !object_body(body, {})) return;
    auto t = table_id(table) ? hub_.tables.find(table) : nullptr;
    if (!t) return refuse(http::status::not_found, "no_such_table", "no open table \"" + shown(table) + "\" on this server");
    t->admin_close([self = shared_from_this(), table](bool closed) {
        self->guarded([&] {
            if (!closed) return self->refuse(http::status::not_found, "no_such_table", "table " + table + " is closed already");
            self->did(AdminAction::close_table, table, {{"table", table}, {"closed", true}});
        });
    });
}

void Action::remove_player(const std::string& table, const std::string& body) {
    const auto doc = object_body(body, {"player"});
    if (!doc) return;
    const auto player = doc->find("player");
    if (player == doc->end() || !player->is_string() || !player_id(player->get<std::string>()))
        return refuse(http::status::bad_request, "bad_body", "\"player\" must be a player id, \"p\" and 16 hex digits");
    auto t = table_id(table) ? hub_.tables.find(table) : nullptr;
    if (!t) return refuse(http::status::not_found, "no_such_table", "no open table \"" + shown(table) + "\" on this server");
    const std::string id = player->get<std::string>();
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

void Action::ban(const std::string& body) {
    const auto doc = object_body(body, {"player", "reason"});
    if (!doc) return;
    const auto player = doc->find("player");
    if (player == doc->end() || !player->is_string() || !player_id(player->get<std::string>()))
        return refuse(http::status::bad_request, "bad_body", "\"player\" must be a player id, \"p\" and 16 hex digits");
    std::string reason;
    if (const auto r = doc->find("reason"); r != doc->end()) {
        if (!r->is_string()) return refuse(http::status::bad_request, "bad_body", "\"reason\" must be a string");
        auto text = operator_text(r->get<std::string>(), kMaxBanReasonLength, true);
        if (!text) return refuse(http::status::bad_request, "bad_body", "\"reason\" " + text.error().what);
        reason = std::move(*text);
    }
    // Banned first (no hello gets in from here on), stored, then its connections closed.
    hub_.lobby.ban(player->get<std::string>(), reason, [self = shared_from_this()](Lobby::Ban b) {
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
    if (!player_id(player)) return refuse(http::status::not_found, "not_banned", "\"" + shown(player) + "\" is not a banned player");
    hub_.lobby.unban(player, [self = shared_from_this(), player](std::optional<Lobby::Ban> lifted) {
        self->guarded([&] {
            if (!lifted) return self->refuse(http::status::not_found, "not_banned", "player " + player + " is not banned");
            self->did(AdminAction::unban, player, {{"ban", ban_json(*lifted)}});
        });
    });
}

void Action::broadcast(const std::string& body) {
    const auto doc = object_body(body, {"text"});
    if (!doc) return;
    const auto raw = doc->find("text");
    if (raw == doc->end() || !raw->is_string()) return refuse(http::status::bad_request, "bad_body", "\"text\" must be a string");
    auto text = operator_text(raw->get<std::string>(), kMaxAnnouncementLength, false);
    if (!text) return refuse(http::status::bad_request, "bad_body", "\"text\" " + text.error().what);
    const auto at = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                        .count();
    // Rendered once, the same frame to every connection; the text is data, never markup.
    const Frame frame = std::make_shared<const std::string>(dump_text({{"type", "announcement"}, {"text", *text}, {"at", at}}));
    std::vector<std::shared_ptr<Session>> sessions;
    hub_.sessions.for_each([&](const std::shared_ptr<Session>& s) { sessions.push_back(s); });
    auto sent = gather<bool>(sessions.size(), [self = shared_from_this(), text = *text, at](std::vector<bool> each) {
        self->guarded([&] {
            const auto n = std::count(each.begin(), each.end(), true);
            self->did(AdminAction::broadcast, "\"" + text + "\" (to " + std::to_string(n) + " connections)",
                      {{"text", text}, {"at", at}, {"connections", n}});
        });
    });
    for (const auto& s : sessions) s->announce(frame, sent);
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
        spdlog::warn("admin: {} {} from {}: {} token, refused", std::string(http::to_string(req.method())), shown(path),
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
