#include "storage/postgres/pg_schema.hpp"

namespace sparts::storage {

const std::vector<std::string>& pg_migrations() {
    static const std::vector<std::string> all = {
        // 1: the layout of SQLite's version 5 (storage/README.md): players, tables, seats,
        // games with their record, the journal; and for many nodes, each table's lease.
        R"sql(
CREATE TABLE sparts_schema (
  version  integer NOT NULL
);
INSERT INTO sparts_schema VALUES (0);
CREATE TABLE players (
  id          text PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,   -- SHA-256 of the token; the token itself is never stored
  name        text NOT NULL,
  created_ms  bigint NOT NULL
);
CREATE TABLE tables (
  id            text PRIMARY KEY,
  number        bigint NOT NULL,      -- the n of "tn"
  ruleset       text NOT NULL,        -- JSON
  preset        text NOT NULL,
  seats         integer NOT NULL,
  private       boolean NOT NULL,
  invite        text NOT NULL,
  turn_seconds  integer NOT NULL,
  creator       text NOT NULL,
  created_ms    bigint NOT NULL,
  closed_ms     bigint,               -- NULL while open
  close_reason  text
);
CREATE INDEX tables_open ON tables (number) WHERE closed_ms IS NULL;
CREATE TABLE seats (                  -- who holds each seat now
  table_id  text NOT NULL,
  seat      integer NOT NULL,
  player    text NOT NULL,            -- '' for a bot or nobody
  name      text NOT NULL,
  bot       boolean NOT NULL,
  level     text NOT NULL,            -- a bot's level; '' for a person
  PRIMARY KEY (table_id, seat)
);
CREATE TABLE games (
  table_id     text COLLATE "C" NOT NULL,  -- the archive pages by it: byte order, as SQLite's
  game         integer NOT NULL,
  seed         bigint NOT NULL,       -- the deal (the 64 bits, as a signed number); revealed with the archive only
  ruleset      text NOT NULL,
  preset       text NOT NULL,
  players      text NOT NULL,         -- JSON, per seat
  started_ms   bigint NOT NULL,
  finished_ms  bigint,                -- NULL while in progress
  result       text,
  record       bytea,                 -- once finished: the game log (storage/game_log.hpp)
  PRIMARY KEY (table_id, game)
);
CREATE INDEX games_finished ON games (finished_ms, table_id, game) WHERE finished_ms IS NOT NULL;
CREATE INDEX games_preset ON games (preset, finished_ms) WHERE finished_ms IS NOT NULL;
CREATE TABLE game_players (           -- for listing a player's games
  player    text NOT NULL,
  table_id  text NOT NULL,
  game      integer NOT NULL,
  PRIMARY KEY (player, table_id, game)
);
CREATE TABLE journal (                -- one row per engine step or table event of every open table
  id           bigserial PRIMARY KEY,
  table_id     text NOT NULL,
  game         integer NOT NULL,      -- 0: before the table's first game
  seq          bigint NOT NULL,       -- the first event's
  at_ms        bigint NOT NULL,
  events       integer NOT NULL,      -- how many events the row stands for
  seat         integer,               -- engine events: the acting seat, NULL for the deal
  action       bytea,                 -- engine events: the action's compact bytes (game_log.hpp); NULL for the deal
  action_text  text,                  -- or the action's JSON, as a SQLite file of version 4 had it
  type         text,                  -- a table event's type; NULL for the engine's events
  payload      text                   -- a table event's JSON
);
-- A node that takes a table over reads its rows alone; a table's rows go when its game or the
-- table ends (PostgreSQL's heap appends whatever the key, so the index is the only cost).
CREATE INDEX journal_table ON journal (table_id, seq);
CREATE SEQUENCE table_numbers;        -- "tn" for every node at once
CREATE TABLE leases (                 -- which node holds each table, and since when (epoch)
  table_id    text PRIMARY KEY,
  node        text NOT NULL,          -- '' once released
  epoch       bigint NOT NULL,        -- raised by every taking over; a commit is fenced by it
  expires_at  timestamptz NOT NULL,   -- the database's clock, never a node's
  wanted_by   text NOT NULL DEFAULT ''  -- a node that a client of this table reached
);
CREATE INDEX leases_node ON leases (node);
-- Every commit of a node's table steps runs this first, in its transaction: it locks the
-- tables' leases until the commit (a node taking one over waits for it, then reads all it
-- wrote) and refuses the whole commit if this node no longer holds one at its epoch.
CREATE FUNCTION sparts_fence(p_node text, p_tables text[], p_epochs bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  lost text;
BEGIN
  PERFORM 1 FROM leases WHERE table_id = ANY (p_tables) ORDER BY table_id FOR SHARE;
  SELECT t.id INTO lost FROM unnest(p_tables, p_epochs) AS t(id, epoch)
    LEFT JOIN leases l ON l.table_id = t.id
   WHERE l.table_id IS NULL OR l.node <> p_node OR l.epoch <> t.epoch
   LIMIT 1;
  IF lost IS NOT NULL THEN
    RAISE EXCEPTION 'the lease on table % is not node %''s at its epoch', lost, p_node USING ERRCODE = 'SP001';
  END IF;
END
$$;
)sql",
        // 2: provably fair deals, as SQLite's version 6: each game's salt (deal_commitment.hpp).
        R"sql(
ALTER TABLE games ADD COLUMN salt text;
)sql",
        // 3: Glicko-2 ratings and statistics per player and preset, as SQLite's version 7. A
        // commit ending rated games locks its players' rows (SELECT ... FOR UPDATE) before it
        // computes their new ratings: nodes ending games of the same players never lose an update.
        R"sql(
CREATE TABLE ratings (
  player       text COLLATE "C" NOT NULL,  -- the leaderboard pages by it: byte order, as SQLite's
  preset       text NOT NULL,
  rating       double precision NOT NULL DEFAULT 1500,
  deviation    double precision NOT NULL DEFAULT 350,
  volatility   double precision NOT NULL DEFAULT 0.06,
  games        bigint NOT NULL DEFAULT 0,
  wins         bigint NOT NULL DEFAULT 0,
  hands        bigint NOT NULL DEFAULT 0,
  bids         bigint NOT NULL DEFAULT 0,
  bids_made    bigint NOT NULL DEFAULT 0,
  nil_bids     bigint NOT NULL DEFAULT 0,
  nils_made    bigint NOT NULL DEFAULT 0,
  bags         bigint NOT NULL DEFAULT 0,
  moons        bigint NOT NULL DEFAULT 0,
  last_table   text NOT NULL DEFAULT '',
  last_game    integer NOT NULL DEFAULT 0,
  last_change  double precision NOT NULL DEFAULT 0,
  updated_ms   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (player, preset)
);
CREATE INDEX ratings_board ON ratings (preset, rating DESC, player);
)sql",
        // 4: players banned by the operator (the admin API), as SQLite's version 8.
        R"sql(
CREATE TABLE bans (
  player  text PRIMARY KEY,           -- a player id; not a foreign key: a ban may name a player before it is stored
  reason  text NOT NULL,
  at_ms   bigint NOT NULL
);
)sql",
        // 5: the game-over webhook's outbox, as SQLite's version 9.
        R"sql(
