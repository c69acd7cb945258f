#include "server/base/config.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <functional>
#include "storage/postgres/pg.hpp"

namespace sparts::server {

namespace {

// One setting, listed once: its flag (without "--"; the environment variable
// is SPARTS_ and the flag in upper case, '-' -> '_'), what it is for, how it
// becomes a CLI11 option that reads into a Config (type and check), and how
// describe() shows its value. The defaults are the Config's own initializers.
struct Setting {
    const char* flag;
    const char* help;
    std::function<CLI::Option*(CLI::App&, const std::string& name, const std::string& help, Config&)> add;
    std::function<std::string(const Config&)> show;
};

// A whole number from lo to hi, in decimal. (CLI11's own conversion takes
// 010 as octal and 0x10 as hex; a settings file meaning ten should get ten.)
// The check rewrites the text as plain decimal for CLI11 to convert.
template <class T>
Setting number(const char* flag, const char* help, T Config::*field, long long lo, long long hi) {
    const CLI::Validator whole(
        [lo, hi](std::string& text) -> std::string {
            long long n = 0;
            const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
            if (ec != std::errc() || p != text.data() + text.size() || n < lo || n > hi)
                return "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got \"" +
                       text + "\"";
            text = std::to_string(n);
            return {};
        },
        "");
    const std::string type = "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]";
    return {flag, help,
            [=](CLI::App& app, const std::string& name, const std::string& text, Config& c) {
                return app.add_option(name, c.*field, text)->check(whole)->type_name(type);
            },
            [=](const Config& c) { return std::to_string(c.*field); }};
}

Setting text(const char* flag, const char* help, std::string Config::*field) {
    const CLI::Validator not_empty(
        [](const std::string& value) { return value.empty() ? std::string("expected a value") : std::string(); }, "");
    return {flag, help,
            [=](CLI::App& app, const std::string& name, const std::string& text, Config& c) {
                return app.add_option(name, c.*field, text)->check(not_empty)->type_name("TEXT");
            },
            [=](const Config& c) { return c.*field; }};
}

// One of `choices`, given to `set`. (CLI::IsMember would do, but says
// "loud not in {trace,...}"; ours says what was expected as the numbers do.)
Setting choice(const char* flag, const char* help, std::vector<std::string> choices,
               std::function<void(Config&, const std::string&)> set, std::function<std::string(const Config&)> show) {
    std::string type, expected;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        type += (i == 0 ? "{" : ",") + choices[i];
        expected += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    }
    type += "}";
    const CLI::Validator one_of(
        [choices, expected](const std::string& value) {
            for (const std::string& ch : choices)
                if (value == ch) return std::string();
            return "expected " + expected + ", got \"" + value + "\"";
        },
        "");
    return {flag, help,
            [=](CLI::App& app, const std::string& name, const std::string& text, Config& c) {
                return app
                    .add_option_function<std::string>(
                        name, [&c, set](const std::string& v) { set(c, v); }, text)
                    ->check(one_of)
                    ->type_name(type);
            },
            std::move(show)};
}

std::vector<std::string> comma_list(const std::string& text) {
    std::vector<std::string> items;
    // Split by hand: clang 15 cannot compile libstdc++ 12's std::views::split (the sanitizer build uses clang).
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string item = text.substr(start, comma - start);
        start = comma + 1;
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) items.push_back(std::move(item));
    }
    return items;
}

