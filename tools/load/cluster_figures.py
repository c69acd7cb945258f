#!/usr/bin/env python3
"""Figures of sparts-server on PostgreSQL and in a cluster, measured with sparts-load.

usage: tools/load/cluster_figures.py --server BIN --load BIN [--failover BIN] [--only NAME ...] [--seconds S]

Starts everything it measures (a PostgreSQL 15 of its own in a temporary folder,
with the defaults: fsync on; HAProxy; the nodes) and prints, one line each:
  backends  one node, SQLite and PostgreSQL side by side: card plays a second flat out
            (300 tables), and latency p50/p99 paced (2,000 tables at one action a second)
  scale     one node, then two, behind HAProxy (each node held to one core with taskset,
            the load generator hashing each table's clients to one node): card plays a
            second flat out, the ratio, and the CPU each process spent a card play (what a
            third node would need)
  failover  three nodes behind HAProxy, the busiest killed with SIGKILL ten times: from the
            kill to the last of its clients playing again, p50 and max (bench/cluster_failover)
Figures, not assertions: README.md keeps them.
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIMITS = ["--connections-per-address", "30000", "--messages-per-second", "1000", "--turn-seconds", "0",
          "--players-per-address-per-minute", "1000000", "--tables-per-address", "1000000", "--tables-per-player",
          "100000", "--max-tables", "1000000", "--log-level", "warn"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(port, path="/healthz", seconds=30, source="127.0.0.1"):
    # A node behind HAProxy trusts 127.0.0.1 and wants a PROXY header from it: asked from 127.0.0.2.
    for _ in range(seconds * 10):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1, source_address=(source, 0))
            c.request("GET", path)
            if c.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"nothing answers on port {port}")


def cpu_seconds(pid):
    """User and system CPU of a process, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu():
    """CPU of every process of the postgres user (the benchmark's cluster is the only one running)."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/status") as f:
                uid = next(line.split()[1] for line in f if line.startswith("Uid:"))
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
            if comm in ("postgres", "postmaster") or (uid != "0" and comm.startswith("postgres")):
                total += cpu_seconds(int(pid))
        except (OSError, StopIteration):
            continue
    return total


class Postgres:
    """A PostgreSQL of the benchmark's own, with the defaults (fsync on)."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="sparts-figures-pg-")
        os.chmod(self.dir, 0o755)
        env = dict(os.environ, SPARTS_PG_DURABLE="1")
        self.url = subprocess.run([os.path.join(ROOT, "tests/support/postgres.sh"), "start", self.dir], env=env,
                                  stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        self.count = 0

    def database(self):
        self.count += 1
        name = f"figures{self.count}"
        subprocess.run(["psql", self.url, "-q", "-c", f"CREATE DATABASE {name}"], check=True)
        return self.url.replace("/postgres?", f"/{name}?")

    def stop(self):
        subprocess.run([os.path.join(ROOT, "tests/support/postgres.sh"), "stop", self.dir], check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


class Node:
    def __init__(self, binary, database, flags=(), cpu=None):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="sparts-figures-")
        db = os.path.join(self.dir, "sparts.db") if database == "sqlite" else database
        cmd = [binary, "--port", str(self.port), "--database", db] + LIMITS + list(flags)
        if cpu is not None:
            cmd = ["taskset", "-c", str(cpu)] + cmd
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            wait_http(self.port, source="127.0.0.2")
        except RuntimeError:
            self.proc.kill()
            raise RuntimeError("the server did not start: " + self.proc.communicate()[1][-2000:])

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class HAProxy:
    def __init__(self, node_ports):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="sparts-figures-haproxy-")
        servers = "".join(f"  server n{i} 127.0.0.1:{p} check\n" for i, p in enumerate(node_ports))
        config = f"""global
  maxconn 9000
defaults
  mode http
  timeout connect 1s
  timeout check 500ms
  timeout client 120s
  timeout server 120s
  timeout tunnel 1h
  retries 3
  option redispatch 1
frontend clients
  bind 127.0.0.1:{self.port}
  default_backend nodes
backend nodes
  balance url_param table
  hash-type consistent
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 250ms fall 2 rise 2 send-proxy-v2 check-send-proxy maxconn 9000
{servers}"""
        path = os.path.join(self.dir, "haproxy.cfg")
        with open(path, "w") as f:
            f.write(config)
        self.proc = subprocess.Popen(["haproxy", "-db", "-f", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_http(self.port)

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def load(args, port, *flags, server_pid=None):
    cmd = [args.load, "--port", str(port), "--json", "--progress-seconds", "1000"] + [str(f) for f in flags]
    if server_pid:
        cmd += ["--server-pid", str(server_pid)]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=False)
    return json.loads(out.stdout.strip().splitlines()[-1])


def backends(args, pg):
    rows = {}
    for name in ("sqlite", "postgresql"):
        database = "sqlite" if name == "sqlite" else pg.database()
        node = Node(args.server, database)
        try:
            flat = load(args, node.port, "--tables", 300, "--seconds", args.seconds, "--warmup-seconds", 3,
                        server_pid=node.proc.pid)
        finally:
            node.stop()
        database = "sqlite" if name == "sqlite" else pg.database()
        node = Node(args.server, database)
        try:
            paced = load(args, node.port, "--tables", 2000, "--think-ms", 1000, "--seconds", args.seconds,
                         "--warmup-seconds", 5, server_pid=node.proc.pid)
        finally:
            node.stop()
        rows[name] = (flat, paced)
    for name, (flat, paced) in rows.items():
        lat = paced["latency_ms"]
        print(f"backends {name:10}: {flat['card_plays_per_second']:7.0f} card plays/s flat out (300 tables); "
              f"paced 2,000 tables: p50 {lat['p50']:.1f} ms, p99 {lat['p99']:.1f} ms; errors {flat['errors'] + paced['errors']}",
              flush=True)


def scale(args, pg):
    if not shutil.which("taskset"):
        print("scale    skipped: no taskset")
        return
    rates = {}
    for count in (1, 2):
        database = pg.database()
        nodes = [Node(args.server, database, ["--node-id", f"n{i}", "--trusted-proxies", "127.0.0.1", "--proxy-protocol",
                                              "v2", "--threads", "1"], cpu=i % os.cpu_count())
                 for i in range(count)]
        proxy = HAProxy([n.port for n in nodes])
        try:
            cpu0 = [cpu_seconds(n.proc.pid) for n in nodes] + [cpu_seconds(proxy.proc.pid), postgres_cpu()]
            f = load(args, proxy.port, "--tables", 300 * count, "--seconds", args.seconds, "--warmup-seconds", 3,
                     "--route-by-table")
            cpu1 = [cpu_seconds(n.proc.pid) for n in nodes] + [cpu_seconds(proxy.proc.pid), postgres_cpu()]
        finally:
            proxy.stop()
            for n in nodes:
                n.stop()
        plays = max(1, f["card_plays"])
        used = [(b - a) / plays * 1e6 for a, b in zip(cpu0, cpu1)]
        rates[count] = f["card_plays_per_second"]
        print(f"scale    {count} node(s), each on one core, through HAProxy: {f['card_plays_per_second']:.0f} card "
              f"plays/s; CPU a card play: nodes {', '.join(f'{u:.0f}' for u in used[:count])} µs, HAProxy "
              f"{used[count]:.0f} µs, PostgreSQL {used[count + 1]:.0f} µs; errors {f['errors']}", flush=True)
    print(f"scale    two nodes against one: {rates[2] / max(1, rates[1]):.2f}x ({os.cpu_count()} cores on this machine, "
          f"shared with HAProxy, PostgreSQL and the load generator)", flush=True)


def failover(args, pg):
    if not args.failover:
        print("failover skipped: give --failover build/bench/cluster_failover")
        return
    env = dict(os.environ, SPARTS_TEST_POSTGRES=pg.dir)
    out = subprocess.run([args.failover, "--kills", "10", "--tables", "40"], env=env, stdout=subprocess.PIPE, text=True,
                         check=False)
    for line in out.stdout.splitlines():
        print("failover " + line, flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", required=True)
    p.add_argument("--load", required=True)
    p.add_argument("--failover", help="build/bench/cluster_failover")
    p.add_argument("--seconds", type=int, default=20)
    p.add_argument("--only", nargs="*", default=["backends", "scale", "failover"])
    args = p.parse_args()
    pg = Postgres()
    try:
        for name in args.only:
            {"backends": backends, "scale": scale, "failover": failover}[name](args, pg)
    finally:
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
