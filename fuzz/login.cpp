// Fuzz target: logins, a host's JWT as the server reads it
// (server/host/host_token.hpp), HS256 with a fixed secret. The first byte chooses:
//   even: the rest is a token as a client sends it (hello's login);
//   odd:  the rest is "header\nclaims", two JSON texts, signed here with the
//         server's secret, so that the fuzzer reaches every check behind the
//         signature (the header's alg, each claim, members given twice).
// Oracles:
//   - verify() answers, never throws, and answers the same twice;
//   - an accepted token is in compact form, its header's alg is HS256, its
//     claims parse (strictly: no member twice) to an object whose sub is the
//     identity's account, whose exp is in the future (within the skew), and
//     whose name, when the identity has one, is the token's name;
//   - a token that is not signed with the secret is never accepted.
// Any violation aborts.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/json_text.hpp"
#include "server/host/host_token.hpp"

using namespace sparts;
using namespace sparts::server;
using nlohmann::json;

namespace {

const std::string kSecret = "the fuzz target's secret, 32 bytes or more";
constexpr std::int64_t kNow = 1800000000;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "login fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()), detail.data());
    std::abort();
}

const HostTokenVerifier& verifier() {
    static const HostTokenVerifier v([] {
        HostTokenConfig c;
        c.algorithm = "HS256";
        c.secret = kSecret;
        c.clock_skew_seconds = 30;
        return c;
    }());
    return v;
}

std::string b64url(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

std::optional<std::string> b64url_decoded(std::string_view part) {
    std::string text(part);
    for (char& c : text) c = c == '-' ? '+' : c == '_' ? '/' : c;
    if (text.size() % 4 == 1) return std::nullopt;
    while (text.size() % 4) text += '=';
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    if (n < 0) return std::nullopt;
    out.resize(static_cast<std::size_t>(n) - (part.size() % 4 == 2 ? 2 : part.size() % 4 == 3 ? 1 : 0));
    return out;
}

std::string signed_token(std::string_view header, std::string_view claims, const std::string& key) {
    const std::string input = b64url(header) + "." + b64url(claims);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(input.data()),
         input.size(), mac, &size);
    return input + "." + b64url(std::string_view(reinterpret_cast<const char*>(mac), size));
}

void check_accepted(const std::string& token, const HostIdentity& who) {
    const auto first = token.find('.');
    const auto second = token.find('.', first + 1);
    if (first == std::string::npos || second == std::string::npos || token.find('.', second + 1) != std::string::npos)
        fail("an accepted token is not header.claims.signature", token);
    const auto header_text = b64url_decoded(std::string_view(token).substr(0, first));
    const auto claims_text = b64url_decoded(std::string_view(token).substr(first + 1, second - first - 1));
    if (!header_text || !claims_text) fail("an accepted token's parts are not base64url", token);
    const auto header = parse_json_text(*header_text);
    const auto claims = parse_json_text(*claims_text);
    if (!header || !claims || !header->is_object() || !claims->is_object())
        fail("an accepted token's header or claims are not one strict JSON object", token);
    if (header->value("alg", "") != "HS256") fail("an accepted token's alg is not HS256", *header_text);
    const auto sub = claims->find("sub");
    if (sub == claims->end() || !sub->is_string() || sub->get<std::string>() != who.player_id)
        fail("the identity is not the token's sub", *claims_text);
    const auto exp = claims->find("exp");
    if (exp == claims->end() || !exp->is_number() || exp->get<double>() + 30 < static_cast<double>(kNow))
        fail("an accepted token has no exp in the future", *claims_text);
    const auto name = claims->find("name");
    if (!who.display_name.empty() && (name == claims->end() || !name->is_string() || name->get<std::string>() != who.display_name))
        fail("the identity's name is not the token's", *claims_text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string token;
    if (data[0] % 2 == 0) {
        token = std::string(rest);
    } else {
        const auto cut = rest.find('\n');
        if (cut == std::string_view::npos) return 0;
        token = signed_token(rest.substr(0, cut), rest.substr(cut + 1), kSecret);
        // The same token signed with another key is never accepted.
        const std::string forged = signed_token(rest.substr(0, cut), rest.substr(cut + 1), kSecret + "!");
        if (verifier().verify(forged, kNow)) fail("a token signed with another key was accepted", forged);
    }
    const auto result = verifier().verify(token, kNow);
    const auto again = verifier().verify(token, kNow);
    if (bool(result) != bool(again) || (!result && result.error() != again.error())) fail("two readings differ", token);
    if (result) check_accepted(token, *result);
    return 0;
}
