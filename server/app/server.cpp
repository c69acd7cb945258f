#include "server/app/server.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>
#include "protocol/server_messages.hpp"
#include "server/admin/admin_api.hpp"
#include "server/table/rule_sets.hpp"
#include "server/app/routes.hpp"
#include "server/net/client_address.hpp"
#include "server/host/host_token.hpp"
#include "server/host/webhook.hpp"
#include "server/admin/backups.hpp"
#include "server/admin/retirement.hpp"
#include "server/net/listener.hpp"
#include "server/net/session.hpp"
#include "server/table/table.hpp"
#include "server/lobby/table_loader.hpp"
#include "server/table/table_registry.hpp"
#include "storage/backends/open_store.hpp"
#include "storage/postgres/pg.hpp"

namespace sparts::server {

namespace net = boost::asio;

Server::Server(Config config)
    : config_(std::move(config)),
      io_(config_.threads > 0 ? config_.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
      bots_(std::max(1u, std::thread::hardware_concurrency() / 2)),
      archive_threads_(static_cast<std::size_t>(std::max(1, config_.archive_threads))),
      connections_(config_.connections_per_address, config_.max_connections),
      archive_(static_cast<std::size_t>(config_.archive_cache_games), metrics_),
      new_players_(config_.players_per_address_per_minute),
      archive_reads_(config_.archive_reads_per_minute),
      lobby_(io_),
      hub_{config_,      io_,       bots_,    archive_threads_, lobby_,         tables_,
           connections_, sessions_, metrics_, new_players_,     archive_reads_, {}},
      signals_(io_, SIGINT, SIGTERM) {
    lobby_.attach(hub_);
    hub_.trusted_proxies = TrustedProxies(config_.trusted_proxies);
}

Server::~Server() = default;

void Server::restore() {
    const auto started = std::chrono::steady_clock::now();
    std::vector<PlayerRef> players;
    std::vector<std::string> hashes;
    for (const auto& p : store_->players()) {
        players.push_back(std::make_shared<const Player>(Player{p.id, p.name}));
        hashes.push_back(p.token_hash);
    }
    std::vector<std::shared_ptr<Table>> tables;
    for (const auto& stored : store_->open_tables()) {
        auto table = Table::recover(hub_, lobby_, stored);
        if (!table) {
            // Left in the database as it is, for someone to look at; never silently dropped.
            spdlog::error("cannot bring back {}", table.error());
            continue;
        }
        tables.push_back(std::move(*table));
    }
    lobby_.restore(players, hashes, tables, store_->last_table_number());
    std::vector<Lobby::Ban> bans;
    for (auto& b : store_->bans()) bans.push_back({std::move(b.player), std::move(b.reason), b.at});
    lobby_.restore_bans(std::move(bans));
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    spdlog::info("database {}: {} players, {} open tables brought back in {} ms", storage::pg::redact(config_.database), players.size(),
                 tables.size(), ms.count());
}

std::uint16_t Server::start() {
    if (config_.login_algorithm != "off") {
        HostTokenConfig logins{.algorithm = config_.login_algorithm,
                               .secret = {},
                               .public_key_file = config_.login_public_key,
                               .issuer = config_.login_issuer,
                               .audience = config_.login_audience,
                               .clock_skew_seconds = config_.login_clock_skew_seconds};
        if (config_.login_algorithm == "HS256") {
            std::ifstream in(config_.login_secret_file, std::ios::binary);
            if (!in) throw std::runtime_error("--login-secret-file " + config_.login_secret_file + ": cannot read it");
            std::getline(in, logins.secret, '\0');
            // A secret written by `echo` ends with a newline that is not part of it.
            while (!logins.secret.empty() && (logins.secret.back() == '\n' || logins.secret.back() == '\r'))
                logins.secret.pop_back();
        }
        logins_ = std::make_unique<HostTokenVerifier>(logins);
        hub_.logins = logins_.get();
    }
    if (!config_.webhook_url.empty()) {
        std::ifstream in(config_.webhook_secret_file, std::ios::binary);
        if (!in) throw std::runtime_error("--webhook-secret-file " + config_.webhook_secret_file + ": cannot read it");
        std::string secret;
        std::getline(in, secret, '\0');
        while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
        WebhookLimits limits;
        limits.concurrency = static_cast<std::size_t>(config_.webhook_concurrency);
        limits.queue_capacity = static_cast<std::size_t>(config_.webhook_queue);
        webhook_ = std::make_unique<GameOverWebhook>(io_.get_executor(), config_.webhook_url, std::move(secret), limits);
        hub_.webhook = webhook_.get();
    }
    rule_sets_ = std::make_unique<RuleSetShelf>(config_.rule_sets_file);
    hub_.rule_sets = rule_sets_.get();
    if (!config_.rule_sets_file.empty()) {
        auto sets = RuleSets::read(config_.rule_sets_file);
        if (!sets) throw std::runtime_error("--rule-sets: " + sets.error());
        spdlog::info("rule sets: {} from {}", sets->all().size(), config_.rule_sets_file);
        rule_sets_->put(std::make_shared<const RuleSets>(std::move(*sets)));
    }
    if (!config_.admin_token_file.empty()) {
        auto token = AdminToken::read(config_.admin_token_file);
        if (!token) throw std::runtime_error("--admin-token-file: " + token.error());
        admin_ = std::make_unique<AdminApi>(hub_, std::move(*token));
        spdlog::info("admin API: on, under /admin/ (bearer token from {})", config_.admin_token_file);
    }
    if (!config_.node_id.empty() && !storage::pg::is_url(config_.database))
        throw std::runtime_error("--node-id " + config_.node_id +
                                 ": the nodes of a cluster share a PostgreSQL database: give --database postgresql://…");
    if (config_.database != "none") {
        storage::StoreOptions options;
        options.sqlite = {.sync_full = config_.db_sync_full,
                          .retry_ms = 1000,
                          .wal_restart_pages = config_.wal_restart_pages,
                          .wal_limit_bytes = config_.wal_limit_bytes,
                          .commit_interval = std::chrono::microseconds(config_.db_commit_interval_us)};
        options.postgres.node = config_.node_id;
        options.postgres.lease_ms = config_.lease_ms;
        options.postgres.commit_interval = std::chrono::microseconds(config_.db_commit_interval_us);
        auto opened = storage::open_store(config_.database, options);
        if (!opened) throw std::runtime_error(opened.error());
        store_ = std::move(*opened);
        if (store_->clustered()) {
            loader_ = std::make_unique<TableLoader>(hub_);
            hub_.loader = loader_.get();
            // On the store's writer thread: the tables are found and told on their strands.
            store_->on_lease_events({[this](const std::string& id) {
                                         if (auto t = hub_.tables.find(id)) t->lost();
                                     },
                                     [this](const std::string& id) {
                                         if (auto t = hub_.tables.find(id)) t->hand_off(nullptr);
                                     }});
        }
        hub_.store = store_.get();
        archive_.attach(store_.get());
        if (webhook_) {
            // Summaries wait in the database until delivered: those of a last run first.
            storage::Store* store = store_.get();
            webhook_->keep_in(WebhookOutbox{
                [store](std::size_t limit) {
                    std::vector<WebhookPending> out;
                    for (auto& p : store->pending_webhooks(limit))
                        out.push_back({std::move(p.table), p.game, std::move(p.body)});
                    return out;
                },
                [store](const std::string& table, int game, std::function<void()> stored) {
                    store->submit({storage::WebhookDone{table, game}}, std::move(stored));
                },
                archive_threads_.get_executor()});
        }
        restore();
    }
    if (!config_.backup_dir.empty()) {
        if (!store_ || storage::pg::is_url(config_.database))
            throw std::runtime_error("--backup-dir backs up a SQLite --database; back PostgreSQL up with its own tools "
                                     "(pg_dump, base backups: docs/OPERATING.md, \"Backups\")");
        backups_ = std::make_unique<Backups>(*store_, config_.backup_dir, config_.backup_keep, metrics_);
        hub_.backups = backups_.get();
        if (config_.backup_every_seconds > 0) {
            backup_timer_ = std::make_unique<net::steady_timer>(io_);
            schedule_backup();
        }
    }
    if (!config_.retire_dir.empty()) {
        if (!store_) throw std::runtime_error("--retire-dir retires games from the archive: it needs a --database");
        retirement_ = std::make_unique<Retirement>(*store_, config_.retire_dir, config_.retire_after_days, metrics_,
                                                   [this] { archive_.forget_all(); });
        hub_.retirement = retirement_.get();
        if (config_.retire_every_seconds > 0) {
            retirement_timer_ = std::make_unique<net::steady_timer>(io_);
            // The first a minute after start, once the tables brought back have settled.
            schedule_retirement(std::chrono::seconds(std::min(60, config_.retire_every_seconds)));
        }
    }
    if (const auto bad = TrustedProxies::check(config_.trusted_proxies))
        throw std::runtime_error("--trusted-proxies: \"" + *bad + "\" is neither an IP address nor a network like 10.0.0.0/8");
    boost::system::error_code bad_address;
    const auto address = net::ip::make_address(config_.address, bad_address);
    if (bad_address)
        throw std::runtime_error("--address: \"" + config_.address + "\" is not an IP address (" + bad_address.message() + ")");
    routes_ = std::make_unique<ServerRoutes>(hub_, archive_, admin_.get());
    hub_.routes = routes_.get();
    try {
        listener_ = std::make_shared<Listener>(hub_, net::ip::tcp::endpoint(address, config_.port));
    } catch (const boost::system::system_error& e) {
        // "bind: Address already in use" says neither which address nor which setting.
        throw std::runtime_error("cannot listen on " + config_.address + ":" + std::to_string(config_.port) +
                                 " (--address, --port): " + e.code().message());
    }
    fit_connections_to_file_limit();
    lobby_.start_sweeping();
    listener_->run();
    signals_.async_wait([this](boost::system::error_code ec, int signal) {
        if (ec) return;
        spdlog::info("signal {}: shutting down", signal);
        stop();
    });
    return listener_->port();
}

bool Server::run() {
    const int n = config_.threads > 0 ? config_.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> threads;
    for (int i = 1; i < n; ++i) threads.emplace_back([this] { run_io(); });
    run_io();
    for (auto& t : threads) t.join();
    archive_threads_.join();
    // A strong bot may still be thinking (50 ms, far longer under a sanitizer) once the I/O
    // threads are done. Its task holds its table and used to run on during ~Server, which
    // joins bots_ only after destroying the members declared after it (Hub, TableRegistry,
    // SessionSet, ConnectionLimits, Metrics): when the task dropped the table's last
    // reference, the table (and the sessions its unsent steps hold) was destroyed on the
    // bot thread while the main thread destroyed what they reach. Joined here, no thread
    // but this one runs our code after run(); the decision goes to the stopped io_context.
    bots_.join();
    // The commits in flight get the shutdown time; a disk that stays full does
    // not keep the process from exiting (the store says what it leaves).
    if (store_ && !store_->flush(std::chrono::seconds(std::max(1, config_.shutdown_seconds)))) {
        spdlog::error("database: commits still failing after {} s at shutdown", std::max(1, config_.shutdown_seconds));
        return false;
    }
    return true;
}

// The last net under every handler: an exception that escapes one (each
// request handler catches its own and answers with an internal error) is
// logged and counted, and the thread goes back to work. The strand it left
// runs its next handler as usual; the process never ends for a request.
void Server::run_io() {
    for (;;) {
        try {
            io_.run();
            return;
        } catch (const std::exception& e) {
            metrics_.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
            spdlog::error("a handler threw, the server plays on: {}", e.what());
        } catch (...) {
            metrics_.handler_exceptions.fetch_add(1, std::memory_order_relaxed);
            spdlog::error("a handler threw something that is not an exception, the server plays on");
        }
    }
}

// Every connection takes a file descriptor; so do the database, its log and
// the archive reader. A server that runs out accepts nothing, answers nothing
// (not even /healthz) and retries its accept in a loop. So: raise the soft
// limit to the hard one, and accept no more connections than it leaves room
// for, refusing the rest at the door while there are descriptors to do it.
void Server::fit_connections_to_file_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    constexpr rlim_t kReserved = 64;  // the database, its log, readers, the refusals in flight, logs
    if (limit.rlim_cur == RLIM_INFINITY) return;
    const auto room = limit.rlim_cur > kReserved * 2 ? limit.rlim_cur - kReserved : limit.rlim_cur / 2;
    if (room < static_cast<rlim_t>(connections_.total_limit())) {
        connections_.cap_total(static_cast<int>(room));
        spdlog::warn("{} file descriptors allowed (ulimit -n): at most {} connections, not {} (--max-connections)",
                     static_cast<unsigned long long>(limit.rlim_cur), static_cast<unsigned long long>(room),
                     config_.max_connections);
    }
}

void Server::schedule_backup() {
    backup_timer_->expires_after(std::chrono::seconds(config_.backup_every_seconds));
    backup_timer_->async_wait([this](const boost::system::error_code& ec) {
        if (ec || hub_.stopping) return;
        // One still under way (a copy slower than the interval) is let be: the next comes at the next tick.
        if (auto started = backups_->start("schedule"); !started) spdlog::warn("backup (schedule): {}", started.error().message);
        schedule_backup();
    });
}

void Server::schedule_retirement(std::chrono::seconds after) {
    retirement_timer_->expires_after(after);
    retirement_timer_->async_wait([this](const boost::system::error_code& ec) {
        if (ec || hub_.stopping) return;
        schedule_retirement(std::chrono::seconds(config_.retire_every_seconds));
        // A run still under way (a year of games at once) is let be: the next comes at the next tick.
        if (auto started = retirement_->start("schedule"); !started)
            spdlog::warn("retirement (schedule): {}", started.error().message);
    });
}

void Server::stop() {
    net::post(io_, [this] {
        if (hub_.stopping.exchange(true)) return;
        if (retirement_) retirement_->request_stop();
        boost::system::error_code ignored;
        signals_.cancel(ignored);
        if (store_ && store_->clustered()) return drain();
        close_sessions();
    });
}

void Server::close_sessions() {
    if (closing_sessions_.exchange(true)) return;
    if (listener_) listener_->stop();
    // Tables stay open in the store: they come back at the next start (or on another node).
    sessions_.for_each([](const std::shared_ptr<Session>& s) {
        s->send(closing_frame("shutdown"));
        s->close(CloseCode::going_away, "server shutting down");
    });
    stop_timer_ = std::make_unique<net::steady_timer>(io_);
    wait_for_sessions(config_.shutdown_seconds * 20);  // every 50 ms
}

void Server::drain() {
    // /readyz answers 503 from now (hub_.stopping): the proxy's health checks see it and send
    // new clients elsewhere, while this node still answers those it has.
    spdlog::info("node {}: draining: not ready for {} ms, then its tables go to the other nodes", config_.node_id,
                 config_.drain_ms);
    drain_timer_ = std::make_unique<net::steady_timer>(io_, std::chrono::milliseconds(config_.drain_ms));
    drain_timer_->async_wait([this](boost::system::error_code) {
        std::vector<std::shared_ptr<Table>> tables;
        hub_.tables.for_each([&](const std::shared_ptr<Table>& t) { tables.push_back(t); });
        spdlog::info("node {}: handing {} tables over", config_.node_id, tables.size());
        if (tables.empty()) return close_sessions();
        // Each table's steps are committed, its lease released and its clients told to reconnect;
        // the last one done closes the rest. A store that cannot commit is not waited for past the
        // shutdown time.
        auto left = std::make_shared<std::atomic<std::size_t>>(tables.size());
        for (const auto& t : tables)
            t->hand_off([this, left] {
                if (left->fetch_sub(1) == 1) net::post(io_, [this] { close_sessions(); });
            });
        drain_timer_->expires_after(std::chrono::seconds(std::max(1, config_.shutdown_seconds)));
        drain_timer_->async_wait([this, left](boost::system::error_code ec) {
            if (ec || left->load() == 0) return;
            spdlog::warn("node {}: {} tables not handed over in {} s", config_.node_id, left->load(),
                         config_.shutdown_seconds);
            close_sessions();
        });
    });
}

void Server::wait_for_sessions(int tries_left) {
    if (sessions_.size() == 0 || tries_left == 0) {
        if (sessions_.size() != 0) spdlog::warn("{} connections still open at shutdown", sessions_.size());
        io_.stop();
        return;
    }
    stop_timer_->expires_after(std::chrono::milliseconds(50));
    stop_timer_->async_wait([this, tries_left](boost::system::error_code) { wait_for_sessions(tries_left - 1); });
}

}  // namespace sparts::server
