// The verifier of hosts' signed player tokens (server/host/host_token.hpp): the keys
// are made by the openssl command at test time, the tokens are signed by libjwt,
// and each refusal is shown by a token that has that one defect and no other.
#include <doctest/doctest.h>

#include <jwt.h>
#include <stdlib.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include "jwt_signing.hpp"
#include "server/host/host_token.hpp"

using namespace sparts::server;

namespace host_token_test {

using json = nlohmann::json;

constexpr std::int64_t kNow = 1'700'000'000;
const std::string kSecret = "a shared secret of 32 bytes, ok.";
const std::string kIssuer = "https://host.example";
const std::string kAudience = "sparts";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Made once for every test case here; an RSA key takes a moment.
struct Keys {
    std::string dir;
    Keys() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "sparts-host-token-XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        dir = pattern;
        try {
            make("rsa", "-algorithm RSA -pkeyopt rsa_keygen_bits:2048");
            make("rsa_other", "-algorithm RSA -pkeyopt rsa_keygen_bits:2048");
            make("rsa_1024", "-algorithm RSA -pkeyopt rsa_keygen_bits:1024");
            make("ec", "-algorithm EC -pkeyopt ec_paramgen_curve:P-256");
            make("ec_other", "-algorithm EC -pkeyopt ec_paramgen_curve:P-256");
            make("ec_p384", "-algorithm EC -pkeyopt ec_paramgen_curve:P-384");
        } catch (...) {
            std::filesystem::remove_all(dir);  // no destructor runs for a half-made Keys
            throw;
        }
    }
    ~Keys() { std::filesystem::remove_all(dir); }
    std::string private_pem(const std::string& name) const {
        return slurp(dir + "/" + name + ".pem");
    }
    std::string public_path(const std::string& name) const { return dir + "/" + name + ".pub"; }

private:
    void make(const std::string& name, const std::string& options) const {
        const std::string key = dir + "/" + name;
        const std::string command = "openssl genpkey " + options + " -out " + key +
                                    ".pem 2>/dev/null && openssl pkey -in " + key +
                                    ".pem -pubout -out " + key + ".pub 2>/dev/null";
        if (std::system(command.c_str()) != 0)
            throw std::runtime_error("openssl could not make " + name);
    }
};

const Keys& keys() {
    static const Keys made;
    return made;
}

std::string sign(jwt_alg_t alg, const std::string& key, const json& claims) {
    return sparts::test::sign_jwt(alg, key, claims);
}

json good_claims() {
    return {{"sub", "alice"},
            {"name", "Alice"},
            {"exp", kNow + 600},
            {"iss", kIssuer},
            {"aud", kAudience}};
}

json with(json claims, const std::string& name, const json& value) {
    claims[name] = value;
    return claims;
}

json without(json claims, const std::string& name) {
    claims.erase(name);
    return claims;
}

HostTokenConfig hs256_config() {
    HostTokenConfig config;
    config.algorithm = "HS256";
    config.secret = kSecret;
    config.issuer = kIssuer;
    config.audience = kAudience;
    return config;
}

HostTokenConfig public_key_config(const std::string& algorithm, const std::string& key) {
    HostTokenConfig config;
    config.algorithm = algorithm;
    config.public_key_file = keys().public_path(key);
    config.issuer = kIssuer;
    config.audience = kAudience;
    return config;
}

// "ok" or the error's name, so that a failure shows what came instead.
std::string result(const HostTokenVerifier& verifier, const std::string& token,
                   std::int64_t now = kNow) {
    const auto verified = verifier.verify(token, now);
    return verified ? std::string("ok") : std::string(to_string(verified.error()));
}

std::string hs256(const json& claims) {
    return sign(JWT_ALG_HS256, kSecret, claims);
}

