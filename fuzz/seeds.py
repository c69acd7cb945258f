#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora, fuzz/corpus/<target>/ (committed; run
again after the protocol's examples change, then commit what changed).

    fuzz/seeds.py [SPARTS]     SPARTS: the command line, for game records (default build/tools/sparts)

parse_request: every message of the fenced examples of protocol/PROTOCOL.md and
the frame of every line of tests/protocol/good_messages.jsonl and
bad_messages.jsonl, and hostile frames: invalid UTF-8, deep nesting, huge
numbers, duplicate keys. parse_game_record: short records of every preset made
by `sparts record`, the example of docs/game-record.md, stacked deals, the
table's clock, and records that must be refused. archive_api: the URL forms of
the archive. game_apply: each preset's variants played out by the harness's
player, with probes between.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def fresh(target):
    shutil.rmtree(os.path.join(CORPUS, target), ignore_errors=True)


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# --- parse_request ---------------------------------------------------------------

def request_seeds():
    fresh("parse_request")
    seen = set()

    def add(name, data):
        key = data.encode("utf-8") if isinstance(data, str) else data
        if key in seen:
            return
        seen.add(key)
        write("parse_request", name, data)

    with open(os.path.join(ROOT, "protocol", "PROTOCOL.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    fence = re.compile(r"^```json (client|server)$")
    n = 0
    i = 0
    while i < len(lines):
        m = fence.match(lines[i].strip())
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        n += 1
        add(f"doc-{m.group(1)}-{n:03}.json", "\n".join(lines[i + 1:j]))
        i = j + 1

    for file in ("good_messages.jsonl", "bad_messages.jsonl"):
        with open(os.path.join(ROOT, "tests", "protocol", file), encoding="utf-8") as f:
            for k, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                entry = json.loads(line)
                add(f"{file.split('_')[0]}-{entry['dir']}-{k:03}.json", compact(entry["frame"]))

    hostile = {
        # Invalid UTF-8, in strings the parser echoes into its error messages and outside them.
        "utf8-name": b'{"type":"hello","protocol":1,"name":"\xff\xfe"}',
        "utf8-type": b'{"type":"\xc3\x28","id":1}',
        "utf8-id": b'{"type":"ping","id":"\xe2\x82"}',
        "utf8-table": b'{"type":"sit","id":2,"table":"t\xf0\x28\x8c\xbc"}',
        "utf8-card": b'{"type":"act","table":"t1","action":{"type":"play","card":"Q\xa0"}}',
        "utf8-preset": b'{"type":"create_table","ruleset":{"preset":"sp\xedades","options":{}}}',
        "utf8-option": b'{"type":"create_table","ruleset":{"preset":"spades","options":{"\xc0\xafx":1}}}',
        "utf8-key": b'{"type":"ping","\xf8\x88\x80\x80\x80":1}',
        "utf8-bare": b"\xff",
        "utf8-after": b'{"type":"ping"}\xff',
        "utf8-overlong": b'{"type":"hello","protocol":1,"name":"\xc0\x80"}',
        "utf8-surrogate": b'{"type":"hello","protocol":1,"name":"\xed\xa0\x80"}',
        "escape-surrogate": b'{"type":"hello","protocol":1,"name":"\\ud800"}',
        "escape-nul": b'{"type":"hello","protocol":1,"name":"a\\u0000b"}',
        "nul-byte": b'{"type":"ping"}\x00',
        "bom": b'\xef\xbb\xbf{"type":"ping","id":1}',
        "empty": b"",
        "space": b" \n\t",
        "truncated": b'{"type":"act","table":"t1","action":{"type":"play","card":"Q',
        # Deep nesting: at, just past and far past the 64 levels json_text.hpp allows.
        "deep-64": ("[" * 64 + "]" * 64).encode(),
        "deep-65": ("[" * 65 + "]" * 65).encode(),
        "deep-object": ('{"a":' * 70 + "1" + "}" * 70).encode(),
        "deep-unclosed": ("[" * 3000).encode(),
        "deep-in-request": ('{"type":"ping","id":1,"x":' + "[" * 63 + "]" * 63 + "}").encode(),
        "brackets-in-string": ('{"type":"hello","protocol":1,"name":"' + "[" * 100 + '"}').encode(),
        "escaped-quote": ('{"type":"hello","protocol":1,"name":"\\"' + "[" * 80 + '"}').encode(),
        # Huge and odd numbers where whole numbers are expected.
        "huge-id": b'{"type":"ping","id":184467440737095516160000}',
        "u64-id": b'{"type":"ping","id":18446744073709551615}',
        "i64-min-id": b'{"type":"ping","id":-9223372036854775808}',
        "float-id": b'{"type":"ping","id":1.5}',
        "exp-protocol": b'{"type":"hello","protocol":1e400,"name":"Ann"}',
        "neg-zero-seat": b'{"type":"sit","table":"t1","seat":-0}',
        "big-seat": b'{"type":"sit","table":"t1","seat":4294967296}',
        "float-seat": b'{"type":"sit","table":"t1","seat":1.0}',
        "huge-bid": b'{"type":"act","table":"t1","action":{"type":"bid","bid":1e308}}',
        "bid-128": b'{"type":"act","table":"t1","action":{"type":"bid","bid":128}}',
        "neg-bid": b'{"type":"act","table":"t1","action":{"type":"bid","bid":-1}}',
        "huge-seq": b'{"type":"resume","table":"t1","seq":18446744073709551616}',
        "neg-seq": b'{"type":"resume","table":"t1","seq":-1}',
        "huge-turn": b'{"type":"create_table","ruleset":{"preset":"spades","options":{}},"turn_seconds":99999999999999999999}',
        "huge-option": b'{"type":"create_table","ruleset":{"preset":"spades","options":{"target_score":1e30}}}',
        "nan-speed": b'{"type":"replay","table":"t1","game":1,"speed":-1e-400}',
        "huge-speed": b'{"type":"replay","table":"t1","game":1,"speed":1.8e308}',
        "seek-huge": b'{"type":"replay_control","kind":"seek","position":99999999999}',
        # Duplicate keys: the last one counts.
        "dup-type": b'{"type":"ping","type":"hello","protocol":1,"name":"Ann"}',
        "dup-id": b'{"type":"ping","id":1,"id":"x"}',
        "dup-card": b'{"type":"act","table":"t1","action":{"type":"play","card":"QS","card":"QX"}}',
        "dup-options": b'{"type":"create_table","ruleset":{"preset":"sparts","options":{"seats":5,"seats":11}}}',
        "long-id": ('{"type":"ping","id":"' + "x" * 65 + '"}').encode(),
        "long-name": ('{"type":"hello","protocol":1,"name":"' + "\u00e9" * 33 + '"}').encode("utf-8"),
        "control-name": b'{"type":"hello","protocol":1,"name":"a\\u007fb"}',
    }
    for name, data in hostile.items():
        add(f"hostile-{name}.json", data)


# --- parse_game_record -------------------------------------------------------------

RECORDS = [
    ("sparts", ["hands=1"]),
    ("sparts", ["seats=5", "hands=1"]),
    ("spartsel", ["seats=6", "decks=2", "jokers=2", "hands=1"]),
    ("spartsel", ["seats=7", "secret_bids=true", "multi_pass=back", "hands=1"]),
    ("spartsel", ["seats=2", "hands=1"]),
    ("bga-sparts", ["hand_cap=1"]),
    ("spades", ["hand_cap=1"]),
    ("worldwinner-spades", ["hand_cap=1"]),
]


def record_seeds(sparts):
    fresh("parse_game_record")
    for k, (preset, options) in enumerate(RECORDS, 1):
        args = [sparts, "record", "--preset", preset, "--seed", str(1000 + k)]
        for o in options:
            args += ["--option", o]
        text = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        write("parse_game_record", f"record-{k:02}-{preset}.json", text)

    # The table's clock: a spades game stopped after its first trick, unfinished (no result).
    text = subprocess.run([sparts, "record", "--preset", "spades", "--option", "game_clock=600", "--option",
                           "hand_cap=1", "--seed", "77"], check=True, capture_output=True, text=True).stdout
    record = json.loads(text)
    record["actions"] = record["actions"][:8] + [{"seat": "table", "type": "clock_expired"}]
    del record["result"]
    record["seats"] = [{"name": n} for n in ("Ann", "Bo", "Zo\u00eb", "\u674e")]
    write("parse_game_record", "clock-unfinished.json", json.dumps(record, ensure_ascii=False))

    # docs/game-record.md's example, its "..." line left out (its actions are then refused).
    with open(os.path.join(ROOT, "docs", "game-record.md"), encoding="utf-8") as f:
        doc = f.read()
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    example = "\n".join(l for l in example.split("\n") if l.strip() != "...")
    write("parse_game_record", "docs-example.json", example)

    # Stacked deals: each seat one suit (spades), no actions yet.
    suits = "CDHS"
    ranks = "23456789TJQKA"
    deals = [{"hands": [[r + s for r in ranks] for s in suits], "center": []}]
    write("parse_game_record", "stacked-deal.json", compact({
        "format": "sparts-game-record", "version": 1, "ruleset": {"preset": "spades", "options": {}},
        "seed": 5, "deals": deals, "actions": [{"seat": 1, "type": "bid", "bid": "nil"}]}))
    # Records to refuse: another version, a seed past 64 bits, a seat past 9, a result of the wrong size.
    base = {"format": "sparts-game-record", "version": 1, "ruleset": {"preset": "sparts", "options": {}},
            "seed": "1", "actions": []}
    bad = {
        "version-2": dict(base, version=2),
        "seed-65-bits": dict(base, seed="18446744073709551616"),
        "seed-negative": dict(base, seed=-1),
        "seat-10": dict(base, actions=[{"seat": 10, "type": "play", "card": "2C"}]),
        "result-size": dict(base, result={"scores": [1], "ranks": [1], "reason": "hand_cap"}),
        "unknown-member": dict(base, extra=True),
    }
    for name, value in bad.items():
        write("parse_game_record", f"bad-{name}.json", compact(value))


# --- archive_api ---------------------------------------------------------------------

def archive_seeds():
    fresh("archive_api")
    targets = [
        "/api/games", "/api/games/", "/api/games?limit=1", "/api/games?limit=2&cursor=1700000060000/t2/1",
        "/api/games?player=p1&preset=spades&limit=10", "/api/games?player=p2", "/api/games?preset=worldwinner-spades",
        "/api/games?from=1700000000000&to=1800000000000", "/api/games?from=0&to=1", "/api/games?limit=500",
        "/api/games?limit=0", "/api/games?limit=501", "/api/games?cursor=x", "/api/games?cursor=1/a/b/1",
        "/api/games?cursor=9007199254740992/t1/1", "/api/games?player=Zo%C3%AB+x", "/api/games?player=%zz",
        "/api/games?player=%4", "/api/games?&&=&player", "/api/games?color=red", "/api/games/t1/1",
        "/api/games/t1/2", "/api/games/t2/1", "/api/games/t1/1/record", "/api/games/t1/2/record",
        "/api/games/t2/1/record", "/api/games/t1/3", "/api/games/t1/0", "/api/games/t1/1000001",
        "/api/games/t1/1/records", "/api/games/t1", "/api/games//1", "/api/games/" + "t" * 33 + "/1",
        "/api/games/t1/1?x=1", "/api/other", "/api/", "/api/games/%74%31/1",
        # Bytes that are not UTF-8, encoded and raw: echoed into the JSON of an error.
        "/api/games?%ff=1", "/api/games?player=%ff%fe", "/api/games?preset=%c3%28", "/api/games?x%e2%82=1",
        "/api/games/\xff\xfe/1", "/api/games/t1/\xff", "/api/games?\xff\xfe=1", "/api/games?player=\xc3",
        "/api/games/t1/1/record\xff",
        # The ratings' pages, as the archive hands them on.
        "/api/leaderboard/spades", "/api/leaderboard/spades?limit=10", "/api/leaderboard/sparts?limit=0",
        "/api/leaderboard/spades?cursor=1500.5/p0123456789abcdef", "/api/leaderboard/spades?cursor=x",
        "/api/leaderboard/nope", "/api/leaderboard/", "/api/leaderboard/spades?limit=101&x=1",
        "/api/players/p0123456789abcdef", "/api/players/p0123", "/api/players/", "/api/players/p0123456789abcdef?x=1",
        "/api/players/%70%30", "/api/players/\xff",
    ]
    for k, t in enumerate(targets, 1):
        write("archive_api", f"target-{k:02}", t.encode("latin-1"))


# --- game_apply ----------------------------------------------------------------------

VARIANTS = {0: 4, 1: 6, 2: 35, 3: 5, 4: 3}  # preset index (fuzz/game_apply.cpp): variants (tests/support/variants.hpp)


def game_seeds():
    fresh("game_apply")
    k = 0
    for preset, count in VARIANTS.items():
        for variant in range(0, count, 1 if count < 8 else 4):
            k += 1
            seed = struct.pack(">Q", 1000003 * k + 17)
            head = bytes([preset, variant]) + seed
            # The harness's player to the end (op 11: up to 256 actions), a probe and an exhaustive probe between.
            write("game_apply", f"play-{preset}-{variant:02}", head + bytes([11, 255, 9, 3, 7, 14, 11, 255] * 12))
            # Legal moves chosen byte by byte (op 0), any actions (op 6), the clock (op 15).
            body = bytes([0, 1, 2, 0, 3, 5, 6, 3, 2, 40, 0, 0, 7, 0, 1, 4, 0, 2, 2] * 6) + bytes([15, 0, 0])
            write("game_apply", f"mixed-{preset}-{variant:02}", head + body)
        # Options of the input's own (byte 1 from 192): 3 options, each its index and value bytes.
        for k2 in range(3):
            options = bytes([192 + k2, 3]) + bytes((7 * k2 + 11 * i) % 256 for i in range(3 * 4))
            seed = struct.pack(">Q", 7919 * (k2 + 1) + preset)
            write("game_apply", f"options-{preset}-{k2}", bytes([preset]) + options + seed + bytes([11, 255] * 8))


# --- proxy_header, login, admin_request, settings_file, display_text --------------------

PROXY_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


def proxy_seeds():
    fresh("proxy_header")
    v4 = bytes([203, 0, 113, 7, 10, 0, 0, 1]) + struct.pack(">HH", 51234, 8080)
    v6 = bytes(range(16)) + bytes(range(16, 32)) + struct.pack(">HH", 443, 8080)
    tlv = bytes([0x01, 0, 2]) + b"h2" + bytes([0x05, 0, 4]) + b"uid1"
    seeds = {
        "v4": PROXY_SIGNATURE + bytes([0x21, 0x11]) + struct.pack(">H", len(v4)) + v4,
        "v4-tlvs": PROXY_SIGNATURE + bytes([0x21, 0x11]) + struct.pack(">H", len(v4 + tlv)) + v4 + tlv,
        "v6": PROXY_SIGNATURE + bytes([0x21, 0x21]) + struct.pack(">H", len(v6)) + v6,
        "local": PROXY_SIGNATURE + bytes([0x20, 0x00]) + struct.pack(">H", 0),
        "unspec": PROXY_SIGNATURE + bytes([0x21, 0x00]) + struct.pack(">H", 0),
        "short-v4": PROXY_SIGNATURE + bytes([0x21, 0x11]) + struct.pack(">H", 4) + v4[:4],
        "too-long": PROXY_SIGNATURE + bytes([0x21, 0x11]) + struct.pack(">H", 65535),
        "version-1": PROXY_SIGNATURE + bytes([0x11, 0x11]) + struct.pack(">H", len(v4)) + v4,
        "udp": PROXY_SIGNATURE + bytes([0x21, 0x12]) + struct.pack(">H", len(v4)) + v4,
        "v1-text": b"PROXY TCP4 203.0.113.7 10.0.0.1 51234 8080\r\n",
        "http": b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    }
    for name, data in seeds.items():
        write("proxy_header", name, data)


def b64url(data):
    import base64
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def login_seeds():
    fresh("login")
    header = '{"alg":"HS256","typ":"JWT"}'
    claims = '{"sub":"alice","name":"Alice","exp":1900000000}'
    signed = {  # mode 1: header and claims, signed by the target
        "good": (header, claims),
        "nbf": (header, '{"sub":"alice","exp":1900000000,"nbf":1700000000,"iss":"x","aud":["a","b"]}'),
        "expired": (header, '{"sub":"alice","exp":1000}'),
        "sub-twice": (header, '{"sub":"alice","sub":"admin","exp":1900000000}'),
        "alg-twice": ('{"alg":"HS256","alg":"none"}', claims),
        "alg-none": ('{"alg":"none"}', claims),
        "rs256": ('{"alg":"RS256"}', claims),
        "array": (header, '["sub","alice"]'),
        "no-sub": (header, '{"exp":1900000000}'),
        "long-name": (header, '{"sub":"alice","name":"' + "n" * 200 + '","exp":1900000000}'),
        "exp-string": (header, '{"sub":"alice","exp":"1900000000"}'),
        "fraction": (header, '{"sub":"a","exp":1900000000.5}'),
    }
    for name, (h, c) in signed.items():
        write("login", "signed-" + name, b"\x01" + h.encode() + b"\n" + c.encode())
    raw = {  # mode 0: the token as sent
        "unsigned": b64url(header.encode()) + "." + b64url(claims.encode()) + ".",
        "garbage": "not.a.token",
        "two-dots-nul": b64url(header.encode()) + "." + b64url(claims.encode()) + ".sig\x00junk",
        "four-parts": "a.b.c.d",
        "bad-b64": "e.e.e",
    }
    for name, token in raw.items():
        write("login", "raw-" + name, b"\x00" + token.encode("latin-1"))


def admin_seeds():
    fresh("admin_request")
    GET, POST, DELETE, PUT = 0, 1, 2, 3
    player = "p0123456789abcdef"
    seeds = {
        "tables": (GET, "/admin/tables", ""),
        "connections": (GET, "/admin/connections", ""),
        "close": (POST, "/admin/tables/t1/close", ""),
        "close-empty-object": (POST, "/admin/tables/t1/close", "{}"),
        "close-bad-body": (POST, "/admin/tables/t1/close", '{"now":true}'),
        "close-bad-table": (POST, "/admin/tables/t!1/close", ""),
        "remove": (POST, "/admin/tables/t1/remove", '{"player":"' + player + '"}'),
        "remove-bad": (POST, "/admin/tables/t1/remove", '{"player":"nobody"}'),
        "bans": (GET, "/admin/bans", ""),
        "ban": (POST, "/admin/bans", '{"player":"' + player + '","reason":"  spam \\u00e9 "}'),
        "ban-control": (POST, "/admin/bans", '{"player":"' + player + '","reason":"a\\nb"}'),
        "ban-twice": (POST, "/admin/bans", '{"player":"' + player + '","player":"p1111111111111111"}'),
        "unban": (DELETE, "/admin/bans/" + player, ""),
        "unban-bad": (DELETE, "/admin/bans/x", ""),
        "broadcast": (POST, "/admin/broadcast", '{"text":"The server restarts at noon."}'),
        "broadcast-blank": (POST, "/admin/broadcast", '{"text":"\\u200b "}'),
        "broadcast-long": (POST, "/admin/broadcast", '{"text":"' + "x" * 600 + '"}'),
        "put": (PUT, "/admin/tables", ""),
        "get-body": (GET, "/admin/tables", "{}"),
        "unknown": (GET, "/admin/secrets", ""),
        "deep": (POST, "/admin/broadcast", "[" * 100),
    }
    for name, (method, path, body) in seeds.items():
        write("admin_request", name, bytes([method]) + path.encode() + b"\n" + body.encode())


def settings_seeds():
    fresh("settings_file")
    write("settings_file", "every-kind", "\n".join([
        "# the operator's settings", "port = 9000", "address = 0.0.0.0", "database = none", "log-level = debug",
        "trusted-proxies = 127.0.0.1, 10.0.0.0/8", "proxy-protocol = v2", "guests = on", "tables-per-address = 16",
        "webhook-concurrency = 4", "webhook-queue = 1000", "quick-play-while-seated = off", ""]))
    write("settings_file", "bad-number", "port = 70000\n")
    write("settings_file", "bad-choice", "guests = maybe\n")
    write("settings_file", "unknown", "colour = red\n")
    write("settings_file", "sections", "[server]\nport = 1\n")
    write("settings_file", "zero-limit", "messages-per-second = 0\n")
    write("settings_file", "postgres", "database = postgresql://user:secret@db/sparts\nnode-id = n1\n")
    write("settings_file", "quotes", 'login-issuer = "https://host.example"\nadmin-token-file = \'/etc/token\'\n')


def text_seeds():
    fresh("display_text")
    texts = ["Ada", "Ada Lovelace", "Zoë", "李雷", "مريم", "🂡 ace", "\U0001F469\u200d\U0001F4BB Ada", "\u2764\ufe0f",
             "\u200bAdmin", "Ad\u200dmin", "\u206aAdmin", "\u180bx", "x\U0001D173", "\U00013430x", "\u0600x",
             "\u202eevil", " lead", "trail ", "a  b", "\u2800", "\u3164", "x" * 33, "hello, table!", "a\nb",
             "\u00a0 \u3000", "gg " * 120]
    for k, t in enumerate(texts, 1):
        write("display_text", f"text-{k:02}", t)
    write("display_text", "not-utf8", b"\xc3\x28 \xff")


def main():
    sparts = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tools", "sparts")
    request_seeds()
    record_seeds(sparts)
    archive_seeds()
    game_seeds()
    proxy_seeds()
    login_seeds()
    admin_seeds()
    settings_seeds()
    text_seeds()
    for target in sorted(os.listdir(CORPUS)):
        print(f"{target}: {len(os.listdir(os.path.join(CORPUS, target)))} seeds")


if __name__ == "__main__":
    main()
