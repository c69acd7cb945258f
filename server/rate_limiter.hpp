// A token bucket: `rate` messages a second on average, bursts of up to twice
// that. One per connection, used on the connection's strand only.
#pragma once
#include <algorithm>
#include <chrono>

namespace sparts::server {

class RateLimiter {
public:
    using Clock = std::chrono::steady_clock;
    explicit RateLimiter(int rate) : rate_(rate), tokens_(2.0 * rate), last_(Clock::now()) {}

    // True when one more message may pass now.
    bool allow(Clock::time_point now = Clock::now()) {
        const double elapsed = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        tokens_ = std::min(2.0 * rate_, tokens_ + elapsed * rate_);
        if (tokens_ < 1.0) return false;
        tokens_ -= 1.0;
        return true;
    }

private:
    int rate_;
    double tokens_;
    Clock::time_point last_;
};

}  // namespace sparts::server
