"""SpartsClient: one WebSocket connection to a sparts-server, kept alive across drops and restarts."""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import random
import time
from typing import Any, Callable, Dict, List, Optional
from urllib.parse import urlsplit, urlunsplit

import websockets

from .model import TableModel

log = logging.getLogger("sparts_client")

PROTOCOL = 1


class SpartsError(Exception):
    """An ``error`` reply (PROTOCOL.md §8), or ``disconnected`` / ``timeout`` from the client itself."""

    def __init__(self, code: str, message: str = "", field: Optional[str] = None,
                 reply: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(f"{code}: {message}" + (f" (field {field})" if field else ""))
        self.code, self.message, self.field, self.reply = code, message, field, reply or {}


async def within(aw: Any, timeout: Optional[float]) -> Any:
    """Await ``aw`` for at most ``timeout`` seconds (``asyncio.TimeoutError`` after that).

    Not ``asyncio.wait_for``: before Python 3.12, when what it awaits finishes as the
    caller is cancelled, it returns the result and the cancellation is lost (bpo-42130),
    so a bot cancelled as a reply came in played on. Here a cancellation always wins, and
    what was being awaited is cancelled, or its exception marked as seen, so that nothing
    is left to print "exception was never retrieved".
    """
    fut = asyncio.ensure_future(aw)
    try:
        done, _ = await asyncio.wait({fut}, timeout=timeout)
    finally:
        if not fut.done():
            fut.cancel()
        elif not fut.cancelled():
            fut.exception()
    if not done:
        raise asyncio.TimeoutError()
    return fut.result()


class TokenBucket:
    """Client-side pacing: at most ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = float(rate), float(burst)
        self.tokens, self.last = float(burst), time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:              # first come, first served
            while True:
                now = time.monotonic()
                self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
                self.last = now
                if self.tokens >= 1:
                    self.tokens -= 1
                    return
                await asyncio.sleep((1 - self.tokens) / self.rate)


class SpartsClient:
    """An asyncio client of the sparts protocol.

    ``await client.connect()`` opens the connection and says hello (with the stored token,
    if any); then ``await client.request({...})`` sends a request and returns its ``ok``
    (or raises :class:`SpartsError`). Every table followed has a :class:`TableModel` in
    ``client.tables`` and its messages (``event``, ``snapshot``, ``your_turn``) go to every
    queue from ``client.subscribe(table)``. Drops, server restarts and table moves are
    handled: the client reconnects (with backoff), says hello with its token and resumes
    each table from its last seq.
    """

    def __init__(self, url: str, name: str, token: Optional[str] = None,
                 token_path: Optional[str] = None, *, request_timeout: float = 10.0,
                 rate: float = 15.0, burst: float = 30.0, backoff_initial: float = 0.25,
                 backoff_max: float = 5.0, reconnect: bool = True) -> None:
        self.url, self.name, self.token_path = url, name, token_path
        if token is None and token_path and os.path.exists(token_path):
            with open(token_path) as f:
                token = f.read().strip() or None
        self.token = token
        self.player: Optional[str] = None
        # The host's named rule sets from the last hello: name, label, ruleset and how many
        # games were played under each (``games``); offer them first.
        self.rule_sets: List[Dict[str, Any]] = []
        self.request_timeout = request_timeout
        self.bucket = TokenBucket(rate, burst) if rate else None
        self.backoff_initial, self.backoff_max = backoff_initial, backoff_max
        self.auto_reconnect = reconnect
        self.tables: Dict[str, TableModel] = {}
        self.replays: "asyncio.Queue[Dict[str, Any]]" = asyncio.Queue()
        self.stats = {"sent": 0, "received": 0, "rate_limited": 0, "connects": 0,
                      "resumes": 0, "gaps": 0}
        self.on_message: List[Callable[[Dict[str, Any]], None]] = []   # every message, raw
        self._subs: Dict[str, List[asyncio.Queue]] = {}
        self._ids = itertools.count(1)
        self._pending: Dict[Any, asyncio.Future] = {}
        self._ws: Any = None
        self._connected = asyncio.Event()
        # table -> (future, ok) of a sit or watch whose snapshot has not come yet
        self._held_replies: Dict[str, Any] = {}
        self._first: Optional[asyncio.Future] = None
        self._closing = False
        self._moved_table: Optional[str] = None
        self._task: Optional[asyncio.Task] = None
        self._resyncing: Dict[str, bool] = {}
        self._background: set = set()      # resumes after a gap: kept, so that close() ends them

    async def __aenter__(self) -> "SpartsClient":
        await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # -- public API ------------------------------------------------------------------
    async def connect(self) -> Dict[str, Any]:
        """Connect and say hello; returns the hello ``ok`` (``seats`` lists the seats held)."""
        self._first = asyncio.get_running_loop().create_future()
        self._task = asyncio.ensure_future(self._run())
        return await self._first

    async def close(self) -> None:
        """Close the connection for good (no reconnection). Requests waiting fail with
        ``disconnected``, and every queue from :meth:`subscribe` gets ``{"type": "closed"}``
        last, so that whatever reads one (``play_table``) stops instead of waiting forever.
        Seats are kept: ``leave`` first to give them up (``play_table`` does)."""
        self._closing = True
        for t in list(self._background):
            t.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._task:
            try:
                await within(asyncio.shield(self._task), 5)
            except asyncio.TimeoutError:
                self._task.cancel()
        self._finished()

    def _finished(self) -> None:
        for queues in self._subs.values():
            for q in queues:
                q.put_nowait({"type": "closed"})
        self._subs.clear()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def subscribe(self, table: str) -> "asyncio.Queue[Dict[str, Any]]":
        """A queue of the table's messages (snapshot, event, your_turn, chat, chat_history), each
        after the model took it; ``{"type": "closed"}`` last, once the client is closed."""
        q: asyncio.Queue = asyncio.Queue()
        self._subs.setdefault(table, []).append(q)
        return q

    def unsubscribe(self, table: str, queue: "asyncio.Queue[Dict[str, Any]]") -> None:
        """Stop putting the table's messages in ``queue``."""
        queues = self._subs.get(table, [])
        if queue in queues:
            queues.remove(queue)

    def table(self, table: str) -> TableModel:
        if table not in self.tables:
            self.tables[table] = TableModel(table)
        return self.tables[table]

    async def request(self, msg: Dict[str, Any], timeout: Optional[float] = None,
                      retries: int = 5) -> Dict[str, Any]:
        """Send a request (an ``id`` is added) and wait for its reply.

        Waits for the connection when it is down. A ``rate_limited`` reply is retried
        after a short pause (the frame was not read). A ``table_moved`` reply (many nodes:
        the table moved to another node while the request was on its way, and it was not
        applied) is sent again once the client has followed the table there (reconnected
        to ``/ws?table=ID`` and resumed, PROTOCOL.md §18). Raises :class:`SpartsError`.
        """
        timeout = self.request_timeout if timeout is None else timeout
        for attempt in range(retries + 1):
            try:
                if not self._connected.is_set():
                    await within(self._connected.wait(), timeout)
            except asyncio.TimeoutError:
                raise SpartsError("disconnected", "not connected") from None
            ws = self._ws
            try:
                return await self._send_request(dict(msg), timeout)
            except SpartsError as e:
                if attempt == retries or e.code not in ("rate_limited", "table_moved"):
                    raise
                if e.code == "table_moved":
                    await self._follow_move(ws, msg.get("table"), timeout)
                else:
                    await asyncio.sleep(0.25 * (attempt + 1))
        raise AssertionError("unreachable")

    # convenience wrappers
    async def list_tables(self, **filters: Any) -> List[Dict[str, Any]]:
        """The first page of the public tables (filters: preset, seats, open, limit)."""
        return (await self.request({"type": "list_tables", **filters}))["tables"]

    async def list_tables_page(self, **filters: Any) -> Dict[str, Any]:
        """One page of the public tables: {"tables", "total", "next"}; give next as after= for the page after it."""
        reply = await self.request({"type": "list_tables", **filters})
        return {"tables": reply["tables"], "total": reply["total"], "next": reply.get("next")}

    async def create_table(self, preset: str, options: Optional[Dict[str, Any]] = None,
                           **kw: Any) -> Dict[str, Any]:
        ruleset: Dict[str, Any] = {"preset": preset}
        if options:
            ruleset["options"] = options
        return await self.request({"type": "create_table", "ruleset": ruleset, **kw})

    async def sit(self, table: str, seat: Optional[int] = None, invite: Optional[str] = None) -> int:
        msg: Dict[str, Any] = {"type": "sit", "table": table}
        if seat is not None:
            msg["seat"] = seat
        if invite:
            msg["invite"] = invite
        self.table(table)
        return (await self.request(msg))["seat"]

    async def watch(self, table: str, invite: Optional[str] = None) -> None:
        self.table(table)
        await self.request({"type": "watch", "table": table, **({"invite": invite} if invite else {})})

    async def leave(self, table: str) -> Optional[Dict[str, Any]]:
        """Give up your seat (or stop watching), and stop following the table: its model
        leaves ``client.tables`` and is not resumed after a reconnection. Mid-game a server
        bot takes the seat; a table where only bots are left then closes at once, one
        with nobody seated after the grace period (PROTOCOL.md §4 leave, §16). Returns the
        ``ok``, or None when there was nothing to leave (``no_such_table``, ``not_at_table``)."""
        try:
            ok: Optional[Dict[str, Any]] = await self.request({"type": "leave", "table": table})
        except SpartsError as e:
            if e.code not in ("no_such_table", "not_at_table"):
                raise
            ok = None
        self.tables.pop(table, None)
        self._resyncing.pop(table, None)
        return ok

    async def add_bot(self, table: str, level: Optional[str] = None) -> int:
        """A server bot in the lowest free seat: ``level`` ``"random"``, ``"basic"`` or
        ``"strong"``; None: the server's default, ``basic`` (PROTOCOL.md §4 add_bot)."""
        return (await self.request({"type": "add_bot", "table": table,
                                    **({"level": level} if level else {})}))["seat"]

    async def start(self, table: str) -> None:
        await self.request({"type": "start", "table": table})

    async def again(self, table: str) -> None:
        await self.request({"type": "again", "table": table})

    async def act(self, table: str, action: Dict[str, Any]) -> Dict[str, Any]:
        return await self.request({"type": "act", "table": table, "action": action})

    async def chat(self, table: str, text: str) -> Dict[str, Any]:
        """Say ``text`` at the table (PROTOCOL.md §21); your own line reaches the model
        (``client.table(table).chat``) before this returns. A refusal raises SpartsError:
        chat_empty, chat_too_long, chat_bad_text, chat_rate_limited, not_at_table."""
        return await self.request({"type": "chat", "table": table, "text": text})

    async def mute(self, table: str, seat: Any, muted: bool = True) -> Dict[str, Any]:
        """Stop (or start again) hearing a seat's chat, or ``"spectators"``'."""
        ok = await self.request({"type": "mute", "table": table, "seat": seat, "muted": muted})
        self.table(table).apply_mute(ok["seat"], ok["muted"])
        return ok

    # -- internals ---------------------------------------------------------------------
    async def _send(self, msg: Dict[str, Any]) -> None:
        if self.bucket:
            await self.bucket.acquire()
        ws = self._ws
        if ws is None:
            raise SpartsError("disconnected", "connection lost")
        self.stats["sent"] += 1
        try:
            await ws.send(json.dumps(msg))
        except websockets.ConnectionClosed:
            raise SpartsError("disconnected", "connection lost") from None

    async def _send_request(self, msg: Dict[str, Any], timeout: float) -> Dict[str, Any]:
        rid = msg["id"] = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            await self._send(msg)
            return await within(fut, timeout)
        except asyncio.TimeoutError:
            raise SpartsError("timeout", f"no reply to {msg['type']} in {timeout} s") from None
        finally:
            self._pending.pop(rid, None)
            # The connection may have gone while the frame was being sent: the reader then
            # failed this future too, and nobody else will look at it.
            if fut.done() and not fut.cancelled():
                fut.exception()

    async def _follow_move(self, ws: Any, table: Optional[str], timeout: float) -> None:
        """After a ``table_moved`` reply on ``ws``: when ``ws`` follows the table, the node
        closes it next (``closing`` "moved", 4005, as soon as the new holder may take the
        table) and the client reconnects at once; wait until ``ws`` is replaced (the caller
        then waits for the new connection's resume). A connection that does not follow the
        table (a lobby, a first ``sit``) is left open: the request goes again on it after a
        pause, and the node fetches the table from its new holder."""
        model = self.tables.get(table) if table else None
        if ws is None or model is None or model.closed:
            await asyncio.sleep(0.25)
            return
        loop = asyncio.get_running_loop()
        end = loop.time() + min(timeout, 2.0)
        while self._ws is ws and loop.time() < end:
            await asyncio.sleep(0.01)

    def _ws_url(self) -> str:
        if not self._moved_table:
            return self.url
        parts = urlsplit(self.url)
        return urlunsplit((parts.scheme, parts.netloc, parts.path or "/ws",
                           f"table={self._moved_table}", ""))

    async def _run(self) -> None:
        try:
            await self._connect_loop()
        finally:
            self._finished()

    async def _connect_loop(self) -> None:
        backoff = self.backoff_initial
        while not self._closing:
            reader: Optional[asyncio.Task] = None
            try:
                async with websockets.connect(self._ws_url(), max_size=2 ** 22,
                                              open_timeout=10, close_timeout=2) as ws:
                    self._ws = ws
                    self.stats["connects"] += 1
                    reader = asyncio.ensure_future(self._read(ws))
                    hello = await self._hello()
                    backoff = self.backoff_initial
                    self._moved_table = None
                    await self._resume_all(hello)
                    self._connected.set()
                    if not self._first.done():
                        self._first.set_result(hello)
                    await reader
            except SpartsError as e:
                if not self._first.done() and e.code not in ("disconnected", "timeout"):
                    self._first.set_exception(e)
                    return
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as e:
                log.info("connection failed: %r", e)
            finally:
                if reader is not None and not reader.done():
                    reader.cancel()
                self._ws = None
                self._connected.clear()
                for fut in list(self._pending.values()):
                    if not fut.done():
                        fut.set_exception(SpartsError("disconnected", "connection lost"))
            if self._closing or not self.auto_reconnect:
                break
            if self._moved_table:           # a table moved (4005): straight back
                continue
            delay = backoff * (0.5 + random.random() / 2)
            log.info("reconnecting in %.2f s", delay)
            await asyncio.sleep(delay)
            backoff = min(self.backoff_max, backoff * 2)
        if not self._first.done():
            self._first.set_exception(SpartsError("disconnected", "could not connect"))

    async def _hello(self) -> Dict[str, Any]:
        msg: Dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "name": self.name}
        if self.token:
            msg["token"] = self.token
        try:
            ok = await self._send_request(msg, self.request_timeout)
        except SpartsError as e:
            if e.code != "unknown_token":
                raise
            log.warning("token unknown to the server: saying hello as a new player")
            self.token = None
            msg.pop("token")
            ok = await self._send_request(msg, self.request_timeout)
        self.player = ok.get("player")
        self.rule_sets = ok.get("rule_sets", [])
        if ok.get("token"):
            self.token = ok["token"]
            if self.token_path:
                with open(self.token_path, "w") as f:
                    f.write(self.token + "\n")
        return ok

    async def _resume_all(self, hello: Dict[str, Any]) -> None:
        for s in hello.get("seats", []):
            self.table(s["table"])          # seats held from an earlier run: follow them too
        for table, model in list(self.tables.items()):
            if model.closed:
                continue
            await self._resume(table)

    async def _resume(self, table: str) -> None:
        self._resyncing[table] = True
        self.stats["resumes"] += 1
        try:
            await self._send_request({"type": "resume", "table": table,
                                      "seq": self.table(table).seq}, self.request_timeout)
        except SpartsError as e:
            self._resyncing[table] = False
            if e.code in ("no_such_table", "not_seated"):
                log.warning("cannot resume %s: %s", table, e)
                self.tables[table].closed = True
            else:
                raise

    async def _read(self, ws: Any) -> None:
        try:
            async for frame in ws:
                for line in frame.split("\n") if isinstance(frame, str) else []:
                    if line:
                        self._dispatch(json.loads(line))
        except websockets.ConnectionClosed:
            pass
        for fut in list(self._pending.values()):
            if not fut.done():
                fut.set_exception(SpartsError("disconnected", "connection lost"))
        code = ws.close_code
        if code == 4005:
            self._moved_table = self._moved_table or next(iter(self.tables), None)
        log.info("connection closed (%s)", code)

    def _deliver(self, table: str, msg: Dict[str, Any]) -> None:
        for q in self._subs.get(table, []):
            q.put_nowait(msg)

    def _dispatch(self, msg: Dict[str, Any]) -> None:
        self.stats["received"] += 1
        for cb in self.on_message:
            cb(msg)
        t = msg.get("type")
        if t in ("ok", "error"):
            if t == "error" and msg.get("code") == "rate_limited":
                self.stats["rate_limited"] += 1
            if t == "ok" and msg.get("re") == "resume":
                # Done here, in frame order: the events or the snapshot that follow count.
                if msg.get("mode") == "events":
                    self._resyncing[msg["table"]] = False
            fut = self._pending.get(msg.get("id"))
            if fut is not None and not fut.done():
                if t == "ok" and msg.get("re") in ("sit", "watch") and msg.get("table"):
                    # The table's snapshot follows the ok: the caller gets the reply once the
                    # model holds it (the seats, the hand), not a frame before.
                    self._held_replies[msg["table"]] = (fut, msg)
                elif t == "ok":
                    fut.set_result(msg)
                else:
                    fut.set_exception(SpartsError(msg.get("code", "?"), msg.get("message", ""),
                                                  msg.get("field"), msg))
            elif t == "error":
                log.warning("error without a request: %s", msg)
            return
        if t == "closing":
            if msg.get("reason") == "moved":
                self._moved_table = msg.get("table")
            return
        if t in ("replay_event", "replay_state", "replay_ended"):
            self.replays.put_nowait(msg)
            return
        table = msg.get("table")
        if table is None:
            return
        model = self.table(table)
        if t == "snapshot":
            self._resyncing[table] = False
            model.apply_snapshot(msg)
            held = self._held_replies.pop(table, None)
            if held is not None and not held[0].done():
                held[0].set_result(held[1])
        elif t == "event":
            seq = msg["seq"]
            if self._resyncing.get(table) or seq <= model.seq:
                return                       # being resumed, or already seen
            if seq != model.seq + 1 and model.seq != 0:
                self.stats["gaps"] += 1
                log.warning("gap at %s: seq %d after %d: resuming", table, seq, model.seq)
                self._resyncing[table] = True
                task = asyncio.ensure_future(self._resume_quietly(table))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
                return
            model.apply_event(seq, msg["event"])
        elif t == "your_turn":
            if self._resyncing.get(table):
                return                       # the resume sends a fresh one
            model.legal = msg.get("legal")
        elif t == "chat":
            model.apply_chat(msg["line"])    # no seq: never a gap, never held back by a resume
        elif t == "chat_history":
            model.apply_chat_history(msg)
        self._deliver(table, msg)

    async def _resume_quietly(self, table: str) -> None:
        try:
            await self._resume(table)
        except SpartsError as e:
            log.warning("resume of %s failed: %s", table, e)
