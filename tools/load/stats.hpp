// Figures of a load run: latency samples and their percentiles, the memory
// and CPU time of a process read from /proc, and the printed report.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

namespace sparts::load {

using Clock = std::chrono::steady_clock;

// Latencies in microseconds, kept whole and sorted once for the percentiles.
class Latencies {
public:
    void add(Clock::duration d);
    void merge(const Latencies& other);
    std::size_t count() const { return us_.size(); }
    // Nearest rank; q in [0, 1]. Sorts on first use after an add.
    double percentile_ms(double q);
    double max_ms();
    double mean_ms() const;

private:
    std::vector<std::uint32_t> us_;
    bool sorted_ = true;
};

// From /proc/PID/status, in KiB; -1 when unreadable.
struct Memory {
    long rss_kib = -1;
    long hwm_kib = -1;
};
Memory read_memory(int pid);
// User + system CPU seconds of a process (/proc/PID/stat); -1 when unreadable.
double cpu_seconds(int pid);
// This process's own.
double own_cpu_seconds();
// The machine's 1-minute load average (/proc/loadavg); -1 when unreadable.
double load_average();

struct Figures {
    // the run
    std::string preset;
    nlohmann::json options;
    int tables = 0;
    int seats = 0;
    int threads = 1;
    int think_ms = 0;
    int games_per_table = 0;  // 0: timed run
    double warmup_seconds = 0;
    double start_spread_seconds = 0;
    // outcome
    int connections = 0;         // opened and said hello
    int connect_failures = 0;
    int tables_failed = 0;
    double ramp_seconds = 0;     // first connect to every table seated
    double measured_seconds = 0;
    std::uint64_t card_plays = 0;
    std::uint64_t actions = 0;
    std::uint64_t games = 0;
    std::uint64_t errors = 0;
    std::uint64_t frames = 0;    // frames the generator read
    std::vector<std::string> error_samples;
    Latencies latency;           // card plays: act sent -> every seat has the card_played
    // memory and CPU
    int server_pid = 0;
    Memory before, loaded, end;
    double server_cpu_seconds = -1;  // over the measured window
    double own_cpu_seconds = -1;
    double load_before = -1, load_after = -1;  // the machine's 1-minute load average
    int cores = 0;
};

void print_figures(Figures& f);
nlohmann::json figures_json(Figures& f);

}  // namespace sparts::load
