#pragma once
// The Hub's settings (boneyard serve's flags), read by the Hub and by each
// of its modules (bots.h, turn_clock.h, quickmatch.h, ratings.h).
#include <cstddef>
#include <string>

namespace boneyard::server {

// The gate's default size, from the cores: 56 moves in flight per core, at
// least 112 (what 2 cores were measured to need: the broadcast threads kept
// busy, p99 arrival->broadcast short); a 16-core machine gets 896 (its
// measured best used a gate of 800; 112 held it to 26,000 moves/s on 4.8
// of its cores). --bot-pipeline overrides it.
int default_bot_pipeline();

struct HubConfig {
  // "strong": the levels' search bot, this long per decision, one thread
  // (0: the level's count, bots/levels.h: the strength docs/bots.md measured)
  double strong_ms = 0;
  double expert_ms = 0;    // "expert": this long per decision (0: the level's count) ...
  int expert_threads = 0;  // ... on this many threads (0: one)
  // The pool for cheap bots (beginner, casual) (0: the number of cores, at
  // least 2); broadcasts have threads of their own. Strong and expert bots think on a pool of their
  // own, so a cheap bot never waits behind an expensive one:
  int bot_threads = 0;
  int strong_threads = 0;     // strong/expert decisions at once, server-wide (0: half the cores, at least 1)
  int strong_per_client = 2;  // ... and per address that created the tables (0: no cap)
  // Cheap bots' moves between decision and broadcast, at most (0: no cap).
  // Under load the next bot waits before it thinks (Bots::run_cheap). By
  // default it scales with the machine (default_bot_pipeline()).
  int bot_pipeline = default_bot_pipeline();
  bool run_bots = true;  // false: bots never move (the fuzz target)
  int default_bot_delay_ms = 600;
  int default_drop_delay_ms = 60000;
  size_t max_tables = 100000;    // live tables (finished ones leave memory)
  int default_expire_s = 86400;  // a table whose game has not started is closed after this (table option expire_s)
  // The most a creator may ask for expire_s, and the live tables one
  // address may hold (bot-only, rematches and quick matches included; 0: no
  // cap), so a few addresses cannot fill --max-tables and hold it.
  int max_expire_s = 2 * 86400;
  size_t max_tables_per_client = 50;
  // A game's length: a table whose game reaches this many events (moves and
  // chance outcomes) is stopped, unrated, so options such as a million
  // hands cannot hold a table, its memory and the database for ever. The
  // longest standard game stays far below (docs/server.md, "Limits").
  size_t max_game_moves = 20000;
  size_t finished_cache = 256;  // finished tables kept in memory after their end (the rest load on demand)
  bool measure = false;         // keep each move's latency (serve-bench)
  // A seat taken from the lobby is held this long for its player to connect
  // (or join); then it is free again, for someone else.
  int claim_s = 60;
  // Quick match: how long players wait for others before bots fill the
  // empty seats, and how long its table waits for all of them to join.
  double quickmatch_wait_s = 20;
  int quickmatch_expire_s = 120;
  // A rematch offer: a seat whose player has left (no connection) goes to
  // a bot once the offer is this old; the others must accept.
  double rematch_wait_s = 30;
  // Glicko-2's rating period for time without games: each whole period
  // since a subject's last rated game widens its RD (docs/server.md, Ratings).
  double rating_period_s = 86400;
  // The turn clock's second in milliseconds: 1000, always, in production.
  // Tests scale it down (the same rules, faster), never the rules.
  int clock_second_ms = 1000;
  // Several nodes on one PostgreSQL (shards.h): this node's id ("": one
  // node, every shard its own, no leases), the shards (fixed for a
  // database: every node must say the same) and their leases' length.
  std::string node_id;
  int shards = 64;
  int lease_s = 10;
  // What the operator's requests carry (reports: social.h); "": none served.
  std::string operator_token;
};

}  // namespace boneyard::server
