// A model of one table, kept from what the server sends: a snapshot, then each
// event in seq order, and your_turn. It never guesses hidden information: a card
// is in the model only if a message carried it.
//
//   const model = new TableModel("t1");
//   model.applySnapshot(snapshot);   // replaces everything
//   model.applyEvent(seq, event);    // returns "applied", "duplicate" or "gap"
//   model.applyYourTurn(msg);
//   model.applyChat(line);           // table chat: no seq, kept beside the events
//   model.state                      // see TableState in client.d.ts

import { sortCards, jokerDeckOf } from "./cards.js";

// Chat lines a model keeps: the server replays 50 by default; a long session keeps more.
export const CHAT_LINES = 200;

const GAME_EVENTS = new Set([
  "hand_started", "cards_dealt", "choice_started", "hand_kind_chosen", "passing_started", "cards_passed",
  "cards_received", "bidding_started", "bid_made", "bids_revealed", "play_started", "card_played",
  "hearts_broken", "spades_broken", "trick_won", "center_taken", "hand_scored", "bag_penalty", "game_over", "moon_shot",
]);

function clone(x) {
  return x === undefined ? undefined : JSON.parse(JSON.stringify(x));
}

// The last trick won, as on_trick_won keeps it, from a view's past_tricks: a client that comes back
// (a snapshot) or seeks in a replay has it as one that watched would, through the next trick (a
// player looks back at it while choosing a card), until the next is won or the hand ends.
function lastTrickOf(view) {
  const t = view?.past_tricks?.at(-1);
  if (!t) return null;
  return { trick: t.trick, leader: t.leader, winner: t.winner, cards: seatedCards(t, view.seats) };
}

// A finished trick's cards (trick_won, past_tricks: in play order from the leader), each with its seat.
function seatedCards(t, seats) {
  return t.cards.map((card, i) => ({ seat: (t.leader + i) % seats, card }));
}

