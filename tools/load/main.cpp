// sparts-load: opens N tables of bot clients against a running sparts-server,
// plays full games over WebSocket, flat out or paced, and prints throughput,
// latency and the server's memory. `--help` lists the flags.
#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include "protocol/ruleset_json.hpp"
#include "tools/load/table_driver.hpp"

namespace net = boost::asio;
using nlohmann::json;
using namespace sparts::load;

namespace {

constexpr const char* kUsage = R"(usage: sparts-load [--flag value]...

Plays games against a running sparts-server with tables of bot clients over
WebSocket, and prints card plays a second, actions a second, the latency from
a card play being sent to every seat having read it, errors and the server's
memory.

  --host H              server address (default 127.0.0.1)
  --port P              server port (default 8080)
  --tables N            tables of bots (default 1000); each seat is one connection
  --preset NAME         ruleset preset (default spades)
  --options JSON        ruleset options, e.g. '{"target_score":250}' (default {})
  --games-per-table G   games each table plays, then it stops (default 1)
  --seconds S           instead: keep playing (again after each game) for S seconds
                        after the warm-up
  --think-ms T          each table sends at most one action every T ms (default 0:
                        flat out); tables start at random points of the period
  --start-spread-seconds S
                        start the tables' games at random times over S seconds, so
                        that paced tables do not reach the end of a hand together
                        (default: 60 actions' worth of --think-ms, at most 30 s; 0
                        when flat out)
  --warmup-seconds W    seconds of play not counted, from the moment the last table
                        started (default 0)
  --connect-rate R      connections opened a second while ramping up (default 2000)
  --server-pid PID      read the server's VmRSS and VmHWM (/proc/PID/status) before
                        connecting, once every table is seated, and at the end; and
                        its CPU time over the measured window
  --route-by-table      each table's clients connect at /ws?table=load-<n> (one key a
                        table), so that a proxy hashing the parameter sends them all
                        to one node of a cluster
  --threads T           io threads (default 1)
  --seed S              seed of the bots' choices (default 1)
  --timeout S           give up after S seconds in all (default 3600)
  --progress-seconds S  a progress line every S seconds on stderr (default 5)
  --json                also print the figures as one JSON object (last line)
)";

struct Options {
    std::string host = "127.0.0.1";
    int port = 8080;
    int tables = 1000;
    std::string preset = "spades";
    json options = json::object();
    int games_per_table = 1;
    double seconds = 0;
    int think_ms = 0;
    double warmup_seconds = 0;
    double start_spread_seconds = -1;  // -1: from think_ms
    double connect_rate = 2000;
    int server_pid = 0;
    int threads = 1;
    bool route_by_table = false;
    std::uint64_t seed = 1;
    double timeout = 3600;
    double progress_seconds = 5;
    bool json_out = false;
};

template <class T>
bool number(const std::string& text, T& out) {
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && p == text.data() + text.size();
}

std::optional<Options> parse(int argc, char** argv) {
    Options o;
    std::vector<std::string> args(argv + 1, argv + argc);
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i], value;
        if (flag == "--help" || flag == "-h") {
            std::cout << kUsage;
            std::exit(0);
        }
        if (flag == "--route-by-table") {
            o.route_by_table = true;
            continue;
        }
        if (flag == "--json") {
            o.json_out = true;
            continue;
        }
        if (const auto eq = flag.find('='); eq != std::string::npos) {
            value = flag.substr(eq + 1);
            flag = flag.substr(0, eq);
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            std::cerr << flag << ": expected a value\n";
            return std::nullopt;
        }
        bool ok = true;
        if (flag == "--host") o.host = value;
        else if (flag == "--port") ok = number(value, o.port) && o.port > 0 && o.port < 65536;
        else if (flag == "--tables") ok = number(value, o.tables) && o.tables > 0;
        else if (flag == "--preset") o.preset = value;
        else if (flag == "--options") {
            o.options = json::parse(value, nullptr, false);
            ok = o.options.is_object();
        } else if (flag == "--games-per-table") ok = number(value, o.games_per_table) && o.games_per_table > 0;
        else if (flag == "--seconds") ok = number(value, o.seconds) && o.seconds > 0;
        else if (flag == "--think-ms") ok = number(value, o.think_ms) && o.think_ms >= 0;
        else if (flag == "--start-spread-seconds")
            ok = number(value, o.start_spread_seconds) && o.start_spread_seconds >= 0;
        else if (flag == "--warmup-seconds") ok = number(value, o.warmup_seconds) && o.warmup_seconds >= 0;
        else if (flag == "--connect-rate") ok = number(value, o.connect_rate) && o.connect_rate > 0;
        else if (flag == "--server-pid") ok = number(value, o.server_pid) && o.server_pid > 0;
        else if (flag == "--threads") ok = number(value, o.threads) && o.threads > 0 && o.threads <= 64;
        else if (flag == "--seed") ok = number(value, o.seed);
        else if (flag == "--timeout") ok = number(value, o.timeout) && o.timeout > 0;
        else if (flag == "--progress-seconds") ok = number(value, o.progress_seconds) && o.progress_seconds > 0;
        else {
            std::cerr << "unknown flag " << flag << "\n\n" << kUsage;
            return std::nullopt;
        }
        if (!ok) {
            std::cerr << flag << ": bad value \"" << value << "\"\n";
            return std::nullopt;
        }
    }
    if (o.start_spread_seconds < 0) o.start_spread_seconds = std::min(30.0, 60.0 * o.think_ms / 1000.0);
    return o;
}

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Drives the run from one strand: the ramp, the start, the measured window, the end.
class Controller {
public:
    Controller(net::io_context& io, const Options& o, RunState& run, std::vector<std::unique_ptr<TableDriver>>& tables,
               Figures& f)
        : io_(io), o_(o), run_(run), tables_(tables), f_(f), timer_(net::make_strand(io)) {}

