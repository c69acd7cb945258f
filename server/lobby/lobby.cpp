#include "server/lobby/lobby.hpp"
#include "server/base/guarded.hpp"
#include "server/table/rule_sets.hpp"
#include "server/lobby/pending_hello.hpp"

#include <algorithm>
#include <set>
#include <unordered_set>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <spdlog/spdlog.h>
#include "protocol/reply.hpp"
#include "protocol/ruleset_json.hpp"
#include "protocol/display_name.hpp"
#include "protocol/json_text.hpp"
#include "server/host/host_token.hpp"
#include "server/base/secret.hpp"
#include "server/net/connection.hpp"
#include "protocol/sha256.hpp"
#include "server/table/table.hpp"
#include "server/table/table_registry.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace net = boost::asio;
using nlohmann::json;

namespace {
std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}
// A request handler's last net: a defect of ours answers `internal`, is
// logged and counted, and the lobby goes on.
template <class F>
void guarded(Hub& hub, const std::shared_ptr<Connection>& session, const LobbyRequest& request, const char* re, F&& f) {
    server::guarded(
        hub.metrics, std::forward<F>(f),
        [&] { session->send(error_reply(request.id, re, "internal", "the server failed to handle this request")); },
        "lobby: {}", re);
}

}  // namespace

void Lobby::hello(std::shared_ptr<Connection> session, LobbyRequest request) {
    net::post(strand_, [this, session = std::move(session), request = std::move(request)]() mutable {
        PendingHello answer(session, request.id, hub_->metrics);
        server::guarded(
            hub_->metrics, [&] { hello(answer, request); },
            [&] { answer.refuse("internal", "the server failed to handle this request"); }, "lobby: hello");
    });
}

void Lobby::hello(PendingHello& answer, const LobbyRequest& request) {
    const auto& session = answer.connection();
    auto& h = std::get<Hello>(request.body);
    if (h.protocol != kProtocolVersion)
        return answer.refuse("unsupported_protocol",
                             "this server speaks protocol 1, not " + std::to_string(h.protocol));
    if (h.login) return log_in(answer, request);
    if (!hub_->config.guests) {
        hub_->metrics.refused_logins.fetch_add(1, std::memory_order_relaxed);
        return answer.refuse("guests_off",
                             "this server seats only players who log in through its host's site: hello with a login");
    }
    if (h.token) {
        const std::string hash = sha256_hex(*h.token);
        const bool clustered = hub_->store && hub_->store->clustered();
        if (!hub_->store || (players_.count(hash) && !clustered)) return welcome_back(answer, request, hash, {});
        // Not in memory: dropped while idle, or from before a restart. Read back from
        // the store off the I/O threads, then answered here; with many nodes, with the
        // seats the player holds on every node.
        const std::string known = players_.count(hash) ? players_[hash].player->id : std::string();
        return net::post(hub_->archive_threads, [this, answer, request, hash, known, clustered] {
            std::optional<storage::StoredPlayer> stored;
            std::vector<std::pair<std::string, int>> seats;
            try {
                if (known.empty()) stored = hub_->store->find_player(hash);
                const std::string id = stored ? stored->id : known;
                if (clustered && !id.empty()) seats = hub_->store->seats_of(id);
            } catch (const std::exception& e) {
                spdlog::error("lobby: reading a player back: {}", e.what());
            }
            net::post(strand_, [this, answer, request, hash, stored = std::move(stored), seats = std::move(seats)] {
                if (stored && !players_.count(hash)) {
                    players_[hash] =
                        PlayerEntry{std::make_shared<const Player>(Player{stored->id, stored->name}), 0, Clock::now()};
                    token_by_player_[stored->id] = hash;
                    count_players();
                }
                PendingHello pending = answer;
                welcome_back(pending, request, hash, seats);
            });
        });
    }
    if (!hub_->new_players.allow(session->address())) {
        hub_->metrics.refused_players.fetch_add(1, std::memory_order_relaxed);
        return answer.refuse("too_many_new_players",
                             "more than " + std::to_string(hub_->config.players_per_address_per_minute) +
                                 " new players a minute from this address: come back with your token, "
                                 "or try again in a minute");
    }
    const std::string token = random_hex(16);  // 128 bits
    auto player = std::make_shared<const Player>(Player{"p" + random_hex(8), h.name});
    const std::string hash = sha256_hex(token);
    players_[hash] = PlayerEntry{player, 0, Clock::now()};
    token_by_player_[player->id] = hash;
    count_players();
    json reply = {{"protocol", kProtocolVersion}, {"player", player->id}, {"name", player->name},
                  {"token", token},               {"seats", json::array()}};
    answer_hello(answer, request, player, hash, std::move(reply));
}

