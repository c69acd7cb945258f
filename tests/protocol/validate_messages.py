#!/usr/bin/env python3
"""Validates sparts protocol messages against the JSON Schemas in protocol/schemas/.

    validate_messages.py SCHEMA_DIR FILE...
    validate_messages.py SCHEMA_DIR --examples PROTOCOL.md
    validate_messages.py SCHEMA_DIR --server-frames FILE_OR_FOLDER...
    validate_messages.py --reset FOLDER

Each FILE is JSON Lines: one object a line, {"dir": "in" | "out", "frame": <message>}, where "in" is
client -> server and "out" server -> client. A line may also carry "expect": "invalid" (the line passes
only when the frame fails validation: for files of messages that must be refused) and "note" (ignored).
Blank lines and lines starting with # are skipped.

With --server-frames, the FILEs are the frame logs of the end-to-end test client (tests/server/):
only the frames the server sent ({"dir": "out", "frame": ...}) are validated; what the tests sent
(deliberately bad input among it), binary frames and close records are skipped. A FOLDER stands for
every *.jsonl file in it. Every FILE named must hold at least one server frame, and the run at least
one in all (a FOLDER's files may hold none). A frame the test client could not parse (logged as
{"type": "<not JSON>", "text": ...}) is a batch when the client said hello with "batch": true: its
lines are then validated one by one (reported as file:line#k); otherwise it is a failure.

With --examples, every fenced block tagged ```json client (an "in" frame) or ```json server (an "out"
frame) in the Markdown file is validated.

--reset FOLDER removes the *.jsonl files in FOLDER (creating it if need be): the setup of the CTest
fixture that gives the end-to-end tests a fresh folder for their frame logs.

The schema is chosen by direction and `type`: client/<type>.schema.json for "in";
server/<type>.schema.json for "out", except ok.<re>.schema.json for "ok" (the event envelope,
server/event.schema.json, dispatches on event.type itself). A message with no schema is a failure.

Speed (the end-to-end suite receives some 270,000 server frames): every schema is loaded, checked
and compiled once, its $refs inlined (so that validation resolves no reference); a oneOf whose
branches are told apart by a string const (`type`, `kind`) validates the instance against the one
branch its value names, which is exactly what the oneOf means; identical frames (an event fanned out
to every seat) are validated once.

Prints one line per failure (file:line, the message type, the error's path and message; for a frame
identical to one that failed before, "the same frame as file:line"; past 100 failing frames they are
only counted), with --server-frames a summary of the failures by message type and error, and exits
1 if anything failed, 0 otherwise, 2 on bad usage, 77 (a CTest skip) when the jsonschema module is
missing. Works with jsonschema 4.10 (Debian bookworm) and later versions; should a schema ever not be
inlinable (a recursive $ref), its $refs are resolved as validation goes (RefResolver before 4.18,
the referencing library since).
"""
import json
import multiprocessing
import os
import re
import sys
import time
from urllib.parse import unquote, urldefrag, urljoin

try:
    import jsonschema
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend
except ImportError:  # pragma: no cover
    print("validate_messages.py: the Python module jsonschema is missing (Debian: python3-jsonschema)",
          file=sys.stderr)
    sys.exit(77)

try:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError:  # jsonschema < 4.18
    Registry = None

# How many failing frames are printed in full; the rest are only counted (and summed up by error).
MAX_REPORTED = 100


# --- one branch for a discriminated oneOf -------------------------------------------------------

_discriminators = {}  # id(oneOf list) -> (property, {const: branch index}) or None; see fast_one_of
_keep_alive = []      # the lists whose id() is a key above
_std_one_of = Draft202012Validator.VALIDATORS["oneOf"]


def discriminator(branches):
    """(p, {value: index}) when every branch is an object schema whose properties.p is a distinct
    string const, else None."""
    key = id(branches)
    if key in _discriminators:
        return _discriminators[key]
    found = None
    if isinstance(branches, list) and len(branches) > 1 and all(
            isinstance(b, dict) and isinstance(b.get("properties"), dict) for b in branches):
        candidates = None
        for b in branches:
            names = {p for p, s in b["properties"].items() if isinstance(s, dict) and isinstance(s.get("const"), str)}
            candidates = names if candidates is None else candidates & names
        for p in sorted(candidates or (), key=lambda p: (p not in ("type", "kind"), p)):
            table = {}
            for i, b in enumerate(branches):
                table.setdefault(b["properties"][p]["const"], []).append(i)
            if all(len(v) == 1 for v in table.values()):
                found = (p, {c: v[0] for c, v in table.items()})
                break
    _discriminators[key] = found
    _keep_alive.append(branches)
    return found


