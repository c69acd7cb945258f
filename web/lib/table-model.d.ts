import type {
  Card, GameEvent, GameOverEvent, HandScoredEvent, MoonShotEvent, BagPenaltyEvent, Legal, ReplayStateMessage, Ruleset, SnapshotMessage,
  StandingsEvent, TableInfo, View, YourTurnMessage, ChatLine, ChatHistoryMessage, ChatTarget,
} from "./protocol.js";

/** A view as the model keeps it: the protocol's view, plus the phase "dealing" between a deal and its first move. */
export type ModelView = Omit<View, "phase"> & { phase: View["phase"] | "dealing" };

export interface TableState {
  table: string;
  /** the last seq applied */
  seq: number;
  /** a snapshot (or a replay state) has been applied */
  synced: boolean;
  /** your seat, or null for a spectator */
  you: number | null;
  info: TableInfo | null;
  game: number;
  view: ModelView | null;
  /** per seat: the cards known to be in that hand (only what the server sent), or null */
  hands: (Card[] | null)[];
  /** per side: its seats */
  sides: number[][];
  yourTurn: { legal: Legal; msLeft: number | null; seq: number; receivedAt: number } | null;
  /** when the seat on turn runs out of time (ms since 1970; exact for you, estimated for others) */
  turnDeadline: number | null;
  clockDeadline: number | null;
  lastTrick: { trick: number; leader: number; winner: number; cards: { seat: number; card: Card }[] } | null;
  handScored: HandScoredEvent | null;
  /** hearts, moon_scoring "choose": the moon_shot event while its shooter chooses (null after a snapshot) */
  moonShot: MoonShotEvent | null;
  bagPenalties: BagPenaltyEvent[];
  gameOver: Pick<GameOverEvent, "scores" | "ranks"> & Partial<GameOverEvent> | null;
  standings: StandingsEvent["sides"] | null;
  /** the current game's deal commitment as first shown (game_started, or a snapshot): keep it to check the reveal */
  dealCommitment: string | null;
  /** once the game is over: its seed and salt (deal_revealed); check them with checkDealCommitment */
  dealRevealed: { game: number; seed: string; salt: string; commitment: string } | null;
  again: number[];
  absent: number[];
  /** watching a game you held a seat of (and left): that seat, the only one you may take (back) until it ends */
  heldSeat: number | null;
  closed: string | null;
  /** table chat (PROTOCOL.md §21), oldest first, at most CHAT_LINES: plain text, never markup */
  chat: ChatLine[];
  /** the seats (and "spectators") whose chat you muted at this table */
  muted: ChatTarget[];
}

export declare class TableModel {
  constructor(table: string, options?: { replay?: boolean; seats?: number; ruleset?: Ruleset | null });
  /** Cards sorted as a hand is shown (Joker Spades' jokers above the ace of spades). */
  sortHand(cards: readonly Card[]): Card[];
  readonly table: string;
  readonly replay: boolean;
  readonly seq: number;
  state: TableState;
  applySnapshot(snapshot: SnapshotMessage): void;
  applyReplayState(msg: ReplayStateMessage): void;
  /** "duplicate": already applied; "gap": events are missing before it (resume); "applied" */
  applyEvent(seq: number, event: GameEvent): "applied" | "duplicate" | "gap";
  applyYourTurn(msg: YourTurnMessage): void;
  /** a chat line, live (chat takes no seq) */
  applyChat(line: ChatLine): void;
  /** replaces the chat and the mutes */
  applyChatHistory(msg: ChatHistoryMessage): void;
  applyMute(seat: ChatTarget, muted: boolean): void;
}
/** chat lines a model keeps */
export declare const CHAT_LINES: 200;
/** rank 1 first, equal scores sharing a rank; with lowWins (Hearts: points taken) the lowest is first */
export declare function ranksOf(scores: number[], lowWins?: boolean): number[];
/** whether the ruleset's lowest score wins (the hearts preset) */
export declare function lowScoreWins(ruleset: Ruleset | null | undefined): boolean;
export declare function sideOfSeat(state: TableState, seat: number): number;
export declare function sidesFromPartners(partners: number[][] | undefined, seats: number): number[][];
export declare function partnersFromRuleset(ruleset: Ruleset | undefined, seats: number): number[][];