const std::vector<Setting>& settings() {
    using C = Config;
    static const std::vector<Setting> table = {
        text("address", "address to listen on (0.0.0.0 for every interface)", &C::address),
        number("port", "port for HTTP and WebSocket (0: any free port, printed at start)", &C::port, 0, 65535),
        number("threads", "I/O threads (0: one per core)", &C::threads, 0, 256),
        {"database", "SQLite database file, or a PostgreSQL URL postgresql://user:password@host/name (none: keep nothing)",
         [](CLI::App& app, const std::string& name, const std::string& text, Config& c) {
             // Shown redacted: a URL's password stays out of --help and the log.
             return app.add_option(name, c.database, text)
                 ->check(CLI::Validator(
                     [](const std::string& v) { return v.empty() ? std::string("expected a value") : std::string(); }, ""))
                 ->type_name("FILE|URL");
         },
         [](const C& c) { return storage::pg::redact(c.database); }},
        choice(
            "db-sync", "normal survives a crash of the server, full survives power loss too", {"normal", "full"},
            [](C& c, const std::string& v) { c.db_sync_full = v == "full"; },
            [](const C& c) { return std::string(c.db_sync_full ? "full" : "normal"); }),
        number("wal-restart-pages", "WAL pages after which the checkpointer restarts the log", &C::wal_restart_pages,
               16, 1 << 24),
        number("wal-limit-bytes", "size a restarted WAL is cut back to", &C::wal_limit_bytes, 0, 1LL << 40),
        number("db-commit-interval-us",
               "under load, the store commits at most this often, many table steps at a time (0: each at once)",
               &C::db_commit_interval_us, 0, 1000000),
        choice(
            "log-level", "the least severe messages logged", {"trace", "debug", "info", "warn", "error", "off"},
            [](C& c, const std::string& v) { c.log_level = v; }, [](const C& c) { return c.log_level; }),
        choice(
            "log-format", "text, or json: one JSON object a line", {"text", "json"},
            [](C& c, const std::string& v) { c.log_json = v == "json"; },
            [](const C& c) { return std::string(c.log_json ? "json" : "text"); }),
        number("max-frame-bytes", "largest WebSocket message accepted", &C::max_frame_bytes, 256, 16 * 1024 * 1024),
        number("messages-per-second", "messages a connection may send a second, burst twice that",
               &C::messages_per_second, 1, 1000000),
        number("flood-close-after", "refused messages in a row before a flooding connection is closed",
               &C::flood_close_after, 1, 1000000),
        number("write-queue-bytes", "bytes queued to one connection before it is closed as too slow",
               &C::write_queue_bytes, 4096, 1LL << 30),
        number("idle-timeout", "seconds without traffic or pong before a connection is closed",
               &C::idle_timeout_seconds, 2, 86400),
        number("hello-timeout", "seconds a new connection has to say hello", &C::hello_timeout_seconds, 1, 3600),
        number("tables-per-player", "open tables one player may have created", &C::tables_per_player, 1, 100000),
        number("connections-per-address", "simultaneous connections from one IP address",
               &C::connections_per_address, 1, 1000000),
        number("max-connections", "simultaneous connections in all", &C::max_connections, 1, 10000000),
        number("players-per-address-per-minute", "new players (hello without a token) one address may create a minute",
               &C::players_per_address_per_minute, 1, 1000000),
        number("tables-per-address", "open tables created from one IP address", &C::tables_per_address, 1, 1000000),
        number("max-tables", "open tables in all", &C::max_tables, 1, 10000000),
        number("player-idle-seconds",
               "seconds a player with no connection and no seat stays in memory; its token still works after",
               &C::player_idle_seconds, 1, 86400 * 365),
        number("http-request-seconds", "seconds a plain HTTP request has to arrive whole", &C::http_request_seconds,
               1, 3600),
        number("archive-reads-per-minute", "archive and replay reads one IP address may make a minute",
               &C::archive_reads_per_minute, 1, 1000000),
        number("archive-threads", "threads that read the archive, off the I/O threads", &C::archive_threads, 1, 64),
        number("archive-cache-games", "finished games whose rendering is kept in memory", &C::archive_cache_games, 0,
               1000000),
        {"trusted-proxies",
         "comma-separated addresses of reverse proxies whose X-Forwarded-For gives the client's address",
         [](CLI::App& app, const std::string& name, const std::string& text, Config& c) {
             return app
                 .add_option_function<std::string>(
                     name, [&c](const std::string& v) { c.trusted_proxies = comma_list(v); }, text)
                 ->type_name("LIST");
         },
         [](const C& c) {
             std::string list;
             for (const std::string& p : c.trusted_proxies) list += (list.empty() ? "" : ",") + p;
             return list;
         }},
        choice(
            "proxy-protocol",
            "v2: connections from --trusted-proxies begin with a PROXY protocol v2 header (HAProxy's send-proxy-v2) "
            "naming the client",
            {"off", "v2"}, [](C& c, const std::string& v) { c.proxy_protocol = v == "v2"; },
            [](const C& c) { return std::string(c.proxy_protocol ? "v2" : "off"); }),
        choice(
            "login-algorithm",
            "players may hello with a login: a JWT the host signed with this algorithm (off: no logins)",
            {"off", "HS256", "RS256", "ES256"}, [](C& c, const std::string& v) { c.login_algorithm = v; },
            [](const C& c) { return c.login_algorithm; }),
        text("login-secret-file", "HS256 logins: a file holding the shared secret (at least 32 bytes)",
             &C::login_secret_file),
        text("login-public-key", "RS256/ES256 logins: the host's public key, a PEM file", &C::login_public_key),
        text("login-issuer", "a login's iss must be this (unset: not checked)", &C::login_issuer),
        text("login-audience", "a login's aud must name this (unset: not checked)", &C::login_audience),
        number("login-clock-skew", "seconds a login's exp and nbf may be off by", &C::login_clock_skew_seconds, 0, 3600),
        choice(
            "guests", "off: every player must log in (--login-algorithm); on: anyone may play under a name",
            {"on", "off"}, [](C& c, const std::string& v) { c.guests = v == "on"; },
            [](const C& c) { return std::string(c.guests ? "on" : "off"); }),
        text("webhook-url", "POST each finished game's summary to this http:// or https:// URL", &C::webhook_url),
        text("webhook-secret-file", "the webhook's HMAC-SHA-256 key, in a file (needed with --webhook-url)",
             &C::webhook_secret_file),
        number("webhook-concurrency", "game-over summaries posted to the webhook at once (1: in the order the games ended)",
               &C::webhook_concurrency, 1, 64),
        number("webhook-queue",
               "game-over summaries held in memory for the webhook; more wait in the database (without one: the "
               "oldest is dropped)",
               &C::webhook_queue, 1, 1000000),
        number("quick-play-wait-ms", "quick play: after this wait, bots fill the seats nobody came for",
               &C::quick_play_wait_ms, 0, 3600000),
        choice(
            "quick-play-while-seated",
            "on: a player seated at a game in progress may queue for another by quick play; off: it plays that one out "
            "(or leaves its seat) first",
            {"on", "off"}, [](C& c, const std::string& v) { c.quick_play_while_seated = v == "on"; },
            [](const C& c) { return std::string(c.quick_play_while_seated ? "on" : "off"); }),
        number("turn-seconds", "default turn time limit of a new table, 0 for none", &C::turn_seconds, 0, 3600),
        number("absent-after", "turns missed in a row before a seat is marked absent", &C::absent_after_missed_turns,
               1, 1000),
        number("table-grace", "seconds a table with no human connected stays open", &C::table_grace_seconds, 0,
               86400),
        number("bot-delay-ms", "milliseconds a bot or an absent seat waits before it plays", &C::bot_delay_ms, 0,
               60000),
        number("bot-budget-ms", "milliseconds a strong server bot may think a move, on the bot threads",
               &C::bot_budget_ms, 1, 10000),
        choice(
            "absent-bot-level", "the bot that plays a timed-out, absent or left seat", {"random", "basic", "strong"},
            [](C& c, const std::string& v) { c.absent_bot_level = v; }, [](const C& c) { return c.absent_bot_level; }),
        number("history-events", "events kept per table for reconnecting clients", &C::history_events, 16, 1000000),
        number("chat-history", "chat lines kept per table (in memory) for players who come back; 0: none",
               &C::chat_history, 0, 10000),
        number("chat-per-minute", "chat messages a connection may send a minute, on average", &C::chat_per_minute, 1,
               100000),
        number("chat-burst", "chat messages a connection may send at once", &C::chat_burst, 1, 10000),
        number("shutdown-seconds", "at SIGTERM/SIGINT, seconds to wait for clients to close before exiting",
               &C::shutdown_seconds, 0, 3600),
        {"node-id",
         "this node's id among the servers sharing one PostgreSQL --database (letters, digits, '.', '_', '-'); "
         "none: one server alone",
         [](CLI::App& app, const std::string& name, const std::string& text, Config& c) {
             return app.add_option(name, c.node_id, text)
                 ->check(CLI::Validator(
                     [](const std::string& v) {
                         const bool ok = !v.empty() && v.size() <= 64 &&
                                         v.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
                                             std::string::npos;
                         return ok ? std::string() : "expected 1 to 64 letters, digits, '.', '_' or '-', got \"" + v + "\"";
                     },
                     ""))
                 ->type_name("ID");
         },
         [](const C& c) { return c.node_id; }},
        number("lease-ms", "a node's hold on a table lasts this long unrenewed; a dead node's tables move after it",
               &C::lease_ms, 300, 600000),
        number("drain-ms", "at SIGTERM, a node answers /readyz 503 this long before handing its tables over",
               &C::drain_ms, 0, 600000),
        text("rule-sets",
             "a JSON file of named rule sets (a name, a label and a ruleset each) the lobby offers first; none: none",
             &C::rule_sets_file),
        text("admin-token-file",
             "a file holding the admin API's bearer token (at least 32 characters); none: no admin API",
             &C::admin_token_file),
        number("admin-auth-failures-per-minute",
               "admin API requests with a wrong or missing token one address may make a minute (then 429)",
               &C::admin_auth_failures_per_minute, 1, 1000),
        text("backup-dir",
             "a folder for backups of the SQLite database (POST /admin/backups, --backup-every-seconds); none: no backups",
             &C::backup_dir),
        number("backup-every-seconds",
               "a backup into --backup-dir this often, 3600 for hourly (0: only when the admin API asks)",
               &C::backup_every_seconds, 0, 31536000),
        number("backup-keep", "the newest backups kept in --backup-dir; older ones are removed", &C::backup_keep, 1, 10000),
        text("retire-dir",
             "a folder for the JSON Lines files of retired games (--retire-after-days); none: no retention while "
             "the server runs",
             &C::retire_dir),
        number("retire-after-days",
               "with --retire-dir: the finished games older than this many days are exported there and dropped "
               "from the archive, while play goes on (0, without --retire-dir: no retention)",
               &C::retire_after_days, 0, 36500),
        number("retire-every-seconds",
               "retention runs this often, the first a minute after start (or sooner, at a shorter interval); 0: "
               "only when the admin API asks",
               &C::retire_every_seconds, 0, 31536000),
    };
    return table;
}

