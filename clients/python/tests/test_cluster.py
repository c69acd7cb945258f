"""The Python client against a real cluster: two sparts-server nodes on one PostgreSQL
database behind HAProxy (as web/tests/cluster-support.mjs and tests/server/cluster.cpp
make one), and a table handed from one node to the other mid-game (PROTOCOL.md §18).

Four Python bots play a game of Spades (two hands) at one table, each on its own
connection at /ws?table=ID through HAProxy. Mid-game the node holding the table gets
SIGTERM: it drains (/readyz 503, so HAProxy takes it out of the hash), hands the table
over (`closing` with reason `moved`, close 4005) and exits. Every client must follow at
once to /ws?table=ID, reach the other node, `resume` from its last seq and get exactly
the events it missed (no gap, no snapshot, no resync), and the game must end for all
four; the archive, read through HAProxy, then lists the game.

Skipped, saying why, unless SPARTS_TEST_POSTGRES names the folder of a running
PostgreSQL (CTest's fixture, or `bash tests/support/postgres.sh start DIR`) and haproxy
and psql are installed.
"""
import asyncio
import ctypes
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import DEFAULT_SERVER
from test_client import CheckingBot, assert_no_gap, assert_secret, run

from sparts_client import SpartsClient, play_table

LEASE_MS = 3000     # as web/tests/cluster-support.mjs
DRAIN_MS = 1000     # /readyz 503 this long before the hand-over: HAProxy's checks (every 250 ms, fall 2) take the node out first


def cluster_missing():
    """Why no cluster can be started here, or None."""
    pg = os.environ.get("SPARTS_TEST_POSTGRES")
    if not pg:
        return ("SPARTS_TEST_POSTGRES is not set: it names the folder of a running PostgreSQL "
                "(bash tests/support/postgres.sh start DIR)")
    if not os.path.isdir(pg):
        return f"SPARTS_TEST_POSTGRES names {pg}, which does not exist"
    for program in ("haproxy", "psql"):
        if not shutil.which(program):
            return f"{program} is not installed (scripts/install-deps.sh installs it)"
    return None


# The PROXY protocol v2 header of a LOCAL connection (as HAProxy's own health checks send):
# a node with --proxy-protocol v2 wants it first from 127.0.0.1.
PROXY_V2_LOCAL = bytes([0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A,
                        0x20, 0x00, 0x00, 0x00])


def probe(port, path, proxy_header=False, timeout=1.0):
    """GET `path` from 127.0.0.1:port over a raw socket; the status (0: no answer)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            if proxy_header:
                s.sendall(PROXY_V2_LOCAL)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            got = b""
            while b"\r\n" not in got:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
    except OSError:
        return 0
    m = re.match(rb"HTTP/1\.[01] (\d{3})", got)
    return int(m.group(1)) if m else 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, what, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise TimeoutError(f"timed out after {timeout} s waiting for {what}")


def _die_with_parent():
    """In the child: SIGKILL when the test process dies without its finalizers (Linux)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except OSError:
        pass


def haproxy_config(port, node_ports):
    """As web/tests/cluster-support.mjs's haproxyConfig (tests/server/cluster.cpp's haproxy_config)."""
    c = ("global\n"
         "  maxconn 4000\n"
         "defaults\n"
         "  mode http\n"
         "  timeout connect 1s\n"
         "  timeout check 500ms\n"
         "  timeout client 120s\n"
         "  timeout server 120s\n"
         "  timeout tunnel 1h\n"
         "  retries 3\n"
         "  option redispatch 1\n"
         "frontend clients\n"
         f"  bind 127.0.0.1:{port}\n"
         "  default_backend nodes\n"
         "backend nodes\n"
         "  balance url_param table\n"
         "  hash-type consistent\n"
         "  option httpchk GET /readyz\n"
         "  http-check expect status 200\n"
         "  default-server inter 250ms fall 2 rise 2 send-proxy-v2 check-send-proxy\n")
    for i, p in enumerate(node_ports):
        c += f"  server n{i} 127.0.0.1:{p} check\n"
    return c


class Node:
    def __init__(self, i, proc, log):
        self.id, self.proc, self.log, self.port = f"n{i}", proc, log, 0

    def output(self):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def running(self):
        return self.proc.poll() is None


