// The PROXY protocol v2 header (HAProxy's send-proxy-v2) that a trusted proxy
// puts before the first byte of a connection it forwards, naming the client
// it speaks for (https://www.haproxy.org/download/2.6/doc/proxy-protocol.txt,
// section 2.2). Pure: bytes in, an address or a reason out; the reading is
// HttpSession's.
//
// The header is read in two exact steps so that not one byte of the HTTP
// request behind it is taken: the 16 fixed bytes, which say how many follow,
// then those. Whatever the proxy adds past the addresses (TLVs: an ALPN, a
// unique id, a CRC) is skipped unread. Bounded: a header announcing more than
// kProxyHeaderMaxRest bytes is refused before they are read.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include "protocol/outcome.hpp"

namespace sparts::server {

// The signature, the version and command, the family, the length.
inline constexpr std::size_t kProxyHeaderFixed = 16;
// The most we read after the fixed part: the IPv6 addresses (36 bytes) and
// room for the TLVs HAProxy sends. The format would allow 65,535.
inline constexpr std::size_t kProxyHeaderMaxRest = 512;

struct ProxyHeader {
    // The client's address as Boost.Asio prints it ("203.0.113.7", "2001:db8::1");
    // empty when the connection speaks for the proxy itself and keeps the peer's
    // address: a LOCAL command (HAProxy's own health checks, check-send-proxy),
    // or PROXY for a family the proxy could not name (UNSPEC).
    std::string source;
    bool local = false;  // the LOCAL command
};

// `fixed`: the first kProxyHeaderFixed bytes of the connection. How many more
// bytes the header holds (0 to kProxyHeaderMaxRest), or why these bytes do not
// begin a header we accept: a wrong signature, a version other than 2, a
// command other than LOCAL and PROXY, a family other than TCP over IPv4 or
// IPv6 or UNSPEC (for PROXY; LOCAL ignores it, as the format says), a length
// too short for the family's addresses or over the bound.
Outcome<std::size_t, std::string> proxy_header_rest(std::string_view fixed);

// `header`: the whole header, the fixed bytes and exactly the rest they announce.
Outcome<ProxyHeader, std::string> parse_proxy_header(std::string_view header);

}  // namespace sparts::server