void Lobby::log_in(PendingHello& answer, const LobbyRequest& request) {
    const auto& h = std::get<Hello>(request.body);
    auto refuse = [&](const std::string& code, const std::string& message) {
        hub_->metrics.refused_logins.fetch_add(1, std::memory_order_relaxed);
        answer.refuse(code, message);
    };
    if (!hub_->logins) return refuse("logins_off", "this server takes no logins: hello with a name (and your token)");
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
    // The login is a secret: it is never logged, nor quoted back.
    auto account = hub_->logins->verify(*h.login, seconds);
    if (!account) {
        switch (account.error()) {
            case HostTokenError::token_malformed: return refuse("login_malformed", "the login is not a JWT this server can read");
            case HostTokenError::token_bad_signature:
                return refuse("login_bad_signature", "the login's signature is not the host's");
            case HostTokenError::token_expired: return refuse("login_expired", "the login has expired: log in again on the host's site");
            case HostTokenError::token_not_yet_valid: return refuse("login_not_yet_valid", "the login is not valid yet");
            case HostTokenError::token_wrong_issuer: return refuse("login_wrong_issuer", "the login was not issued by this server's host");
            case HostTokenError::token_wrong_audience: return refuse("login_wrong_audience", "the login is not meant for this server");
            case HostTokenError::token_bad_subject:
                return refuse("login_bad_subject", "the login names no account this server can use (sub)");
        }
        return refuse("login_malformed", "the login is not a JWT this server can read");
    }
    // One host account, one player, on every device and every node: the id follows from the account.
    const std::string id = "p" + sha256_hex("sparts-login:" + account->player_id).substr(0, 16);
    // Not a token's hash (those are 64 hex digits): no token opens this player.
    const std::string key = "login:" + id;
    const std::string name = valid_display_name(account->display_name) ? account->display_name : h.name;
    auto& entry = players_[key];
    entry.player = std::make_shared<const Player>(Player{id, name});
    entry.last_seen = Clock::now();
    token_by_player_[id] = key;
    count_players();
    hub_->metrics.logins.fetch_add(1, std::memory_order_relaxed);
    if (!hub_->store || !hub_->store->clustered()) return welcome_back(answer, request, key, {}, *account);
    net::post(hub_->archive_threads, [this, answer, request, key, id, account = *account] {
        std::vector<std::pair<std::string, int>> seats;
        try {
            seats = hub_->store->seats_of(id);
        } catch (const std::exception& e) {
            spdlog::error("lobby: reading a player's seats: {}", e.what());
        }
        net::post(strand_, [this, answer, request, key, seats = std::move(seats), account] {
            PendingHello pending = answer;
            welcome_back(pending, request, key, seats, account);
        });
    });
}

void Lobby::welcome_back(PendingHello& answer, const LobbyRequest& request, const std::string& hash,
                         const std::vector<std::pair<std::string, int>>& elsewhere,
                         const std::optional<HostIdentity>& login) {
    auto it = players_.find(hash);
    if (it == players_.end())
        return answer.refuse("unknown_token", "no player has this token; say hello without one to get a new one");
    if (banned(it->second.player->id)) return answer.refuse("banned", "this player is banned from this server");
    // A returning player keeps its id; the name it gives now is shown at the seats it takes from now on.
    auto fresh = std::make_shared<Player>(*it->second.player);
    if (!login) fresh->name = std::get<Hello>(request.body).name;
    it->second.player = fresh;
    it->second.last_seen = Clock::now();
    PlayerRef player = fresh;
    json seats = json::array();
    std::set<std::pair<std::string, int>> seen;
    for (const auto& [id, t] : tables_)
        for (int s = 0; s < t.seats; ++s)
            if (t.seat_players[static_cast<std::size_t>(s)] == player->id && seen.emplace(id, s).second)
                seats.push_back({{"table", id}, {"seat", s}});
    for (const auto& [id, s] : elsewhere)  // many nodes: held by other nodes
        if (seen.emplace(id, s).second) seats.push_back({{"table", id}, {"seat", s}});
    json reply = {{"protocol", kProtocolVersion}, {"player", player->id}, {"name", player->name}, {"seats", seats}};
    if (login) reply["account"] = login->player_id;
    answer_hello(answer, request, player, hash, std::move(reply));
}

