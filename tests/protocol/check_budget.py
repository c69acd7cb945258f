#!/usr/bin/env python3
"""docs/BUDGET.md names a bound for every request a stranger can make, and a test that shows it.

    check_budget.py REPO

Fails (exit 1) when a message type of protocol/schemas/client/ or a path of
protocol/openapi.yaml has no row in docs/BUDGET.md (its first column, in
backticks), or when a row cites (in backticks, in its last column) a test whose
name no TEST_CASE of tests/ and no test( of web/tests/ holds.
"""
import glob
import json
import os
import re
import sys

import yaml


def test_names(repo):
    names = []
    for path in glob.glob(os.path.join(repo, "tests", "**", "*.cpp"), recursive=True):
        text = open(path, encoding="utf-8").read()
        # A name may be split over several string literals and lines.
        for m in re.finditer(r'TEST_CASE\(((?:\s*"(?:[^"\\]|\\.)*")+)', text):
            names.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))))
    for path in glob.glob(os.path.join(repo, "web", "tests", "*.mjs")):
        text = open(path, encoding="utf-8").read()
        names += re.findall(r'\btest\("((?:[^"\\]|\\.)*)"', text)
    return names


def rows(doc):
    """Each table row's cells (the header and rule rows left out)."""
    out = []
    for line in doc.splitlines():
        if not line.startswith("|") or set(line) <= set("|- "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("what", "request", "path"):
            continue
        out.append(cells)
    return out


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    doc = open(os.path.join(repo, "docs", "BUDGET.md"), encoding="utf-8").read()
    table = rows(doc)
    named = set()
    for cells in table:
        named.update(re.findall(r"`([^`]+)`", cells[0]))
    problems = []
    types = []
    for path in sorted(glob.glob(os.path.join(repo, "protocol", "schemas", "client", "*.schema.json"))):
        t = json.load(open(path))["properties"]["type"]["const"]
        types.append(t)
        if t not in named:
            problems.append(f"the request type {t} has no row in docs/BUDGET.md")
    api = yaml.safe_load(open(os.path.join(repo, "protocol", "openapi.yaml")))
    paths = list(api["paths"])
    for p in paths:
        if p not in named:
            problems.append(f"the HTTP path {p} has no row in docs/BUDGET.md")
    names = test_names(repo)
    cited = 0
    for cells in table:
        tests = re.findall(r"`([^`]+)`", cells[-1])
        if not tests:
            problems.append(f"the row of {cells[0]} cites no test")
        for t in tests:
            cited += 1
            if not any(t in n for n in names):
                problems.append(f"the row of {cells[0]} cites a test that does not exist: {t}")
    for p in problems:
        print("FAIL:", p)
    print(f"docs/BUDGET.md: {len(types)} request types, {len(paths)} HTTP paths, {len(table)} rows, "
          f"{cited} tests cited ({len(names)} tests known)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
