// boneyard lobby-bench: how fast a lobby change reaches its watchers. Runs
// a server in this process on loopback, connects WebSocket watchers to
// /ws/lobby (on threads of their own), then makes lobby changes at a steady
// pace (a public table opens, a seat is taken, a full table leaves) and
// measures, for every change and every watcher, the time from the change
// to its arrival at the watcher.
// clang-format off: Boost.Asio uses std::exchange without including <utility>
#include <utility>
// clang-format on
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

#include "cli/common.h"
#include "server/net.h"

namespace boneyard::cli {

namespace {
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

int64_t wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A watcher notes, for each change, its delay (now - the message's at_us),
// read without parsing the whole message.
struct LobbyWatcher : std::enable_shared_from_this<LobbyWatcher> {
  websocket::stream<beast::tcp_stream> ws;
  beast::flat_buffer buf;
  std::vector<double> delays_ms;
  std::atomic<bool> ready{false}, failed{false};
  std::atomic<int64_t> changes{0}, gaps{0};
  int64_t version = -1;
  explicit LobbyWatcher(net::io_context& ioc) : ws(net::make_strand(ioc)) {}
  void start(unsigned short port) {
    beast::get_lowest_layer(ws).async_connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [self = shared_from_this()](beast::error_code ec) {
          if (ec) return void(self->failed = true);
          self->ws.async_handshake("127.0.0.1", "/ws/lobby", [self](beast::error_code ec2) {
            if (ec2) return void(self->failed = true);
            self->read();
          });
        });
  }
  void read() {
    ws.async_read(buf, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      const int64_t now = wall_us();
      const auto d = self->buf.data();
      const std::string_view s(static_cast<const char*>(d.data()), d.size());
      const int64_t v = number_after(s, "\"version\":");
      if (s.find("\"type\":\"lobby_change\"") != std::string_view::npos) {
        self->delays_ms.push_back(static_cast<double>(now - number_after(s, "\"at_us\":")) / 1000);
        ++self->changes;
        if (self->version >= 0 && v != self->version + 1) ++self->gaps;
      } else {
        self->ready = true;
      }
      self->version = v;
      self->buf.consume(self->buf.size());
      self->read();
    });
  }
};

}  // namespace

