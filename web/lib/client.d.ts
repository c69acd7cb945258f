import type {
  ActionPass, BidValue, ClientMessage, ErrorCode, EventMessage, OkAct, OkAddBot, OkAgain, OkCreateTable, OkHello,
  OkLeave, OkPing, OkReplay, OkReplayControl, OkResume, OkSit, OkStart, OkWatch, ReplayControlRequest, ReplayEndedMessage,
  ReplayEventMessage, ReplayStateMessage, RulesetRequest, ServerMessage, SnapshotMessage, TableInfo, YourTurnMessage,
  ClosingMessage, Action, Card, AddBotRequest, AnnouncementMessage, OkQuickPlay, OkQuickPlayCancel, QuickPlayMatchedMessage,
  Preset, ChatMessage, ChatTarget, OkChat, OkMute, Ruleset,
} from "./protocol.js";
import type { TableModel } from "./table-model.js";

export declare const PROTOCOL_VERSION: 1;

/** A server `error`, or a local failure: "disconnected", "timeout", "closed", "bad_frame". */
export declare class SpartsError extends Error {
  constructor(code: string, message?: string, details?: { re?: string; field?: string; id?: number | string });
  code: ErrorCode | "disconnected" | "timeout" | "closed" | "bad_frame" | (string & {});
  re?: string;
  field?: string;
  id?: number | string;
}

/** What `localStorage` offers; the token is kept there. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ClientOptions {
  /** ws://host:port/ws; default: this page's host, /ws */
  url?: string;
  /** the display name said in hello */
  name?: string;
  /** a token from an earlier hello; default: the one in storage */
  token?: string;
  /**
   * A host's login (PROTOCOL.md §20): the JWT its site signed, or a function giving one, called at
   * every hello (a reconnection then gets a fresh one). Sent instead of the token.
   */
  login?: string | (() => string | Promise<string>);
  /** where the token is kept (default localStorage; null: nowhere) */
  storage?: TokenStorage | null;
  storageKey?: string;
  /** a WebSocket class (default: the global one) */
  WebSocket?: new (url: string) => WebSocket;
  /** reconnect delays: initialMs × factor^(attempt−1), at most maxMs, ± jitter (a fraction) */
  backoff?: { initialMs?: number; maxMs?: number; factor?: number; jitter?: number };
  requestTimeoutMs?: number;
  /** an application ping this often notices a dead network (0: none); default 20000 */
  heartbeatMs?: number;
  /** messages sent at most perSecond a second, bursts of burst (default 15 and 30: under the server's 20 and 40) */
  rate?: { perSecond?: number; burst?: number };
  /** ask the server to batch messages (default true) */
  batch?: boolean;
  random?: () => number;
}

export type ConnectionStatus = "idle" | "connecting" | "open" | "reconnecting" | "closed";

export interface ClientEvents {
  status: { status: ConnectionStatus; attempt?: number; delayMs?: number; reason?: string; reconnected?: boolean; error?: SpartsError };
  hello: OkHello;
  message: ServerMessage;
  event: EventMessage;
  snapshot: SnapshotMessage;
  your_turn: YourTurnMessage;
  /** a table's model changed */
  table: TableModel;
  replay_event: ReplayEventMessage;
  replay_state: ReplayStateMessage;
  replay_ended: ReplayEndedMessage;
  closing: ClosingMessage;
  /** a message from the server's operator to every connected player: show it as plain text */
  announcement: AnnouncementMessage;
  /** a table chat line (PROTOCOL.md §21; it is also in the table's model): show its text as plain text */
  chat: ChatMessage;
  /** quick play seated you: the table is followed from now on */
  quick_play_matched: QuickPlayMatchedMessage;
  error: SpartsError;
  resumed: { table: string; mode: "events" | "snapshot"; seat: number | null };
}

