"""The Python client library against a real sparts-server (see conftest.py)."""
import asyncio
import json
import urllib.request

import pytest

from sparts_client import Bot, SpartsClient, SpartsError, check_deal_commitment, deal_commitment, play_table

PRESETS = ["bga-sparts", "sparts", "spartsel", "spades", "worldwinner-spades", "hearts"]


def run(coro, timeout=60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


class CheckingBot(Bot):
    """A random bot that checks the model against each your_turn: the hand it keeps holds
    every card it may play, and is exactly the hand it may pass from."""

    def __init__(self):
        super().__init__(seed=7)
        self.turns = 0

    def choose(self, legal, view):
        self.turns += 1
        if legal["kind"] == "play":
            assert set(legal["cards"]) <= set(view.hand), (legal, view)
        if legal["kind"] == "pass":
            assert sorted(legal["cards"]) == sorted(view.hand), (legal, view)
        return super().choose(legal, view)


def record(client):
    frames = []
    client.on_message.append(frames.append)
    return frames


def assert_secret(frames, seat):
    """Nothing received shows another seat's cards (PROTOCOL.md §6: stripped per viewer)."""
    for m in frames:
        if m["type"] == "snapshot" and m.get("view"):
            assert m["you"] == seat and m["view"]["viewer"] == seat
        if m["type"] != "event":
            continue
        ev = m["event"]
        t = ev["type"]
        if t in ("cards_dealt", "center_taken") and ev["seat"] != seat:
            assert "cards" not in ev, m
        if t == "cards_passed" and ev["from"] != seat:
            assert "cards" not in ev, m
        if t == "cards_received" and seat not in (ev["seat"], ev["from"]):
            assert "cards" not in ev, m
        if t == "bid_made" and ev.get("secret") and ev["seat"] != seat:
            assert "bid" not in ev, m


def assert_no_gap(queue):
    """The messages a subscriber got: every event follows the one (or the snapshot) before."""
    last, events = None, 0
    while not queue.empty():
        m = queue.get_nowait()
        if m["type"] == "snapshot":
            assert last is None or m["seq"] >= last, (last, m["seq"])
            last = m["seq"]
        elif m["type"] == "event":
            assert last is None or m["seq"] == last + 1, (last, m["seq"])
            last, events = m["seq"], events + 1
    return events


async def bot_game(url, preset, options=None, name="Py", client=None, after_start=None):
    """The Python bot at seat 0, server bots in the others; plays one game to its end."""
    own = client is None
    client = client or SpartsClient(url, name)
    if own:
        await client.connect()
    table = (await client.create_table(preset, options or {"hand_cap": 1}))["table"]
    checker = client.subscribe(table)
    frames = record(client)
    bot = CheckingBot()
    task = asyncio.ensure_future(play_table(client, table, bot, start_when_full=False))
    while client.table(table).you is None:
        await asyncio.sleep(0.01)
    while not all((client.table(table).info or {}).get("seats") or [None]):
        await client.add_bot(table)
    await client.start(table)
    if after_start:
        await after_start(client, table)
    model = await task
    if own:
        await client.close()
    return client, table, model, frames, checker, bot


@pytest.mark.parametrize("preset", PRESETS)
def test_full_game_of_each_preset(server, preset):
    client, table, model, frames, checker, bot = run(bot_game(server.url, preset))
    assert model.game_over is not None and model.game_over["reason"] == "hand_cap"
    assert model.phase == "game_over" and bot.turns > 0
    assert_secret(frames, 0)
    assert assert_no_gap(checker) > 10
    assert client.stats["rate_limited"] == 0 and client.stats["gaps"] == 0
    # The deal: committed to when the game began, opened by the seed and salt revealed at its end.
    assert model.deal_revealed is not None and model.deal_revealed["game"] == model.game
    assert check_deal_commitment(model.deal_commitment, model.deal_revealed["seed"], model.deal_revealed["salt"])


def test_deal_commitment_is_sha256_of_salt_and_seed():
    salt = "00112233445566778899aabbccddeeff"
    # printf '%s' "00112233445566778899aabbccddeeff:1234567890123" | sha256sum
    c = "d63aa1ae87f1d4465700ed940d33208716a5579f07fe500a50c7f4cd06e386b4"
    assert deal_commitment("1234567890123", salt) == c
    assert check_deal_commitment(c, "1234567890123", salt)
    assert not check_deal_commitment(c, "1234567890124", salt)
    assert not check_deal_commitment(c, "01234567890123", salt)
    assert not check_deal_commitment(c.upper(), "1234567890123", salt)
    assert not check_deal_commitment(c, "18446744073709551616", salt)
    assert not check_deal_commitment(c, 1234567890123, salt)


def test_four_python_bots_keep_their_cards_secret(server):
    async def main():
        clients = [SpartsClient(server.url, f"Py{i}") for i in range(4)]
        for c in clients:
            await c.connect()
        table = (await clients[0].create_table("spades", {"hand_cap": 1}))["table"]
        frames = [record(c) for c in clients]
        tasks = []
        for i, c in enumerate(clients):
            tasks.append(asyncio.ensure_future(play_table(c, table, CheckingBot(), seat=i)))
            while c.table(table).you is None:
                await asyncio.sleep(0.01)
        models = await asyncio.gather(*tasks)   # the last one to sit starts the game
        for c in clients:
            await c.close()
        return models, frames

    models, frames = run(main())
    assert all(m.game_over for m in models)
    assert len({json.dumps(m.game_over) for m in models}) == 1
    for seat, f in enumerate(frames):
        assert_secret(f, seat)


def test_token_is_kept_in_a_file(server, tmp_path):
    path = str(tmp_path / "token")

    async def main():
        a = SpartsClient(server.url, "Keeper", token_path=path)
        ok = await a.connect()
        table = (await a.create_table("spades"))["table"]
        await a.sit(table)
        await a.close()
        b = SpartsClient(server.url, "Keeper", token_path=path)
        ok2 = await b.connect()
        await b.close()
        return ok, ok2, table

    ok, ok2, table = run(main())
    assert "token" in ok and open(path).read().strip() == ok["token"]
    assert ok2["player"] == ok["player"] and "token" not in ok2
    assert {"table": table, "seat": 0} in ok2["seats"]


def test_table_list_pages_by_cursor(server):
    async def main():
        c = SpartsClient(server.url, "Pager")
        await c.connect()
        try:
            made = [(await c.create_table("sparts", {"seats": 6}))["table"] for _ in range(3)]
            seen, after, pages = [], None, 0
            while True:
                page = await c.list_tables_page(preset="sparts", seats=6, limit=2, **({"after": after} if after else {}))
                pages += 1
                assert page["total"] == 3
                seen += [t["table"] for t in page["tables"]]
                after = page["next"]
                if not after:
                    break
            return made, seen, pages
        finally:
            await c.close()

    made, seen, pages = run(main())
    assert seen == made and pages == 2


def test_errors_are_raised_with_code_and_field(server):
    async def main():
        c = SpartsClient(server.url, "Err")
        await c.connect()
        try:
            with pytest.raises(SpartsError) as e:
                await c.create_table("spades", {"seats": 5})
            return e.value
        finally:
            await c.close()

    err = run(main())
    assert err.code == "bad_ruleset" and err.field == "ruleset.options.seats"


def test_dropped_connection_reconnects_and_resumes_without_gap(server):
    async def drop(client, table):
        while client.table(table).seq < 20:
            await asyncio.sleep(0.005)
        client._ws.transport.abort()         # the network goes away under the client

    client, table, model, frames, checker, _ = run(
        bot_game(server.url, "spades", {"hand_cap": 1}, after_start=drop))
    assert model.game_over is not None
    assert client.stats["connects"] == 2 and client.stats["resumes"] >= 1
    assert client.stats["gaps"] == 0
    assert assert_no_gap(checker) > 20
    resumes = [m for m in frames if m["type"] == "ok" and m.get("re") == "resume"]
    assert resumes and resumes[0]["mode"] == "events"


def test_lost_frame_is_a_gap_and_is_resumed(server):
    async def main():
        client = SpartsClient(server.url, "Gappy")
        await client.connect()
        dispatch, lost = client._dispatch, []

        def lossy(msg):                      # lose one event frame, as a broken link might
            if msg.get("type") == "event" and msg["seq"] == 25 and not lost:
                lost.append(msg)
                return
            dispatch(msg)

        client._dispatch = lossy
        result = await bot_game(server.url, "spades", client=client)
        await client.close()
        return result, lost

    (client, table, model, frames, checker, _), lost = run(main())
    assert lost and client.stats["gaps"] == 1
    assert model.game_over is not None
    assert assert_no_gap(checker) > 20


def test_server_restart_mid_game(own_server):
    async def restart(client, table):
        while client.table(table).seq < 20:
            await asyncio.sleep(0.005)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, own_server.stop)
        await asyncio.sleep(0.3)
        await loop.run_in_executor(None, own_server.start)

    async def main():
        client = SpartsClient(own_server.url, "Phoenix", backoff_initial=0.1, backoff_max=1)
        frames = record(client)
        await client.connect()
        result = await bot_game(own_server.url, "spades", {"hand_cap": 2}, client=client,
                                after_start=restart)
        await client.close()
        return result, frames

    (client, table, model, _, checker, _), frames = run(main())
    assert {"type": "closing", "reason": "shutdown"} in frames
    assert client.stats["connects"] >= 2
    assert model.game_over is not None and model.game_over["hands_played"] == 2
    assert assert_no_gap(checker) > 20


