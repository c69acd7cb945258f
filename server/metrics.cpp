#include "server/metrics.hpp"

#include <cstdio>
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
    out << action_to_broadcast.render("sparts_action_to_broadcast_seconds",
                                      "From an action received to its events queued to every connection at the table.");
    out << commit.render("sparts_commit_seconds", "From a table's step handed to the store to its commit.");
    line(out, "process_resident_memory_bytes", "gauge", "Resident memory.", static_cast<double>(resident_bytes()));
    return out.str();
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