    void begin() {
        f_.before = read_memory(o_.server_pid);
        f_.load_before = load_average();
        began_ = Clock::now();
        std::fprintf(stderr, "ramping up: %d connections at %.0f a second\n", o_.tables * run_.seats, o_.connect_rate);
        tick(std::chrono::milliseconds(0));
    }

private:
    enum class Phase { ramp, warmup, measure, done };

    void tick(std::chrono::milliseconds after) {
        timer_.expires_after(after);
        timer_.async_wait([this](boost::system::error_code ec) {
            if (!ec) step();
        });
    }

    void step() {
        if (since(began_) > o_.timeout) {
            std::fprintf(stderr, "timed out after %.0f s\n", o_.timeout);
            return finish();
        }
        switch (phase_) {
            case Phase::ramp: return ramp();
            case Phase::warmup:
                if (since(started_) >= o_.start_spread_seconds + o_.warmup_seconds) begin_measuring();
                return tick(std::chrono::milliseconds(5));
            case Phase::measure: return measure();
            case Phase::done: return;
        }
    }

    void ramp() {
        // Open tables as the connect rate allows.
        const double allowed = since(began_) * o_.connect_rate;
        while (next_table_ < o_.tables &&
               static_cast<double>((next_table_ + 1) * run_.seats) <= std::max(allowed, double(run_.seats))) {
            tables_[static_cast<std::size_t>(next_table_++)]->connect();
        }
        const int settled = run_.tables_seated.load() + run_.tables_failed.load();
        if (settled < o_.tables) {
            if (since(last_report_) >= 2) {
                last_report_ = Clock::now();
                std::fprintf(stderr, "  %d of %d tables seated (%d connections)\n", run_.tables_seated.load(),
                             o_.tables, run_.connections.load());
            }
            return tick(std::chrono::milliseconds(5));
        }
        f_.ramp_seconds = since(began_);
        f_.loaded = read_memory(o_.server_pid);
        std::fprintf(stderr, "%d tables seated, %d failed, in %.1f s; starting the games over %.1f s\n",
                     run_.tables_seated.load(), run_.tables_failed.load(), f_.ramp_seconds, o_.start_spread_seconds);
        std::mt19937_64 rng(o_.seed);
        std::uniform_real_distribution<double> when(0, o_.start_spread_seconds);
        for (auto& t : tables_)
            t->start(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(when(rng))));
        started_ = Clock::now();
        phase_ = Phase::warmup;
        if (o_.start_spread_seconds + o_.warmup_seconds <= 0) begin_measuring();
        tick(std::chrono::milliseconds(5));
    }

    void begin_measuring() {
        phase_ = Phase::measure;
        measure_start_ = Clock::now();
        server_cpu_ = cpu_seconds(o_.server_pid);
        own_cpu_ = own_cpu_seconds();
        last_report_ = Clock::now();
        run_.measuring = true;
    }

    void measure() {
        const double t = since(measure_start_);
        const int playing = run_.tables_seated.load();
        const bool over = o_.seconds > 0 ? t >= o_.seconds : run_.tables_done.load() >= playing;
        if (over) return finish();
        if (since(last_report_) >= o_.progress_seconds) {
            const double interval = since(last_report_);
            last_report_ = Clock::now();
            const auto plays = run_.card_plays.load();
            std::fprintf(stderr, "  %.0f s: %llu card plays (%.0f/s), slowest %.1f ms; %llu games, %d tables done, %llu errors\n",
                         t, static_cast<unsigned long long>(plays), static_cast<double>(plays - last_plays_) / interval,
                         run_.interval_max_us.exchange(0) / 1000.0, static_cast<unsigned long long>(run_.games.load()),
                         run_.tables_done.load(), static_cast<unsigned long long>(run_.errors.load()));
            last_plays_ = plays;
        }
        tick(std::chrono::milliseconds(5));
    }

    void finish() {
        run_.measuring = false;
        run_.stopping = true;
        phase_ = Phase::done;
        if (measure_start_ != Clock::time_point{}) {
            f_.measured_seconds = since(measure_start_);
            if (server_cpu_ >= 0) f_.server_cpu_seconds = cpu_seconds(o_.server_pid) - server_cpu_;
            f_.own_cpu_seconds = own_cpu_seconds() - own_cpu_;
        }
        f_.end = read_memory(o_.server_pid);
        f_.load_after = load_average();
        io_.stop();
    }

    net::io_context& io_;
    const Options& o_;
    RunState& run_;
    std::vector<std::unique_ptr<TableDriver>>& tables_;
    Figures& f_;
    net::steady_timer timer_;
    Phase phase_ = Phase::ramp;
    int next_table_ = 0;
    Clock::time_point began_{}, started_{}, measure_start_{}, last_report_{};
    double server_cpu_ = -1, own_cpu_ = 0;
    std::uint64_t last_plays_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    auto parsed = parse(argc, argv);
    if (!parsed) return 2;
    const Options& o = *parsed;

    const json ruleset = {{"preset", o.preset}, {"options", o.options}};
    auto rules = sparts::ruleset_from_json(ruleset);
    if (!rules) {
        std::cerr << "--preset/--options: " << rules.error().message() << "\n";
        return 2;
    }
    boost::system::error_code ec;
    const auto address = net::ip::make_address(o.host, ec);
    if (ec) {
        std::cerr << "--host: expected an IP address, got \"" << o.host << "\"\n";
        return 2;
    }

    RunState run;
    run.server = net::ip::tcp::endpoint(address, static_cast<unsigned short>(o.port));
    run.host = o.host + ":" + std::to_string(o.port);
    run.route_by_table = o.route_by_table;
    run.ruleset = ruleset.dump();
    run.seats = rules->seats;
    run.think_ms = o.think_ms;
    run.games_per_table = o.seconds > 0 ? 0 : o.games_per_table;
    run.seed = o.seed;

    Figures f;
    f.preset = o.preset;
    f.options = o.options;
    f.tables = o.tables;
    f.seats = run.seats;
    f.threads = o.threads;
    f.think_ms = o.think_ms;
    f.games_per_table = run.games_per_table;
    f.warmup_seconds = o.warmup_seconds;
    f.start_spread_seconds = o.start_spread_seconds;
    f.server_pid = o.server_pid;
    f.cores = static_cast<int>(std::thread::hardware_concurrency());

    net::io_context io(o.threads);
    std::vector<std::unique_ptr<TableDriver>> tables;
    tables.reserve(static_cast<std::size_t>(o.tables));
    for (int i = 0; i < o.tables; ++i) tables.push_back(std::make_unique<TableDriver>(io, run, i));
    Controller controller(io, o, run, tables, f);
    controller.begin();

    std::vector<std::thread> threads;
    for (int i = 1; i < o.threads; ++i) threads.emplace_back([&io] { io.run(); });
    io.run();
    for (auto& t : threads) t.join();

    f.connections = run.connections.load();
    f.connect_failures = run.connect_failures.load();
    f.tables_failed = run.tables_failed.load() + run.tables_lost.load();
    f.card_plays = run.card_plays.load();
    f.actions = run.actions.load();
    f.games = run.games.load();
    f.errors = run.errors.load();
    f.frames = run.frames.load();
    f.error_samples = run.error_samples;
    for (const auto& t : tables) f.latency.merge(t->latencies());
    print_figures(f);
    if (o.json_out) std::printf("%s\n", figures_json(f).dump().c_str());
    std::fflush(stdout);
    // Skip tearing down thousands of connections one by one: the kernel closes them.
    std::_Exit(f.errors == 0 && f.tables_failed == 0 ? 0 : 1);
}
