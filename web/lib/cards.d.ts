import type { Card } from "./protocol.js";

export declare const CARD_PATTERN: RegExp;
export declare const SUITS: readonly ["C", "D", "H", "S"];
export declare const RANKS: readonly string[];
export type Suit = "C" | "D" | "H" | "S";
export interface ParsedCard {
  card: Card;
  /** "2".."9", "T", "J", "Q", "K", "A"; null for a joker */
  rank: string | null;
  suit: Suit | null;
  /** 1, or 2 for the second deck's copy */
  deck: number;
  /** 1..4 for a joker, else 0 */
  joker: number;
}
export declare function isCard(s: unknown): s is Card;
export declare function parseCard(card: Card): ParsedCard;
/** The ruleset's joker_deck (Joker Spades), "none" without one. */
export type JokerDeck = "none" | "big-little" | "jjdd" | "deuces-high";
export declare function jokerDeckOf(ruleset: { options?: { joker_deck?: string } } | null | undefined): JokerDeck;
/** The suit a card follows and is led as; null for a Spartsel joker. */
export declare function suitInPlay(card: Card, jokerDeck?: JokerDeck): Suit | null;
/** Order within suitInPlay: the rank 0..12, raised cards above the ace (up to 17, the Big Joker); -1 for a Spartsel joker. */
export declare function strength(card: Card, jokerDeck?: JokerDeck): number;
/** "Queen of spades"; "Big Joker" in Joker Spades */
export declare function cardName(card: Card, jokerDeck?: JokerDeck): string;
/** "Q♠" */
export declare function cardShort(card: Card, jokerDeck?: JokerDeck): string;
export declare function suitName(suit: Suit): string;
export declare function suitSymbol(suit: Suit): string;
export declare function isRed(card: Card): boolean;
export declare function sortCards(cards: readonly Card[], options?: { suitOrder?: Suit[]; jokerDeck?: JokerDeck }): Card[];
export declare function groupBySuit(cards: readonly Card[], options?: { suitOrder?: Suit[]; jokerDeck?: JokerDeck }): { suit: Suit | "joker"; cards: Card[] }[];
/** The index of the card winning a trick as it stands (cards in play order), or null for none. */
export declare function trickWinner(cards: { seat: number; card: Card }[], kind: string, jokerDeck?: JokerDeck): number | null;
