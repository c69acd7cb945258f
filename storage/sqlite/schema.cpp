#include "storage/sqlite/schema.hpp"

namespace sparts::storage {

const std::vector<std::string>& migrations() {
    static const std::vector<std::string> all = {
        // 1: players, tables, seats, games, actions and the event log.
        R"sql(
CREATE TABLE players (
  id          TEXT PRIMARY KEY,
  token_hash  TEXT NOT NULL UNIQUE,   -- SHA-256 of the token; the token itself is never stored
  name        TEXT NOT NULL,
  created_ms  INTEGER NOT NULL
);
CREATE TABLE tables (
  id            TEXT PRIMARY KEY,
  number        INTEGER NOT NULL,     -- the n of "tn", for numbering new tables after a restart
  ruleset       TEXT NOT NULL,        -- JSON
  preset        TEXT NOT NULL,
  seats         INTEGER NOT NULL,
  private       INTEGER NOT NULL,
  invite        TEXT NOT NULL,
  turn_seconds  INTEGER NOT NULL,
  creator       TEXT NOT NULL,
  created_ms    INTEGER NOT NULL,
  closed_ms     INTEGER,              -- NULL while open
  close_reason  TEXT
);
CREATE TABLE seats (                  -- who holds each seat now
  table_id  TEXT NOT NULL,
  seat      INTEGER NOT NULL,
  player    TEXT NOT NULL,            -- '' for a bot or nobody
  name      TEXT NOT NULL,
  bot       INTEGER NOT NULL,
  PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE games (
  table_id     TEXT NOT NULL,
  game         INTEGER NOT NULL,
  seed         INTEGER NOT NULL,      -- the deal; revealed with the archive only
  ruleset      TEXT NOT NULL,
  preset       TEXT NOT NULL,
  players      TEXT NOT NULL,         -- JSON, per seat
  started_ms   INTEGER NOT NULL,
  finished_ms  INTEGER,               -- NULL while in progress
  result       TEXT,
  PRIMARY KEY (table_id, game)
) WITHOUT ROWID;
CREATE TABLE game_players (           -- for listing a player's games
  player    TEXT NOT NULL,            -- columns in key order: SQLite 3.40's quick_check misreads
  table_id  TEXT NOT NULL,            -- WITHOUT ROWID tables whose key is in another order
  game      INTEGER NOT NULL,
  PRIMARY KEY (player, table_id, game)
) WITHOUT ROWID;
CREATE TABLE actions (
  table_id  TEXT NOT NULL,
  game      INTEGER NOT NULL,
  idx       INTEGER NOT NULL,
  seat      INTEGER NOT NULL,
  action    TEXT NOT NULL,            -- JSON
  seq       INTEGER NOT NULL,         -- the seq of the action's first event
  at_ms     INTEGER NOT NULL,
  PRIMARY KEY (table_id, game, idx)
) WITHOUT ROWID;
CREATE TABLE events (                 -- append-only, per table
  table_id  TEXT NOT NULL,
  seq       INTEGER NOT NULL,
  game      INTEGER NOT NULL,
  type      TEXT NOT NULL,
  payload   TEXT NOT NULL,            -- JSON, secret cards included
  at_ms     INTEGER NOT NULL,
  PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
)sql",
        // 2: the archive lists finished games newest first, by preset.
        R"sql(
CREATE INDEX games_finished ON games (finished_ms, table_id, game) WHERE finished_ms IS NOT NULL;
CREATE INDEX tables_open ON tables (closed_ms) WHERE closed_ms IS NULL;
)sql",
        // 3: an action is kept on the first event it caused, not in a table of its own. Under
        // load every commit touches one page of each B-tree per busy table; one tree instead of
        // two halves what a commit writes.
        R"sql(
ALTER TABLE events ADD COLUMN seat INTEGER;   -- the acting seat, on an action's first event
ALTER TABLE events ADD COLUMN action TEXT;    -- JSON, on an action's first event; else NULL
UPDATE events SET seat = a.seat, action = a.action
  FROM actions AS a WHERE events.table_id = a.table_id AND events.seq = a.seq;
DROP TABLE actions;
)sql",
        // 4: a bot seat keeps its level across a restart.
        R"sql(
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT '';  -- a bot's level; '' for a person
)sql",
        // 5: an append-only journal under one global key replaces the per-table event tree (a
        // commit appends to its tail pages instead of rewriting a page of every busy table), and
        // a finished game keeps one compact record: its actions, which the engine renders into
        // its events again. The old events are folded into records by code (legacy_events.cpp),
        // in the same transaction, and their table dropped.
        R"sql(
CREATE TABLE journal (
  id        INTEGER PRIMARY KEY,    -- one increasing key for all tables: commits append at the tail
  table_id  TEXT NOT NULL,
  game      INTEGER NOT NULL,       -- 0: before the table's first game
  seq       INTEGER NOT NULL,       -- the first event's
  at_ms     INTEGER NOT NULL,
  events    INTEGER NOT NULL,       -- how many events the row stands for
  seat      INTEGER,                -- engine events: the acting seat, NULL for the deal
  action    TEXT,                   -- engine events: the action, a BLOB of its compact bytes (game_log.hpp)
                                    -- or, from a version-4 row, its JSON text; NULL for the deal
  type      TEXT,                   -- a table event's type; NULL for the engine's events
  payload   TEXT                    -- a table event's JSON
);
ALTER TABLE games ADD COLUMN record BLOB;  -- once finished: the game log (storage/game_log.hpp)
)sql",
        // 6: provably fair deals. The salt of each game's deal commitment (SHA-256 of salt and
        // seed, published when the game starts; protocol/deal_commitment.hpp), secret like the
        // seed until the game is over. NULL for the games of older versions: they made none.
        R"sql(
