import type { GameEvent, ScoreComponent, ViewBid } from "./protocol.js";

export declare const SCORE_COMPONENT_WORDS: Record<ScoreComponent, string>;
export declare function bidWords(bid: ViewBid | undefined): string;
/** A hand in one line, by suit in the hand's order: "♠ 4 10 A · ♥ 9 Q · ♣ 3 J · ♦ 6 · Joker". */
export declare function handLine(cards: string[], jokerDeck?: string): string;
export declare function passDirectionWords(distance: number, seats: number): string;
/** One event as a sentence for a person. */
export declare function describeEvent(event: GameEvent, nameOf?: (seat: number) => string, options?: { jokerDeck?: string }): string;
/** An error in words: a known code's sentence, else the server's message. */
export declare function errorWords(err: { code?: string; message?: string } | unknown): string;
