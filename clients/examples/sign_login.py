#!/usr/bin/env python3
"""Signs a login for sparts-server (protocol/PROTOCOL.md section 20; docs/OPERATING.md, "Logins"):
the host's side, in Python with nothing but the standard library. clients/examples/sign_login.mjs
does the same in Node.js; both make the same token from the same claims.

A JWT (RFC 7519) signed with HS256 (HMAC-SHA-256), with these claims:
  sub   the player's account at your site: 1 to 64 of A-Z a-z 0-9 _ . @ : -, never reused
        for another person (the same sub is the same player, on every device)
  name  the name shown at the tables (optional; the rules of hello.name)
  iss   your site, if the server is started with --login-issuer (then it must match)
  aud   the server, if it is started with --login-audience (then it must match)
  iat   when it was signed (not checked by the server)
  exp   when it expires: a few minutes after iat (see --ttl)

The key is the bytes of the file the server reads with --login-secret-file, up to its first
NUL byte and without its trailing newlines (\\n or \\r): make it text, e.g.
`openssl rand -hex 32 > login-secret` (those 64 characters are the key, not 32 decoded
bytes), and give your site the same file.

    sign_login.py --secret-file login-secret --sub user-42 --name Ada \\
        --iss https://cards.example.org --aud sparts
    # then send the player to https://<server>/?login=<the printed token>

Or, from your site's code: `from sign_login import sign_login` (see its docstring).
"""
import argparse
import base64
import hashlib
import hmac
import json
import sys
import time

# The server refuses an HS256 secret shorter than this at its start.
MIN_SECRET_BYTES = 32
# The lifetime advised for a login that travels in a URL (docs/OPERATING.md, "Logins").
DEFAULT_TTL_SECONDS = 120


def read_secret(path):
    """The key exactly as sparts-server reads --login-secret-file."""
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data:
        # The server would read only what comes before the NUL: the two keys would differ.
        raise ValueError(f"{path}: the secret holds a NUL byte; write it as text (openssl rand -hex 32)")
    secret = data.rstrip(b"\r\n")
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"{path}: the secret is {len(secret)} bytes; the server needs at least {MIN_SECRET_BYTES}")
    return secret


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _part(obj):
    # Compact JSON, UTF-8 (names may be any script): the same bytes as JSON.stringify makes.
    return _b64url(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def sign_login(secret, sub, name=None, issuer=None, audience=None, ttl=DEFAULT_TTL_SECONDS, now=None):
    """A login (a compact JWT, HS256) for the account `sub`, valid for `ttl` seconds from `now`.

    secret: bytes, the key (read_secret() reads it from the server's file).
    """
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    issued = int(time.time() if now is None else now)
    claims = {"sub": sub}
    if name is not None:
        claims["name"] = name
    if issuer is not None:
        claims["iss"] = issuer
    if audience is not None:
        claims["aud"] = audience
    claims["iat"] = issued
    claims["exp"] = issued + int(ttl)
    signing_input = _part({"alg": "HS256", "typ": "JWT"}) + "." + _part(claims)
    signature = hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest()
    return signing_input + "." + _b64url(signature)


def main(argv=None):
    p = argparse.ArgumentParser(description="Prints a login (a JWT, HS256) for sparts-server.")
    p.add_argument("--secret-file", required=True, help="the file the server reads with --login-secret-file")
    p.add_argument("--sub", required=True, help="the player's account id at your site")
    p.add_argument("--name", help="the name shown at the tables")
    p.add_argument("--iss", help="your site, as the server's --login-issuer")
    p.add_argument("--aud", help="the server, as its --login-audience")
    p.add_argument("--ttl", type=int, default=DEFAULT_TTL_SECONDS,
                   help=f"seconds until it expires (default {DEFAULT_TTL_SECONDS})")
    p.add_argument("--now", type=int, help="the time it is signed at, in seconds since 1970 (default: now)")
    a = p.parse_args(argv)
    try:
        secret = read_secret(a.secret_file)
    except (OSError, ValueError) as e:
        print(f"sign_login: {e}", file=sys.stderr)
        return 2
    print(sign_login(secret, a.sub, a.name, a.iss, a.aud, a.ttl, a.now))
    return 0


if __name__ == "__main__":
    sys.exit(main())