def fast_one_of(validator, branches, instance, schema):
    """oneOf, checking only the branch an object's discriminator names. When the instance is an
    object whose `p` equals branch i's const, every other branch fails on that const, so the oneOf
    holds exactly when branch i does: its errors are the errors. Anything else: the standard oneOf."""
    d = discriminator(branches)
    if d is not None and isinstance(instance, dict):
        value = instance.get(d[0])
        if isinstance(value, str) and value in d[1]:
            i = d[1][value]
            yield from validator.descend(instance, branches[i], schema_path=i)
            return
    yield from _std_one_of(validator, branches, instance, schema)


FastValidator = extend(Draft202012Validator, {"oneOf": fast_one_of})


# --- inlining $refs -----------------------------------------------------------------------------

class NotBundlable(Exception):
    pass


SCHEMA_MAPS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
SCHEMA_VALUES = {"items", "additionalItems", "additionalProperties", "not", "contains", "if", "then", "else",
                 "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
SCHEMA_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems"}
DROPPED = {"$id", "$schema", "$defs", "definitions"}
ANNOTATIONS = {"title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"}
# Keywords that read each other's results: a $ref's target and its siblings are merged into one
# schema only when no such group has members on both sides (else they become an allOf).
INTERACTING = [{"properties", "patternProperties", "additionalProperties", "unevaluatedProperties"},
               {"prefixItems", "items", "additionalItems", "contains", "minContains", "maxContains", "unevaluatedItems"},
               {"if", "then", "else"}]
UNSUPPORTED = {"$dynamicRef", "$recursiveRef", "$anchor", "$dynamicAnchor", "$recursiveAnchor"}


class Bundler:
    """Copies of the schemas with every $ref replaced by (a shared copy of) what it points to."""

    def __init__(self, by_id):
        self.by_id = by_id
        self.done = {}  # resolved URL -> inlined schema

    def target(self, url):
        doc, fragment = urldefrag(url)
        if doc not in self.by_id:
            raise NotBundlable(f"$ref to an unknown schema {url}")
        node, base = self.by_id[doc], doc
        if fragment and not fragment.startswith("/"):
            raise NotBundlable(f"$ref to an anchor {url}")
        for token in fragment.split("/")[1:]:
            token = unquote(token).replace("~1", "/").replace("~0", "~")
            if isinstance(node, list):
                node = node[int(token)]
            elif isinstance(node, dict) and token in node:
                node = node[token]
            else:
                raise NotBundlable(f"$ref to nothing: {url}")
            if isinstance(node, dict) and isinstance(node.get("$id"), str):
                base = urljoin(base, node["$id"])
        return node, base

    def ref(self, url, stack):
        if url in self.done:
            return self.done[url]
        if url in stack:
            raise NotBundlable(f"recursive $ref {url}")
        node, base = self.target(url)
        out = self.schema(node, base, stack + (url,))
        self.done[url] = out
        return out

    def schema(self, node, base, stack=()):
        if not isinstance(node, dict):
            return node  # true / false
        if UNSUPPORTED & node.keys():
            raise NotBundlable(f"unsupported keyword among {sorted(node)}")
        if isinstance(node.get("$id"), str):
            base = urljoin(base, node["$id"])
        out = {}
        for k, v in node.items():
            if k in DROPPED or k == "$ref":
                continue
            if k in SCHEMA_MAPS and isinstance(v, dict):
                out[k] = {name: self.schema(s, base, stack) for name, s in v.items()}
            elif (k in SCHEMA_LISTS or k in SCHEMA_VALUES) and isinstance(v, list):
                out[k] = [self.schema(s, base, stack) for s in v]
            elif k in SCHEMA_VALUES:
                out[k] = self.schema(v, base, stack)
            else:
                out[k] = v
        if "$ref" not in node:
            return out
        target = self.ref(urljoin(base, node["$ref"]), stack)
        if not isinstance(target, dict):
            return {"allOf": [target], **out} if out else target
        siblings = {k: v for k, v in out.items() if k not in ANNOTATIONS}
        clash = any(k in target for k in siblings) or any(g & target.keys() and g & siblings.keys() for g in INTERACTING)
        if clash:
            return {"allOf": [target], **out}
        return {**target, **out} if out else target


# --- the schemas --------------------------------------------------------------------------------

class Schemas:
    """Every *.json file under a directory, by $id and by path relative to it, and a validator for
    each, made once."""

    def __init__(self, root):
        self.root = root
        self.by_path = {}
        self.by_id = {}
        for folder, _, names in os.walk(root):
            for name in sorted(names):
                if not name.endswith(".json"):
                    continue
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                with open(full, encoding="utf-8") as f:
                    schema = json.load(f)
                Draft202012Validator.check_schema(schema)
                sid = schema.get("$id")
                if not sid:
                    raise SystemExit(f"{full}: a schema without $id")
                self.by_path[rel] = schema
                self.by_id[sid] = schema
        self.bundler = Bundler(self.by_id)
        self.registry = None
        self.validators = {}

    def validator(self, rel):
        if rel not in self.validators:
            schema = self.by_path.get(rel)
            if schema is None:
                self.validators[rel] = None
            else:
                try:
                    bundled = self.bundler.schema(schema, schema["$id"])
                    self.validators[rel] = FastValidator(bundled)
                except NotBundlable as e:  # not with today's schemas: resolve $refs as validation goes
                    print(f"note: {rel}: $refs left as they are ({e}): slower", file=sys.stderr)
                    self.validators[rel] = self.resolving_validator(schema)
        return self.validators[rel]

    def resolving_validator(self, schema):
        if Registry is not None:
            if self.registry is None:
                self.registry = Registry().with_resources(
                    (sid, Resource.from_contents(s, default_specification=DRAFT202012)) for sid, s in self.by_id.items())
            return Draft202012Validator(schema, registry=self.registry)
        resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=dict(self.by_id))
        return Draft202012Validator(schema, resolver=resolver)


