// The server's counters, gauges and histograms, read by GET /metrics in the
// Prometheus text format. Every member is an atomic: written from any strand
// with relaxed ordering, read whenever /metrics is asked.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include "engine/rule_error.hpp"
#include "server/base/admin_action.hpp"

namespace sparts::storage {
class Store;
}

namespace sparts::server {

// Fixed buckets in seconds, cumulative as Prometheus wants them.
class Histogram {
public:
    static constexpr std::array<double, 12> kBounds = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.015,
                                                       0.02,   0.05,  0.1,   0.25,  0.5,  1.0};
    void observe(double seconds);
    // "# TYPE name histogram" and its lines.
    std::string render(const std::string& name, const std::string& help) const;

private:
    std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> buckets_{};  // the last: +Inf
    std::atomic<std::uint64_t> count_{0};
    std::atomic<std::uint64_t> sum_micros_{0};
};

struct Metrics {
    std::atomic<std::int64_t> tables_waiting{0};
    std::atomic<std::int64_t> tables_playing{0};
    std::atomic<std::int64_t> tables_over{0};
    std::atomic<std::uint64_t> tables_opened{0};
    std::atomic<std::uint64_t> tables_closed{0};
    // Many nodes: tables this node took over, handed over, and lost to another node.
    std::atomic<std::uint64_t> tables_taken_over{0};
    std::atomic<std::uint64_t> tables_handed_off{0};
    std::atomic<std::uint64_t> tables_lost{0};
    std::atomic<std::uint64_t> games_started{0};
    std::atomic<std::uint64_t> games_finished{0};
    std::atomic<std::uint64_t> actions{0};         // applied, from players, bots and timers
    std::atomic<std::uint64_t> card_plays{0};
    std::atomic<std::uint64_t> turns_timed_out{0};
    std::array<std::atomic<std::uint64_t>, 64> rule_errors{};  // by ErrorCode
    std::atomic<std::uint64_t> protocol_errors{0};  // frames that were not requests
    std::atomic<std::uint64_t> connections_opened{0};
    std::atomic<std::uint64_t> closed_too_slow{0};  // write queue over its limit
    std::atomic<std::uint64_t> closed_flooding{0};
    std::atomic<std::uint64_t> frames_sent{0};
    std::atomic<std::uint64_t> handler_exceptions{0};  // a handler threw: answered with an internal error, played on
    std::atomic<std::uint64_t> http_requests{0};
    std::atomic<std::int64_t> http_connections{0};     // plain HTTP connections open now
    std::atomic<std::uint64_t> accept_errors{0};       // accepts that failed (out of file descriptors and the like)
    std::atomic<std::uint64_t> proxy_header_errors{0}; // trusted proxies' connections closed for want of a valid PROXY header
    std::atomic<std::int64_t> players_in_memory{0};
    std::atomic<std::uint64_t> players_dropped{0};     // idle players freed from memory (their token still works)
    std::atomic<std::uint64_t> quick_play_queued{0};   // quick_play requests accepted
    std::atomic<std::uint64_t> quick_play_left{0};     // players whose connection went away while they waited
    std::atomic<std::uint64_t> quick_play_tables{0};   // tables quick play made
    std::atomic<std::uint64_t> logins{0};              // hellos with a host's login, accepted
    std::atomic<std::uint64_t> refused_logins{0};      // hellos with a login refused, or a guest's with --guests off
    // Refusals by limit.
    std::atomic<std::uint64_t> refused_connections{0};      // connections per address or in all
    std::atomic<std::uint64_t> refused_players{0};          // players_per_address_per_minute
    std::atomic<std::uint64_t> refused_tables_per_address{0};
    std::atomic<std::uint64_t> refused_tables_total{0};     // max_tables
    std::atomic<std::uint64_t> refused_archive_reads{0};    // archive_reads_per_minute
    std::atomic<std::uint64_t> refused_chat{0};             // chat_per_minute, chat_burst
    std::atomic<std::uint64_t> archive_reads{0};
    std::atomic<std::uint64_t> archive_cache_hits{0};
    std::atomic<std::uint64_t> chat_lines{0};  // table chat lines said
    // The admin API: what it did, by action (admin_action.hpp), and the requests it refused for
    // their token, and past admin_auth_failures_per_minute.
    std::array<std::atomic<std::uint64_t>, kAdminActionNames.size()> admin_actions{};
    std::atomic<std::uint64_t> admin_auth_failures{0};
    std::atomic<std::uint64_t> refused_admin_auth{0};
    // Backups (admin/backups.hpp): made and failed, and the last good one's moment (Unix ms; 0:
    // none yet), size and time taken.
    std::atomic<std::uint64_t> backups_made{0};
    std::atomic<std::uint64_t> backups_failed{0};
    std::atomic<std::int64_t> backup_last_ms{0};
    std::atomic<std::int64_t> backup_last_bytes{0};
    std::atomic<std::int64_t> backup_last_took_ms{0};
    // Retention while the server runs (admin/retirement.hpp): games retired, runs that ended in
    // an error, and the end of the last good run (Unix ms; 0: none yet).
    std::atomic<std::uint64_t> games_retired{0};
    std::atomic<std::uint64_t> retirements_failed{0};
    std::atomic<std::int64_t> retirement_last_ms{0};
    Histogram action_to_broadcast;  // an act received -> its events queued to every connection
    Histogram commit;               // a step handed to the store -> committed

    // The whole exposition; `connections` and `players` are read by the caller.
    std::string render(std::int64_t connections, std::int64_t open_tables) const;
};

// The store's figures (WAL size, checkpoints, commits) in the same format;
// empty without a store.
std::string store_metrics(storage::Store* store);

// The process's resident memory in bytes (VmRSS), or 0 where /proc is missing.
std::int64_t resident_bytes();
// The process's open file descriptors, or 0 where /proc is missing.
std::int64_t open_file_descriptors();

}  // namespace sparts::server