class Cluster:
    """PostgreSQL (SPARTS_TEST_POSTGRES) with a database of this test's own, `nodes`
    sparts-server nodes on it (--node-id n0, n1, ...) and HAProxy in front."""

    def __init__(self, nodes=2):
        self.pg = os.path.realpath(os.environ["SPARTS_TEST_POSTGRES"])
        self.binary = os.environ.get("SPARTS_SERVER") or os.path.abspath(DEFAULT_SERVER)
        self.count = nodes
        self.database = f"py_cluster_{os.getpid()}_{random.randrange(10 ** 6)}"
        self.created = False
        self.nodes = []
        self.proxy = None
        self.port = 0
        self.scratch = tempfile.mkdtemp(prefix="sparts-py-cluster-")

    def db_url(self, db=None):
        return f"postgresql://sparts@/{db or self.database}?host={self.pg}"

    def psql(self, sql, db=None):
        return subprocess.run(["psql", self.db_url(db), "-v", "ON_ERROR_STOP=1", "-qAtX", "-c", sql],
                              check=True, capture_output=True, text=True, timeout=20).stdout.strip()

    def holder(self, table):
        """The node holding `table` by its lease ("n0", "n1"; "" when none)."""
        quoted = table.replace("'", "''")
        return self.psql(f"SELECT node FROM leases WHERE table_id = '{quoted}'")

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.psql(f"CREATE DATABASE {self.database}", db="postgres")
        self.created = True
        # One node after the other, as the JavaScript and C++ cluster tests do: the first
        # makes the schema (two nodes starting together on an empty database race to).
        for i in range(self.count):
            self.nodes.append(self._start_node(i))
        self.port = free_port()
        config = os.path.join(self.scratch, "haproxy.cfg")
        with open(config, "w") as f:
            f.write(haproxy_config(self.port, [n.port for n in self.nodes]))
        self.proxy_log = os.path.join(self.scratch, "haproxy.log")
        with open(self.proxy_log, "w") as out:
            self.proxy = subprocess.Popen(["haproxy", "-db", "-f", config], stdout=out,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                          preexec_fn=_die_with_parent)

        def proxy_up():
            if self.proxy.poll() is not None:
                raise RuntimeError(f"haproxy exited at start ({self.proxy.returncode})")
            return probe(self.port, "/healthz") == 200
        wait_for(proxy_up, f"HAProxy to accept on port {self.port}", 15)
        time.sleep(0.5)     # HAProxy's first health checks of the nodes (every 250 ms)
        return self

    def _start_node(self, i):
        log = os.path.join(self.scratch, f"n{i}.log")
        args = [self.binary, "--database", self.db_url(), "--node-id", f"n{i}", "--port", "0",
                "--lease-ms", str(LEASE_MS), "--drain-ms", str(DRAIN_MS),
                "--trusted-proxies", "127.0.0.1", "--proxy-protocol", "v2",
                # every client comes through HAProxy, from 127.0.0.1 as far as limits go: lift them
                "--messages-per-second", "100000", "--connections-per-address", "100000",
                "--players-per-address-per-minute", "100000", "--tables-per-address", "100000",
                "--archive-reads-per-minute", "100000", "--log-level", "info"]
        with open(log, "w") as out:
            proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        node = Node(i, proc, log)

        def listening():
            if not node.running():
                raise RuntimeError(f"node {node.id} exited at start ({proc.returncode}):\n{node.output()}")
            m = re.search(r"^listening on 127\.0\.0\.1:(\d+)$", node.output(), re.M)
            if m:
                node.port = int(m.group(1))
            return bool(m)
        wait_for(listening, f"node {node.id} to listen", 30)
        wait_for(lambda: listening() and probe(node.port, "/healthz", True) == 200
                 and probe(node.port, "/readyz", True) == 200,
                 f"node {node.id}'s /healthz and /readyz on port {node.port}", 30)
        return node

    def sigterm(self, node_id):
        """SIGTERM to a node: it drains, hands its tables over, and exits."""
        next(n for n in self.nodes if n.id == node_id).proc.send_signal(signal.SIGTERM)

    def logs(self):
        s = ""
        for n in self.nodes:
            s += f"--- node {n.id} (port {n.port}, exit {n.proc.poll()})\n{n.output()}\n"
        if self.proxy is not None:
            with open(self.proxy_log, errors="replace") as f:
                s += f"--- haproxy\n{f.read()}\n"
        return s

    def stop(self):
        for p in ([self.proxy] if self.proxy else []) + [n.proc for n in self.nodes]:
            if p.poll() is None:
                p.kill()
            p.wait()
        if self.created:
            try:
                self.psql(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)", db="postgres")
                self.created = False
            except (subprocess.SubprocessError, OSError) as e:
                print(f"could not drop database {self.database}: {e}")
        shutil.rmtree(self.scratch, ignore_errors=True)


@pytest.fixture
def cluster():
    missing = cluster_missing()
    if missing:
        pytest.skip(f"no cluster can be started here: {missing}")
    c = Cluster(nodes=2)
    try:
        c.start()
    except BaseException:
        print(c.logs())
        c.stop()
        raise
    yield c
    c.stop()


