#!/usr/bin/env python3
"""Validates sparts protocol messages against the JSON Schemas in protocol/schemas/.

    validate_messages.py SCHEMA_DIR FILE...
    validate_messages.py SCHEMA_DIR --examples PROTOCOL.md
    validate_messages.py SCHEMA_DIR --server-frames FILE...

Each FILE is JSON Lines: one object a line, {"dir": "in" | "out", "frame": <message>}, where "in" is
client -> server and "out" server -> client. A line may also carry "expect": "invalid" (the line passes
only when the frame fails validation: for files of messages that must be refused) and "note" (ignored).
Blank lines and lines starting with # are skipped.

With --server-frames, the FILEs are the frame logs of the end-to-end test client (tests/server/):
only the frames the server sent ({"dir": "out", "frame": ...}) are validated; what the tests sent
(deliberately bad input among it), binary frames and close records are skipped. Every file must hold
at least one server frame.

With --examples, every fenced block tagged ```json client (an "in" frame) or ```json server (an "out"
frame) in the Markdown file is validated.

The schema is chosen by direction and `type`: client/<type>.schema.json for "in";
server/<type>.schema.json for "out", except ok.<re>.schema.json for "ok" (the event envelope,
server/event.schema.json, dispatches on event.type itself). A message with no schema is a failure.

Prints one line per failure (file:line, the message type, the error's path and message) and exits 1 if
anything failed, 0 otherwise, 2 on bad usage, 77 (a CTest skip) when the jsonschema module is missing.
Works with jsonschema 4.10 (Debian bookworm: RefResolver) and later versions (the referencing library).
"""
import json
import os
import re
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:  # pragma: no cover
    print("validate_messages.py: the Python module jsonschema is missing (Debian: python3-jsonschema)",
          file=sys.stderr)
    sys.exit(77)

try:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError:  # jsonschema < 4.18
    Registry = None


class Schemas:
    """Every *.json file under a directory, by $id and by path relative to it."""

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
        if Registry is not None:
            self.registry = Registry().with_resources(
                (sid, Resource.from_contents(s, default_specification=DRAFT202012)) for sid, s in self.by_id.items())
        self.validators = {}

    def validator(self, rel):
        if rel not in self.validators:
            schema = self.by_path.get(rel)
            if schema is None:
                self.validators[rel] = None
            elif Registry is not None:
                self.validators[rel] = Draft202012Validator(schema, registry=self.registry)
            else:
                resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=dict(self.by_id))
                self.validators[rel] = Draft202012Validator(schema, resolver=resolver)
        return self.validators[rel]


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


def lines_of(path, server_frames=False):
    """(line number, dir, frame, expect) for each message of a JSON Lines file."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                yield n, None, None, None, f"not JSON: {e}"
                continue
            if server_frames and not (isinstance(rec, dict) and rec.get("dir") == "out" and "frame" in rec):
                continue
            if not isinstance(rec, dict) or "frame" not in rec or "dir" not in rec:
                yield n, None, None, None, 'expected an object with "dir" and "frame"'
                continue
            yield n, rec["dir"], rec["frame"], rec.get("expect", "valid"), None


FENCE = re.compile(r"^```json[ \t]+(client|server)[ \t]*$")


def examples_of(path):
    """(line number, dir, frame, expect) for each ```json client / ```json server block of a Markdown file."""
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
        try:
            frame = json.loads(text)
            yield start + 1, direction, frame, "valid", None
        except json.JSONDecodeError as e:
            yield start + 1, None, None, None, f"example is not JSON: {e}"
        i = j + 1


def main(argv):
    args = argv[1:]
    if len(args) < 2 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schemas = Schemas(args[0])
    sources = []
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
            sources.append((rest[1], examples_of(rest[1])))
            rest = rest[2:]
        else:
            sources.append((rest[0], lines_of(rest[0], server_frames)))
            rest = rest[1:]

    failed = checked = empty = 0
    for name, items in sources:
        count = 0
        for n, direction, frame, expect, problem in items:
            count += 1
            checked += 1
            where = f"{name}:{n}"
            if problem:
                print(f"{where}: {problem}")
                failed += 1
                continue
            _, mtype = schema_for(direction, frame)
            if expect not in ("valid", "invalid"):
                print(f'{where}: {mtype}: "expect" must be "valid" or "invalid", not {expect!r}')
                failed += 1
                continue
            problems = check(schemas, direction, frame)
            if expect == "invalid":
                if not problems:
                    print(f"{where}: {direction} {mtype}: expected to be invalid, but the schema accepts it")
                    failed += 1
                continue
            for p in problems:
                print(f"{where}: {direction} {mtype}: {p}")
            if problems:
                failed += 1
        if count == 0:
            print(f"{name}: no messages found")
            empty += 1
    print(f"{checked - failed} of {checked} messages as expected" + (f", {failed} failed" if failed else ""))
    return 1 if failed or empty else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
