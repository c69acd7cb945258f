// Counts open connections, in all and per remote address, so that one
// address cannot take every connection. Shared by all acceptors and sessions;
// its owner is its mutex (a few increments per connection, never per frame).
#pragma once
#include <mutex>
#include <string>
#include <unordered_map>

namespace sparts::server {

class ConnectionLimits {
public:
    ConnectionLimits(int per_address, int total) : per_address_(per_address), total_limit_(total) {}

    // Counts one more connection from `address`, or returns false (and counts
    // nothing) when a limit is reached.
    bool admit(const std::string& address);
    void release(const std::string& address);
    int open() const;

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, int> by_address_;
    int total_ = 0;
    int per_address_;
    int total_limit_;
};

}  // namespace sparts::server
