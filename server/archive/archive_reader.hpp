// Archive reads for HTTP and replay, with a cache of finished games.
//
// A finished game never changes (until retention drops it: forget_all, kMaxAge), so its rendering (the JSON of
// /api/games/{table}/{game} and of its record) and its loaded events (for a
// replay) are kept, the most recently used `capacity` of each. Reads run on the
// archive threads (Hub::archive), never on the I/O threads: rendering a long
// game takes milliseconds, and eight clients fetching one game at once used to
// hold up every table's reads and writes. Thread-safe; its owner is its mutex.
#pragma once
#include <chrono>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include "server/archive/archive_api.hpp"
#include "storage/records.hpp"

namespace sparts::storage {
class Store;
}

namespace sparts::server {

struct Metrics;

class ArchiveReader {
  public:
    ArchiveReader(std::size_t capacity, Metrics& metrics)
        : capacity_(capacity), metrics_(metrics) {}
    // At start, before any read; null: the server keeps no archive.
    void attach(storage::Store* store) { store_ = store; }

    // The answer to an /api/ request.
    ApiResponse http(std::string_view target);
    // A finished game, or nothing.
    std::shared_ptr<const storage::ArchivedGame> game(const std::string& table, int game);
    // Every game kept: retention has dropped some (admin/retirement.hpp). Another node's cache
    // lets a retired game go within kMaxAge.
    void forget_all();
    static constexpr std::chrono::seconds kMaxAge{300};

  private:
    template <class V>
    class Lru {
      public:
        // Nothing for an entry older than kMaxAge (it is dropped).
        std::optional<V> get(const std::string& key);
        void put(const std::string& key, V value, std::size_t capacity);
        void clear() {
            order_.clear();
            index_.clear();
        }

      private:
        struct Entry {
            std::string key;
            V value;
            std::chrono::steady_clock::time_point kept;
        };
        std::list<Entry> order_;  // most recent first
        std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
    };

    storage::Store* store_ = nullptr;
    std::size_t capacity_;
    Metrics& metrics_;
    std::mutex mutex_;
    Lru<std::shared_ptr<const ApiResponse>> pages_;
    Lru<std::shared_ptr<const storage::ArchivedGame>> games_;
};

}  // namespace sparts::server
