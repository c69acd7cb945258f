#include "server/admin/backups.hpp"

#include <algorithm>
#include <filesystem>
#include <spdlog/spdlog.h>
#include "server/admin/stamped_file_name.hpp"
#include "storage/store.hpp"

namespace sparts::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view kPrefix = "sparts-";
constexpr std::string_view kSuffix = ".db";

bool is_backup_name(const std::string& name) {
    return name.size() > kPrefix.size() + kSuffix.size() && name.starts_with(kPrefix) && name.ends_with(kSuffix);
}

}  // namespace

Backups::Backups(storage::Store& store, std::string dir, int keep, Metrics& metrics)
    : store_(store), dir_(std::move(dir)), keep_(keep), metrics_(metrics) {}

Backups::~Backups() {
    std::thread t;
    {
        std::lock_guard lock(mutex_);
        t = std::move(thread_);
    }
    if (t.joinable()) t.join();
}

Outcome<std::string, Backups::Refusal> Backups::start(const std::string& why) {
    std::lock_guard lock(mutex_);
    if (running_) return Refusal{true, "a backup is under way"};
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) return Refusal{false, "cannot make the backup folder " + dir_ + ": " + ec.message()};
    if (thread_.joinable()) thread_.join();  // the last one has ended (running_ is false): joins at once
    const std::string file = stamped_file_name(dir_, kPrefix, kSuffix);
    running_ = true;
    thread_ = std::thread([this, file, why] { run(file, why); });
    return file;
}

void Backups::run(const std::string& file, const std::string& why) {
    const std::string path = (fs::path(dir_) / file).string();
    spdlog::info("backup ({}): copying the database to {}", why, path);
    auto made = store_.backup(path);
    json last;
    if (made) {
        metrics_.backups_made.fetch_add(1, std::memory_order_relaxed);
        metrics_.backup_last_ms.store(made->started_ms, std::memory_order_relaxed);
        metrics_.backup_last_bytes.store(made->bytes, std::memory_order_relaxed);
        metrics_.backup_last_took_ms.store(made->took_ms, std::memory_order_relaxed);
        spdlog::info("backup ({}): {} written, {} bytes in {} ms", why, path, made->bytes, made->took_ms);
        last = {{"file", file}, {"at_ms", made->started_ms}, {"bytes", made->bytes}, {"took_ms", made->took_ms}};
        prune();
    } else {
        metrics_.backups_failed.fetch_add(1, std::memory_order_relaxed);
        spdlog::error("backup ({}): {}", why, made.error());
        last = {{"file", file}, {"error", made.error()}};
    }
    std::lock_guard lock(mutex_);
    last_ = std::move(last);
    running_ = false;
}

std::vector<std::pair<std::string, std::int64_t>> Backups::files() const {
    struct Found {
        fs::file_time_type written;
        std::string name;
        std::int64_t bytes;
    };
    std::vector<Found> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file(ec) || !is_backup_name(name)) continue;
        found.push_back({entry.last_write_time(ec), name, static_cast<std::int64_t>(entry.file_size(ec))});
    }
    // Newest first: by when each was written (a second's second backup is named "…Z-2.db", which
    // sorts before "…Z.db"), then by name.
    std::sort(found.begin(), found.end(),
              [](const Found& a, const Found& b) { return a.written != b.written ? a.written > b.written : a.name > b.name; });
    std::vector<std::pair<std::string, std::int64_t>> out;
    for (auto& f : found) out.emplace_back(std::move(f.name), f.bytes);
    return out;
}

void Backups::prune() {
    const auto all = files();
    for (std::size_t i = static_cast<std::size_t>(keep_); i < all.size(); ++i) {
        std::error_code ec;
        fs::remove(fs::path(dir_) / all[i].first, ec);
        if (ec) spdlog::warn("backup: cannot remove the old backup {}: {}", all[i].first, ec.message());
        else spdlog::info("backup: removed the old backup {} (keeping {})", all[i].first, keep_);
    }
}

json Backups::status() const {
    json listed = json::array();
    for (const auto& [name, bytes] : files()) listed.push_back({{"name", name}, {"bytes", bytes}});
    std::lock_guard lock(mutex_);
    return {{"running", running_}, {"dir", dir_}, {"keep", keep_}, {"last", last_}, {"files", listed}};
}

}  // namespace sparts::server