std::string env_name(std::string_view flag) {
    std::string name = "SPARTS_";
    for (const char ch : flag)
        name += ch == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return name;
}

const Setting* find(std::string_view flag) {
    for (const Setting& s : settings())
        if (flag == s.flag) return &s;
    return nullptr;
}

// CLI11's help, with each option's environment variable after its type and default.
class Formatter : public CLI::Formatter {
public:
    std::string make_option_opts(const CLI::Option* opt) const override {
        std::string opts = CLI::Formatter::make_option_opts(opt);
        const std::string& name = opt->get_name();
        if (name.rfind("--", 0) == 0 && name != "--help") opts += " (" + env_name(std::string_view(name).substr(2)) + ")";
        return opts;
    }
};

// The server's App: an option per setting, each reading into `c`, and --config into `file`.
void set_up(CLI::App& app, Config& c, std::string& file) {
    app.name("sparts-server");
    app.description("sparts-server: serves HTTP and WebSocket (/ws) on one port.");
    app.footer(
        "Every flag can also be set by the environment variable shown, or by a line\n"
        "'flag = value' of the FILE named by --config (SPARTS_CONFIG); flags win over\n"
        "the environment, which wins over the file.");
    app.formatter(std::make_shared<Formatter>());
    app.get_formatter()->column_width(44);
    // The last of a flag given twice counts, as the environment's and the file's last do.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.add_option("--config", file, "settings file: 'flag = value' lines, '#' comments")->type_name("FILE");
    app.add_option("--migrate-from", c.migrate_from,
                   "copy this SQLite file's games into the empty PostgreSQL --database, check every game, and exit")
        ->type_name("FILE");
    app.add_option("--backup-to", c.backup_to,
                   "copy the SQLite --database to FILE, consistent, while a server may be using it, and exit")
        ->type_name("FILE");
    app.add_option("--retire-older-than", c.retire_older_than_days,
                   "with --retire-to: export the finished games older than DAYS days, then drop them from the "
                   "--database's archive (ratings unchanged; no server may be using a SQLite file), and exit")
        ->type_name("DAYS")
        ->check(CLI::Range(1, 100000));
    app.add_option("--retire-to", c.retire_to, "the JSON Lines file --retire-older-than appends the games to")
        ->type_name("FILE");
    app.add_flag("--recompute-ratings", c.recompute_ratings,
                 "rebuild every rating and statistic from the --database's archive (no server may be using it), and exit");
    for (const Setting& s : settings())
        s.add(app, std::string("--") + s.flag, s.help, c)->default_str(s.show(c));
}

