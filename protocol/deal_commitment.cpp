#include "protocol/deal_commitment.hpp"

#include <algorithm>

#include "protocol/sha256.hpp"

namespace sparts {

namespace {

bool lower_hex(std::string_view text, std::size_t length) {
    return text.size() == length &&
           std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

std::string deal_commitment(std::uint64_t seed, std::string_view salt) {
    std::string text(salt);
    text += ':';
    text += std::to_string(seed);
    return sha256_hex(text);
}

bool is_deal_salt(std::string_view text) { return lower_hex(text, kDealSaltLength); }
bool is_deal_commitment(std::string_view text) { return lower_hex(text, 64); }

}  // namespace sparts
