// Cards as the protocol writes them: "QS" (queen of spades), "TH" (ten of hearts),
// "TH'" (the second deck's ten of hearts), "JK1".."JK4" (jokers).

/** @type {RegExp} */
export const CARD_PATTERN = /^([2-9TJQKA][CDHS]'?|JK[1-4])$/;

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];

const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_NAMES = {
  2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine",
  T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};
const RANK_SHORT = { T: "10" };

/** Whether `s` is a card name of the protocol. */
export function isCard(s) {
  return typeof s === "string" && CARD_PATTERN.test(s);
}

/**
 * Splits a card into its parts.
 * @returns {{card: string, rank: string|null, suit: string|null, deck: number, joker: number}}
 */
export function parseCard(card) {
  if (!isCard(card)) throw new TypeError(`not a card: ${JSON.stringify(card)}`);
  if (card.startsWith("JK")) return { card, rank: null, suit: null, deck: 1, joker: Number(card[2]) };
  return { card, rank: card[0], suit: card[1], deck: card.endsWith("'") ? 2 : 1, joker: 0 };
}

/**
 * The Joker Spades deck a ruleset plays with (docs/RULES.md, joker_deck): "none",
 * "big-little", "jjdd" or "deuces-high".
 */
export function jokerDeckOf(ruleset) {
  return ruleset?.options?.joker_deck ?? "none";
}

// A joker deck named (not "none", nor a stray argument such as map()'s index).
function isJokerDeck(jokerDeck) {
  return typeof jokerDeck === "string" && jokerDeck !== "none";
}

/**
 * The suit a card follows and is led as: in Joker Spades the jokers (and jjdd's 2♦)
 * are spades; a Spartsel joker has no suit (null).
 */
export function suitInPlay(card, jokerDeck = "none") {
  const c = parseCard(card);
  if (isJokerDeck(jokerDeck) && (c.joker || (jokerDeck === "jjdd" && card === "2D"))) return "S";
  return c.suit;
}

/**
 * A card's order within suitInPlay: its rank (0 for a 2 to 12 for an ace), with Joker
 * Spades' raised cards above the ace: 2♠ (deuces-high, jjdd), 2♦ (jjdd), the Little
 * Joker, the Big Joker. -1 for a Spartsel joker.
 */
export function strength(card, jokerDeck = "none") {
  if (isJokerDeck(jokerDeck)) {
    if (card === "JK1") return 17;
    if (card === "JK2") return 16;
    if (jokerDeck === "jjdd" && card === "2D") return 15;
    if (jokerDeck !== "big-little" && card === "2S") return 14;
  }
  const c = parseCard(card);
  return c.joker ? -1 : RANKS.indexOf(c.rank);
}

/**
 * "QS" -> "Queen of spades"; "TH'" -> "Ten of hearts (second deck)"; "JK2" -> "Joker 2",
 * or "Little Joker" in Joker Spades (jokerDeck other than "none").
 */
export function cardName(card, jokerDeck = "none") {
  const c = parseCard(card);
  if (c.joker) return isJokerDeck(jokerDeck) ? (c.joker === 1 ? "Big Joker" : "Little Joker") : `Joker ${c.joker}`;
  return `${RANK_NAMES[c.rank]} of ${SUIT_NAMES[c.suit]}${c.deck === 2 ? " (second deck)" : ""}`;
}

/** "QS" -> "Q♠", "TH" -> "10♥", "JK1" -> "Joker" ("Big Joker" in Joker Spades). */
export function cardShort(card, jokerDeck = "none") {
  const c = parseCard(card);
  if (c.joker) return isJokerDeck(jokerDeck) ? cardName(card, jokerDeck) : "Joker";
  return `${RANK_SHORT[c.rank] ?? c.rank}${SUIT_SYMBOLS[c.suit]}`;
}

export function suitName(suit) {
  return SUIT_NAMES[suit];
}

export function suitSymbol(suit) {
  return SUIT_SYMBOLS[suit];
}

/** Whether the card is red (diamonds, hearts). */
export function isRed(card) {
  const c = parseCard(card);
  return c.suit === "D" || c.suit === "H";
}

// Suits alternate in colour in a sorted hand: spades, hearts, clubs, diamonds.
const DEFAULT_SUIT_ORDER = ["S", "H", "C", "D"];

/**
 * The cards sorted by suit (spades, hearts, clubs, diamonds by default: the colours
 * alternate), each suit from low to high, Spartsel's jokers last; in Joker Spades
 * (options.jokerDeck) the jokers and raised deuces at the top of the spades. Returns a
 * new array.
 * @param {string[]} cards
 * @param {{suitOrder?: string[], jokerDeck?: string}} [options]
 */
export function sortCards(cards, options = {}) {
  const order = options.suitOrder ?? DEFAULT_SUIT_ORDER;
  const deck = options.jokerDeck ?? "none";
  const key = (card) => {
    const c = parseCard(card);
    if (c.joker && deck === "none") return 1000 + c.joker;
    return order.indexOf(suitInPlay(card, deck)) * 100 + strength(card, deck) * 2 + (c.deck - 1);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** The cards grouped by suit, in sorted order: [{suit, cards}], Spartsel's jokers as suit "joker". */
export function groupBySuit(cards, options = {}) {
  const groups = [];
  for (const card of sortCards(cards, options)) {
    const suit = suitInPlay(card, options.jokerDeck ?? "none") ?? "joker";
    if (!groups.length || groups[groups.length - 1].suit !== suit) groups.push({ suit, cards: [] });
    groups[groups.length - 1].cards.push(card);
  }
  return groups;
}

/**
 * Who takes a trick as it stands (docs/RULES.md): a led Spartsel joker wins and a later
 * one never does; otherwise the highest spade when spades are trump (every hand but a
 * Hearts hand), else the highest card of the suit led; of two identical cards (two
 * decks) the first played wins. In Joker Spades (jokerDeck) the jokers and raised
 * deuces are the highest spades.
 * @param {{seat: number, card: string}[]} cards in play order
 * @param {string} kind the hand's kind: "spades", "hearts" or "sparts"
 * @param {string} [jokerDeck] the ruleset's joker_deck (jokerDeckOf)
 * @returns {number|null} the index in `cards` of the card winning, or null for no card
 */
export function trickWinner(cards, kind, jokerDeck = "none") {
  if (!cards.length) return null;
  const wild = jokerDeck === "none";
  if (wild && parseCard(cards[0].card).joker) return 0;
  const trump = kind !== "hearts";
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const c = cards[i].card;
    const b = cards[best].card;
    if (wild && parseCard(c).joker) continue;
    const suit = suitInPlay(c, jokerDeck);
    if (suit === suitInPlay(b, jokerDeck)) {
      if (strength(c, jokerDeck) > strength(b, jokerDeck)) best = i;
    } else if (trump && suit === "S") {
      best = i;
    }
  }
  return best;
}
