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

/** "QS" -> "Queen of spades"; "TH'" -> "Ten of hearts (second deck)"; "JK2" -> "Joker 2". */
export function cardName(card) {
  const c = parseCard(card);
  if (c.joker) return `Joker ${c.joker}`;
  return `${RANK_NAMES[c.rank]} of ${SUIT_NAMES[c.suit]}${c.deck === 2 ? " (second deck)" : ""}`;
}

/** "QS" -> "Q♠", "TH" -> "10♥", "JK1" -> "Joker". */
export function cardShort(card) {
  const c = parseCard(card);
  if (c.joker) return "Joker";
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
 * alternate), each suit from low to high, jokers last. Returns a new array.
 * @param {string[]} cards
 * @param {{suitOrder?: string[]}} [options]
 */
export function sortCards(cards, options = {}) {
  const order = options.suitOrder ?? DEFAULT_SUIT_ORDER;
  const key = (card) => {
    const c = parseCard(card);
    if (c.joker) return 1000 + c.joker;
    return order.indexOf(c.suit) * 100 + RANKS.indexOf(c.rank) * 2 + (c.deck - 1);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** The cards grouped by suit, in sorted order: [{suit, cards}], jokers as suit "joker". */
export function groupBySuit(cards, options = {}) {
  const groups = [];
  for (const card of sortCards(cards, options)) {
    const suit = parseCard(card).suit ?? "joker";
    if (!groups.length || groups[groups.length - 1].suit !== suit) groups.push({ suit, cards: [] });
    groups[groups.length - 1].cards.push(card);
  }
  return groups;
}

/**
 * Who takes a trick as it stands (docs/RULES.md): a led joker wins and a later one
 * never does; otherwise the highest spade when spades are trump (every hand but a
 * Hearts hand), else the highest card of the suit led; of two identical cards (two
 * decks) the first played wins.
 * @param {{seat: number, card: string}[]} cards in play order
 * @param {string} kind the hand's kind: "spades", "hearts" or "sparts"
 * @returns {number|null} the index in `cards` of the card winning, or null for no card
 */
export function trickWinner(cards, kind) {
  if (!cards.length) return null;
  const first = parseCard(cards[0].card);
  if (first.joker) return 0;
  const trump = kind !== "hearts";
  let best = 0;
  for (let i = 1; i < cards.length; i++) {
    const c = parseCard(cards[i].card);
    const b = parseCard(cards[best].card);
    if (c.joker) continue;
    if (c.suit === b.suit) {
      if (RANKS.indexOf(c.rank) > RANKS.indexOf(b.rank)) best = i;
    } else if (trump && c.suit === "S") {
      best = i;
    }
  }
  return best;
}
