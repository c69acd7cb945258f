#!/usr/bin/env python3
"""Soak test for sparts-server: one real server, a long run, ordinary play and abuse.

Starts sparts-server on a free port with a fresh database in a temporary folder,
plays paced games on it with sparts-load for the whole run, and meanwhile, on a
schedule that repeats every minute, throws at it reconnect storms, slow readers,
floods of new players, tables and malformed frames, HTTP floods and slowloris
connections, and reads its archive all along. Once a minute it prints the server's
RSS, WAL size, open file descriptors, the p99 of sparts_action_to_broadcast_seconds
over that minute, card plays and handler exceptions. It exits non-zero when RSS,
WAL or descriptors kept growing, when the server died, or when a handler threw.

Standard library only. Usage: tools/soak/README.md (or scripts/soak.sh --help).
"""

import argparse
import base64
import hashlib
import json
import math
import os
import random
import re
import resource
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field

HOST = "127.0.0.1"
MIB = 1024 * 1024

# The soak's own clients all come from 127.0.0.1, so the per-address limits
# that protect a public server would refuse most of them: these raise them.
# The storms' bots play flat out, far faster than a person: one seat of a fast
# table sends more than the default 20 messages a second, and a sparts-load
# table whose act is refused stalls, so the message rate is raised too, to 100
# (tools/load/README.md uses 1000; at 100 the message flood still reliably gets
# 100 refusals in a row, and so close 4001). Everything else keeps the server's
# defaults, so the abuse meets the real limits (flood close, write queue, frame
# size, HTTP deadline, tables per player).
GENEROUS_LIMITS = [
    "--connections-per-address", "100000",
    "--players-per-address-per-minute", "1000000",
    "--tables-per-address", "100000",
    "--archive-reads-per-minute", "1000000",
    "--messages-per-second", "100",
]
MESSAGE_BURST = 200  # twice --messages-per-second
HTTP_REQUEST_SECONDS = 10  # the server's default --http-request-seconds
WRITE_QUEUE_BYTES = 262144  # the server's default --write-queue-bytes

# What counts as "kept growing": the average of the last quarter of the
# minutes more than GROWTH_RATIO times that of the second quarter, and by more
# than the floor (so that a few MiB or a few descriptors of noise pass).
GROWTH_RATIO = 1.25
GROWTH_FLOOR = {"rss": 16 * MIB, "wal": 16 * MIB, "fds": 64}

P99_METRIC = "sparts_action_to_broadcast_seconds"
PLAYS_METRIC = "sparts_card_plays_total"
EXCEPTIONS_METRIC = "sparts_handler_exceptions_total"


# --------------------------------------------------------------------------
# A minimal WebSocket client (RFC 6455): handshake, masked frames out,
# unmasked frames in.
# --------------------------------------------------------------------------

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10


class Closed(Exception):
    """The connection ended: code is the close frame's code, or None (EOF, reset)."""

    def __init__(self, code, reason=""):
        super().__init__(f"closed {code} {reason}")
        self.code = code
        self.reason = reason


def mask_bytes(payload, key):
    """XOR payload with the 4-byte key, as a client must (RFC 6455 5.3)."""
    n = len(payload)
    if n == 0:
        return b""
    stream = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(stream, "big")).to_bytes(n, "big")


