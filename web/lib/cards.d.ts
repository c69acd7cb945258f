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
/** "Queen of spades" */
export declare function cardName(card: Card): string;
/** "Q♠" */
export declare function cardShort(card: Card): string;
export declare function suitName(suit: Suit): string;
export declare function suitSymbol(suit: Suit): string;
export declare function isRed(card: Card): boolean;
export declare function sortCards(cards: readonly Card[], options?: { suitOrder?: Suit[] }): Card[];
export declare function groupBySuit(cards: readonly Card[], options?: { suitOrder?: Suit[] }): { suit: Suit | "joker"; cards: Card[] }[];
/** The index of the card winning a trick as it stands (cards in play order), or null for none. */
export declare function trickWinner(cards: { seat: number; card: Card }[], kind: string): number | null;
