// boneyard serve: the game server (HTTP + WebSocket; SQLite or PostgreSQL
// storage; docs/server.md).
#include <arpa/inet.h>
#include <fmt/format.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/common.h"
#include "server/fairness.h"
#include "server/net.h"

namespace boneyard::cli {

void add_serve(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Play online: a game server over HTTP and WebSocket (docs/server.md)");
  auto cfg = std::make_shared<server::ServerConfig>();
  auto sync = std::make_shared<std::string>("full");
  cmd->add_option("--host", cfg->host, "Address to listen on")->capture_default_str();
  cmd->add_option("--port", cfg->port, "Port (0: any free port, printed at start)")->capture_default_str();
  cmd->add_option("--db", cfg->db,
                  "SQLite database file (created if missing), or a PostgreSQL URL: postgresql://USER:PASSWORD@HOST/DB "
                  "(its tables created if missing)")
      ->capture_default_str();
  cmd->add_option("--db-pool", cfg->db_pool, "PostgreSQL: connections for reads (the writer has one of its own)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--static", cfg->static_dir,
                  "Serve the files in this folder at / (default: the built browser app, web/dist, when there is one; "
                  "'none' serves no files)");
  cmd->add_option("--threads", cfg->io_threads, "Network threads")->capture_default_str();
  cmd->add_option("--hash-threads", cfg->hash_threads,
                  "Threads that hash passwords (argon2id), apart from the network threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--hash-queue", cfg->hash_queue,
                  "Password checks that may wait for those threads; more are refused with 503 and Retry-After")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->add_option("--bot-pipeline", cfg->hub.bot_pipeline,
                  "Cheap bots' moves between decision and broadcast, at most; under load the next bot waits before it "
                  "thinks (the default scales with the cores: 56 each, at least 112; 0: no cap)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--bot-threads", cfg->hub.bot_threads, "Threads for cheap bots (beginner, casual) (0: one per core)")
      ->capture_default_str();
  cmd->add_option("--strong-threads", cfg->hub.strong_threads,
                  "Strong and expert bot decisions at once, server-wide, on their own threads (0: half the cores)")
      ->capture_default_str();
  cmd->add_option("--strong-per-client", cfg->hub.strong_per_client,
                  "Strong and expert decisions at once for the tables of one address (0: no cap)")
      ->capture_default_str();
  cmd->add_option("--max-tables", cfg->hub.max_tables, "Live tables at most (finished ones leave memory)")
      ->capture_default_str();
  cmd->add_option("--max-tables-per-address", cfg->hub.max_tables_per_client,
                  "Live tables one address may hold, bot-only ones included (0: no cap)")
      ->capture_default_str();
  cmd->add_option("--max-game-moves", cfg->hub.max_game_moves,
                  "A game that reaches this many moves (chance outcomes included) is stopped, unrated")
      ->check(CLI::Range(100, 100000000))
      ->capture_default_str();
  cmd->add_option("--max-expire", cfg->hub.max_expire_s, "The longest expire_s a table's creator may ask for, seconds")
      ->check(CLI::Range(1, 30 * 86400))
      ->capture_default_str();
  cmd->add_option("--sync", *sync,
                  "SQLite synchronous mode: full (survives power loss) or normal (survives a crash); PostgreSQL: full "
                  "sets synchronous_commit=on for the writer, normal keeps the database's setting")
      ->check(CLI::IsMember({"full", "normal"}))
      ->capture_default_str();
  cmd->add_option("--strong-ms", cfg->hub.strong_ms,
                  "Thinking time of the strong bots per decision (0: the level's count of iterations, as measured in "
                  "docs/bots.md)")
      ->capture_default_str();
  cmd->add_option("--expert-ms", cfg->hub.expert_ms,
                  "Thinking time of the expert bots per decision (0: the level's count, 4 times strong's; Mexican "
                  "Train 16 times)")
      ->capture_default_str();
  cmd->add_option("--clock-second-ms", cfg->hub.clock_second_ms,
                  "Milliseconds in one second of the turn clock: 1000; less only for tests (the same rules, faster)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option(
      "--allow-origin", cfg->allow_origins,
      "A web origin (https://example.org) whose pages may open WebSockets here, besides this server's own; repeatable");
  cmd->add_option("--max-connections", cfg->limits.max_connections,
                  "Open connections in total (kept below the descriptor limit)")
      ->capture_default_str();
  cmd->add_option("--max-connections-per-address", cfg->limits.max_connections_per_address,
                  "Open connections from one client address")
      ->capture_default_str();
  cmd->add_option("--lobby-idle", cfg->lobby_idle_s,
                  "Seconds a lobby page's live list stays open with nobody there (the page says when someone is)")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cmd->add_option("--ipv6-prefix", cfg->limits.ipv6_prefix,
                  "IPv6 clients share every per-address limit with their network of this many bits (128: each "
                  "address alone)")
      ->check(CLI::Range(16, 128))
      ->capture_default_str();
  cmd->add_option("--create-rate", cfg->limits.create.rate, "New tables per second per client address")
      ->capture_default_str();
  cmd->add_option("--create-burst", cfg->limits.create.burst, "New tables at once per client address")
      ->capture_default_str();
  cmd->add_option("--think-rate", cfg->limits.think.rate, "Hints, reviews and replays per second per client address")
      ->capture_default_str();
  cmd->add_option("--think-burst", cfg->limits.think.burst, "Hints, reviews and replays at once per client address")
      ->capture_default_str();
  cmd->add_flag("--measure", cfg->hub.measure,
                "Keep each move's time from arrival to broadcast; /api/health then reports its p50 and p99 "
                "(scripts/cluster-bench.py reads them)");
  cmd->add_option("--quickmatch-wait", cfg->hub.quickmatch_wait_s,
                  "Seconds a quick match waits for people before bots fill the empty seats")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--rematch-wait", cfg->hub.rematch_wait_s,
                  "Seconds a rematch offer waits before the seats of players who left go to bots")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option(
         "--rating-period", cfg->hub.rating_period_s,
         "Seconds of Glicko-2's rating period: each whole one without a rated game widens a rating's deviation")
      ->check(CLI::Range(1.0, 1e9))
      ->capture_default_str();
  cmd->add_option("--claim", cfg->hub.claim_s, "Seconds a seat taken from the lobby waits for its player to connect")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cmd->add_option("--sit-rate", cfg->limits.sit_player.rate, "Seats taken from the lobby per second per player key")
      ->capture_default_str();
  cmd->add_option("--sit-burst", cfg->limits.sit_player.burst, "Seats taken from the lobby at once per player key")
      ->capture_default_str();
  cmd->add_option("--player-rate", cfg->limits.player.rate, "New players and logins per second per client address")
      ->capture_default_str();
  cmd->add_option("--player-burst", cfg->limits.player.burst, "New players and logins at once per client address")
      ->capture_default_str();
  cmd->add_option("--trusted-proxy", cfg->trusted_proxies,
                  "The address of a front door (HAProxy, nginx) whose connections carry the client's address in "
                  "X-Forwarded-For; from any other peer that header is ignored; repeatable")
      ->check(
          [](const std::string& a) -> std::string {
            unsigned char buf[sizeof(in6_addr)];
            if (inet_pton(AF_INET, a.c_str(), buf) == 1 || inet_pton(AF_INET6, a.c_str(), buf) == 1) return "";
            return fmt::format("'{}' is not an IP address (such as 127.0.0.1 or ::1)", a);
          },
          "IP");
  cmd->add_option("--node-id", cfg->hub.node_id,
                  "Several nodes on one PostgreSQL (docs/server.md, \"Beyond one machine\"): this node's name, "
                  "unique among them ('auto': made up at start); each node then plays the tables of the shards it "
                  "holds a lease on");
  cmd->add_option("--shards", cfg->hub.shards,
                  "Several nodes: how many shards the tables are spread over (the same "
                  "on every node of a database)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--lease", cfg->hub.lease_s,
                  "Several nodes: seconds a shard's lease lasts without renewal (a lost node's tables move after it)")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  cmd->add_option("--new-player-rate", cfg->limits.new_player.rate,
                  "New players per second per client address, besides --player-rate (over hours)")
      ->capture_default_str();
  cmd->add_option("--new-player-burst", cfg->limits.new_player.burst, "New players at once per client address")
      ->capture_default_str();
  auto operator_file = std::make_shared<std::string>();
  cmd->add_option("--operator-token-file", *operator_file,
                  "A file holding the operator's token (its first line, 16 characters at least): POST "
                  "/api/operator/reports with it lists the players' reports (docs/server.md)");
  cmd->callback([=] {
    cfg->full_sync = *sync == "full";
    if (!operator_file->empty()) {
      // From a file, not the command line: another user's `ps` never shows it.
      std::ifstream f(*operator_file);
      if (!f) throw Error(fmt::format("cannot read the operator token file '{}'", *operator_file));
      std::string token;
      std::getline(f, token);
      while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
      if (token.size() < 16)
        throw Error(fmt::format("the operator token in '{}' is too short: 16 characters at least", *operator_file));
      cfg->hub.operator_token = token;
    }
    if (cfg->hub.node_id == "auto") cfg->hub.node_id = "n" + server::random_hex(4);
    if (cfg->static_dir == "none")
      cfg->static_dir.clear();
    else if (cfg->static_dir.empty()) {
      // The browser app (web/, built into web/dist by scripts/setup.sh): next
      // to the working directory, or to the program's own build folder.
      std::error_code ec;
      const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
      for (const auto& dir : {std::filesystem::path("web/dist"), exe.parent_path().parent_path() / "web/dist"})
        if (!dir.empty() && std::filesystem::is_regular_file(dir / "index.html", ec)) {
          cfg->static_dir = dir.string();
          break;
        }
    }
    // The signals are waited for by this thread only.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    server::Server srv(*cfg);
    srv.start();
    std::cout << fmt::format(
                     "boneyard serve: listening on http://{}:{} (database {}{})", cfg->host, srv.port(),
                     server::redact_db(cfg->db),
                     cfg->static_dir.empty() ? std::string(", no static files") : ", app from " + cfg->static_dir)
              << std::endl;
    int sig = 0;
    sigwait(&set, &sig);
    std::cout << "boneyard serve: stopping" << std::endl;
    srv.stop();
  });
}

}  // namespace boneyard::cli
