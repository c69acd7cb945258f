#include "server/archive/archive_reader.hpp"

#include "server/base/metrics.hpp"
#include "storage/store.hpp"

namespace sparts::server {

template <class V>
std::optional<V> ArchiveReader::Lru<V>::get(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    if (std::chrono::steady_clock::now() - it->second->kept > kMaxAge) {
        order_.erase(it->second);
        index_.erase(it);
        return std::nullopt;
    }
    order_.splice(order_.begin(), order_, it->second);
    return it->second->value;
}

template <class V>
void ArchiveReader::Lru<V>::put(const std::string& key, V value, std::size_t capacity) {
    if (capacity == 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (auto it = index_.find(key); it != index_.end()) {
        it->second->value = std::move(value);
        it->second->kept = now;
        order_.splice(order_.begin(), order_, it->second);
        return;
    }
    order_.push_front(Entry{key, std::move(value), now});
    index_[key] = order_.begin();
    while (order_.size() > capacity) {
        index_.erase(order_.back().key);
        order_.pop_back();
    }
}

void ArchiveReader::forget_all() {
    std::lock_guard lock(mutex_);
    pages_.clear();
    games_.clear();
}

ApiResponse ArchiveReader::http(std::string_view target) {
    metrics_.archive_reads.fetch_add(1, std::memory_order_relaxed);
    // Only a finished game's pages are kept: the list changes with every game
    // that ends. A game page has no query string.
    constexpr std::string_view kGames = "/api/games/";
    const bool cacheable = target.size() > kGames.size() &&
                           target.substr(0, kGames.size()) == kGames &&
                           target.find('?') == std::string_view::npos;
    const std::string key(target);
    if (cacheable) {
        std::lock_guard lock(mutex_);
        if (auto hit = pages_.get(key)) {
            metrics_.archive_cache_hits.fetch_add(1, std::memory_order_relaxed);
            return **hit;
        }
    }
    ApiResponse answer = archive_api(target, store_);
    if (cacheable && answer.status == boost::beast::http::status::ok) {
        std::lock_guard lock(mutex_);
        pages_.put(key, std::make_shared<const ApiResponse>(answer), capacity_);
    }
    return answer;
}

std::shared_ptr<const storage::ArchivedGame> ArchiveReader::game(const std::string& table,
                                                                 int game) {
    metrics_.archive_reads.fetch_add(1, std::memory_order_relaxed);
    if (!store_) return nullptr;
    const std::string key = table + "/" + std::to_string(game);
    {
        std::lock_guard lock(mutex_);
        if (auto hit = games_.get(key)) {
            metrics_.archive_cache_hits.fetch_add(1, std::memory_order_relaxed);
            return *hit;
        }
    }
    auto loaded = store_->load_game(table, game);
    if (!loaded) return nullptr;
    auto shared = std::make_shared<const storage::ArchivedGame>(std::move(*loaded));
    std::lock_guard lock(mutex_);
    games_.put(key, shared, capacity_);
    return shared;
}

}  // namespace sparts::server