ALTER TABLE games ADD COLUMN salt TEXT;
)sql",
        // 7: Glicko-2 ratings and statistics per player and preset (storage/README.md, "Ratings"),
        // updated in the commit that ends each rated game. Derived from the archive: an existing
        // file's finished games are not rated by the migration (`--recompute-ratings` does it).
        R"sql(
CREATE TABLE ratings (
  player       TEXT NOT NULL,
  preset       TEXT NOT NULL,
  rating       REAL NOT NULL,         -- Glicko scale: 1500/350/0.06 for a new player
  deviation    REAL NOT NULL,
  volatility   REAL NOT NULL,
  games        INTEGER NOT NULL,      -- rated games
  wins         INTEGER NOT NULL,
  hands        INTEGER NOT NULL,      -- the statistics (storage/game_tally.hpp)
  bids         INTEGER NOT NULL,
  bids_made    INTEGER NOT NULL,
  nil_bids     INTEGER NOT NULL,
  nils_made    INTEGER NOT NULL,
  bags         INTEGER NOT NULL,
  moons        INTEGER NOT NULL,
  last_table   TEXT NOT NULL,         -- the last rated game, and what it changed the rating by
  last_game    INTEGER NOT NULL,
  last_change  REAL NOT NULL,
  updated_ms   INTEGER NOT NULL,
  PRIMARY KEY (player, preset)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (preset, rating DESC, player);
)sql",
        // 8: players banned by the operator (the admin API): their hello is refused, across restarts.
        R"sql(
CREATE TABLE bans (
  player  TEXT PRIMARY KEY,           -- a player id; not a foreign key: a ban may name a player before it is stored
  reason  TEXT NOT NULL,              -- the operator's words ('' when none)
  at_ms   INTEGER NOT NULL
) WITHOUT ROWID;
)sql",
        // 9: the game-over webhook's outbox: each finished game's summary, written in the commit that ends the
        // game and deleted once delivered, so that nothing committed is lost to a receiver that is down.
        R"sql(
