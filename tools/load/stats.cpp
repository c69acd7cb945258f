#include "tools/load/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace sparts::load {

void Latencies::add(Clock::duration d) {
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
    us_.push_back(static_cast<std::uint32_t>(std::clamp<long long>(us, 0, 0xFFFFFFFFLL)));
    sorted_ = false;
}

void Latencies::merge(const Latencies& other) {
    us_.insert(us_.end(), other.us_.begin(), other.us_.end());
    sorted_ = us_.empty();
}

double Latencies::percentile_ms(double q) {
    if (us_.empty()) return 0;
    if (!sorted_) {
        std::sort(us_.begin(), us_.end());
        sorted_ = true;
    }
    const auto n = us_.size();
    auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(n)));
    rank = std::clamp<std::size_t>(rank, 1, n);
    return us_[rank - 1] / 1000.0;
}

double Latencies::max_ms() { return percentile_ms(1.0); }

double Latencies::mean_ms() const {
    if (us_.empty()) return 0;
    const double sum = std::accumulate(us_.begin(), us_.end(), 0.0);
    return sum / static_cast<double>(us_.size()) / 1000.0;
}

Memory read_memory(int pid) {
    Memory m;
    if (pid <= 0) return m;
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line)) {
        auto field = [&](const char* name, long& out) {
            const std::string prefix = std::string(name) + ":";
            if (line.rfind(prefix, 0) == 0) out = std::strtol(line.c_str() + prefix.size(), nullptr, 10);
        };
        field("VmRSS", m.rss_kib);
        field("VmHWM", m.hwm_kib);
    }
    return m;
}

double cpu_seconds(int pid) {
    if (pid <= 0) return -1;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    if (paren == std::string::npos) return -1;
    // After the command name: state is field 3; utime and stime are 14 and 15.
    std::istringstream rest(text.substr(paren + 2));
    std::string skip;
    for (int i = 3; i < 14; ++i) rest >> skip;
    unsigned long long utime = 0, stime = 0;
    rest >> utime >> stime;
    if (!rest) return -1;
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double own_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return s(u.ru_utime) + s(u.ru_stime);
}

double load_average() {
    std::ifstream in("/proc/loadavg");
    double one = -1;
    in >> one;
    return in ? one : -1;
}

namespace {

double per_second(std::uint64_t n, double seconds) { return seconds > 0 ? static_cast<double>(n) / seconds : 0; }

long per_connection_bytes(const Figures& f) {
    if (f.connections <= 0 || f.before.rss_kib < 0 || f.loaded.rss_kib < 0) return -1;
    return (f.loaded.rss_kib - f.before.rss_kib) * 1024 / f.connections;
}

double per_play_us(double cpu_seconds, const Figures& f) {
    return f.card_plays > 0 ? cpu_seconds * 1e6 / static_cast<double>(f.card_plays) : 0;
}

}  // namespace

