// Who a connection speaks for, as far as the per-address limits go.
//
// The peer's address, unless the peer is a trusted reverse proxy
// (--trusted-proxies): then the right-most address of X-Forwarded-For that is
// not itself a trusted proxy (the one the nearest trusted proxy saw; entries
// further left are the client's own say and cannot be believed). Without
// trusted proxies, X-Forwarded-For is ignored, so that nobody can choose their
// own address.
//
// Addresses are keys: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4),
// IPv6 cut to its /64, since one host is routinely given a whole /64 and
// could otherwise take a fresh address for every request.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace sparts::server {

// The key of an address in text form, or `text` itself when it is not an address.
std::string address_key(std::string_view text);

bool is_trusted_proxy(std::string_view peer_key, const std::vector<std::string>& trusted_keys);

// `peer_key` is address_key() of the socket's peer; `forwarded_for` the
// X-Forwarded-For header (empty when absent); `trusted_keys` the keys of the
// trusted proxies.
std::string client_address(const std::string& peer_key, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_keys);

}  // namespace sparts::server