@pytest.mark.parametrize("rate", [15, 0])
def test_pacing_keeps_under_the_rate_limit(server, rate):
    """Four tables of server bots answered at once on one connection: paced (the default,
    15 a second, bursts of 30), no rate_limited error; unpaced (rate 0), the server may refuse
    some (about a dozen here), which the client sends again, and the games still end."""
    async def main():
        client = SpartsClient(server.url, "Pacer", rate=rate)
        await client.connect()
        tables = []
        for _ in range(4):
            table = (await client.create_table("spades", {"hand_cap": 1}, turn_seconds=0))["table"]
            await client.sit(table)
            for _ in range(3):
                await client.add_bot(table)
            tables.append(table)
        tasks = [asyncio.ensure_future(play_table(client, t, sit=False)) for t in tables]
        for t in tables:
            await client.start(t)
        models = await asyncio.gather(*tasks)
        await client.close()
        return client, models

    client, models = run(main())
    assert all(m.game_over for m in models)
    if rate:
        assert client.stats["rate_limited"] == 0
    assert client.stats["sent"] > 60        # 4 tables x (a bid + 13 cards) answered at once


def test_archive_over_http_and_replay_over_websocket(server):
    async def main():
        client = SpartsClient(server.url, "Archivist")
        await client.connect()
        _, table, model, _, _, _ = await bot_game(server.url, "spades", client=client)
        await asyncio.sleep(0.2)             # the archive is written as the game ends
        loop = asyncio.get_running_loop()

        def get(path):
            with urllib.request.urlopen(server.http + path, timeout=10) as r:
                return r.status, r.read()

        status, body = await loop.run_in_executor(None, get, "/api/games?limit=100")
        games = json.loads(body)["games"]
        status2, rec = await loop.run_in_executor(None, get, f"/api/games/{table}/1/record")

        outline = await client.request({"type": "replay", "table": table, "game": 1, "speed": 0})
        await client.request({"type": "replay_control", "action": "step"})
        first = await asyncio.wait_for(client.replays.get(), 5)
        await client.request({"type": "replay_control", "action": "seek", "hand": 1, "trick": 1})
        state = await asyncio.wait_for(client.replays.get(), 5)
        await client.request({"type": "replay_control", "action": "play", "speed": 1000})
        played = []
        while True:
            m = await asyncio.wait_for(client.replays.get(), 10)
            if m["type"] == "replay_ended":
                break
            played.append(m)
        await client.close()
        return table, model, status, games, status2, rec, outline, first, state, played, m

    table, model, status, games, status2, rec, outline, first, state, played, ended = run(main())
    assert status == 200 and any(g["table"] == table and g["game"] == 1 for g in games)
    assert status2 == 200 and len(rec) > 100
    assert outline["events"] > 20 and outline["hands"][0]["hand"] == 1
    assert first["type"] == "replay_event" and first["position"] == 0
    assert first["event"]["type"] == "game_started"
    assert state["type"] == "replay_state" and len(state["hands"]) == 4
    assert all(len(h) == 13 for h in state["hands"])
    assert ended["position"] == outline["events"]
    assert [m["position"] for m in played] == list(range(played[0]["position"], outline["events"]))
    dealt = [m["event"] for m in played if m["event"]["type"] == "trick_won"]
    assert len(dealt) == 13
    assert [m["event"]["type"] for m in played[-2:]] == ["game_over", "deal_revealed"]


