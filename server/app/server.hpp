// A running sparts server: the io_context and its threads, the listener, the
// lobby and the tables. Start-up failures (a port in use) throw.
#pragma once
#include <atomic>
#include <memory>
#include <thread>
#include <vector>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include "server/archive/archive_reader.hpp"
#include "server/base/config.hpp"
#include "server/net/connection_limits.hpp"
#include "server/net/hub.hpp"
#include "server/lobby/lobby.hpp"
#include "server/net/session_set.hpp"
#include "server/table/table_registry.hpp"
#include "storage/store.hpp"

namespace sparts::server {

class Listener;
class TableLoader;
class HostTokenVerifier;
class GameOverWebhook;
class AdminApi;
class Backups;
class Retirement;
class ServerRoutes;

class Server {
public:
    explicit Server(Config config);
    ~Server();

    // Opens the database and brings back the tables that were open, binds and
    // starts accepting; returns the port (useful with port 0). Throws with a
    // message for the operator when it cannot.
    std::uint16_t start();
    // Runs the io_context on config.threads threads (this one included) until
    // stop() completes or SIGTERM / SIGINT arrive; false if commits in flight
    // still failed when the shutdown time ran out (their steps are lost).
    bool run();
    // Thread-safe: stop accepting, say goodbye to every client, and return
    // from run() once they are gone (or after --shutdown-seconds); run() then
    // waits for the store to commit what is in flight. Tables stay open in
    // the store and come back at the next start.
    void stop();

private:
    void wait_for_sessions(int tries_left);
    // Sends every connection `closing` and closes it, then waits for them to go and stops.
    void close_sessions();
    // Many nodes: /readyz says 503 for --drain-ms, then every table is handed over, then close_sessions().
    void drain();
    void run_io();
    void fit_connections_to_file_limit();
    void restore();
    void schedule_backup();
    void schedule_retirement(std::chrono::seconds after);

    Config config_;
    boost::asio::io_context io_;
    boost::asio::thread_pool bots_;  // after io_: joined before io_ goes (its tasks post to strands)
    boost::asio::thread_pool archive_threads_;
    ConnectionLimits connections_;
    SessionSet sessions_;
    Metrics metrics_;
    ArchiveReader archive_;
    AddressRate new_players_;
    AddressRate archive_reads_;
    TableRegistry tables_;
    Lobby lobby_;
    Hub hub_;
    boost::asio::signal_set signals_;
    std::unique_ptr<storage::Store> store_;
    std::unique_ptr<TableLoader> loader_;
    std::unique_ptr<HostTokenVerifier> logins_;
    std::unique_ptr<RuleSetShelf> rule_sets_;
    std::unique_ptr<GameOverWebhook> webhook_;
    std::unique_ptr<AdminApi> admin_;  // with --admin-token-file only
    std::unique_ptr<Backups> backups_;  // with --backup-dir only; after store_: its copy ends first
    std::unique_ptr<boost::asio::steady_timer> backup_timer_;  // --backup-every-seconds
    std::unique_ptr<Retirement> retirement_;  // with --retire-dir only; after store_: its run ends first
    std::unique_ptr<boost::asio::steady_timer> retirement_timer_;  // --retire-every-seconds
    std::unique_ptr<ServerRoutes> routes_;
    std::atomic<bool> closing_sessions_{false};  // the drain's timer and its last table may both get there
    std::shared_ptr<Listener> listener_;
    std::unique_ptr<boost::asio::steady_timer> stop_timer_;
    std::unique_ptr<boost::asio::steady_timer> drain_timer_;
};

}  // namespace sparts::server
