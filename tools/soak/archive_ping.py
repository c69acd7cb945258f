#!/usr/bin/env python3
"""How much archive reads slow the games: WebSocket ping round trips, alone
and while eight clients fetch one long finished game over and over.

    python3 tools/soak/archive_ping.py --server build-release/server/sparts-server

It starts a server on a scratch database, has bots play one whole game of
Spades (a long one: every event of it is in the archive's answer), then
measures a ping a 20 ms for --seconds seconds three times: with no reader;
with eight readers of /api/games/{table}/1 and the server's cache of rendered
games turned off (--archive-cache-games 0: every read renders the game on the
archive thread); and with the cache on (the default). Before the archive reads
moved off the I/O threads, the second case raised the ping from 0.4 ms to
181 ms. Prints p50, p99 and the worst round trip of each, and the readers'
fetches a second.
"""
import argparse
import os
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402  (its WebSocket client, server runner and HTTP helpers)


def play_one_game(port):
    """A table of four bots plays Spades to the end; returns its id."""
    ws = soak.WebSocket(port)
    ws.hello("archive-ping")
    table = ws.request({"type": "create_table", "ruleset": {"preset": "spades"}, "turn_seconds": 0})["table"]
    ws.request({"type": "sit", "table": table})
    for _ in range(3):
        ws.request({"type": "add_bot", "table": table})
    ws.request({"type": "start", "table": table})
    ws.request({"type": "leave", "table": table})  # a bot takes the seat: four bots play it out
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        status, _ = soak.http_get(port, f"/api/games/{table}/1")
        if status == 200:
            ws.close()
            return table
        time.sleep(0.5)
    raise RuntimeError("the bots did not finish the game in time")


def ping_times(port, seconds):
    ws = soak.WebSocket(port)
    ws.hello("pinger")
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        ws.request({"type": "ping"})
        times.append((time.perf_counter() - started) * 1000)
        time.sleep(0.02)
    ws.close()
    return times


def measure(binary, readers, cache_games, seconds):
    folder = tempfile.mkdtemp(prefix="archive-ping-")
    server = soak.Server(binary, folder, ["--bot-delay-ms", "0", "--archive-cache-games", str(cache_games),
                                          "--archive-reads-per-minute", "1000000"])
    try:
        table = play_one_game(server.port)
        size = len(soak.http_get(server.port, f"/api/games/{table}/1")[1])
        stop = threading.Event()
        fetched = [0] * readers

        def read(i):
            while not stop.is_set():
                soak.http_get(server.port, f"/api/games/{table}/1", timeout=60)
                fetched[i] += 1

        threads = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(readers)]
        for t in threads:
            t.start()
        times = ping_times(server.port, seconds)
        stop.set()
        for t in threads:
            t.join(60)
        times.sort()
        return {"p50": statistics.median(times), "p99": times[int(len(times) * 0.99) - 1], "max": times[-1],
                "fetches": sum(fetched) / seconds, "bytes": size}
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="build/server/sparts-server")
    parser.add_argument("--seconds", type=float, default=10)
    options = parser.parse_args()
    cases = [("no archive reader", 0, 64), ("8 readers, no cache", 8, 0), ("8 readers, cache on", 8, 64)]
    print(f"{'case':<22} {'ping p50':>9} {'p99':>9} {'max':>9} {'fetches/s':>10}  game JSON")
    for name, readers, cache in cases:
        r = measure(options.server, readers, cache, options.seconds)
        print(f"{name:<22} {r['p50']:8.2f}ms {r['p99']:8.2f}ms {r['max']:8.2f}ms {r['fetches']:10.1f}  "
              f"{r['bytes'] / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
