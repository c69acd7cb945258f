#!/usr/bin/env node
// Signs a login for sparts-server (protocol/PROTOCOL.md section 20; docs/OPERATING.md, "Logins"):
// the host's side, in Node.js (18 or later) with nothing but its built-in crypto.
// clients/examples/sign_login.py does the same in Python; both make the same token from the
// same claims.
//
// A JWT (RFC 7519) signed with HS256 (HMAC-SHA-256), with these claims:
//   sub   the player's account at your site: 1 to 64 of A-Z a-z 0-9 _ . @ : -, never reused
//         for another person (the same sub is the same player, on every device)
//   name  the name shown at the tables (optional; the rules of hello.name)
//   iss   your site, if the server is started with --login-issuer (then it must match)
//   aud   the server, if it is started with --login-audience (then it must match)
//   iat   when it was signed (not checked by the server)
//   exp   when it expires: a few minutes after iat (see --ttl)
//
// The key is the bytes of the file the server reads with --login-secret-file, up to its first
// NUL byte and without its trailing newlines (\n or \r): make it text, e.g.
// `openssl rand -hex 32 > login-secret` (those 64 characters are the key, not 32 decoded
// bytes), and give your site the same file.
//
//   node sign_login.mjs --secret-file login-secret --sub user-42 --name Ada \
//       --iss https://cards.example.org --aud sparts
//   # then send the player to https://<server>/?login=<the printed token>
//
// Or, from your site's code: import { signLogin, readSecret } from "./sign_login.mjs".
import { createHmac } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

// The server refuses an HS256 secret shorter than this at its start.
export const MIN_SECRET_BYTES = 32;
// The lifetime advised for a login that travels in a URL (docs/OPERATING.md, "Logins").
export const DEFAULT_TTL_SECONDS = 120;

/** The key exactly as sparts-server reads --login-secret-file (a Buffer). */
export function readSecret(path) {
  const data = readFileSync(path);
  if (data.includes(0)) {
    // The server would read only what comes before the NUL: the two keys would differ.
    throw new Error(`${path}: the secret holds a NUL byte; write it as text (openssl rand -hex 32)`);
  }
  let end = data.length;
  while (end > 0 && (data[end - 1] === 0x0a || data[end - 1] === 0x0d)) end -= 1;
  const secret = data.subarray(0, end);
  if (secret.length < MIN_SECRET_BYTES) {
    throw new Error(`${path}: the secret is ${secret.length} bytes; the server needs at least ${MIN_SECRET_BYTES}`);
  }
  return secret;
}

// Compact JSON in UTF-8, base64url without padding: the same bytes as sign_login.py makes.
const part = (obj) => Buffer.from(JSON.stringify(obj), "utf8").toString("base64url");

/**
 * A login (a compact JWT, HS256) for the account `sub`, valid for `ttl` seconds from `now`.
 * secret: a Buffer (readSecret() reads the server's file) or a string (its UTF-8 bytes).
 */
export function signLogin(secret, { sub, name, issuer, audience, ttl = DEFAULT_TTL_SECONDS, now } = {}) {
  const issued = Math.floor(now ?? Date.now() / 1000);
  const claims = { sub };
  if (name !== undefined) claims.name = name;
  if (issuer !== undefined) claims.iss = issuer;
  if (audience !== undefined) claims.aud = audience;
  claims.iat = issued;
  claims.exp = issued + Math.trunc(ttl);
  const signingInput = `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}`;
  const signature = createHmac("sha256", secret).update(signingInput, "ascii").digest("base64url");
  return `${signingInput}.${signature}`;
}

function main(argv) {
  const { values: a } = parseArgs({
    args: argv,
    options: {
      "secret-file": { type: "string" },
      sub: { type: "string" },
      name: { type: "string" },
      iss: { type: "string" },
      aud: { type: "string" },
      ttl: { type: "string" },
      now: { type: "string" },
    },
  });
  if (!a["secret-file"] || !a.sub) {
    process.stderr.write(
      "usage: sign_login.mjs --secret-file FILE --sub ACCOUNT [--name NAME] [--iss ISSUER] [--aud AUDIENCE] [--ttl SECONDS] [--now SECONDS]\n",
    );
    return 2;
  }
  let secret;
  try {
    secret = readSecret(a["secret-file"]);
  } catch (e) {
    process.stderr.write(`sign_login: ${e.message}\n`);
    return 2;
  }
  const token = signLogin(secret, {
    sub: a.sub,
    name: a.name,
    issuer: a.iss,
    audience: a.aud,
    ttl: a.ttl === undefined ? DEFAULT_TTL_SECONDS : Number.parseInt(a.ttl, 10),
    now: a.now === undefined ? undefined : Number.parseInt(a.now, 10),
  });
  process.stdout.write(`${token}\n`);
  return 0;
}

// Run as a program (not imported): node sign_login.mjs ...
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  process.exitCode = main(process.argv.slice(2));
}
