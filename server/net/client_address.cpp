#include "server/net/client_address.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>

namespace sparts::server {

namespace ip = boost::asio::ip;

namespace {

std::optional<ip::address> parse_address(std::string_view text) {
    boost::system::error_code ec;
    const ip::address a = ip::make_address(std::string(text), ec);
    if (ec) return std::nullopt;
    if (a.is_v6() && a.to_v6().is_v4_mapped())
        return ip::address(ip::make_address_v4(ip::v4_mapped, a.to_v6()));
    return a;
}

// Whether `entry` (an address or a network) holds `a`; nothing when `entry` is neither.
std::optional<bool> holds(const std::string& entry, const ip::address& a) {
    boost::system::error_code ec;
    if (entry.find('/') == std::string::npos) {
        const auto e = parse_address(entry);
        if (!e) return std::nullopt;
        return *e == a;
    }
    if (const auto net4 = ip::make_network_v4(entry, ec); !ec) {
        if (!a.is_v4()) return false;
        const auto bits = net4.prefix_length();
        const auto mask = bits == 0 ? 0u : ~0u << (32 - bits);
        return (a.to_v4().to_uint() & mask) == (net4.network().to_uint() & mask);
    }
    ec.clear();
    if (const auto net6 = ip::make_network_v6(entry, ec); !ec) {
        if (!a.is_v6()) return false;
        const auto x = a.to_v6().to_bytes();
        const auto n = net6.network().to_bytes();
        const int bits = net6.prefix_length();
        for (int i = 0; i < 16; ++i) {
            const int keep = std::clamp(bits - 8 * i, 0, 8);
            const auto mask = static_cast<unsigned char>(keep == 0 ? 0 : 0xFF << (8 - keep));
            if ((x[static_cast<std::size_t>(i)] & mask) != (n[static_cast<std::size_t>(i)] & mask))
                return false;
        }
        return true;
    }
    return std::nullopt;
}

}  // namespace

std::string address_key(std::string_view text) {
    const auto a = parse_address(text);
    if (!a) return std::string(text);
    if (a->is_v4()) return a->to_string();
    auto bytes = a->to_v6().to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return ip::address_v6(bytes).to_string() + "/64";
}

std::optional<std::string> TrustedProxies::check(const std::vector<std::string>& entries) {
    const ip::address any = ip::make_address("127.0.0.1");
    for (const std::string& e : entries)
        if (!holds(e, any)) return e;
    return std::nullopt;
}

TrustedProxies::TrustedProxies(const std::vector<std::string>& entries) : entries_(entries) {}

bool TrustedProxies::trusts(std::string_view address) const {
    if (entries_.empty()) return false;
    const auto a = parse_address(address);
    if (!a) return false;
    return std::any_of(entries_.begin(), entries_.end(),
                       [&](const std::string& e) { return holds(e, *a).value_or(false); });
}

std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const TrustedProxies& trusted) {
    if (!trusted.trusts(peer)) return address_key(peer);
    std::string_view rest = forwarded_for;
    while (!rest.empty()) {
        const auto comma = rest.rfind(',');
        std::string_view item = comma == std::string_view::npos ? rest : rest.substr(comma + 1);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        if (item.empty()) continue;
        if (!parse_address(item))
            break;  // not an address: nothing further left can be believed either
        if (!trusted.trusts(item)) return address_key(item);
    }
    return address_key(peer);  // no usable header: the proxy itself
}

}  // namespace sparts::server
