#include "server/host/host_token.hpp"

#include <jwt.h>
#include "protocol/json_text.hpp"
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace sparts::server {

namespace {

using json = nlohmann::json;

// A PEM public key is under 2 KB; a file much larger is not one.
constexpr std::streamsize kMaxKeyFileBytes = 16 * 1024;
constexpr std::size_t kMinSecretBytes = 32;
constexpr std::size_t kMaxSubjectLength = 64;
// The end of year 9999: later times, and any before 1970, are no host's.
constexpr std::int64_t kMaxNumericDate = 253402300799;

struct JwtFree {
    void operator()(jwt_t* jwt) const { jwt_free(jwt); }
};
using JwtPtr = std::unique_ptr<jwt_t, JwtFree>;

// libjwt 1.10 decodes without checking any signature when it is given no key
// (it then reports alg "none"): only classify() calls it so, never to accept.
JwtPtr jwt_decode_with(const std::string& token, std::string_view key) {
    jwt_t* jwt = nullptr;
    const auto* bytes = key.empty() ? nullptr : reinterpret_cast<const unsigned char*>(key.data());
    if (jwt_decode(&jwt, token.c_str(), bytes, static_cast<int>(key.size())) != 0) {
        // Its OpenSSL calls leave their reasons on this thread's error queue, where
        // the next OpenSSL user of the thread would find them.
        ERR_clear_error();
        return nullptr;
    }
    return JwtPtr(jwt);
}

// libjwt answers EINVAL to everything: a token it can parse when no signature
// is checked has a bad signature; one it cannot is malformed.
HostTokenError classify(const std::string& token) {
    return jwt_decode_with(token, {}) ? HostTokenError::token_bad_signature
                                      : HostTokenError::token_malformed;
}

// Header, payload and signature in base64url. libjwt reads a C string, so a NUL
// would hide the rest from it; and it reads no further than the second dot when
// classify() gives it no key, so a third would pass for a signature's.
bool compact_form(std::string_view token) {
    int dots = 0;
    for (const char c : token) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        if (!ok) return false;
        dots += c == '.';
    }
    return dots == 2;
}

// Base64url without padding, as a JWT's parts are; nothing for anything else.
std::optional<std::string> base64url_decoded(std::string_view part) {
    std::string text(part);
    for (char& c : text) c = c == '-' ? '+' : c == '_' ? '/' : c;
    if (text.size() % 4 == 1) return std::nullopt;
    while (text.size() % 4 != 0) text += '=';
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    if (n < 0) return std::nullopt;
    out.resize(static_cast<std::size_t>(n) - (part.size() % 4 == 2 ? 2 : part.size() % 4 == 3 ? 1 : 0));
    return out;
}

// The token's header, when it and the claims are each one JSON object with no member named twice; nothing
// otherwise. libjwt reads them with jansson, which keeps the last of two same-named members; our own parser
// (and the host's, perhaps) refuses them or keeps the first: a token two readers would read differently is not
// one to trust.
std::optional<json> strict_json_parts(std::string_view token) {
    const auto first = token.find('.');
    const auto second = token.find('.', first + 1);
    std::optional<json> header;
    for (const std::string_view part : {token.substr(0, first), token.substr(first + 1, second - first - 1)}) {
        const auto text = base64url_decoded(part);
        if (!text) return std::nullopt;
        auto parsed = parse_json_text(*text);
        if (!parsed || !parsed->is_object()) return std::nullopt;
        if (!header) header = std::move(*parsed);
    }
    return header;
}

std::optional<json> claims_of(jwt_t* jwt) {
    std::unique_ptr<char, decltype(&std::free)> text(jwt_get_grants_json(jwt, nullptr), &std::free);
    if (!text) return std::nullopt;
    json claims = json::parse(text.get(), nullptr, /*allow_exceptions=*/false);
    if (claims.is_discarded()) return std::nullopt;
    return claims;
}

// RFC 7519's NumericDate: seconds, fractions allowed (and dropped); kNoDate when the
// value is none. nlohmann/json reads a whole number that is not negative as unsigned.
constexpr std::int64_t kNoDate = -1;
std::int64_t numeric_date(const json& value) {
    if (value.is_number_unsigned()) {
        const auto seconds = value.get<std::uint64_t>();
        return seconds <= static_cast<std::uint64_t>(kMaxNumericDate)
                   ? static_cast<std::int64_t>(seconds)
                   : kNoDate;
    }
    if (value.is_number_float()) {
        const double seconds = std::floor(value.get<double>());
        const bool in_range = seconds >= 0 && seconds <= static_cast<double>(kMaxNumericDate);
        return in_range ? static_cast<std::int64_t>(seconds) : kNoDate;
    }
    return kNoDate;
}

bool is_audience_claim(const json& aud) {
    if (aud.is_string()) return true;
    if (!aud.is_array()) return false;
    for (const auto& one : aud)
        if (!one.is_string()) return false;
    return true;
}

bool names_audience(const json& aud, const std::string& audience) {
    if (aud.is_string()) return aud.get_ref<const std::string&>() == audience;
    for (const auto& one : aud)
        if (one.get_ref<const std::string&>() == audience) return true;
    return false;
}

bool valid_subject(const json& sub) {
    if (!sub.is_string()) return false;
    const auto& id = sub.get_ref<const std::string&>();
    if (id.empty() || id.size() > kMaxSubjectLength) return false;
    for (const char c : id) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '@' || c == ':' ||
                        c == '-';
        if (!ok) return false;
    }
    return true;
}

