// The player tokens a host signs (JWT, RFC 7519), so that a host's own
// accounts can sit at our tables without a hello of their own. libjwt
// (Debian's libjwt 1.10) checks the signature; the claims are read with
// nlohmann/json; what is accepted is decided here.
//
// Decisions:
// - The operator chooses the algorithm, never the token: a token whose `alg`
//   is another (`none`, or HS256 signed with the public key's PEM text as the
//   HMAC secret) is a bad signature, whatever libjwt made of it.
// - `exp` is required (a token that never expires is a password); `nbf` is
//   honoured when present; `iss` and `aud` are checked when configured. The
//   caller gives the time, so that one clock decides and tests can set it.
// - A bad key or secret is a start-up error, not a run of refused players:
//   the key file is read and checked once, at construction. Its messages name
//   the setting and never hold the secret or the key.
// - Nothing is logged: tokens are secrets, and the caller decides what to say.
// - Const after construction; each call decodes into a jwt_t of its own, so one
//   verifier serves every strand.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include "protocol/outcome.hpp"

namespace sparts::server {

// Checked before libjwt sees the token: a host's token is a few hundred bytes.
inline constexpr std::size_t kHostTokenMaxBytes = 4096;
// The largest clock skew a verifier is configured with.
inline constexpr std::int64_t kHostTokenMaxSkewSeconds = 3600;

// Stable names (to_string): clients and metrics may rely on them.
enum class HostTokenError {
    // Not a JWT, bad base64 or JSON, over kHostTokenMaxBytes, no exp, a claim of the wrong type.
    token_malformed,
    // The signature does not verify, or the token's alg is not the configured one.
    token_bad_signature,
    token_expired,         // exp + skew < now
    token_not_yet_valid,   // nbf - skew > now
    token_wrong_issuer,    // iss missing or not the configured issuer
    token_wrong_audience,  // aud (a string or an array of strings) missing or not naming ours
    token_bad_subject,     // sub missing, or not 1 to 64 of [A-Za-z0-9_.@:-]
};

std::string_view to_string(HostTokenError error);

struct HostIdentity {
    std::string player_id;        // `sub`
    std::string display_name;     // `name`, empty when absent; as the host signed it, so the
                                  // caller checks it (valid_display_name) like any other name
    std::int64_t expires_at = 0;  // `exp`, in seconds since the epoch
};

struct HostTokenConfig {
    std::string algorithm;                 // "HS256", "RS256" or "ES256"
    std::string secret;                    // HS256 only: the shared secret, at least 32 bytes
    std::string public_key_file;           // RS256 (RSA, at least 2048 bits) or ES256 (P-256) only:
                                           // a PEM public key ("BEGIN PUBLIC KEY")
    std::string issuer;                    // empty: iss is not checked
    std::string audience;                  // empty: aud is not checked
    std::int64_t clock_skew_seconds = 30;  // 0 to kHostTokenMaxSkewSeconds
};

class HostTokenVerifier {
public:
    // Throws std::runtime_error naming the setting that is wrong.
    explicit HostTokenVerifier(const HostTokenConfig& config);

    Outcome<HostIdentity, HostTokenError> verify(std::string_view token,
                                                 std::int64_t now_seconds) const;

private:
    int algorithm_;    // libjwt's jwt_alg_t, kept out of this header
    std::string key_;  // the secret, or the PEM text: libjwt takes either as bytes
    std::string issuer_;
    std::string audience_;
    std::int64_t skew_;
};

}  // namespace sparts::server
