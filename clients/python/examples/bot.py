"""A complete sparts bot: sits at an open table (or creates one) and plays until stopped.

    python3 examples/bot.py [ws://127.0.0.1:8080/ws] [preset]

Ctrl-C (or SIGTERM) stops it cleanly: play_table, cancelled, gives the seat up, so that a
table of bots alone closes at once instead of counting against your open tables.
"""
import asyncio
import logging
import signal
import sys

from sparts_client import Bot, SpartsClient, play_table

RANKS = "23456789TJQKA"


class LowBot(Bot):
    def choose(self, legal, view):          # play the lowest card; the rest at random
        if legal["kind"] == "play":
            return {"type": "play", "card": min(legal["cards"], key=lambda c: RANKS.find(c[0]))}
        return super().choose(legal, view)


async def main(url, preset):
    for sig in (signal.SIGINT, signal.SIGTERM):  # stop = cancel: play_table leaves on its way out
        asyncio.get_running_loop().add_signal_handler(sig, asyncio.current_task().cancel)
    client = SpartsClient(url, "PyBot", token_path=".sparts-token")
    try:
        hello = await client.connect()
        if hello["seats"]:                  # killed, not stopped: take our seat back
            table, mine = hello["seats"][0]["table"], False
        else:
            tables = await client.list_tables(preset=preset)
            mine = not tables
            table = (await client.create_table(preset))["table"] if mine else tables[0]["table"]
        await play_table(client, table, LowBot(), games=None, fill_with_bots=mine)
    finally:
        await client.close()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    try:
        asyncio.run(main(*(sys.argv[1:] + ["ws://127.0.0.1:8080/ws", "spades"][len(sys.argv) - 1:])))
    except asyncio.CancelledError:
        pass
