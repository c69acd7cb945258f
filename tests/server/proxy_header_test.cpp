// The PROXY protocol v2 header parser (server/net/proxy_header.hpp), byte by byte
// against the format (haproxy.org's proxy-protocol.txt, section 2.2).
#include <doctest/doctest.h>

#include <string>
#include "server/net/proxy_header.hpp"

using namespace sparts::server;

namespace {

const std::string kProxySignature("\x0D\x0A\x0D\x0A\x00\x0D\x0A\x51\x55\x49\x54\x0A", 12);

// A header: the signature, the version and command, the family, the length of `block`, then `block`.
std::string proxy_bytes(unsigned command, unsigned family, const std::string& block) {
    std::string h = kProxySignature;
    h += static_cast<char>(command);
    h += static_cast<char>(family);
    h += static_cast<char>(block.size() >> 8);
    h += static_cast<char>(block.size() & 0xff);
    return h + block;
}

std::string octets(std::initializer_list<unsigned> values) {
    std::string out;
    for (const unsigned v : values) out += static_cast<char>(v);
    return out;
}

// 203.0.113.7:50000 -> 192.0.2.1:8080
const std::string kTcp4Block = octets({203, 0, 113, 7, 192, 0, 2, 1, 0xC3, 0x50, 0x1F, 0x90});
// 2001:db8::7:50000 -> 2001:db8::1:8080
const std::string kTcp6Block = octets({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7,
                                       0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
                                       0xC3, 0x50, 0x1F, 0x90});

// What the fixed part says follows, or its error ("" when it accepts).
std::size_t announced_rest(const std::string& header) {
    const auto rest = proxy_header_rest(std::string_view(header).substr(0, kProxyHeaderFixed));
    REQUIRE_MESSAGE(rest, (rest ? std::string() : rest.error()));
    return *rest;
}

std::string proxy_refusal(const std::string& header) {
    const auto fixed = proxy_header_rest(std::string_view(header).substr(0, kProxyHeaderFixed));
    const auto whole = parse_proxy_header(header);
    CHECK_FALSE(whole);
    return fixed ? std::string("(fixed part accepted) ") + (whole ? "" : whole.error()) : fixed.error();
}

}  // namespace

TEST_CASE("PROXY v2: TCP over IPv4 names the client's address") {
    const std::string h = proxy_bytes(0x21, 0x11, kTcp4Block);
    CHECK(announced_rest(h) == 12);
    const auto header = parse_proxy_header(h);
    REQUIRE(header);
    CHECK(header->source == "203.0.113.7");
    CHECK_FALSE(header->local);
}

TEST_CASE("PROXY v2: TCP over IPv6 names the client's address as Asio prints it") {
    const std::string h = proxy_bytes(0x21, 0x21, kTcp6Block);
    CHECK(announced_rest(h) == 36);
    const auto header = parse_proxy_header(h);
    REQUIRE(header);
    CHECK(header->source == "2001:db8::7");
    // An IPv4 client of an IPv6 listener: printed as mapped (address_key makes it IPv4 again).
    std::string mapped = kTcp6Block;
    mapped.replace(0, 16, octets({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 198, 51, 100, 9}));
    const auto m = parse_proxy_header(proxy_bytes(0x21, 0x21, mapped));
    REQUIRE(m);
    CHECK(m->source == "::ffff:198.51.100.9");
}

TEST_CASE("PROXY v2: LOCAL keeps the peer's address, whatever family and block it carries") {
    // HAProxy's health checks (check-send-proxy): LOCAL, UNSPEC, no addresses.
    const std::string bare = proxy_bytes(0x20, 0x00, "");
    CHECK(announced_rest(bare) == 0);
    const auto header = parse_proxy_header(bare);
    REQUIRE(header);
    CHECK(header->local);
    CHECK(header->source.empty());
    // The format says the receiver ignores LOCAL's family and addresses.
    for (const unsigned family : {0x11u, 0x12u, 0x31u, 0x77u}) {
        const auto h = parse_proxy_header(proxy_bytes(0x20, family, kTcp4Block));
        REQUIRE(h);
        CHECK(h->local);
        CHECK(h->source.empty());
    }
}

TEST_CASE("PROXY v2: PROXY for an unspecified family keeps the peer's address") {
    const auto header = parse_proxy_header(proxy_bytes(0x21, 0x00, ""));
    REQUIRE(header);
    CHECK_FALSE(header->local);
    CHECK(header->source.empty());
}

