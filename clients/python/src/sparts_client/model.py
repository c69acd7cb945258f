"""A modest model of one table, kept from its snapshot and its events (PROTOCOL.md §6, §7)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

CHAT_LINES = 200  # chat lines a model keeps (the server replays its last 50 by default)

RANKS = "23456789TJQKA"
SUITS = "CDHS"

# The cards that leave the deck (docs/RULES.md): Joker Spades' deuces (``joker_deck``), and in
# the hearts preset the lowest cards, so that it deals out evenly at 3, 5 and 6 seats.
JOKER_DECK_REMOVED = {"big-little": ("2D", "2H"), "deuces-high": ("2D", "2H"), "jjdd": ("2H", "2C")}
HEARTS_REMOVED = {3: ("2D",), 5: ("2D", "2C"), 6: ("3C", "4C", "2D", "3D")}


def deck_in_play(ruleset: Optional[Dict[str, Any]], seats: int) -> List[str]:
    """The cards a game of this ruleset at ``seats`` seats deals (the center's included), in the
    server's id order: a deck's clubs, diamonds, hearts, spades, 2 to ace, the jokers JK1 to JK4
    after clubs, diamonds, hearts and spades, a second deck's copies ("TH'") after the first deck.
    Joker Spades' two jokers replace two deuces; the hearts preset leaves out the 2D at 3
    seats, the 2D and 2C at 5, the 3C, 4C, 2D and 3D at 6."""
    options = (ruleset or {}).get("options") or {}
    joker_deck = options.get("joker_deck", "none")
    jokers = 2 if joker_deck != "none" else int(options.get("jokers", 0))
    removed = set(JOKER_DECK_REMOVED.get(joker_deck, ()))
    if (ruleset or {}).get("preset") == "hearts":
        removed |= set(HEARTS_REMOVED.get(seats, ()))
    cards = []
    for deck in range(int(options.get("decks", 1))):
        for i, suit in enumerate(SUITS):
            cards += [r + suit + "'" * deck for r in RANKS if r + suit not in removed]
            if deck == 0 and i < jokers:
                cards.append(f"JK{i + 1}")
    return cards


def low_score_wins(ruleset: Optional[Dict[str, Any]]) -> bool:
    """Whether the lowest score wins: in the hearts preset the scores are points taken
    (PROTOCOL.md "Points taken"); everywhere else the highest wins."""
    return bool(ruleset) and ruleset.get("preset") == "hearts"


def ranks_for(ruleset: Optional[Dict[str, Any]], scores: List[int]) -> List[int]:
    """Per side, its place by these scores, as ``game_over``'s ``ranks``: 1 for the best (the
    highest, or the lowest where ``low_score_wins``), equal scores sharing a rank."""
    low = low_score_wins(ruleset)
    return [1 + sum((t < s) if low else (t > s) for t in scores) for s in scores]


def suit_in_play(card: str, joker_deck: str = "none") -> Optional[str]:
    """The suit a card follows and is led as ("C", "D", "H", "S"). In Joker Spades
    (the ruleset's ``joker_deck``, docs/RULES.md) the jokers and, with ``jjdd``, the 2 of
    diamonds are spades; a Spartsel joker has none (None)."""
    if joker_deck != "none" and (card.startswith("JK") or (joker_deck == "jjdd" and card == "2D")):
        return "S"
    return None if card.startswith("JK") else card[1]


def strength(card: str, joker_deck: str = "none") -> int:
    """A card's order within ``suit_in_play``: 0 for a 2 up to 12 for an ace; Joker Spades'
    raised cards above the ace (the 2 of spades with ``deuces-high`` and ``jjdd``, then the 2
    of diamonds with ``jjdd``, the Little Joker JK2, the Big Joker JK1); -1 for a Spartsel joker."""
    if joker_deck != "none":
        raised = {"JK1": 17, "JK2": 16}
        if joker_deck == "jjdd":
            raised["2D"] = 15
        if joker_deck != "big-little":
            raised["2S"] = 14
        if card in raised:
            return raised[card]
    return -1 if card.startswith("JK") else RANKS.index(card[0])


def trick_winner(cards: List[str], kind: str, joker_deck: str = "none") -> Optional[int]:
    """The index (in play order) of the card that takes a trick as it stands
    (docs/RULES.md): a led Spartsel joker wins and a later one never does; else the
    highest spade when spades are trump (every hand but a Hearts hand), else the highest
    card of the suit led; of two identical cards the first played. None for no card."""
    if not cards:
        return None
    wild = joker_deck == "none"
    if wild and cards[0].startswith("JK"):
        return 0
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if wild and c.startswith("JK"):
            continue
        suit = suit_in_play(c, joker_deck)
        if suit == suit_in_play(b, joker_deck):
            if strength(c, joker_deck) > strength(b, joker_deck):
                best = i
        elif kind != "hearts" and suit == "S":
            best = i
    return best


def partners_for(ruleset: Optional[Dict[str, Any]], seats: int, hand: int, dealer: int) -> List[List[int]]:
    """Per seat, the seats whose results combine with its own on this hand (the seat
    itself included), as a snapshot's ``view.partners`` says; the events never say it,
    so the model works it out at each ``hand_started`` as the engine does (docs/RULES.md:
    ``partners``, ``teams``, ``partner_plan``, ``progressive_rotated``). Spades presets, and
    hearts with ``partnership`` ``across``: partners sit across."""
    alone = [[s] for s in range(seats)]
    if not ruleset or seats < 2:
        return alone
    options = ruleset.get("options") or {}
    kind = options.get("partners", "none")
    if ruleset.get("preset") in ("spades", "worldwinner-spades") or options.get("partnership") == "across":
        teams = seats // 2
    elif kind == "regular":
        teams = int(options.get("teams", 2))
    elif kind == "progressive":             # one way: your partner is 2 to your left...
        distance = 2
        if options.get("progressive_rotated") is True and seats > 2:  # ...or 2, 3, ..., seats - 1 by hand
            distance = 2 + (max(1, hand) - 1) % (seats - 2)
        return [sorted({s, (s + distance) % seats}) for s in range(seats)]
    elif kind == "rotating":                # the plan's team count for this hand, from the dealer's left
        plan = [int(k) for k in str(options.get("partner_plan", "2")).split(",")]
        k = plan[(max(1, hand) - 1) % len(plan)]
        if k < 2:
            return alone
        team = [((t - dealer - 1) % seats) % k for t in range(seats)]
        return [[t for t in range(seats) if team[t] == team[s]] for s in range(seats)]
    else:
        return alone
    return [[t for t in range(seats) if t % teams == s % teams] for s in range(seats)]


class TableModel:
    """What one connection knows of a table: your hand, the trick, the bids, whose turn,
    the partners, and the cards played earlier in the hand.

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
        self.phase: Optional[str] = None  # choosing, passing, bidding, playing, moon_choice, game_over
        self.hand_number = 0
        self.kind: Optional[str] = None
        self.dealer: Optional[int] = None
        self.turn: Optional[int] = None
        self.hand: List[str] = []         # your cards (empty for a spectator)
        self.hand_sizes: List[int] = []
        # The trick on the table, as the protocol's view has it: its leader (after a trick,
        # the winner, who leads the next) and its cards [{"seat", "card"}] in play order.
        self.trick: Dict[str, Any] = {"leader": None, "cards": []}
        self.trick_number = 0
        # The hand so far: per seat, the cards it played, in order (the trick's included);
        # the tricks done, each {"trick", "leader", "winner", "cards": [{"seat", "card"}]}.
        # A snapshot gives them in its view's past_tricks; from a server too old to send
        # them, after one taken once a trick was won, history_complete is False.
        self.played: List[List[str]] = []
        self.played_tricks: List[Dict[str, Any]] = []
        self.history_complete = True
        # Per seat, the seats whose results combine with its own this hand (itself included).
        self.partners: List[List[int]] = []
        self.tricks: List[int] = []
        self.bids: List[Any] = []         # None, a number, "nil", "blind_nil" or "secret"
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

    @property
    def trick_leader(self) -> Optional[int]:
        return self.trick["leader"]

    @property
    def partner(self) -> Optional[int]:
        """Your partner this hand; None when you play alone, watch, or have several (see ``partners``)."""
        if self.you is None or self.you >= len(self.partners):
            return None
        others = [s for s in self.partners[self.you] if s != self.you]
        return others[0] if len(others) == 1 else None

    @property
    def ranks(self) -> List[int]:
        """Per side, its place by ``scores`` as they stand (``ranks_for``): 1 for the best,
        which in the hearts preset is the lowest score. At the end, ``game_over["ranks"]``."""
        return ranks_for(self.ruleset, self.scores)

    # -- snapshot -------------------------------------------------------------------
    def apply_snapshot(self, msg: Dict[str, Any]) -> None:
        view = msg.get("view")
        # Nothing happened since the last event applied (a sit taking the seat over on
        # this connection, say): the history the events made still holds.
        keep_history = (view is not None and self.history_complete and msg["seq"] == self.seq
                        and msg.get("game", 0) == self.game and view["hand_number"] == self.hand_number)
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
        if view is None:
            self.phase = None
            self.hand, self.bids, self.tricks = [], [], []
            self.trick = {"leader": None, "cards": []}
            self.played, self.played_tricks, self.history_complete, self.partners = [], [], True, []
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
        self.trick = {"leader": trick.get("leader"), "cards": [dict(c) for c in trick.get("cards") or []]}
        self.trick_number = view.get("trick_number", 0)
        self.tricks = list(view.get("tricks") or [0] * self.seats)
        if not keep_history:
            n = self.seats
            self.played = [[] for _ in range(n)]
            self.played_tricks = []
            past = view.get("past_tricks")
            for t in past or []:
                cards = [{"seat": (t["leader"] + i) % n, "card": c} for i, c in enumerate(t["cards"])]
                self.played_tricks.append({"trick": t["trick"], "leader": t["leader"], "winner": t["winner"], "cards": cards})
                for c in cards:
                    self.played[c["seat"]].append(c["card"])
            for c in self.trick["cards"]:
                self.played[c["seat"]].append(c["card"])
            self.history_complete = past is not None or not any(self.tricks)
        self.partners = [list(p) for p in view.get("partners") or []] or \
            partners_for(self.ruleset, self.seats, self.hand_number, self.dealer or 0)
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
            self.hand = []
            self.trick = {"leader": None, "cards": []}
            self.trick_number, self.turn = 0, None
            self.played, self.played_tricks, self.history_complete = [[] for _ in range(n)], [], True
            self.partners = partners_for(self.ruleset, n, ev["hand"], ev["dealer"])
            self.bids = [None] * n
            self.tricks = [0] * n
            # Every seat holds its cards from the deal, even dealt face down (blind nil).
            self.hand_sizes = [ev.get("hand_size", 0)] * n
            self.pass_round = 0
        elif t == "cards_dealt":
            if 0 <= ev["seat"] < len(self.hand_sizes):
                self.hand_sizes[ev["seat"]] = ev["count"]
            if ev["seat"] == self.you and "cards" in ev:
                self.hand = list(ev["cards"])
        elif t == "choice_started":
            self.phase, self.turn = "choosing", ev["chooser"]
        elif t == "moon_shot":   # hearts, moon_scoring "choose": the shooter says how it scores
            self.phase, self.turn = "moon_choice", ev["seat"]
            if self.played_tricks:             # the view keeps the last trick's number
                self.trick_number = self.played_tricks[-1]["trick"]
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
            self.phase, self.turn = "playing", ev["leader"]
            self.trick = {"leader": ev["leader"], "cards": []}
            self.trick_number = 1
        elif t == "card_played":
            if not self.trick["cards"]:
                self.trick["leader"] = ev["seat"]
            self.trick["cards"].append({"seat": ev["seat"], "card": ev["card"]})
            if 0 <= ev["seat"] < len(self.played):
                self.played[ev["seat"]].append(ev["card"])
            self.trick_number = ev["trick"]
            if ev["seat"] == self.you and ev["card"] in self.hand:
                self.hand.remove(ev["card"])
            if 0 <= ev["seat"] < len(self.hand_sizes):
                self.hand_sizes[ev["seat"]] -= 1
            self.turn = (ev["seat"] + 1) % n
        elif t == "trick_won":
            cards = self.trick["cards"]
            if len(cards) != len(ev["cards"]):      # not seen card by card: the event has them all
                cards = [{"seat": (ev["leader"] + i) % n, "card": c} for i, c in enumerate(ev["cards"])]
            self.played_tricks.append({"trick": ev["trick"], "leader": ev["leader"],
                                       "winner": ev["winner"], "cards": cards})
            self.trick = {"leader": ev["winner"], "cards": []}
            self.trick_number = ev["trick"] + 1   # as the view has it: the trick the winner leads
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
        self.legal = None if t in ("card_played", "bid_made", "hand_kind_chosen", "hand_scored") else self.legal

    def __repr__(self) -> str:
        return (f"TableModel({self.table!r}, seq={self.seq}, you={self.you}, phase={self.phase}, "
                f"hand={self.hand}, trick={self.trick}, bids={self.bids}, turn={self.turn})")
