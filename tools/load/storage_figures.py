#!/usr/bin/env python3
"""Storage and memory figures of a sparts-server, measured with sparts-load.

usage: tools/load/storage_figures.py --server BIN --load BIN [--only NAME ...] [--seconds S]

Starts the server (a new database in a scratch folder each time) and prints,
one line each:
  write     300 tables flat out: disk bytes the server process wrote
            (/proc/PID/io write_bytes: the WAL and the checkpoints together) per action
  kept      200 tables play one Spades game each to its end: database bytes in
            use (pages less free pages) per action, and per game
  ratio     1,000 tables flat out, card plays a second with storage and without
  paced     4,500 tables (18,000 connections) at one action a second a table,
            with storage: latency p50/p99, server CPU per card play, errors
  memory    500 tables flat out without storage: server memory per seated
            connection once every table's history is full
Figures, not assertions: README.md and storage/README.md keep them.
"""
import argparse
import json
import os
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

LIMITS = ["--connections-per-address", "30000", "--messages-per-second", "1000", "--turn-seconds", "0",
          "--players-per-address-per-minute", "1000000", "--tables-per-address", "1000000",
          "--max-tables", "1000000", "--log-level", "warn"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


EXTRA = []
ENV = dict(os.environ)


class Server:
    def __init__(self, binary, database):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="sparts-figures-")
        db = "none" if database is None else os.path.join(self.dir, "sparts.db")
        self.db = None if database is None else db
        self.proc = subprocess.Popen([binary, "--port", str(self.port), "--database", db] + LIMITS + EXTRA,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def write_bytes(self):
        with open(f"/proc/{self.proc.pid}/io") as f:
            for line in f:
                if line.startswith("write_bytes:"):
                    return int(line.split()[1])
        return 0

    def metric(self, name):
        body = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=10).read().decode()
        for line in body.splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
        return 0.0

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=120)

    def clean(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def load(args, server, *flags):
    out = subprocess.run([args.load, "--port", str(server.port), "--server-pid", str(server.proc.pid), "--json",
                          "--progress-seconds", "1000"] + [str(f) for f in flags],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=False)
    return json.loads(out.stdout.strip().splitlines()[-1])


def write(args):
    s = Server(args.server, "sqlite")
    try:
        w0, a0, c0 = s.write_bytes(), s.metric("sparts_actions_total"), s.metric("sparts_db_commits_total")
        f = load(args, s, "--tables", 300, "--seconds", args.seconds)
        # The checkpointer's last copy of the log counts too: wait for it.
        time.sleep(2)
        w1, a1, c1 = s.write_bytes(), s.metric("sparts_actions_total"), s.metric("sparts_db_commits_total")
        actions = a1 - a0
        print(f"write   300 tables flat out {args.seconds} s: {actions:.0f} actions, {(w1 - w0) / 1e6:.1f} MB written, "
              f"{(w1 - w0) / actions:.0f} bytes an action; {c1 - c0:.0f} commits ({actions / max(1, c1 - c0):.1f} "
              f"actions a commit); {f['card_plays_per_second']:.0f} card plays/s", flush=True)
    finally:
        s.stop()
        s.clean()


def kept(args):
    s = Server(args.server, "sqlite")
    try:
        f = load(args, s, "--tables", 200, "--games-per-table", 1)
        actions = s.metric("sparts_actions_total")
        games = f["games"]
        s.stop()
        db = sqlite3.connect(s.db)
        page = db.execute("PRAGMA page_size").fetchone()[0]
        used = (db.execute("PRAGMA page_count").fetchone()[0] - db.execute("PRAGMA freelist_count").fetchone()[0]) * page
        db.close()
        print(f"kept    200 Spades games to the end: {actions:.0f} actions, database {used / 1e6:.2f} MB in use: "
              f"{used / actions:.0f} bytes an action, {used / max(1, games) / 1e3:.1f} KB a game ({games} games)",
              flush=True)
    finally:
        if s.proc.poll() is None:
            s.stop()
        s.clean()


def ratio(args):
    rates = {}
    for db in (None, "sqlite"):
        s = Server(args.server, db)
        try:
            f = load(args, s, "--tables", 1000, "--seconds", args.seconds, "--warmup-seconds", 5)
            rates[db] = f["card_plays_per_second"]
        finally:
            s.stop()
            s.clean()
    print(f"ratio   1,000 tables flat out: {rates['sqlite']:.0f} card plays/s with storage, {rates[None]:.0f} without: "
          f"{rates['sqlite'] / rates[None]:.2f}", flush=True)


def paced(args):
    s = Server(args.server, "sqlite")
    try:
        f = load(args, s, "--tables", 4500, "--think-ms", 1000, "--seconds", args.seconds, "--warmup-seconds", 5)
        lat = f["latency_ms"]
        cpu = f["server"]["cpu_seconds"] / max(1, f["card_plays"]) * 1e6
        print(f"paced   4,500 tables, 1 action/s each, storage on: p50 {lat['p50']:.1f} ms, p99 {lat['p99']:.1f} ms, "
              f"p99.9 {lat['p999']:.1f} ms; server CPU {cpu:.0f} µs a card play; {f['card_plays_per_second']:.0f} "
              f"card plays/s; {f['errors']} errors, {f['connect_failures']} failed connections; server RSS "
              f"{f['server']['loaded']['vm_rss_kib'] / 1024:.0f} MiB seated, {f['server']['end']['vm_rss_kib'] / 1024:.0f} "
              f"MiB at the end", flush=True)
    finally:
        s.stop()
        s.clean()


def memory(args):
    s = Server(args.server, None)
    try:
        f = load(args, s, "--tables", 500, "--seconds", args.seconds, "--warmup-seconds", 5)
        srv = f["server"]
        seated = srv["rss_bytes_per_connection"] / 1024
        played = (srv["end"]["vm_rss_kib"] - srv["before"]["vm_rss_kib"]) / max(1, f["connections"])
        print(f"memory  500 tables flat out {args.seconds} s, storage off: {played:.1f} KiB a seated connection once "
              f"the tables have played ({seated:.1f} KiB when seated, before the first deal; RSS "
              f"{srv['before']['vm_rss_kib'] / 1024:.0f} MiB before, {srv['end']['vm_rss_kib'] / 1024:.0f} MiB at the end)",
              flush=True)
    finally:
        s.stop()
        s.clean()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", required=True)
    p.add_argument("--load", required=True)
    p.add_argument("--seconds", type=int, default=30)
    p.add_argument("--server-env", action="append", default=[], help="NAME=VALUE in the server's environment")
    p.add_argument("--server-flag", action="append", default=[], help="one more flag for the server (repeat)")
    p.add_argument("--only", nargs="*", default=["write", "kept", "ratio", "paced", "memory"])
    args = p.parse_args()
    EXTRA.extend(args.server_flag)
    ENV.update(kv.split("=", 1) for kv in args.server_env)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"{args.server} (file limit {hard})", flush=True)
    for name in args.only:
        globals()[name](args)


if __name__ == "__main__":
    sys.exit(main())
