#!/usr/bin/env python3
"""Checks protocol/openapi.yaml, and that a real sparts-server answers as it says.

    check_openapi.py --server PATH/sparts-server --bot PATH/sparts-bot [--openapi FILE]
    check_openapi.py --static-only [--openapi FILE]

(a) The document: it validates against the official JSON Schema of OpenAPI 3.1 documents
    (tests/protocol/oas31_schema.py, a copy: no network needed), every $ref in it resolves (to
    a place in the document, or to a file under protocol/ and a place in it), every path
    parameter of a path template is declared, and every schema it uses (and every JSON Schema
    under protocol/schemas/) compiles as draft 2020-12.
(b) The server: starts sparts-server on a free port with a fresh SQLite database, plays two short
    games with sparts-bot (a one-hand sparts game and a spades game to 50), then calls every
    endpoint: the list with each parameter, paging with the cursor, a game, a record, a missing
    game (404), bad parameters (400); after a rated game of two people (two sparts-bots), the
    leaderboard (paged) and the player page, an unknown player (404) and bad input (400); past
    the archive's rate limit (429), a second server with --database none (503), /healthz,
    /readyz and /metrics; the admin API (the first server has an --admin-token-file): each
    operation, its 400, 401, 404 and 429, and on the second server, which has none, the 404 and
    405 of a server without it. Each answer's status must be one the
    document gives for that path, its Content-Type one the document gives for that status, its
    documented headers must match their schemas, and its body must validate against the schema
    the document gives (jsonschema, with a registry of protocol/schemas/ for the $refs).

Exits 0 when everything matches, 1 on any mismatch (each printed), 2 on bad usage, 77 (a CTest
skip) when a Python module is missing (python3-yaml, python3-jsonschema).
"""
import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from urllib.parse import urldefrag, urljoin, quote

try:
    import yaml
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError as e:  # pragma: no cover
    print(f"check_openapi.py: a Python module is missing: {e} (Debian: python3-yaml, python3-jsonschema)",
          file=sys.stderr)
    sys.exit(77)
try:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError:  # jsonschema < 4.18 (Debian bookworm's 4.10): RefResolver, as validate_messages.py does
    Registry = None

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL = os.path.normpath(os.path.join(HERE, "..", "..", "protocol"))
# The schemas' $ids are https://sparts.invalid/protocol/schemas/...: a file ref of openapi.yaml
# (relative to protocol/) is that base joined with the ref.
BASE = "https://sparts.invalid/protocol/openapi.yaml"

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


# --- the document -------------------------------------------------------------------------------

def load_schemas():
    """Every JSON Schema under protocol/schemas/: {$id: schema}, each checked as draft 2020-12."""
    by_id = {}
    for folder, _, names in os.walk(os.path.join(PROTOCOL, "schemas")):
        for n in sorted(names):
            if not n.endswith(".json"):
                continue
            full = os.path.join(folder, n)
            with open(full, encoding="utf-8") as f:
                schema = json.load(f)
            try:
                Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as e:
                fail(f"{full}: not a valid draft 2020-12 schema: {e.message}")
            rel = os.path.relpath(full, PROTOCOL).replace(os.sep, "/")
            want = urljoin(BASE, rel)
            if schema.get("$id") != want:
                fail(f"{full}: $id should be {want}, is {schema.get('$id')}")
            by_id[want] = schema
    return by_id


def pointer(doc, frag, where):
    """The node at JSON pointer frag ('' or '/a/b') in doc, or None (and a failure)."""
    node = doc
    for part in [p for p in frag.split("/")[1:]] if frag else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            fail(f"{where}: $ref #{frag} does not resolve")
            return None
    return node


