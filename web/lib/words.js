// Events and errors in words, for a log a person reads.

import { cardName, cardShort, groupBySuit, suitSymbol } from "./cards.js";

const KIND_WORDS = { spades: "Spades", hearts: "Hearts", sparts: "Sparts", undecided: "undecided" };
const REASON_WORDS = {
  target_score: "the target score was reached", // by a side, or in Hearts by a player
  hand_limit: "the last hand was played",
  hand_cap: "the hand limit was reached",
  game_clock: "the game clock ran out",
  mercy_rule: "the mercy rule ended it",
};

/** Score sheet lines in words. */
export const SCORE_COMPONENT_WORDS = {
  contract: "Contract",
  overtricks: "Overtricks",
  set: "Set",
  zero_bid: "Zero bid",
  nil: "Nil",
  base: "Base",
  no_tricks: "No tricks",
  hearts: "Hearts",
  queen_of_spades: "Queen of spades",
  ten_of_hearts: "Ten of hearts",
  jack_of_diamonds: "Jack of diamonds",
  moon: "Moon",
  bag_penalty: "Bag penalty",
  bag_back: "Bag back",
  all_thirteen: "All 13",
  blind_nil: "Blind nil",
};

/** A bid in words: "nil", "3", "secret", "—". */
export function bidWords(bid) {
  if (bid === null || bid === undefined) return "\u2014";
  if (bid === "blind_nil") return "blind nil";
  return String(bid);
}

function list(cards, jokerDeck = "none") {
  return cards.map((c) => cardName(c, jokerDeck)).join(", ");
}

/**
 * A hand in one line, by suit, as a hand record writes it: "♠ A 10 4 · ♥ Q 9 · ♦ 6 · ♣ J 3 · Joker".
 * In Joker Spades (jokerDeck) the jokers and raised deuces end the spades: "♠ 4 A 2♦ Big Joker".
 */
export function handLine(cards, jokerDeck = "none") {
  const inSuit = (c, suit) => (c.startsWith("JK") ? cardShort(c, jokerDeck) : c[1] !== suit ? cardShort(c) : cardShort(c).slice(0, -1));
  return groupBySuit(cards, { jokerDeck }).map(({ suit, cards: of }) => (suit === "joker" ? of.map((c) => cardShort(c)).join(" ")
    : `${suitSymbol(suit)} ${of.map((c) => inSuit(c, suit)).join(" ")}`)).join(" · ");
}

/** How far a pass goes, in words, at a table of `seats`. */
export function passDirectionWords(distance, seats) {
  if (distance === 0) return "no pass";
  if (distance === 1) return "to the left";
  if (distance === seats - 1) return "to the right";
  if (seats % 2 === 0 && distance === seats / 2) return "across";
  return `${distance} seats to the left`;
}

/**
 * One event as a sentence. `nameOf(seat)` gives a seat's display name.
 * @param {object} e the event (an event envelope's `event`)
 * @param {(seat: number) => string} nameOf
 * @param {{jokerDeck?: string}} [options] the table's joker_deck, so that Joker Spades' jokers are named
 * @returns {string}
 */