void Lobby::answer_hello(PendingHello& answer, const LobbyRequest& request, PlayerRef player, const std::string& hash,
                         json reply) {
    // Quick play's terms, so that a client can say them before anyone presses Play now.
    reply["quick_play"] = {{"turn_seconds", hub_->config.turn_seconds},
                           {"bots_after_ms", hub_->config.quick_play_wait_ms}};
    // The host's named rule sets, to offer first (rule_sets.hpp).
    const auto sets = hub_->rule_sets ? hub_->rule_sets->now() : nullptr;
    reply["rule_sets"] = sets ? sets->to_json(rule_set_games_) : json::array();
    // Many nodes: the client learns it should open a connection per table (/ws?table=ID).
    if (!hub_->config.node_id.empty()) reply["node"] = hub_->config.node_id;
    // The player (and its name) is stored before the client hears of it:
    // a token handed out is a token that survives a crash.
    auto welcome = [answer, player, text = ok_reply(request.id, "hello", std::move(reply))]() mutable {
        answer.welcome(std::move(player), std::move(text));
    };
    if (!hub_->store) return welcome();
    hub_->store->submit({storage::PutPlayer{player->id, hash, player->name, now_ms()}}, std::move(welcome));
}

void Lobby::count_players() {
    hub_->metrics.players_in_memory.store(static_cast<std::int64_t>(players_.size()), std::memory_order_relaxed);
}

void Lobby::start_sweeping() {
    net::post(strand_, [this] {
        sweep_timer_ = std::make_unique<net::steady_timer>(strand_);
        sweep();
        if (hub_->rule_sets && !hub_->rule_sets->file().empty() && hub_->store) {
            count_timer_ = std::make_unique<net::steady_timer>(strand_);
            count_rule_set_games();
        }
    });
}

namespace {
// How often the lobby reads the rule sets' counts of games: a game just played shows in the
// lobby within this, whichever node played it; one small read a period, however many hellos.
constexpr auto kRuleSetCountPeriod = std::chrono::seconds(3);
}  // namespace

void Lobby::count_rule_set_games() {
    net::post(hub_->archive_threads, [this] {
        std::map<std::string, std::int64_t> counts;
        bool read = true;
        try {
            counts = hub_->store->rule_set_games();
        } catch (const std::exception& e) {
            read = false;
            spdlog::error("lobby: cannot read the rule sets' counts of games: {}", e.what());
        }
        net::post(strand_, [this, read, counts = std::move(counts)]() mutable {
            if (read) rule_set_games_ = std::move(counts);
            if (hub_->stopping) return;
            count_timer_->expires_after(kRuleSetCountPeriod);
            count_timer_->async_wait([this](boost::system::error_code ec) {
                if (!ec) count_rule_set_games();
            });
        });
    });
}

void Lobby::sweep() {
    const auto idle = std::chrono::seconds(hub_->config.player_idle_seconds);
    const auto now = Clock::now();
    std::unordered_set<std::string> seated;
    for (const auto& [id, t] : tables_)
        for (const std::string& p : t.seat_players)
            if (!p.empty()) seated.insert(p);
    std::size_t dropped = 0;
    for (auto it = players_.begin(); it != players_.end();) {
        PlayerEntry& e = it->second;
        // use_count 1: no connection holds the player (each session keeps a reference).
        const bool unused = e.player.use_count() == 1 && e.open_tables == 0 && !seated.count(e.player->id);
        if (!unused) e.last_seen = now;
        if (unused && now - e.last_seen >= idle) {
            token_by_player_.erase(e.player->id);
            it = players_.erase(it);
            ++dropped;
        } else {
            ++it;
        }
    }
    if (dropped > 0) {
        hub_->metrics.players_dropped.fetch_add(dropped, std::memory_order_relaxed);
        spdlog::debug("lobby: {} idle players dropped from memory, {} left", dropped, players_.size());
        if (players_.empty()) {
            // Give the buckets back too: a flood's worth of empty buckets stays otherwise.
            players_ = {};
            token_by_player_ = {};
        }
#if defined(__GLIBC__)
        // glibc keeps freed memory for reuse; after a flood, hand it back to the system.
        ::malloc_trim(0);
#endif
    }
    count_players();
    if (hub_->stopping) return;
    sweep_timer_->expires_after(std::min<std::chrono::seconds>(std::chrono::seconds(30),
                                                               std::max<std::chrono::seconds>(std::chrono::seconds(1), idle / 2)));
    sweep_timer_->async_wait([this](boost::system::error_code ec) {
        if (!ec) sweep();
    });
}

void Lobby::list_tables(std::shared_ptr<Connection> session, LobbyRequest request) {
    if (hub_->store && hub_->store->clustered()) {
        // Many nodes: every node's tables, from the database (read at most once a second, on
        // the archive threads), with this node's own as it knows them now.
        return net::post(hub_->archive_threads, [this, session = std::move(session), request = std::move(request)]() mutable {
            std::shared_ptr<const ListedTables> listed;
            try {
                listed = cluster_list();
            } catch (const std::exception& e) {
                spdlog::error("lobby: cannot read the tables of the other nodes: {}", e.what());
            }
            net::post(strand_, [this, session = std::move(session), request = std::move(request), listed = std::move(listed)] {
                guarded(*hub_, session, request, "list_tables", [&] {
                    const ListedTables none;
                    answer_list(session, request, listed ? listed.get() : &none);
                });
            });
        });
    }
    net::post(strand_, [this, session = std::move(session), request = std::move(request)] {
        guarded(*hub_, session, request, "list_tables", [&] { answer_list(session, request, nullptr); });
    });
}

