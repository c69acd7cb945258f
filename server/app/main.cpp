// sparts-server: the authoritative card-table server. With no arguments it
// serves HTTP and WebSocket on 127.0.0.1:8080. `--help` lists every setting.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <spdlog/spdlog.h>
#include "server/base/config.hpp"
#include "server/base/log_setup.hpp"
#include "server/app/backup_command.hpp"
#include "server/app/migrate.hpp"
#include "server/app/recompute_ratings.hpp"
#include "server/app/retire_command.hpp"
#include "server/app/server.hpp"

extern char** environ;

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
    auto config = sparts::server::read_config(args, env);
    if (!config) {
        const bool help = !args.empty() && (args[0] == "--help" || args[0] == "-h");
        (help ? std::cout : std::cerr) << config.error();
        if (!config.error().ends_with('\n')) (help ? std::cout : std::cerr) << '\n';
        return help ? 0 : 2;
    }
    sparts::server::setup_logging(config->log_level, config->log_json);
    if (!config->migrate_from.empty()) return sparts::server::migrate_from_sqlite(*config);
    if (config->recompute_ratings) return sparts::server::recompute_ratings(*config);
    if (!config->backup_to.empty()) return sparts::server::backup_command(*config);
    if (config->retire_older_than_days > 0 || !config->retire_to.empty()) return sparts::server::retire_command(*config);
    spdlog::info("settings: {}", sparts::server::describe(*config));
    try {
        sparts::server::Server server(*config);
        const auto port = server.start();
        spdlog::info("sparts-server listening on http://{}:{} (WebSocket: /ws)", config->address, port);
        // A line a supervisor or a test can wait for.
        std::printf("listening on %s:%u\n", config->address.c_str(), static_cast<unsigned>(port));
        std::fflush(stdout);
        if (!server.run()) return 3;  // the store has said what it could not commit
        spdlog::info("sparts-server stopped");
    } catch (const std::exception& e) {
        spdlog::critical("cannot start: {}", e.what());
        return 1;
    }
    return 0;
}