CREATE TABLE webhook_outbox (
  table_id  TEXT NOT NULL,
  game      INTEGER NOT NULL,
  body      TEXT NOT NULL,            -- the summary POSTed, exactly (its signature covers these bytes)
  UNIQUE (table_id, game)
);                                    -- a rowid table: rowid is the order the games finished in
)sql",
        // 10: the archive, written once. A finished game was a row of `games` inserted when it began, in
        // the key (table_id, game) of a thousand tables at once, then rewritten three times larger at its
        // end: its B-tree's pages split and stayed three-quarters empty. Now a game in progress has a
        // small row in games_in_progress (its deal, who sits where), and its end moves it, with its
        // result and record, to the tail of `archive`, whose key is the order games are archived in.
        // Every archive page is read from an index in the order the page lists its games (newest
        // first): archive_players for a player's games, archive_preset for a preset's, archive_finished
        // for all; a date range is a range of their last column. A game's record is kept in parts
        // of 960 bytes (archive_records), four to a 4 KiB page: records run from a few hundred bytes
        // to tens of kilobytes, and a row of more than half a page left the rest of its page empty.
        R"sql(
CREATE TABLE archive (
  id           INTEGER PRIMARY KEY,   -- the order games are archived in: every new row goes at the tail
  table_id     TEXT NOT NULL,
  game         INTEGER NOT NULL,
  preset       TEXT NOT NULL,
  finished_ms  INTEGER NOT NULL,
  started_ms   INTEGER NOT NULL,
  seed         INTEGER NOT NULL,      -- the deal, revealed with the archive
  salt         TEXT,                  -- NULL for a game before deals were committed to (version 6)
  ruleset      TEXT NOT NULL,
  players      TEXT NOT NULL,         -- JSON, per seat
  result       TEXT NOT NULL
);
INSERT INTO archive (table_id, game, preset, finished_ms, started_ms, seed, salt, ruleset, players, result)
  SELECT table_id, game, preset, finished_ms, started_ms, seed, salt, ruleset, players, COALESCE(result, '{}')
    FROM games WHERE finished_ms IS NOT NULL ORDER BY finished_ms, table_id, game;
CREATE TABLE archive_records (         -- each game's record (storage/game_log.hpp), in parts; none for a game that lost it
  id     INTEGER NOT NULL,             -- archive.id
  part   INTEGER NOT NULL,             -- from 0
  bytes  BLOB NOT NULL,                -- 960 bytes, but the last part
  PRIMARY KEY (id, part)
) WITHOUT ROWID;
INSERT INTO archive_records (id, part, bytes)
  WITH RECURSIVE parts(id, part, bytes, rest) AS (
    SELECT a.id, 0, substr(CAST(g.record AS BLOB), 1, 960), substr(CAST(g.record AS BLOB), 961)
      FROM archive a JOIN games g ON g.table_id = a.table_id AND g.game = a.game
     WHERE g.record IS NOT NULL AND length(CAST(g.record AS BLOB)) > 0   -- bytes: version 5 wrote some as TEXT
    UNION ALL
    SELECT id, part + 1, substr(rest, 1, 960), substr(rest, 961) FROM parts WHERE length(rest) > 0)
  SELECT id, part, bytes FROM parts;
CREATE UNIQUE INDEX archive_game ON archive (table_id, game);
CREATE INDEX archive_finished ON archive (finished_ms);          -- with the rowid: (finished_ms, id)
CREATE INDEX archive_preset ON archive (preset, finished_ms);
CREATE TABLE archive_players (        -- a player's games: one row per player and game
  player       TEXT NOT NULL,
  preset       TEXT NOT NULL,
  finished_ms  INTEGER NOT NULL,
  id           INTEGER NOT NULL,      -- archive.id
  PRIMARY KEY (player, preset, finished_ms, id)
) WITHOUT ROWID;
INSERT INTO archive_players (player, preset, finished_ms, id)
  SELECT DISTINCT json_extract(s.value, '$.player'), a.preset, a.finished_ms, a.id
    FROM archive a, json_each(a.players) s WHERE json_extract(s.value, '$.player') IS NOT NULL;