namespace {
// The number of a table id ("t42" -> 42); 0 for an id of another form.
std::uint64_t table_number(const std::string& id) {
    if (id.size() < 2 || id.size() > 20 || id[0] != 't') return 0;
    std::uint64_t n = 0;
    for (std::size_t i = 1; i < id.size(); ++i) {
        if (id[i] < '0' || id[i] > '9') return 0;
        n = n * 10 + static_cast<std::uint64_t>(id[i] - '0');
    }
    return n;
}
// A reply to list_tables is never larger than this, whatever the limit asked: a page of a hundred tables of
// ten long names each stays well inside a connection's write queue.
constexpr std::size_t kMaxListBytes = 64 * 1024;
}  // namespace

Lobby::Listed Lobby::listing(const TableSummary& t) const {
    json entry = t.to_json();
    // The host's name for the table's rules, if they are a named rule set's (rule_sets.hpp):
    // a summary from another node's table, read from the database, does not carry it.
    if (const auto sets = hub_->rule_sets ? hub_->rule_sets->now() : nullptr; sets && !entry.contains("rule_set"))
        if (const RuleSet* set = sets->of_key(dump_text(t.ruleset))) entry["rule_set"] = RuleSets::brief(*set);
    return Listed{t.preset, t.seats, t.free_seats() > 0 && t.state != "playing", dump_text(entry)};
}

void Lobby::put_table(const TableSummary& s) {
    tables_[s.id] = s;
    const std::uint64_t number = table_number(s.id);
    if (s.is_private || number == 0) {
        public_tables_.erase(number);
        return;
    }
    public_tables_[number] = listing(s);
}

std::shared_ptr<const Lobby::ListedTables> Lobby::cluster_list() {
    std::lock_guard lock(listed_mutex_);
    const auto now = Clock::now();
    if (listed_ && now - listed_at_ < std::chrono::seconds(1)) return listed_;
    auto list = std::make_shared<ListedTables>();
    for (const storage::ListedTable& t : hub_->store->listed_tables()) {
        TableSummary s;
        s.id = t.id;
        const auto preset = parse_preset(t.preset);
        if (!preset) continue;
        s.preset = *preset;
        s.ruleset = json::parse(t.ruleset, nullptr, false);
        if (s.ruleset.is_discarded()) continue;
        s.seats = std::min(t.seats, static_cast<int>(s.seat_players.size()));
        for (int i = 0; i < s.seats; ++i) {
            const auto& seat = t.seated[static_cast<std::size_t>(i)];
            s.seat_players[static_cast<std::size_t>(i)] = seat.bot ? "bot" : seat.player;
            s.seat_names[static_cast<std::size_t>(i)] = seat.name;
        }
        s.turn_seconds = t.turn_seconds;
        s.game = t.game;
        s.state = t.game == 0 ? "waiting" : t.playing ? "playing" : "over";
        s.creator = t.creator;
        if (const std::uint64_t number = table_number(s.id)) (*list)[number] = listing(s);
    }
    listed_ = std::move(list);
    listed_at_ = now;
    return listed_;
}

void Lobby::answer_list(const std::shared_ptr<Connection>& session, const LobbyRequest& request, const ListedTables* others) {
    const auto& l = std::get<ListTables>(request.body);
    const auto matches = [&](const Listed& t) {
        return (!l.preset || *l.preset == t.preset) && (!l.seats || *l.seats == t.seats) && (!l.open_only || t.open);
    };
    // The page: the tables after the cursor, in table order, up to the limit and the byte cap; `total` counts
    // every table the filter takes (a walk over small structs, no JSON).
    // Half the write queue at most, so that the reply always fits in it beside the table events in flight.
    // (256 bytes of it for the reply around the tables: its type, id, total and cursor.)
    const std::size_t max_bytes = std::min(kMaxListBytes, hub_->config.write_queue_bytes / 2) - 256;
    std::string page;
    int shown = 0, total = 0;
    std::uint64_t last = 0;
    bool more = false;
    const auto take = [&](std::uint64_t number, const Listed& t) {
        if (!matches(t)) return;
        ++total;
        if (number <= l.after || more) return;
        if (shown == l.limit || (shown > 0 && page.size() + t.text.size() + 1 > max_bytes)) {
            more = true;
            return;
        }
        if (shown++ > 0) page += ',';
        page += t.text;
        last = number;
    };
    if (!others) {
        for (const auto& [number, t] : public_tables_) take(number, t);
    } else {
        // Many nodes: this node's tables as it knows them now, the others' from the database.
        auto mine = public_tables_.begin();
        auto theirs = others->begin();
        while (mine != public_tables_.end() || theirs != others->end()) {
            if (theirs == others->end() || (mine != public_tables_.end() && mine->first <= theirs->first)) {
                if (theirs != others->end() && theirs->first == mine->first) ++theirs;
                take(mine->first, mine->second);
                ++mine;
            } else {
                if (!tables_.count("t" + std::to_string(theirs->first))) take(theirs->first, theirs->second);
                ++theirs;
            }
        }
    }
    json fields = {{"total", total}};
    if (more) fields["next"] = "t" + std::to_string(last);
    // The reply is put together from the rendered pieces: {"type":"ok",...,"tables":[...]}.
    std::string text = ok_reply(request.id, "list_tables", std::move(fields));
    text.pop_back();  // the closing brace
    text += ",\"tables\":[";
    text += page;
    text += "]}";
    session->send(std::move(text));
}

