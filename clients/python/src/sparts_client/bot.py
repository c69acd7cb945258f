"""Bots: turn a your_turn's ``legal`` into an action, and a runner that plays a table."""
from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, Dict, Optional

from .client import SpartsClient, SpartsError
from .model import TableModel

log = logging.getLogger("sparts_client")

# Refusals that mean "the your_turn was stale": wait for the next one (PROTOCOL.md §7).
STALE = {"not_your_turn", "wrong_phase", "already_passed", "game_over", "no_game", "disconnected",
         "table_moved"}


class Bot:
    """Override :meth:`choose`. The default plays a uniformly random legal move."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, legal: Dict[str, Any], view: TableModel) -> Dict[str, Any]:
        kind = legal["kind"]
        if kind == "play":
            return {"type": "play", "card": self.rng.choice(legal["cards"])}
        if kind == "bid":
            return {"type": "bid", "bid": self.rng.choice(legal["bids"])}
        if kind == "choose":
            return {"type": "choose", "game": self.rng.choice(legal["choices"])}
        if kind == "pass":
            cards = list(legal["cards"])
            self.rng.shuffle(cards)
            n, back = legal["count"], legal.get("back_count", 0)
            action: Dict[str, Any] = {"type": "pass", "cards": cards[:n]}
            if back:
                action["back"] = cards[n:n + back]
            return action
        raise ValueError(f"unknown legal kind {kind!r}")


async def play_table(client: SpartsClient, table: str, bot: Optional[Bot] = None, *,
                     seat: Optional[int] = None, invite: Optional[str] = None,
                     games: Optional[int] = 1, sit: bool = True,
                     start_when_full: bool = True, fill_with_bots: bool = False) -> TableModel:
    """Sit at ``table`` (or take the seat held back) and answer every your_turn with
    ``bot.choose`` until ``games`` games have ended (``None``: until cancelled), asking
    ``again`` between games. ``fill_with_bots``: put server bots in the free seats after
    sitting. With ``start_when_full``, start the first game once every seat is held.
    Returns the table's model (``model.game_over``: the last game's ``game_over`` event).
    """
    bot = bot or Bot()
    queue = client.subscribe(table)
    model = client.table(table)
    if sit:
        await client.sit(table, seat=seat, invite=invite)
    if fill_with_bots:
        while True:
            try:
                await client.add_bot(table)
            except SpartsError as e:
                if e.code in ("table_full", "seat_taken"):
                    break
                raise
    finished = 0
    answered = None                      # (game, hand, round) of the last pass sent
    acted = 0                            # the seq of the ok to the last action applied
    while games is None or finished < games:
        msg = await queue.get()
        t = msg["type"]
        if t == "event":
            ev = msg["event"]
            if ev["type"] == "game_over":
                finished += 1
                if games is None or finished < games:
                    await _again(client, table)
            elif ev["type"] == "table_closed":
                break
            elif ev["type"] == "seat_taken" and start_when_full:
                await _start_if_full(client, model)
        elif t == "snapshot" and start_when_full:
            await _start_if_full(client, model)
        elif t == "your_turn":
            if not queue.empty() and any(m["type"] == "your_turn" for m in queue._queue):  # type: ignore[attr-defined]
                continue                 # a newer your_turn is already here: answer that one
            if msg.get("seq", 0) < acted:
                # Sent before our last action was applied (it made an event, so a your_turn
                # sent after it has a seq at least the ok's): stale. One comes when an action
                # waited across a reconnection and the resume offered the same turn again.
                continue
            legal = msg["legal"]
            key = (model.game, model.hand_number, model.pass_round)
            if legal["kind"] == "pass" and key == answered:
                continue                 # passing: answer the latest your_turn only once
            try:
                ok = await client.act(table, bot.choose(legal, model))
                acted = max(acted, ok.get("seq", 0))
                if legal["kind"] == "pass":
                    answered = key
            except SpartsError as e:
                if e.code not in STALE:
                    raise
                log.info("act refused (%s): waiting for the next your_turn", e.code)
    # The deal's reveal follows game_over in the same step: take it too, so that the model
    # returned can be checked (model.deal_revealed against model.deal_commitment).
    while model.deal_commitment and not model.deal_revealed and not model.closed:
        try:
            msg = await asyncio.wait_for(queue.get(), 5)
        except asyncio.TimeoutError:
            break
    return model


async def _again(client: SpartsClient, table: str) -> None:
    try:
        await client.again(table)
    except SpartsError as e:
        if e.code != "seats_not_full":
            raise


async def _start_if_full(client: SpartsClient, model: TableModel) -> None:
    info = model.info
    if model.you is None or not info or info.get("state") != "waiting" or not all(info["seats"]):
        return
    try:
        await client.start(model.table)
    except SpartsError as e:
        if e.code not in ("already_started", "seats_not_full"):
            raise