CREATE TABLE games_in_progress (      -- the game in progress at each open table; its steps are in the journal
  table_id    TEXT PRIMARY KEY,
  game        INTEGER NOT NULL,
  seed        INTEGER NOT NULL,
  salt        TEXT,
  ruleset     TEXT NOT NULL,
  preset      TEXT NOT NULL,
  players     TEXT NOT NULL,
  started_ms  INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO games_in_progress (table_id, game, seed, salt, ruleset, preset, players, started_ms)
  SELECT g.table_id, g.game, g.seed, g.salt, g.ruleset, g.preset, g.players, g.started_ms
    FROM games g JOIN tables t ON t.id = g.table_id
   WHERE t.closed_ms IS NULL AND g.finished_ms IS NULL AND g.game = (SELECT MAX(game) FROM games WHERE table_id = g.table_id);
DROP TABLE game_players;
DROP TABLE games;
-- Retention (docs/OPERATING.md): the rating rows as every game retired from the archive left them,
-- which a rebuild of the ratings (--recompute-ratings) starts from; the columns of `ratings`.
CREATE TABLE ratings_retired (
  player       TEXT NOT NULL,
  preset       TEXT NOT NULL,
  rating       REAL NOT NULL,
  deviation    REAL NOT NULL,
  volatility   REAL NOT NULL,
  games        INTEGER NOT NULL,
  wins         INTEGER NOT NULL,
  hands        INTEGER NOT NULL,
  bids         INTEGER NOT NULL,
  bids_made    INTEGER NOT NULL,
  nil_bids     INTEGER NOT NULL,
  nils_made    INTEGER NOT NULL,
  bags         INTEGER NOT NULL,
  moons        INTEGER NOT NULL,
  last_table   TEXT NOT NULL,
  last_game    INTEGER NOT NULL,
  last_change  REAL NOT NULL,
  updated_ms   INTEGER NOT NULL,
  PRIMARY KEY (player, preset)
) WITHOUT ROWID;
)sql",
        // 11: the host's named rule sets (server/table/rule_sets.hpp) in the archive. A game keeps the
        // name of the rule set its table played (NULL: none), as it was when it ended: a rule set
        // renamed or dropped later does not rename its games. archive_rule_set yields a rule set's
        // page in order; a player's games of a rule set are rows of archive_players under the board
        // 'set:' || name. rule_set_games counts the games each rule set has had, for the lobby: a
        // count, not a scan, and retention does not lower it.
        R"sql(
ALTER TABLE archive ADD COLUMN rule_set TEXT;
CREATE INDEX archive_rule_set ON archive (rule_set, finished_ms) WHERE rule_set IS NOT NULL;
CREATE TABLE rule_set_games (
  name   TEXT PRIMARY KEY,
  games  INTEGER NOT NULL
) WITHOUT ROWID;
)sql",
        // 12: archive_players keyed by a number for each player (player_numbers) instead of the
        // player's id: a row a seat of every finished game, and the id's 17 characters were a
        // third of what a one-hand game cost beyond its payload (docs/FIGURES.md).
        R"sql(
CREATE TABLE player_numbers (         -- every player of the archive, numbered once
  number  INTEGER PRIMARY KEY,
  player  TEXT NOT NULL UNIQUE
);
INSERT INTO player_numbers (player) SELECT DISTINCT player FROM archive_players ORDER BY player;
CREATE TABLE archive_players_by_number (
  number       INTEGER NOT NULL,      -- player_numbers.number
  preset       TEXT NOT NULL,         -- the board: a preset, or 'set:' || a rule set's name
  finished_ms  INTEGER NOT NULL,
  id           INTEGER NOT NULL,      -- archive.id
  PRIMARY KEY (number, preset, finished_ms, id)
) WITHOUT ROWID;
INSERT INTO archive_players_by_number (number, preset, finished_ms, id)
  SELECT n.number, p.preset, p.finished_ms, p.id FROM archive_players p JOIN player_numbers n ON n.player = p.player
   ORDER BY n.number, p.preset, p.finished_ms, p.id;
DROP TABLE archive_players;
ALTER TABLE archive_players_by_number RENAME TO archive_players;
)sql",
    };
    return all;
}

}  // namespace sparts::storage