void Lobby::create_table(std::shared_ptr<Connection> session, PlayerRef player, LobbyRequest request) {
    net::post(strand_, [this, session = std::move(session), player = std::move(player),
                        request = std::move(request)]() mutable {
        guarded(*hub_, session, request, "create_table", [&] {
            if (hub_->stopping) {
                return session->send(error_reply(request.id, "create_table", "shutting_down",
                                                 "the server is shutting down"));
            }
            auto hash = token_by_player_.find(player->id);
            if (hash == token_by_player_
                            .end())  // cannot happen: a session's player is held, so never dropped
                return session->send(
                    error_reply(request.id, "create_table", "internal", "say hello again"));
            PlayerEntry& entry = players_[hash->second];
            if (entry.open_tables >= hub_->config.tables_per_player)
                return session->send(error_reply(
                    request.id, "create_table", "too_many_tables",
                    "a player may have " + std::to_string(hub_->config.tables_per_player) +
                        " open tables at once; close or finish one first"));
            const std::string& address = session->address();
            // Players of this address waiting in quick play hold places too.
            const auto made = tables_by_address_.find(address);
            const auto queued = queued_by_address_.find(address);
            if ((made == tables_by_address_.end() ? 0 : made->second) +
                    (queued == queued_by_address_.end() ? 0 : queued->second) >=
                hub_->config.tables_per_address) {
                hub_->metrics.refused_tables_per_address.fetch_add(1, std::memory_order_relaxed);
                return session->send(error_reply(
                    request.id, "create_table", "too_many_tables_from_address",
                    "this address has " + std::to_string(hub_->config.tables_per_address) +
                        " open tables, as many as one address may; close or finish one first"));
            }
            if (open_tables_ >= hub_->config.max_tables) {
                hub_->metrics.refused_tables_total.fetch_add(1, std::memory_order_relaxed);
                return session->send(error_reply(
                    request.id, "create_table", "server_full",
                    "the server has as many open tables as it takes; join one, or try later"));
            }
            auto& c = std::get<CreateTable>(request.body);
            // Many nodes number their tables from the database's sequence (a round trip on this
            // strand, one a new table); one server alone counts on from its last.
            const std::uint64_t n = hub_->store ? hub_->store->next_table_number(next_table_ - 1) : next_table_;
            next_table_ = n + 1;
            const std::string id = "t" + std::to_string(n);
            const std::string invite = c.is_private ? random_hex(6) : std::string();
            const int turn_seconds =
                c.turn_seconds < 0 ? hub_->config.turn_seconds : c.turn_seconds;
            const auto number = static_cast<std::int64_t>(n);
            auto table = std::make_shared<Table>(*hub_, *this, id, number, c.rules, c.is_private, invite,
                                                 turn_seconds, player->id);
            count_table(id, player->id, address);
            ++open_tables_;
            json reply = {
                {"table", id}, {"ruleset", to_json(c.rules)}, {"turn_seconds", turn_seconds}};
            if (c.is_private) reply["invite"] = invite;
            spdlog::debug("table {} opened by {} ({})", id, player->id, to_string(c.rules.preset));
            // Findable, and announced, once stored.
            auto answer = [this, session, table, id,
                           text = ok_reply(request.id, "create_table", std::move(reply))] {
                net::post(strand_, [this, session, table, id, text] {
                    put_table(table->initial_summary());
                    hub_->tables.add(id, table);
                    session->send(text);
                    table->start_grace();  // closed if nobody sits down
                });
            };
            if (!hub_->store) return answer();
            if (!hub_->store->clustered()) return hub_->store->submit({table->record()}, std::move(answer));
            // Many nodes: stored, then held by this node (a lease no other node can have yet), then announced.
            hub_->store->submit({table->record()}, [this, id, answer = std::move(answer), session, rid = request.id] {
                net::post(hub_->archive_threads, [this, id, answer, session, rid] {
                    storage::Store::Taken taken = storage::Store::Taken::no_such_table;
                    try {
                        taken = hub_->store->take_over(id).taken;
                    } catch (const std::exception& e) {
                        spdlog::error("table {}: cannot take its lease: {}", id, e.what());
                    }
                    if (taken == storage::Store::Taken::taken) return answer();
                    session->send(error_reply(rid, "create_table", "internal", "the new table could not be held; try again"));
                });
            });
        });
    });
}

