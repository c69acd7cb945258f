#include "server/connection_limits.hpp"

#include <algorithm>

namespace sparts::server {

namespace {
constexpr int kMaxRefusing = 32;
}

Ticket& Ticket::operator=(Ticket&& other) noexcept {
    if (this != &other) {
        reset();
        limits_ = std::exchange(other.limits_, nullptr);
        address_ = std::move(other.address_);
        refusal_ = other.refusal_;
    }
    return *this;
}

void Ticket::reset() {
    if (limits_ && refusal_)
        limits_->refusing_.fetch_sub(1, std::memory_order_relaxed);
    else if (limits_)
        limits_->release(address_);
    limits_ = nullptr;
}

Ticket ConnectionLimits::admit(const std::string& address) {
    std::lock_guard lock(mutex_);
    if (total_ >= total_limit_) return {};
    if (!address.empty()) {
        int& n = by_address_[address];
        if (n >= per_address_) return {};
        ++n;
    }
    ++total_;
    return Ticket(this, address, false);
}

bool ConnectionLimits::count_against(Ticket& ticket, const std::string& address) {
    if (ticket.limits_ != this || ticket.refusal_ || !ticket.address_.empty() || address.empty()) return false;
    std::lock_guard lock(mutex_);
    int& n = by_address_[address];
    if (n >= per_address_) {
        if (n == 0) by_address_.erase(address);
        return false;
    }
    ++n;
    ticket.address_ = address;
    return true;
}

void ConnectionLimits::release(const std::string& address) {
    std::lock_guard lock(mutex_);
    --total_;
    if (address.empty()) return;
    auto it = by_address_.find(address);
    if (it != by_address_.end() && --it->second <= 0) by_address_.erase(it);
}

int ConnectionLimits::open() const {
    std::lock_guard lock(mutex_);
    return total_;
}

void ConnectionLimits::cap_total(int total) {
    std::lock_guard lock(mutex_);
    total_limit_ = std::min(total_limit_, total);
}

int ConnectionLimits::total_limit() const {
    std::lock_guard lock(mutex_);
    return total_limit_;
}

Ticket ConnectionLimits::refusal() {
    if (refusing_.fetch_add(1, std::memory_order_relaxed) >= kMaxRefusing) {
        refusing_.fetch_sub(1, std::memory_order_relaxed);
        return {};
    }
    return Ticket(this, {}, true);
}

}  // namespace sparts::server