class Thinker(SpartsClient):
    """A client whose bot takes a moment to think before each action (`pace["think"]`
    seconds, the dict shared by the test's clients), so that the game lasts past the
    node's drain (4 Python bots answering at once finish a game in well under a second)."""

    def __init__(self, url, name, pace):
        super().__init__(url, name)
        self.pace = pace

    async def act(self, table, action):
        await asyncio.sleep(self.pace["think"])
        return await super().act(table, action)


def instrument(client):
    """Notes, per connection, the URL opened, the close code and the resumes sent; every
    message received goes to `log` with the number of the connection it came on."""
    client.urls, client.close_codes, client.resumes_sent, client.sent, client.log = [], [], [], [], []
    ws_url, read, send = client._ws_url, client._read, client._send

    def _ws_url():
        url = ws_url()
        client.urls.append(url)
        return url

    async def _read(ws):
        await read(ws)
        client.close_codes.append(ws.close_code)

    async def _send(msg):
        client.sent.append((client.stats["connects"], dict(msg)))
        if msg.get("type") == "resume":
            client.resumes_sent.append((client.stats["connects"], dict(msg)))
        await send(msg)

    client._ws_url, client._read, client._send = _ws_url, _read, _send
    client.on_message.append(lambda m: client.log.append((client.stats["connects"], m)))


