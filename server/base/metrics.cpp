#include "server/base/metrics.hpp"

#include "storage/store.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sparts::server {

void Histogram::observe(double seconds) {
    std::size_t i = 0;
    while (i < kBounds.size() && seconds > kBounds[i]) ++i;
    buckets_[i].fetch_add(1, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
    sum_micros_.fetch_add(static_cast<std::uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

std::string Histogram::render(const std::string& name, const std::string& help) const {
    std::ostringstream out;
    out << "# HELP " << name << " " << help << "\n# TYPE " << name << " histogram\n";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < kBounds.size(); ++i) {
        cumulative += buckets_[i].load(std::memory_order_relaxed);
        out << name << "_bucket{le=\"" << kBounds[i] << "\"} " << cumulative << "\n";
    }
    cumulative += buckets_[kBounds.size()].load(std::memory_order_relaxed);
    out << name << "_bucket{le=\"+Inf\"} " << cumulative << "\n";
    out << name << "_sum " << static_cast<double>(sum_micros_.load(std::memory_order_relaxed)) / 1e6 << "\n";
    out << name << "_count " << count_.load(std::memory_order_relaxed) << "\n";
    return out.str();
}

namespace {
// Whole numbers as such: Prometheus reads "9306112" and "9.30611e+06" alike, people do not.
std::string number(double value) {
    const auto whole = static_cast<long long>(value);
    if (static_cast<double>(whole) == value) return std::to_string(whole);
    std::ostringstream out;
    out << value;
    return out.str();
}
void line(std::ostringstream& out, const char* name, const char* type, const char* help, double value) {
    out << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n" << name << " " << number(value)
        << "\n";
}
}  // namespace

std::string Metrics::render(std::int64_t connections, std::int64_t open_tables) const {
    std::ostringstream out;
    auto v = [](const auto& a) { return static_cast<double>(a.load(std::memory_order_relaxed)); };
    line(out, "sparts_connections", "gauge", "Open WebSocket connections.", static_cast<double>(connections));
    line(out, "sparts_connections_opened_total", "counter", "WebSocket connections accepted.", v(connections_opened));
    line(out, "sparts_tables_open", "gauge", "Open tables.", static_cast<double>(open_tables));
    out << "# HELP sparts_tables Open tables by state.\n# TYPE sparts_tables gauge\n";
    out << "sparts_tables{state=\"waiting\"} " << number(v(tables_waiting)) << "\n";
    out << "sparts_tables{state=\"playing\"} " << number(v(tables_playing)) << "\n";
    out << "sparts_tables{state=\"over\"} " << number(v(tables_over)) << "\n";
    line(out, "sparts_tables_opened_total", "counter", "Tables opened.", v(tables_opened));
    line(out, "sparts_tables_closed_total", "counter", "Tables closed.", v(tables_closed));
    line(out, "sparts_tables_taken_over_total", "counter", "Tables this node took over from the database (many nodes).",
         v(tables_taken_over));
    line(out, "sparts_tables_handed_off_total", "counter", "Tables this node handed over to another node.",
         v(tables_handed_off));
    line(out, "sparts_tables_lost_total", "counter", "Tables another node took while this one held them.", v(tables_lost));
    line(out, "sparts_games_started_total", "counter", "Games started.", v(games_started));
    line(out, "sparts_games_finished_total", "counter", "Games played to game over.", v(games_finished));
    line(out, "sparts_actions_total", "counter", "Actions applied (players, bots and timers).", v(actions));
    line(out, "sparts_card_plays_total", "counter", "Cards played.", v(card_plays));
    line(out, "sparts_turns_timed_out_total", "counter", "Turns played by the server when time ran out.", v(turns_timed_out));
    out << "# HELP sparts_rule_errors_total Actions refused by the rules, by error code.\n"
           "# TYPE sparts_rule_errors_total counter\n";
    for (std::size_t c = 0; c < rule_errors.size(); ++c) {
        const auto n = rule_errors[c].load(std::memory_order_relaxed);
        if (n == 0) continue;
        out << "sparts_rule_errors_total{code=\"" << to_string(static_cast<ErrorCode>(c)) << "\"} " << n << "\n";
    }
    line(out, "sparts_protocol_errors_total", "counter", "Frames that were not valid requests.", v(protocol_errors));
    line(out, "sparts_write_queue_drops_total", "counter",
         "Connections closed because their write queue went over its limit.", v(closed_too_slow));
    line(out, "sparts_flood_closes_total", "counter", "Connections closed for flooding.", v(closed_flooding));
    line(out, "sparts_frames_sent_total", "counter", "Frames queued to connections.", v(frames_sent));
    line(out, "sparts_handler_exceptions_total", "counter",
         "Requests whose handler threw: answered with an internal error, logged, and the server played on.",
         v(handler_exceptions));
    line(out, "sparts_http_requests_total", "counter", "Plain HTTP requests answered.", v(http_requests));
    line(out, "sparts_http_connections", "gauge", "Open plain HTTP connections.", v(http_connections));
    line(out, "sparts_accept_errors_total", "counter", "Accepts that failed (out of file descriptors and the like).",
         v(accept_errors));
    line(out, "sparts_proxy_header_errors_total", "counter",
         "Connections from a trusted proxy closed for want of a valid PROXY protocol v2 header.", v(proxy_header_errors));
    line(out, "sparts_players_in_memory", "gauge", "Players the lobby holds in memory.", v(players_in_memory));
    line(out, "sparts_players_dropped_total", "counter",
         "Idle players freed from memory (their token still works: they are read back from the store).",
         v(players_dropped));
    line(out, "sparts_quick_play_queued_total", "counter", "Quick play requests accepted.", v(quick_play_queued));
    line(out, "sparts_quick_play_left_total", "counter", "Players whose connection went away while they waited for quick play.",
         v(quick_play_left));
    line(out, "sparts_quick_play_tables_total", "counter", "Tables quick play made.", v(quick_play_tables));
    line(out, "sparts_logins_total", "counter", "Hellos with a host's login (JWT), accepted.", v(logins));
    line(out, "sparts_login_refusals_total", "counter",
         "Hellos refused for their login (bad, expired, forged), or a guest's when guests are off.", v(refused_logins));
    out << "# HELP sparts_limit_refusals_total Requests refused by a limit, by limit.\n"
           "# TYPE sparts_limit_refusals_total counter\n";
    out << "sparts_limit_refusals_total{limit=\"connections\"} " << number(v(refused_connections)) << "\n";
    out << "sparts_limit_refusals_total{limit=\"players_per_address_per_minute\"} " << number(v(refused_players)) << "\n";
    out << "sparts_limit_refusals_total{limit=\"tables_per_address\"} " << number(v(refused_tables_per_address)) << "\n";
    out << "sparts_limit_refusals_total{limit=\"max_tables\"} " << number(v(refused_tables_total)) << "\n";
    out << "sparts_limit_refusals_total{limit=\"archive_reads_per_minute\"} " << number(v(refused_archive_reads)) << "\n";
    out << "sparts_limit_refusals_total{limit=\"chat\"} " << number(v(refused_chat)) << "\n";
    out << "sparts_limit_refusals_total{limit=\"admin_auth_failures_per_minute\"} " << number(v(refused_admin_auth))
        << "\n";
    out << "# HELP sparts_admin_actions_total Admin API requests that did what they asked, by action.\n"
           "# TYPE sparts_admin_actions_total counter\n";
    for (std::size_t a = 0; a < admin_actions.size(); ++a)
        out << "sparts_admin_actions_total{action=\"" << kAdminActionNames[a] << "\"} " << number(v(admin_actions[a]))
            << "\n";
    line(out, "sparts_admin_auth_failures_total", "counter",
         "Admin API requests refused for a missing or wrong token.", v(admin_auth_failures));
    out << "# HELP sparts_backups_total Backups of the database made by this server, by result.\n"
           "# TYPE sparts_backups_total counter\n";
    out << "sparts_backups_total{result=\"ok\"} " << number(v(backups_made)) << "\n";
    out << "sparts_backups_total{result=\"failed\"} " << number(v(backups_failed)) << "\n";
    line(out, "sparts_backup_last_success_timestamp_seconds", "gauge",
         "The moment of the last good backup (every commit before it is in it), in Unix seconds; 0: none yet.",
         v(backup_last_ms) / 1000.0);
    line(out, "sparts_backup_last_bytes", "gauge", "The size of the last good backup.", v(backup_last_bytes));
    line(out, "sparts_backup_last_duration_seconds", "gauge", "How long the last good backup took.",
         v(backup_last_took_ms) / 1000.0);
    line(out, "sparts_games_retired_total", "counter",
         "Finished games exported to --retire-dir and dropped from the archive by this server.", v(games_retired));
    line(out, "sparts_retirements_failed_total", "counter", "Runs of retention that ended in an error.",
         v(retirements_failed));
    line(out, "sparts_retirement_last_success_timestamp_seconds", "gauge",
         "The end of the last retention run that ended well, in Unix seconds; 0: none yet.",
         v(retirement_last_ms) / 1000.0);
    line(out, "sparts_archive_reads_total", "counter", "Archive and replay reads.", v(archive_reads));
    line(out, "sparts_archive_cache_hits_total", "counter", "Archive reads answered from the rendering cache.",
         v(archive_cache_hits));
    line(out, "sparts_chat_lines_total", "counter", "Table chat lines said.", v(chat_lines));
    out << action_to_broadcast.render("sparts_action_to_broadcast_seconds",
                                      "From an action received to its events queued to every connection at the table.");
    out << commit.render("sparts_commit_seconds", "From a table's step handed to the store to its commit.");
    line(out, "process_resident_memory_bytes", "gauge", "Resident memory.", static_cast<double>(resident_bytes()));
    line(out, "process_open_fds", "gauge", "Open file descriptors.", static_cast<double>(open_file_descriptors()));
    return out.str();
}

std::string store_metrics(storage::Store* store) {
    if (!store) return {};
    const storage::Store::Stats st = store->stats();
    std::ostringstream out;
    auto d = [](auto x) { return static_cast<double>(x); };
    line(out, "sparts_db_commits_total", "counter", "Transactions committed (each holds many table steps).", d(st.commits));
    line(out, "sparts_db_failed_commits_total", "counter", "Commits that failed and were retried.", d(st.failed_commits));
    line(out, "sparts_db_checkpoints_total", "counter", "WAL checkpoints run.", d(st.checkpoints));
    line(out, "sparts_db_wal_restarts_total", "counter", "Checkpoints that restarted the WAL from its beginning.",
         d(st.log_restarts));
    line(out, "sparts_db_wal_bytes", "gauge", "The write-ahead log's size on disk.", d(st.wal_bytes));
    line(out, "sparts_db_last_checkpoint_log_pages", "gauge", "Pages in the WAL at the last checkpoint.",
         d(st.last_checkpoint_log));
    line(out, "sparts_db_last_checkpoint_pages", "gauge", "Pages the last checkpoint copied into the database.",
         d(st.last_checkpoint_pages));
    line(out, "sparts_db_bytes", "gauge", "The database file's size on disk.", d(st.database_bytes));
    if (st.integrity >= 0)
        line(out, "sparts_db_integrity_ok", "gauge", "1 if the database passed its integrity check at start, 0 if not.",
             d(st.integrity));
    line(out, "sparts_db_journal_rows", "gauge", "Rows in the journal (engine steps and table events of open tables).",
         d(st.journal_rows));
    line(out, "sparts_db_journal_live_rows", "gauge",
         "Journal rows still needed: games in progress and each open table's latest event.", d(st.journal_live_rows));
    line(out, "sparts_db_journal_rows_removed_total", "counter", "Journal rows removed by cleanings.",
         d(st.journal_rows_removed));
    return out.str();
}

std::int64_t open_file_descriptors() {
    std::error_code ec;
    std::int64_t n = 0;
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) ++n;
    return n;
}

std::int64_t resident_bytes() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            std::int64_t kb = 0;
            status >> kb;
            return kb * 1024;
        }
        status.ignore(1 << 16, '\n');
    }
    return 0;
}

}  // namespace sparts::server
