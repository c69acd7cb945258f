// Fuzz target: the PROXY protocol v2 header a trusted proxy sends first
// (server/net/proxy_header.hpp), read as HttpSession reads it: the 16 fixed bytes,
// then exactly the rest they announce.
//   - the rest announced is never over kProxyHeaderMaxRest;
//   - a header that parses names a source that is empty (LOCAL, UNSPEC) or an
//     address Boost.Asio reads back to the same text;
//   - a header of any other length than the fixed bytes and their rest, or
//     fixed bytes refused, never parses;
//   - the same bytes give the same answer twice.
// Any violation aborts; so does an exception out of either function.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <boost/asio/ip/address.hpp>

#include "server/net/proxy_header.hpp"

using namespace sparts::server;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "proxy_header fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()), detail.data());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // Whatever the length, parsing the whole input answers without a crash.
    const auto whole = parse_proxy_header(bytes);
    if (size < kProxyHeaderFixed) {
        if (whole) fail("a header shorter than its fixed part parsed");
        return 0;
    }
    const auto rest = proxy_header_rest(bytes.substr(0, kProxyHeaderFixed));
    if (!rest) {
        if (rest.error().empty()) fail("a refusal without a reason");
        if (whole) fail("fixed bytes refused, yet the header parsed");
        return 0;
    }
    if (*rest > kProxyHeaderMaxRest) fail("a rest over the bound", std::to_string(*rest));
    if (size != kProxyHeaderFixed + *rest && whole) fail("a header of the wrong length parsed");
    if (size < kProxyHeaderFixed + *rest) return 0;
    const std::string_view header = bytes.substr(0, kProxyHeaderFixed + *rest);
    const auto parsed = parse_proxy_header(header);
    const auto again = parse_proxy_header(header);
    if (bool(parsed) != bool(again) || (parsed && parsed->source != again->source)) fail("two readings differ");
    if (!parsed) {
        if (parsed.error().empty()) fail("a refusal without a reason");
        return 0;
    }
    if (!parsed->source.empty()) {
        boost::system::error_code ec;
        const auto address = boost::asio::ip::make_address(parsed->source, ec);
        if (ec) fail("a source that is not an address", parsed->source);
        if (address.to_string() != parsed->source) fail("a source not in Asio's form", parsed->source);
    }
    return 0;
}