def schema_for(direction, frame):
    """The schema file for a frame, and a short name of its message type for reports."""
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        return None, "(no type)"
    t = frame["type"]
    if direction == "in":
        return f"client/{t}.schema.json", t
    if t == "ok":
        re_ = frame.get("re")
        if not isinstance(re_, str):
            return None, "ok (no re)"
        return f"server/ok.{re_}.schema.json", f"ok.{re_}"
    if t == "event":
        ev = frame.get("event")
        inner = ev.get("type") if isinstance(ev, dict) else None
        return "server/event.schema.json", f"event.{inner}" if isinstance(inner, str) else "event"
    if t == "error":
        return "server/error.schema.json", f"error.{frame.get('code')}"
    return f"server/{t}.schema.json", t


def path_text(path):
    s = "$"
    for p in path:
        s += f"[{p}]" if isinstance(p, int) else f".{p}"
    return s


def discriminated_out(errors):
    """True when a oneOf/anyOf branch failed on its discriminator (`type` or `kind`) or on the value's type."""
    for e in errors:
        rel = list(e.relative_path)
        if e.validator in ("const", "enum") and len(rel) == 1 and rel[0] in ("type", "kind"):
            return True
        if e.validator == "type" and not rel:
            return True
    return False


def leaf_errors(error):
    """For a oneOf/anyOf failure whose branches are told apart by `type`/`kind`, the errors of the one
    branch that matched the discriminator (so that the report says what is wrong in it)."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        alive = [errs for errs in branches.values() if not discriminated_out(errs)]
        if len(alive) == 1:
            out = []
            for e in alive[0]:
                out.extend(leaf_errors(e))
            return out
    return [error]


def check(schemas, direction, frame):
    """The list of problems with one frame (empty: valid)."""
    if direction not in ("in", "out"):
        return [f'"dir" must be "in" or "out", not {direction!r}']
    rel, _ = schema_for(direction, frame)
    if rel is None:
        if isinstance(frame, dict) and isinstance(frame.get("type"), str):
            return ["$: an ok without a string `re`"]
        return ["$: not an object with a string `type`"]
    v = schemas.validator(rel)
    if v is None:
        return [f"no schema {rel} for this message type"]
    problems = []
    for error in sorted(v.iter_errors(frame), key=lambda e: list(map(str, e.absolute_path))):
        for leaf in leaf_errors(error):
            msg = leaf.message
            if len(msg) > 300:
                msg = msg[:300] + "..."
            problems.append(f"{path_text(leaf.absolute_path)}: {msg}")
    return problems


# --- where the messages come from ---------------------------------------------------------------
# Each source yields (where, dir, frame, expect, problem, key): key is a text that identifies the
# frame (equal keys: equal frames), or None.

def lines_of(path, server_frames=False):
    """The messages of a JSON Lines file."""
    batching = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            where = f"{path}:{n}"
            # The test client writes keys in sorted order: what it sent, binary frames and close
            # records are skipped without parsing them (but a hello, which may ask for batches).
            if server_frames and (line.startswith('{"close"') or line.startswith('{"binary_bytes"') or (
                    line.startswith('{"dir":"in"') and '"hello"' not in line)):
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                yield where, None, None, None, f"not JSON: {e}", None
                continue
            if server_frames:
                if isinstance(rec, dict) and rec.get("dir") == "in":
                    fr = rec.get("frame")
                    if isinstance(fr, dict) and fr.get("type") == "hello" and fr.get("batch") is True:
                        batching = True
                if not (isinstance(rec, dict) and rec.get("dir") == "out" and "frame" in rec):
                    continue
            if not isinstance(rec, dict) or "frame" not in rec or "dir" not in rec:
                yield where, None, None, None, 'expected an object with "dir" and "frame"', None
                continue
            frame = rec["frame"]
            if server_frames and isinstance(frame, dict) and frame.get("type") == "<not JSON>":
                yield from unbatched(where, frame.get("text"), batching)
                continue
            yield where, rec["dir"], frame, rec.get("expect", "valid"), None, line


def unbatched(where, text, batching):
    """The messages of a frame the test client could not parse as one JSON value."""
    if not isinstance(text, str):
        yield where, None, None, None, "a <not JSON> record without its text", None
        return
    parts = text.split("\n")
    messages = []
    for part in parts:
        try:
            messages.append(json.loads(part))
        except json.JSONDecodeError:
            messages = None
            break
    shown = text if len(text) <= 200 else text[:200] + "..."
    if messages is None or len(parts) < 2:
        yield where, None, None, None, f"a frame that is not JSON (nor JSON lines): {shown!r}", None
        return
    if not batching:
        yield where, None, None, None, (f"{len(parts)} messages in one frame (a batch) to a client that did not "
                                        f"say hello with batch: true: {shown!r}"), None
        return
    for k, (part, message) in enumerate(zip(parts, messages), 1):
        yield f"{where}#{k}", "out", message, "valid", None, "out " + part


FENCE = re.compile(r"^```json[ \t]+(client|server)[ \t]*$")


def examples_of(path):
    """Each ```json client / ```json server block of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i].strip())
        if not m:
            i += 1
            continue
        start = i + 1
        j = start
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        text = "\n".join(lines[start:j])
        direction = "in" if m.group(1) == "client" else "out"
        where = f"{path}:{start + 1}"
        try:
            frame = json.loads(text)
            yield where, direction, frame, "valid", None, None
        except json.JSONDecodeError as e:
            yield where, None, None, None, f"example is not JSON: {e}", None
        i = j + 1


