"""Cancelling play_table, and closing the client under it (see conftest.py for the server).

Each run's bot plays at a table with server bots and no turn limit, and is cancelled at
every kind of message the kit sees, many times: either at the moment the frame is read
(client.on_message, before the rest of the frame: the ok of the bot's own act is often
in it, the case Python 3.11's asyncio.wait_for lost), or from a task reading a queue of
its own. Each time, ``await task`` must end at once with CancelledError, and nothing may
be left behind that asyncio prints ("Future exception was never retrieved", "Task
exception was never retrieved", "Task was destroyed but it is pending!").
"""
import asyncio
import gc

from sparts_client import SpartsClient, SpartsError, play_table

# Every message the kit gets from a game with a Spades table's bots: the hand's events,
# the game's, the table's (again_requested), a your_turn, and the snapshot of a sit.
KINDS = ["game_started", "hand_started", "cards_dealt", "bidding_started", "bid_made", "play_started",
         "card_played", "trick_won", "hand_scored", "game_over", "deal_revealed", "again_requested",
         "your_turn", "snapshot"]
ROUNDS = 8          # cancellations of each kind: half at the frame, half from a reader
PROMPT = 3.0        # seconds a cancelled play_table may take to end (it says leave first)


def kind_of(msg):
    return msg["event"]["type"] if msg.get("type") == "event" else msg.get("type")


def run_watched(main, timeout=120):
    """Run ``main(problems)``; returns what asyncio reported to the loop's exception
    handler, garbage collected included (where "never retrieved" is said)."""
    problems = []

    async def wrapper():
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: problems.append(ctx))
        result = await asyncio.wait_for(main(), timeout)
        gc.collect()
        return result

    result = asyncio.run(wrapper())
    gc.collect()
    return result, [f"{p.get('message')}: {p.get('exception')!r}" for p in problems]


async def cancel_at(client, table, kind, at_frame, **kw):
    """Start play_table and cancel it at the first ``kind`` it may see; returns how it ended."""
    task = asyncio.ensure_future(play_table(client, table, games=None, **kw))
    reader = None
    if at_frame:
        cancelled = []

        def on_message(msg):
            # Once: a second cancel (the next card_played, say) would cut the leave that
            # play_table sends on its way out, as any second cancel of a task cuts its cleanup.
            if kind_of(msg) == kind and msg.get("table") == table and not task.done() and not cancelled:
                cancelled.append(msg)
                task.cancel()
        client.on_message.append(on_message)
    else:
        queue = client.subscribe(table)

        async def read():
            while kind_of(await queue.get()) != kind:
                pass
            task.cancel()
        reader = asyncio.ensure_future(read())
    try:
        done, _ = await asyncio.wait({task, reader} - {None}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
        assert done, f"no {kind} in 20 s"
        if reader is not None and not task.done():
            assert reader.done() and reader.exception() is None
        loop = asyncio.get_running_loop()
        cancelled_at = loop.time()
        done, _ = await asyncio.wait({task}, timeout=PROMPT)
        assert done, f"cancelled at {kind} ({'at the frame' if at_frame else 'from a reader'}): play_table played on"
        assert task.cancelled(), f"cancelled at {kind}: play_table ended otherwise: {task.exception()!r}"
        return loop.time() - cancelled_at
    finally:
        if at_frame:
            client.on_message.remove(on_message)
        else:
            reader.cancel()
            client.unsubscribe(table, queue)
        if not task.done():
            task.cancel()


def test_play_table_cancelled_at_every_kind_of_message(server):
    """Each kind at a table of its own, all at once (a hand's first events come in one
    step with game_started: at one table, each would wait a game for its turn)."""
    async def cancel_again_and_again(kind):
        client = SpartsClient(server.url, f"Cancel {kind}")
        await client.connect()
        table = (await client.create_table("spades", {"hand_cap": 1}, turn_seconds=0))["table"]
        await client.sit(table)
        for _ in range(3):
            await client.add_bot(table)
        took = []
        for n in range(ROUNDS):
            # leave=False: the seat is kept, and the next run takes it back (a snapshot)
            took.append(await cancel_at(client, table, kind, at_frame=n % 2 == 0, leave=False))
        await client.close()
        return len(took), max(took)

    async def main():
        return await asyncio.gather(*(cancel_again_and_again(kind) for kind in KINDS))

    results, problems = run_watched(main)
    assert [n for n, _ in results] == [ROUNDS] * len(KINDS)
    assert problems == []
    print(f"{ROUNDS} cancellations of each of {len(KINDS)} kinds; the slowest ended in "
          f"{max(t for _, t in results) * 1000:.0f} ms")


def test_cancelled_play_table_leaves_and_the_table_closes(server):
    """Cancelled with leave (the default), play_table gives its seat up before it ends: a
    table of bots alone closes at once (table_closed everyone_left), so it does not count
    against the bot's open tables. A watcher sees it close."""
    async def main():
        client, watcher = SpartsClient(server.url, "Leaver"), SpartsClient(server.url, "Watcher")
        await client.connect()
        await watcher.connect()
        reasons = []
        for n, kind in enumerate(["game_started", "bid_made", "card_played", "trick_won", "game_over", "your_turn"]):
            table = (await client.create_table("spades", {"hand_cap": 1}, turn_seconds=0))["table"]
            await watcher.watch(table)
            events = watcher.subscribe(table)
            await cancel_at(client, table, kind, at_frame=n % 2 == 0, fill_with_bots=True)
            assert table not in client.tables, "a table left is not followed (nor resumed) any more"
            while True:
                m = await asyncio.wait_for(events.get(), 5)
                if kind_of(m) == "table_closed":
                    reasons.append(m["event"]["reason"])
                    break
        await client.close()
        await watcher.close()
        return reasons

    reasons, problems = run_watched(main)
    assert reasons == ["everyone_left"] * 6
    assert problems == []


def test_closing_the_client_ends_play_table(server):
    """client.close() under a playing play_table: it raises SpartsError disconnected at
    once (it used to wait forever), and no request's failure is left unretrieved."""
    async def main():
        ends = []
        for n in range(1, 9):
            client = SpartsClient(server.url, "Closer")
            await client.connect()
            table = (await client.create_table("spades", {"hand_cap": 1}, turn_seconds=0))["table"]
            turns = []
            client.on_message.append(lambda m: turns.append(m) if m["type"] == "your_turn" else None)
            task = asyncio.ensure_future(play_table(client, table, games=None, fill_with_bots=True))
            while len(turns) < n:
                await asyncio.sleep(0.001)
            await client.close()
            done, _ = await asyncio.wait({task}, timeout=PROMPT)
            assert done, f"closed after {n} turns: play_table waits on"
            ends.append(task.exception())
        return ends

    ends, problems = run_watched(main)
    assert all(isinstance(e, SpartsError) and e.code == "disconnected" for e in ends), ends
    assert problems == []
