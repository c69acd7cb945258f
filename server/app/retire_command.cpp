#include "server/app/retire_command.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <unistd.h>

#include "protocol/json_text.hpp"
#include "server/archive/game_json.hpp"
#include "storage/backends/open_store.hpp"
#include "storage/rating_book.hpp"
#include "storage/rating_rebuild.hpp"

namespace sparts::server {

namespace {

// Games a step: a step's lines are synced before its games go, so that none is lost; a few
// hundred keep the commit short and the file's syncs few.
constexpr int kStep = 500;

}  // namespace

int retire_command(const Config& config) {
    if (config.retire_older_than_days <= 0 || config.retire_to.empty()) {
        std::cerr << "--retire-older-than DAYS and --retire-to FILE go together\n";
        return 2;
    }
    if (config.database == "none") {
        std::cerr << "--retire-older-than needs a --database: with none there is no archive\n";
        return 2;
    }
    // Appended to, never truncated: a second run, or one after an interruption, adds to it.
    const int fd = ::open(config.retire_to.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::cerr << "cannot open " << config.retire_to << ": " << std::strerror(errno) << "\n";
        return 1;
    }
    const auto close_file = [&] { ::close(fd); };
    auto opened = storage::open_store(config.database, storage::StoreOptions{});
    if (!opened) {
        std::cerr << "cannot open the database: " << opened.error() << "\n";
        close_file();
        return 1;
    }
    storage::Store& store = **opened;
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch());
    const storage::Millis before = now.count() - static_cast<storage::Millis>(config.retire_older_than_days) * 86'400'000;

    storage::RatingBook book;
    for (storage::PresetRating& row : store.retired_ratings()) book.put(std::move(row));
    std::uint64_t retired = 0;
    std::uint64_t bytes = 0;
    for (;;) {
        const auto games = store.oldest_games(before, kStep);
        if (games.empty()) break;
        std::string lines;
        storage::RetireGames step;
        storage::RatingBook changed;  // this step's rows, to write
        for (const auto& summary : games) {
            const auto game = store.load_game(summary.table, summary.game);
            if (!game) {
                // Not exported, so not dropped: the archive keeps it, and retention stops before it.
                std::cerr << "table " << summary.table << " game " << summary.game
                          << " cannot be read (see the log): it and the games after it are kept\n";
                close_file();
                return 1;
            }
            lines += dump_text(retired_line(*game));
            lines += '\n';
            step.games.emplace_back(summary.table, summary.game);
            // The game's ratings, played again as a rebuild would: the retired rows go on from here.
            if (const auto finish = storage::finish_of(*game); finish && !finish->rated.empty()) {
                for (const auto& [player, preset] : storage::RatingBook::keys_of(*finish))
                    if (const auto* row = book.find(player, preset)) changed.put(*row);
                book.apply(*finish);
                changed.apply(*finish);
            }
        }
        for (std::size_t done = 0; done < lines.size();) {
            const ssize_t n = ::write(fd, lines.data() + done, lines.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                std::cerr << "cannot write " << config.retire_to << ": " << std::strerror(errno) << "\n";
                close_file();
                return 1;
            }
            done += static_cast<std::size_t>(n);
        }
        if (::fsync(fd) != 0) {
            std::cerr << "cannot sync " << config.retire_to << ": " << std::strerror(errno) << "\n";
            close_file();
            return 1;
        }
        step.ratings = changed.changed();
        store.submit({std::move(step)}, nullptr);
        if (!store.flush(std::chrono::seconds(120))) {
            std::cerr << "the games written to " << config.retire_to << " could not be dropped (see the log)\n";
            close_file();
            return 1;
        }
        retired += games.size();
        bytes += lines.size();
    }
    close_file();
    std::printf("%llu finished games older than %d days retired to %s (%llu bytes)\n",
                static_cast<unsigned long long>(retired), config.retire_older_than_days, config.retire_to.c_str(),
                static_cast<unsigned long long>(bytes));
    return 0;
}

}  // namespace sparts::server