def test_table_moves_mid_game_and_every_client_follows(cluster):
    t0 = time.monotonic()
    moved = {}

    async def main():
        lobby = SpartsClient(cluster.url, "Lobby")
        await lobby.connect()
        table = (await lobby.create_table("spades", {"hand_cap": 2}))["table"]
        await lobby.close()          # a lobby connection follows no table: nothing to move

        table_url = f"{cluster.url}?table={table}"
        pace = {"think": 0.025}
        clients = moved["clients"] = [Thinker(table_url, f"Py{i}", pace) for i in range(4)]
        for c in clients:
            instrument(c)
            await c.connect()
        checkers = [c.subscribe(table) for c in clients]
        tasks = []
        for i, c in enumerate(clients):
            tasks.append(asyncio.ensure_future(play_table(c, table, CheckingBot(), seat=i)))
            while c.table(table).you is None:     # seated, in order; the last to sit starts
                if tasks[-1].done():
                    tasks[-1].result()
                await asyncio.sleep(0.01)

        # The node holding the table: the one /ws?table=ID leads to, by its lease too.
        nodes = {m["node"] for c in clients for n, m in c.log if m.get("re") == "hello"}
        assert len(nodes) == 1, f"every /ws?table={table} connection reaches one node: {nodes}"
        holder = nodes.pop()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while (await loop.run_in_executor(None, cluster.holder, table)) != holder:
            assert loop.time() < deadline, f"{holder} never held {table} by its lease"
            await asyncio.sleep(0.05)

        # Mid first hand (bids made, cards played), the holder is stopped: it drains, then
        # hands the table over while the bots keep playing.
        while clients[0].table(table).seq < 30:
            assert not any(t.done() for t in tasks), [t.result() for t in tasks if t.done()]
            await asyncio.sleep(0.005)
        moved["holder"] = holder
        moved["seq"] = clients[0].table(table).seq
        cluster.sigterm(holder)

        async def hurry():
            # Around the hand-over (DRAIN_MS after the SIGTERM) the bots answer at once, so
            # that an action often reaches the node while it hands the table over: refused
            # with table_moved, to be sent again on the other node (PROTOCOL.md §18).
            await asyncio.sleep(DRAIN_MS / 1000 - 0.05)
            pace["think"] = 0
            end = loop.time() + 1
            while loop.time() < end and not any(m["type"] == "closing" for c in clients for _, m in c.log):
                await asyncio.sleep(0.002)
            pace["think"] = 0.025
        hurrying = asyncio.ensure_future(hurry())
        models = await asyncio.gather(*tasks)
        await hurrying
        for c in clients:
            await c.close()
        return table, clients, models, checkers

    try:
        table, clients, models, checkers = run(main(), timeout=45)
        holder = moved["holder"]
        other = next(n.id for n in cluster.nodes if n.id != holder)
        old = next(n for n in cluster.nodes if n.id == holder)
        try:
            code = old.proc.wait(15)
        except subprocess.TimeoutExpired:
            code = "still running"
        assert code == 0, f"node {holder} exits cleanly after SIGTERM: {code}"

        for seat, c in enumerate(clients):
            who = f"seat {seat} ({c.name})"
            # told where the table went, then closed with 4005
            closings = [m for _, m in c.log if m["type"] == "closing"]
            assert closings == [{"type": "closing", "reason": "moved", "table": table}], (who, closings)
            assert c.close_codes[0] == 4005, (who, c.close_codes)
            # ... mid-game: before the game's end, which came on the new connection
            over = [n for n, m in c.log if m["type"] == "event" and m["event"]["type"] == "game_over"]
            assert over == [2], (who, "game_over on the second connection", over)
            # followed at once (one reconnection, no backoff) to /ws?table=ID, through HAProxy,
            # to the other node
            assert c.stats["connects"] == 2, (who, c.stats)
            assert c.urls == [f"{cluster.url}?table={table}"] * 2, (who, c.urls)
            hellos = [(n, m["node"]) for n, m in c.log if m.get("re") == "hello"]
            assert hellos == [(1, holder), (2, other)], (who, hellos)
            # resumed from its last seq: exactly the events missed (mode "events"), no gap
            # seen, so no resync (a second resume) and no snapshot after the first
            assert [n for n, _ in c.resumes_sent] == [2] and c.stats["resumes"] == 1, (who, c.resumes_sent, c.stats)
            sent = c.resumes_sent[0][1]
            assert sent["table"] == table and sent["seq"] > moved["seq"], (who, sent)
            oks = [m for _, m in c.log if m.get("re") == "resume"]
            assert len(oks) == 1 and oks[0]["mode"] == "events" and oks[0]["from"] == sent["seq"] + 1, (who, oks)
            snapshots = [n for n, m in c.log if m["type"] == "snapshot"]
            assert snapshots == [1], (who, "one snapshot, at sit", snapshots)
            assert c.stats["gaps"] == 0 and c.stats["rate_limited"] == 0, (who, c.stats)
            # on the new connection the game went on: cards played there, and a turn of this seat
            after = [m for n, m in c.log if n == 2 and m["type"] == "event"]
            assert sum(m["event"]["type"] == "card_played" for m in after) > 4, (who, len(after))
            assert any(n == 2 and m["type"] == "your_turn" for n, m in c.log), who
            # no refusal but the start of a game already started (every bot tries, once the
            # table is full) and table_moved: an action that reached the node as it handed the
            # table over, sent again, on the new connection, after the resume
            for n, m in c.log:
                if m["type"] == "error" and m.get("re") == "start":
                    assert m["code"] in ("already_started", "seats_not_full"), (who, m)
                elif m["type"] == "error":
                    assert m["code"] == "table_moved" and n == 1, (who, m)
                    at = next(i for i, (_, x) in enumerate(c.sent) if x.get("id") == m["id"])
                    refused = c.sent[at][1]
                    again = next((k, x) for k, x in c.sent[at + 1:] if x["type"] == refused["type"])
                    assert again[0] == 2 and again[1].get("action") == refused.get("action"), \
                        (who, "sent again, on the new connection", refused, again)
                    moved["table_moved"] = moved.get("table_moved", 0) + 1
            assert assert_no_gap(checkers[seat]) > 100, who
            assert_secret([m for _, m in c.log], seat)
            assert models[seat].game_over is not None and models[seat].phase == "game_over", who
            assert models[seat].game_over["hands_played"] == 2, (who, models[seat].game_over)

        assert len({json.dumps(m.game_over, sort_keys=True) for m in models}) == 1, "one game, one end"
        ends = {m["seq"] for c in clients for _, m in c.log
                if m["type"] == "event" and m["event"]["type"] == "game_over"}
        assert len(ends) == 1, f"the game ended at one seq for every client: {ends}"
        assert cluster.holder(table) in (other, ""), f"{other} held {table} to the end"

        # The archive, read through HAProxy (the other node answers), lists the game.
        def games():
            with urllib.request.urlopen(cluster.http + "/api/games?limit=100", timeout=10) as r:
                assert r.status == 200
                return json.loads(r.read())["games"]
        deadline = time.monotonic() + 5
        while not any(g["table"] == table and g["game"] == 1 for g in games()):
            assert time.monotonic() < deadline, f"the archive lists {table}'s game: {games()}"
            time.sleep(0.1)
        print(f"moved from {holder} to {other} (SIGTERM at seq {moved['seq']}); "
              f"{moved.get('table_moved', 0)} action(s) refused with table_moved and sent again; "
              f"{time.monotonic() - t0:.1f} s in the test")
    except BaseException:
        print(cluster.logs())
        for c in moved.get("clients", []):      # what each client got around the move
            at = next((i for i, (_, m) in enumerate(c.log) if m["type"] == "closing"), len(c.log))
            print(f"--- {c.name}: urls {c.urls}, close codes {c.close_codes}, stats {c.stats}")
            for n, m in c.log[max(0, at - 12):at + 12]:
                print(f"  [{n}] {json.dumps(m)[:200]}")
        raise
