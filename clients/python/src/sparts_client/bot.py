"""Bots: turn a your_turn's ``legal`` into an action, and a runner that plays a table."""
from __future__ import annotations

import asyncio
import logging
import random
from typing import Any, Dict, Optional, Union

from .client import SpartsClient, SpartsError, within
from .model import TableModel

log = logging.getLogger("sparts_client")

# Refusals that mean "the your_turn was stale": wait for the next one (PROTOCOL.md §7).
STALE = {"not_your_turn", "wrong_phase", "already_passed", "game_over", "no_game", "disconnected",
         "table_moved"}

LEAVE_TIMEOUT = 3.0   # seconds play_table gives its leave on the way out


class Bot:
    """Override :meth:`choose`. The default plays a uniformly random legal move."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, legal: Dict[str, Any], view: TableModel) -> Dict[str, Any]:
        kind = legal["kind"]
        if kind == "play":
            return {"type": "play", "card": self.rng.choice(legal["cards"])}
        if kind == "bid":
            if legal.get("show_cards") or legal.get("blind_nil"):
                # Blind nil: the cards are face down; now and then bid it, else look.
                if legal.get("blind_nil") and (not legal.get("show_cards") or self.rng.random() < 0.25):
                    return {"type": "bid", "bid": "blind_nil"}
                return {"type": "show_cards"}
            return {"type": "bid", "bid": self.rng.choice(legal["bids"])}
        if kind == "choose":
            return {"type": "choose", "game": self.rng.choice(legal["choices"])}
        if kind == "moon":       # hearts, moon_scoring "choose": you shot the moon
            return {"type": "moon", "score": self.rng.choice(legal["choices"])}
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
                     games: Optional[int] = 1, hands: Optional[int] = None, sit: bool = True,
                     start_when_full: bool = True, fill_with_bots: Union[bool, str] = False,
                     leave: bool = True) -> TableModel:
    """Sit at ``table`` (or take the seat held back) and answer every your_turn with
    ``bot.choose`` until ``games`` games have ended or ``hands`` hands were scored,
    whichever comes first (both ``None``: until cancelled), asking ``again`` between games.

    ``fill_with_bots``: put server bots in the free seats after sitting; ``True`` for the
    server's default level (``basic``), or a level: ``"random"``, ``"basic"``, ``"strong"``.
    With ``start_when_full``, start the first game once every seat is held. With ``leave``,
    give the seat up on the way out, whether done, failed or cancelled, so that the table
    does not stay open (and count against your tables) after the bot is gone.
    Returns the table's model (``model.game_over``: the last game's ``game_over`` event).
    Raises ``SpartsError`` ``disconnected`` if the client is closed under it.
    """
    bot = bot or Bot()
    queue = client.subscribe(table)
    model = client.table(table)
    seated = False
    try:
        if sit:
            try:
                await client.sit(table, seat=seat, invite=invite)
            except asyncio.CancelledError:
                seated = True            # the sit may have been applied: leave all the same
                raise
        seated = True
        if fill_with_bots:
            level = None if fill_with_bots is True else fill_with_bots
            while True:
                try:
                    await client.add_bot(table, level)
                except SpartsError as e:
                    if e.code in ("table_full", "seat_taken"):
                        break
                    raise
        if await _play(client, table, bot, queue, model, games, hands, start_when_full):
            # The deal's reveal follows game_over in the same step: take it too, so that the
            # model returned can be checked (model.deal_revealed against model.deal_commitment).
            while model.deal_commitment and not model.deal_revealed and not model.closed:
                try:
                    if (await within(queue.get(), 5))["type"] == "closed":
                        break
                except asyncio.TimeoutError:
                    break
        return model
    finally:
        client.unsubscribe(table, queue)
        if leave and seated and not model.closed:
            await _leave(client, table)


async def _play(client: SpartsClient, table: str, bot: Bot, queue: "asyncio.Queue[Dict[str, Any]]",
                model: TableModel, games: Optional[int], hands: Optional[int],
                start_when_full: bool) -> bool:
    """Play until done; True when the last game's end is what stopped it."""
    finished = scored = 0
    answered = None                      # (game, hand, round) of the last pass sent
    acted = 0                            # the seq of the ok to the last action applied
    while True:
        msg = await queue.get()
        t = msg["type"]
        if t == "closed":
            raise SpartsError("disconnected", "the client was closed")
        if t == "event":
            ev = msg["event"]
            if ev["type"] == "hand_scored":
                scored += 1
                if hands is not None and scored >= hands:
                    return False
            elif ev["type"] == "game_over":
                finished += 1
                if games is not None and finished >= games:
                    return True
                await _again(client, table)
            elif ev["type"] == "table_closed":
                return False
            elif ev["type"] == "seat_taken":
                await _start_if_full(client, model, start_when_full)
        elif t == "snapshot":
            await _start_if_full(client, model, start_when_full)
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


async def _leave(client: SpartsClient, table: str) -> None:
    # On the way out, maybe cancelled: a short try, and only on a live connection (a
    # request would wait for the next one). Otherwise the seat stays, as after a crash.
    if not client.connected:
        return
    try:
        await within(client.leave(table), LEAVE_TIMEOUT)
    except (SpartsError, asyncio.TimeoutError) as e:
        log.info("could not leave %s: %r", table, e)


async def _again(client: SpartsClient, table: str) -> None:
    try:
        await client.again(table)
    except SpartsError as e:
        if e.code != "seats_not_full":
            raise


async def _start_if_full(client: SpartsClient, model: TableModel, start: bool) -> None:
    """Once every seat is held: start the first game (with ``start``), or, at a game
    already over (play_table started or taken back after a game_over, a seat filled
    since), ask for the next one, which its game_over event did not, or not in time."""
    info = model.info
    if model.you is None or not info or not all(info["seats"]):
        return
    try:
        if model.game == 0 and start:
            await client.start(model.table)
        elif model.phase == "game_over":
            await client.again(model.table)
    except SpartsError as e:
        if e.code not in ("already_started", "seats_not_full", "game_not_over"):
            raise
