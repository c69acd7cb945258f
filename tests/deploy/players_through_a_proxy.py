#!/usr/bin/python3
"""Every shipped deployment file, as shipped, behind a real reverse proxy: the
server started with the file's own settings and HAProxy in front of it adding
X-Forwarded-For, as nginx, an ingress or a host's own proxy does. Forty players,
each from an address of its own, reach it through the proxy and are seated at
ten tables with no refusal; a client that talks to the server directly with a
forged X-Forwarded-For is still counted by its own address (it meets the
new-players limit of one address however it varies the header).

    players_through_a_proxy.py SPARTS_SERVER [FILE...]

The files' settings are read as the deployment reads them: the systemd unit's
Environment= lines and the settings file its ExecStart names, compose's
`environment`, the Kubernetes StatefulSet's `env`. Where, where the server
listens and where it keeps its database are this machine's (a free port on
127.0.0.1, no database). The proxy's address in a file (the compose network,
the cluster's pod network) is where HAProxy runs here, 127.0.0.1: each trusted
network a file names must be a network (not every address) and stands for it.
"""
import asyncio
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import ipaddress

import websockets
import yaml

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PLAYERS = 40
SEATS = 4
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


def conf_file(path):
    settings = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            key, value = (part.strip() for part in line.split("=", 1))
            settings["SPARTS_" + key.upper().replace("-", "_")] = value
    return settings


def systemd_settings(path):
    unit = open(path).read()
    settings = {}
    exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1)
    args = shlex.split(exec_start)
    if "--config" in args:
        packaged = args[args.index("--config") + 1]
        # The package installs deploy/debian/sparts.conf there (cmake/sparts_package.cmake).
        check(packaged == "/etc/sparts/sparts.conf", f"{os.path.relpath(path, ROOT)}: the unit reads the packaged settings file")
        settings.update(conf_file(os.path.join(ROOT, "deploy/debian/sparts.conf")))
    for m in re.finditer(r"^Environment=(\S+?)=(.*)$", unit, re.M):
        settings[m.group(1)] = m.group(2)
    return settings


def compose_settings(path):
    doc = yaml.safe_load(open(path))
    env = doc["services"]["sparts"].get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: str(v) for k, v in env.items()}


def kubernetes_settings(path):
    for doc in yaml.safe_load_all(open(path)):
        if doc and doc.get("kind") in ("StatefulSet", "Deployment"):
            for c in doc["spec"]["template"]["spec"]["containers"]:
                if c["name"] == "sparts":
                    return {e["name"]: str(e["value"]) for e in c.get("env", []) if "value" in e}
    raise SystemExit(f"{path}: no sparts container")


def settings_of(path):
    if path.endswith(".service"):
        return systemd_settings(path)
    if "kubernetes" in path:
        return kubernetes_settings(path)
    return compose_settings(path)