function removeCards(hand, cards) {
  if (!hand) return hand;
  const out = [...hand];
  for (const c of cards) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/** The seats of each side, from a view's partners (sides ordered by their lowest seat). */
export function sidesFromPartners(partners, seats) {
  if (!partners || partners.length !== seats) return Array.from({ length: seats }, (_, s) => [s]);
  const seen = new Set();
  const sides = [];
  for (let s = 0; s < seats; s++) {
    const group = [...new Set([s, ...partners[s]])].sort((a, b) => a - b);
    const key = group.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    sides.push(group);
  }
  return sides;
}

export class TableModel {
  /**
   * @param {string} table
   * @param {{replay?: boolean, seats?: number, ruleset?: object}} [options] replay: events
   *   come from a replay (every card shown, no seq order to keep); seats: how many seats,
   *   when no snapshot says it; ruleset: the game's, when no table info gives it (a replay).
   */
  constructor(table, options = {}) {
    this.table = table;
    this.replay = Boolean(options.replay);
    // A replay has no table info: its ruleset comes from the replay's outline.
    this.ruleset = options.ruleset ?? null;
    this.state = {
      table,
      seq: 0,
      synced: false, // a snapshot (or replay state) has been applied
      you: null,
      info: null,
      game: 0,
      view: null,
      hands: [], // per seat: the cards known to be in that hand, or null (hidden)
      sides: [], // per side: its seats
      yourTurn: null, // {legal, msLeft, seq, receivedAt}
      turnDeadline: null, // ms since epoch when the seat on turn runs out of time (estimate for others)
      clockDeadline: null,
      lastTrick: null, // the last trick won: {trick, leader, winner, cards}
      handScored: null, // the last hand_scored event
      moonShot: null, // hearts, moon_scoring "choose": the moon_shot event while its shooter chooses
      bagPenalties: [],
      gameOver: null, // the game_over event, while the game is over
      standings: null,
      dealCommitment: null, // the current game's, as first shown (game_started or a snapshot)
      dealRevealed: null, // {game, seed, salt, commitment} once the game is over (deal_revealed)
      again: [], // seats that asked for another game
      absent: [], // seats marked absent
      heldSeat: null, // watching a game you held a seat of: that seat, the only one you may take (back)
      closed: null, // table_closed reason
      chat: [], // the last CHAT_LINES chat lines, oldest first: {seq, channel, seat, player, name, text, to}
      muted: [], // the seats (and "spectators") whose chat you muted here
    };
    this.seats = options.seats ?? null;
  }

  get seq() {
    return this.state.seq;
  }

  /** Replaces the model with a snapshot. */
  applySnapshot(snap) {
    const s = this.state;
    s.seq = snap.seq;
    s.synced = true;
    s.you = snap.you;
    s.info = clone(snap.info);
    // A commitment already kept for this game stays: it is the one to check the reveal against.
    if (snap.game !== s.game || !s.dealCommitment) s.dealCommitment = snap.deal_commitment ?? null;
    s.dealRevealed = snap.deal ? { game: snap.game, ...snap.deal } : null;
    s.game = snap.game;
    s.view = clone(snap.view);
    s.closed = null;
    const n = s.info?.seats.length ?? s.view?.seats ?? 0;
    this.seats = n;
    s.hands = Array.from({ length: n }, () => null);
    if (s.view && s.you !== null && s.view.hand) s.view.hand = s.hands[s.you] = this.sortHand(s.view.hand);
    s.sides = s.view ? sidesFromPartners(s.view.partners, n) : [];
    s.yourTurn = s.view?.legal ? { legal: s.view.legal, msLeft: snap.turn_ms_left ?? null, seq: snap.seq, receivedAt: Date.now() } : null;
    s.turnDeadline = snap.turn_ms_left != null ? Date.now() + snap.turn_ms_left : null;
    s.clockDeadline = snap.clock_ms_left != null ? Date.now() + snap.clock_ms_left : null;
    s.lastTrick = lastTrickOf(s.view);
    s.gameOver = s.view?.phase === "game_over" ? { reason: null, scores: s.view.scores, ranks: ranksOf(s.view.scores, lowScoreWins(s.info?.ruleset ?? this.ruleset)) } : null;
    s.again = [];
    s.absent = [];
    s.heldSeat = snap.held_seat ?? null;
  }

  /** Cards sorted as a hand is shown: in Joker Spades the jokers sit above the ace of spades. */
  sortHand(cards) {
    return sortCards(cards, { jokerDeck: jokerDeckOf(this.state.info?.ruleset ?? this.ruleset) });
  }

  /** A replay_state: every seat's hand and a spectator's view, before `position`. */
  applyReplayState(msg) {
    const s = this.state;
    s.synced = true;
    s.view = clone(msg.view);
    const n = s.view?.seats ?? this.seats ?? msg.hands.length;
    this.seats = n;
    s.hands = msg.hands.map((h) => this.sortHand(h));
    s.sides = s.view ? sidesFromPartners(s.view.partners, n) : [];
    s.lastTrick = lastTrickOf(s.view);
    s.handScored = null;
    s.moonShot = null;
    s.gameOver = s.view?.phase === "game_over" ? { reason: null, scores: s.view.scores, ranks: ranksOf(s.view.scores, lowScoreWins(s.info?.ruleset ?? this.ruleset)) } : null;
    s.yourTurn = null;
  }

  /**
   * Applies one event. Returns "duplicate" (already in the model: ignored), "gap"
   * (events are missing before it: not applied, resume from `seq`), or "applied".
   */
  applyEvent(seq, event) {
    const s = this.state;
    if (!this.replay) {
      if (seq <= s.seq) return "duplicate";
      if (!s.synced || seq !== s.seq + 1) return "gap";
      s.seq = seq;
    }
    if (s.yourTurn && GAME_EVENTS.has(event.type) && (this.replay || seq > s.yourTurn.seq)) s.yourTurn = null;
    const handler = this["on_" + event.type];
    if (handler) handler.call(this, event);
    return "applied";
  }

  /** A your_turn message. */
  applyYourTurn(msg) {
    const s = this.state;
    if (msg.seq < s.seq) {
      // Sent before events we have already seen: it may be stale, but it is the latest
      // word on our turn unless a later event ended it (then the server sends another).
    }
    s.yourTurn = { legal: msg.legal, msLeft: msg.ms_left, seq: msg.seq, receivedAt: Date.now() };
    if (msg.ms_left != null) s.turnDeadline = Date.now() + msg.ms_left;
  }

  // ---- table chat (PROTOCOL.md §21): beside the events, without seq checks

  /** One chat line, live. Its text is kept as sent: show it as text, never as markup. */
  applyChat(line) {
    const chat = this.state.chat;
    chat.push(clone(line));
    if (chat.length > CHAT_LINES) chat.splice(0, chat.length - CHAT_LINES);
  }

  /** A chat_history: the server's word on the chat you may see, and your mutes; it replaces both. */
  applyChatHistory(msg) {
    this.state.chat = clone(msg.lines).slice(-CHAT_LINES);
    this.state.muted = clone(msg.muted);
  }

  /** A mute the server accepted. */
  applyMute(seat, muted) {
    const rest = this.state.muted.filter((x) => x !== seat);
    this.state.muted = muted ? [...rest, seat] : rest;
  }

  // ---- helpers

  _n() {
    return this.state.view?.seats ?? this.state.info?.seats.length ?? this.seats ?? 4;
  }

  _next(seat) {
    return (seat + 1) % this._n();
  }

  _isPlayerSeat(seat) {
    const holder = this.state.info?.seats[seat];
    return holder && !holder.bot && !this.state.absent.includes(seat);
  }

  _turnTo(seat) {
    const v = this.state.view;
    v.turn = seat;
    v.waiting_for = seat === null ? [] : [seat];
    this._startTimer(seat === null ? [] : [seat]);
  }

  _startTimer(seats) {
    const s = this.state;
    const limit = s.info?.turn_seconds ?? 0;
    s.turnDeadline = limit > 0 && seats.some((x) => this._isPlayerSeat(x)) ? Date.now() + limit * 1000 : null;
  }

  _emptyView(n) {
    const s = this.state;
    return {
      viewer: s.you ?? "spectator", seats: n, phase: "playing", hand_number: 0, dealer: null, kind: "undecided",
      turn: null, waiting_for: [], hand_sizes: Array(n).fill(0), pass_count: 0, pass_distance: 0,
      partners: Array.from({ length: n }, (_, i) => [i]), pass_round: 0, pass_back_count: 0, passed_seats: [],
      center_size: 0, center_given: 0, center_taker: null, bids: Array(n).fill(null), trick: { leader: null, cards: [] },
      trick_number: 1, tricks: Array(n).fill(0), hearts_broken: false, spades_broken: false,
      points_taken: Array.from({ length: n }, () => []), past_tricks: [], scores: [], bags: [],
    };
  }

  // ---- table events

  on_seat_taken(e) {
    const info = this.state.info;
    if (info) info.seats[e.seat] = e.bot ? { bot: true, name: "Bot" } : { player: e.player.id, name: e.player.name };
  }

  on_seat_left(e) {
    const s = this.state;
    if (s.info) s.info.seats[e.seat] = null;
    // Your own seat, mid-game: until it ends, the server lets you sit in that seat alone.
    if (e.seat === s.you && s.info?.state === "playing") s.heldSeat = e.seat;
  }

  on_game_started(e) {
    const s = this.state;
    s.game = e.game;
    if (s.info) {
      s.info.game = e.game;
      s.info.state = "playing";
      s.info.ruleset = e.ruleset;
    }
    s.gameOver = null;
    s.standings = null;
    s.dealCommitment = e.deal_commitment ?? null;
    s.dealRevealed = null;
    s.handScored = null;
    s.bagPenalties = [];
    s.again = [];
    s.lastTrick = null;
    s.heldSeat = null;
    // A game clock starts with the game (a replay shows no clock).
    s.clockDeadline = e.clock_ms && !this.replay ? Date.now() + e.clock_ms : null;
    if (s.view) {
      s.view.scores = s.view.scores.map(() => 0);
      s.view.bags = s.view.bags.map(() => 0);
    }
  }

  on_turn_timed_out() {}

  on_seat_absent(e) {
    if (!this.state.absent.includes(e.seat)) this.state.absent.push(e.seat);
  }

  on_seat_returned(e) {
    this.state.absent = this.state.absent.filter((x) => x !== e.seat);
  }

  on_again_requested(e) {
    if (!this.state.again.includes(e.seat)) this.state.again.push(e.seat);
  }

  on_deal_revealed(e) {
    this.state.dealRevealed = { game: e.game, seed: e.seed, salt: e.salt, commitment: e.commitment };
  }

  on_standings(e) {
    this.state.standings = e.sides;
  }

  on_table_closed(e) {
    this.state.closed = e.reason;
  }

  // ---- game events

  on_hand_started(e) {
    const s = this.state;
    const n = this._n();
    const old = s.view;
    const v = this._emptyView(n);
    if (old) {
      v.partners = old.partners;
      v.scores = old.phase === "game_over" ? old.scores.map(() => 0) : old.scores;
      v.bags = old.phase === "game_over" ? old.bags.map(() => 0) : old.bags;
    }
    const perPlayer = ["rotating", "progressive"].includes(s.info?.ruleset?.options?.partners);
    // Rotating and progressive partners are the hand's: made again at each deal, as the engine makes them.
    if (!old || perPlayer) v.partners = partnersFromRuleset(s.info?.ruleset, n, e.hand, e.dealer);
    if (!v.scores.length) {
      if (!s.sides.length) s.sides = sidesFromPartners(v.partners, n);
      v.scores = perPlayer ? Array(n).fill(0) : s.sides.map(() => 0);
      v.bags = v.scores.map(() => 0);
    }
    v.hand_number = e.hand;
    v.dealer = e.dealer;
    v.kind = e.kind;
    v.center_size = e.center_size;
    // Every seat holds its cards from the deal, even dealt face down (blind nil), as a view counts them.
    v.hand_sizes = Array(n).fill(e.hand_size);
    v.phase = "dealing"; // until the first choice, pass, bid or lead
    if (s.you !== null && !this.replay) {
      v.hand = [];
      v.cards_passed = [];
      v.cards_received = [];
      v.center_cards = [];
      v.legal = null;
    }
    s.view = v;
    // A replay that seeks to a game's or a hand's start is given the hands as dealt (the deal is
    // one step of the engine), before the deal's events: it keeps them until each seat's
    // cards_dealt, which replaces them, so that the picture does not empty and fill again.
    if (!this.replay || s.hands.length !== n) s.hands = Array.from({ length: n }, () => null);
    s.lastTrick = null;
    s.gameOver = null;
  }

  on_cards_dealt(e) {
    const s = this.state;
    if (!s.view) return;
    s.view.hand_sizes[e.seat] = e.count;
    if (e.cards) {
      s.hands[e.seat] = this.sortHand(e.cards);
      if (e.seat === s.you && s.view.hand) s.view.hand = s.hands[e.seat];
    }
  }

  on_choice_started(e) {
    this.state.view.phase = "choosing";
    this._turnTo(e.chooser);
  }

  // Hearts, moon_scoring "choose": the hand's tricks are over and the shooter chooses how the moon scores.
  on_moon_shot(e) {
    // The hand's tricks are over: the view keeps the last one's number (trick_won moved it on).
    if (this.state.lastTrick) this.state.view.trick_number = this.state.lastTrick.trick;
    this.state.view.phase = "moon_choice";
    this.state.moonShot = e;
    this._turnTo(e.seat);
  }

  on_hand_kind_chosen(e) {
    this.state.view.kind = e.kind;
    this._turnTo(null);
  }

  on_passing_started(e) {
    const v = this.state.view;
    v.phase = "passing";
    v.pass_count = e.count;
    v.pass_distance = e.distance;
    v.pass_round = e.round;
    v.pass_back_count = e.back_count;
    v.passed_seats = [];
    v.turn = null;
    // A nil pass names the seats that pass (the nil's side); the others sit it out.
    v.waiting_for = e.seats ? [...e.seats] : Array.from({ length: v.seats }, (_, i) => i);
    this._startTimer(v.waiting_for);
  }

  on_cards_passed(e) {
    const s = this.state;
    const v = s.view;
    if (!v.passed_seats.includes(e.from)) v.passed_seats.push(e.from);
    v.waiting_for = v.waiting_for.filter((x) => x !== e.from);
    v.hand_sizes[e.from] -= e.count;
    if (e.cards) {
      s.hands[e.from] = removeCards(s.hands[e.from], e.cards);
      if (e.from === s.you && v.hand) {
        v.hand = s.hands[e.from];
        v.cards_passed = [...(v.cards_passed ?? []), ...e.cards];
      }
    }
  }

  on_cards_received(e) {
    const s = this.state;
    const v = s.view;
    v.hand_sizes[e.seat] += e.count;
    if (e.cards && s.hands[e.seat]) {
      s.hands[e.seat] = this.sortHand([...s.hands[e.seat], ...e.cards]);
      if (e.seat === s.you && v.hand) {
        v.hand = s.hands[e.seat];
        v.cards_received = [...(v.cards_received ?? []), ...e.cards];
      }
    }
  }

  on_bidding_started(e) {
    this.state.view.phase = "bidding";
    this._turnTo(e.first);
  }

  on_bid_made(e) {
    const v = this.state.view;
    v.bids[e.seat] = e.bid !== undefined ? e.bid : "secret";
    const next = this._next(e.seat);
    this._turnTo(v.bids[next] === null ? next : null);
  }

  on_bids_revealed(e) {
    this.state.view.bids = [...e.bids];
  }

  on_play_started(e) {
    const v = this.state.view;
    v.phase = "playing";
    v.trick = { leader: e.leader, cards: [] };
    v.trick_number = 1;
    this._turnTo(e.leader);
  }

  on_card_played(e) {
    const s = this.state;
    const v = s.view;
    if (v.trick.cards.length === 0) v.trick.leader = e.seat;
    v.trick.cards.push({ seat: e.seat, card: e.card });
    v.trick_number = e.trick;
    v.hand_sizes[e.seat] -= 1;
    if (s.hands[e.seat]) s.hands[e.seat] = removeCards(s.hands[e.seat], [e.card]);
    if (e.seat === s.you && v.hand) v.hand = s.hands[e.seat] ?? removeCards(v.hand, [e.card]);
    const next = this._next(e.seat);
    this._turnTo(v.trick.cards.length < v.seats && v.hand_sizes[next] > 0 ? next : null);
  }

  on_hearts_broken() {
    this.state.view.hearts_broken = true;
  }

  on_spades_broken() {
    this.state.view.spades_broken = true;
  }

  on_trick_won(e) {
    const s = this.state;
    const v = s.view;
    v.tricks[e.winner] += 1;
    // The cards that score in a Hearts or Sparts hand, as the server's view counts them.
    if (v.kind === "hearts" || v.kind === "sparts") {
      v.points_taken ??= Array.from({ length: v.seats }, () => []);
      // The jack of diamonds scores in Sparts hands, and in the hearts preset's Omnibus (as the engine's views count it).
      const omnibus = this.state.info?.ruleset?.options?.jack_of_diamonds === true;
      const scoring = (c) => c[1] === "H" || c.startsWith("QS") || ((v.kind === "sparts" || omnibus) && c.startsWith("JD"));
      v.points_taken[e.winner] = [...(v.points_taken[e.winner] ?? []), ...e.cards.filter((c) => !c.startsWith("JK") && scoring(c))];
    }
    s.lastTrick = { trick: e.trick, leader: e.leader, winner: e.winner, cards: v.trick.cards.length ? v.trick.cards : seatedCards(e, v.seats) };
    v.past_tricks = [...(v.past_tricks ?? []), { trick: e.trick, leader: e.leader, winner: e.winner, cards: [...e.cards] }];
    v.trick = { leader: e.winner, cards: [] };
    v.trick_number = e.trick + 1;
    this._turnTo(v.hand_sizes[e.winner] > 0 ? e.winner : null);
  }

  on_center_taken(e) {
    const s = this.state;
    const v = s.view;
    v.center_given += e.count;
    v.center_taker = e.seat;
    if (e.cards && e.seat === s.you && v.center_cards) v.center_cards = [...v.center_cards, ...e.cards];
  }

  on_hand_scored(e) {
    const s = this.state;
    const v = s.view;
    s.handScored = e;
    s.moonShot = null;
    s.bagPenalties = [];
    const sides = e.sides.map((x) => x.seats);
    if (v.scores.length === v.seats && sides.length !== v.seats) {
      // rotating or progressive partners: the game scores stay per player
      v.scores = v.scores.map((score, seat) => score + (e.sides.find((x) => x.seats.includes(seat))?.hand_total ?? 0));
    } else {
      s.sides = sides;
      v.scores = e.sides.map((x) => x.score);
      v.bags = e.sides.map((x) => x.bags);
    }
    v.turn = null;
    v.waiting_for = [];
    s.turnDeadline = null;
  }

  on_bag_penalty(e) {
    const v = this.state.view;
    this.state.bagPenalties.push(e);
    if (v.bags.length > e.side) v.bags[e.side] = e.bags_after;
  }

  on_game_over(e) {
    const s = this.state;
    s.heldSeat = null;
    const v = s.view;
    v.phase = "game_over";
    v.turn = null;
    v.waiting_for = [];
    v.scores = [...e.scores];
    s.gameOver = e;
    s.turnDeadline = null;
    s.clockDeadline = null;
    if (s.info) s.info.state = "over";
  }
}

/**
 * Partners as the ruleset makes them (docs/RULES.md: partners, teams, partner_plan,
 * progressive_rotated): the Spades presets and regular partners have fixed teams (seat s in
 * team s mod teams); rotating and progressive partners change with the hand, so they need
 * its number and dealer (without them: none).
 */
export function partnersFromRuleset(ruleset, n, hand = 0, dealer = 0) {
  const alone = Array.from({ length: n }, (_, i) => [i]);
  if (!ruleset) return alone;
  const seats = Array.from({ length: n }, (_, t) => t);
  const kind = ruleset.options?.partners;
  if (hand > 0 && kind === "progressive" && n > 2) {
    // One way: 2 to the left, or, rotated, 2, 3, ..., n - 1 by the hand.
    const d = ruleset.options?.progressive_rotated === true ? 2 + ((hand - 1) % (n - 2)) : 2;
    return seats.map((s) => [s, (s + d) % n].sort((a, b) => a - b));
  }
  if (hand > 0 && kind === "rotating") {
    const plan = String(ruleset.options?.partner_plan ?? "2").split(",").map(Number);
    const k = plan[(hand - 1) % plan.length];
    if (k < 2) return alone;
    const team = (t) => ((t - dealer - 1 + n) % n) % k;
    return seats.map((s) => seats.filter((t) => team(t) === team(s)));
  }
  const teams = ruleset.preset === "spades" || ruleset.preset === "worldwinner-spades" ? 2
    : ruleset.preset === "hearts" ? (ruleset.options?.partnership === "across" ? n / 2 : 0)
    : kind === "regular" ? Number(ruleset.options.teams ?? 2) : 0;
  if (!teams) return alone;
  return seats.map((s) => seats.filter((t) => t % teams === s % teams));
}

/**
 * Rank 1 is first; equal scores share a rank. With `lowWins` (the hearts preset, where
 * points are taken) the lowest score is first.
 */
export function ranksOf(scores, lowWins = false) {
  return scores.map((x) => 1 + scores.filter((y) => (lowWins ? y < x : y > x)).length);
}

/** Whether a ruleset's lowest score wins: the hearts preset's points are taken. */
export function lowScoreWins(ruleset) {
  return ruleset?.preset === "hearts";
}

/** The side index of a seat: the side whose seats include it. */
export function sideOfSeat(state, seat) {
  const i = state.sides.findIndex((side) => side.includes(seat));
  return i >= 0 ? i : seat;
}
