// The routes the browser app adds to the server: GET /api/games (the lobby's
// menu) and GET /api/tables/{id}/hint (the hint button), through the routing
// without sockets.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "core/game.h"
#include "routes_world.h"
#include "server/http_routes.h"
#include "server/storage.h"
#include "server/tables.h"

namespace boneyard {
namespace {

using nlohmann::json;

struct World : test::RoutesWorld {
  // A table of four people, all joined; returns the create answer.
  json table(const std::string& game, const json& options, uint64_t seed) {
    const json t = hub->create(
        {{"game", game}, {"options", options}, {"seats", {"human", "human", "human", "human"}}, {"seed", seed}});
    for (int k = 0; k < 4; ++k) hub->join(t["id"], t["tokens"][std::to_string(k)], std::nullopt);
    return t;
  }
  // Plays each seat's first legal move until `hands` hands are over or the game is.
  void play(const json& t, int hands) {
    const std::string id = t["id"];
    for (int guard = 0; guard < 5000; ++guard) {
      const json st = hub->get(id, t["tokens"]["0"]);
      if (st["status"] == "over" || st["hands_finished"].get<int>() >= hands) return;
      bool moved = false;
      for (int k = 0; k < 4 && !moved; ++k) {
        const std::string tok = t["tokens"][std::to_string(k)];
        const json mine = hub->get(id, tok);
        if (mine["to_act"] == true) {
          hub->move(id, tok, mine["legal"][0]);
          moved = true;
        }
      }
      ASSERT_TRUE(moved) << st.dump();
    }
    FAIL() << "the game did not end";
  }
};

TEST(WebApi, GamesListsEveryGameWithOptionsAndSeats) {
  World w;
  auto [status, j] = w.get("/api/games");
  ASSERT_EQ(status, 200);
  std::set<std::string> families, names;
  for (const auto& g : j["games"]) {
    families.insert(g["family"].get<std::string>());
    names.insert(g["name"].get<std::string>());
    EXPECT_FALSE(g["summary"].get<std::string>().empty());
    EXPECT_TRUE(g["options"].is_object());
    EXPECT_TRUE(g["catalogue"].is_object());
    EXPECT_GE(g["seats"].get<int>(), 2);
  }
  EXPECT_EQ(families, (std::set<std::string>{"line", "mexican-train", "texas-42", "dice-and-dominoes"}));
  EXPECT_EQ(names.size(), games().size());
  for (const auto& g : j["games"])
    if (g["name"] == "latin") {
      EXPECT_EQ(g["options"]["target"], 200);
      EXPECT_EQ(g["seats"], 4);
    }
  EXPECT_EQ(j["bot_levels"].size(), 4u);
}

TEST(WebApi, HintValuesEveryLegalMoveForTheSeatToActOnly) {
  World w;
  const json t = w.hub->create({{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}, {"seed", 3}});
  const std::string id = t["id"];
  for (int k = 0; k < 4; ++k) w.hub->join(id, t["tokens"][std::to_string(k)], std::nullopt);
  json st = w.hub->get(id, t["tokens"]["0"]);
  // Get past a redeal question if there is one, to a seat with tiles to play.
  ASSERT_EQ(st["actor"]["kind"], "seat");
  const int actor = st["actor"]["seat"];
  const std::string tok = t["tokens"][std::to_string(actor)];
  const json mine = w.hub->get(id, tok);
  auto [status, h] = w.get("/api/tables/" + id + "/hint?token=" + tok);
  ASSERT_EQ(status, 200) << h.dump();
  EXPECT_EQ(h["seat"], actor);
  EXPECT_EQ(h["version"], mine["version"]);
  // The coach's expected values in the player's unit (issue 23, 4).
  EXPECT_EQ(h["unit"], "points");
  EXPECT_EQ(h["method"], "sampled solver");
  std::set<std::string> legal(mine["legal"].begin(), mine["legal"].end()), valued;
  double last = 1e300;
  for (const auto& m : h["moves"]) {
    valued.insert(m["move"].get<std::string>());
    EXPECT_LE(m["value"].get<double>(), last);  // best first
    last = m["value"];
  }
  if (legal.size() > 1) {
    EXPECT_EQ(valued, legal);
  }
  const std::string other = t["tokens"][std::to_string((actor + 1) % 4)];
  EXPECT_EQ(w.get("/api/tables/" + id + "/hint?token=" + other).first, 409);
  EXPECT_EQ(w.get("/api/tables/" + id + "/hint?token=" + t["spectate"].get<std::string>()).first, 403);
  EXPECT_EQ(w.get("/api/tables/" + id + "/hint?token=nope").first, 403);
  EXPECT_EQ(w.get("/api/tables/nope/hint?token=" + tok).first, 404);
}

TEST(WebApi, ReviewIsForTheSeatOfAFinishedHandAndSpectatorsWaitForTheEnd) {
  World w;
  const json t = w.table("latin", json::object(), 5);
  const std::string id = t["id"], a = t["tokens"]["0"], spect = t["spectate"];
  const std::string base = "/api/tables/" + id + "/review?token=";
  // Nothing finished yet.
  auto [s0, e0] = w.get(base + a);
  EXPECT_EQ(s0, 409) << e0.dump();
  EXPECT_EQ(w.get(base + spect).first, 403);
  w.play(t, 1);
  json st = w.hub->get(id, a);
  ASSERT_EQ(st["hands_finished"], 1);
  ASSERT_EQ(st["status"], "playing");
  // The seat's own review of the finished hand: fair (sampled deals), with a face-up line.
  auto [s1, r] = w.get(base + a + "&hand=1");
  ASSERT_EQ(s1, 200) << r.dump();
  EXPECT_EQ(r["seat"], 0);
  EXPECT_EQ(r["hand"], 1);
  EXPECT_EQ(r["hands_known"], false);
  EXPECT_GT(r["samples"].get<int>(), 0);
  EXPECT_EQ(r["unit"], "points");
  for (const auto& m : r["moves"]) {
    EXPECT_GE(m["loss"].get<double>(), 0);
    EXPECT_NEAR(m["loss"].get<double>(), m["best_value"].get<double>() - m["played_value"].get<double>(), 1e-9);
  }
  EXPECT_EQ(w.get(base + a).second, r);  // hand 0: the last finished one, the same (cached) review
  // While the game goes on: no other seat's review, nothing for a spectator,
  // no unfinished hand, bad numbers named.
  EXPECT_EQ(w.get(base + a + "&seat=1").first, 403);
  auto [s2, e2] = w.get(base + spect + "&seat=0");
  EXPECT_EQ(s2, 403);
  EXPECT_NE(e2["error"].get<std::string>().find("over"), std::string::npos) << e2.dump();
  EXPECT_EQ(w.get(base + a + "&hand=2").first, 409);
  auto [s3, e3] = w.get(base + a + "&hand=x");
  EXPECT_EQ(s3, 400);
  EXPECT_NE(e3["error"].get<std::string>().find("hand"), std::string::npos);
  EXPECT_EQ(w.get(base + "nope").first, 403);
  // The replay waits for the end of the game, with a clear message.
  auto [s4, e4] = w.get("/api/tables/" + id + "/replay");
  EXPECT_EQ(s4, 409);
  EXPECT_NE(e4["error"].get<std::string>().find("in progress"), std::string::npos) << e4.dump();
}

TEST(WebApi, FinishedGameReplaysForAnyoneAndRecordsReplayByPost) {
  World w;
  const json t = w.table("latin", {{"target", "1"}}, 7);
  const std::string id = t["id"];
  w.play(t, 1000);
  ASSERT_EQ(w.hub->get(id, t["spectate"])["status"], "over");
  auto [s, r] = w.get("/api/tables/" + id + "/replay");
  ASSERT_EQ(s, 200) << r.dump();
  const json rec = w.hub->record(id);
  ASSERT_EQ(r["steps"].size(), rec["events"].size() + 1);
  EXPECT_EQ(r["game"], "latin");
  EXPECT_EQ(r["family"], "line");
  EXPECT_EQ(r["seats"], 4);
  EXPECT_EQ(r["steps"].back()["over"], true);
  EXPECT_EQ(r["steps"][0].contains("text"), false);
  // Every hand is shown: the game is over.
  const json& first = r["steps"][1]["view"];  // after the deal
  for (const auto& hd : first["hands"]) EXPECT_EQ(hd["tiles"].size(), 7u) << first.dump();
  int summaries = 0;
  for (const auto& stp : r["steps"]) summaries += stp.contains("hand");
  EXPECT_EQ(summaries, static_cast<int>(rec["hands"].size()));
  // Now a spectator may see every seat's review.
  auto [s2, rv] = w.get("/api/tables/" + id + "/review?token=" + t["spectate"].get<std::string>() + "&seat=2&hand=1");
  EXPECT_EQ(s2, 200) << rv.dump();
  EXPECT_EQ(rv["seat"], 2);
  // A record posted: the same steps.
  auto [s3, r3] = w.post("/api/replay", rec.dump());
  ASSERT_EQ(s3, 200) << r3.dump();
  EXPECT_EQ(r3["steps"], r["steps"]);
  // Bad records: 400 with the record parser's message.
  auto [s4, e4] = w.post("/api/replay", "{\"format\": \"chess\"}");
  EXPECT_EQ(s4, 400);
  EXPECT_FALSE(e4["error"].get<std::string>().empty());
  EXPECT_EQ(w.post("/api/replay", "not json").first, 400);
  json bad = rec;
  for (auto& e : bad["events"])
    if (e.contains("move")) {
      e["move"] = "9-9:L";  // no such tile in double-six
      break;
    }
  auto [s5, e5] = w.post("/api/replay", bad.dump());
  EXPECT_EQ(s5, 400);
  EXPECT_NE(e5["error"].get<std::string>().find("9-9"), std::string::npos) << e5.dump();
  EXPECT_EQ(w.get("/api/replay").first, 405);
}

}  // namespace
}  // namespace boneyard