TEST_CASE("PROXY v2: TLVs after the addresses are skipped, up to the bound") {
    // PP2_TYPE_ALPN "h2", PP2_TYPE_NOOP of 3 bytes, PP2_TYPE_UNIQUE_ID of 5.
    const std::string tlvs = octets({0x01, 0, 2, 'h', '2', 0x04, 0, 3, 0, 0, 0, 0x05, 0, 5, 'a', 'b', 'c', 'd', 'e'});
    const std::string h = proxy_bytes(0x21, 0x11, kTcp4Block + tlvs);
    CHECK(announced_rest(h) == 12 + tlvs.size());
    const auto header = parse_proxy_header(h);
    REQUIRE(header);
    CHECK(header->source == "203.0.113.7");
    // As long as the bound allows.
    const std::string longest = proxy_bytes(0x21, 0x21, kTcp6Block + std::string(kProxyHeaderMaxRest - 36, '\0'));
    CHECK(announced_rest(longest) == kProxyHeaderMaxRest);
    const auto l = parse_proxy_header(longest);
    REQUIRE(l);
    CHECK(l->source == "2001:db8::7");
}

TEST_CASE("PROXY v2: a wrong signature is refused, an HTTP request above all") {
    std::string h = proxy_bytes(0x21, 0x11, kTcp4Block);
    h[4] = '\x01';
    CHECK(proxy_refusal(h).find("signature") != std::string::npos);
    CHECK(proxy_refusal("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").find("signature") != std::string::npos);
    // Version 1 is text ("PROXY TCP4 ..."), not a v2 signature.
    CHECK(proxy_refusal("PROXY TCP4 203.0.113.7 192.0.2.1 50000 8080\r\n").find("signature") != std::string::npos);
}

TEST_CASE("PROXY v2: a version other than 2 is refused") {
    CHECK(proxy_refusal(proxy_bytes(0x11, 0x11, kTcp4Block)).find("version 1") != std::string::npos);
    CHECK(proxy_refusal(proxy_bytes(0x31, 0x11, kTcp4Block)).find("version 3") != std::string::npos);
    CHECK(proxy_refusal(proxy_bytes(0x01, 0x11, kTcp4Block)).find("version 0") != std::string::npos);
}

TEST_CASE("PROXY v2: a command other than LOCAL and PROXY is refused") {
    CHECK(proxy_refusal(proxy_bytes(0x22, 0x11, kTcp4Block)).find("command") != std::string::npos);
    CHECK(proxy_refusal(proxy_bytes(0x2F, 0x11, kTcp4Block)).find("command") != std::string::npos);
}

TEST_CASE("PROXY v2: UDP, unix sockets and unknown families are refused for PROXY") {
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x12, kTcp4Block)).find("family 0x12") != std::string::npos);  // UDP over IPv4
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x22, kTcp6Block)).find("family 0x22") != std::string::npos);  // UDP over IPv6
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x31, std::string(216, '\0'))).find("family 0x31") != std::string::npos);
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x32, std::string(216, '\0'))).find("family 0x32") != std::string::npos);
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x41, kTcp4Block)).find("family 0x41") != std::string::npos);
}

TEST_CASE("PROXY v2: a length too short for the family's addresses is refused") {
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x11, kTcp4Block.substr(0, 11))).find("take 12") != std::string::npos);
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x11, "")).find("take 12") != std::string::npos);
    // IPv4's 12 bytes are not IPv6's 36.
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x21, kTcp4Block)).find("take 36") != std::string::npos);
    CHECK(proxy_refusal(proxy_bytes(0x21, 0x21, kTcp6Block.substr(0, 35))).find("take 36") != std::string::npos);
}

TEST_CASE("PROXY v2: a length over the bound is refused from the fixed part alone") {
    const std::string over = proxy_bytes(0x21, 0x11, kTcp4Block + std::string(kProxyHeaderMaxRest - 11, '\0'));
    CHECK(proxy_refusal(over).find("513 bytes") != std::string::npos);
    // The largest the format allows, announced but never sent: refused before anything is read.
    std::string fixed = kProxySignature + octets({0x21, 0x11, 0xff, 0xff});
    const auto rest = proxy_header_rest(fixed);
    REQUIRE_FALSE(rest);
    CHECK(rest.error().find("65535 bytes") != std::string::npos);
    // LOCAL is bounded too.
    CHECK_FALSE(proxy_header_rest(kProxySignature + octets({0x20, 0x00, 0x02, 0x01})));
}

TEST_CASE("PROXY v2: the whole header must be exactly what its fixed part announces") {
    const std::string h = proxy_bytes(0x21, 0x11, kTcp4Block);
    CHECK_FALSE(parse_proxy_header(h.substr(0, h.size() - 1)));
    CHECK_FALSE(parse_proxy_header(h + "G"));
    CHECK_FALSE(parse_proxy_header(h.substr(0, 10)));
    CHECK_FALSE(proxy_header_rest(h.substr(0, 15)));
    CHECK_FALSE(parse_proxy_header(""));
}
