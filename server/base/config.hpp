// The server's settings: every address, size, rate and time it uses, each
// named, with a default fit for one machine, and settable by a flag
// (--max-frame-bytes 16384), an environment variable (SPARTS_MAX_FRAME_BYTES)
// or a line of a settings file named by --config (max-frame-bytes = 16384).
// Flags win over the environment, which wins over the file.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "protocol/outcome.hpp"

namespace sparts::server {

struct Config {
    std::string address = "127.0.0.1";
    std::uint16_t port = 8080;
    int threads = 0;                  // 0: as many as the machine has cores
    std::string database = "sparts.db";  // "none": keep nothing (for comparisons and throwaway servers)
    bool db_sync_full = false;           // synchronous=FULL: survive power loss too, at a cost per commit
    int wal_restart_pages = 8192;        // a WAL longer than this is restarted by the checkpointer
    std::int64_t wal_limit_bytes = 64LL * 1024 * 1024;  // a restarted WAL is cut back to this size
    int db_commit_interval_us = 1000;    // under load, commits at most this often (0: each at once)
    std::string log_level = "info";
    bool log_json = false;            // JSON lines instead of text

    // Limits at the edge.
    std::size_t max_frame_bytes = 16 * 1024;
    int messages_per_second = 20;     // per connection, with a burst of twice as many
    int flood_close_after = 100;      // refused messages in a row before the connection is closed
    std::size_t write_queue_bytes = 256 * 1024;  // per connection; a reader further behind is closed
    int idle_timeout_seconds = 60;    // no frame nor pong for this long: closed (pings go at half of it)
    int hello_timeout_seconds = 10;   // a connection must say hello within this
    int tables_per_player = 4;        // open tables a player may have created
    int connections_per_address = 64; // WebSocket and plain HTTP alike
    int max_connections = 20000;
    int players_per_address_per_minute = 30;  // new players (a hello without a token) from one address
    int tables_per_address = 16;      // open tables created from one address
    int max_tables = 5000;            // open tables in all
    int player_idle_seconds = 600;    // a player with no connection and no seat leaves memory (not the store) after this
    int http_request_seconds = 10;    // a plain HTTP request must arrive whole within this (slowloris)
    int archive_reads_per_minute = 60;  // archive and replay reads from one address
    int archive_threads = 1;          // threads that read the archive, off the I/O threads
    int archive_cache_games = 64;     // finished games whose rendering is kept in memory
    std::vector<std::string> trusted_proxies;  // peers whose X-Forwarded-For names the client's address
    bool proxy_protocol = false;      // trusted proxies' connections start with a PROXY protocol v2 header

    // Tables.
    int turn_seconds = 60;            // the default turn time limit of a new table (0: none)
    int absent_after_missed_turns = 3;
    int table_grace_seconds = 120;    // a table with no human connected is closed after this
    int quick_play_wait_ms = 20000;   // quick play: bots fill the seats of a table after its first player waited this long
    bool quick_play_while_seated = false;  // quick play: may a player seated at a game in progress queue for another
    int bot_delay_ms = 400;           // how long a bot (or an absent seat) waits before playing
    int bot_budget_ms = 50;           // how long a strong bot may think a move (on the bot threads)
    std::string absent_bot_level = "basic";  // the bot of a timed-out, absent or left seat
    std::size_t history_events = 512; // events kept per table for reconnects; older: a snapshot
    std::size_t chat_history = 50;    // chat lines kept per table for players who come back (in memory only)
    int chat_per_minute = 30;         // chat messages a connection may send a minute on average...
    int chat_burst = 5;               // ...and at once (5 in 10 s, then one every 2 s)
    int shutdown_seconds = 10;        // at SIGTERM, how long clients get to close before the server exits

    // A host's own logins (docs/OPERATING.md, "Logins"): hello with a JWT the host signed.
    std::string login_algorithm = "off";  // off, HS256, RS256 or ES256
    std::string login_secret_file;        // HS256: a file holding the shared secret
    std::string login_public_key;         // RS256/ES256: the host's PEM public key file
    std::string login_issuer;             // required `iss`; empty: not checked
    std::string login_audience;           // required `aud`; empty: not checked
    int login_clock_skew_seconds = 30;
    bool guests = true;                   // off: only players who log in

    // The game-over webhook (server/README.md, "The game-over webhook").
    std::string webhook_url;              // empty: none
    int webhook_concurrency = 4;       // game-over summaries in flight to the receiver at once
    int webhook_queue = 1000;          // game-over summaries held in memory (more wait in the database)
    std::string webhook_secret_file;      // the HMAC-SHA-256 key, in a file

    // Many nodes on one PostgreSQL database (server/README.md, "Many nodes").
    std::string node_id;              // this node's id; empty: one server alone
    int lease_ms = 3000;              // a table's lease, renewed every third of it
    int drain_ms = 1500;              // at SIGTERM, /readyz says 503 this long before the tables are handed over

    // The admin API (server/README.md, "The admin API"): HTTP under /admin/, behind a bearer token.
    std::string admin_token_file;     // the file holding the token; empty: no admin API at all
    std::string rule_sets_file;       // named rule sets (JSON, table/rule_sets.hpp); empty: none
    int admin_auth_failures_per_minute = 10;  // wrong or missing tokens one address may send a minute, then 429

    // Backups of the SQLite database (admin/backups.hpp; docs/OPERATING.md, "Backups").
    std::string backup_dir;           // empty: none (the admin API's backups are refused)
    int backup_every_seconds = 0;     // 0: only when the admin API asks
    int backup_keep = 7;              // the newest kept
    // Retention while the server runs (admin/retirement.hpp; docs/OPERATING.md, "Retention").
    std::string retire_dir;            // empty: none (the admin API's retirements are refused)
    int retire_after_days = 0;         // with retire_dir
    int retire_every_seconds = 86400;  // 0: only when the admin API asks

    // A command rather than a setting (a flag only, never from the environment or a file):
    // copy this SQLite file's history into the PostgreSQL --database, check it, and exit.
    std::string migrate_from;
    // A command too: rebuild the ratings and statistics from the archive (server/app/recompute_ratings.hpp), and exit.
    bool recompute_ratings = false;
    // A command too: a consistent copy of the SQLite --database in this file, made beside a running
    // server if there is one (server/app/backup_command.hpp), and exit.
    std::string backup_to;
    // A command too: retention (server/app/retire_command.hpp): the finished games older than this
    // many days appended to the file `retire_to` as JSON Lines, then dropped from the archive; and exit.
    int retire_older_than_days = 0;
    std::string retire_to;
};

// The settings from `args` (argv without the program name) over `env`
// (NAME=value strings), over the defaults; or what is wrong, for the user.
// `--help` is an error whose text is the usage.
Outcome<Config, std::string> read_config(const std::vector<std::string>& args, const std::vector<std::string>& env);

// The settings as `name = value` lines, for the log at start (nothing in them is secret).
std::string describe(const Config& config);

std::string usage();

}  // namespace sparts::server