def reset(folder):
    """Removes the frame logs (*.jsonl) in folder and in its http/ (the HTTP answers the tests got,
    checked by check_openapi.py --responses), creating them if need be; nothing else is touched."""
    removed = 0
    for where in (folder, os.path.join(folder, "http")):
        os.makedirs(where, exist_ok=True)
        names = [n for n in os.listdir(where) if n.endswith(".jsonl")]
        for n in names:
            os.remove(os.path.join(where, n))
        removed += len(names)
    print(f"{folder}: {removed} old frame and answer logs removed")
    return 0


_worker_schemas = None


def _start_worker(schema_dir):
    global _worker_schemas
    _worker_schemas = Schemas(schema_dir)


def _check_in_worker(item):
    return check(_worker_schemas, *item)


def main(argv):
    args = argv[1:]
    if len(args) == 2 and args[0] == "--reset":
        return reset(args[1])
    if len(args) < 2 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    started = time.monotonic()
    schemas = Schemas(args[0])
    sources = []  # (name, items, must hold a message)
    rest = args[1:]
    server_frames = False
    while rest:
        if rest[0] == "--server-frames":
            server_frames = True
            rest = rest[1:]
        elif rest[0] == "--examples":
            if len(rest) < 2:
                print("--examples needs a Markdown file", file=sys.stderr)
                return 2
            sources.append((rest[1], examples_of(rest[1]), True))
            rest = rest[2:]
        elif server_frames and os.path.isdir(rest[0]):
            names = sorted(n for n in os.listdir(rest[0]) if n.endswith(".jsonl"))
            if not names:
                print(f"{rest[0]}: no *.jsonl frame logs (did the end-to-end tests run?)")
                return 1
            sources.extend((os.path.join(rest[0], n), lines_of(os.path.join(rest[0], n), True), False) for n in names)
            rest = rest[1:]
        else:
            sources.append((rest[0], lines_of(rest[0], server_frames), True))
            rest = rest[1:]

    # The end-to-end tests' frames: each distinct one is validated once, on every core (CTest
    # runs this after all of them, when the others have ended: on one core it was CI's tail).
    checked_in_advance = {}
    if server_frames:
        sources = [(name, list(items), required) for name, items, required in sources]
        distinct = {}
        for _, items, _ in sources:
            for _, direction, frame, _, problem, key in items:
                if not problem and key is not None and key not in distinct:
                    distinct[key] = (direction, frame)
        workers = min(os.cpu_count() or 1, 8)
        if workers > 1 and len(distinct) > 2000:
            keys = list(distinct)
            with multiprocessing.Pool(workers, initializer=_start_worker, initargs=(args[0],)) as pool:
                found = pool.map(_check_in_worker, [distinct[k] for k in keys], chunksize=500)
            checked_in_advance = dict(zip(keys, found))

    failed = checked = empty = reported = 0
    seen = {}       # key -> (where, problems) of the first frame with that key
    groups = {}     # (dir, type, problem) -> [count, first where]
    for name, items, required in sources:
        count = 0
        for where, direction, frame, expect, problem, key in items:
            count += 1
            checked += 1
            if problem:
                if reported < MAX_REPORTED:
                    print(f"{where}: {problem}")
                reported += 1
                failed += 1
                groups.setdefault(("", "", problem.split(":")[0]), [0, where])[0] += 1
                continue
            _, mtype = schema_for(direction, frame)
            if expect not in ("valid", "invalid"):
                print(f'{where}: {mtype}: "expect" must be "valid" or "invalid", not {expect!r}')
                failed += 1
                continue
            first = seen.get(key) if key is not None else None
            if first is not None:
                problems = first[1]
            elif key in checked_in_advance:
                problems = checked_in_advance[key]
                seen[key] = (where, problems)
            else:
                problems = check(schemas, direction, frame)
                if key is not None:
                    seen[key] = (where, problems)
            if expect == "invalid":
                if not problems:
                    print(f"{where}: {direction} {mtype}: expected to be invalid, but the schema accepts it")
                    failed += 1
                continue
            if not problems:
                continue
            failed += 1
            if reported < MAX_REPORTED:
                if first is not None:
                    print(f"{where}: {direction} {mtype}: the same frame as {first[0]}")
                else:
                    for p in problems:
                        print(f"{where}: {direction} {mtype}: {p}")
            reported += 1
            for p in problems:
                groups.setdefault((direction, mtype, p), [0, where])[0] += 1
        if count == 0 and required:
            print(f"{name}: no {'server messages' if server_frames else 'messages'} found")
            empty += 1
    if reported > MAX_REPORTED:
        print(f"... and {reported - MAX_REPORTED} more failing frames")
    if server_frames and failed and groups:
        print("failures by message type and error (count, first at):")
        for (direction, mtype, p), (n, where) in sorted(groups.items(), key=lambda g: -g[1][0])[:50]:
            print(f"  {n:7d}  {direction + ' ' + mtype + ': ' if mtype else ''}{p}  (first: {where})")
    what = "server messages" if server_frames else "messages"
    distinct = f" ({len(seen)} distinct)" if server_frames else ""
    print(f"{checked - failed} of {checked} {what}{distinct} in {len(sources)} files as expected"
          + (f", {failed} failed" if failed else "") + f" ({time.monotonic() - started:.1f} s)")
    if checked == 0:
        print(f"no {what} at all: nothing was validated")
        return 1
    return 1 if failed or empty else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