void print_figures(Figures& f) {
    std::printf("\nsparts-load: %d tables x %d seats, preset %s, options %s, think %d ms, %d io thread%s\n", f.tables,
                f.seats, f.preset.c_str(), f.options.dump().c_str(), f.think_ms, f.threads, f.threads == 1 ? "" : "s");
    std::printf("  connections        %8d open, %d failed; %d tables failed; ramp %.1f s\n", f.connections,
                f.connect_failures, f.tables_failed, f.ramp_seconds);
    if (f.games_per_table > 0)
        std::printf("  measured           %8.1f s (%d game%s a table, after %.0f s warm-up)\n", f.measured_seconds,
                    f.games_per_table, f.games_per_table == 1 ? "" : "s", f.warmup_seconds);
    else
        std::printf("  measured           %8.1f s (after starts spread over %.0f s and %.0f s warm-up)\n",
                    f.measured_seconds, f.start_spread_seconds, f.warmup_seconds);
    std::printf("  card plays         %10llu  %10.0f /s\n", static_cast<unsigned long long>(f.card_plays),
                per_second(f.card_plays, f.measured_seconds));
    std::printf("  actions            %10llu  %10.0f /s\n", static_cast<unsigned long long>(f.actions),
                per_second(f.actions, f.measured_seconds));
    std::printf("  games finished     %10llu  %10.1f /s\n", static_cast<unsigned long long>(f.games),
                per_second(f.games, f.measured_seconds));
    std::printf("  frames received    %10llu  %10.0f /s\n", static_cast<unsigned long long>(f.frames),
                per_second(f.frames, f.measured_seconds));
    std::printf("  errors             %10llu\n", static_cast<unsigned long long>(f.errors));
    for (const auto& e : f.error_samples) std::printf("    %s\n", e.c_str());
    std::printf("  latency, card play sent -> every seat has its card_played (%zu samples)\n", f.latency.count());
    std::printf("    p50 %.2f ms   p90 %.2f ms   p99 %.2f ms   p99.9 %.2f ms   max %.2f ms   mean %.2f ms\n",
                f.latency.percentile_ms(0.50), f.latency.percentile_ms(0.90), f.latency.percentile_ms(0.99),
                f.latency.percentile_ms(0.999), f.latency.max_ms(), f.latency.mean_ms());
    if (f.server_pid > 0) {
        std::printf("  server %d memory (KiB)   VmRSS     VmHWM\n", f.server_pid);
        std::printf("    before connecting    %9ld %9ld\n", f.before.rss_kib, f.before.hwm_kib);
        std::printf("    all seated           %9ld %9ld\n", f.loaded.rss_kib, f.loaded.hwm_kib);
        std::printf("    at the end           %9ld %9ld\n", f.end.rss_kib, f.end.hwm_kib);
        const long per = per_connection_bytes(f);
        if (per >= 0) std::printf("    per seated connection  %.1f KiB\n", static_cast<double>(per) / 1024.0);
        if (f.server_cpu_seconds >= 0 && f.measured_seconds > 0)
            std::printf("  server CPU         %8.1f%% of one core; %.0f us a card play\n",
                        100.0 * f.server_cpu_seconds / f.measured_seconds, per_play_us(f.server_cpu_seconds, f));
    }
    if (f.own_cpu_seconds >= 0 && f.measured_seconds > 0)
        std::printf("  generator CPU      %8.1f%% of one core; %.0f us a card play\n",
                    100.0 * f.own_cpu_seconds / f.measured_seconds, per_play_us(f.own_cpu_seconds, f));
    std::printf("  machine            %d cores, load average %.2f before, %.2f after\n", f.cores, f.load_before,
                f.load_after);
    std::fflush(stdout);
}

nlohmann::json figures_json(Figures& f) {
    using nlohmann::json;
    json j = {
        {"preset", f.preset},
        {"options", f.options},
        {"tables", f.tables},
        {"seats", f.seats},
        {"threads", f.threads},
        {"think_ms", f.think_ms},
        {"games_per_table", f.games_per_table},
        {"warmup_seconds", f.warmup_seconds},
        {"start_spread_seconds", f.start_spread_seconds},
        {"connections", f.connections},
        {"connect_failures", f.connect_failures},
        {"tables_failed", f.tables_failed},
        {"ramp_seconds", f.ramp_seconds},
        {"measured_seconds", f.measured_seconds},
        {"card_plays", f.card_plays},
        {"card_plays_per_second", per_second(f.card_plays, f.measured_seconds)},
        {"actions", f.actions},
        {"actions_per_second", per_second(f.actions, f.measured_seconds)},
        {"games", f.games},
        {"frames", f.frames},
        {"errors", f.errors},
        {"error_samples", f.error_samples},
        {"latency_ms",
         {{"samples", f.latency.count()},
          {"p50", f.latency.percentile_ms(0.50)},
          {"p90", f.latency.percentile_ms(0.90)},
          {"p99", f.latency.percentile_ms(0.99)},
          {"p999", f.latency.percentile_ms(0.999)},
          {"max", f.latency.max_ms()},
          {"mean", f.latency.mean_ms()}}},
    };
    if (f.server_pid > 0) {
        auto mem = [](const Memory& m) { return json{{"vm_rss_kib", m.rss_kib}, {"vm_hwm_kib", m.hwm_kib}}; };
        j["server"] = {{"pid", f.server_pid},
                       {"before", mem(f.before)},
                       {"loaded", mem(f.loaded)},
                       {"end", mem(f.end)},
                       {"rss_bytes_per_connection", per_connection_bytes(f)},
                       {"cpu_seconds", f.server_cpu_seconds}};
    }
    j["generator_cpu_seconds"] = f.own_cpu_seconds;
    j["cores"] = f.cores;
    j["load_average_before"] = f.load_before;
    j["load_average_after"] = f.load_after;
    return j;
}

}  // namespace sparts::load
