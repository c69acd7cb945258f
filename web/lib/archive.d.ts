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
}
export declare function listGames(
  query?: { player?: string; preset?: string; from?: number; to?: number; limit?: number; cursor?: string },
  options?: ArchiveOptions,
): Promise<{ games: ArchivedGameSummary[]; next_cursor: string | null }>;
export declare function getGame(table: string, game: number, options?: ArchiveOptions): Promise<Record<string, unknown>>;