def encode_frame(opcode, payload, fin=True, masked=True, length=None):
    """One frame. `length` may lie about the payload's length (for abuse)."""
    n = len(payload) if length is None else length
    first = (0x80 if fin else 0) | opcode
    mask_bit = 0x80 if masked else 0
    if n < 126:
        header = bytes([first, mask_bit | n])
    elif n < 65536:
        header = bytes([first, mask_bit | 126]) + struct.pack("!H", n)
    else:
        header = bytes([first, mask_bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return header + payload
    key = os.urandom(4)
    return header + key + mask_bytes(payload, key)


class WebSocket:
    def __init__(self, port, timeout=10.0, receive_buffer=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect((HOST, port))
        self.buffer = bytearray()
        self.next_id = 1
        self.upgrade(port)

    def upgrade(self, port):
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /ws HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        while b"\r\n\r\n" not in self.buffer:
            self.fill()
        end = self.buffer.index(b"\r\n\r\n")
        head = bytes(self.buffer[:end]).decode("latin-1")
        del self.buffer[:end + 4]
        status = head.split("\r\n", 1)[0]
        if " 101 " not in status + " ":
            raise ConnectionError(f"upgrade refused: {status}")
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        if f"sec-websocket-accept: {accept.lower()}" not in head.lower():
            raise ConnectionError("upgrade: wrong Sec-WebSocket-Accept")

    def fill(self):
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            raise Closed(None, "reset") from None
        if not data:
            raise Closed(None, "end of stream")
        self.buffer += data

    def take(self, n):
        while len(self.buffer) < n:
            self.fill()
        out = bytes(self.buffer[:n])
        del self.buffer[:n]
        return out

    def send_frame(self, opcode, payload, **options):
        self.sock.sendall(encode_frame(opcode, payload, **options))

    def send_text(self, text):
        self.send_frame(OP_TEXT, text if isinstance(text, bytes) else text.encode())

    def send_json(self, message):
        self.send_text(json.dumps(message))

    def read_frame(self):
        first, second = self.take(2)
        n = second & 0x7F
        if n == 126:
            n = struct.unpack("!H", self.take(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self.take(8))[0]
        key = self.take(4) if second & 0x80 else None
        payload = self.take(n)
        if key:
            payload = mask_bytes(payload, key)
        return bool(first & 0x80), first & 0x0F, payload

    def read_message(self):
        """The next data message (opcode, payload); answers pings, raises Closed at a close frame."""
        parts, opcode = [], None
        while True:
            fin, op, payload = self.read_frame()
            if op == OP_PING:
                self.send_frame(OP_PONG, payload)
                continue
            if op == OP_PONG:
                continue
            if op == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                try:
                    self.send_frame(OP_CLOSE, payload[:2])
                except OSError:
                    pass
                raise Closed(code, payload[2:].decode("utf-8", "replace"))
            if op != OP_CONTINUATION:
                opcode = op
            parts.append(payload)
            if fin:
                return opcode, b"".join(parts)

    def read_json(self):
        _, payload = self.read_message()
        return json.loads(payload)

    def request(self, message):
        """Send a request with a fresh id and return its reply (ok or error), skipping events."""
        message = dict(message, id=self.next_id)
        self.next_id += 1
        self.send_json(message)
        while True:
            reply = self.read_json()
            if reply.get("type") in ("ok", "error") and reply.get("id") == message["id"]:
                return reply

    def hello(self, name="soak"):
        return self.request({"type": "hello", "protocol": 1, "name": name})

    def close(self, abrupt=False):
        try:
            if abrupt:  # a reset, as when a phone loses its network
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            else:
                self.send_frame(OP_CLOSE, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


def reply_outcome(ws):
    """What the server did with the last frame sent: 'error CODE', 'ok', 'close CODE' or 'no answer'."""
    try:
        while True:
            reply = ws.read_json()
            if reply.get("type") == "error":
                return f"error {reply.get('code')}"
            if reply.get("type") == "ok":
                return f"ok {reply.get('re')}"
    except Closed as closed:
        return f"close {closed.code}" if closed.code else "dropped"
    except (TimeoutError, socket.timeout):
        return "no answer"
    except ValueError:
        return "unreadable reply"
    except OSError as e:
        return f"dropped ({e.__class__.__name__})"


# --------------------------------------------------------------------------
# Plain HTTP over raw sockets (targets may hold any bytes).
# --------------------------------------------------------------------------

def http_exchange(port, raw_request, timeout=5.0):
    """Send raw bytes, read until the server closes; returns the bytes received."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(raw_request)
        chunks = []
        while True:
            data = sock.recv(65536)
            if not data:
                return b"".join(chunks)
            chunks.append(data)


def split_response(raw):
    """(status, headers, body) of one HTTP response; status 0 when there is none."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        return 0, {}, b""
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = dechunk(body)
    return int(parts[1]), headers, body


def dechunk(body):
    out = bytearray()
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += rest[:size]
        body = rest[size + 2:]
    return bytes(out)


def http_get(port, target, timeout=10.0):
    """GET target (str or bytes) with Connection: close: (status, body)."""
    if isinstance(target, str):
        target = target.encode()
    raw = http_exchange(port, b"GET " + target + b" HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n", timeout)
    status, _, body = split_response(raw)
    return status, body


def http_status_of(port, raw_request, timeout=5.0):
    """The status the server answered a raw request with (its status line is enough: the
    connection may stay open), or what happened instead: dropped, reset, no answer."""
    received = b""
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as sock:
            sock.sendall(raw_request)
            while b"\r\n" not in received:
                data = sock.recv(4096)
                if not data:
                    break
                received += data
    except (TimeoutError, socket.timeout):
        return "no answer"
    except ConnectionResetError:
        return "reset" if not received else "garbage"
    except OSError as e:
        return f"error {e.__class__.__name__}"
    if not received:
        return "dropped"
    parts = received.split(b"\r\n", 1)[0].split(b" ")
    return parts[1].decode() if len(parts) > 1 and parts[0].startswith(b"HTTP/") and parts[1].isdigit() else "garbage"


# --------------------------------------------------------------------------
# What is measured: /proc and /metrics.
# --------------------------------------------------------------------------

def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def wal_bytes(database):
    try:
        return os.path.getsize(database + "-wal")
    except FileNotFoundError:
        return 0


def scrape_metrics(port):
    """Every sample of GET /metrics: {'name{labels}': value}."""
    status, body = http_get(port, "/metrics", timeout=15)
    if status != 200:
        raise RuntimeError(f"/metrics answered {status}")
    values = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return values


def histogram_buckets(metrics, name):
    """[(upper bound in seconds, cumulative count)], +Inf last."""
    prefix = name + '_bucket{le="'
    buckets = []
    for key, value in metrics.items():
        if key.startswith(prefix):
            bound = key[len(prefix):-2]
            buckets.append((math.inf if bound == "+Inf" else float(bound), value))
    return sorted(buckets)


def quantile_between(before, after, name, q=0.99):
    """The q-quantile of a histogram over the observations made between two scrapes,
    interpolated within its bucket as Prometheus' histogram_quantile does. None when
    nothing was observed; math.inf when it lies past the last finite bound."""
    old = dict(histogram_buckets(before, name))
    deltas = [(bound, count - old.get(bound, 0)) for bound, count in histogram_buckets(after, name)]
    if not deltas or deltas[-1][1] <= 0:
        return None
    rank = q * deltas[-1][1]
    lower, below = 0.0, 0.0
    for bound, count in deltas:
        if count >= rank:
            if math.isinf(bound):
                return math.inf
            return lower + (bound - lower) * (rank - below) / max(count - below, 1e-9)
        lower, below = bound, count
    return math.inf


def counter_delta(before, after, name):
    return after.get(name, 0) - before.get(name, 0)


# --------------------------------------------------------------------------
# The server under test.
# --------------------------------------------------------------------------

class Server:
    def __init__(self, binary, folder, extra_flags):
        self.database = os.path.join(folder, "soak.db")
        self.log_path = os.path.join(folder, "server.log")
        # Every host feature on: logins, the admin API (their secrets in files of the soak's folder).
        login_secret = os.path.join(folder, "login-secret")
        admin_token = os.path.join(folder, "admin-token")
        with open(login_secret, "w") as f:
            f.write(LOGIN_SECRET)
        with open(admin_token, "w") as f:
            f.write(ADMIN_TOKEN)
        os.chmod(admin_token, 0o600)
        host_features = ["--login-algorithm", "HS256", "--login-secret-file", login_secret,
                         "--admin-token-file", admin_token, "--quick-play-wait-ms", "2000"]
        self.command = [os.path.abspath(binary), "--port", "0", "--database", self.database, "--log-level", "warn",
                        *GENEROUS_LIMITS, *host_features, *extra_flags]
        with open(self.log_path, "wb") as log:
            # A session of its own: a Ctrl-C reaches the soak only, which then stops the server.
            self.process = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        self.pid = self.process.pid
        self.port = self.wait_for_port()

    def wait_for_port(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path, errors="replace") as log:
                found = re.search(r"listening on [0-9.]+:(\d+)", log.read())
            if found:
                return int(found.group(1))
            if self.process.poll() is not None:
                raise RuntimeError(f"sparts-server exited at start ({self.exit_description()}):\n{self.log_tail()}")
            time.sleep(0.1)
        raise RuntimeError("sparts-server did not print 'listening on' in time")

    def alive(self):
        return self.process.poll() is None

    def exit_description(self):
        code = self.process.returncode
        if code is None:
            return "running"
        if code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def stop(self, grace=25):
        """SIGTERM, as an operator would; SIGKILL if it does not stop in time. True if it stopped cleanly."""
        if not self.alive():
            return False
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return False
        return self.process.returncode == 0

    def log_tail(self, lines=20):
        with open(self.log_path, errors="replace") as log:
            return "".join(log.readlines()[-lines:])

    def log_problems(self):
        """The log's error and critical lines (it runs at --log-level warn)."""
        with open(self.log_path, errors="replace") as log:
            return [line.rstrip() for line in log if "[error]" in line or "[critical]" in line]

    def log_warnings(self):
        with open(self.log_path, errors="replace") as log:
            return Counter(re.sub(r"^\[[^]]*\] \[warning\] ", "", line).split(":")[0][:80]
                           for line in log if "[warning]" in line)


# --------------------------------------------------------------------------
# sparts-load runs.
# --------------------------------------------------------------------------

def start_load(binary, port, out_path, flags):
    out = open(out_path, "wb")
    process = subprocess.Popen([os.path.abspath(binary), "--host", HOST, "--port", str(port), *flags],
                               stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    out.close()
    return process


def load_figure(output, label):
    """The first number after a label in sparts-load's figures ('card plays', 'errors', ...)."""
    found = re.search(r"^\s*" + re.escape(label) + r"\s+(\d+)", output, re.MULTILINE)
    return int(found.group(1)) if found else None


def load_figures(output):
    """sparts-load's figures, without its progress lines."""
    start = output.find("sparts-load:")
    return output[start:] if start >= 0 else output


# --------------------------------------------------------------------------
# One minute's sample.
# --------------------------------------------------------------------------

@dataclass
class Sample:
    minute: int
    rss: int
    wal: int
    fds: int
    metrics: dict = field(default_factory=dict)
    p99: object = None  # seconds, None (nothing observed), math.inf
    plays: object = None

    @property
    def connections(self):
        return self.metrics.get("sparts_connections")

    @property
    def tables(self):
        return self.metrics.get("sparts_tables_open")

    @property
    def players(self):
        return self.metrics.get("sparts_players_in_memory")

    @property
    def exceptions(self):
        return self.metrics.get(EXCEPTIONS_METRIC)


def format_p99(seconds):
    if seconds is None:
        return "-"
    if math.isinf(seconds):
        return ">1000"
    return f"{seconds * 1000:.1f}"


def format_count(value):
    return "?" if value is None else f"{int(value):,}"


TABLE_HEADER = (f"{'min':>4} {'RSS MiB':>8} {'WAL MiB':>8} {'fds':>6} {'conns':>6} {'tables':>6} {'players':>7} "
                f"{'p99 ms':>7} {'plays/min':>10} {'exceptions':>10}")


def format_row(sample):
    return (f"{sample.minute:>4} {sample.rss / MIB:>8.1f} {sample.wal / MIB:>8.1f} {sample.fds:>6} "
            f"{format_count(sample.connections):>6} {format_count(sample.tables):>6} "
            f"{format_count(sample.players):>7} {format_p99(sample.p99):>7} "
            f"{format_count(sample.plays) if sample.minute else '-':>10} {format_count(sample.exceptions):>10}")


# --------------------------------------------------------------------------
# The soak: a clock, a schedule, the activities and the verdict.
# --------------------------------------------------------------------------

class Soak:
    def __init__(self, options, server, folder):
        self.options = options
        self.server = server
        self.port = server.port
        self.folder = folder
        self.stopping = threading.Event()
        self.print_lock = threading.Lock()
        self.started = time.monotonic()
        self.threads = {}
        self.samples = []
        self.failures = []
        self.warnings = []
        self.max_rss = self.max_wal = self.max_fds = 0
        self.malformed_outcomes = {}
        self.http_outcomes = {}
        self.storm_runs = 0
        self.main_load = None
        self.storm_processes = []
        self.main_load_ended_early = False
        self.main_load_stopped = False  # by the soak itself, in a hurry

    # ---- output

    def clock(self):
        elapsed = int(time.monotonic() - self.started)
        return f"{elapsed // 60:02d}:{elapsed % 60:02d}"

    def say(self, text):
        with self.print_lock:
            print(text, flush=True)

    def note(self, activity, text):
        self.say(f"  [{self.clock()}] {activity}: {text}")

    def warn(self, activity, text):
        self.note(activity, "WARNING " + text)
        self.warnings.append(f"{activity}: {text}")

    def pause(self, seconds):
        """Sleep, unless the soak is stopping; False then."""
        return not self.stopping.wait(seconds)

    # ---- measuring

    def measure_process(self):
        pid = self.server.pid
        try:
            rss, wal, fds = rss_bytes(pid), wal_bytes(self.server.database), open_fds(pid)
        except OSError:  # the server is gone (or a zombie): the last figures stand
            last = self.samples[-1] if self.samples else Sample(0, 0, 0, 0)
            return last.rss, last.wal, last.fds
        self.max_rss, self.max_wal, self.max_fds = max(self.max_rss, rss), max(self.max_wal, wal), max(self.max_fds, fds)
        return rss, wal, fds

    def take_sample(self, minute):
        rss, wal, fds = self.measure_process()
        sample = Sample(minute, rss, wal, fds)
        try:
            sample.metrics = scrape_metrics(self.port)
        except Exception as e:  # noqa: BLE001 - a server that does not answer is a finding
            self.warn("metrics", f"minute {minute}: GET /metrics failed: {e}")
        if self.samples and self.samples[-1].metrics and sample.metrics:
            before = self.samples[-1].metrics
            sample.p99 = quantile_between(before, sample.metrics, P99_METRIC)
            sample.plays = counter_delta(before, sample.metrics, PLAYS_METRIC)
        if (sample.exceptions or 0) > 0 and not any("handler exception" in f for f in self.failures):
            self.failures.append(f"handler exceptions counted (first seen at minute {minute}): "
                                 f"see the server log")
        self.samples.append(sample)
        return sample

    # ---- running activities

    def launch(self, name, function, *args):
        running = self.threads.get(name)
        if running and running.is_alive():
            self.note(name, "skipped: the previous one is still running")
            return

        def guarded():
            try:
                function(*args)
            except Exception:  # noqa: BLE001 - a broken activity must not end the soak
                if not self.stopping.is_set():
                    self.warn(name, "the activity failed:\n" + traceback.format_exc())

        thread = threading.Thread(target=guarded, name=name, daemon=True)
        self.threads[name] = thread
        thread.start()

    def schedule(self):
        """(second of the minute, name, activity, whether it runs in minute m)."""
        every = max(1, self.options.storm_every)
        return [
            (1, "slow-readers", self.slow_readers, lambda m: m >= 1),  # once every table plays
            (3, "slowloris", self.slowloris, lambda m: True),
            (5, "storm", self.reconnect_storm, lambda m: m % every == every - 1),
            (20, "ws-floods", self.websocket_floods, lambda m: True),
            (30, "http-flood", self.http_flood, lambda m: True),
            (40, "host-features", self.host_features, lambda m: True),
        ]

    def run(self):
        options = self.options
        self.say(f"server pid {self.server.pid} on port {self.port}, database {self.server.database}")
        self.say(f"server command: {' '.join(self.server.command)}")
        self.take_sample(0)  # before any load: minute 0
        load_seconds = options.minutes * 60
        self.main_load = start_load(options.load, self.port, os.path.join(self.folder, "load.out"), [
            "--tables", str(options.tables), "--think-ms", str(options.think_ms),
            "--seconds", str(load_seconds), "--start-spread-seconds", "15",
            "--timeout", str(load_seconds + 600), "--server-pid", str(self.server.pid),
            "--progress-seconds", "60", "--seed", str(options.seed)])
        self.started = time.monotonic()
        self.say(f"ordinary play: sparts-load --tables {options.tables} --think-ms {options.think_ms} "
                 f"--seconds {load_seconds} (pid {self.main_load.pid})")
        self.launch("archive", self.archive_reads)
        self.say("")
        self.say(TABLE_HEADER)
        self.say(format_row(self.samples[0]))
        self.run_minutes()
        self.stopping.set()
        self.finish()

    def run_minutes(self):
        launched = set()
        next_minute, next_check = 1, 0.0
        while True:
            elapsed = time.monotonic() - self.started
            if elapsed >= next_minute * 60:
                self.say(format_row(self.take_sample(next_minute)))
                if next_minute == self.options.minutes:
                    return
                next_minute += 1
            minute = int(elapsed // 60)
            for second, name, activity, runs_in in self.schedule():
                if (minute, name) not in launched and elapsed >= minute * 60 + second and runs_in(minute):
                    launched.add((minute, name))
                    self.launch(name, activity, minute)
            if elapsed >= next_check:
                next_check = elapsed + 5
                if not self.server.alive():
                    self.failures.append(f"the server died at {self.clock()} ({self.server.exit_description()})")
                    self.say(f"\nTHE SERVER DIED at {self.clock()}: {self.server.exit_description()}; "
                             f"the end of its log:\n{self.server.log_tail(30)}")
                    return
                self.measure_process()
                if self.main_load.poll() is not None and not self.main_load_ended_early:
                    self.main_load_ended_early = True
                    self.warn("ordinary play", f"sparts-load ended early (exit status {self.main_load.returncode})")
            time.sleep(0.25)

    def finish(self, hurry=False):
        """Wait for the activities and ordinary play to end, then stop the server with SIGTERM.
        In a hurry (Ctrl-C, a dead server) ordinary play is stopped at once."""
        if hurry or not self.server.alive():
            self.stop_load_processes()
        for name, thread in self.threads.items():
            thread.join(timeout=10 if hurry else 60)
            if thread.is_alive() and not hurry:
                self.warn(name, "still running 60 s after the end")
        if self.main_load:
            self.wait_for_main_load()
        if self.server.alive():
            clean = self.server.stop()
            self.say(f"\nserver stopped with SIGTERM: {self.server.exit_description()}")
            if not clean:
                self.failures.append(f"the server did not stop cleanly at SIGTERM ({self.server.exit_description()})")

    def stop_load_processes(self):
        """SIGTERM to every sparts-load still running (ordinary play and storms)."""
        for process in [self.main_load, *self.storm_processes]:
            if process and process.poll() is None:
                process.terminate()
                if process is self.main_load:
                    self.main_load_stopped = True

    def wait_for_main_load(self):
        try:
            self.main_load.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.warn("ordinary play", "sparts-load still running 120 s after the end: killed")
            self.main_load.kill()
            self.main_load.wait()
        with open(os.path.join(self.folder, "load.out"), errors="replace") as out:
            output = out.read()
        self.say("\nordinary play, sparts-load's own figures "
                 f"(exit status {self.main_load.returncode}):\n{load_figures(output).rstrip()}")
        if self.main_load.returncode != 0 and not self.main_load_stopped:
            self.warn("ordinary play", f"sparts-load exited with status {self.main_load.returncode}")

    # ---- 1. ordinary play is the main sparts-load, started in run()

    # ---- 2. reconnect storms

    def reconnect_storm(self, minute):
        """A burst of short flat-out sparts-load runs at once: they connect, play and all disconnect."""
        options, runs = self.options, []
        per_run = max(1, options.storm_tables // options.storm_runs)
        for i in range(options.storm_runs):
            self.storm_runs += 1
            out_path = os.path.join(self.folder, f"storm-{minute}-{i}.out")
            process = start_load(options.load, self.port, out_path, [
                "--tables", str(per_run), "--seconds", str(options.storm_seconds),
                "--options", '{"target_score":100}', "--seed", str(1000 + self.storm_runs),
                "--progress-seconds", "3600", "--timeout", str(options.storm_seconds + 120)])
            self.storm_processes.append(process)
            runs.append((process, out_path))
        plays = games = errors = 0
        statuses = []
        for process, out_path in runs:
            try:
                process.wait(timeout=options.storm_seconds + 150)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            with open(out_path, errors="replace") as out:
                output = out.read()
            plays += load_figure(output, "card plays") or 0
            games += load_figure(output, "games finished") or 0
            errors += load_figure(output, "errors") or 0
            statuses.append(process.returncode)
        text = (f"{options.storm_runs} sparts-load runs x {per_run} tables flat out for {options.storm_seconds} s: "
                f"{plays:,} card plays, {games} games finished, {errors} errors, exit {statuses}")
        if errors or any(statuses):
            self.warn("storm", text + f" (outputs: {self.folder}/storm-{minute}-*.out)")
        else:
            self.note("storm", text)

    # ---- 3. slow readers

    def slow_readers(self, minute):
        """Clients that watch every table in play and then never read: once the kernel's
        buffers are full, the server's write queue for them grows, and past its limit the
        server should close them (4002) and free them. They are held until the server has
        counted that many write-queue closes, or for --slow-hold seconds at most (under the
        60 s idle timeout, which would drop them another way)."""
        options = self.options
        before = scrape_metrics(self.port)
        clients = [ws for ws in (self.open_slow_reader(i) for i in range(options.slow_readers)) if ws]
        if not clients:
            return
        if not self.watch_all(clients):
            return
        started, dropped = time.monotonic(), 0
        while time.monotonic() - started < options.slow_hold and dropped < len(clients):
            if not self.pause(1):
                for ws in clients:
                    ws.close(abrupt=True)
                return
            dropped = counter_delta(before, scrape_metrics(self.port), "sparts_write_queue_drops_total")
        held = time.monotonic() - started
        outcomes = Counter(self.drain_slow_reader(ws) for ws in clients)
        text = (f"{len(clients)} watched {len(clients[0].watching)} tables and stopped reading: server counted "
                f"{int(dropped)} write-queue closes in {held:.0f} s; then read: {describe(outcomes)}")
        if dropped < len(clients) or outcomes.get("still open"):
            self.warn("slow-readers", text)
        else:
            self.note("slow-readers", text)

    def open_slow_reader(self, number):
        ws = WebSocket(self.port, receive_buffer=4096)
        ws.hello(f"slow{number}")
        # Every table in play: the list comes a page at a time (at most 100 tables a page).
        ws.watching, after = [], None
        while True:
            request = {"type": "list_tables", "open": False, "limit": 100}
            if after:
                request["after"] = after
            listing = ws.request(request)
            ws.watching += [t["table"] for t in listing.get("tables", []) if t.get("state") == "playing"]
            after = listing.get("next")
            if not after:
                break
        if not ws.watching:
            ws.close()
            self.note("slow-readers", "no table in play to watch yet")
            return None
        return ws

    def watch_all(self, clients):
        """Every table in play: 150 watches at once, then 50 a second, within the burst and
        the rate of messages a connection may send. False if the soak is stopping."""
        for i in range(max(len(ws.watching) for ws in clients)):
            if i >= 150 and i % 50 == 0 and not self.pause(1):
                for ws in clients:
                    ws.close(abrupt=True)
                return False
            for ws in clients:
                if i < len(ws.watching):
                    ws.send_json({"type": "watch", "table": ws.watching[i]})
        return True

    def drain_slow_reader(self, ws):
        """Read what the server left: a close frame, the end of the stream, or (not closed) live events."""
        ws.sock.settimeout(5)
        deadline = time.monotonic() + 15
        try:
            while time.monotonic() < deadline:
                ws.read_message()
            return "still open"
        except Closed as closed:
            return f"close {closed.code}" if closed.code else f"{closed.reason} without a close frame"
        except (TimeoutError, socket.timeout):
            return "silent (neither closed nor sending)"
        finally:
            ws.close(abrupt=True)

    # ---- 4. floods

    def websocket_floods(self, minute):
        self.new_player_burst()
        self.create_table_flood()
        self.message_flood()
        self.malformed_frames()

    def new_player_burst(self):
        """Many fresh connections say hello at once (new players), then go, some abruptly."""
        clients, outcomes = [], Counter()
        for _ in range(self.options.new_players):
            try:
                clients.append(WebSocket(self.port))
            except (OSError, Closed) as e:
                outcomes[f"connect failed ({e.__class__.__name__})"] += 1
        for i, ws in enumerate(clients):
            ws.send_json({"type": "hello", "protocol": 1, "name": f"burst{i}", "id": 1})
        for ws in clients:
            outcomes[reply_outcome(ws)] += 1
        for i, ws in enumerate(clients):
            ws.close(abrupt=i % 2 == 0)
        self.report("ws-floods", "new players", outcomes, expected={"ok hello"})

    def create_table_flood(self):
        """Players each asking for 10 tables at once: 4 are allowed a player (--tables-per-player)."""
        outcomes = Counter()
        clients = [WebSocket(self.port) for _ in range(10)]
        for i, ws in enumerate(clients):
            ws.hello(f"creator{i}")
            for n in range(10):
                ws.send_json({"type": "create_table", "id": 100 + n,
                              "ruleset": {"preset": random.choice(["spades", "sparts", "bga-sparts"])}})
        for ws in clients:
            for _ in range(10):
                outcomes[reply_outcome(ws)] += 1
            ws.close()
        self.report("ws-floods", "create_table x10 per player", outcomes,
                    expected={"ok create_table", "error too_many_tables"})

    def message_flood(self):
        """Pings in one burst without reading: past the burst allowed, rate_limited, then
        close 4001 after 100 refusals in a row."""
        ws = WebSocket(self.port)
        ws.hello("flooder")
        count = MESSAGE_BURST + 3000
        try:
            ws.sock.sendall(b"".join(encode_frame(OP_TEXT, b'{"type":"ping","id":%d}' % i) for i in range(count)))
        except OSError:
            pass  # closed while sending: what is read next says why
        outcomes = Counter()
        while True:
            outcome = reply_outcome(ws)
            outcomes[outcome] += 1
            if not outcome.startswith(("ok", "error")):
                break
        ws.close(abrupt=True)
        self.report("ws-floods", f"{count} pings at once", outcomes,
                    expected={"ok ping", "error rate_limited", "close 4001"}, must_see={"close 4001"})

    def malformed_frames(self):
        """Each malformed frame on a connection of its own; the outcomes are tallied per kind."""
        outcomes = Counter()
        for label, needs_hello, send in malformed_frame_cases():
            try:
                ws = WebSocket(self.port, timeout=3)
                if needs_hello:
                    ws.hello("malformed")
                send(ws)
                outcome = reply_outcome(ws)
                ws.close(abrupt=True)
            except Closed as closed:
                outcome = f"close {closed.code}" if closed.code else "dropped"
            except OSError as e:
                outcome = f"dropped ({e.__class__.__name__})"
            self.malformed_outcomes.setdefault(label, Counter())[outcome] += 1
            outcomes[outcome] += 1
            if outcome == "error internal" or outcome.startswith("no answer"):
                self.warn("ws-floods", f"malformed frame '{label}': {outcome}")
        self.note("ws-floods", f"{sum(outcomes.values())} malformed frames: {describe(outcomes)}")

    def http_flood(self, minute):
        """Many requests on fresh connections: good ones, odd bytes, bad methods, bad framing,
        plus keep-alive pipelining; then nothing should be left open."""
        cases = http_flood_cases(self.options.http_rounds)
        outcomes, surprising = Counter(), Counter()
        lock = threading.Lock()

        def worker(share):
            for label, raw in share:
                outcome = http_status_of(self.port, raw)
                with lock:
                    outcomes[outcome] += 1
                    self.http_outcomes.setdefault(label, Counter())[outcome] += 1
                    # 503: over a limit; 505: a version this port does not speak (HTTP/9.9), as RFC 9112 says.
                    if (outcome.startswith("5") and outcome not in ("503", "505")) or outcome in ("no answer", "garbage"):
                        surprising[(label, outcome)] += 1

        workers = [threading.Thread(target=worker, args=(cases[i::4],)) for i in range(4)]
        for w in workers:
            w.start()
        pipelined = self.pipelined_requests(50)
        for w in workers:
            w.join()
        self.note("http-flood", f"{len(cases)} requests: {describe(outcomes)}; "
                                f"50 pipelined on one connection: {pipelined} answered")
        for (label, outcome), count in surprising.items():
            self.warn("http-flood", f"'{label}': {outcome} x{count}")

    # ---- the host features (issue 25): logins, quick play storms, chat floods, the admin API, a long lobby

    def host_features(self, minute):
        self.login_burst()
        self.quick_play_storm()
        self.chat_flood()
        self.admin_requests()
        self.lobby_pages()

    def login_burst(self):
        """Players hello with a login the host signed (HS256), good and forged."""
        outcomes = Counter()
        for i in range(20):
            ws = WebSocket(self.port)
            forged = i % 4 == 3
            token = hs256_token({"sub": f"soak-account-{i % 10}", "name": f"Soaker {i % 10}",
                                 "exp": int(time.time()) + 600}, LOGIN_SECRET + ("x" if forged else ""))
            ws.send_json({"type": "hello", "protocol": 1, "name": "x", "login": token, "id": 1})
            outcomes[reply_outcome(ws)] += 1
            ws.close(abrupt=i % 2 == 0)
        self.report("host-features", "logins", outcomes, expected={"ok hello", "error login_bad_signature"},
                    must_see={"ok hello", "error login_bad_signature"})

    def quick_play_storm(self):
        """40 players press Play now at once: ten whole tables; asking again while seated is refused."""
        clients, outcomes = [], Counter()
        for i in range(40):
            ws = WebSocket(self.port)
            ws.hello(f"quick{i}")
            clients.append(ws)
        for ws in clients:
            ws.send_json({"type": "quick_play", "preset": "spades", "options": {"hand_cap": 1}, "id": 5})
        for ws in clients:
            outcomes[reply_outcome(ws)] += 1
        matched = Counter()
        for ws in clients:
            try:
                while True:
                    frame = ws.read_json()
                    if frame.get("type") == "quick_play_matched":
                        matched["matched"] += 1
                        break
            except (Closed, OSError, ValueError):
                matched["not matched"] += 1
        again = Counter()
        for ws in clients[:5]:
            again[reply_outcome_of(ws, {"type": "quick_play", "preset": "spades", "id": 6})] += 1
        for i, ws in enumerate(clients):
            ws.close(abrupt=i % 2 == 0)
        self.report("host-features", "quick play x40", outcomes + matched + again,
                    expected={"ok quick_play", "matched", "error already_playing"},
                    must_see={"matched", "error already_playing"})

    def chat_flood(self):
        """A seat says 60 lines at once: 5 go, the rest are refused, and nobody is disconnected."""
        ws = WebSocket(self.port)
        ws.hello("chatty")
        table = ws.request({"type": "create_table", "ruleset": {"preset": "spades"}})
        outcomes = Counter()
        if table.get("type") != "ok":
            outcomes[f"create_table {table.get('code')}"] += 1
        else:
            ws.request({"type": "sit", "table": table["table"]})
            for i in range(60):
                ws.send_json({"type": "chat", "table": table["table"], "text": f"line {i}", "id": 100 + i})
            for _ in range(60):
                outcomes[reply_outcome(ws)] += 1
        ws.close()
        self.report("host-features", "60 chat lines at once", outcomes,
                    expected={"ok chat", "error chat_rate_limited"}, must_see={"ok chat", "error chat_rate_limited"})

    def admin_requests(self):
        """The operator's reads with the token, and a guesser's wrong tokens: 401, then 429, never the operator."""
        outcomes = Counter()
        for i in range(15):
            token = ADMIN_TOKEN if i % 5 == 0 else "guess" + str(i)
            raw = (f"GET /admin/tables HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n"
                   f"Authorization: Bearer {token}\r\n\r\n").encode()
            outcomes[("operator " if token == ADMIN_TOKEN else "guess ") + http_status_of(self.port, raw)] += 1
        self.report("host-features", "admin requests", outcomes,
                    expected={"operator 200", "guess 401", "guess 429"}, must_see={"operator 200", "guess 401"})

    def lobby_pages(self):
        """20 lobbies walk the whole table list, a page of 100 at a time."""
        outcomes, pages = Counter(), 0
        clients = [WebSocket(self.port) for _ in range(20)]
        for i, ws in enumerate(clients):
            ws.hello(f"lobby{i}")
        for ws in clients:
            cursor = None
            for _ in range(100):
                request = {"type": "list_tables", "open": False, "limit": 100}
                if cursor:
                    request["after"] = cursor
                reply = ws.request(request)
                outcomes["ok list_tables" if reply.get("type") == "ok" else f"error {reply.get('code')}"] += 1
                pages += 1
                cursor = reply.get("next")
                if not cursor:
                    break
            ws.close()
        self.report("host-features", f"lobbies walking the table list ({pages} pages)", outcomes,
                    expected={"ok list_tables"}, must_see={"ok list_tables"})

    def pipelined_requests(self, n):
        raw = b"".join(b"GET /healthz HTTP/1.1\r\nHost: soak\r\n\r\n" for _ in range(n - 1))
        raw += b"GET /healthz HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n"
        try:
            return http_exchange(self.port, raw, timeout=10).count(b"HTTP/1.1 200")
        except OSError as e:
            return f"failed ({e.__class__.__name__})"

    def slowloris(self, minute):
        """Connections that send half a request header and wait: the server should drop each
        after --http-request-seconds (10 s)."""
        n, selector, opened, failed = self.options.slowloris, selectors.DefaultSelector(), time.monotonic(), 0
        for i in range(n):
            try:
                sock = socket.create_connection((HOST, self.port), timeout=5)
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: soak\r\nX-Half: " + str(i).encode())
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ)
            except OSError:
                failed += 1
        dropped, answered = [], 0
        deadline = opened + HTTP_REQUEST_SECONDS + 10
        while selector.get_map() and time.monotonic() < deadline and not self.stopping.is_set():
            for key, _ in selector.select(timeout=0.5):
                try:
                    data = key.fileobj.recv(4096)
                except OSError:
                    data = b""
                if data:
                    answered += 1
                else:
                    dropped.append(time.monotonic() - opened)
                selector.unregister(key.fileobj)
                key.fileobj.close()
        still_open = len(selector.get_map())
        for key in list(selector.get_map().values()):
            key.fileobj.close()
        selector.close()
        when = f" after {min(dropped):.1f}-{max(dropped):.1f} s" if dropped else ""
        text = (f"{n} half-sent requests: {len(dropped)} dropped by the server{when}, "
                f"{answered} answered, {still_open} still open after {HTTP_REQUEST_SECONDS + 10} s"
                + (f", {failed} could not connect" if failed else ""))
        if (still_open or failed) and not self.stopping.is_set():
            self.warn("slowloris", text)
        else:
            self.note("slowloris", text)

    # ---- 5. archive reads

    def archive_reads(self):
        """All along: list the finished games, read one in full and its record; now and then
        replay one over WebSocket. A note every minute."""
        counts, games_read, last_note, round_number, cursor = Counter(), set(), time.monotonic(), 0, None
        while self.pause(self.options.archive_interval):
            round_number += 1
            try:
                cursor = self.archive_round(round_number, cursor, counts, games_read)
            except (OSError, Closed, ValueError) as e:  # ValueError: a body that is not JSON
                counts[f"failed ({e.__class__.__name__}: {str(e)[:60]})"] += 1
                cursor = None
            if time.monotonic() - last_note >= 60:
                self.report_archive(counts, len(games_read))
                counts, games_read, last_note = Counter(), set(), time.monotonic()

    def archive_round(self, round_number, cursor, counts, games_read):
        """One list, one game and its record (and every tenth round a replay); the next cursor."""
        target = "/api/games?limit=50" + (f"&cursor={urllib.parse.quote(cursor, safe='')}" if cursor else "")
        status, body = http_get(self.port, target)
        counts[f"list {status}"] += 1
        if status != 200:
            return None
        listing = json.loads(body)
        games = listing.get("games", [])
        if games:
            game = random.choice(games)
            games_read.add((game["table"], game["game"]))
            base = f"/api/games/{game['table']}/{game['game']}"
            for kind, target in (("game", base), ("record", base + "/record")):
                status, body = http_get(self.port, target)
                counts[f"{kind} {status}"] += 1
                if status == 200:
                    json.loads(body)  # must be JSON
            if round_number % 10 == 0:
                counts[f"replay {self.replay_game(game)}"] += 1
        return listing.get("next_cursor") if round_number % 3 else None  # back to the first page now and then

    def replay_game(self, game):
        ws = WebSocket(self.port)
        try:
            ws.hello("replayer")
            reply = ws.request({"type": "replay", "table": game["table"], "game": game["game"], "speed": 1000})
            if reply.get("type") != "ok":
                return f"error {reply.get('code')}"
            while ws.read_json().get("type") != "replay_ended":
                pass
            return "played to the end"
        finally:
            ws.close()

    def report_archive(self, counts, games_read):
        text = f"{describe(counts)}; {games_read} different games read"
        bad = [k for k in counts if not k.endswith(" 200") and k != "replay played to the end"]
        if bad:
            self.warn("archive", text)
        else:
            self.note("archive", text)

    # ---- reporting

    def report(self, activity, what, outcomes, expected, must_see=()):
        text = f"{what}: {describe(outcomes)}"
        unexpected = [o for o in outcomes if o not in expected]
        missing = [o for o in must_see if o not in outcomes]
        if unexpected or missing:
            self.warn(activity, text + (f" (expected {', '.join(sorted(must_see))})" if missing else ""))
        else:
            self.note(activity, text)


def reply_outcome_of(ws, message):
    ws.send_json(message)
    return reply_outcome(ws)


# The host features' secrets: the soak's own server is started with them (Server).
LOGIN_SECRET = "the soak's login secret, 32 bytes or more"
ADMIN_TOKEN = "soak-admin-token-" + "0123456789abcdef" * 2


def hs256_token(claims, secret):
    import base64
    import hashlib
    import hmac

    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    signing = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(json.dumps(claims).encode())
    mac = hmac.new(secret.encode(), signing.encode(), hashlib.sha256).digest()
    return signing + "." + b64(mac)


def describe(outcomes):
    return ", ".join(f"{name} x{count}" for name, count in outcomes.most_common()) or "nothing"


# --------------------------------------------------------------------------
# The malformed WebSocket frames and the HTTP requests of the floods.
# --------------------------------------------------------------------------

def malformed_frame_cases():
    """(label, say hello first, send function)."""
    text = lambda payload: (lambda ws: ws.send_text(payload))  # noqa: E731
    frame = lambda *a, **k: (lambda ws: ws.send_frame(*a, **k))  # noqa: E731

    def fragmented(ws):
        ws.send_frame(OP_TEXT, b'{"type":"pi', fin=False)
        ws.send_frame(OP_CONTINUATION, b'ng","id":7}')

    return [
        ("truncated JSON", True, text(b'{"type":"list_tables"')),
        ("not JSON", True, text(b"hello, server")),
        ("empty frame", True, text(b"")),
        ("JSON array", True, text(b"[1,2,3]")),
        ("duplicate keys", True, text(b'{"type":"ping","type":"list_tables"}')),
        ("duplicate nested keys", True, text(
            b'{"type":"create_table","ruleset":{"preset":"spades","options":{"target_score":100,"target_score":200}}}')),
        ("unknown type", True, text(b'{"type":"explode"}')),
        ("unknown member", True, text(b'{"type":"ping","surprise":1}')),
        ("huge name (10,000 chars)", False, text(json.dumps({"type": "hello", "protocol": 1, "name": "x" * 10000}))),
        ("name of 40 emoji", False, text(json.dumps({"type": "hello", "protocol": 1, "name": "\U0001F0A1" * 40},
                                                    ensure_ascii=False))),
        ("name with bidi control", False, text('{"type":"hello","protocol":1,"name":"a\u202eb"}'.encode())),
        ("name with NUL escape", False, text(b'{"type":"hello","protocol":1,"name":"a\\u0000b"}')),
        ("name with lone surrogate escape", False, text(b'{"type":"hello","protocol":1,"name":"a\\ud800b"}')),
        ("invalid UTF-8 in a string (text frame)", False, text(b'{"type":"hello","protocol":1,"name":"\xff\xfe"}')),
        ("overlong UTF-8 in an id (text frame)", True, text(b'{"type":"ping","id":"\xc0\xaf"}')),
        ("invalid UTF-8 in a string (binary frame)", True,
         frame(OP_BINARY, b'{"type":"hello","protocol":1,"name":"\xff\xfe"}')),
        ("protocol 1.5", False, text(b'{"type":"hello","protocol":1.5,"name":"a"}')),
        ("id 1e400", True, text(b'{"type":"ping","id":1e400}')),
        ("id of 400 digits", True, text(b'{"type":"ping","id":' + b"9" * 400 + b"}")),
        ("id string of 65 chars", True, text(json.dumps({"type": "ping", "id": "i" * 65}))),
        ("nesting 6,000 deep", True, text(b"[" * 6000 + b"]" * 6000)),
        ("object nesting 2,500 deep", True, text(b'{"a":' * 2500 + b"1" + b"}" * 2500)),
        ("table id of 40 chars", True, text(json.dumps({"type": "watch", "table": "t" * 40}))),
        ("seats 10^12", True, text(
            b'{"type":"create_table","ruleset":{"preset":"sparts","options":{"seats":1000000000000}}}')),
        ("resume seq -1", True, text(b'{"type":"resume","table":"t1","seq":-1}')),
        ("replay game 10^15", True, text(b'{"type":"replay","table":"t1","game":1000000000000000}')),
        ("act before hello", False, text(b'{"type":"act","table":"t1","action":{"type":"play","card":"QS"}}')),
        ("fragmented ping", True, fragmented),
        ("frame over 16 KiB", True, text(json.dumps({"type": "ping", "id": "x", "pad": "y" * 20000}))),
        ("unknown opcode 3", True, frame(3, b"{}")),
        ("unmasked client frame", True, frame(OP_TEXT, b'{"type":"ping"}', masked=False)),
        ("ping frame of 200 bytes", True, frame(OP_PING, b"p" * 200)),
        ("length says 2^62", True, lambda ws: ws.sock.sendall(
            encode_frame(OP_TEXT, b"{}", length=2 ** 62)[:14] + b"{}")),
    ]


def http_flood_cases(rounds):
    """(label, raw request) for every kind, repeated `rounds` times, shuffled."""
    def get(target, extra=b""):
        return b"GET " + target + b" HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n" + extra + b"\r\n"

    kinds = [
        ("GET /healthz", get(b"/healthz")),
        ("GET /readyz", get(b"/readyz")),
        ("GET /metrics", get(b"/metrics")),
        ("GET /", get(b"/")),
        ("GET /api/games", get(b"/api/games?limit=5")),
        ("/api/games?%ff=1", get(b"/api/games?%ff=1")),
        ("/api/games?player=%ff%fe", get(b"/api/games?player=%ff%fe")),
        ("raw \\xff\\xfe in the path", get(b"/\xff\xfe")),
        ("raw \\xff\\xfe in an archive path", get(b"/api/games/\xff\xfe/1")),
        ("/api/games/%00/1/record", get(b"/api/games/%00/1/record")),
        ("/api/games/t1/99999999999999999999", get(b"/api/games/t1/99999999999999999999")),
        ("/api/games?limit=-1", get(b"/api/games?limit=-1")),
        ("/api/games?cursor=garbage", get(b"/api/games?cursor=%%%zz")),
        ("/api/games?from=abc&to=-5", get(b"/api/games?from=abc&to=-5")),
        ("path traversal", get(b"/app/../../../../etc/passwd")),
        ("encoded path traversal", get(b"/app/%2e%2e/%2e%2e/etc/passwd")),
        ("target of 9,000 bytes", get(b"/" + b"a" * 9000)),
        ("header of 10,000 bytes", get(b"/healthz", b"X-Big: " + b"b" * 10000 + b"\r\n")),
        ("300 headers", get(b"/healthz", b"".join(b"X-%d: v\r\n" % i for i in range(300)))),
        ("absolute-form target", get(b"http://example.com/healthz")),
        ("asterisk target", get(b"*")),
        ("HEAD /", b"HEAD / HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n"),
        ("POST with a body", b"POST /api/games HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n"
                             b"Content-Length: 5\r\n\r\nhello"),
        ("DELETE", b"DELETE /healthz HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n"),
        ("method with \\xff", b"GE\xffT / HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n"),
        ("HTTP/9.9", b"GET / HTTP/9.9\r\nHost: soak\r\nConnection: close\r\n\r\n"),
        ("no Host, HTTP/1.0", b"GET /healthz HTTP/1.0\r\n\r\n"),
        ("TLS hello bytes", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64)),
        ("random bytes", os.urandom(300) + b"\r\n\r\n"),
        ("Content-Length -1", b"POST / HTTP/1.1\r\nHost: soak\r\nContent-Length: -1\r\n\r\n"),
        ("Content-Length 10^12, body cut", b"POST / HTTP/1.1\r\nHost: soak\r\nContent-Length: 1000000000000\r\n\r\nabc"),
        ("bad chunked body", b"POST / HTTP/1.1\r\nHost: soak\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nxx\r\n"),
        ("upgrade on another path", b"GET /other HTTP/1.1\r\nHost: soak\r\nUpgrade: websocket\r\n"
                                    b"Connection: Upgrade\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n"
                                    b"Sec-WebSocket-Version: 13\r\n\r\n"),
        ("upgrade without a key", b"GET /ws HTTP/1.1\r\nHost: soak\r\nUpgrade: websocket\r\n"
                                  b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n"),
    ]
    cases = kinds * rounds
    random.shuffle(cases)
    return cases


# --------------------------------------------------------------------------
# The verdict.
# --------------------------------------------------------------------------

def quarters(samples):
    """The second and the last quarter of a run of samples; None if too short to tell."""
    n = len(samples)
    second, last = samples[n // 4: n // 2], samples[(3 * n) // 4:]
    return (second, last) if n >= 4 and second and last else None


def judge_growth(samples, key, floor):
    """(kept growing?, text): the last quarter's average against the second quarter's."""
    split = quarters(samples)
    if not split:
        return False, "not judged: too few minutes after the warm-up"
    unit, scale = ("", 1) if key == "fds" else (" MiB", MIB)
    (second, last), averages = split, []
    for part in split:
        averages.append(sum(getattr(s, key) for s in part) / len(part))
    before, after = averages
    grew = after > before * GROWTH_RATIO and after - before > floor
    change = (after / before - 1) * 100 if before else 0
    return grew, (f"minutes {second[0].minute}-{second[-1].minute} average {before / scale:,.1f}{unit}, "
                  f"minutes {last[0].minute}-{last[-1].minute} {after / scale:,.1f}{unit} ({change:+.0f}%)")


def summarize(soak):
    samples = soak.samples
    minutes = [s for s in samples if s.minute > 0]
    print("\n" + "=" * 78)
    print("per minute")
    print(TABLE_HEADER)
    for sample in samples:
        print(format_row(sample))
    print("\nsummary")
    first, last = samples[0], samples[-1]
    judged = [s for s in samples if s.minute > soak.options.warmup_minutes]
    verdicts = [(label, *judge_growth(judged, key, GROWTH_FLOOR[key]))
                for key, label in (("rss", "RSS"), ("wal", "WAL"), ("fds", "fds"))]
    print(f"  RSS         first {first.rss / MIB:.1f} MiB, last {last.rss / MIB:.1f} MiB, "
          f"max {soak.max_rss / MIB:.1f} MiB (polled every 5 s)")
    print(f"  WAL         max {soak.max_wal / MIB:.1f} MiB, last {last.wal / MIB:.1f} MiB")
    print(f"  fds         max {soak.max_fds:,}, first {first.fds}, last {last.fds}")
    p99s = [(s.p99, s.minute) for s in minutes if s.p99 is not None]
    if p99s:
        worst = max(p99s)
        print(f"  p99         worst {format_p99(worst[0])} ms (minute {worst[1]}) of "
              f"{P99_METRIC}, per minute")
    plays = [s.plays for s in minutes if s.plays is not None]
    print(f"  card plays  {int(sum(plays)):,} in all, {int(min(plays, default=0)):,}-{int(max(plays, default=0)):,} a minute")
    print(f"  exceptions  {format_count(last.exceptions)} ({EXCEPTIONS_METRIC})")
    if last.metrics:
        m = last.metrics
        print("  abuse met   " + ", ".join(f"{label} {int(m.get(name, 0)):,}" for label, name in (
            ("write-queue closes", "sparts_write_queue_drops_total"),
            ("flood closes", "sparts_flood_closes_total"),
            ("protocol errors", "sparts_protocol_errors_total"),
            ("HTTP requests", "sparts_http_requests_total"),
            ("connections opened", "sparts_connections_opened_total"),
            ("games finished", "sparts_games_finished_total"),
            ("archive reads", "sparts_archive_reads_total"))))
    print(f"  growth      judged after a warm-up of {soak.options.warmup_minutes} minutes: the last quarter of "
          f"the minutes left against the second, over {GROWTH_RATIO - 1:.0%} and the floor is a failure")
    for label, grew, text in verdicts:
        print(f"    {label:<4}      {text}{' -> KEPT GROWING' if grew else ''}")
        if grew:
            soak.failures.append(f"{label} kept growing: {text}")
    print_outcome_tables(soak)
    problems = soak.server.log_problems()
    print(f"\nserver log ({soak.server.log_path}): {len(problems)} error lines; warnings by kind: "
          f"{describe(soak.server.log_warnings())}")
    for line in problems[:10]:
        print("    " + line)
    if soak.warnings:
        print(f"\nwarnings ({len(soak.warnings)}; not failures by themselves):")
        for warning in soak.warnings[:30]:
            print("  - " + warning.rstrip().replace("\n", "\n    "))
    print()
    if soak.failures:
        print("FAIL")
        for failure in soak.failures:
            print("  - " + failure)
    else:
        print("PASS: the server stayed up, nothing kept growing, no handler exception")


def print_outcome_tables(soak):
    if soak.malformed_outcomes:
        print("\n  malformed WebSocket frames, what the server did (each on its own connection):")
        for label, counts in soak.malformed_outcomes.items():
            print(f"    {label:<42} {describe(counts)}")
    if soak.http_outcomes:
        print("\n  HTTP flood, what the server answered:")
        for label, counts in sorted(soak.http_outcomes.items()):
            print(f"    {label:<42} {describe(counts)}")


# --------------------------------------------------------------------------
# Main.
# --------------------------------------------------------------------------

def parse_options(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p = argparse.ArgumentParser(
        description="Soak test: a real sparts-server for a long time under ordinary play and abuse "
                    "(tools/soak/README.md).")
    p.add_argument("--minutes", type=int, default=60, help="how long to run (default 60)")
    p.add_argument("--server", default=os.path.join(root, "build/server/sparts-server"), help="sparts-server binary")
    p.add_argument("--load", default=os.path.join(root, "build/tools/load/sparts-load"), help="sparts-load binary")
    p.add_argument("--dir", default=None, help="where to make the temporary folder (default: $TMPDIR or /tmp)")
    p.add_argument("--keep", action="store_true",
                   help="keep the temporary folder (database, logs) after a clean pass too")
    p.add_argument("--server-arg", action="append", default=[], metavar="FLAG",
                   help="one more flag for sparts-server, e.g. --server-arg=--threads=2 (repeatable)")
    p.add_argument("--tables", type=int, default=200, help="ordinary play: sparts-load tables (default 200)")
    p.add_argument("--think-ms", type=int, default=250, help="ordinary play: ms between actions a table (default 250)")
    p.add_argument("--storm-every", type=int, default=2, help="a reconnect storm every N minutes (default 2)")
    p.add_argument("--storm-tables", type=int, default=50, help="tables in a storm, all runs together (default 50)")
    p.add_argument("--storm-runs", type=int, default=2, help="sparts-load runs started at once per storm (default 2)")
    p.add_argument("--storm-seconds", type=int, default=15, help="length of a storm's runs (default 15)")
    p.add_argument("--slow-readers", type=int, default=3, help="slow readers a minute (default 3)")
    p.add_argument("--slow-hold", type=int, default=55,
                   help="at most this many seconds a slow reader does not read (default 55)")
    p.add_argument("--slowloris", type=int, default=300, help="half-sent HTTP requests a minute (default 300)")
    p.add_argument("--new-players", type=int, default=200, help="fresh connections saying hello a minute (default 200)")
    p.add_argument("--http-rounds", type=int, default=10,
                   help="the HTTP flood sends each of its ~35 kinds of request this many times a minute (default 10)")
    p.add_argument("--archive-interval", type=float, default=1.0,
                   help="seconds between two rounds of archive reads (default 1)")
    p.add_argument("--warmup-minutes", type=int, default=12,
                   help="minutes left out when judging growth: a player stays in memory 10 minutes after it "
                        "leaves, a table 2 (default 12; 0 judges the whole run)")
    p.add_argument("--seed", type=int, default=1, help="seed of the bots and of the soak's choices")
    options = p.parse_args(argv)
    if options.minutes < 1:
        p.error("--minutes must be at least 1")
    for binary in (options.server, options.load):
        if not os.access(binary, os.X_OK):
            p.error(f"{binary} is missing: build first (cmake --build build), or name it with --server/--load")
    return options


def raise_fd_limit():
    """The server and sparts-load inherit it: hundreds of connections each, and more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def stop_like_ctrl_c(signum, frame):
    raise KeyboardInterrupt


def copy_binaries(options, folder):
    """Run copies, so that a rebuild during the run changes nothing (storms start sparts-load anew)."""
    for name in ("server", "load"):
        original = getattr(options, name)
        copy = os.path.join(folder, os.path.basename(original))
        shutil.copy2(original, copy)
        built = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(original)))
        print(f"{name}: {os.path.abspath(original)} (built {built}), run from a copy", flush=True)
        setattr(options, name, copy)


def main(argv):
    options = parse_options(argv)
    random.seed(options.seed)
    fd_limit = raise_fd_limit()
    folder = tempfile.mkdtemp(prefix="sparts-soak-", dir=options.dir)
    print(f"sparts soak: {options.minutes} minutes, folder {folder}, ulimit -n {fd_limit}", flush=True)
    copy_binaries(options, folder)
    server = soak = None
    try:
        server = Server(options.server, folder, options.server_arg)
        soak = Soak(options, server, folder)
        signal.signal(signal.SIGTERM, stop_like_ctrl_c)
        soak.run()
    except KeyboardInterrupt:
        print("\ninterrupted: stopping", flush=True)
        if soak:
            soak.stopping.set()
            soak.failures.append("interrupted before the end")
            soak.finish(hurry=True)
    finally:
        if soak:
            soak.stop_load_processes()
        if server and server.alive():
            server.stop()
    if soak is None:
        return 2
    summarize(soak)
    if soak.failures or soak.warnings or options.keep:
        print(f"\nkept: {folder} (database, server.log, load.out, storm-*.out, the binaries run)")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if soak.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
