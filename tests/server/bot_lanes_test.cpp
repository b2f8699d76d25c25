// Fair bot scheduling (docs/server.md, "Bots"): cheap bots (beginner,
// casual) never wait behind strong or expert thinking, and one address's
// tables cannot take every strong/expert thread. Counts moves, never time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <thread>

#include "core/game.h"
#include "server/storage.h"
#include "server/tables.h"
#include "test_store.h"

namespace boneyard {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

struct World {
  boost::asio::io_context ioc;
  server::Storage db{test::test_db(":memory:"), false};
  std::unique_ptr<server::Hub> hub;
  explicit World(int strong_threads, int bot_pipeline = 64) {
    register_all_games();
    server::HubConfig cfg;
    cfg.bot_threads = 2;
    cfg.strong_threads = strong_threads;
    cfg.strong_per_client = 1;
    cfg.expert_ms = 60;
    cfg.expert_threads = 1;
    cfg.bot_pipeline = bot_pipeline;
    hub = std::make_unique<server::Hub>(db, ioc, cfg);
  }
  json table(const std::string& level, const std::string& client) {
    const std::string b = "bot:" + level;
    return hub->create({{"game", "latin"}, {"seats", {b, b, b, b}}, {"bot_delay_ms", 0}}, client);
  }
  int64_t version(const json& t) { return hub->get(t["id"], t["spectate"])["version"].get<int64_t>(); }
  int64_t versions(const std::vector<json>& ts) {
    int64_t n = 0;
    for (const auto& t : ts) n += version(t);
    return n;
  }
};

TEST(BotLanes, CheapBotsNeverWaitBehindExpertOnes) {
  World w(1);
  std::vector<json> experts;
  for (int i = 0; i < 6; ++i) experts.push_back(w.table("expert", fmt::format("10.0.0.{}", i)));
  std::this_thread::sleep_for(100ms);  // every expert table thinking or queued
  const int64_t before = w.versions(experts);
  const json casual = w.table("casual", "10.0.1.1");
  const auto end = std::chrono::steady_clock::now() + 120s;
  while (w.hub->get(casual["id"], casual["spectate"])["status"] != "over" && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(5ms);
  const int64_t expert_moves = w.versions(experts) - before;
  const int64_t casual_moves = w.version(casual);
  ASSERT_EQ(w.hub->get(casual["id"], casual["spectate"])["status"], "over");
  // A whole casual game (hundreds of moves) while the experts made a few.
  EXPECT_GT(casual_moves, 100);
  EXPECT_LT(expert_moves * 10, casual_moves)
      << expert_moves << " expert moves during a casual game of " << casual_moves;
}

TEST(BotLanes, OneAddressCannotTakeEveryStrongThread) {
  World w(2);
  std::vector<json> crowd;
  for (int i = 0; i < 6; ++i) crowd.push_back(w.table("expert", "10.0.0.1"));  // one address, many tables
  const json alone = w.table("expert", "10.0.0.2");
  std::this_thread::sleep_for(100ms);
  const int64_t crowd0 = w.versions(crowd), alone0 = w.version(alone);
  const auto end = std::chrono::steady_clock::now() + 120s;
  while (w.version(alone) - alone0 < 12 && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
  const int64_t crowd_moves = w.versions(crowd) - crowd0, alone_moves = w.version(alone) - alone0;
  ASSERT_GE(alone_moves, 12);
  // Each address has one strong/expert thread at a time: the six tables
  // together move about as often as the one (without the cap: six times).
  EXPECT_LE(crowd_moves, 2 * alone_moves + 4)
      << crowd_moves << " moves of six tables of one address against " << alone_moves;
}

// The gate: at most bot_pipeline cheap bots' moves between decision and
// broadcast, and every slot comes back (the games all end).
TEST(BotLanes, TheGateBoundsBotMovesInFlight) {
  for (int cap : {2, 0}) {
    World w(1, cap);
    std::vector<json> tables;
    for (int i = 0; i < 12; ++i) tables.push_back(w.table("beginner", ""));
    const auto end = std::chrono::steady_clock::now() + 120s;
    auto over = [&] {
      for (const auto& t : tables)
        if (w.hub->get(t["id"], t["spectate"])["status"] != "over") return false;
      return true;
    };
    while (!over() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(over()) << "cap " << cap;
    if (cap > 0)
      EXPECT_LE(w.hub->gate_peak(), cap);
    else
      EXPECT_GT(w.hub->gate_peak(), 2) << "without a cap, twelve tables have more moves in flight";
  }
}

// A bot going on with its own turn (its move was the last one; chance in
// between does not count) waits a third of the table's delay; one whose turn
// follows another seat's, the whole delay.
TEST(BotLanes, ABotGoingOnWithItsTurnWaitsAThird) {
  auto move = [](int seat) { return RecordEvent{false, seat, "x"}; };
  const RecordEvent chance{true, -1, "deal"};
  using server::Bots;
  EXPECT_EQ(Bots::pause_ms({}, 0, 600), 600);
  EXPECT_EQ(Bots::pause_ms({chance}, 0, 600), 600);
  EXPECT_EQ(Bots::pause_ms({chance, move(1)}, 1, 600), 200);
  EXPECT_EQ(Bots::pause_ms({chance, move(1), chance}, 1, 600), 200);
  EXPECT_EQ(Bots::pause_ms({chance, move(1)}, 2, 600), 600);
  EXPECT_EQ(Bots::pause_ms({move(1), move(2)}, 1, 600), 600);
}

}  // namespace
}  // namespace boneyard
