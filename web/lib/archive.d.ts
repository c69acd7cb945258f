export interface ArchiveOptions {
  /** the server's origin, "" (default) for this page's */
  base?: string;
  fetch?: typeof fetch;
}
export interface ArchivedGameSummary {
  table: string;
  game: number;
  preset: string;
  ruleset: unknown;
  players: unknown;
  result: unknown;
  started: number;
  finished: number;
  /** the host's named rule set it was played under, by name; absent when none */
  rule_set?: string;
}
export declare function listGames(
  /** rule_set: only the games of that named rule set (not with preset) */
  query?: { player?: string; preset?: string; rule_set?: string; from?: number; to?: number; limit?: number; cursor?: string },
  options?: ArchiveOptions,
): Promise<{ games: ArchivedGameSummary[]; next_cursor: string | null }>;
export declare function getGame(table: string, game: number, options?: ArchiveOptions): Promise<Record<string, unknown>>;
/** A Glicko-2 rating on the Glicko scale (a new player: 1500, deviation 350, volatility 0.06). */
export interface Rating {
  rating: number;
  deviation: number;
  volatility: number;
  /** rated games of the preset */
  games: number;
  /** of them, games its team finished first */
  wins: number;
}
export interface LeaderboardEntry extends Rating {
  /** 1 for the best, counted over every page */
  rank: number;
  player: string;
  name: string;
}
/** A preset's board has `preset`; a named rule set's (getRuleSetLeaderboard) has `rule_set` instead. */
export interface Leaderboard {
  preset?: string;
  rule_set?: string;
  min_games: number;
  players: LeaderboardEntry[];
  next_cursor: string | null;
}
export interface PlayerStatistics {
  hands: number;
  bids: number;
  bids_made: number;
  nil_bids: number;
  nils_made: number;
  nils_set: number;
  bags: number;
  bags_per_hand: number;
  moons: number;
}
export interface PresetRating extends Rating {
  preset: string;
  statistics: PlayerStatistics;
  /** the last rated game, and what it changed the rating by */
  last_game: { table: string; game: number; change: number; finished: number };
}
/** The same figures as a preset's, for the games of one of the host's named rule sets alone. */
export interface RuleSetRating extends Rating {
  rule_set: string;
  statistics: PlayerStatistics;
  last_game: { table: string; game: number; change: number; finished: number };
}
export interface PlayerRatings {
  player: string;
  name: string;
  ratings: PresetRating[];
  rule_sets: RuleSetRating[];
}
export declare function getLeaderboard(
  preset: string,
  query?: { limit?: number; cursor?: string; min_games?: number },
  options?: ArchiveOptions,
): Promise<Leaderboard>;
export declare function getRuleSetLeaderboard(
  ruleSet: string,
  query?: { limit?: number; cursor?: string; min_games?: number },
  options?: ArchiveOptions,
): Promise<Leaderboard>;
export declare function getPlayer(player: string, options?: ArchiveOptions): Promise<PlayerRatings>;
