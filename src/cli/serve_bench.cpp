// boneyard serve-bench: a load generator for the game server. Runs a server
// in this process on loopback, plays many tables of bots at full speed with
// WebSocket watchers, and reports each move's latency from its arrival to its
// broadcast, peak memory, and whether any move was lost or duplicated.
#include <utility>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <utility>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
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

struct Watcher : std::enable_shared_from_this<Watcher> {
  websocket::stream<beast::tcp_stream> ws;
  beast::flat_buffer buf;
  std::string target;
  std::atomic<int64_t> last{-1};
  std::atomic<bool> over{false}, failed{false};
  std::atomic<uint64_t> msgs{0}, repeats{0}, backwards{0};
  explicit Watcher(net::io_context& ioc) : ws(net::make_strand(ioc)) {}
  void start(unsigned short port) {
    beast::get_lowest_layer(ws).async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                                              [self = shared_from_this()](beast::error_code ec) {
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
      const json j = json::parse(beast::buffers_to_string(self->buf.data()), nullptr, false);
      self->buf.consume(self->buf.size());
      ++self->msgs;
      if (!j.is_discarded() && j.value("type", "") == "state" && j.contains("version")) {
        const int64_t v = j["version"].get<int64_t>();
        if (v < self->last) ++self->backwards;
        else if (v == self->last) ++self->repeats;
        self->last = v;
        if (j.value("status", "") == "over") {
          self->over = true;
          beast::error_code e;
          beast::get_lowest_layer(self->ws).socket().close(e);
          return;
        }
      }
      self->read();
    });
  }
};

}  // namespace