export declare class SpartsClient {
  constructor(options?: ClientOptions);
  url: string;
  name: string;
  token: string | null;
  player: string | null;
  seats: { table: string; seat: number }[];
  /** quick play's terms on this server, from the last hello: the turn time of its tables, and its wait before bots */
  quickPlayTerms: { turn_seconds: number; bots_after_ms: number } | null;
  status: ConnectionStatus;
  models: Map<string, TableModel>;
  invites: Map<string, string>;
  /** the server's hello named a node (many nodes): one table a connection, at /ws?table=ID */
  clustered: boolean;
  /** the table this connection is opened for, when clustered */
  routeTable: string | null;

  on<K extends keyof ClientEvents>(type: K, listener: (payload: ClientEvents[K]) => void): () => void;
  connect(): Promise<OkHello>;
  close(): void;
  dropConnection(): void;
  reconnectNow(): void;
  forgetToken(): void;

  request<T = ServerMessage>(msg: Omit<ClientMessage, "id">, options?: { timeoutMs?: number }): Promise<T>;
  ping(): Promise<OkPing>;
  listTables(filter?: { preset?: string; seats?: number; open?: boolean; limit?: number }): Promise<TableInfo[]>;
  /** One page of the public tables; `next` (null on the last page) is the `after` of the page after it. */
  listTablesPage(filter?: { preset?: string; seats?: number; open?: boolean; limit?: number; after?: string }): Promise<{
    tables: TableInfo[];
    total: number;
    next: string | null;
  }>;
  createTable(ruleset: RulesetRequest, extra?: { private?: boolean; turn_seconds?: number }): Promise<OkCreateTable>;
  /** Quick play (PROTOCOL.md §22): wait to be seated with others asking for the same game; "quick_play_matched" follows. */
  quickPlay(preset: Preset, options?: RulesetRequest["options"]): Promise<OkQuickPlay>;
  cancelQuickPlay(): Promise<OkQuickPlayCancel>;
  sit(table: string, options?: { seat?: number | null; invite?: string }): Promise<OkSit>;
  watch(table: string, options?: { invite?: string }): Promise<OkWatch>;
  leave(table: string): Promise<OkLeave>;
  addBot(table: string, seat?: number | null, level?: AddBotRequest["level"]): Promise<OkAddBot>;
  start(table: string): Promise<OkStart>;
  again(table: string): Promise<OkAgain>;
  act(table: string, action: Action): Promise<OkAct>;
  play(table: string, card: Card): Promise<OkAct>;
  bid(table: string, bid: BidValue): Promise<OkAct>;
  pass(table: string, cards: ActionPass["cards"], back?: Card[]): Promise<OkAct>;
  choose(table: string, game: "spades" | "hearts"): Promise<OkAct>;
  /** option blind_nil: your cards are face down; turn them up (then bid as usual) */
  showCards(table: string): Promise<OkAct>;
  /** hearts, moon_scoring "choose": you shot the moon; "add" its points to every other side or "subtract" them from yours */
  moon(table: string, score: "add" | "subtract"): Promise<OkAct>;
  /** the host's named rule sets (hello's rule_sets), once the hello is answered; games: how many were finished under each, as of that hello */
  ruleSets: { name: string; label: string; ruleset: Ruleset; games: number }[];
  /** Table chat (PROTOCOL.md §21): your own line comes back as a "chat" before the ok. */
  chat(table: string, text: string): Promise<OkChat>;
  /** Mutes (or unmutes) a seat's chat, or the spectators'; the model's `muted` follows. */
  mute(table: string, seat: ChatTarget, muted?: boolean): Promise<OkMute>;
  resume(table: string, seq?: number): Promise<OkResume>;
  open(table: string, options?: { invite?: string }): Promise<OkResume | OkSit | OkWatch>;
  model(table: string): TableModel;
  replay(table: string, game: number, speed?: number): Promise<OkReplay>;
  replayControl(action: ReplayControlRequest["action"], extra?: Omit<ReplayControlRequest, "type" | "id" | "action">): Promise<OkReplayControl>;
}
