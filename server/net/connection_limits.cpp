#include "server/net/connection_limits.hpp"

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
        refusal_id_ = other.refusal_id_;
    }
    return *this;
}

void Ticket::reset() {
    if (limits_ && refusal_)
        limits_->end_refusal(refusal_id_);
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
    std::function<void()> cut;
    std::uint64_t id = 0;
    {
        std::lock_guard lock(mutex_);
        if (refusing_.size() >= kMaxRefusing) {
            // Full: the oldest that still waits for its request gives way (its place passes to this one).
            auto oldest = std::find_if(refusing_.begin(), refusing_.end(), [](const auto& r) { return bool(r.second); });
            if (oldest == refusing_.end()) return {};
            cut = std::move(oldest->second);
            refusing_.erase(oldest);
        }
        id = ++next_refusal_;
        refusing_.emplace(id, nullptr);
    }
    if (cut) cut();
    return Ticket(this, {}, true, id);
}

void ConnectionLimits::watch(const Ticket& refusal, std::function<void()> cut) {
    if (refusal.limits_ != this || !refusal.refusal_) return;
    std::lock_guard lock(mutex_);
    if (auto it = refusing_.find(refusal.refusal_id_); it != refusing_.end()) it->second = std::move(cut);
}

void ConnectionLimits::settle(const Ticket& refusal) {
    if (refusal.limits_ != this || !refusal.refusal_) return;
    std::function<void()> dropped;
    std::lock_guard lock(mutex_);
    if (auto it = refusing_.find(refusal.refusal_id_); it != refusing_.end()) dropped = std::exchange(it->second, nullptr);
}

void ConnectionLimits::end_refusal(std::uint64_t id) {
    std::function<void()> dropped;  // destroyed outside the lock: it may hold the last reference to a session
    std::lock_guard lock(mutex_);
    if (auto it = refusing_.find(id); it != refusing_.end()) {
        dropped = std::move(it->second);
        refusing_.erase(it);
    }
}

int ConnectionLimits::refusing() const {
    std::lock_guard lock(mutex_);
    return static_cast<int>(refusing_.size());
}

}  // namespace sparts::server