// The message of the exception a construction throws, or "" when it throws none.
std::string construction_error(const HostTokenConfig& config) {
    try {
        HostTokenVerifier verifier(config);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

std::vector<std::string> parts(const std::string& token) {
    std::vector<std::string> out(1);
    for (const char c : token) {
        if (c == '.')
            out.emplace_back();
        else
            out.back() += c;
    }
    REQUIRE(out.size() == 3);
    return out;
}

}  // namespace host_token_test

using namespace host_token_test;

TEST_CASE("host_token accepts HS256, RS256 and ES256 tokens and gives their identity") {
    const HostTokenVerifier hs(hs256_config());
    const HostTokenVerifier rs(public_key_config("RS256", "rsa"));
    const HostTokenVerifier es(public_key_config("ES256", "ec"));
    const std::pair<const HostTokenVerifier*, std::string> cases[] = {
        {&hs, hs256(good_claims())},
        {&rs, sign(JWT_ALG_RS256, keys().private_pem("rsa"), good_claims())},
        {&es, sign(JWT_ALG_ES256, keys().private_pem("ec"), good_claims())},
    };
    for (const auto& [verifier, token] : cases) {
        const auto identity = verifier->verify(token, kNow);
        REQUIRE_MESSAGE(identity, to_string(identity.error()));
        CHECK(identity->player_id == "alice");
        CHECK(identity->display_name == "Alice");
        CHECK(identity->expires_at == kNow + 600);
    }

    // No name: an empty one. A fractional exp: whole seconds.
    const auto nameless =
        hs.verify(hs256(with(without(good_claims(), "name"), "exp", kNow + 10.75)), kNow);
    REQUIRE(nameless);
    CHECK(nameless->display_name.empty());
    CHECK(nameless->expires_at == kNow + 10);
}

TEST_CASE("host_token error names are stable") {
    CHECK(to_string(HostTokenError::token_malformed) == "token_malformed");
    CHECK(to_string(HostTokenError::token_bad_signature) == "token_bad_signature");
    CHECK(to_string(HostTokenError::token_expired) == "token_expired");
    CHECK(to_string(HostTokenError::token_not_yet_valid) == "token_not_yet_valid");
    CHECK(to_string(HostTokenError::token_wrong_issuer) == "token_wrong_issuer");
    CHECK(to_string(HostTokenError::token_wrong_audience) == "token_wrong_audience");
    CHECK(to_string(HostTokenError::token_bad_subject) == "token_bad_subject");
}

TEST_CASE("host_token refuses what is not a well-formed JWT as token_malformed") {
    const HostTokenVerifier hs(hs256_config());
    const auto good = parts(hs256(good_claims()));
    CHECK(result(hs, good[0] + "." + good[1] + "." + good[2]) == "ok");
    CHECK(result(hs, "") == "token_malformed");
    CHECK(result(hs, "not a token") == "token_malformed");
    CHECK(result(hs, good[0] + "." + good[1]) == "token_malformed");
    CHECK(result(hs, good[0] + "." + good[1] + "." + good[2] + ".x") == "token_malformed");
    // Bad base64: a lone character, and characters outside base64url.
    CHECK(result(hs, good[0] + ".e." + good[2]) == "token_malformed");
    CHECK(result(hs, good[0] + "." + good[1] + "*." + good[2]) == "token_malformed");
    CHECK(result(hs, good[0] + "." + good[1] + "." + good[2] + "=") == "token_malformed");
    // Base64 of `{"sub":`, which is not JSON; a header without alg (`{"typ":"JWT"}`).
    CHECK(result(hs, good[0] + ".eyJzdWIiOg." + good[2]) == "token_malformed");
    CHECK(result(hs, "eyJ0eXAiOiJKV1QifQ." + good[1] + "." + good[2]) == "token_malformed");
    // libjwt reads a C string: what follows a NUL must not go unseen.
    CHECK(result(hs, hs256(good_claims()) + std::string(1, '\0') + "junk") == "token_malformed");
}

namespace {
std::string hs256_raw(const std::string& header, const std::string& claims) {
    return sparts::test::sign_hs256_text(header, claims, kSecret);
}
}  // namespace

TEST_CASE("host_token refuses a claim or a header member given twice: read last-wins by libjwt, refused by our parser") {
    const HostTokenVerifier hs(hs256_config());
    const std::string rest = R"("name":"Alice","exp":)" + std::to_string(kNow + 600) + R"(,"iss":")" + kIssuer +
                             R"(","aud":")" + kAudience + R"("})";
    const std::string header = R"({"alg":"HS256","typ":"JWT"})";
    // Written by hand and signed like any token: the same claims once each pass.
    CHECK(result(hs, hs256_raw(header, R"({"sub":"alice",)" + rest)) == "ok");
    // `sub` twice: which account is this? Refused, not read as the last one.
    CHECK(result(hs, hs256_raw(header, R"({"sub":"alice","sub":"admin",)" + rest)) == "token_malformed");
    CHECK(result(hs, hs256_raw(header, R"({"sub":"alice","exp":1,)" + rest)) == "token_malformed");
    CHECK(result(hs, hs256_raw(R"({"alg":"HS256","alg":"none"})", R"({"sub":"alice",)" + rest)) == "token_malformed");
}