void Lobby::quick_play(std::shared_ptr<Connection> session, PlayerRef player, LobbyRequest request) {
    net::post(strand_, [this, session = std::move(session), player = std::move(player),
                        request = std::move(request)]() mutable {
        guarded(*hub_, session, request, "quick_play", [&] {
            if (hub_->stopping)
                return session->send(error_reply(request.id, "quick_play", "shutting_down", "the server is shutting down"));
            if (auto refusal = quick_play_refusal(player, session->address(), request); !refusal.empty())
                return session->send(refusal);
            if (!hub_->store) return enqueue_quick_player(session, player, std::move(request), 1500);
            // The rating is read off the I/O threads, then the player joins the queue here.
            net::post(hub_->archive_threads, [this, session, player, request = std::move(request)]() mutable {
                double rating = 1500;  // Glicko's start: a player not rated in this preset yet
                try {
                    const std::string preset = to_string(std::get<QuickPlay>(request.body).rules.preset);
                    if (auto rated = hub_->store->player_ratings(player->id))
                        for (const auto& r : rated->presets)
                            if (r.preset == preset) rating = r.rating;
                } catch (const std::exception& e) {
                    spdlog::error("lobby: reading a rating for quick play: {}", e.what());
                }
                net::post(strand_, [this, session, player, request = std::move(request), rating]() mutable {
                    guarded(*hub_, session, request, "quick_play",
                            [&] { enqueue_quick_player(session, player, std::move(request), rating); });
                });
            });
        });
    });
}

std::string Lobby::quick_play_refusal(const PlayerRef& player, const std::string& address, const LobbyRequest& request) {
    auto refuse = [&](const char* code, const std::string& message) {
        spdlog::info("quick play: {} from {} refused: {}", player->id, address, code);
        return error_reply(request.id, "quick_play", code, message);
    };
    if (auto it = quick_players_.find(player->id); it != quick_players_.end() && !it->second.session.expired())
        return refuse("already_queued", "you are already waiting for a game: quick_play_cancel first");
    if (!hub_->config.quick_play_while_seated && seated_at_game(player->id))
        return refuse("already_playing",
                      "you are seated at a game in progress: play it out, or leave your seat, before you look for another");
    // A player who waits again after its last connection went away gives back the places it held as it waits again.
    const auto again = quick_players_.find(player->id);
    const int queued_self = again != quick_players_.end() && again->second.address == address ? 1 : 0;
    const auto hash = token_by_player_.find(player->id);
    if (hash != token_by_player_.end() && players_[hash->second].open_tables >= hub_->config.tables_per_player)
        return refuse("too_many_tables", "a player may be at " + std::to_string(hub_->config.tables_per_player) +
                                             " open tables at once (made or matched); close or finish one first");
    const auto counted = [&](const std::unordered_map<std::string, int>& m) {
        const auto it = m.find(address);
        return it == m.end() ? 0 : it->second;
    };
    if (counted(tables_by_address_) + counted(queued_by_address_) - queued_self >= hub_->config.tables_per_address) {
        hub_->metrics.refused_tables_per_address.fetch_add(1, std::memory_order_relaxed);
        return refuse("too_many_tables_from_address",
                      "this address has " + std::to_string(hub_->config.tables_per_address) +
                          " open tables and players waiting for one, as many as one address may; finish a game first");
    }
    if (open_tables_ >= hub_->config.max_tables) {
        hub_->metrics.refused_tables_total.fetch_add(1, std::memory_order_relaxed);
        return refuse("server_full", "the server has as many open tables as it takes; join one, or try later");
    }
    return {};
}

bool Lobby::seated_at_game(const std::string& player) const {
    for (const auto& [id, t] : tables_) {
        if (t.state != "playing") continue;
        for (int s = 0; s < t.seats; ++s)
            if (t.seat_players[static_cast<std::size_t>(s)] == player) return true;
    }
    return false;
}

void Lobby::count_table(const std::string& id, const std::string& player, const std::string& address) {
    if (auto hash = token_by_player_.find(player); hash != token_by_player_.end()) {
        ++players_[hash->second].open_tables;
        table_players_[id].push_back(player);
    }
    auto& addresses = table_addresses_[id];
    if (std::find(addresses.begin(), addresses.end(), address) != addresses.end()) return;
    addresses.push_back(address);
    ++tables_by_address_[address];
}