void add_serve_bench(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve-bench", "Load-test the game server in this process: tables of bots at full speed, WebSocket watchers");
  auto tables = std::make_shared<int>(500);
  auto watchers = std::make_shared<int>(500);
  auto game = std::make_shared<std::string>("latin");
  auto level = std::make_shared<std::string>("casual");
  auto sync = std::make_shared<std::string>("normal");
  auto threads = std::make_shared<int>(2);
  auto bot_threads = std::make_shared<int>(0);
  auto timeout = std::make_shared<double>(600);
  cmd->add_option("--tables", *tables, "Tables of bots, all playing at once")->capture_default_str();
  cmd->add_option("--watchers", *watchers, "WebSocket spectators (spread over the tables)")->capture_default_str();
  cmd->add_option("--game", *game, "Game or preset")->capture_default_str();
  cmd->add_option("--level", *level, "Bot level")->check(CLI::IsMember({"beginner", "casual", "strong", "expert"}))->capture_default_str();
  cmd->add_option("--sync", *sync, "SQLite synchronous mode")->check(CLI::IsMember({"full", "normal"}))->capture_default_str();
  cmd->add_option("--threads", *threads, "Server network threads")->capture_default_str();
  cmd->add_option("--bot-threads", *bot_threads, "Bot threads (0: one per core)")->capture_default_str();
  cmd->add_option("--timeout-s", *timeout, "Give up after this long")->capture_default_str();
  cmd->callback([=] {
    namespace fs = std::filesystem;
    const fs::path db = fs::temp_directory_path() / fmt::format("boneyard-serve-bench-{}.db", getpid());
    for (const char* ext : {"", "-wal", "-shm"}) fs::remove(db.string() + ext);
    server::ServerConfig c;
    c.port = 0;
    c.db = db.string();
    c.full_sync = *sync == "full";
    c.io_threads = *threads;
    c.hub.bot_threads = *bot_threads;
    c.hub.measure = true;
    std::vector<std::string> ids, specs;
    int64_t lost = 0, finished = 0;
    double elapsed = 0;
    {
      server::Server srv(c);
      srv.start();
      net::io_context cioc;
      auto guard = net::make_work_guard(cioc);
      std::thread client([&] { cioc.run(); });
      std::vector<std::shared_ptr<Watcher>> ws;  // destroyed before their io_context
      // Watchers connect first, to tables that wait for their one human
      // seat; joining it (without a connection, so never a takeover) and
      // letting a bot play it starts each game with its watchers in place.
      const int n = find_game(*game).make({}, 0)->num_seats();
      std::vector<std::string> tokens;
      for (int i = 0; i < *tables; ++i) {
        std::vector<std::string> seats(static_cast<size_t>(n), "bot:" + *level);
        seats[0] = "human";
        json r = srv.hub().create({{"game", *game}, {"seats", seats}, {"bot_delay_ms", 0}, {"drop_delay_ms", 0},
                                   {"takeover_level", *level}});
        ids.push_back(r["id"]);
        specs.push_back(r["spectate"]);
        tokens.push_back(r["tokens"]["0"]);
      }
      for (int i = 0; i < *watchers && !ids.empty(); ++i) {
        auto w = std::make_shared<Watcher>(cioc);
        const size_t t = static_cast<size_t>(i) % ids.size();
        w->target = fmt::format("/ws?table={}&token={}", ids[t], specs[t]);
        w->start(srv.port());
        ws.push_back(w);
      }
      // Every watcher connected (or failed) before the games start.
      for (int k = 0; k < 10000; ++k) {
        size_t ready = 0;
        for (auto& w : ws) ready += w->msgs > 0 || w->failed;
        if (ready == ws.size()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
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
      while (std::chrono::steady_clock::now() < end) {
        finished = 0;
        for (size_t i = 0; i < ids.size(); ++i) finished += srv.hub().get(ids[i], specs[i])["status"] == "over";
        if (finished == static_cast<int64_t>(ids.size())) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::vector<double> lat;
      {
        std::lock_guard lk(srv.hub().stats().m);
        lat = srv.hub().stats().latency_us;
      }
      // Final versions as the server has them.
      std::vector<int64_t> final_version;
      for (size_t i = 0; i < ids.size(); ++i) final_version.push_back(srv.hub().get(ids[i], specs[i])["version"].get<int64_t>());
      for (int k = 0; k < 2000; ++k) {  // let the last broadcasts arrive
        size_t done = 0;
        for (auto& w : ws) done += w->over || w->failed;
        if (done == ws.size()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      srv.stop();
      guard.reset();
      cioc.stop();
      client.join();
      uint64_t msgs = 0, repeats = 0, backwards = 0, failed = 0, incomplete = 0;
      for (size_t i = 0; i < ws.size(); ++i) {
        msgs += ws[i]->msgs;
        repeats += ws[i]->repeats;
        backwards += ws[i]->backwards;
        failed += ws[i]->failed;
        incomplete += !ws[i]->over || ws[i]->last != final_version[i % ids.size()];
      }
      // Nothing lost, nothing twice: the database, read back and replayed
      // from each table's seed, holds exactly the events the server played.
      server::Storage store(c.db, false);
      for (const auto& st : store.load_all()) {
        const size_t i = static_cast<size_t>(std::find(ids.begin(), ids.end(), st.id) - ids.begin());
        if (i >= ids.size()) continue;
        bool ok = static_cast<int64_t>(st.events.size()) == final_version[i];
        try {
          auto s = server::replay_from_seed(st.spec["game"], {}, st.meta["seed"].get<uint64_t>(), st.events);
          ok &= s->state().terminal();
        } catch (const std::exception&) {
          ok = false;
        }
        lost += !ok;
      }
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      std::sort(lat.begin(), lat.end());
      std::cout << fmt::format(
          "serve-bench: {} tables of {} bots ({}), {} watchers, {} network + {} bot threads, sqlite synchronous={}\n"
          "  games finished: {}/{} in {:.1f} s; moves: {} ({:.0f}/s)\n"
          "  move arrival -> broadcast: p50 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms\n"
          "  watchers: {} messages; {} failed, {} missed the end, {} re-sent versions (a join, disconnect or takeover notice: no new event), {} out-of-order versions\n"
          "  tables whose stored events differ from what was played or do not replay: {}\n"
          "  peak RSS (server and watchers): {:.1f} MiB\n",
          ids.size(), *level, *game, ws.size(), c.io_threads, c.hub.bot_threads > 0 ? c.hub.bot_threads : static_cast<int>(std::max(2u, std::thread::hardware_concurrency())),
          *sync, finished, ids.size(), elapsed, lat.size(), static_cast<double>(lat.size()) / std::max(elapsed, 1e-9),
          lat.empty() ? 0 : lat[lat.size() / 2] / 1000, lat.empty() ? 0 : lat[std::min(lat.size() - 1, lat.size() * 99 / 100)] / 1000,
          lat.empty() ? 0 : lat.back() / 1000, msgs, failed, incomplete, repeats, backwards, lost,
          static_cast<double>(ru.ru_maxrss) / 1024)
                << std::flush;
      ws.clear();
    }
    for (const char* ext : {"", "-wal", "-shm"}) fs::remove(db.string() + ext);
  });
}

}  // namespace boneyard::cli
