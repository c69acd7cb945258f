// A token bucket: `rate` messages a second on average, bursts of up to `burst`
// (twice the rate unless said). One per connection (its messages; its chat),
// used on the connection's strand only.
#pragma once
#include <algorithm>
#include <chrono>

namespace sparts::server {

class RateLimiter {
public:
    using Clock = std::chrono::steady_clock;
    explicit RateLimiter(int rate) : RateLimiter(rate, 2.0 * rate) {}
    RateLimiter(double rate, double burst) : rate_(rate), burst_(burst), tokens_(burst), last_(Clock::now()) {}

    // True when one more message may pass now.
    bool allow(Clock::time_point now = Clock::now()) {
        const double elapsed = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
        if (tokens_ < 1.0) return false;
        tokens_ -= 1.0;
        return true;
    }

private:
    double rate_;
    double burst_;
    double tokens_;
    Clock::time_point last_;
};

}  // namespace sparts::server