void Lobby::forget_quick_player(std::unordered_map<std::string, QuickPlayer>::iterator it) {
    if (auto n = queued_by_address_.find(it->second.address); n != queued_by_address_.end() && --n->second <= 0)
        queued_by_address_.erase(n);
    quick_players_.erase(it);
}

void Lobby::enqueue_quick_player(const std::shared_ptr<Connection>& session, const PlayerRef& player, LobbyRequest request,
                                 double rating) {
    // Looked at again: the rating was read off this strand, and anything may have changed meanwhile.
    if (auto refusal = quick_play_refusal(player, session->address(), request); !refusal.empty())
        return session->send(refusal);
    const Ruleset& rules = std::get<QuickPlay>(request.body).rules;
    const std::string key = dump_text(to_json(rules));
    auto queue = quick_queues_
                     .try_emplace(key, rules.seats,
                                  std::chrono::milliseconds(hub_->config.quick_play_wait_ms))
                     .first;
    quick_rules_.try_emplace(key, rules);
    if (auto old = quick_players_.find(player->id); old != quick_players_.end()) {
        // Its last connection went away while it waited: it waits again, from now.
        if (auto q = quick_queues_.find(old->second.queue); q != quick_queues_.end()) q->second.remove(player->id);
        forget_quick_player(old);
    }
    queue->second.add({player->id, rating, QuickPlayQueue::Clock::now()});
    quick_players_[player->id] = QuickPlayer{key, session, player, session->address()};
    ++queued_by_address_[session->address()];
    spdlog::info("quick play: {} from {} waits for a {} game ({} waiting)", player->id, session->address(),
                 to_string(rules.preset), queue->second.size());
    hub_->metrics.quick_play_queued.fetch_add(1, std::memory_order_relaxed);
    session->send(ok_reply(request.id, "quick_play",
                           {{"ruleset", to_json(rules)},
                            {"waiting", queue->second.size()},
                            {"bots_after_ms", hub_->config.quick_play_wait_ms},
                            {"turn_seconds", hub_->config.turn_seconds}}));
    quick_match();
}

void Lobby::quick_play_cancel(std::shared_ptr<Connection> session, PlayerRef player, LobbyRequest request) {
    net::post(strand_, [this, session = std::move(session), player = std::move(player), request = std::move(request)] {
        auto it = quick_players_.find(player->id);
        if (it == quick_players_.end())
            return session->send(error_reply(request.id, "quick_play_cancel", "not_queued", "you are not waiting for a game"));
        if (auto q = quick_queues_.find(it->second.queue); q != quick_queues_.end()) q->second.remove(player->id);
        forget_quick_player(it);
        spdlog::info("quick play: {} stopped waiting", player->id);
        session->send(ok_reply(request.id, "quick_play_cancel", json::object()));
    });
}

void Lobby::quick_match() {
    const auto now = QuickPlayQueue::Clock::now();
    for (auto q = quick_queues_.begin(); q != quick_queues_.end();) {
        QuickPlayQueue& queue = q->second;
        // A player whose connection went away waits no more (the queue holds ids only).
        for (auto it = quick_players_.begin(); it != quick_players_.end();) {
            if (it->second.queue == q->first && it->second.session.expired()) {
                queue.remove(it->first);
                hub_->metrics.quick_play_left.fetch_add(1, std::memory_order_relaxed);
                spdlog::info("quick play: {} left the queue (its connection went away)", it->first);
                forget_quick_player(it++);
            } else {
                ++it;
            }
        }
        // A full server makes nobody's table: they wait on.
        if (!hub_->stopping && open_tables_ < hub_->config.max_tables) {
            for (auto& m : queue.match(now)) {
                std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> players;
                std::vector<std::string> addresses;
                for (const std::string& id : m.players) {
                    auto it = quick_players_.find(id);
                    players.emplace_back(it->second.session.lock(), it->second.player);
                    addresses.push_back(it->second.address);
                    forget_quick_player(it);
                }
                make_quick_table(quick_rules_.at(q->first), std::move(players), addresses, m.bots);
            }
        }
        if (queue.empty()) {
            quick_rules_.erase(q->first);
            q = quick_queues_.erase(q);
        } else {
            ++q;
        }
    }
    if (quick_queues_.empty() || quick_timer_armed_) return;
    if (!quick_timer_) quick_timer_ = std::make_unique<net::steady_timer>(strand_);
    quick_timer_armed_ = true;
    quick_timer_->expires_after(std::chrono::milliseconds(250));
    quick_timer_->async_wait([this](boost::system::error_code ec) {
        quick_timer_armed_ = false;
        if (!ec && !hub_->stopping) quick_match();
    });
}

