#include "server/net/proxy_header.hpp"

#include <array>
#include <cstdint>
#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/address_v6.hpp>
#include <spdlog/fmt/fmt.h>

namespace sparts::server {

namespace ip = boost::asio::ip;

namespace {

constexpr std::string_view kSignature{"\x0D\x0A\x0D\x0A\x00\x0D\x0A\x51\x55\x49\x54\x0A", 12};

constexpr unsigned kLocal = 0x20;
constexpr unsigned kProxy = 0x21;
constexpr unsigned kUnspec = 0x00;
constexpr unsigned kTcp4 = 0x11;
constexpr unsigned kTcp6 = 0x21;
// Source and destination addresses and ports.
constexpr std::size_t kTcp4Bytes = 4 + 4 + 2 + 2;
constexpr std::size_t kTcp6Bytes = 16 + 16 + 2 + 2;

unsigned byte(std::string_view bytes, std::size_t i) { return static_cast<unsigned char>(bytes[i]); }

}  // namespace

Outcome<std::size_t, std::string> proxy_header_rest(std::string_view fixed) {
    if (fixed.size() != kProxyHeaderFixed)
        return fmt::format("{} bytes where the fixed part of the header is {}", fixed.size(), kProxyHeaderFixed);
    if (fixed.substr(0, kSignature.size()) != kSignature) return std::string("no PROXY protocol v2 signature");
    const unsigned version_command = byte(fixed, 12);
    if ((version_command >> 4) != 2) return fmt::format("PROXY protocol version {}, not 2", version_command >> 4);
    if (version_command != kLocal && version_command != kProxy)
        return fmt::format("unknown command {:#04x}", version_command);
    const std::size_t rest = byte(fixed, 14) << 8 | byte(fixed, 15);
    if (rest > kProxyHeaderMaxRest)
        return fmt::format("{} bytes of addresses and TLVs, over the {} accepted", rest, kProxyHeaderMaxRest);
    // LOCAL speaks for the proxy itself: the family is ignored (the format says so).
    if (version_command == kLocal) return rest;
    const unsigned family = byte(fixed, 13);
    std::size_t addresses = 0;
    if (family == kTcp4) addresses = kTcp4Bytes;
    else if (family == kTcp6) addresses = kTcp6Bytes;
    else if (family != kUnspec) return fmt::format("family {:#04x} is not TCP over IPv4 or IPv6", family);
    if (rest < addresses)
        return fmt::format("{} bytes where the addresses of family {:#04x} take {}", rest, family, addresses);
    return rest;
}

Outcome<ProxyHeader, std::string> parse_proxy_header(std::string_view header) {
    auto rest = proxy_header_rest(header.substr(0, kProxyHeaderFixed));
    if (!rest) return rest.error();
    if (header.size() != kProxyHeaderFixed + *rest)
        return fmt::format("{} bytes where the header announces {}", header.size(), kProxyHeaderFixed + *rest);
    ProxyHeader out;
    if (byte(header, 12) == kLocal) {
        out.local = true;
        return out;
    }
    // The source address comes first; what follows it (the destination, the ports, the TLVs) is not ours to use.
    const std::string_view block = header.substr(kProxyHeaderFixed);
    switch (byte(header, 13)) {
    case kTcp4: {
        ip::address_v4::bytes_type a;
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(block[i]);
        out.source = ip::address_v4(a).to_string();
        break;
    }
    case kTcp6: {
        ip::address_v6::bytes_type a;
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<unsigned char>(block[i]);
        out.source = ip::address_v6(a).to_string();
        break;
    }
    default:  // UNSPEC: the proxy could not name the client; the peer's address stands
        break;
    }
    return out;
}

}  // namespace sparts::server