// `value` for the setting `flag`, from the environment or the file, through
// its option: converted and checked as the flag's would be. Empty, or the problem.
std::string set(CLI::App& app, const std::string& flag, const std::string& value) {
    CLI::Option* opt = app.get_option("--" + flag);
    try {
        opt->clear();
        opt->add_result(value);
        opt->run_callback();
        return {};
    } catch (const CLI::Error& e) {
        // CLI11 names the option ("--port: ..."); the caller names the variable or the line instead.
        std::string problem = e.what();
        if (problem.rfind(opt->get_name() + ": ", 0) == 0) problem.erase(0, opt->get_name().size() + 2);
        return problem;
    }
}

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// `name = value` lines; '#' starts a comment. Our own few lines rather than
// CLI11's config reader, which names no line in its errors, reads "a b" as a
// list of two and a bare name as "true", and puts the file over the environment.
std::string read_file(CLI::App& app, const std::string& path) {
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
        if (!find(name)) return where + "unknown setting \"" + name + "\"";
        if (std::string problem = set(app, name, trim(line.substr(eq + 1))); !problem.empty())
            return where + name + ": " + problem;
    }
    return {};
}

// The flags, through CLI11. Empty, or what is wrong (with the usage where a
// flag is unknown); --help gives the usage.
std::string parse_flags(CLI::App& app, const std::vector<std::string>& args) {
    try {
        app.parse(std::vector<std::string>(args.rbegin(), args.rend()));  // CLI11 takes them last first
        return {};
    } catch (const CLI::CallForHelp&) {
        return app.help();
    } catch (const CLI::ExtrasError&) {
        std::string extra = app.remaining().empty() ? std::string() : app.remaining().front();
        if (extra.rfind("-", 0) != 0) return "unexpected argument \"" + extra + "\"\n\n" + app.help();
        return "unknown flag \"" + extra.substr(0, extra.find('=')) + "\"\n\n" + app.help();
    } catch (const CLI::ArgumentMismatch& e) {
        // "--port: 1 required INT in [0 - 65535] missing": the flag ends the arguments or another flag follows it.
        const std::string what = e.what();
        return what.substr(0, what.find(':')) + ": expected a value";
    } catch (const CLI::ParseError& e) {
        return e.what();  // CLI11's, naming the flag: "--port: expected a whole number from 0 to 65535, got ..."
    }
}

}  // namespace

