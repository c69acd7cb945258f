// What every part of a running server reaches: its settings, the lobby, the
// table registry and the connection counts. Owned by Server; outlives every
// session and table (the io_context is joined before it goes). The parts above
// the network (the lobby, the registry, the store, …) are only named here: a
// part that uses one includes its header, which tests/layers allows only from
// above it.
#pragma once
#include <atomic>
#include <string>
#include <vector>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include "server/base/address_rate.hpp"
#include "server/net/client_address.hpp"
#include "server/base/config.hpp"
#include "server/net/connection_limits.hpp"
#include "server/base/metrics.hpp"
#include "server/net/session_set.hpp"

namespace sparts::server {

class Backups;
class Retirement;
class GameOverWebhook;
class HostTokenVerifier;
class Lobby;
class TableLoader;
class TableRegistry;
class Routes;
class RuleSetShelf;
}  // namespace sparts::server

namespace sparts::storage {
class Store;
}

namespace sparts::server {

struct Hub {
    const Config& config;
    boost::asio::io_context& io;
    // Where strong bots think: off the io threads, so that a 50 ms decision
    // never holds up other tables' reads and writes.
    boost::asio::thread_pool& bots;
    // Where archive and replay reads run: off the io threads too.
    boost::asio::thread_pool& archive_threads;
    Lobby& lobby;
    TableRegistry& tables;
    ConnectionLimits& connections;
    SessionSet& sessions;
    Metrics& metrics;
    AddressRate& new_players;    // players_per_address_per_minute
    AddressRate& archive_reads;  // archive_reads_per_minute
    TrustedProxies trusted_proxies;  // whose X-Forwarded-For is believed (client_address.hpp)
    storage::Store* store = nullptr;  // null: nothing is kept (--database none)
    TableLoader* loader = nullptr;    // many nodes: brings a table held elsewhere here
    const HostTokenVerifier* logins = nullptr;  // null: --login-algorithm off
    GameOverWebhook* webhook = nullptr;         // null: no --webhook-url
    Backups* backups = nullptr;                 // null: no --backup-dir
    Retirement* retirement = nullptr;           // null: no --retire-dir
    Routes* routes = nullptr;                   // where requests go (app/routes.hpp); set before listening
    RuleSetShelf* rule_sets = nullptr;          // the host's named rule sets now (table/rule_sets.hpp)
    std::atomic<bool> stopping{false};
};

}  // namespace sparts::server