jwt_alg_t algorithm_named(const std::string& name) {
    if (name == "HS256") return JWT_ALG_HS256;
    if (name == "RS256") return JWT_ALG_RS256;
    if (name == "ES256") return JWT_ALG_ES256;
    throw std::runtime_error("host token algorithm: \"" + name + "\" is not HS256, RS256 or ES256");
}

std::string read_key_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("host token public key file " + path + ": cannot be read");
    std::string text(static_cast<std::size_t>(kMaxKeyFileBytes) + 1, '\0');
    in.read(text.data(), kMaxKeyFileBytes + 1);
    if (in.bad())
        throw std::runtime_error("host token public key file " + path + ": cannot be read");
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > static_cast<std::size_t>(kMaxKeyFileBytes))
        throw std::runtime_error("host token public key file " + path +
                                 ": too large for a public key");
    return text;
}

// libjwt parses the key again for every token and only then finds it unusable:
// a key of the wrong kind would refuse every player, so it is refused here once.
void check_public_key(const std::string& pem, jwt_alg_t algorithm, const std::string& path) {
    const std::string setting = "host token public key file " + path + ": ";
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(
        BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr, &EVP_PKEY_free);
    ERR_clear_error();
    if (!key) throw std::runtime_error(setting + "not a PEM public key (\"BEGIN PUBLIC KEY\")");
    if (algorithm == JWT_ALG_RS256) {
        if (!EVP_PKEY_is_a(key.get(), "RSA"))
            throw std::runtime_error(setting + "RS256 needs an RSA key");
        if (EVP_PKEY_get_bits(key.get()) < 2048)
            throw std::runtime_error(setting + "RS256 needs an RSA key of at least 2048 bits");
        return;
    }
    char curve[64] = {};
    std::size_t length = 0;
    const bool p256 = EVP_PKEY_is_a(key.get(), "EC") &&
                      EVP_PKEY_get_group_name(key.get(), curve, sizeof curve, &length) == 1 &&
                      std::string_view(curve, length) == "prime256v1";
    ERR_clear_error();
    if (!p256) throw std::runtime_error(setting + "ES256 needs an EC key on the curve P-256");
}

}  // namespace

std::string_view to_string(HostTokenError error) {
    switch (error) {
        case HostTokenError::token_malformed:
            return "token_malformed";
        case HostTokenError::token_bad_signature:
            return "token_bad_signature";
        case HostTokenError::token_expired:
            return "token_expired";
        case HostTokenError::token_not_yet_valid:
            return "token_not_yet_valid";
        case HostTokenError::token_wrong_issuer:
            return "token_wrong_issuer";
        case HostTokenError::token_wrong_audience:
            return "token_wrong_audience";
        case HostTokenError::token_bad_subject:
            return "token_bad_subject";
    }
    return "token_unknown_error";
}