def check_refs(node, base, doc, by_id, where, seen):
    """Every $ref under node (in doc, whose URI is base) resolves; file refs are followed once."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            target, frag = urldefrag(urljoin(base, ref))
            if target == base:
                pointer(doc, frag, where)
            elif target not in by_id:
                fail(f"{where}: $ref {ref} names no file under protocol/ ({target})")
            else:
                if pointer(by_id[target], frag, f"{where} -> {ref}") is not None and target not in seen:
                    seen.add(target)
                    check_refs(by_id[target], target, by_id[target], by_id, target, seen)
        for k, v in node.items():
            if k != "$ref":
                check_refs(v, base, doc, by_id, f"{where}/{k}", seen)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            check_refs(v, base, doc, by_id, f"{where}/{i}", seen)


def deref(doc, node):
    """node with the document's own $refs (#/components/...) replaced by what they name, to any depth."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        node = pointer(doc, node["$ref"][1:], "deref")
    return node


def absolute(schema):
    """A schema of the document made standalone: its file $refs made absolute, its own inlined."""
    if isinstance(schema, dict):
        out = {}
        for k, v in schema.items():
            if k == "$ref" and isinstance(v, str) and not v.startswith("#"):
                out[k] = urljoin(BASE, v)
            else:
                out[k] = absolute(v)
        return out
    if isinstance(schema, list):
        return [absolute(v) for v in schema]
    return schema


