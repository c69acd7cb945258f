#include "server/connection_limits.hpp"

namespace sparts::server {

bool ConnectionLimits::admit(const std::string& address) {
    std::lock_guard lock(mutex_);
    int& n = by_address_[address];
    if (n >= per_address_ || total_ >= total_limit_) {
        if (n == 0) by_address_.erase(address);
        return false;
    }
    ++n;
    ++total_;
    return true;
}

void ConnectionLimits::release(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto it = by_address_.find(address);
    if (it == by_address_.end()) return;
    if (--it->second == 0) by_address_.erase(it);
    --total_;
}

int ConnectionLimits::open() const {
    std::lock_guard lock(mutex_);
    return total_;
}

}  // namespace sparts::server