TEST_CASE("host_token refuses an alg named in another case: libjwt reads \"Hs256\" as HS256, RFC 7515 does not") {
    // Found by fuzz/login.cpp: a token signed with the right key, whose header says "Hs256", was accepted.
    const HostTokenVerifier hs(hs256_config());
    const std::string claims = R"({"sub":"alice","name":"Alice","exp":)" + std::to_string(kNow + 600) + R"(,"iss":")" +
                               kIssuer + R"(","aud":")" + kAudience + R"("})";
    CHECK(result(hs, hs256_raw(R"({"alg":"HS256"})", claims)) == "ok");
    CHECK(result(hs, hs256_raw(R"({"alg":"Hs256"})", claims)) == "token_bad_signature");
    CHECK(result(hs, hs256_raw(R"({"alg":"hs256","typ":"JWT"})", claims)) == "token_bad_signature");
    CHECK(result(hs, hs256_raw(R"({"typ":"JWT"})", claims)) != "ok");
}

TEST_CASE("host_token refuses a missing or mistyped claim as token_malformed") {
    const HostTokenVerifier hs(hs256_config());
    CHECK(result(hs, hs256(good_claims())) == "ok");
    CHECK(result(hs, hs256(without(good_claims(), "exp"))) == "token_malformed");
    CHECK(result(hs, hs256(with(good_claims(), "exp", "tomorrow"))) == "token_malformed");
    CHECK(result(hs, hs256(with(good_claims(), "exp", -1))) == "token_malformed");
    CHECK(result(hs, hs256(with(good_claims(), "nbf", "now"))) == "token_malformed");
    CHECK(result(hs, hs256(with(good_claims(), "iss", 7))) == "token_malformed");
    CHECK(result(hs, hs256(with(good_claims(), "aud", json::array({kAudience, 7})))) ==
          "token_malformed");
    CHECK(result(hs, hs256(with(good_claims(), "name", json::array({"Alice"})))) ==
          "token_malformed");
}

TEST_CASE("host_token refuses a token not signed by the configured key and algorithm") {
    const HostTokenVerifier hs(hs256_config());
    const HostTokenVerifier rs(public_key_config("RS256", "rsa"));
    const HostTokenVerifier es(public_key_config("ES256", "ec"));
    const std::string rs_token = sign(JWT_ALG_RS256, keys().private_pem("rsa"), good_claims());
    const std::string es_token = sign(JWT_ALG_ES256, keys().private_pem("ec"), good_claims());
    REQUIRE(result(rs, rs_token) == "ok");
    REQUIRE(result(es, es_token) == "ok");

    SUBCASE("another key of the same kind") {
        CHECK(result(hs, sign(JWT_ALG_HS256, "another secret, also of 32 bytes", good_claims())) ==
              "token_bad_signature");
        CHECK(result(rs, sign(JWT_ALG_RS256, keys().private_pem("rsa_other"), good_claims())) ==
              "token_bad_signature");
        CHECK(result(es, sign(JWT_ALG_ES256, keys().private_pem("ec_other"), good_claims())) ==
              "token_bad_signature");
    }
    SUBCASE("a payload changed after signing") {
        const auto signed_parts = parts(hs256(good_claims()));
        const auto other = parts(hs256(with(good_claims(), "sub", "mallory")));
        CHECK(result(hs, signed_parts[0] + "." + other[1] + "." + signed_parts[2]) ==
              "token_bad_signature");
        const auto rs_parts = parts(rs_token);
        const auto es_parts = parts(es_token);
        CHECK(result(rs, rs_parts[0] + "." + other[1] + "." + rs_parts[2]) ==
              "token_bad_signature");
        CHECK(result(es, es_parts[0] + "." + other[1] + "." + es_parts[2]) ==
              "token_bad_signature");
    }
    SUBCASE("alg none") {
        const std::string unsigned_token = sign(JWT_ALG_NONE, "", good_claims());
        REQUIRE(parts(unsigned_token)[2].empty());
        CHECK(result(hs, unsigned_token) == "token_bad_signature");
        CHECK(result(rs, unsigned_token) == "token_bad_signature");
        CHECK(result(es, unsigned_token) == "token_bad_signature");
    }
    SUBCASE("HS256 with the public key's PEM text as the HMAC secret") {
        const std::string rsa_pem = slurp(keys().public_path("rsa"));
        const std::string ec_pem = slurp(keys().public_path("ec"));
        CHECK(result(rs, sign(JWT_ALG_HS256, rsa_pem, good_claims())) == "token_bad_signature");
        CHECK(result(es, sign(JWT_ALG_HS256, ec_pem, good_claims())) == "token_bad_signature");
    }
    SUBCASE("a good signature by another algorithm") {
        CHECK(result(hs, sign(JWT_ALG_HS384, kSecret, good_claims())) == "token_bad_signature");
        CHECK(result(hs, rs_token) == "token_bad_signature");
        CHECK(result(rs, es_token) == "token_bad_signature");
        CHECK(result(es, rs_token) == "token_bad_signature");
    }
}

