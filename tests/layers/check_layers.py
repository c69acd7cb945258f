#!/usr/bin/env python3
"""Each part of the project includes only from the parts below it.

The parts and what each stands on are written here once (server/README.md draws
the same picture); a part may include its own headers and those of every part it
stands on, directly or through another. Any other include of a project header is
an error, named with its file and line. The tests, tools, benchmarks and fuzz
targets stand on everything and are not checked.

Usage: check_layers.py [ROOT]   (ROOT: the checkout, default: this file's ../..)
       check_layers.py --self-test   (the check is seen to fail: a table that includes the lobby)
"""
import os
import re
import sys

# A part and the parts right below it.
STANDS_ON = {
    "engine": [],
    "bots": ["engine"],
    "ratings": [],
    "protocol": ["engine"],
    "storage": ["protocol", "ratings"],
    "storage/sqlite": ["storage"],
    "storage/postgres": ["storage"],
    "storage/backends": ["storage/sqlite", "storage/postgres"],
    "net": [],  # Asio and Beast compiled once (sparts::asio)
    "server/base": ["storage/backends"],
    "server/host": ["server/base"],
    "server/net": ["server/base"],
    "server/archive": ["server/net"],
    "server/table": ["server/net", "server/host", "bots"],
    "server/lobby": ["server/table"],
    "server/admin": ["server/lobby", "server/archive"],
    "server/app": ["server/admin", "server/archive"],
}
UNCHECKED = {"tests", "tools", "bench", "fuzz", "clients", "web", "docs", "scripts", "deploy", "cmake"}
SOURCE = (".cpp", ".hpp", ".h")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def below(part, seen=None):
    """Every part `part` stands on, directly or not."""
    seen = set() if seen is None else seen
    for lower in STANDS_ON[part]:
        if lower not in seen:
            seen.add(lower)
            below(lower, seen)
    return seen


def part_of(path):
    """The part a repository path belongs to: its deepest folder named in STANDS_ON."""
    folder = os.path.dirname(path)
    while folder:
        if folder in STANDS_ON:
            return folder
        folder = os.path.dirname(folder)
    return None


def check(root):
    problems = []
    checked = 0
    for top in sorted(os.listdir(root)):
        if top in UNCHECKED or top.startswith(".") or top.startswith("build") or not os.path.isdir(os.path.join(root, top)):
            continue
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(SOURCE):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                part = part_of(path)
                if part is None:
                    problems.append(f"{path}: in no part this check knows (tests/layers/check_layers.py names them)")
                    continue
                checked += 1
                allowed = below(part) | {part}
                with open(os.path.join(root, path), encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or not os.path.isfile(os.path.join(root, m.group(1))):
                            continue  # a system or generated header
                        target = part_of(m.group(1))
                        if target not in allowed:
                            problems.append(f"{path}:{number}: {part} includes {m.group(1)} from {target}, "
                                            f"which is not below it")
    return checked, problems


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        write("server/lobby/lobby.hpp", '#include "server/table/table.hpp"\n')
        write("server/table/table.hpp", '#include "server/net/connection.hpp"\n#include <vector>\n')
        write("server/net/connection.hpp", "")
        checked, problems = check(root)
        assert checked == 3 and problems == [], problems
        write("server/table/table.cpp", '#include "server/table/table.hpp"\n#include "server/lobby/lobby.hpp"\n')
        write("engine/game.cpp", '#include "bots/bot.hpp"\n')
        write("bots/bot.hpp", "")
        checked, problems = check(root)
        assert len(problems) == 2, problems
        assert problems[0].startswith("engine/game.cpp:1: engine includes bots/bot.hpp"), problems
        assert problems[1].startswith("server/table/table.cpp:2: server/table includes server/lobby/lobby.hpp"), problems
    print("self-test: a lower part including a higher one is reported, with its file and line")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    checked, problems = check(root)
    for p in problems:
        print(p)
    if checked == 0:
        print("no source file found: is ROOT the checkout?")
        return 1
    print(f"{checked} files checked, {len(problems)} includes from a part not below")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