export function describeEvent(e, nameOf = (s) => `Seat ${s + 1}`, options = {}) {
  const jokerDeck = options.jokerDeck ?? "none";
  switch (e.type) {
    case "seat_taken":
      return e.bot ? `A bot sits in seat ${e.seat + 1}.` : `${e.player?.name ?? "Someone"} sits in seat ${e.seat + 1}.`;
    case "seat_left":
      return e.reason === "removed_by_admin"
        ? `${nameOf(e.seat)} is removed from seat ${e.seat + 1} by the server's operator.`
        : `${nameOf(e.seat)} leaves seat ${e.seat + 1}.`;
    case "game_started":
      return `Game ${e.game} begins.`;
    case "hand_started":
      return `Hand ${e.hand}: ${nameOf(e.dealer)} deals${e.kind !== "undecided" ? ` (${KIND_WORDS[e.kind] ?? e.kind})` : ""}, ${e.hand_size} cards each${e.center_size ? `, ${e.center_size} to the center` : ""}.`;
    case "cards_dealt":
      return e.cards ? `${nameOf(e.seat)} is dealt ${e.cards.length} card${e.cards.length === 1 ? "" : "s"}: ${handLine(e.cards, jokerDeck)}.` : `${nameOf(e.seat)} is dealt ${e.count} cards.`;
    case "choice_started":
      return `${nameOf(e.chooser)} holds the seven of diamonds and chooses Spades or Hearts.`;
    case "moon_shot":
      return `${nameOf(e.seat)} shot the ${e.points === 52 ? "sun" : "moon"} and chooses: ${e.points} to each opponent, or ${e.points} off their own score.`;
    case "hand_kind_chosen":
      return `${nameOf(e.seat)} chooses ${KIND_WORDS[e.kind] ?? e.kind} for this hand.`;
    case "passing_started":
      return `Pass ${e.count} card${e.count === 1 ? "" : "s"}${e.round === 2 ? " back" : ""}${e.back_count ? ` and ${e.back_count} back` : ""}.`;
    case "cards_passed":
      return e.cards ? `${nameOf(e.from)} passes ${list(e.cards, jokerDeck)} to ${nameOf(e.to)}.` : `${nameOf(e.from)} passes ${e.count} cards to ${nameOf(e.to)}.`;
    case "cards_received":
      return e.cards ? `${nameOf(e.seat)} receives ${list(e.cards, jokerDeck)} from ${nameOf(e.from)}.` : `${nameOf(e.seat)} receives ${e.count} cards from ${nameOf(e.from)}.`;
    case "bidding_started":
      return `Bidding starts with ${nameOf(e.first)}.`;
    case "bid_made":
      if (e.bid === undefined) return `${nameOf(e.seat)} bids (secret).`;
      if (e.bid === "blind_nil") return `${nameOf(e.seat)} bids blind nil, without looking.`;
      return e.bid === "nil" ? `${nameOf(e.seat)} bids nil.` : `${nameOf(e.seat)} bids ${e.bid}.`;
    case "bids_revealed":
      return `Bids revealed: ${e.bids.map((b, s) => `${nameOf(s)} ${bidWords(b)}`).join(", ")}.`;
    case "play_started":
      return `${nameOf(e.leader)} leads.`;
    case "card_played":
      return `${nameOf(e.seat)} plays the ${e.card.startsWith("JK") && jokerDeck !== "none" ? cardName(e.card, jokerDeck) : cardName(e.card).replace(/^./, (c) => c.toLowerCase())}.`;
    case "hearts_broken":
      return `Hearts are broken.`;
    case "spades_broken":
      return `Spades are broken.`;
    case "trick_won":
      return `${nameOf(e.winner)} wins trick ${e.trick}.`;
    case "center_taken":
      return e.cards ? `${nameOf(e.seat)} takes the center: ${list(e.cards, jokerDeck)}.` : `${nameOf(e.seat)} takes the ${e.count} center cards.`;
    case "hand_scored":
      return `Hand ${e.hand} scored: ${e.sides.map((x) => `${x.seats.map(nameOf).join(" & ")} ${x.hand_total >= 0 ? "+" : ""}${x.hand_total} (${x.score})`).join(", ")}.`;
    case "bag_penalty":
      return `Bag penalty: side ${e.side + 1} ${e.to_opponents ? "gives the opponents" : "loses"} ${e.points * e.times} points.`;
    case "game_over":
      return `Game over after ${e.hands_played} hand${e.hands_played === 1 ? "" : "s"}: ${REASON_WORDS[e.reason] ?? e.reason}.`;
    case "turn_timed_out":
      return `${nameOf(e.seat)} ran out of time; a move is played for them.`;
    case "seat_absent":
      return `${nameOf(e.seat)} is away; their seat plays by itself.`;
    case "seat_returned":
      return `${nameOf(e.seat)} is back.`;
    case "again_requested":
      return `${nameOf(e.seat)} wants to play again.`;
    case "deal_revealed":
      return `Game ${e.game}'s deal is revealed: seed ${e.seed}, salt ${e.salt}.`;
    case "standings":
      return `Standings: ${e.sides.map((x) => `${x.seats.map(nameOf).join(" & ")} ${x.total}`).join(", ")}.`;
    case "table_closed":
      return `The table is closed (${e.reason === "abandoned" ? "nobody was left" : e.reason === "everyone_left" ? "everyone left; only bots remained" : e.reason === "closed_by_admin" ? "by the server's operator" : e.reason}).`;
    default:
      return `${e.type}`;
  }
}

const ERROR_WORDS = {
  not_your_turn: "It is not your turn.",
  must_follow_suit: "You must follow suit.",
  hearts_not_broken: "Hearts are not broken yet.",
  spades_not_broken: "Spades are not broken yet.",
  must_lead_card: "You must lead the required card.",
  must_play_highest_spade: "The Big Joker was led: you must play your highest spade.",
  no_points_on_first_trick: "No points on the first trick.",
  mercy_first_trick: "No hearts or spades on the first trick.",
  bid_out_of_range: "That bid is not allowed.",
  dealer_cannot_make_total: "The dealer may not make the bids add up to the tricks.",
  side_bid_too_low: "Your side's bids must reach its minimum.",
  pass_wrong_count: "Pass exactly the number of cards asked.",
  already_passed: "You have passed already.",
  wrong_invite: "The invite code is wrong.",
  seat_taken: "That seat is taken.",
  table_full: "The table is full.",
  no_such_table: "That table is gone.",
  seats_not_full: "Every seat must be filled first.",
  too_many_tables: "You have too many open tables.",
  too_many_tables_from_address: "Too many open tables from your network; finish one first.",
  server_full: "The server is full; join a table or try again later.",
  too_many_new_players: "Too many new players from your network; try again in a minute.",
  guests_off: "This server seats only players who log in through its host's site.",
  login_expired: "Your login has expired: log in again on the host's site.",
  login_bad_signature: "Your login was not signed by this server's host.",
  login_malformed: "Your login could not be read: log in again on the host's site.",
  already_queued: "You are already waiting for a game.",
  seat_change_mid_game: "You held another seat in this game; you may only take that one back.",
  banned: "You are banned from this server.",
  removed_from_table: "The server's operator removed you from this table; you may watch it, not sit.",
  chat_empty: "Say something first.",
  chat_too_long: "That is too long: 300 characters at most.",
  chat_bad_text: "One line of plain text, please: no line breaks, tabs or control characters.",
  chat_rate_limited: "You are talking too fast; wait a moment.",
  not_at_table: "You are not at this table.",
  internal: "The server failed to handle that; please try again.",
  disconnected: "Not connected to the server; reconnecting.",
  timeout: "The server did not answer in time.",
};

/** An error in words for a person: a known code's sentence, else the server's message. */
export function errorWords(err) {
  return ERROR_WORDS[err?.code] ?? err?.message ?? String(err);
}