TEST_CASE("host_token checks exp and nbf with the clock skew to the second") {
    const HostTokenVerifier hs(hs256_config());  // 30 seconds of skew
    const std::string expiring = hs256(with(good_claims(), "exp", kNow));
    CHECK(result(hs, expiring, kNow + 30) == "ok");
    CHECK(result(hs, expiring, kNow + 31) == "token_expired");

    const std::string future = hs256(with(good_claims(), "nbf", kNow + 100));
    CHECK(result(hs, future, kNow + 70) == "ok");
    CHECK(result(hs, future, kNow + 69) == "token_not_yet_valid");

    HostTokenConfig strict = hs256_config();
    strict.clock_skew_seconds = 0;
    const HostTokenVerifier no_skew(strict);
    CHECK(result(no_skew, expiring, kNow) == "ok");
    CHECK(result(no_skew, expiring, kNow + 1) == "token_expired");
    CHECK(result(no_skew, future, kNow + 100) == "ok");
    CHECK(result(no_skew, future, kNow + 99) == "token_not_yet_valid");
}

TEST_CASE("host_token checks the issuer and the audience when configured") {
    const HostTokenVerifier hs(hs256_config());
    CHECK(result(hs, hs256(with(good_claims(), "iss", "https://other.example"))) ==
          "token_wrong_issuer");
    CHECK(result(hs, hs256(without(good_claims(), "iss"))) == "token_wrong_issuer");

    CHECK(result(hs, hs256(with(good_claims(), "aud", "elsewhere"))) == "token_wrong_audience");
    CHECK(result(hs, hs256(without(good_claims(), "aud"))) == "token_wrong_audience");
    CHECK(result(hs, hs256(with(good_claims(), "aud", json::array({"elsewhere", "other"})))) ==
          "token_wrong_audience");
    CHECK(result(hs, hs256(with(good_claims(), "aud", json::array()))) == "token_wrong_audience");
    CHECK(result(hs, hs256(with(good_claims(), "aud", json::array({"elsewhere", kAudience})))) ==
          "ok");

    HostTokenConfig open = hs256_config();
    open.issuer.clear();
    open.audience.clear();
    const HostTokenVerifier unchecked(open);
    CHECK(result(unchecked, hs256(without(without(good_claims(), "iss"), "aud"))) == "ok");
    CHECK(result(unchecked, hs256(with(with(good_claims(), "iss", "x"), "aud", "y"))) == "ok");
}

TEST_CASE("host_token checks the subject") {
    const HostTokenVerifier hs(hs256_config());
    const std::string longest = std::string(53, 'a') + "Z9_.@:-user";
    REQUIRE(longest.size() == 64);
    const auto accepted = hs.verify(hs256(with(good_claims(), "sub", longest)), kNow);
    REQUIRE(accepted);
    CHECK(accepted->player_id == longest);

    CHECK(result(hs, hs256(without(good_claims(), "sub"))) == "token_bad_subject");
    CHECK(result(hs, hs256(with(good_claims(), "sub", ""))) == "token_bad_subject");
    CHECK(result(hs, hs256(with(good_claims(), "sub", longest + "x"))) == "token_bad_subject");
    CHECK(result(hs, hs256(with(good_claims(), "sub", "alice smith"))) == "token_bad_subject");
    CHECK(result(hs, hs256(with(good_claims(), "sub", "al/ice"))) == "token_bad_subject");
    CHECK(result(hs, hs256(with(good_claims(), "sub", "\xc3\xa9lise"))) == "token_bad_subject");
    CHECK(result(hs, hs256(with(good_claims(), "sub", 42))) == "token_bad_subject");
}