CREATE TABLE webhook_outbox (
  id        bigserial PRIMARY KEY,    -- the order the games finished in
  table_id  text NOT NULL,
  game      integer NOT NULL,
  body      text NOT NULL,
  UNIQUE (table_id, game)
);
)sql",
        // 6: the archive, written once, as SQLite's version 10 (storage/README.md). A finished game
        // was a row of `games` inserted when it began and updated three times larger at its end
        // (PostgreSQL's update writes the row anew, leaving the old one dead), and a player's page
        // walked games_finished probing game_players for each game. Now a game in progress has a
        // small row in games_in_progress, and its end moves it, with its result and record, to
        // `archive`, keyed by the order games are archived in. Every archive page is read from an
        // index in the order the page lists its games, newest first: archive_players for a
        // player's, archive_preset for a preset's, archive_finished for all; a date range is a
        // range of their last columns. The record stays in its row: PostgreSQL moves a long one
        // out of line itself (TOAST). Existing games are archived in the order they finished.
        R"sql(
CREATE TABLE archive (
  id           bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,  -- the order games are archived in;
                                                                     -- BY DEFAULT: --migrate-from copies SQLite's
  table_id     text COLLATE "C" NOT NULL,
  game         integer NOT NULL,
  preset       text COLLATE "C" NOT NULL,
  finished_ms  bigint NOT NULL,
  started_ms   bigint NOT NULL,
  seed         bigint NOT NULL,       -- the deal (the 64 bits, as a signed number), revealed with the archive
  salt         text,                  -- NULL for a game before deals were committed to (version 2)
  ruleset      text NOT NULL,
  players      text NOT NULL,         -- JSON, per seat
  result       text NOT NULL,
  record       bytea                  -- the game log (storage/game_log.hpp); NULL for a game that lost it
);
INSERT INTO archive (id, table_id, game, preset, finished_ms, started_ms, seed, salt, ruleset, players, result, record)
  SELECT row_number() OVER (ORDER BY finished_ms, table_id, game), table_id, game, preset, finished_ms, started_ms,
         seed, salt, ruleset, players, COALESCE(result, '{}'), record
    FROM games WHERE finished_ms IS NOT NULL;