void add_lobby_bench(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("lobby-bench", "Load-test the lobby's feed: how long a change takes to reach every watcher");
  auto watchers = std::make_shared<int>(1000);
  auto changes = std::make_shared<int>(300);
  auto rate = std::make_shared<double>(50);
  auto threads = std::make_shared<int>(2);
  auto rounds = std::make_shared<int>(50);
  auto as_json = std::make_shared<bool>(false);
  cmd->add_option("--watchers", *watchers, "Lobby watchers (WebSockets on /ws/lobby)")
      ->check(CLI::Range(1, 20000))
      ->capture_default_str();
  cmd->add_option("--changes", *changes, "Lobby changes to make")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--rate", *rate, "Changes per second")->check(CLI::Range(0.1, 10000.0))->capture_default_str();
  cmd->add_option("--threads", *threads, "Server network threads (the watchers get as many of their own)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--quickmatch-rounds", *rounds, "Quick matches of four players to time (0: none)")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_flag("--json", *as_json, "One JSON object on stdout instead of the report");
  cmd->callback([=] {
    namespace fs = std::filesystem;
    const fs::path db = fs::temp_directory_path() / fmt::format("boneyard-lobby-bench-{}.db", getpid());
    for (const char* ext : {"", "-wal", "-shm", ".lock"}) fs::remove(db.string() + ext);
    server::ServerConfig c;
    c.port = 0;
    c.db = db.string();
    c.full_sync = false;
    c.io_threads = *threads;
    c.hub.claim_s = 3600;
    c.hub.max_tables_per_client = 0;  // every bench player comes from one address
    // Every watcher comes from loopback: the per-address share would refuse all but 64.
    c.limits.max_connections_per_address = c.limits.max_connections = static_cast<size_t>(*watchers) + 1024;
    std::vector<double> all;
    int64_t got = 0, gaps = 0, failed = 0;
    double seconds = 0;
    std::vector<double> qm_ms;
    {
      server::Server srv(c);
      srv.start();
      net::io_context ioc;
      auto guard = net::make_work_guard(ioc);
      std::vector<std::shared_ptr<LobbyWatcher>> ws;
      for (int i = 0; i < *watchers; ++i) {
        ws.push_back(std::make_shared<LobbyWatcher>(ioc));
        ws.back()->start(srv.port());
      }
      std::vector<std::thread> pool;
      for (int i = 0; i < *threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      auto waiting = [&] {
        return std::count_if(ws.begin(), ws.end(), [](const auto& w) { return !w->ready && !w->failed; });
      };
      while (waiting() > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (!*as_json)
        std::cerr << fmt::format("lobby-bench: {} watchers connected; {} changes at {}/s\n", *watchers, *changes,
                                 *rate);
      // The changes: a public table of two open seats opens (1), both seats
      // are taken (2, and the full table leaves the lobby: 3).
      const auto t0 = std::chrono::steady_clock::now();
      const auto step = std::chrono::duration<double>(1.0 / *rate);
      std::string open_table;
      for (int i = 0; i < *changes; ++i) {
        std::this_thread::sleep_until(t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(step * i));
        if (open_table.empty()) {
          open_table =
              srv.hub()
                  .create({{"game", "latin"}, {"seats", {"human", "open", "bot:casual", "open"}}, {"public", true}})
                  .at("id");
        } else {
          const json r = srv.hub().sit(open_table, json::object());
          if (r.at("seat") == 3) open_table.clear();
        }
        if (!*as_json && (i + 1) % 50 == 0)
          std::cerr << fmt::format("\r  {}/{} changes", i + 1, *changes) << std::flush;
      }
      // Every watcher's last change (bounded).
      const int64_t want = *changes;
      const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (std::chrono::steady_clock::now() < end &&
             std::any_of(ws.begin(), ws.end(), [&](const auto& w) { return !w->failed && w->changes < want; }))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      // Quick match: four players wait; the time from the fourth's request
      // until all four hold a seat at one table.
      for (int r = 0; r < *rounds; ++r) {
        std::vector<std::string> keys;
        for (int i = 0; i < 4; ++i)
          keys.push_back(srv.hub().create_player({{"name", fmt::format("Bench {}", i)}}).at("key"));
        for (int i = 0; i < 3; ++i)
          srv.hub().quickmatch_join({{"key", keys[static_cast<size_t>(i)]}, {"game", "latin"}});
        const auto q0 = std::chrono::steady_clock::now();
        srv.hub().quickmatch_join({{"key", keys[3]}, {"game", "latin"}});
        std::set<std::string> tables;
        for (const auto& k : keys) {
          const json st = srv.hub().quickmatch_status({{"key", k}});
          if (st.at("status") == "seated") tables.insert(st.at("table").get<std::string>());
        }
        if (tables.size() != 1) throw Error("lobby-bench: a quick match did not seat its four players at one table");
        qm_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - q0).count());
      }
      guard.reset();
      ioc.stop();
      for (auto& t : pool) t.join();
      for (const auto& w : ws) {
        all.insert(all.end(), w->delays_ms.begin(), w->delays_ms.end());
        got += w->changes;
        gaps += w->gaps;
        failed += w->failed || w->changes < want;
      }
      srv.stop();
    }
    for (const char* ext : {"", "-wal", "-shm", ".lock"}) fs::remove(db.string() + ext);
    std::sort(all.begin(), all.end());
    std::sort(qm_ms.begin(), qm_ms.end());
    auto qpct = [&](double q) {
      return qm_ms.empty()
                 ? 0.0
                 : qm_ms[std::min(qm_ms.size() - 1, static_cast<size_t>(static_cast<double>(qm_ms.size()) * q))];
    };
    auto pct = [&](double q) {
      return all.empty() ? 0.0
                         : all[std::min(all.size() - 1, static_cast<size_t>(static_cast<double>(all.size()) * q))];
    };
    const json out{{"watchers", *watchers},
                   {"changes", *changes},
                   {"rate", *rate},
                   {"delivered", got},
                   {"expected", static_cast<int64_t>(*watchers) * *changes},
                   {"gaps", gaps},
                   {"incomplete_watchers", failed},
                   {"p50_ms", pct(0.5)},
                   {"p99_ms", pct(0.99)},
                   {"max_ms", all.empty() ? 0.0 : all.back()},
                   {"seconds", seconds},
                   {"quickmatch_rounds", qm_ms.size()},
                   {"quickmatch_p50_ms", qpct(0.5)},
                   {"quickmatch_p99_ms", qpct(0.99)}};
    if (*as_json) {
      std::cout << out.dump() << "\n";
    } else {
      std::cerr << "\n";
      std::cout << fmt::format(
          "lobby-bench: {} watchers, {} changes at {}/s\n"
          "  change -> every watcher: p50 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms\n"
          "  delivered {} of {} (gaps in versions: {}; watchers that missed changes or failed: {})\n"
          "  quick match, four waiting players seated at one table ({} rounds): p50 {:.3f} ms, p99 {:.3f} ms\n",
          *watchers, *changes, *rate, pct(0.5), pct(0.99), all.empty() ? 0.0 : all.back(), got,
          static_cast<int64_t>(*watchers) * *changes, gaps, failed, qm_ms.size(), qpct(0.5), qpct(0.99));
    }
    if (failed > 0 || gaps > 0) throw Error("lobby-bench: some watchers missed changes (see above)");
  });
}

}  // namespace boneyard::cli
