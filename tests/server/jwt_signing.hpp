// A JWT signed with libjwt, for the tests of host logins: `claims` as the
// payload, `alg` with `key` (a secret, or a PEM private key; empty for none).
#pragma once

#include <jwt.h>

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

}  // namespace sparts::test