SELECT setval(pg_get_serial_sequence('archive', 'id'), max(id)) FROM archive HAVING max(id) IS NOT NULL;
CREATE UNIQUE INDEX archive_game ON archive (table_id, game);
CREATE INDEX archive_finished ON archive (finished_ms, id);
CREATE INDEX archive_preset ON archive (preset, finished_ms, id);
CREATE TABLE archive_players (        -- a player's games: one row per player and game
  player       text COLLATE "C" NOT NULL,
  preset       text COLLATE "C" NOT NULL,
  finished_ms  bigint NOT NULL,
  id           bigint NOT NULL,       -- archive.id
  PRIMARY KEY (player, preset, finished_ms, id)
);
INSERT INTO archive_players (player, preset, finished_ms, id)
  SELECT DISTINCT e->>'player', a.preset, a.finished_ms, a.id
    FROM archive a, json_array_elements(a.players::json) e WHERE e->>'player' IS NOT NULL;
CREATE TABLE games_in_progress (      -- the game in progress at each open table; its steps are in the journal
  table_id    text COLLATE "C" PRIMARY KEY,
  game        integer NOT NULL,
  seed        bigint NOT NULL,
  salt        text,
  ruleset     text NOT NULL,
  preset      text NOT NULL,
  players     text NOT NULL,
  started_ms  bigint NOT NULL
);
INSERT INTO games_in_progress (table_id, game, seed, salt, ruleset, preset, players, started_ms)
  SELECT g.table_id, g.game, g.seed, g.salt, g.ruleset, g.preset, g.players, g.started_ms
    FROM games g JOIN tables t ON t.id = g.table_id
   WHERE t.closed_ms IS NULL AND g.finished_ms IS NULL
     AND g.game = (SELECT max(game) FROM games WHERE table_id = g.table_id);
DROP TABLE game_players;
DROP TABLE games;
-- Retention (docs/OPERATING.md): the rating rows as every game retired from the archive left them,
-- which a rebuild of the ratings (--recompute-ratings) starts from; the columns of `ratings`.
CREATE TABLE ratings_retired (
  player       text COLLATE "C" NOT NULL,
  preset       text NOT NULL,
  rating       double precision NOT NULL,
  deviation    double precision NOT NULL,
  volatility   double precision NOT NULL,
  games        bigint NOT NULL,
  wins         bigint NOT NULL,
  hands        bigint NOT NULL,
  bids         bigint NOT NULL,
  bids_made    bigint NOT NULL,
  nil_bids     bigint NOT NULL,
  nils_made    bigint NOT NULL,
  bags         bigint NOT NULL,
  moons        bigint NOT NULL,
  last_table   text NOT NULL,
  last_game    integer NOT NULL,
  last_change  double precision NOT NULL,
  updated_ms   bigint NOT NULL,
  PRIMARY KEY (player, preset)
);
)sql",
        // 7: the host's named rule sets in the archive, as SQLite's version 11 (storage/README.md): a
        // game keeps the name of its table's rule set (NULL: none); archive_rule_set yields a rule
        // set's page in order; a player's games of a rule set are rows of archive_players under the
        // board 'set:' || name; rule_set_games counts each rule set's games for the lobby.
        R"sql(
ALTER TABLE archive ADD COLUMN rule_set text COLLATE "C";
CREATE INDEX archive_rule_set ON archive (rule_set, finished_ms, id) WHERE rule_set IS NOT NULL;
CREATE TABLE rule_set_games (
  name   text PRIMARY KEY,
  games  bigint NOT NULL
);
)sql",
    };
    return all;
}

}  // namespace sparts::storage
