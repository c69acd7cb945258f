// JWTs for the tests of host logins: signed with libjwt, `claims` as the
// payload, `alg` with `key` (a secret, or a PEM private key; empty for none).
#pragma once

#include <jwt.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace sparts::test {

inline std::string sign_jwt(jwt_alg_t alg, const std::string& key, const nlohmann::json& claims) {
    jwt_t* raw = nullptr;
    REQUIRE(jwt_new(&raw) == 0);
    const std::unique_ptr<jwt_t, decltype(&jwt_free)> jwt(raw, &jwt_free);
    REQUIRE(jwt_add_grants_json(jwt.get(), claims.dump().c_str()) == 0);
    // libjwt refuses a key with alg none, even an empty one that is not null.
    const auto* bytes = key.empty() ? nullptr : reinterpret_cast<const unsigned char*>(key.data());
    REQUIRE(jwt_set_alg(jwt.get(), alg, bytes, static_cast<int>(key.size())) == 0);
    const std::unique_ptr<char, decltype(&std::free)> token(jwt_encode_str(jwt.get()), &std::free);
    REQUIRE(token);
    return token.get();
}

inline std::string base64url(const std::string& bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

// An HS256 token of `header` and `claims` exactly as written (a member given twice, an alg in another case),
// signed with `secret`: what libjwt would not write.
inline std::string sign_hs256_text(const std::string& header, const std::string& claims, const std::string& secret) {
    const std::string input = base64url(header) + "." + base64url(claims);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), reinterpret_cast<const unsigned char*>(input.data()),
         input.size(), mac, &size);
    return input + "." + base64url(std::string(reinterpret_cast<const char*>(mac), size));
}

}  // namespace sparts::test
