// Rated play people can trust (issue 32 item 4): a real `boneyard serve` is
// killed (SIGKILL) at random moments while bursts of rated games end, and
// started again on the same database. After each restart every finished
// rated game is in each of its players' rating histories exactly once (and
// counted once in their games), and no unfinished game is.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "child_server.h"
#include "client.h"
#include "test_store.h"

namespace boneyard::test {
namespace {

using nlohmann::json;

struct RatedTable {
  std::string id;
  std::string tokens[2];
  int players[2];
  bool over = false;
};

class FairPlayCrash : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = temp_dir("boneyard-fairplay-crash", "t"); }
  void TearDown() override {
    if (srv_.pid > 0) kill_hard(srv_);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  void start(const std::string& db) {
    srv_ = spawn_server(db, {"--trusted-proxy", "127.0.0.1", "--player-burst", "100"});
    ASSERT_GT(srv_.port, 0);
  }
  static std::string address(int player) { return fmt::format("10.{}.0.1", player + 1); }
  // A rated two-player game to one hand between players a and b, each
  // joined from an address of their own.
  RatedTable table(int a, int b) {
    const Reply made = post_from(address(a), srv_.port, "/api/tables",
                                 {{"game", "latin"},
                                  {"options", {{"players", "2"}, {"target", "1"}}},
                                  {"seats", {"human", "human"}},
                                  {"rated", true}});
    EXPECT_EQ(made.status, 201) << made.body;
    RatedTable t{made.j["id"], {made.j["tokens"]["0"], made.j["tokens"]["1"]}, {a, b}};
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(post_from(address(t.players[k]), srv_.port, "/api/tables/" + t.id + "/join",
                          {{"token", t.tokens[k]}, {"key", keys_[static_cast<size_t>(t.players[k])]}})
                    .status,
                200);
    return t;
  }
  // One move at each table whose seat is to act (first legal move); false
  // once every table is over. Throws when the server is gone.
  bool step(std::vector<RatedTable>& tables) {
    bool live = false;
    for (auto& t : tables) {
      if (t.over) continue;
      for (int k = 0; k < 2; ++k) {
        const Reply r = get(srv_.port, "/api/tables/" + t.id + "?token=" + t.tokens[k]);
        if (r.status != 200) throw std::runtime_error("server gone");
        if (r.j["status"] == "over") {
          t.over = true;
          break;
        }
        if (r.j["to_act"] == true) {
          post(srv_.port, "/api/tables/" + t.id + "/moves", {{"token", t.tokens[k]}, {"move", r.j["legal"][0]}});
          ++moves_;
          break;
        }
      }
      live |= !t.over;
    }
    return live;
  }
  // Which tables each player's rating history holds, and their games count.
  void check_ratings(std::vector<RatedTable>& tables, const std::string& when) {
    for (auto& t : tables)
      t.over = get(srv_.port, "/api/tables/" + t.id + "?token=" + t.tokens[0]).j["status"] == "over";
    for (size_t p = 0; p < ids_.size(); ++p) {
      const json page = get(srv_.port, "/api/players/" + ids_[p]).j;
      const json line = page["ratings"].value("line", json::object());
      std::multiset<std::string> held;
      for (const auto& h : line.value("history", json::array())) held.insert(h["table"].get<std::string>());
      int finished = 0;
      for (const auto& t : tables) {
        if (t.players[0] != static_cast<int>(p) && t.players[1] != static_cast<int>(p)) continue;
        finished += t.over;
        EXPECT_EQ(held.count(t.id), t.over ? 1u : 0u)
            << when << ": player " << p << ", table " << t.id << (t.over ? " (over)" : " (not over)");
      }
      EXPECT_EQ(line.value("games", 0), finished) << when << ": player " << p << "'s rated games";
    }
  }
  std::filesystem::path dir_;
  Child srv_;
  std::vector<std::string> ids_, keys_;
  std::atomic<int> moves_{0};  // moves posted so far
};

TEST_F(FairPlayCrash, EveryFinishedRatedGameIsRatedOnceWhateverMomentTheServerIsKilled) {
  const std::string db = test_db((dir_ / "crash.db").string());
  start(db);
  constexpr int kPlayers = 8;
  for (int p = 0; p < kPlayers; ++p) {
    const Reply r = post_from(address(p), srv_.port, "/api/players", {{"name", fmt::format("Crash {}", p)}});
    ASSERT_EQ(r.status, 201) << r.body;
    ids_.push_back(r.j["id"]);
    keys_.push_back(r.j["key"]);
  }
  std::mt19937 rng(20261128);
  std::vector<RatedTable> tables;
  int kills = 0, over_at_kills = 0, live_at_kills = 0;
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 6; ++i) {  // a burst of games, ending close together
      const int a = (round + 2 * i) % kPlayers, b = (round + 2 * i + 1 + round) % kPlayers;
      tables.push_back(table(a, b == a ? (a + 1) % kPlayers : b));
    }
    // Play from another thread; kill the server after a random number of
    // its moves (a burst of six one-hand games is about 100 to 150), so the
    // kill falls among games ending whatever the machine's speed.
    std::atomic<bool> gone{false}, done{false};
    const int kill_at = moves_ + std::uniform_int_distribution<int>(20, 120)(rng);
    std::thread player([&] {
      try {
        while (!gone && step(tables)) {
        }
      } catch (const std::exception&) {  // the server was killed mid-request
      }
      done = true;
    });
    while (!done && moves_ < kill_at) std::this_thread::sleep_for(std::chrono::microseconds(200));
    gone = true;
    kill_hard(srv_);
    ++kills;
    player.join();
    start(db);
    check_ratings(tables, fmt::format("after kill {}", kills));
    for (const auto& t : tables) (t.over ? over_at_kills : live_at_kills) += 1;
  }
  // The kills fell inside the bursts: games had ended and others not yet.
  EXPECT_GT(over_at_kills, 0);
  EXPECT_GT(live_at_kills, 0);
  // Every game played out; ratings as the games say, after one more restart.
  while (step(tables)) {
  }
  kill_hard(srv_);
  start(db);
  check_ratings(tables, "at the end");
  int over = 0;
  for (const auto& t : tables) over += t.over;
  EXPECT_EQ(over, static_cast<int>(tables.size()));
}

}  // namespace
}  // namespace boneyard::test
