#include "server/client_address.hpp"

#include <algorithm>
#include <boost/asio/ip/address.hpp>

namespace sparts::server {

namespace ip = boost::asio::ip;

std::string address_key(std::string_view text) {
    boost::system::error_code ec;
    const std::string s(text);
    const ip::address a = ip::make_address(s, ec);
    if (ec) return s;
    if (a.is_v4()) return a.to_string();
    const ip::address_v6 v6 = a.to_v6();
    if (v6.is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, v6).to_string();
    auto bytes = v6.to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), 0);
    return ip::address_v6(bytes).to_string() + "/64";
}

bool is_trusted_proxy(std::string_view peer_key, const std::vector<std::string>& trusted_keys) {
    return std::find(trusted_keys.begin(), trusted_keys.end(), peer_key) != trusted_keys.end();
}

std::string client_address(const std::string& peer_key, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_keys) {
    if (!is_trusted_proxy(peer_key, trusted_keys)) return peer_key;
    std::string_view rest = forwarded_for;
    while (!rest.empty()) {
        const auto comma = rest.rfind(',');
        std::string_view item = comma == std::string_view::npos ? rest : rest.substr(comma + 1);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        if (item.empty()) continue;
        boost::system::error_code ec;
        ip::make_address(std::string(item), ec);
        if (ec) break;  // not an address: nothing further left can be believed either
        const std::string key = address_key(item);
        if (!is_trusted_proxy(key, trusted_keys)) return key;
    }
    return peer_key;  // no usable header: the proxy itself
}

}  // namespace sparts::server
