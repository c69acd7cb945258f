#!/usr/bin/env python3
"""The lobby's table list under load: what issue 25 measured, measured again.

usage: tools/load/lobby_figures.py --server BIN [--tables N] [--askers N] [--seconds S]

Starts sparts-server (--database none), opens N public tables (default 290),
each with a seated player of a 32-character name of 4-byte characters (the
largest table info a name can make), then has M connections (default 64) ask
list_tables with "limit": 100 as fast as the message rate lets them (20 a
second each) for S seconds (default 30), and prints:
  - the server's memory (VmRSS) before and at the end;
  - replies answered and connections closed (4002: a reply over the write queue);
  - the size of the largest reply;
  - a stranger's hello: the time from its connection to its reply, at the end.
Figures, not assertions.
"""
import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

HOST = "127.0.0.1"


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class WebSocket:
    """A minimal client: masked text frames out, frames in."""

    def __init__(self, port):
        self.sock = socket.create_connection((HOST, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the upgrade")
            self.buf += chunk
        self.buf = self.buf.split(b"\r\n\r\n", 1)[1]
        self.next_id = 1

    def send(self, message):
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        n = len(payload)
        header += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big") if n < 65536 else \
            bytes([0x80 | 127]) + n.to_bytes(8, "big")
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def take(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def frame(self):
        """(opcode, payload) of the next whole frame."""
        b0, b1 = self.take(2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(self.take(2), "big")
        elif n == 127:
            n = int.from_bytes(self.take(8), "big")
        return b0 & 0x0F, self.take(n)

    def request(self, message):
        message = dict(message, id=self.next_id)
        self.next_id += 1
        self.send(message)
        while True:
            op, payload = self.frame()
            if op == 8:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                raise ConnectionError(f"close {code}")
            if op != 1:
                continue
            reply = json.loads(payload)
            if reply.get("id") == message["id"]:
                return reply, len(payload)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", required=True)
    p.add_argument("--tables", type=int, default=290)
    p.add_argument("--askers", type=int, default=64)
    p.add_argument("--seconds", type=float, default=30)
    o = p.parse_args()
    folder = tempfile.mkdtemp(prefix="sparts-lobby-")
    server = subprocess.Popen([o.server, "--port", "0", "--database", "none", "--log-level", "warn",
                               "--tables-per-player", "1000", "--tables-per-address", "100000",
                               "--connections-per-address", "100000", "--players-per-address-per-minute", "1000000"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = None
    for line in server.stdout:
        if "listening on" in line:
            port = int(line.rsplit(":", 1)[1])
            break
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    try:
        name = "\U0001F0A1" * 32  # 32 playing cards: 128 bytes of UTF-8
        for i in range(o.tables):
            ws = WebSocket(port)
            ws.request({"type": "hello", "protocol": 1, "name": name})
            table, _ = ws.request({"type": "create_table", "ruleset": {"preset": "spartsel", "options": {"seats": 10}}})
            ws.request({"type": "sit", "table": table["table"]})
            ws.sock.close()  # the seat stays the player's; the table stays open for its grace
        before = rss_mib(server.pid)
        answered, closed, largest = [0], [0], [0]
        lock = threading.Lock()
        end = time.monotonic() + o.seconds

        def ask():
            ws = WebSocket(port)
            ws.request({"type": "hello", "protocol": 1, "name": "lobby"})
            while time.monotonic() < end:
                try:
                    _, size = ws.request({"type": "list_tables", "open": False, "limit": 100})
                except ConnectionError:
                    with lock:
                        closed[0] += 1
                    return
                with lock:
                    answered[0] += 1
                    largest[0] = max(largest[0], size)
                time.sleep(0.05)

        askers = [threading.Thread(target=ask) for _ in range(o.askers)]
        for t in askers:
            t.start()
        time.sleep(o.seconds * 0.8)
        peak = rss_mib(server.pid)
        started = time.monotonic()
        WebSocket(port).request({"type": "hello", "protocol": 1, "name": "stranger"})
        hello_ms = (time.monotonic() - started) * 1000
        for t in askers:
            t.join()
        print(f"tables {o.tables} (10 seats, a seated player of a 128-byte name each), {o.askers} connections asking "
              f"list_tables (limit 100) for {o.seconds:.0f} s")
        print(f"memory: {before:.1f} MiB before, {peak:.1f} MiB while they ask")
        print(f"replies: {answered[0]} answered, {closed[0]} connections closed; largest reply {largest[0]} bytes")
        print(f"a stranger's hello while they ask: {hello_ms:.1f} ms")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
