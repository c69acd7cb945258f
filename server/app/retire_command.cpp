#include "server/app/retire_command.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

#include "server/admin/retirement.hpp"
#include "storage/backends/open_store.hpp"

namespace sparts::server {

int retire_command(const Config& config) {
    if (config.retire_older_than_days <= 0 || config.retire_to.empty()) {
        std::cerr << "--retire-older-than DAYS and --retire-to FILE go together\n";
        return 2;
    }
    if (config.database == "none") {
        std::cerr << "--retire-older-than needs a --database: with none there is no archive\n";
        return 2;
    }
    auto opened = storage::open_store(config.database, storage::StoreOptions{});
    if (!opened) {
        std::cerr << "cannot open the database: " << opened.error() << "\n";
        return 1;
    }
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch());
    const storage::Millis before = now.count() - static_cast<storage::Millis>(config.retire_older_than_days) * 86'400'000;
    const Retired retired = retire_games(**opened, before, config.retire_to);
    if (retired.held_elsewhere) {
        std::cerr << "old games are being retired already by another process\n";
        return 1;
    }
    if (!retired.error.empty()) {
        std::cerr << retired.error << " (" << retired.games << " games retired to " << config.retire_to << " before it)\n";
        return 1;
    }
    if (retired.games == 0)
        std::printf("0 finished games older than %d days retired: none was due, %s not written\n",
                    config.retire_older_than_days, config.retire_to.c_str());
    else
        std::printf("%llu finished games older than %d days retired to %s (%llu bytes)\n",
                    static_cast<unsigned long long>(retired.games), config.retire_older_than_days,
                    config.retire_to.c_str(), static_cast<unsigned long long>(retired.bytes));
    return 0;
}

}  // namespace sparts::server