void Lobby::make_quick_table(const Ruleset& rules, std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> players,
                             const std::vector<std::string>& addresses, int bots) {
    const std::uint64_t n = hub_->store ? hub_->store->next_table_number(next_table_ - 1) : next_table_;
    next_table_ = n + 1;
    const std::string id = "t" + std::to_string(n);
    // Made by the server for its players: counted against each of them and each of their addresses, as a
    // created table is against its creator and its address, until it closes.
    auto table = std::make_shared<Table>(*hub_, *this, id, static_cast<std::int64_t>(n), rules, false, std::string(),
                                         hub_->config.turn_seconds, "quick-play");
    ++open_tables_;
    for (std::size_t i = 0; i < players.size(); ++i) count_table(id, players[i].second->id, addresses[i]);
    hub_->metrics.quick_play_tables.fetch_add(1, std::memory_order_relaxed);
    std::string who;
    for (std::size_t i = 0; i < players.size(); ++i)
        who += (i ? ", " : "") + players[i].second->id + " from " + addresses[i];
    spdlog::info("quick play: table {} ({}) for {}{}", id, to_string(rules.preset), who,
                 bots ? fmt::format(" and {} bots", bots) : std::string());
    auto seat = [this, table, id, players = std::move(players)]() mutable {
        net::post(strand_, [this, table, id, players = std::move(players)]() mutable {
            put_table(table->initial_summary());
            hub_->tables.add(id, table);
            table->seat_matched(std::move(players));
        });
    };
    if (!hub_->store) return seat();
    if (!hub_->store->clustered()) return hub_->store->submit({table->record()}, std::move(seat));
    hub_->store->submit({table->record()}, [this, id, seat = std::move(seat)]() mutable {
        net::post(hub_->archive_threads, [this, id, seat = std::move(seat)]() mutable {
            try {
                if (hub_->store->take_over(id).taken == storage::Store::Taken::taken) return seat();
            } catch (const std::exception& e) {
                spdlog::error("table {}: cannot take its lease: {}", id, e.what());
            }
            spdlog::error("quick play table {} could not be held", id);
        });
    });
}

void Lobby::list_recovered(const std::shared_ptr<Table>& table) {
    const TableSummary& s = table->initial_summary();
    put_table(s);
    hub_->tables.add(s.id, table);
    if (auto hash = token_by_player_.find(s.creator); hash != token_by_player_.end())
        ++players_[hash->second].open_tables;
    ++open_tables_;  // not counted against an address: which one made it is not kept
}

void Lobby::adopt(std::shared_ptr<Table> table, std::function<void()> done) {
    net::post(strand_, [this, table = std::move(table), done = std::move(done)] {
        list_recovered(table);
        count_players();
        if (done) done();
    });
}

void Lobby::table_changed(TableSummary summary) {
    net::post(strand_, [this, summary = std::move(summary)]() mutable {
        if (tables_.count(summary.id)) put_table(summary);
    });
}

void Lobby::table_closed(std::string id, std::string creator, const Table* table) {
    net::post(strand_, [this, id = std::move(id), creator = std::move(creator), table] {
        // A table that moved away may be back on this node already, as another object.
        if (!hub_->tables.remove(id, table)) return;
        if (tables_.erase(id) == 0) return;
        public_tables_.erase(table_number(id));
        --open_tables_;
        if (auto a = table_addresses_.find(id); a != table_addresses_.end()) {
            for (const std::string& address : a->second)
                if (auto n = tables_by_address_.find(address); n != tables_by_address_.end() && --n->second <= 0)
                    tables_by_address_.erase(n);
            table_addresses_.erase(a);
        }
        // A created table counts against its creator; quick play's against each player it seated.
        std::vector<std::string> counted{creator};
        if (auto p = table_players_.find(id); p != table_players_.end()) {
            counted = std::move(p->second);
            table_players_.erase(p);
        } else if (auto hash = token_by_player_.find(creator); hash == token_by_player_.end()) {
            counted.clear();
        }
        for (const std::string& player : counted) {
            if (auto hash = token_by_player_.find(player); hash != token_by_player_.end()) {
                PlayerEntry& e = players_[hash->second];
                --e.open_tables;
                e.last_seen = Clock::now();
            }
        }
    });
}

void Lobby::restore(const std::vector<PlayerRef>& players, const std::vector<std::string>& token_hashes,
                    const std::vector<std::shared_ptr<Table>>& tables, std::uint64_t last_table_number) {
    for (std::size_t i = 0; i < players.size(); ++i) {
        players_[token_hashes[i]] = PlayerEntry{players[i], 0, Clock::now()};
        token_by_player_[players[i]->id] = token_hashes[i];
    }
    for (const auto& t : tables) {
        list_recovered(t);
    }
    next_table_ = last_table_number + 1;
    count_players();
}

}  // namespace sparts::server