std::string usage() {
    Config c;
    std::string file;
    CLI::App app;
    set_up(app, c, file);
    return app.help();
}

std::string describe(const Config& c) {
    std::string out;
    for (const Setting& s : settings()) {
        std::string value = s.show(c);
        out += (out.empty() ? "" : ", ") + std::string(s.flag) + " = " + (value.empty() ? "none" : value);
    }
    return out;
}

Outcome<Config, std::string> read_config(const std::vector<std::string>& args, const std::vector<std::string>& env) {
    Config c;
    std::string file;
    CLI::App app;
    set_up(app, c, file);
    // The flags first, for --help, their mistakes and --config. Then the file,
    // the environment over it and the flags again over both: each value goes
    // through its setting's option, converted and checked as a flag's would
    // be, and overwrites what came before it.
    if (std::string problem = parse_flags(app, args); !problem.empty()) return problem;
    if (app.get_option("--config")->count() == 0)
        for (const std::string& kv : env)
            if (kv.rfind("SPARTS_CONFIG=", 0) == 0) file = kv.substr(14);
    if (!file.empty())
        if (std::string problem = read_file(app, file); !problem.empty()) return problem;
    for (const std::string& kv : env) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || kv.rfind("SPARTS_", 0) != 0) continue;
        const std::string name = kv.substr(0, eq);
        for (const Setting& s : settings())
            if (env_name(s.flag) == name)
                if (std::string problem = set(app, s.flag, kv.substr(eq + 1)); !problem.empty())
                    return name + ": " + problem;
    }
    if (std::string problem = parse_flags(app, args); !problem.empty()) return problem;  // read well the first time
    if (!c.guests && c.login_algorithm == "off")
        return std::string("--guests off needs --login-algorithm: with neither guests nor logins nobody could play");
    if (c.retire_dir.empty() != (c.retire_after_days == 0))
        return std::string("--retire-dir and --retire-after-days go together: the folder retired games are written "
                           "to, and their age in days");
    if (c.backup_every_seconds > 0 && c.backup_dir.empty())
        return std::string("--backup-every-seconds needs --backup-dir, the folder the backups are written to");
    if (!c.webhook_url.empty() && c.webhook_secret_file.empty())
        return std::string("--webhook-url needs --webhook-secret-file, the key its deliveries are signed with");
    if (c.login_algorithm == "HS256" && c.login_secret_file.empty())
        return std::string("--login-algorithm HS256 needs --login-secret-file, the file holding the shared secret");
    if ((c.login_algorithm == "RS256" || c.login_algorithm == "ES256") && c.login_public_key.empty())
        return "--login-algorithm " + c.login_algorithm + " needs --login-public-key, the host's PEM public key file";
    return c;
}

}  // namespace sparts::server
