#include "server/base/secret.hpp"

#include <mutex>
#include <random>

namespace sparts::server {

namespace {
// std::random_device is not promised to be safe to share between threads.
std::mutex device_mutex;
std::random_device& device() {
    static std::random_device d;
    return d;
}
}  // namespace

std::string random_hex(int bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    std::lock_guard lock(device_mutex);
    for (int i = 0; i < bytes; i += 4) {
        std::uint32_t r = device()();
        for (int j = 0; j < 4 && i + j < bytes; ++j, r >>= 8) {
            s += kHex[(r >> 4) & 15];
            s += kHex[r & 15];
        }
    }
    return s;
}

std::uint64_t random_seed() {
    std::lock_guard lock(device_mutex);
    return std::uint64_t{device()()} << 32 | device()();
}

}  // namespace sparts::server