def here(settings, path):
    """The file's settings with this machine's address, port and database (and so no backups), and its proxy's
    network standing for 127.0.0.1, where HAProxy runs here."""
    env = {k: v for k, v in settings.items() if k.startswith("SPARTS_")}
    env.update(SPARTS_ADDRESS="127.0.0.1", SPARTS_PORT="0", SPARTS_DATABASE="none", SPARTS_LOG_LEVEL="warn")
    for backups in ("SPARTS_BACKUP_DIR", "SPARTS_BACKUP_EVERY_SECONDS"):  # no database: no backups of it
        env.pop(backups, None)
    trusted = [t.strip() for t in env.get("SPARTS_TRUSTED_PROXIES", "").split(",") if t.strip()]
    mapped = []
    for t in trusted:
        net = ipaddress.ip_network(t, strict=False)
        check(net.prefixlen > 0, f"{os.path.relpath(path, ROOT)}: trusts {t}, not every address")
        mapped.append("127.0.0.1" if not net.is_loopback else t)
    if mapped:
        env["SPARTS_TRUSTED_PROXIES"] = ",".join(mapped)
    return env


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(server, env):
    full = dict(os.environ)
    full = {k: v for k, v in full.items() if not k.startswith("SPARTS_")}
    full.update(env)
    proc = subprocess.Popen([server], env=full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        m = re.match(r"listening on 127\.0\.0\.1:(\d+)$", line.strip())
        if m:
            return proc, int(m.group(1))
    raise SystemExit("the server did not start: " + str(proc.wait()))


def start_haproxy(folder, server_port):
    port = free_port()
    cfg = os.path.join(folder, "haproxy.cfg")
    with open(cfg, "w") as f:
        f.write(f"""global
  maxconn 2000
defaults
  mode http
  option forwardfor
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
frontend players
  bind 127.0.0.1:{port}
  default_backend sparts
backend sparts
  server sparts 127.0.0.1:{server_port}
""")
    proc = subprocess.Popen(["haproxy", "-f", cfg, "-db"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc, port
        except OSError:
            import time
            time.sleep(0.05)
    raise SystemExit("haproxy did not start")


class Player:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0

    @classmethod
    async def connect(cls, port, source, headers=None):
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", local_addr=(source, 0),
                                      extra_headers=headers or {}, open_timeout=20)
        return cls(ws)

    async def ask(self, request):
        self.next_id += 1
        request = dict(request, id=self.next_id)
        await self.ws.send(json.dumps(request))
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            if msg.get("id") == self.next_id and msg.get("type") in ("ok", "error"):
                return msg


async def seat_forty(port):
    """Forty players from 127.0.1.1 .. 127.0.1.40 through the proxy, ten tables of four."""
    players = [await Player.connect(port, f"127.0.1.{i + 1}") for i in range(PLAYERS)]
    refusals = []
    hellos = await asyncio.gather(*(p.ask({"type": "hello", "protocol": 1, "name": f"P{i}"})
                                    for i, p in enumerate(players)))
    refusals += [h["code"] for h in hellos if h["type"] == "error"]
    tables = []
    for creator in players[::SEATS]:
        r = await creator.ask({"type": "create_table", "ruleset": {"preset": "spades"}})
        if r["type"] == "error":
            refusals.append(r["code"])
        else:
            tables.append(r["table"])
    seated = 0
    for i, p in enumerate(players):
        if i // SEATS < len(tables):
            r = await p.ask({"type": "sit", "table": tables[i // SEATS]})
            if r["type"] == "error":
                refusals.append(r["code"])
            else:
                seated += 1
    for p in players:
        await p.ws.close()
    return seated, refusals


async def forged_direct(server_port, limit):
    """A client straight to the server from 127.0.2.1, each hello on a new connection with
    another forged X-Forwarded-For: counted as 127.0.2.1 all the same."""
    codes = []
    for i in range(limit + 1):
        p = await Player.connect(server_port, "127.0.2.1", {"X-Forwarded-For": f"198.51.100.{i + 1}"})
        r = await p.ask({"type": "hello", "protocol": 1, "name": f"F{i}"})
        codes.append(r.get("code", "ok"))
        await p.ws.close()
    return codes


async def forged_through_proxy(port):
    """A client through the proxy that sends its own X-Forwarded-For: the proxy adds the
    address it saw after it, and the server takes that one."""
    codes = []
    for i in range(31):
        p = await Player.connect(port, "127.0.3.1", {"X-Forwarded-For": f"198.51.100.{i + 1}"})
        r = await p.ask({"type": "hello", "protocol": 1, "name": f"G{i}"})
        codes.append(r.get("code", "ok"))
        await p.ws.close()
    return codes


def one_file(server, path):
    print(f"== {os.path.relpath(path, ROOT)}", flush=True)
    settings = settings_of(path)
    check("SPARTS_TRUSTED_PROXIES" in settings, f"{os.path.relpath(path, ROOT)}: names its proxy in SPARTS_TRUSTED_PROXIES")
    env = here(settings, path)
    limit = int(env.get("SPARTS_PLAYERS_PER_ADDRESS_PER_MINUTE", "30"))
    check(PLAYERS > limit, f"forty players are more than one address may make ({limit}) a minute")
    with tempfile.TemporaryDirectory() as folder:
        proc, server_port = start_server(server, env)
        proxy, proxy_port = start_haproxy(folder, server_port)
        try:
            seated, refusals = asyncio.run(seat_forty(proxy_port))
            check(seated == PLAYERS and not refusals,
                  f"{PLAYERS} players through the proxy: {seated} seated, refusals {refusals}")
            codes = asyncio.run(forged_direct(server_port, limit))
            check(codes[:limit] == ["ok"] * limit and codes[limit] == "too_many_new_players",
                  f"a forged X-Forwarded-For straight to the server gains nothing: {codes[limit - 1:]}")
            codes = asyncio.run(forged_through_proxy(proxy_port))
            check(codes[:limit] == ["ok"] * limit and codes[limit] == "too_many_new_players",
                  f"a forged X-Forwarded-For through the proxy gains nothing: {codes[limit - 1:]}")
        finally:
            proxy.terminate()
            proxy.wait()
            proc.terminate()
            proc.wait()


def main():
    server = sys.argv[1]
    files = sys.argv[2:] or [os.path.join(ROOT, f) for f in (
        "deploy/systemd/sparts.service", "deploy/compose/compose.yaml", "deploy/kubernetes/sparts.yaml")]
    for f in files:
        one_file(server, f)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("every deployment file seats forty players through a proxy")


main()
