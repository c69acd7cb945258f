// The project's own PRNG and shuffle, defined here bit for bit so that the same
// seed deals the same cards with every compiler and standard library (the
// standard's distributions and std::shuffle differ between implementations).
// Generator: xoshiro256** seeded by SplitMix64; bounded draws by rejection.
#pragma once

#include <cstdint>
#include <span>
#include <utility>

namespace sparts {

class Rng {
public:
    // `stream` separates independent uses of one game seed (the first dealer,
    // each hand's deal), so that one never shifts another.
    Rng(std::uint64_t seed, std::uint64_t stream);
    std::uint64_t next();
    // Uniform in [0, bound), bound > 0.
    std::uint64_t below(std::uint64_t bound);

    template <class T>
    void shuffle(std::span<T> items) {
        for (std::size_t i = items.size(); i > 1; --i) {
            const std::size_t j = static_cast<std::size_t>(below(i));
            std::swap(items[i - 1], items[j]);
        }
    }

private:
    std::uint64_t s_[4];
};

std::uint64_t splitmix64(std::uint64_t& state);

}  // namespace sparts