def test_chat_between_seats_and_spectators_with_mute_and_resume(server):
    """Table chat (PROTOCOL.md §21): seats talk to everyone, the rail only to itself while a
    game runs, mutes hold across a reconnection, and chat() raises the server's refusals."""
    async def until(pred, what):
        for _ in range(1000):
            if pred():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"timed out waiting for {what}")

    def texts(client, table):
        return [line["text"] for line in client.table(table).chat]

    async def main():
        ada, bo, eve = SpartsClient(server.url, "Ada"), SpartsClient(server.url, "Bo"), SpartsClient(server.url, "Eve")
        for c in (ada, bo, eve):
            await c.connect()
        table = (await ada.create_table("spades", turn_seconds=0))["table"]
        await ada.sit(table, 0)
        await bo.sit(table, 1)
        await ada.add_bot(table)
        await ada.add_bot(table)
        await eve.watch(table)
        await ada.start(table)          # no turn limit: the game waits for its people

        markup = "hello <b>all</b> <img src=x onerror=alert(1)>"
        await ada.chat(table, "  " + markup + "  ")
        for c in (ada, bo, eve):
            await until(lambda: markup in texts(c, table), "the seat's line everywhere")
        line = bo.table(table).chat[-1]
        assert (line["channel"], line["seat"], line["to"], line["name"]) == ("seats", 0, "everyone", "Ada")

        await eve.chat(table, "psst: lead spades")  # during the game: the rail only
        assert eve.table(table).chat[-1]["to"] == "spectators"
        await bo.chat(table, "marker")
        await until(lambda: "marker" in texts(ada, table), "the marker at Ada's")
        await until(lambda: "marker" in texts(eve, table), "the marker at Eve's")
        assert "psst: lead spades" not in texts(ada, table) + texts(bo, table)

        await ada.mute(table, 1)
        assert ada.table(table).muted == [1]
        await bo.chat(table, "can you hear me")
        await ada.chat(table, "marker two")
        await until(lambda: "can you hear me" in texts(eve, table), "Bo's line at Eve's")
        assert "can you hear me" not in texts(ada, table)

        with pytest.raises(SpartsError) as refused:
            await ada.chat(table, "two\nlines")
        assert refused.value.code == "chat_bad_text" and refused.value.field == "text"

        # Ada comes back on a new connection: the chat she may see, her mute kept.
        token = ada.token
        await ada.close()
        again = SpartsClient(server.url, "Ada", token=token)
        await again.connect()
        await until(lambda: texts(again, table), "the chat_history after the resume")
        history, muted = texts(again, table), again.table(table).muted
        for c in (again, bo, eve):
            await c.close()
        return history, muted

    history, muted = run(main())
    # Not the rail's line, nor any of Bo's: a mute hides the muted seat's earlier lines too.
    assert history == ["hello <b>all</b> <img src=x onerror=alert(1)>", "marker two"]
    assert muted == [1]


def test_rule_sets_are_kept_from_the_hello_with_their_counts(tmp_path):
    sets = tmp_path / "rule-sets.json"
    sets.write_text(json.dumps([{"name": "one-hand", "label": "One-hand Spades",
                                 "ruleset": {"preset": "spades", "options": {"hand_cap": 1}}}]))
    from conftest import Server
    s = Server(tmp_path, "--rule-sets", str(sets)).start()
    try:
        async def main():
            a = SpartsClient(s.url, "Host")
            await a.connect()
            before = a.rule_sets
            table = (await a.create_table("spades", {"hand_cap": 1}))["table"]
            model = await play_table(a, table, fill_with_bots="random")
            assert model.game_over is not None
            # The server reads the counts every few seconds: a new hello shows the game.
            for _ in range(40):
                b = SpartsClient(s.url, "Counter")
                await b.connect()
                await b.close()
                if b.rule_sets[0]["games"] == 1:
                    break
                await asyncio.sleep(0.25)
            await a.close()
            return before, b.rule_sets

        before, after = run(main())
        assert [(r["name"], r["label"], r["games"]) for r in before] == [("one-hand", "One-hand Spades", 0)]
        assert after[0]["games"] == 1
    finally:
        s.stop()
