"""A modest model of one table, kept from its snapshot and its events (PROTOCOL.md §6, §7)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

CHAT_LINES = 200  # chat lines a model keeps (the server replays its last 50 by default)


class TableModel:
    """What one connection knows of a table: your hand, the trick, the bids, whose turn.

    It is rebuilt by every ``snapshot`` and moved on by each ``event`` in seq order.
    ``turn`` is derived from the events as well as it can be; the authority on what
    you may do is the latest ``your_turn`` (kept in ``legal``).
    """

    def __init__(self, table: str) -> None:
        self.table = table
        self.seq = 0                      # the last seq applied (0: none yet)
        self.you: Optional[int] = None    # your seat, None for a spectator
        self.info: Optional[Dict[str, Any]] = None
        self.game = 0                     # games started at the table
        self.ruleset: Optional[Dict[str, Any]] = None
        self.seats = 0
        self.phase: Optional[str] = None  # choosing, passing, bidding, playing, game_over
        self.hand_number = 0
        self.kind: Optional[str] = None
        self.dealer: Optional[int] = None
        self.turn: Optional[int] = None
        self.hand: List[str] = []         # your cards (empty for a spectator)
        self.hand_sizes: List[int] = []
        self.trick: List[Dict[str, Any]] = []   # [{"seat", "card"}] in play order
        self.trick_leader: Optional[int] = None
        self.trick_number = 0
        self.tricks: List[int] = []
        self.bids: List[Any] = []         # None, a number, "nil" or "secret"
        self.pass_round = 0
        self.scores: List[int] = []
        self.legal: Optional[Dict[str, Any]] = None
        self.game_over: Optional[Dict[str, Any]] = None   # the last game_over event
        # Provably fair deals: the current game's commitment as first shown, and its reveal.
        self.deal_commitment: Optional[str] = None
        self.deal_revealed: Optional[Dict[str, Any]] = None
        self.closed = False
        # Table chat (PROTOCOL.md §21): the last CHAT_LINES lines, oldest first, each
        # {seq, channel, seat, player, name, text, to}, and the seats (or "spectators") you muted.
        self.chat: List[Dict[str, Any]] = []
        self.muted: List[Any] = []

    # -- snapshot -------------------------------------------------------------------
    def apply_snapshot(self, msg: Dict[str, Any]) -> None:
        self.seq = msg["seq"]
        self.you = msg.get("you")
        self.info = msg.get("info")
        # A commitment already kept for this game stays: it is the one to check the reveal against.
        if msg.get("game", 0) != self.game or not self.deal_commitment:
            self.deal_commitment = msg.get("deal_commitment")
        self.deal_revealed = dict(msg["deal"], game=msg.get("game", 0)) if msg.get("deal") else None
        self.game = msg.get("game", 0)
        if self.info:
            self.ruleset = self.info.get("ruleset")
            self.seats = len(self.info.get("seats", []))
        view = msg.get("view")
        if view is None:
            self.phase = None
            self.hand, self.trick, self.bids, self.tricks = [], [], [], []
            self.legal = None
            return
        self.seats = view["seats"]
        self.phase = view["phase"]
        self.hand_number = view["hand_number"]
        self.kind = view.get("kind")
        self.dealer = view.get("dealer")
        self.turn = view.get("turn")
        self.hand = list(view.get("hand") or [])
        self.hand_sizes = list(view.get("hand_sizes") or [])
        trick = view.get("trick") or {}
        self.trick = list(trick.get("cards") or [])
        self.trick_leader = trick.get("leader")
        self.trick_number = view.get("trick_number", 0)
        self.tricks = list(view.get("tricks") or [0] * self.seats)
        self.bids = list(view.get("bids") or [None] * self.seats)
        self.pass_round = view.get("pass_round", 0)
        self.scores = list(view.get("scores") or [])
        self.legal = view.get("legal")
        if self.phase != "game_over":
            self.game_over = None

    # -- table chat: beside the events, no seq --------------------------------------
    def apply_chat(self, line: Dict[str, Any]) -> None:
        self.chat.append(dict(line))
        del self.chat[:-CHAT_LINES]

    def apply_chat_history(self, msg: Dict[str, Any]) -> None:
        """The server's word on the chat this connection may see, and its mutes: both replaced."""
        self.chat = [dict(line) for line in msg.get("lines", [])][-CHAT_LINES:]
        self.muted = list(msg.get("muted", []))

    def apply_mute(self, seat: Any, muted: bool) -> None:
        self.muted = [x for x in self.muted if x != seat] + ([seat] if muted else [])

    # -- events -----------------------------------------------------------------------
    def apply_event(self, seq: int, ev: Dict[str, Any]) -> None:
        self.seq = seq
        t = ev.get("type")
        n = self.seats or 1
        if t == "seat_taken" and self.info is not None:
            seat = ev["seat"]
            p = ev.get("player")
            self.info["seats"][seat] = {"bot": True, "name": "Bot"} if ev.get("bot") else \
                {"player": p["id"], "name": p["name"]} if p else None
        elif t == "seat_left" and self.info is not None:
            self.info["seats"][ev["seat"]] = None
        elif t == "game_started":
            self.game = ev["game"]
            self.ruleset = ev.get("ruleset")
            self.game_over = None
            self.scores = []
            self.deal_commitment = ev.get("deal_commitment")
            self.deal_revealed = None
        elif t == "deal_revealed":
            self.deal_revealed = {k: ev[k] for k in ("game", "seed", "salt", "commitment")}
        elif t == "hand_started":
            self.hand_number = ev["hand"]
            self.dealer = ev["dealer"]
            self.kind = ev["kind"]
            self.phase = "dealing"
            self.hand, self.trick = [], []
            self.trick_leader, self.trick_number, self.turn = None, 0, None
            self.bids = [None] * n
            self.tricks = [0] * n
            self.hand_sizes = [0] * n
            self.pass_round = 0
        elif t == "cards_dealt":
            if 0 <= ev["seat"] < len(self.hand_sizes):
                self.hand_sizes[ev["seat"]] = ev["count"]
            if ev["seat"] == self.you and "cards" in ev:
                self.hand = list(ev["cards"])
        elif t == "choice_started":
            self.phase, self.turn = "choosing", ev["chooser"]
        elif t == "hand_kind_chosen":
            self.kind = ev["kind"]
        elif t == "passing_started":
            self.phase, self.turn, self.pass_round = "passing", None, ev["round"]
        elif t == "cards_passed":
            if ev["from"] == self.you and "cards" in ev:
                self.hand = [c for c in self.hand if c not in ev["cards"]]
        elif t == "cards_received":
            if ev["seat"] == self.you and "cards" in ev:
                self.hand = self.hand + list(ev["cards"])
        elif t == "bidding_started":
            self.phase, self.turn = "bidding", ev["first"]
        elif t == "bid_made":
            self.bids[ev["seat"]] = ev.get("bid", "secret")
            self.turn = (ev["seat"] + 1) % n
        elif t == "bids_revealed":
            self.bids = list(ev["bids"])
        elif t == "play_started":
            self.phase, self.turn, self.trick_leader = "playing", ev["leader"], ev["leader"]
            self.trick_number = 1
        elif t == "card_played":
            if not self.trick:
                self.trick_leader = ev["seat"]
            self.trick.append({"seat": ev["seat"], "card": ev["card"]})
            self.trick_number = ev["trick"]
            if ev["seat"] == self.you and ev["card"] in self.hand:
                self.hand.remove(ev["card"])
            if 0 <= ev["seat"] < len(self.hand_sizes):
                self.hand_sizes[ev["seat"]] -= 1
            self.turn = (ev["seat"] + 1) % n
        elif t == "trick_won":
            self.trick, self.trick_leader = [], ev["winner"]
            if 0 <= ev["winner"] < len(self.tricks):
                self.tricks[ev["winner"]] += 1
            self.turn = ev["winner"]
        elif t == "hand_scored":
            self.scores = [side["score"] for side in ev["sides"]]
            self.turn = None
        elif t == "game_over":
            self.phase, self.turn, self.game_over = "game_over", None, ev
            self.scores = list(ev["scores"])
        elif t == "table_closed":
            self.closed = True
        self.legal = None if t in ("card_played", "bid_made", "hand_kind_chosen") else self.legal

    def __repr__(self) -> str:
        return (f"TableModel({self.table!r}, seq={self.seq}, you={self.you}, phase={self.phase}, "
                f"hand={self.hand}, trick={self.trick}, bids={self.bids}, turn={self.turn})")
