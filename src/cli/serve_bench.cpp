// boneyard serve-bench: a load generator for the game server. Runs a server
// in this process on loopback and the WebSocket watchers in a child process
// of their own (so the load's CPU and memory are measured apart from the
// server's), plays many tables of bots at full speed, and reports each move's
// latency from its arrival to its broadcast, the server's peak memory and
// CPU, and whether any move was lost or duplicated. The store is a fresh
// SQLite file, or the PostgreSQL database that --db names (then that
// server's own CPU and memory are reported apart, when it runs here).
// clang-format off: Boost.Asio uses std::exchange without including <utility>
#include <utility>
// clang-format on
#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "cli/common.h"
#include "server/net.h"
#include "server/replay.h"
#include "server/storage.h"

namespace boneyard::cli {

namespace {
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

// A watcher reads only what it checks (the version and whether it is over),
// without parsing the whole message: the load must cost little.
struct Watcher : std::enable_shared_from_this<Watcher> {
  websocket::stream<beast::tcp_stream> ws;
  beast::flat_buffer buf;
  std::string target;
  std::atomic<int64_t> last{-1};
  std::atomic<bool> over{false}, failed{false};
  std::atomic<uint64_t> msgs{0}, repeats{0}, backwards{0};
  explicit Watcher(net::io_context& ioc) : ws(net::make_strand(ioc)) {}
  void start(unsigned short port) {
    beast::get_lowest_layer(ws).async_connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [self = shared_from_this()](beast::error_code ec) {
          if (ec) return self->fail();
          self->ws.async_handshake("127.0.0.1", self->target, [self](beast::error_code ec2) {
            if (ec2) return self->fail();
            self->read();
          });
        });
  }
  void fail() { failed = true; }
  void read() {
    ws.async_read(buf, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) {
        if (!self->over) self->failed = true;
        return;
      }
      const auto d = self->buf.data();
      const std::string_view s(static_cast<const char*>(d.data()), d.size());
      ++self->msgs;
      if (s.find("\"type\":\"state\"") != std::string_view::npos) {
        const int64_t v = number_after(s, "\"version\":");
        if (v >= 0) {
          if (v < self->last)
            ++self->backwards;
          else if (v == self->last)
            ++self->repeats;
          self->last = v;
        }
        if (s.find("\"status\":\"over\"") != std::string_view::npos) {
          self->over = true;
          beast::error_code e;
          beast::get_lowest_layer(self->ws).socket().close(e);
          return;
        }
      }
      self->buf.consume(self->buf.size());
      self->read();
    });
  }
};

