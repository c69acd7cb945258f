// Who a connection speaks for, as far as the per-address limits go.
//
// The peer's address, unless the peer is a trusted reverse proxy
// (--trusted-proxies: addresses or networks, "127.0.0.1,10.0.0.0/8"): then the
// right-most address of X-Forwarded-For that is not itself a trusted proxy
// (the one the nearest trusted proxy saw; entries further left are the
// client's own say and cannot be believed). From any other peer,
// X-Forwarded-For is ignored, so that nobody can choose their own address.
// With --proxy-protocol v2 a trusted proxy names its client in a PROXY header
// instead (proxy_header.hpp, read by HttpSession) and X-Forwarded-For is not
// read at all.
//
// Addresses are keys: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4),
// IPv6 cut to its /64, since one host is routinely given a whole /64 and
// could otherwise take a fresh address for every request.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sparts::server {

// The key of an address in text form, or `text` itself when it is not an address.
std::string address_key(std::string_view text);

// The trusted proxies, parsed once at start.
class TrustedProxies {
  public:
    // Addresses ("127.0.0.1", "::1") and networks ("10.0.0.0/8", "fd00::/8");
    // the first entry that is neither, as an error.
    static std::optional<std::string> check(const std::vector<std::string>& entries);
    TrustedProxies() = default;
    explicit TrustedProxies(const std::vector<std::string>& entries);

    bool empty() const { return entries_.empty(); }
    // `address` in text form, as the socket gives it.
    bool trusts(std::string_view address) const;

  private:
    std::vector<std::string> entries_;
};

// The address key a request counts as. `peer` is the socket peer's address
// in text form, `forwarded_for` the X-Forwarded-For header (empty when absent).
std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const TrustedProxies& trusted);

}  // namespace sparts::server