def check_document(doc, by_id):
    from oas31_schema import SCHEMA
    v = Draft202012Validator(SCHEMA)
    for e in sorted(v.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        fail(f"openapi.yaml does not validate as OpenAPI 3.1 at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
    if not str(doc.get("openapi", "")).startswith("3.1."):
        fail("openapi.yaml: openapi is not 3.1.x")
    check_refs(doc, BASE, doc, by_id, "openapi.yaml#", set())
    ops = 0
    for path, item in doc.get("paths", {}).items():
        names = set(re.findall(r"\{([^}]+)\}", path))
        common = [deref(doc, p) for p in item.get("parameters", [])]
        for method in ("get", "put", "post", "delete", "patch", "head", "options", "trace"):
            op = item.get(method)
            if not op:
                continue
            ops += 1
            params = common + [deref(doc, p) for p in op.get("parameters", [])]
            declared = {p["name"] for p in params if p and p.get("in") == "path"}
            if declared != names:
                fail(f"{method.upper()} {path}: path parameters {sorted(declared)}, template has {sorted(names)}")
            for p in params:
                if p and "schema" in p:
                    compile_schema(p["schema"], f"{path} parameter {p['name']}")
            for status, resp in op.get("responses", {}).items():
                resp = deref(doc, resp)
                if not resp.get("content"):
                    fail(f"{method.upper()} {path} {status}: no content (every answer has a body)")
                for ctype, media in (resp.get("content") or {}).items():
                    if "schema" not in media:
                        fail(f"{method.upper()} {path} {status} {ctype}: no schema")
                    else:
                        compile_schema(deref(doc, media["schema"]), f"{path} {status} {ctype}")
                for h, hdr in (resp.get("headers") or {}).items():
                    compile_schema(deref(doc, hdr).get("schema", {}), f"{path} {status} header {h}")
    if ops == 0:
        fail("openapi.yaml: no operations")
    return ops


REGISTRY = None
BY_ID = {}  # the schemas by $id, for RefResolver where there is no referencing library


_validators = {}  # by the schema's JSON: one compile for the hundreds of answers of one kind
FAST = None  # validate_messages.Schemas: bundled validators of protocol/schemas files (check_logged)


def body_validator(schema):
    """A response body's validator: for a schema that is one file of protocol/schemas, the bundled
    one validate_messages.py makes (its discriminated oneOf checks an event against its own schema
    only: the thousands of events of the archived games the tests fetched took minutes otherwise)."""
    ref = schema.get("$ref") if isinstance(schema, dict) and len(schema) == 1 else None
    if FAST is not None and isinstance(ref, str) and ref.startswith("schemas/") and "#" not in ref:
        v = FAST.validator(ref[len("schemas/"):])
        if v is not None:
            return v
    return validator(schema)


def validator(schema):
    key = json.dumps(schema, sort_keys=True)
    if key not in _validators:
        _validators[key] = _make_validator(schema)
    return _validators[key]


def _make_validator(schema):
    s = dict(absolute(DOC_DEREF(schema)))
    s.setdefault("$schema", "https://json-schema.org/draft/2020-12/schema")
    if Registry is None:
        resolver = jsonschema.RefResolver(base_uri=s.get("$id", ""), referrer=s, store=dict(BY_ID))
        return Draft202012Validator(s, resolver=resolver, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return Draft202012Validator(s, registry=REGISTRY, format_checker=Draft202012Validator.FORMAT_CHECKER)


def compile_schema(schema, where):
    try:
        v = validator(schema)
        Draft202012Validator.check_schema(v.schema)
        # Resolve every file $ref now (a dangling one would only show when validating).
        for ref in re.findall(r'"\$ref": "(https://[^"]+)"', json.dumps(v.schema)):
            if REGISTRY is not None:
                REGISTRY.resolver().lookup(ref)
            else:
                v.resolver.resolve(ref)
    except Exception as e:  # noqa: BLE001 - any failure to compile is a failure of the document
        fail(f"{where}: the schema does not compile: {e}")


# --- the server ---------------------------------------------------------------------------------

class Server:
    def __init__(self, exe, db, log, extra=()):
        self.log = open(log, "w+")
        self.proc = subprocess.Popen([exe, "--port", "0", "--database", db, "--bot-delay-ms", "0",
                                      "--log-level", "warn", *extra], stdout=self.log, stderr=subprocess.STDOUT)
        self.port = None
        deadline = time.monotonic() + 10
        text = ""
        while time.monotonic() < deadline and self.port is None and self.proc.poll() is None:
            time.sleep(0.05)
            with open(log) as f:
                text = f.read()
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", text)
            if m:
                self.port = int(m.group(1))
        if self.port is None:
            self.stop()
            raise SystemExit(f"the server did not start: {text[-2000:]}")

    def get(self, target, method="GET", body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        c.request(method, target, body=body, headers=headers or {})
        r = c.getresponse()
        body = r.read()
        headers = {k.lower(): v for k, v in r.getheaders()}
        c.close()
        return r.status, headers, body

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def template_of(doc, target):
    """The path template of doc that a request path matches."""
    path = target.split("?")[0]
    for t in doc["paths"]:
        rx = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(t)) + "$"
        if re.match(rx, path):
            return t
    return None


checked = set()  # (method, template, status)
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def call(doc, server, target, want_status, check=None, method="GET", body=None, headers=None):
    """Asks for target (GET, or `method` with a JSON `body`) and checks the answer against the
    document; returns the parsed body (or text)."""
    if body is not None:
        body = body if isinstance(body, str) else json.dumps(body)
        headers = {"Content-Type": "application/json", **(headers or {})}
    status, answer_headers, raw = server.get(target, method, body, headers)
    where = f"{method} {target} -> {status}"
    if status != want_status:
        fail(f"{where}: expected {want_status}: {raw[:300]!r}")
    return check_answer(doc, target, status, answer_headers, raw, where, want_status, check, method)


def check_answer(doc, target, status, headers, raw, where, want_status=None, check=None, method="GET"):
    """An answer (status, headers with lower-case names, body bytes) against the document."""
    t = template_of(doc, target)
    if t is None:
        fail(f"{where}: no path of openapi.yaml matches")
        return None
    op = doc["paths"][t].get(method.lower())
    if op is None:
        fail(f"{where}: openapi.yaml has no {method} for {t}")
        return None
    resp = op["responses"].get(str(status))
    if resp is None:
        fail(f"{where}: openapi.yaml gives no {status} for {method} {t} (it gives {sorted(op['responses'])})")
        return None
    checked.add((method.upper(), t, str(status)))
    resp = deref(doc, resp)
    ctype = headers.get("content-type", "").split(";")[0].strip()
    media = resp.get("content", {}).get(ctype)
    if media is None:
        fail(f"{where}: Content-Type {ctype!r} is not one openapi.yaml gives ({sorted(resp.get('content', {}))})")
        return None
    for h, hdr in (resp.get("headers") or {}).items():
        hdr = deref(doc, hdr)
        value = headers.get(h.lower())
        if value is None:
            fail(f"{where}: no {h} header")
            continue
        s = deref(doc, hdr.get("schema", {}))
        if s.get("type") == "integer":
            try:
                value = int(value)
            except ValueError:
                pass
        for e in validator(s).iter_errors(value):
            fail(f"{where}: header {h}: {e.message[:300]}")
    text = raw.decode("utf-8")
    if ctype == "application/json":
        try:
            body = json.loads(text)
        except json.JSONDecodeError as e:
            fail(f"{where}: not JSON: {e}")
            return None
    else:
        body = text
    errors = sorted(body_validator(media["schema"]).iter_errors(body), key=lambda e: list(map(str, e.absolute_path)))
    for e in errors[:10]:
        fail(f"{where}: body at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
    if check and not errors and (want_status is None or status == want_status):
        problem = check(body)
        if problem:
            fail(f"{where}: {problem}")
    return body


def play(bot, port, args):
    started = time.monotonic()
    r = subprocess.run([bot, "--port", str(port), "--timeout-seconds", "15", "--quiet", *args],
                       capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise SystemExit(f"sparts-bot {' '.join(args)} exited {r.returncode}: {r.stdout}{r.stderr}")
    return time.monotonic() - started


def play_people(bot, port, table, preset, options):
    """A rated game: two sparts-bots, two people, at a table of two seats the first creates (the
    server's next table, `table`: the second waits for it to be there, as sparts-bot does)."""
    args = [bot, "--port", str(port), "--timeout-seconds", "15", "--quiet"]
    second = subprocess.Popen([*args, "--name", "bob", "--table", table, "--start"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = subprocess.run([*args, "--name", "ann", "--create", preset, "--server-bots", "0",
                            *[x for o in options for x in ("--option", o)]],
                           capture_output=True, text=True, timeout=30)
    out, _ = second.communicate(timeout=30)
    if second.returncode != 0 or first.returncode != 0:
        raise SystemExit(f"the rated game's sparts-bots exited {first.returncode} and {second.returncode}: "
                         f"{first.stdout}{first.stderr}{out}")


def ratings(doc, s):
    """The leaderboard and the player page, after a rated game of spartsel (ann and bob)."""
    board = call(doc, s, "/api/leaderboard/spartsel", 200,
                 lambda b: None if [p["rank"] for p in b["players"]] == [1, 2] and b["next_cursor"] is None
                 else f"expected two players ranked 1 and 2: {b}")
    if not board or len(board.get("players", [])) != 2:
        return
    page = call(doc, s, "/api/leaderboard/spartsel?limit=1", 200,
                lambda b: None if len(b["players"]) == 1 and b["next_cursor"] else "limit=1 did not page")
    if page and page.get("next_cursor"):
        call(doc, s, "/api/leaderboard/spartsel?limit=1&cursor=" + quote(page["next_cursor"], safe=""), 200,
             lambda b: None if [p["rank"] for p in b["players"]] == [2] and b["next_cursor"] is None
             else "the second page is not the second player")
    call(doc, s, "/api/leaderboard/spades?min_games=1", 200,
         lambda b: None if b["players"] == [] else "a game with server bots was rated")
    for bad in ("nonsense", "spartsel?limit=0", "spartsel?cursor=nonsense", "spartsel?bogus=1"):
        call(doc, s, "/api/leaderboard/" + bad, 400, lambda b: None if b["error"] == "bad_parameter" else b["error"])
    player = board["players"][0]["player"]
    call(doc, s, "/api/players/" + player, 200,
         lambda b: None if b["player"] == player and [r["preset"] for r in b["ratings"]] == ["spartsel"]
         and b["ratings"][0]["games"] == 1 else f"not the player's spartsel rating: {b}")
    call(doc, s, "/api/players/p0000000000000000", 404,
         lambda b: None if b["error"] == "no_such_player" else b["error"])
    call(doc, s, "/api/players/bad%21id", 400, lambda b: None if b["error"] == "bad_parameter" else b["error"])
    return player


def exercise(doc, server_exe, bot_exe):
    tmp = tempfile.mkdtemp(prefix="check_openapi.")
    servers = []
    try:
        token_file = os.path.join(tmp, "admin-token")
        with open(token_file, "w") as f:
            f.write(ADMIN_TOKEN + "\n")
        os.chmod(token_file, 0o600)
        s = Server(server_exe, os.path.join(tmp, "sparts.db"), os.path.join(tmp, "server.log"),
                   ["--archive-reads-per-minute", "40", "--admin-token-file", token_file])
        servers.append(s)
        play(bot_exe, s.port, ["--create", "sparts", "--option", "hands=1"])
        play(bot_exe, s.port, ["--create", "spades", "--option", "target_score=50"])

        page = call(doc, s, "/api/games", 200, lambda b: None if len(b["games"]) == 2 else f"{len(b['games'])} games, expected 2")
        if not page or len(page.get("games", [])) != 2:
            return
        games = page["games"]
        player = next(p["player"] for p in games[0]["players"] if p and "player" in p)
        call(doc, s, "/api/games?player=" + quote(player), 200,
             lambda b: None if b["games"] and all(any(p and p.get("player") == player for p in g["players"]) for g in b["games"])
             else "player= did not narrow the list to that player's games")
        call(doc, s, "/api/games?player=p0000000000000000", 200, lambda b: None if b["games"] == [] else "an unknown player has games")
        call(doc, s, "/api/games?preset=spades", 200,
             lambda b: None if len(b["games"]) == 1 and b["games"][0]["preset"] == "spades" else "preset= did not narrow the list")
        first = min(g["finished"] for g in games)
        call(doc, s, f"/api/games?from={first + 1}", 200,
             lambda b: None if all(g["finished"] > first for g in b["games"]) else "from= did not narrow the list")
        call(doc, s, f"/api/games?from=0&to={first + 1}", 200,
             lambda b: None if b["games"] and all(g["finished"] <= first for g in b["games"]) else "to= did not narrow the list")
        # Paging: a page at a time with limit=1 and the cursor, until next_cursor is null.
        seen, target = [], "/api/games?limit=1"
        for _ in range(5):
            b = call(doc, s, target, 200)
            if not b:
                break
            seen += [(g["table"], g["game"]) for g in b["games"]]
            if b["next_cursor"] is None:
                break
            target = "/api/games?limit=1&cursor=" + quote(b["next_cursor"], safe="")
        if sorted(seen) != sorted((g["table"], g["game"]) for g in games):
            fail(f"paging with limit=1 gave {seen}, expected the {len(games)} games of the list")
        for g in games:
            call(doc, s, f"/api/games/{g['table']}/{g['game']}", 200,
                 lambda b, g=g: None if b["table"] == g["table"] and b["game"] == g["game"] and b["events"] and b["hands"]
                 else "not the game asked for, or without events or hands")
            call(doc, s, f"/api/games/{g['table']}/{g['game']}/record", 200,
                 lambda b: None if b["actions"] and "result" in b else "a record without actions or result")
        table = games[0]["table"]
        call(doc, s, f"/api/games/{table}/999", 404, lambda b: None if b["error"] == "no_such_game" else b["error"])
        call(doc, s, f"/api/games/{table}/999/record", 404)
        call(doc, s, f"/api/games/{table}/abc", 404, lambda b: None if b["error"] == "not_found" else b["error"])
        call(doc, s, f"/api/games/{table}/0", 404)
        for bad in ("limit=0", "limit=501", "limit=x", "from=-1", "to=9007199254740993", "cursor=nonsense", "bogus=1", "player=%zz"):
            call(doc, s, "/api/games?" + bad, 400, lambda b: None if b["error"] == "bad_parameter" else b["error"])
        play_people(bot_exe, s.port, "t" + str(1 + max(int(g["table"][1:]) for g in games)), "spartsel",
                    ["seats=2", "hands=1"])
        player = ratings(doc, s) or "p0000000000000000"
        call(doc, s, "/healthz", 200)
        call(doc, s, "/readyz", 200)
        call(doc, s, "/metrics", 200, lambda b: None if "sparts_connections" in b else "no sparts_connections metric")
        admin(doc, s)
        # Past --archive-reads-per-minute (40): a 429 with Retry-After.
        for _ in range(60):
            status, _, _ = s.get("/api/games?limit=1")
            if status == 429:
                break
        call(doc, s, "/api/games", 429, lambda b: None if b["error"] == "rate_limited" else b["error"])
        call(doc, s, f"/api/games/{table}/1", 429)
        call(doc, s, f"/api/games/{table}/1/record", 429)
        call(doc, s, "/api/leaderboard/spartsel", 429)
        call(doc, s, "/api/players/" + player, 429)
        s.stop()

        none = Server(server_exe, "none", os.path.join(tmp, "server-none.log"))
        servers.append(none)
        call(doc, none, "/api/games", 503, lambda b: None if b["error"] == "no_archive" else b["error"])
        call(doc, none, f"/api/games/{table}/1", 503)
        call(doc, none, f"/api/games/{table}/1/record", 503)
        call(doc, none, "/api/leaderboard/spades", 503)
        call(doc, none, "/api/players/" + player, 503)
        call(doc, none, "/readyz", 200)
        # No --admin-token-file: no admin API, its paths are unknown paths.
        for target in ("/admin/tables", "/admin/connections", "/admin/bans"):
            call(doc, none, target, 404, headers=BEARER)
        call(doc, none, "/admin/broadcast", 405, method="POST", body={"text": "hi"}, headers=BEARER)
        call(doc, none, "/admin/bans", 405, method="POST", body={"player": "p0123456789abcdef"}, headers=BEARER)
        call(doc, none, "/admin/bans/p0123456789abcdef", 405, method="DELETE", headers=BEARER)
        call(doc, none, "/admin/tables/t1/close", 405, method="POST", headers=BEARER)
        call(doc, none, "/admin/tables/t1/remove", 405, method="POST", body={"player": "p0123456789abcdef"}, headers=BEARER)
    finally:
        for s in servers:
            s.stop()
        shutil.rmtree(tmp, ignore_errors=True)


ADMIN_TOKEN = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
BEARER = {"Authorization": "Bearer " + ADMIN_TOKEN}


def admin(doc, s):
    """The admin API on a server with the token, after the bots' games (their tables are open)."""
    def has(key):
        return lambda b: None if key in b else f"no {key}"
    listed = call(doc, s, "/admin/tables", 200, has("tables"), headers=BEARER)
    call(doc, s, "/admin/connections", 200, has("connections"), headers=BEARER)
    for target in ("/admin/tables?all=1", "/admin/connections?all=1", "/admin/bans?all=1"):
        call(doc, s, target, 400, lambda b: None if b["error"] == "bad_parameter" else b["error"], headers=BEARER)
    someone = "p0123456789abcdef"
    call(doc, s, "/admin/bans", 200, lambda b: None if b["bans"] == [] else "bans before any", headers=BEARER)
    call(doc, s, "/admin/bans", 200, lambda b: None if b["ban"]["player"] == someone else "another player banned",
         method="POST", body={"player": someone, "reason": "checking the document"}, headers=BEARER)
    call(doc, s, "/admin/bans", 200, lambda b: None if len(b["bans"]) == 1 else "the ban is not listed", headers=BEARER)
    call(doc, s, "/admin/bans", 400, lambda b: None if b["error"] == "bad_body" else b["error"],
         method="POST", body={"player": "mallory"}, headers=BEARER)
    call(doc, s, "/admin/bans/" + someone, 200, method="DELETE", headers=BEARER)
    call(doc, s, "/admin/bans/" + someone, 404, lambda b: None if b["error"] == "not_banned" else b["error"],
         method="DELETE", headers=BEARER)
    call(doc, s, "/admin/bans/" + someone, 400, method="DELETE", body={"x": 1}, headers=BEARER)
    call(doc, s, "/admin/broadcast", 200, has("connections"), method="POST", body={"text": "checking the document"},
         headers=BEARER)
    call(doc, s, "/admin/broadcast", 400, lambda b: None if b["error"] == "bad_json" else b["error"],
         method="POST", body="{", headers=BEARER)
    call(doc, s, "/admin/tables/t999999/close", 404, lambda b: None if b["error"] == "no_such_table" else b["error"],
         method="POST", headers=BEARER)
    call(doc, s, "/admin/tables/t999999/remove", 404, method="POST", body={"player": someone}, headers=BEARER)
    call(doc, s, "/admin/tables/t999999/remove", 400, method="POST", body={}, headers=BEARER)
    tables = (listed or {}).get("tables") or []
    if not tables:
        fail("GET /admin/tables listed none of the bots' tables")
    else:
        t = tables[0]["table"]
        call(doc, s, f"/admin/tables/{t}/remove", 404, lambda b: None if b["error"] == "not_seated" else b["error"],
             method="POST", body={"player": someone}, headers=BEARER)
        # (A 200 of remove needs a player seated: sparts-bot leaves its seat at the end. The end-to-end
        # tests remove players, and their answers are checked against this document too.)
        call(doc, s, f"/admin/tables/{t}/close", 400, method="POST", body={"now": True}, headers=BEARER)
        call(doc, s, f"/admin/tables/{t}/close", 200, lambda b: None if b == {"table": t, "closed": True} else "not closed",
             method="POST", body={}, headers=BEARER)
    # Wrong and missing tokens, then past --admin-auth-failures-per-minute (10): 429 for wrong and missing ones.
    wrong = {"Authorization": "Bearer " + "0" * 64}
    call(doc, s, "/admin/tables", 401, lambda b: None if b["error"] == "unauthorized" else b["error"])
    call(doc, s, "/admin/connections", 401, headers=wrong)
    call(doc, s, "/admin/bans", 401, headers=wrong)
    call(doc, s, "/admin/bans", 401, method="POST", body={"player": someone}, headers=wrong)
    call(doc, s, "/admin/bans/" + someone, 401, method="DELETE", headers=wrong)
    call(doc, s, "/admin/broadcast", 401, method="POST", body={"text": "x"}, headers=wrong)
    call(doc, s, "/admin/tables/t1/close", 401, method="POST", headers=wrong)
    call(doc, s, "/admin/tables/t1/remove", 401, method="POST", body={"player": someone}, headers=wrong)
    for _ in range(20):
        status, _, _ = s.get("/admin/bans", headers=wrong)
        if status == 429:
            break
    call(doc, s, "/admin/bans", 429, lambda b: None if b["error"] == "rate_limited" else b["error"], headers=wrong)
    call(doc, s, "/admin/tables", 429, headers=wrong)
    call(doc, s, "/admin/connections", 429)
    call(doc, s, "/admin/bans", 429, method="POST", body={"player": someone}, headers=wrong)
    call(doc, s, "/admin/bans/" + someone, 429, method="DELETE", headers=wrong)
    call(doc, s, "/admin/broadcast", 429, method="POST", body={"text": "x"}, headers=wrong)
    call(doc, s, "/admin/tables/t1/close", 429, method="POST", headers=wrong)
    call(doc, s, "/admin/tables/t1/remove", 429, method="POST", body={"player": someone}, headers=wrong)
    # The right token is compared first and served, limit or not: a guesser cannot lock the operator out.
    call(doc, s, "/admin/bans", 200, headers=BEARER)


def check_logged(doc, folder):
    """Every HTTP answer the end-to-end tests got (tests/server/http_client.cpp logs them under
    CTest) whose path the document describes is checked against it; the others are counted."""
    global FAST
    sys.path.insert(0, HERE)
    import validate_messages  # noqa: E402 - the frames' validator, for its bundled schemas
    FAST = validate_messages.Schemas(os.path.join(PROTOCOL, "schemas"))
    answers = outside = 0
    names = sorted(n for n in os.listdir(folder) if n.endswith(".jsonl")) if os.path.isdir(folder) else []
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                a = json.loads(line)
                method = a.get("method", "GET")
                t = template_of(doc, a["target"])
                # A method the path does not take (POST /metrics, PUT /admin/bans) is outside too.
                if t is None or method.lower() not in doc["paths"][t]:
                    outside += 1
                    continue
                answers += 1
                check_answer(doc, a["target"], a["status"], a["headers"], a["body"].encode("utf-8"),
                             f"{name}:{n}: {method} {a['target'][:100]} -> {a['status']}", method=method)
    print(f"{folder}: {answers} answers of the end-to-end tests checked against openapi.yaml "
          f"({outside} to paths or methods it does not describe: the web client's files, bad targets)")
    if answers == 0:
        fail(f"{folder}: no answer to check: were the end-to-end tests run?")


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().split("\n")[0])
    ap.add_argument("--openapi", default=os.path.join(PROTOCOL, "openapi.yaml"))
    ap.add_argument("--server")
    ap.add_argument("--bot")
    ap.add_argument("--static-only", action="store_true", help="check the document only (a)")
    ap.add_argument("--responses", help="a folder of the answers the end-to-end tests logged (*.jsonl): check them")
    args = ap.parse_args()
    if not args.static_only and not args.responses and not (args.server and args.bot):
        ap.error("--server and --bot are needed (or --static-only, or --responses)")
    started = time.monotonic()
    with open(args.openapi, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    global REGISTRY, DOC_DEREF, BY_ID
    by_id = load_schemas()
    BY_ID = by_id
    if Registry is not None:
        REGISTRY = Registry().with_resources((i, Resource.from_contents(s, default_specification=DRAFT202012))
                                             for i, s in by_id.items())

    def doc_deref(schema):
        if isinstance(schema, dict):
            schema = deref(doc, schema)
            return {k: doc_deref(v) for k, v in schema.items()}
        if isinstance(schema, list):
            return [doc_deref(v) for v in schema]
        return schema
    DOC_DEREF = doc_deref
    ops = check_document(doc, by_id)
    print(f"openapi.yaml: {ops} operations, {len(by_id)} schema files checked ({time.monotonic() - started:.1f} s)")
    if args.responses and not failures:
        check_logged(doc, args.responses)
    elif not args.static_only and not failures:
        exercise(doc, args.server, args.bot)
        documented = {(m.upper(), t, st) for t, item in doc["paths"].items() for m in METHODS if m in item
                      for st in item[m]["responses"]}
        print(f"{len(checked)} of {len(documented)} documented (method, path, status) exercised; not exercised: "
              + ", ".join(f"{m} {t} {st}" for m, t, st in sorted(documented - checked)))
    print(f"check_openapi: {'FAILED, ' + str(len(failures)) + ' problems' if failures else 'everything matches'}"
          f" ({time.monotonic() - started:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
