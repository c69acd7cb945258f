#!/usr/bin/env python3
"""Checks protocol/asyncapi.yaml, the AsyncAPI 3.1 document of the WebSocket protocol, for what
the AsyncAPI tools cannot know: that it names every message of this protocol, each once.

    check_asyncapi.py [--asyncapi FILE]

(validate_asyncapi.mjs validates it against the AsyncAPI specification with @asyncapi/parser.)

- The AsyncAPI 3 structure: `asyncapi: 3.1.0`, an info with title and version, channels each with
  an address and messages, operations each with `action` send or receive, a channel $ref naming a
  channel of the document and messages naming messages of that channel; every message of
  components has a payload; at least one send and one receive operation.
- Every JSON Schema file under protocol/schemas/client/, server/ and server/events/ is the payload
  of exactly one message (a $ref to it, directly or as the `event` of an event envelope): no
  message type is left out, none is named twice. Client schemas are only in `send` operations,
  server schemas only in `receive` ones.
- Every $ref resolves: the document's own ("#/...") to a node of it, a file ref to an existing
  file under protocol/ (and its fragment to a node of that file), and the $refs inside every
  schema file so reached, the same way.

Exits 0 when everything holds, 1 otherwise (each problem printed), 77 (a CTest skip) when
python3-yaml is missing.
"""
import argparse
import json
import os
import sys
from urllib.parse import urldefrag

try:
    import yaml
except ImportError:  # pragma: no cover
    print("check_asyncapi.py: the Python module yaml is missing (Debian: python3-yaml)", file=sys.stderr)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL = os.path.normpath(os.path.join(HERE, "..", "..", "protocol"))
problems = []


def fail(msg):
    problems.append(msg)
    print("FAIL: " + msg)


def pointer(doc, frag):
    node = doc
    for part in frag.split("/")[1:] if frag else []:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


files = {}  # absolute path -> parsed JSON


def load(path):
    if path not in files:
        with open(path, encoding="utf-8") as f:
            files[path] = json.load(f)
    return files[path]


def check_refs(node, here, doc, where, seen):
    """Every $ref under node (in the file `here`, parsed as doc) resolves."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            target, frag = urldefrag(ref)
            if not target:
                if pointer(doc, frag) is None:
                    fail(f"{where}: $ref {ref} does not resolve")
            else:
                path = os.path.normpath(os.path.join(os.path.dirname(here), target))
                if not os.path.isfile(path):
                    fail(f"{where}: $ref {ref}: no file {os.path.relpath(path, PROTOCOL)}")
                else:
                    other = load(path)
                    if pointer(other, frag) is None:
                        fail(f"{where}: $ref {ref}: #{frag} is not in {os.path.relpath(path, PROTOCOL)}")
                    if path not in seen:
                        seen.add(path)
                        check_refs(other, path, other, os.path.relpath(path, PROTOCOL), seen)
        for k, v in node.items():
            if k != "$ref":
                check_refs(v, here, doc, f"{where}/{k}", seen)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            check_refs(v, here, doc, f"{where}/{i}", seen)


def payload_file(payload):
    """The schema file (relative to protocol/) a message's payload names, or None."""
    if not isinstance(payload, dict):
        return None
    ref = payload.get("$ref")
    if ref is None:
        ref = ((payload.get("properties") or {}).get("event") or {}).get("$ref")
    return urldefrag(ref)[0] if isinstance(ref, str) else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asyncapi", default=os.path.join(PROTOCOL, "asyncapi.yaml"))
    args = ap.parse_args()
    with open(args.asyncapi, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    here = os.path.abspath(args.asyncapi)

    # The AsyncAPI 3 structure.
    if doc.get("asyncapi") != "3.1.0":
        fail(f"asyncapi is {doc.get('asyncapi')!r}, not 3.1.0")
    info = doc.get("info")
    if not isinstance(info, dict) or not isinstance(info.get("title"), str) or not isinstance(info.get("version"), str):
        fail("info needs a title and a version (strings)")
    channels = doc.get("channels")
    if not isinstance(channels, dict) or not channels:
        fail("no channels")
        channels = {}
    for cname, ch in channels.items():
        if not isinstance(ch, dict) or not isinstance(ch.get("address"), str) or not isinstance(ch.get("messages"), dict):
            fail(f"channels.{cname}: needs an address and messages")
    if "ws" not in channels or channels.get("ws", {}).get("address") != "/ws":
        fail("no channel `ws` with address /ws")
    messages = (doc.get("components") or {}).get("messages") or {}
    for mname, m in messages.items():
        if not isinstance(m, dict) or "payload" not in m:
            fail(f"components.messages.{mname}: no payload")
    operations = doc.get("operations")
    if not isinstance(operations, dict) or not operations:
        fail("no operations")
        operations = {}
    direction = {}  # message ref -> set of actions
    actions = set()
    for oname, op in operations.items():
        action = op.get("action") if isinstance(op, dict) else None
        if action not in ("send", "receive"):
            fail(f"operations.{oname}: action is {action!r}, not send or receive")
            continue
        actions.add(action)
        cref = (op.get("channel") or {}).get("$ref", "")
        if not cref.startswith("#/channels/") or pointer(doc, cref[1:]) is None:
            fail(f"operations.{oname}: channel {cref!r} is not a channel of the document")
            continue
        for m in op.get("messages") or []:
            mref = m.get("$ref", "") if isinstance(m, dict) else ""
            if not mref.startswith(cref + "/messages/"):
                fail(f"operations.{oname}: message {mref!r} is not one of its channel's")
            direction.setdefault(mref, set()).add(action)
        if not op.get("messages"):
            fail(f"operations.{oname}: no messages")
    if actions != {"send", "receive"}:
        fail(f"operations: actions {sorted(actions)}, expected both send and receive")

    # Every schema file named exactly once, in the right direction.
    named = {}
    for mname, m in messages.items():
        rel = payload_file(m.get("payload") if isinstance(m, dict) else None)
        if rel is None:
            fail(f"components.messages.{mname}: its payload names no schema file")
            continue
        named.setdefault(os.path.normpath(rel), []).append(mname)
        refs = [r for r in direction if r.rsplit("/", 1)[1] == mname]
        acts = set().union(*(direction[r] for r in refs)) if refs else set()
        want = "send" if rel.startswith("schemas/client/") else "receive"
        if acts != {want}:
            fail(f"components.messages.{mname} ({rel}): in operations {sorted(acts) or 'none'}, expected {want} only")
    wanted = []
    for sub in ("client", "server", os.path.join("server", "events")):
        folder = os.path.join(PROTOCOL, "schemas", sub)
        wanted += [os.path.join("schemas", sub, n) for n in sorted(os.listdir(folder)) if n.endswith(".schema.json")]
    for rel in wanted:
        n = len(named.get(rel, []))
        if n != 1:
            fail(f"{rel}: the payload of {n} messages ({', '.join(named.get(rel, [])) or 'none'}), expected exactly 1")
    for rel in named:
        if rel not in wanted:
            fail(f"a message names {rel}, which is not a client, server or event schema")

    # Every $ref resolves.
    check_refs(doc, here, doc, "asyncapi.yaml#", set())

    print(f"asyncapi.yaml: {len(messages)} messages, {len(operations)} operations, {len(wanted)} schema files, "
          f"{len(files)} files reached by $ref: " + (f"{len(problems)} problems" if problems else "everything holds"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
