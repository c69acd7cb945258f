#!/usr/bin/env python3
"""The host's login signing examples (clients/examples/sign_login.py and .mjs) against the real server.

Writes a secret file as `echo` would (a trailing newline), starts sparts-server with HS256 logins,
has each example sign a login and says hello over a WebSocket with it: the server must take it as
that account's player, with the name signed. Both examples must make the same token from the same
claims. A login signed with another secret, an expired one and one for another audience must be
refused with their documented codes (protocol/PROTOCOL.md section 20). And no login may reach the
server's log, not even one asked for in a page's address (GET /?login=...).

    check_login_examples.py --server build/server/sparts-server [--node node]

Standard library only (a WebSocket client of a few lines below): it runs wherever Python 3 does.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PY_EXAMPLE = os.path.join(ROOT, "clients", "examples", "sign_login.py")
NODE_EXAMPLE = os.path.join(ROOT, "clients", "examples", "sign_login.mjs")
ISSUER = "https://cards.example.org"
AUDIENCE = "sparts"

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


# --- a WebSocket client (RFC 6455), just enough for a hello --------------------------------------
class WebSocket:
    def __init__(self, port, path="/ws"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("the server closed the connection during the handshake")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError("no WebSocket: " + head.decode(errors="replace").splitlines()[0])

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the server closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(self, message):
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        n = len(data)
        header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n)
                                   if n < 65536 else bytes([0x80 | 127]) + struct.pack("!Q", n))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def receive(self):
        """The next text message, as JSON (pings and pongs skipped)."""
        text = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise RuntimeError(f"the server closed the WebSocket: {payload[2:].decode(errors='replace')}")
            if opcode in (9, 10):
                continue
            text += payload
            if b0 & 0x80:
                return json.loads(text)

    def request(self, message):
        self.send(message)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            reply = self.receive()
            if reply.get("id") == message.get("id"):
                return reply
        raise RuntimeError("no reply to " + message["type"])

    def close(self):
        self.sock.close()


def hello(port, login):
    ws = WebSocket(port)
    try:
        return ws.request({"type": "hello", "id": 1, "protocol": 1, "name": "Typed", "login": login})
    finally:
        ws.close()


# --- the server -----------------------------------------------------------------------------------
class Server:
    def __init__(self, binary, secret_file, log_path):
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(
            [binary, "--port", "0", "--database", "none", "--log-level", "trace",
             "--login-algorithm", "HS256", "--login-secret-file", secret_file,
             "--login-issuer", ISSUER, "--login-audience", AUDIENCE],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server exited ({self.proc.wait()}) before listening: see {log_path}")
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                threading.Thread(target=self.proc.stdout.read, daemon=True).start()
                return
        raise RuntimeError("the server did not say it was listening")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def http_get(port, target):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data.split(b"\r\n", 1)[0].decode(errors="replace")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", default=os.environ.get("SPARTS_SERVER") or os.path.join(ROOT, "build", "server", "sparts-server"))
    p.add_argument("--node", default=shutil.which("node") or "node")
    a = p.parse_args()

    work = tempfile.mkdtemp(prefix="sparts-login-examples-")
    # A secret as `openssl rand -hex 32 > login-secret` writes it: 64 characters and a newline.
    secret_file = os.path.join(work, "login-secret")
    with open(secret_file, "w") as f:
        f.write(os.urandom(32).hex() + "\n")
    # The same key without the newline: the examples and the server must read it the same way.
    bare_secret_file = os.path.join(work, "login-secret-bare")
    with open(bare_secret_file, "w") as f:
        f.write(open(secret_file).read().rstrip("\n"))
    wrong_secret_file = os.path.join(work, "another-secret")
    with open(wrong_secret_file, "w") as f:
        f.write(os.urandom(32).hex() + "\n")

    def sign(example, secret=secret_file, sub="user-42", name="Åda Lovelace", iss=ISSUER, aud=AUDIENCE, ttl=None, now=None):
        command = ([sys.executable, PY_EXAMPLE] if example == "python" else [a.node, NODE_EXAMPLE])
        command += ["--secret-file", secret, "--sub", sub, "--name", name, "--iss", iss, "--aud", aud]
        if ttl is not None:
            command.append(f"--ttl={ttl}")
        if now is not None:
            command.append(f"--now={now}")
        run = subprocess.run(command, capture_output=True, text=True, timeout=30)
        if run.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {run.returncode}: {run.stderr}")
        return run.stdout.strip()

    expected_player = "p" + hashlib.sha256(b"sparts-login:user-42").hexdigest()[:16]
    log_path = os.path.join(work, "server.log")
    server = Server(a.server, secret_file, log_path)
    sent = []
    try:
        # The two examples agree to the byte on the same claims at the same time.
        now = int(time.time())
        tokens = {e: sign(e, now=now) for e in ("python", "node")}
        check(tokens["python"] == tokens["node"], "sign_login.py and sign_login.mjs make the same token")
        check(sign("python", secret=bare_secret_file, now=now) == tokens["python"],
              "the secret file's trailing newline is not part of the key")

        for example in ("python", "node"):
            token = sign(example)
            sent.append(token)
            # As the web client gets it: in the page's address (which the page then takes off it).
            check(http_get(server.port, "/?login=" + token).startswith("HTTP/1.1 200"),
                  f"{example}: the page answers /?login=...")
            reply = hello(server.port, token)
            check(reply.get("type") == "ok", f"{example}: a hello with its login is taken ({reply})")
            check(reply.get("account") == "user-42", f"{example}: as the account signed (sub)")
            check(reply.get("player") == expected_player, f"{example}: as that account's player")
            check(reply.get("name") == "Åda Lovelace", f"{example}: under the name signed, not the one typed")
            check("token" not in reply, f"{example}: and no guest token")

            refusals = [
                ("login_bad_signature", sign(example, secret=wrong_secret_file), "signed with another secret"),
                ("login_expired", sign(example, ttl=-3600), "expired an hour ago"),
                ("login_wrong_audience", sign(example, aud="another-server"), "for another audience"),
                ("login_wrong_issuer", sign(example, iss="https://elsewhere.example"), "from another issuer"),
            ]
            for code, bad, what in refusals:
                sent.append(bad)
                reply = hello(server.port, bad)
                check(reply.get("type") == "error" and reply.get("code") == code,
                      f"{example}: a login {what} is refused with {code} ({reply.get('code')})")
                check(bad not in json.dumps(reply), f"{example}: and not quoted back")
    finally:
        server.stop()

    with open(log_path) as f:
        log = f.read()
    check("listening" in log, "the server logged (at trace level)")
    for token in sent:
        # Any of its three parts would do to replay or read it.
        leaked = [part for part in token.split(".")[1:] if part in log]
        check(not leaked, f"no login reaches the server's log ({token[:20]}...)")
    with open(secret_file) as f:
        check(f.read().strip() not in log, "nor the secret")

    if failures:
        print(f"{len(failures)} check(s) failed; the server's log: {log_path}", file=sys.stderr)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
