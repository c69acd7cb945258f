// Every open WebSocket session, so that shutdown can say goodbye to each.
// Touched once when a session opens and once when it goes; its owner is its mutex.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace sparts::server {

class Session;

class SessionSet {
public:
    void add(std::uint64_t serial, std::weak_ptr<Session> s) {
        std::lock_guard lock(mutex_);
        sessions_[serial] = std::move(s);
    }
    void remove(std::uint64_t serial) {
        std::lock_guard lock(mutex_);
        sessions_.erase(serial);
    }
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return sessions_.size();
    }
    void for_each(const std::function<void(const std::shared_ptr<Session>&)>& f) const {
        std::vector<std::shared_ptr<Session>> all;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [k, w] : sessions_)
                if (auto s = w.lock()) all.push_back(std::move(s));
        }
        for (const auto& s : all) f(s);
    }

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, std::weak_ptr<Session>> sessions_;
};

}  // namespace sparts::server