HostTokenVerifier::HostTokenVerifier(const HostTokenConfig& config)
    : algorithm_(algorithm_named(config.algorithm)),
      issuer_(config.issuer),
      audience_(config.audience),
      skew_(config.clock_skew_seconds) {
    const auto algorithm = static_cast<jwt_alg_t>(algorithm_);
    if (skew_ < 0 || skew_ > kHostTokenMaxSkewSeconds)
        throw std::runtime_error("host token clock skew: " + std::to_string(skew_) +
                                 " seconds is not within 0 to " +
                                 std::to_string(kHostTokenMaxSkewSeconds));
    if (algorithm == JWT_ALG_HS256) {
        if (!config.public_key_file.empty())
            throw std::runtime_error(
                "host token public key file: not used with HS256, which takes a secret");
        if (config.secret.size() < kMinSecretBytes)
            throw std::runtime_error(
                "host token secret: HS256 needs a secret of at least 32 bytes");
        key_ = config.secret;
        return;
    }
    if (!config.secret.empty())
        throw std::runtime_error("host token secret: not used with " + config.algorithm +
                                 ", which takes a public key file");
    if (config.public_key_file.empty())
        throw std::runtime_error("host token public key file: " + config.algorithm + " needs one");
    key_ = read_key_file(config.public_key_file);
    check_public_key(key_, algorithm, config.public_key_file);
}

Outcome<HostIdentity, HostTokenError> HostTokenVerifier::verify(std::string_view token,
                                                                std::int64_t now_seconds) const {
    if (token.size() > kHostTokenMaxBytes || !compact_form(token)) return HostTokenError::token_malformed;
    const std::optional<json> header = strict_json_parts(token);
    if (!header) return HostTokenError::token_malformed;
    const std::string text(token);
    const JwtPtr jwt = jwt_decode_with(text, key_);
    if (!jwt) return classify(text);
    // libjwt verifies with the token's own alg: HS256 over our RSA key's PEM text passes. And it reads the
    // alg's name in any case ("Hs256"), where RFC 7515 §4.1.1 makes it case-sensitive: the header must name
    // exactly the server's algorithm (found by the fuzz target fuzz/login.cpp).
    const auto alg = header->find("alg");
    if (jwt_get_alg(jwt.get()) != static_cast<jwt_alg_t>(algorithm_) || alg == header->end() || !alg->is_string() ||
        alg->get_ref<const std::string&>() != jwt_alg_str(static_cast<jwt_alg_t>(algorithm_)))
        return HostTokenError::token_bad_signature;

    const std::optional<json> claims = claims_of(jwt.get());
    if (!claims) return HostTokenError::token_malformed;
    // libjwt takes a JSON array for a payload too: find() finds nothing in one, so it has no exp.
    const auto claim = [&](const char* name) -> const json* {
        const auto it = claims->find(name);
        return it == claims->end() ? nullptr : &*it;
    };
    const json* exp = claim("exp");
    const json* nbf = claim("nbf");
    const json* iss = claim("iss");
    const json* aud = claim("aud");
    const json* name = claim("name");
    const std::int64_t expires_at = exp ? numeric_date(*exp) : kNoDate;
    const std::int64_t not_before = nbf ? numeric_date(*nbf) : kNoDate;
    if (expires_at == kNoDate || (nbf && not_before == kNoDate) || (iss && !iss->is_string()) ||
        (aud && !is_audience_claim(*aud)) || (name && !name->is_string()))
        return HostTokenError::token_malformed;

    // Both dates are within 0 to year 9999 and the skew at most an hour: no overflow.
    if (expires_at + skew_ < now_seconds) return HostTokenError::token_expired;
    if (nbf && not_before - skew_ > now_seconds) return HostTokenError::token_not_yet_valid;
    if (!issuer_.empty() && (!iss || iss->get_ref<const std::string&>() != issuer_))
        return HostTokenError::token_wrong_issuer;
    if (!audience_.empty() && (!aud || !names_audience(*aud, audience_)))
        return HostTokenError::token_wrong_audience;
    const json* sub = claim("sub");
    if (!sub || !valid_subject(*sub)) return HostTokenError::token_bad_subject;

    return HostIdentity{sub->get<std::string>(), name ? name->get<std::string>() : std::string(),
                        expires_at};
}

}  // namespace sparts::server
