"""play_table's ends (hands, games, leave) and bots, and the example bot (see conftest.py)."""
import asyncio
import os
import signal
import subprocess
import sys

import pytest
from conftest import HERE, Server

from sparts_client import SpartsClient, SpartsError, play_table


def run(coro, timeout=60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until_closed(events, timeout=5):
    """The reason of the table_closed a watcher's queue gets."""
    while True:
        m = await asyncio.wait_for(events.get(), timeout)
        if m["type"] == "event" and m["event"]["type"] == "table_closed":
            return m["event"]["reason"]


def test_play_table_stops_after_hands_and_leaves(server):
    async def main():
        client, watcher = SpartsClient(server.url, "Hands"), SpartsClient(server.url, "Rail")
        await client.connect()
        await watcher.connect()
        table = (await client.create_table("spades", {"hand_cap": 5}, turn_seconds=0))["table"]
        await watcher.watch(table)
        events = watcher.subscribe(table)
        mine = []                       # the events of the bot's own cards and bids
        client.on_message.append(lambda m: mine.append(m["event"]["type"]) if m["type"] == "event"
                                 and m["table"] == table and m["event"].get("seat") == 0
                                 and m["event"]["type"] in ("card_played", "bid_made") else None)
        model = await play_table(client, table, hands=2, games=None, fill_with_bots=True)
        reason = await until_closed(events)
        # both limits: the first reached ends it (a game of 2 hands, asked for 3 hands)
        table2 = (await client.create_table("spades", {"hand_cap": 2}, turn_seconds=0))["table"]
        model2 = await play_table(client, table2, hands=3, games=1, fill_with_bots=True)
        await client.close()
        await watcher.close()
        return model, mine, reason, model2

    model, mine, reason, model2 = run(main())
    # it plays two hands, then stops: the third hand is dealt (in the step that scored the
    # second), and left to the bot that takes the seat
    assert mine.count("bid_made") == 2 and mine.count("card_played") == 26
    assert model.hand_number == 3 and model.game_over is None
    assert reason == "everyone_left", "left with only bots at the table: it closes at once"
    assert model2.game_over is not None and model2.game_over["hands_played"] == 2


def test_fill_with_bots_asks_for_a_level(server):
    async def fill(level):
        client = SpartsClient(server.url, "Filler")
        await client.connect()
        sent = []
        send = client._send

        async def recording(msg):
            sent.append(dict(msg))
            await send(msg)
        client._send = recording
        table = (await client.create_table("spades", {"hand_cap": 1}, turn_seconds=0))["table"]
        try:
            await play_table(client, table, hands=1, games=None, fill_with_bots=level)
            return [m for m in sent if m["type"] == "add_bot"], None
        except SpartsError as e:
            return [m for m in sent if m["type"] == "add_bot"], e
        finally:
            await client.close()

    # three bots seated, then table_full ends the filling
    asked, error = run(fill("random"))
    assert [m.get("level") for m in asked] == ["random"] * 4 and error is None
    asked, error = run(fill(True))                  # the server's default: basic
    assert [("level" in m) for m in asked] == [False] * 4 and error is None
    asked, error = run(fill("genius"))
    assert len(asked) == 1 and error.code == "bad_message" and error.field == "level"


def test_runs_one_after_another_stay_under_the_table_limits(tmp_path):
    """Item 5 of the bot author's issue: each run creates a table, fills it with bots and
    plays; run after run, the tables it left (done, or cancelled) close at once, so a
    server allowing 2 tables a player and an address takes 6 runs in a row."""
    server = Server(tmp_path, "--tables-per-address", "2", "--tables-per-player", "2").start()
    token = str(tmp_path / "token")

    async def one_run(n):
        client = SpartsClient(server.url, "Again", token_path=token)
        await client.connect()
        table = (await client.create_table("spades", {"hand_cap": 1}, turn_seconds=0))["table"]
        if n % 2:
            await play_table(client, table, hands=1, games=None, fill_with_bots=True)
        else:                                   # stopped by its author mid-hand
            task = asyncio.ensure_future(play_table(client, table, games=None, fill_with_bots=True))
            while client.table(table).trick_number < 2 and not task.done():
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        await client.close()

    try:
        for n in range(6):
            run(one_run(n))
    finally:
        server.stop()


def test_example_bot_leaves_when_stopped(own_server, tmp_path):
    """examples/bot.py, stopped with Ctrl-C (SIGINT) while it plays: it leaves its seat,
    closes, and exits 0 with nothing on stderr but its log; its table of bots closes at
    once. A second run then creates a table again (the first is gone)."""
    example = os.path.join(HERE, "..", "examples", "bot.py")
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "src"))

    async def watch_run():
        rail = SpartsClient(own_server.url, "Rail")
        await rail.connect()
        known = {t["table"] for t in await rail.list_tables(open=False)}
        proc = subprocess.Popen([sys.executable, example, own_server.url, "spades"], cwd=str(tmp_path),
                                env=env, stderr=subprocess.PIPE, text=True)
        try:
            table = None
            for _ in range(500):
                tables = [t["table"] for t in await rail.list_tables(open=False)
                          if t["table"] not in known and t["state"] == "playing"]
                if tables:
                    table = tables[0]
                    break
                await asyncio.sleep(0.02)
            assert table, "the example bot made a table and started a game"
            await rail.watch(table)
            events = rail.subscribe(table)
            while (m := await asyncio.wait_for(events.get(), 5))["type"] != "event" or \
                    m["event"]["type"] != "card_played":
                pass
            proc.send_signal(signal.SIGINT)
            reason = await until_closed(events)
            loop = asyncio.get_running_loop()
            code = await loop.run_in_executor(None, proc.wait, 5)
            return reason, code, proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
            await rail.close()

    for _ in range(2):
        reason, code, err = run(watch_run())
        assert code == 0 and reason == "everyone_left", err
        assert "Traceback" not in err and "never retrieved" not in err and "destroyed" not in err, err
    assert os.path.exists(tmp_path / ".sparts-token")