TEST_CASE("host_token refuses a token over 4096 bytes before parsing it") {
    const HostTokenVerifier hs(hs256_config());
    // Padded up to the limit: the longest signed token within it passes, the next is refused.
    std::string within, over;
    for (std::size_t pad = 2900; over.empty(); ++pad) {
        const std::string token = hs256(with(good_claims(), "pad", std::string(pad, 'p')));
        if (token.size() <= kHostTokenMaxBytes)
            within = token;
        else
            over = token;
    }
    REQUIRE(within.size() == kHostTokenMaxBytes);
    CHECK(result(hs, within) == "ok");
    CHECK(result(hs, over) == "token_malformed");
}

TEST_CASE("host_token refuses bad settings at construction and never shows the secret") {
    HostTokenConfig config = hs256_config();
    CHECK(construction_error(config).empty());

    config.secret = "only thirty-one bytes of secret";
    REQUIRE(config.secret.size() == 31);
    const std::string short_secret = construction_error(config);
    CHECK(short_secret.find("secret") != std::string::npos);
    CHECK(short_secret.find(config.secret) == std::string::npos);

    config = hs256_config();
    config.algorithm = "HS512";
    CHECK(construction_error(config).find("algorithm") != std::string::npos);

    config = hs256_config();
    config.clock_skew_seconds = -1;
    CHECK(construction_error(config).find("clock skew") != std::string::npos);
    config.clock_skew_seconds = kHostTokenMaxSkewSeconds + 1;
    CHECK(construction_error(config).find("clock skew") != std::string::npos);

    config = hs256_config();
    config.public_key_file = keys().public_path("rsa");
    CHECK(construction_error(config).find("public key file") != std::string::npos);

    config = public_key_config("RS256", "rsa");
    CHECK(construction_error(config).empty());
    config.secret = kSecret;
    const std::string secret_with_key = construction_error(config);
    CHECK(secret_with_key.find("secret") != std::string::npos);
    CHECK(secret_with_key.find(kSecret) == std::string::npos);

    config = public_key_config("ES256", "ec");
    config.public_key_file = keys().dir + "/no-such-key.pub";
    const std::string missing = construction_error(config);
    CHECK(missing.find("public key file") != std::string::npos);
    CHECK(missing.find(config.public_key_file) != std::string::npos);

    config.public_key_file.clear();
    CHECK(construction_error(config).find("public key file") != std::string::npos);

    // Files that are no key libjwt could verify with: each names the file and shows none of it.
    const std::string private_pem = keys().private_pem("rsa");
    const std::string private_path = keys().dir + "/rsa.pem";
    const std::pair<std::string, std::string> unusable[] = {
        {"RS256", private_path},                    // a private key
        {"RS256", keys().public_path("ec")},        // EC for RS256
        {"ES256", keys().public_path("rsa")},       // RSA for ES256
        {"RS256", keys().public_path("rsa_1024")},  // too short
        {"ES256", keys().public_path("ec_p384")},   // another curve
    };
    for (const auto& entry : unusable) {
        // Not a structured binding: clang 15 cannot capture one (CAPTURE makes a lambda).
        const auto& algorithm = entry.first;
        const auto& path = entry.second;
        config = public_key_config(algorithm, "rsa");
        config.public_key_file = path;
        const std::string message = construction_error(config);
        CAPTURE(path);
        CHECK(message.find(path) != std::string::npos);
        CHECK(message.find("-----BEGIN") == std::string::npos);
        const std::string pem = slurp(path);
        CHECK(message.find(pem.substr(pem.find('\n') + 1, 24)) == std::string::npos);
    }
}

TEST_CASE("host_token verifies from many threads at once") {
    const HostTokenVerifier hs(hs256_config());
    const HostTokenVerifier es(public_key_config("ES256", "ec"));
    const std::string hs_token = hs256(good_claims());
    const std::string es_token = sign(JWT_ALG_ES256, keys().private_pem("ec"), good_claims());
    const std::string forged = sign(JWT_ALG_ES256, keys().private_pem("ec_other"), good_claims());
    std::atomic<int> accepted{0}, refused{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 50; ++i) {
                if (hs.verify(hs_token, kNow) && es.verify(es_token, kNow)) ++accepted;
                const auto verdict = es.verify(forged, kNow);
                if (!verdict && verdict.error() == HostTokenError::token_bad_signature) ++refused;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    CHECK(accepted.load() == 200);
    CHECK(refused.load() == 200);
}
