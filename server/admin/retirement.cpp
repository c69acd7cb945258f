#include "server/admin/retirement.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <future>
#include <memory>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "protocol/json_text.hpp"
#include "server/admin/stamped_file_name.hpp"
#include "server/archive/game_json.hpp"
#include "storage/rating_book.hpp"
#include "storage/rating_rebuild.hpp"
#include "storage/file_sync.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Games a step: a step's lines are synced before its games go, so that none is lost; a few
// hundred keep the commit short and the file's syncs few.
constexpr int kStep = 500;

// How often a step's wait for its drop looks at the stop flag.
constexpr auto kStopLook = std::chrono::milliseconds(200);

std::int64_t unix_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The file a run appends to, opened when its first step has games; closed at the end.
class RetiredLines {
public:
    explicit RetiredLines(std::string path) : path_(std::move(path)) {}
    ~RetiredLines() {
        if (fd_ >= 0) ::close(fd_);
    }
    RetiredLines(const RetiredLines&) = delete;
    RetiredLines& operator=(const RetiredLines&) = delete;

    // Written whole and synced to disk, or the error.
    std::string append(const std::string& text) {
        if (fd_ < 0) {
            // Appended to, never truncated: a second run, or one after an interruption, adds to it.
            fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (fd_ < 0) return "cannot open " + path_ + ": " + std::strerror(errno);
            // The file's name is durable before any game it holds leaves the database.
            const std::string folder = fs::path(path_).parent_path().string();
            if (!storage::sync_path(folder.empty() ? "." : folder, true)) return "cannot sync the folder of " + path_;
        }
        for (std::size_t done = 0; done < text.size();) {
            const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return "cannot write " + path_ + ": " + std::strerror(errno);
            done += static_cast<std::size_t>(n);
        }
        if (::fsync(fd_) != 0) return "cannot sync " + path_ + ": " + std::strerror(errno);
        return {};
    }

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace

Retired retire_games(storage::Store& store, storage::Millis before, const std::string& file,
                     const std::atomic<bool>* stop, const std::function<void()>& stepped) {
    Retired out;
    const auto stopped = [&] { return stop && stop->load(std::memory_order_relaxed); };
    try {
        auto taken = store.hold_retirement();
        if (!taken) {
            out.error = taken.error();
            return out;
        }
        if (!*taken) {
            out.held_elsewhere = true;
            return out;
        }
        // Shared with each step's commit callback: the hold outlasts a return before the commit.
        std::shared_ptr<storage::Store::RetirementHold> hold(std::move(*taken));
        RetiredLines lines_out(file);
        storage::RatingBook book;
        for (storage::PresetRating& row : store.retired_ratings()) book.put(std::move(row));
        while (!stopped()) {
            const auto games = store.oldest_games(before, kStep);
            if (games.empty()) break;
            std::string lines;
            storage::RetireGames step;
            storage::RatingBook changed;  // this step's rows, to write
            for (const auto& summary : games) {
                const auto game = store.load_game(summary.table, summary.game);
                // Not exported, so not dropped: the archive keeps it, and retention stops before it.
                if (!game) {
                    out.error = "table " + summary.table + " game " + std::to_string(summary.game) +
                                " cannot be read (see the log): it and the games after it are kept";
                    return out;
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
            if (std::string error = lines_out.append(lines); !error.empty()) {
                out.error = error;
                return out;
            }
            out.bytes += lines.size();
            step.ratings = changed.changed();
            // Waited for alone, not with every table's steps (Store::flush would wait for those too).
            auto committed = std::make_shared<std::promise<void>>();
            auto done = committed->get_future();
            store.submit({std::move(step)}, [committed, hold] { committed->set_value(); });
            while (done.wait_for(kStopLook) != std::future_status::ready) {
                if (stopped()) {
                    out.error = "stopped while the database took a step of " + std::to_string(games.size()) +
                                " games; they are in " + file + " and leave the archive when that commits";
                    return out;
                }
            }
            done.get();
            out.games += games.size();
            if (stepped) stepped();
        }
        if (stopped() && out.error.empty()) out.error = "stopped before every game due was retired";
    } catch (const std::exception& e) {
        // A database that failed under a read: the run ends, the server plays on.
        out.error = e.what();
    }
    return out;
}

Retirement::Retirement(storage::Store& store, std::string dir, int after_days, Metrics& metrics,
                       std::function<void()> stepped)
    : store_(store), dir_(std::move(dir)), after_days_(after_days), metrics_(metrics), stepped_(std::move(stepped)) {}

Retirement::~Retirement() {
    stopping_.store(true, std::memory_order_relaxed);
    std::thread t;
    {
        std::lock_guard lock(mutex_);
        t = std::move(thread_);
    }
    if (t.joinable()) t.join();
}

Outcome<std::string, Retirement::Refusal> Retirement::start(const std::string& why) {
    std::lock_guard lock(mutex_);
    if (running_) return Refusal{true, "old games are being retired already"};
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) return Refusal{false, "cannot make the retirement folder " + dir_ + ": " + ec.message()};
    if (thread_.joinable()) thread_.join();  // the last run has ended (running_ is false): joins at once
    try {
        const std::string file = stamped_file_name(dir_, "games-", ".jsonl");  // games-20261129T142500Z.jsonl
        thread_ = std::thread([this, file, why] { run(file, why); });
        running_ = true;  // (run() takes mutex_ to end: it cannot clear this first)
        return file;
    } catch (const std::exception& e) {
        return Refusal{false, std::string("cannot start a retirement: ") + e.what()};
    }
}

void Retirement::run(const std::string& file, const std::string& why) {
    const std::string path = (fs::path(dir_) / file).string();
    const std::int64_t started = unix_now_ms();
    const storage::Millis before = started - static_cast<storage::Millis>(after_days_) * 86'400'000;
    spdlog::debug("retirement ({}): the games finished over {} days ago, to {}", why, after_days_, path);
    const Retired done = retire_games(store_, before, path, &stopping_, stepped_);
    const std::int64_t ended = unix_now_ms();
    metrics_.games_retired.fetch_add(done.games, std::memory_order_relaxed);
    // A run that wrote nothing left no file: its name says so.
    json last = {{"file", done.bytes > 0 ? json(file) : json(nullptr)},
                 {"at_ms", started},
                 {"games", done.games},
                 {"bytes", done.bytes},
                 {"took_ms", ended - started}};
    if (done.held_elsewhere) {
        // Every node may run the schedule; one at a time does it. Not a failure.
        spdlog::info("retirement ({}): another process is retiring old games; this run did nothing", why);
        last["skipped"] = "another process was retiring old games";
    } else if (!done.error.empty()) {
        metrics_.retirements_failed.fetch_add(1, std::memory_order_relaxed);
        spdlog::error("retirement ({}): {} ({} games retired to {} before it)", why, done.error, done.games, path);
        last["error"] = done.error;
    } else {
        metrics_.retirement_last_ms.store(ended, std::memory_order_relaxed);
        if (done.games == 0)
            spdlog::info("retirement ({}): no finished game is over {} days old; nothing written", why, after_days_);
        else
            spdlog::info("retirement ({}): {} games retired to {} ({} bytes) in {} ms", why, done.games, path,
                         done.bytes, ended - started);
    }
    std::lock_guard lock(mutex_);
    last_ = std::move(last);
    running_ = false;
}

json Retirement::status() const {
    std::lock_guard lock(mutex_);
    return {{"running", running_}, {"dir", dir_}, {"after_days", after_days_}, {"last", last_}};
}

}  // namespace sparts::server
