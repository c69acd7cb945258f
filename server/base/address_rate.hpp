// A token bucket per remote address: `per_minute` on average, bursts of as
// many. For what one address may ask of the whole server (new players,
// archive reads), unlike RateLimiter, which is one connection's. Shared by
// every strand; its owner is its mutex. Addresses whose bucket is full again
// are forgotten, so the map stays as small as the set of recent askers.
#pragma once
#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace sparts::server {

class AddressRate {
  public:
    using Clock = std::chrono::steady_clock;
    explicit AddressRate(int per_minute) : per_minute_(per_minute) {}

    // True when `address` may do one more now (and counts it).
    bool allow(const std::string& address, Clock::time_point now = Clock::now()) {
        std::lock_guard lock(mutex_);
        if (buckets_.size() > kPruneAt) prune(now);
        // Past this, more askers than any real crowd within a minute: forget them all
        // (failing open) rather than let the map grow.
        if (buckets_.size() > kMaxTracked) buckets_.clear();
        auto [it, fresh] =
            buckets_.try_emplace(address, Bucket{static_cast<double>(per_minute_), now});
        Bucket& b = it->second;
        if (!fresh) {
            b.tokens =
                std::min<double>(per_minute_, b.tokens + minutes(now - b.last) * per_minute_);
            b.last = now;
        }
        if (b.tokens < 1.0) return false;
        b.tokens -= 1.0;
        return true;
    }

    // True when `address` may do nothing more now; counts nothing (for a limit on failures,
    // checked before the attempt and counted only when it fails).
    bool exhausted(const std::string& address, Clock::time_point now = Clock::now()) const {
        std::lock_guard lock(mutex_);
        const auto it = buckets_.find(address);
        if (it == buckets_.end()) return false;
        return it->second.tokens + minutes(now - it->second.last) * per_minute_ < 1.0;
    }


  private:
    struct Bucket {
        double tokens;
        Clock::time_point last;
    };
    static constexpr std::size_t kPruneAt = 4096;
    static constexpr std::size_t kMaxTracked = 200000;
    static double minutes(Clock::duration d) {
        return std::chrono::duration<double>(d).count() / 60.0;
    }
    void prune(Clock::time_point now) {
        std::erase_if(buckets_, [&](const auto& kv) {
            return kv.second.tokens + minutes(now - kv.second.last) * per_minute_ >= per_minute_;
        });
    }

    int per_minute_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace sparts::server
