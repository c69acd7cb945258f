"""Starts a real sparts-server for the tests (the binary named by SPARTS_SERVER, else the build's)."""
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))   # the library from the source tree

DEFAULT_SERVER = os.path.join(HERE, "..", "..", "..", "build", "server", "sparts-server")


class Server:
    def __init__(self, tmpdir, *flags):
        self.binary = os.environ.get("SPARTS_SERVER") or os.path.abspath(DEFAULT_SERVER)
        self.db = os.path.join(str(tmpdir), "sparts.db")
        self.port = 0
        self.proc = None
        self.flags = list(flags)           # after the tests' own: the last of a flag counts

    def start(self):
        args = [self.binary, "--port", str(self.port), "--database", self.db, "--log-level", "warn",
                "--bot-delay-ms", "20", "--players-per-address-per-minute", "100000",
                "--tables-per-address", "100000", "--archive-reads-per-minute", "100000"] + self.flags
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=None, text=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"server exited ({self.proc.poll()}) before listening")
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                # keep draining stdout so the server never blocks on a full pipe
                threading.Thread(target=self.proc.stdout.read, daemon=True).start()
                return self
        raise RuntimeError("server did not say it was listening")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode if self.proc else None

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self):
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("server")).start()
    yield s
    s.stop()


@pytest.fixture
def own_server(tmp_path):
    """A server of this test's own (which the test may stop and start again)."""
    s = Server(tmp_path).start()
    yield s
    s.stop()
