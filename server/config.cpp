#include "server/config.hpp"

#include <charconv>
#include <functional>
#include <limits>

namespace sparts::server {

namespace {

struct Setting {
    const char* flag;  // without "--"; the environment name is SPARTS_ + upper case, '-' -> '_'
    const char* help;
    std::function<std::string(Config&, const std::string&)> set;  // empty: fine, else the problem
};

template <class T>
std::function<std::string(Config&, const std::string&)> number(T Config::*field, long long lo, long long hi) {
    return [=](Config& c, const std::string& text) -> std::string {
        long long n = 0;
        const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec != std::errc() || p != text.data() + text.size() || n < lo || n > hi)
            return "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got \"" +
                   text + "\"";
        c.*field = static_cast<T>(n);
        return {};
    };
}

std::function<std::string(Config&, const std::string&)> text(std::string Config::*field) {
    return [=](Config& c, const std::string& value) -> std::string {
        if (value.empty()) return "expected a value";
        c.*field = value;
        return {};
    };
}

const std::vector<Setting>& settings() {
    static const std::vector<Setting> table = {
        {"address", "address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)", text(&Config::address)},
        {"port", "port for HTTP and WebSocket (default 8080; 0: any free port, printed at start)",
         number(&Config::port, 0, 65535)},
        {"threads", "I/O threads (default 0: one per core)", number(&Config::threads, 0, 256)},
        {"database", "SQLite database file (default sparts.db; none: keep nothing)", text(&Config::database)},
        {"db-sync", "normal (default: survives a crash of the server) or full (survives power loss too)",
         [](Config& c, const std::string& v) -> std::string {
             if (v != "normal" && v != "full") return "expected normal or full, got \"" + v + "\"";
             c.db_sync_full = v == "full";
             return {};
         }},
        {"log-level", "trace, debug, info, warn, error or off (default info)",
         [](Config& c, const std::string& v) -> std::string {
             for (const char* l : {"trace", "debug", "info", "warn", "error", "off"})
                 if (v == l) {
                     c.log_level = v;
                     return {};
                 }
             return "expected trace, debug, info, warn, error or off, got \"" + v + "\"";
         }},
        {"max-frame-bytes", "largest WebSocket message accepted (default 16384)",
         number(&Config::max_frame_bytes, 256, 16 * 1024 * 1024)},
        {"messages-per-second", "messages a connection may send a second, burst twice that (default 20)",
         number(&Config::messages_per_second, 1, 1000000)},
        {"flood-close-after", "refused messages in a row before a flooding connection is closed (default 100)",
         number(&Config::flood_close_after, 1, 1000000)},
        {"write-queue-bytes", "bytes queued to one connection before it is closed as too slow (default 262144)",
         number(&Config::write_queue_bytes, 4096, 1LL << 30)},
        {"idle-timeout", "seconds without traffic or pong before a connection is closed (default 60)",
         number(&Config::idle_timeout_seconds, 2, 86400)},
        {"hello-timeout", "seconds a new connection has to say hello (default 10)",
         number(&Config::hello_timeout_seconds, 1, 3600)},
        {"tables-per-player", "open tables one player may have created (default 4)",
         number(&Config::tables_per_player, 1, 100000)},
        {"connections-per-address", "simultaneous connections from one IP address (default 64)",
         number(&Config::connections_per_address, 1, 1000000)},
        {"max-connections", "simultaneous connections in all (default 20000)",
         number(&Config::max_connections, 1, 10000000)},
        {"turn-seconds", "default turn time limit of a new table, 0 for none (default 60)",
         number(&Config::turn_seconds, 0, 3600)},
        {"absent-after", "turns missed in a row before a seat is marked absent (default 3)",
         number(&Config::absent_after_missed_turns, 1, 1000)},
        {"table-grace", "seconds a table with no human connected stays open (default 120)",
         number(&Config::table_grace_seconds, 0, 86400)},
        {"bot-delay-ms", "milliseconds a bot or an absent seat waits before it plays (default 400)",
         number(&Config::bot_delay_ms, 0, 60000)},
        {"history-events", "events kept per table for reconnecting clients (default 512)",
         number(&Config::history_events, 16, 1000000)},
    };
    return table;
}

std::string env_name(const char* flag) {
    std::string name = "SPARTS_";
    for (const char* p = flag; *p; ++p) name += *p == '-' ? '_' : static_cast<char>(std::toupper(*p));
    return name;
}

const Setting* find(std::string_view flag) {
    for (const Setting& s : settings())
        if (flag == s.flag) return &s;
    return nullptr;
}

}  // namespace

std::string usage() {
    std::string u = "usage: sparts-server [--flag value]...\n\n"
                    "Serves HTTP and WebSocket (/ws) on one port. Every flag can also be set by\n"
                    "the environment variable shown; flags win.\n\n";
    for (const Setting& s : settings()) {
        std::string line = std::string("  --") + s.flag + " (" + env_name(s.flag) + ")";
        u += line + "\n      " + s.help + "\n";
    }
    return u;
}

Outcome<Config, std::string> read_config(const std::vector<std::string>& args, const std::vector<std::string>& env) {
    Config c;
    for (const std::string& kv : env) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || kv.rfind("SPARTS_", 0) != 0) continue;
        const std::string name = kv.substr(0, eq);
        for (const Setting& s : settings()) {
            if (env_name(s.flag) != name) continue;
            if (std::string problem = s.set(c, kv.substr(eq + 1)); !problem.empty())
                return name + ": " + problem;
        }
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg == "--help" || arg == "-h") return usage();
        if (arg.rfind("--", 0) != 0) return "unexpected argument \"" + arg + "\"\n\n" + usage();
        std::string value;
        bool has_value = false;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            has_value = true;
        }
        const Setting* s = find(std::string_view(arg).substr(2));
        if (!s) return "unknown flag \"" + arg + "\"\n\n" + usage();
        if (!has_value) {
            if (i + 1 >= args.size()) return arg + ": expected a value";
            value = args[++i];
        }
        if (std::string problem = s->set(c, value); !problem.empty()) return arg + ": " + problem;
    }
    return c;
}

}  // namespace sparts::server
