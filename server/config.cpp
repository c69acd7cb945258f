#include "server/config.hpp"

#include <charconv>
#include <fstream>
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
        {"log-format", "text (default) or json (one JSON object a line)",
         [](Config& c, const std::string& v) -> std::string {
             if (v != "text" && v != "json") return "expected text or json, got \"" + v + "\"";
             c.log_json = v == "json";
             return {};
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
        {"players-per-address-per-minute", "new players (hello without a token) one address may create a minute (default 30)",
         number(&Config::players_per_address_per_minute, 1, 1000000)},
        {"tables-per-address", "open tables created from one IP address (default 16)",
         number(&Config::tables_per_address, 1, 1000000)},
        {"max-tables", "open tables in all (default 5000)", number(&Config::max_tables, 1, 10000000)},
        {"player-idle-seconds",
         "seconds a player with no connection and no seat stays in memory; its token still works after (default 600)",
         number(&Config::player_idle_seconds, 1, 86400 * 365)},
        {"http-request-seconds", "seconds a plain HTTP request has to arrive whole (default 10)",
         number(&Config::http_request_seconds, 1, 3600)},
        {"archive-reads-per-minute", "archive and replay reads one IP address may make a minute (default 60)",
         number(&Config::archive_reads_per_minute, 1, 1000000)},
        {"archive-threads", "threads that read the archive, off the I/O threads (default 1)",
         number(&Config::archive_threads, 1, 64)},
        {"archive-cache-games", "finished games whose rendering is kept in memory (default 64)",
         number(&Config::archive_cache_games, 0, 1000000)},
        {"trusted-proxies",
         "comma-separated addresses of reverse proxies whose X-Forwarded-For gives the client's address (default none)",
         [](Config& c, const std::string& v) -> std::string {
             c.trusted_proxies.clear();
             std::size_t start = 0;
             while (start <= v.size()) {
                 const auto comma = v.find(',', start);
                 std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                 item.erase(0, item.find_first_not_of(' '));
                 item.erase(item.find_last_not_of(' ') + 1);
                 if (!item.empty()) c.trusted_proxies.push_back(item);
                 if (comma == std::string::npos) break;
                 start = comma + 1;
             }
             return {};
         }},
        {"wal-restart-pages", "WAL pages after which the checkpointer restarts the log (default 8192)",
         number(&Config::wal_restart_pages, 16, 1 << 24)},
        {"wal-limit-bytes", "size a restarted WAL is cut back to (default 67108864)",
         number(&Config::wal_limit_bytes, 0, 1LL << 40)},
        {"turn-seconds", "default turn time limit of a new table, 0 for none (default 60)",
         number(&Config::turn_seconds, 0, 3600)},
        {"absent-after", "turns missed in a row before a seat is marked absent (default 3)",
         number(&Config::absent_after_missed_turns, 1, 1000)},
        {"table-grace", "seconds a table with no human connected stays open (default 120)",
         number(&Config::table_grace_seconds, 0, 86400)},
        {"bot-delay-ms", "milliseconds a bot or an absent seat waits before it plays (default 400)",
         number(&Config::bot_delay_ms, 0, 60000)},
        {"bot-budget-ms", "milliseconds a strong server bot may think a move, on the bot threads (default 50)",
         number(&Config::bot_budget_ms, 1, 10000)},
        {"absent-bot-level", "random, basic (default) or strong: the bot that plays a timed-out, absent or left seat",
         [](Config& c, const std::string& v) -> std::string {
             if (v != "random" && v != "basic" && v != "strong")
                 return "expected random, basic or strong, got \"" + v + "\"";
             c.absent_bot_level = v;
             return {};
         }},
        {"shutdown-seconds", "at SIGTERM/SIGINT, seconds to wait for clients to close before exiting (default 10)",
         number(&Config::shutdown_seconds, 0, 3600)},
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
    std::string u = "usage: sparts-server [--config FILE] [--flag value]...\n\n"
                    "Serves HTTP and WebSocket (/ws) on one port. Every flag can also be set by\n"
                    "the environment variable shown, or by a line 'flag = value' of the FILE\n"
                    "named by --config (SPARTS_CONFIG); flags win over the environment, which\n"
                    "wins over the file.\n\n";
    for (const Setting& s : settings()) {
        std::string line = std::string("  --") + s.flag + " (" + env_name(s.flag) + ")";
        u += line + "\n      " + s.help + "\n";
    }
    return u;
}

namespace {

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// `name = value` lines; '#' starts a comment.
std::string read_file(Config& c, const std::string& path) {
    std::ifstream in(path);
    if (!in) return "--config: cannot read " + path;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        line = trim(line);
        if (line.empty()) continue;
        const auto eq = line.find('=');
        const std::string where = path + ":" + std::to_string(n) + ": ";
        if (eq == std::string::npos) return where + "expected name = value";
        const std::string name = trim(line.substr(0, eq));
        const Setting* s = find(name);
        if (!s) return where + "unknown setting \"" + name + "\"";
        if (std::string problem = s->set(c, trim(line.substr(eq + 1))); !problem.empty()) return where + name + ": " + problem;
    }
    return {};
}

}  // namespace

std::string describe(const Config& c) {
    std::string out;
    out += "address = " + c.address + ", port = " + std::to_string(c.port) + ", threads = " + std::to_string(c.threads) +
           ", database = " + c.database + ", db-sync = " + (c.db_sync_full ? "full" : "normal") +
           ", max-frame-bytes = " + std::to_string(c.max_frame_bytes) +
           ", messages-per-second = " + std::to_string(c.messages_per_second) +
           ", write-queue-bytes = " + std::to_string(c.write_queue_bytes) +
           ", idle-timeout = " + std::to_string(c.idle_timeout_seconds) +
           ", tables-per-player = " + std::to_string(c.tables_per_player) +
           ", connections-per-address = " + std::to_string(c.connections_per_address) +
           ", turn-seconds = " + std::to_string(c.turn_seconds) + ", table-grace = " + std::to_string(c.table_grace_seconds) +
           ", bot-budget-ms = " + std::to_string(c.bot_budget_ms) + ", absent-bot-level = " + c.absent_bot_level;
    return out;
}

Outcome<Config, std::string> read_config(const std::vector<std::string>& args, const std::vector<std::string>& env) {
    Config c;
    // The file first, wherever it is named: the environment and the flags go over it.
    std::string file;
    for (const std::string& kv : env)
        if (kv.rfind("SPARTS_CONFIG=", 0) == 0) file = kv.substr(14);
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--config" && i + 1 < args.size()) file = args[i + 1];
        else if (args[i].rfind("--config=", 0) == 0) file = args[i].substr(9);
    }
    if (!file.empty())
        if (std::string problem = read_file(c, file); !problem.empty()) return problem;
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
        if (arg == "--config") {
            if (!has_value) ++i;
            continue;
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
