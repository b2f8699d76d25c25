// What the browser app reads from the API beyond the game itself (issue 21):
// 64-bit numbers as exact strings.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "core/game.h"
#include "routes_world.h"
#include "server/http_routes.h"
#include "server/storage.h"
#include "server/tables.h"

namespace boneyard {
namespace {

using nlohmann::json;

struct App : test::RoutesWorld {
  // A latin table of four people played to its end, each seat's first legal move.
  json finished_table() {
    const json t =
        hub->create({{"game", "latin"}, {"options", {{"target", 1}}}, {"seats", {"human", "human", "human", "human"}}});
    const std::string id = t["id"];
    for (int k = 0; k < 4; ++k) hub->join(id, t["tokens"][std::to_string(k)], std::nullopt);
    for (int guard = 0; guard < 5000; ++guard) {
      if (hub->get(id, t["tokens"]["0"])["status"] == "over") return t;
      for (int k = 0; k < 4; ++k) {
        const std::string tok = t["tokens"][std::to_string(k)];
        const json mine = hub->get(id, tok);
        if (mine["to_act"] == true) {
          hub->move(id, tok, mine["legal"][0]);
          break;
        }
      }
    }
    ADD_FAILURE() << "the game did not end";
    return t;
  }
};

TEST(AppApi, SeedTravelsAsAnExactStringBesideTheNumber) {
  App a;
  const json t = a.finished_table();
  auto [status, f] = a.get("/api/tables/" + t["id"].get<std::string>() + "/fairness");
  ASSERT_EQ(status, 200) << f.dump();
  ASSERT_TRUE(f["seed"].is_number_unsigned()) << f.dump();
  ASSERT_TRUE(f["seed_text"].is_string()) << f.dump();
  EXPECT_EQ(f["seed_text"].get<std::string>(), std::to_string(f["seed"].get<uint64_t>()));
  const json rec = a.hub->record(t["id"]);
  EXPECT_EQ(rec["fairness"]["seed_text"].get<std::string>(), std::to_string(rec["fairness"]["seed"].get<uint64_t>()));
}

TEST(AppApi, AGameInProgressShowsNoSeed) {
  App a;
  const json t = a.hub->create({{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}});
  auto [status, f] = a.get("/api/tables/" + t["id"].get<std::string>() + "/fairness");
  ASSERT_EQ(status, 200);
  EXPECT_FALSE(f.contains("seed_text"));
  EXPECT_FALSE(f.contains("seed"));
}

// Plays every seat's first legal move other than a pass (so Texas 42 hands
// are bid and played) until `events` events are recorded or `hands` hands over.
void play_until(App& a, const json& t, std::size_t events, int hands = 1000) {
  const std::string id = t["id"];
  for (int guard = 0; guard < 5000; ++guard) {
    const json st = a.hub->get(id, t["tokens"]["0"]);
    if (st["status"] == "over" || st["version"].get<std::size_t>() >= events ||
        st["hands_finished"].get<int>() >= hands)
      return;
    for (int k = 0; k < 4; ++k) {
      const std::string tok = t["tokens"][std::to_string(k)];
      const json mine = a.hub->get(id, tok);
      if (mine["to_act"] != true) continue;
      const json& l = mine["legal"];
      a.hub->move(id, tok, l.size() > 1 && l[0] == "pass" ? l[1] : l[0]);
      break;
    }
  }
}

json people_table(App& a, const std::string& game, const json& options = json::object()) {
  const json t = a.hub->create({{"game", game}, {"options", options}, {"seats", {"human", "human", "human", "human"}}});
  for (int k = 0; k < 4; ++k) a.hub->join(t["id"], t["tokens"][std::to_string(k)], std::nullopt);
  return t;
}

TEST(AppApi, PublicLogHasEveryMoveInOrderAndTheSameForEverySeat) {
  App a;
  const json t = people_table(a, "texas-42");
  const std::string id = t["id"];
  // On until the hand in play has a whole trick of four in its log.
  auto tiles_in_log = [&] {
    int n = 0;
    const json log = a.hub->get(id, t["spectate"])["log"];
    for (const auto& e : log)
      if (e["kind"] == "move" && e["move"].get<std::string>().find('-') != std::string::npos) ++n;
    return n;
  };
  for (int i = 0; i < 300 && tiles_in_log() < 4; ++i)
    play_until(a, t, a.hub->get(id, t["spectate"])["version"].get<std::size_t>() + 1);
  const json spectator = a.hub->get(id, t["spectate"]);
  const json log = spectator["log"];
  ASSERT_TRUE(log.is_array());
  ASSERT_FALSE(log.empty());
  for (int k = 0; k < 4; ++k) EXPECT_EQ(a.hub->get(id, t["tokens"][std::to_string(k)])["log"], log) << "seat " << k;
  // The last entry is the last event; every move's text is the recorded one.
  EXPECT_EQ(log.back()["n"].get<std::size_t>(), spectator["version"].get<std::size_t>() - 1);
  std::size_t tiles = 0;
  for (const auto& e : log) {
    ASSERT_TRUE(e.contains("kind") && e.contains("hand") && e.contains("n")) << e.dump();
    if (e["kind"] == "move" && e["move"].get<std::string>().find('-') != std::string::npos) ++tiles;
    if (e["kind"] == "chance" || e["kind"] == "deal") {
      EXPECT_TRUE(e["move"].is_null()) << "a chance outcome shown: " << e.dump();
    }
  }
  EXPECT_GE(tiles, 4u) << log.dump();  // a whole trick of four, the fourth included
}

TEST(AppApi, PublicLogKeepsDiceAndDominoesTilesSecretAndHoldsTheHandInPlay) {
  App a;
  const json t = people_table(a, "dice-and-dominoes", {{"hands", 3}});
  play_until(a, t, 6);  // the deal, the dice, four lays
  int laid = 0;
  const json early = a.hub->get(t["id"], t["spectate"])["log"];
  for (const auto& e : early)
    if (e["kind"] == "laid") {
      ++laid;
      EXPECT_TRUE(e["move"].is_null()) << "a face-down lay shows its tiles: " << e.dump();
    }
  EXPECT_GT(laid, 0) << early.dump();
  play_until(a, t, 100000, 1);  // just past the first hand's end
  const json st = a.hub->get(t["id"], t["spectate"]);
  const json log = st["log"];
  ASSERT_EQ(st["hands_finished"], 1);
  // The hand in play from its deal; before it only the event that ended the
  // first hand, its tiles unsaid. The first hand's other lays are gone.
  ASSERT_FALSE(log.empty());
  const std::size_t first = log[0]["hand"] == 1 ? 1 : 0;
  if (first) {
    EXPECT_TRUE(log[0]["move"].is_null()) << log.dump();
  }
  ASSERT_GT(log.size(), first);
  EXPECT_EQ(log[first]["kind"], "deal") << log.dump();
  for (std::size_t i = first; i < log.size(); ++i) {
    const json& e = log[i];
    EXPECT_EQ(e["hand"], 2) << e.dump();
    if (e["kind"] == "move") {
      EXPECT_EQ(e["move"].get<std::string>().find('-'), std::string::npos) << e.dump();
    }
  }
}

TEST(AppApi, PublicLogCountsHandsNotDeals) {
  // Texas 42: four passes deal again; the hand's number stays.
  App a;
  const json t = people_table(a, "texas-42");
  const std::string id = t["id"];
  for (int i = 0; i < 8; ++i) {  // everyone passes, twice round
    const json st = a.hub->get(id, t["spectate"]);
    for (int k = 0; k < 4; ++k) {
      const std::string tok = t["tokens"][std::to_string(k)];
      const json mine = a.hub->get(id, tok);
      if (mine["to_act"] == true && mine["legal"][0] == "pass") {
        a.hub->move(id, tok, "pass");
        break;
      }
    }
  }
  const json st = a.hub->get(id, t["spectate"]);
  ASSERT_EQ(st["hands_finished"], 0);
  ASSERT_GE(st["version"].get<int>(), 7) << "no redeal happened";  // draw, deal, 4 passes, deal
  EXPECT_EQ(st["log"][0]["kind"], "deal");
  for (const auto& e : st["log"]) EXPECT_EQ(e["hand"], 1) << st["log"].dump();
}

TEST(AppApi, LineViewSaysWhatATiedBlockGives) {
  App a;
  for (const auto& [game, rule] : std::vector<std::pair<std::string, std::string>>{{"latin", "void_same_leader"},
                                                                                   {"colombia", "last_player_wins"}}) {
    const json t = people_table(a, game);
    const json v = a.hub->get(t["id"], t["spectate"])["view"];
    EXPECT_EQ(v["block_tie"], rule) << game;
  }
}

TEST(AppApi, ErrorsCarryAStableCodeBesideTheText) {
  App a;
  auto [s404, nf] = a.get("/api/tables/abcdef12?token=00ff");
  EXPECT_EQ(s404, 404);
  EXPECT_EQ(nf["code"], "not_found");
  EXPECT_TRUE(nf["error"].is_string());
  const json t = a.hub->create({{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}});
  auto [s403, bad] = a.get("/api/tables/" + t["id"].get<std::string>() + "?token=00ff00ff");
  EXPECT_EQ(s403, 403);
  EXPECT_EQ(bad["code"], "forbidden");
  EXPECT_EQ(server::error_code(409), "conflict");
  EXPECT_EQ(server::error_code(429), "rate_limited");
  EXPECT_EQ(server::error_code(500), "server_error");
}

}  // namespace
}  // namespace boneyard