double cpu_s(const rusage& r) {
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

// The load process: reads "PORT THREADS" and one target per line, then an
// empty line; connects every watcher and answers "ready"; then, when told
// "finish", waits (bounded) for every watcher to see its game's end and
// answers one line per watcher ("last msgs repeats backwards failed over")
// and its own CPU seconds and peak RSS.
int load_process(FILE* in, FILE* out) {
  // Thousands of watchers need thousands of descriptors: the soft limit up
  // to the hard one, as the server does (a stock shell's 1,024 failed most).
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  unsigned port = 0;
  int threads = 1;
  if (std::fscanf(in, "%u %d\n", &port, &threads) != 2) return 2;
  std::vector<std::string> targets;
  char line[512];
  while (std::fgets(line, sizeof line, in)) {
    std::string t(line);
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
    if (t.empty()) break;
    targets.push_back(t);
  }
  net::io_context ioc;
  auto guard = net::make_work_guard(ioc);
  std::vector<std::shared_ptr<Watcher>> ws;
  for (const auto& t : targets) {
    auto w = std::make_shared<Watcher>(ioc);
    w->target = t;
    w->start(static_cast<unsigned short>(port));
    ws.push_back(w);
  }
  std::vector<std::thread> runners;
  for (int i = 0; i < std::max(1, threads); ++i) runners.emplace_back([&] { ioc.run(); });
  for (int k = 0; k < 12000; ++k) {
    size_t ready = 0;
    for (auto& w : ws) ready += w->msgs > 0 || w->failed;
    if (ready == ws.size()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::fprintf(out, "ready\n");
  std::fflush(out);
  if (!std::fgets(line, sizeof line, in)) return 2;  // "finish"
  for (int k = 0; k < 4000; ++k) {
    size_t done = 0;
    for (auto& w : ws) done += w->over || w->failed;
    if (done == ws.size()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  guard.reset();
  ioc.stop();
  for (auto& r : runners) r.join();
  for (auto& w : ws)
    std::fprintf(out, "%lld %llu %llu %llu %d %d\n", static_cast<long long>(w->last.load()),
                 static_cast<unsigned long long>(w->msgs.load()), static_cast<unsigned long long>(w->repeats.load()),
                 static_cast<unsigned long long>(w->backwards.load()), w->failed ? 1 : 0, w->over ? 1 : 0);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::fprintf(out, "%.3f %ld\n", cpu_s(ru), ru.ru_maxrss);
  std::fflush(out);
  ws.clear();
  return 0;
}

// The PostgreSQL server's processes on this machine (comm "postgres"): CPU
// seconds so far, and memory as PSS (shared buffers counted once, not once
// per backend). Backends that ended meanwhile are not counted.
struct PgUsage {
  double cpu_s = 0, pss_mib = 0;
  int processes = 0;
};
PgUsage postgres_usage() {
  PgUsage u;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string pid = e.path().filename().string();
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0]))) continue;
    std::ifstream comm(e.path() / "comm");
    std::string name;
    if (!std::getline(comm, name) || name != "postgres") continue;
    std::ifstream stat(e.path() / "stat");
    std::string all((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t close = all.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(all.substr(close + 2));
    std::string f;
    unsigned long long utime = 0, stime = 0;
    for (int k = 3; k <= 15 && fields >> f; ++k) {
      if (k == 14) utime = std::stoull(f);
      if (k == 15) stime = std::stoull(f);
    }
    u.cpu_s += static_cast<double>(utime + stime) / tick;
    std::ifstream smaps(e.path() / "smaps_rollup");
    std::string line;
    while (std::getline(smaps, line))
      if (line.rfind("Pss:", 0) == 0) u.pss_mib += std::stod(line.substr(4)) / 1024;
    ++u.processes;
  }
  return u;
}

}  // namespace

void add_serve_bench(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "serve-bench",
      "Load-test the game server: tables of bots at full speed in this process, WebSocket watchers in a child process");
  auto tables = std::make_shared<int>(500);
  auto watchers = std::make_shared<int>(500);
  auto game = std::make_shared<std::string>("latin");
  auto level = std::make_shared<std::string>("casual");
  auto sync = std::make_shared<std::string>("normal");
  auto threads = std::make_shared<int>(2);
  auto bot_threads = std::make_shared<int>(0);
  auto bot_pipeline = std::make_shared<int>(server::HubConfig{}.bot_pipeline);
  auto load_threads = std::make_shared<int>(2);
  auto timeout = std::make_shared<double>(600);
  auto db_url = std::make_shared<std::string>();
  auto db_pool = std::make_shared<int>(server::ServerConfig{}.db_pool);
  cmd->add_option("--tables", *tables, "Tables of bots, all playing at once")->capture_default_str();
  cmd->add_option("--watchers", *watchers, "WebSocket spectators (spread over the tables)")->capture_default_str();
  cmd->add_option("--game", *game, "Game or preset")->capture_default_str();
  cmd->add_option("--level", *level, "Bot level")
      ->check(CLI::IsMember({"beginner", "casual", "strong", "expert"}))
      ->capture_default_str();
  cmd->add_option("--db", *db_url,
                  "The store: a postgresql:// URL (an empty database is best: its unfinished tables load too) "
                  "or an SQLite file (default: a fresh one in the temporary folder, removed after)");
  cmd->add_option("--db-pool", *db_pool, "PostgreSQL: connections for reads")->capture_default_str();
  cmd->add_option("--sync", *sync, "SQLite synchronous mode; PostgreSQL: full sets synchronous_commit=on")
      ->check(CLI::IsMember({"full", "normal"}))
      ->capture_default_str();
  cmd->add_option("--threads", *threads, "Server network threads")->capture_default_str();
  cmd->add_option("--bot-threads", *bot_threads, "Bot threads (0: one per core)")->capture_default_str();
  cmd->add_option("--bot-pipeline", *bot_pipeline,
                  "Bots' moves between decision and broadcast, at most (0: no cap; see serve --help)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--load-threads", *load_threads, "Threads of the watchers' process")->capture_default_str();
  cmd->add_option("--timeout-s", *timeout, "Give up after this long")->capture_default_str();
  cmd->callback([=] {
    namespace fs = std::filesystem;
    // The load process first, while this one has no threads yet (fork).
    int to_load[2], from_load[2];
    if (pipe(to_load) != 0 || pipe(from_load) != 0) throw Error("serve-bench: cannot make pipes");
    const pid_t child = fork();
    if (child < 0) throw Error("serve-bench: cannot start the load process");
    if (child == 0) {
      close(to_load[1]);
      close(from_load[0]);
      FILE* in = fdopen(to_load[0], "r");
      FILE* out = fdopen(from_load[1], "w");
      _exit(in && out ? load_process(in, out) : 2);
    }
    close(to_load[0]);
    close(from_load[1]);
    FILE* to = fdopen(to_load[1], "w");
    FILE* from = fdopen(from_load[0], "r");

    const bool temp_db = db_url->empty();
    const fs::path db =
        temp_db ? fs::temp_directory_path() / fmt::format("boneyard-serve-bench-{}.db", getpid()) : fs::path(*db_url);
    const bool pg = server::is_postgres_url(db.string());
    if (temp_db)
      for (const char* ext : {"", "-wal", "-shm", ".lock"}) fs::remove(db.string() + ext);
    server::ServerConfig c;
    c.port = 0;
    c.db = db.string();
    c.db_pool = *db_pool;
    c.full_sync = *sync == "full";
    c.io_threads = *threads;
    c.hub.bot_threads = *bot_threads;
    c.hub.bot_pipeline = *bot_pipeline;
    c.hub.measure = true;
    // Every watcher comes from one address (loopback): the per-address
    // share would refuse all but 64 of them.
    c.limits.max_connections_per_address = c.limits.max_connections = static_cast<size_t>(*watchers) + 1024;
    std::vector<std::string> ids, specs;
    std::vector<int64_t> final_version, played;
    int64_t lost = 0, unfinished = 0, finished = 0;
    double elapsed = 0, server_cpu = 0, pg_cpu = 0, pg_pss = 0;
    int pg_procs = 0;
    uint64_t commits = 0;
    server::Storage::Checkpoints checkpoints;
    server::Histogram lat, durable, queued, sending, gated, commit_us;
    {
      server::Server srv(c);
      srv.start();
      // Watchers connect first, to tables that wait for their one human
      // seat; joining it (without a connection, so never a takeover) and
      // letting a bot play it starts each game with its watchers in place.
      const int n = find_game(*game).make({}, 0)->num_seats();
      std::vector<std::string> tokens;
      for (int i = 0; i < *tables; ++i) {
        std::vector<std::string> seats(static_cast<size_t>(n), "bot:" + *level);
        seats[0] = "human";
        json r = srv.hub().create(
            {{"game", *game}, {"seats", seats}, {"bot_delay_ms", 0}, {"drop_delay_ms", 0}, {"takeover_level", *level}});
        ids.push_back(r["id"]);
        specs.push_back(r["spectate"]);
        tokens.push_back(r["tokens"]["0"]);
      }
      std::fprintf(to, "%u %d\n", static_cast<unsigned>(srv.port()), *load_threads);
      for (int i = 0; i < *watchers && !ids.empty(); ++i) {
        const size_t t = static_cast<size_t>(i) % ids.size();
        std::fprintf(to, "/ws?table=%s&token=%s\n", ids[t].c_str(), specs[t].c_str());
      }
      std::fprintf(to, "\n");
      std::fflush(to);
      char line[256];
      if (!std::fgets(line, sizeof line, from)) throw Error("serve-bench: the load process failed");
      rusage ru0{};
      getrusage(RUSAGE_SELF, &ru0);
      const PgUsage pg0 = pg ? postgres_usage() : PgUsage{};
      const auto t0 = std::chrono::steady_clock::now();
      // Seat 0 plays through a connection that opens and closes at once:
      // the seat is taken over by a bot after drop_delay_ms = 0.
      for (size_t i = 0; i < ids.size(); ++i) {
        struct Null : server::Subscriber {
          void push(std::shared_ptr<const std::string>) override {}
        };
        auto sub = std::make_shared<Null>();
        const int seat = srv.hub().subscribe(ids[i], tokens[i], std::nullopt, sub);
        srv.hub().unsubscribe(ids[i], seat, sub.get());
      }
      const auto end = t0 + std::chrono::duration<double>(*timeout);
      // Polled cheaply (one table's state per poll while it plays): the
      // bench's own work in this process must not load the server.
      size_t next = 0;
      while (std::chrono::steady_clock::now() < end) {
        while (next < ids.size() && srv.hub().get(ids[next], specs[next])["status"] == "over") ++next;
        if (next == ids.size()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      for (size_t i = 0; i < ids.size(); ++i) finished += srv.hub().get(ids[i], specs[i])["status"] == "over";
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      rusage ru1{};
      getrusage(RUSAGE_SELF, &ru1);
      server_cpu = cpu_s(ru1) - cpu_s(ru0);
      if (pg) {
        const PgUsage pg1 = postgres_usage();
        pg_cpu = pg1.cpu_s - pg0.cpu_s;
        pg_pss = pg1.pss_mib;
        pg_procs = pg1.processes;
      }
      {
        std::lock_guard lk(srv.hub().stats().m);
        lat = srv.hub().stats().latency_us;
        durable = srv.hub().stats().durable_us;
        queued = srv.hub().stats().queued_us;
        sending = srv.hub().stats().sending_us;
        gated = srv.hub().stats().gated_us;
      }
      commit_us = srv.hub().storage_commit_us();
      commits = srv.hub().storage_commits();
      checkpoints = srv.hub().storage_checkpoints();
      // Final versions as the server has them.
      for (size_t i = 0; i < ids.size(); ++i)
        final_version.push_back(srv.hub().get(ids[i], specs[i])["version"].get<int64_t>());
      std::fprintf(to, "finish\n");
      std::fflush(to);
      // The server stays up until the load has seen every end.
      uint64_t msgs = 0, repeats = 0, backwards = 0, failed = 0, incomplete = 0;
      double load_cpu = 0;
      long load_rss = 0;
      for (int i = 0; i < *watchers && !ids.empty(); ++i) {
        long long last = -1;
        unsigned long long m = 0, r = 0, b = 0;
        int f = 0, o = 0;
        if (std::fscanf(from, "%lld %llu %llu %llu %d %d\n", &last, &m, &r, &b, &f, &o) != 6) {
          ++failed;
          continue;
        }
        msgs += m;
        repeats += r;
        backwards += b;
        failed += static_cast<uint64_t>(f);
        incomplete += !o || last != final_version[static_cast<size_t>(i) % ids.size()];
      }
      if (std::fscanf(from, "%lf %ld", &load_cpu, &load_rss) != 2) load_cpu = -1;
      std::fclose(to);
      std::fclose(from);
      waitpid(child, nullptr, 0);
      srv.stop();
      // What the server played in the end (a game cut by the timeout went
      // on until the stop), for the check against the database below.
      for (size_t i = 0; i < ids.size(); ++i)
        played.push_back(srv.hub().get(ids[i], specs[i])["version"].get<int64_t>());
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      auto pct = [](const server::Histogram& v, double q) { return v.quantile(q) / 1000; };
      std::cout << fmt::format(
                       "serve-bench: {} tables of {} bots ({}), {} watchers, {} network + {} bot threads, {} "
                       "synchronous={}\n"
                       "  games finished: {}/{} in {:.1f} s; moves: {} ({:.0f}/s), in {} transactions ({:.1f} writes "
                       "each); checkpoints: {} in the background, {} finished by the writer, {} whole by the writer\n"
                       "  move arrival -> broadcast: p50 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms\n"
                       "    of which arrival -> durable: p50 {:.3f} ms, p99 {:.3f} ms (one commit, its fsync included: "
                       "p50 {:.3f} ms, p99 {:.3f} ms)\n"
                       "    durable -> broadcast starts: p50 {:.3f} ms, p99 {:.3f} ms; the broadcast: p50 {:.3f} ms, "
                       "p99 {:.3f} ms\n"
                       "  before the arrival, a bot's wait at the gate ({} moves in flight at most): p50 {:.3f} ms, "
                       "p99 {:.3f} ms\n"
                       "  watchers: {} messages; {} failed, {} missed the end, {} re-sent versions (a join, disconnect "
                       "or takeover notice: no new event), {} out-of-order versions\n"
                       "  server: peak RSS {:.1f} MiB, CPU {:.1f} s during the games ({:.2f} cores); load process ({} "
                       "threads): CPU {:.1f} s in all, peak RSS {:.1f} MiB\n",
                       ids.size(), *level, *game, *watchers, c.io_threads,
                       c.hub.bot_threads > 0 ? c.hub.bot_threads
                                             : static_cast<int>(std::max(2u, std::thread::hardware_concurrency())),
                       pg ? "postgresql" : "sqlite", *sync, finished, ids.size(), elapsed, lat.count(),
                       static_cast<double>(lat.count()) / std::max(elapsed, 1e-9), commits,
                       static_cast<double>(ids.size() + lat.count()) /
                           static_cast<double>(std::max<uint64_t>(commits, 1)),
                       checkpoints.background, checkpoints.finished, checkpoints.whole, pct(lat, 0.5), pct(lat, 0.99),
                       lat.max() / 1000, pct(durable, 0.5), pct(durable, 0.99), pct(commit_us, 0.5),
                       pct(commit_us, 0.99), pct(queued, 0.5), pct(queued, 0.99), pct(sending, 0.5), pct(sending, 0.99),
                       c.hub.bot_pipeline, pct(gated, 0.5), pct(gated, 0.99), msgs, failed, incomplete, repeats,
                       backwards, static_cast<double>(ru.ru_maxrss) / 1024, server_cpu,
                       server_cpu / std::max(elapsed, 1e-9), *load_threads, load_cpu,
                       static_cast<double>(load_rss) / 1024)
                << std::flush;
      if (pg)
        std::cout << fmt::format(
                         "  postgresql ({}; its processes on this machine: {}): CPU {:.1f} s during the games ({:.2f} "
                         "cores), memory (PSS) {:.1f} MiB at the end\n",
                         server::redact_db(c.db), pg_procs, pg_cpu, pg_cpu / std::max(elapsed, 1e-9), pg_pss)
                  << std::flush;
    }
    // Nothing lost, nothing twice: the database, read back (the server is
    // gone: one process per database) and replayed from each table's seed,
    // holds exactly the events the server played.
    {
      server::Storage store(c.db, server::StoreOptions{false, c.db_pool});
      for (size_t i = 0; i < ids.size(); ++i) {
        const auto loaded = store.load(ids[i]);
        if (!loaded) {
          ++lost;
          continue;
        }
        const server::StoredTable& st = *loaded;
        // A game the timeout cut is unfinished, not lost: its stored events
        // must still be exactly those played.
        bool ok = static_cast<int64_t>(st.events.size()) == played[i];
        try {
          auto s = server::replay_from_seed(st.spec["game"], {}, st.meta["seed"].get<uint64_t>(), st.events);
          unfinished += !s->state().terminal();
        } catch (const std::exception&) {
          ok = false;
        }
        lost += !ok;
      }
    }
    std::cout << fmt::format(
                     "  tables whose stored events differ from what was played or do not replay: {} ({} games "
                     "unfinished when the server stopped)\n",
                     lost, unfinished)
              << std::flush;
    if (temp_db)
      for (const char* ext : {"", "-wal", "-shm", ".lock"}) fs::remove(db.string() + ext);
  });
}

}  // namespace boneyard::cli
