// Rated games (issue 25, 7): the end of a rated table updates each player's
// Glicko-2 rating in the game's family (both partners by the team's result)
// and the bot levels' own; the leaderboard and the player page show them.
#include "server/ratings.h"

#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <thread>

#include "bots/levels.h"
#include "server/glicko2.h"
#include "server/storage.h"
#include "server_fixture.h"
#include "test_store.h"

namespace boneyard::test {
namespace {

class RatingsTest : public ServerFixture {
 protected:
  RatingsTest() : ServerFixture("ratings") {}
  void SetUp() override {
    ServerFixture::SetUp();
    start();
  }
  // Each seat's player joins from an address of its own (through the
  // trusted front door): two of one network are not rated together.
  void start() {
    auto c = config();
    c.trusted_proxies = {"127.0.0.1"};
    serve(c);
  }
  json player(const std::string& name) { return post(port_, "/api/players", json{{"name", name}}).j; }
  // Plays a table to its end: each human seat joins with its player's key
  // (or as a guest) and makes its own moves (its first legal one): at a
  // rated table a bot's move for a person is not their play (issue 32 item 1).
  json play(const json& options, const std::vector<std::string>& seats, const std::vector<json>& people) {
    json body{{"game", "latin"}, {"options", options}, {"seats", seats}, {"rated", true}, {"bot_delay_ms", 0}};
    const Reply made = post(port_, "/api/tables", body);
    EXPECT_EQ(made.status, 201) << made.body;
    const std::string id = made.j["id"];
    std::vector<std::string> tokens;
    for (size_t k = 0; k < seats.size(); ++k) {
      if (seats[k] != "human") continue;
      const std::string tok = made.j["tokens"][std::to_string(k)];
      json join{{"token", tok}};
      if (people[k].is_object()) join["key"] = people[k]["key"];
      EXPECT_EQ(post_from("10." + std::to_string(k + 1) + ".0.1", port_, "/api/tables/" + id + "/join", join).status,
                200);
      tokens.push_back(tok);
    }
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    json st;
    for (;;) {
      st = get(port_, "/api/tables/" + id + "?token=" + made.j["spectate"].get<std::string>()).j;
      if (st["status"] == "over" || std::chrono::steady_clock::now() > end) break;
      bool moved = false;
      for (const auto& tok : tokens) {
        const json mine = get(port_, "/api/tables/" + id + "?token=" + tok).j;
        if (mine["to_act"] == true && !mine["legal"].empty()) {
          post(port_, "/api/tables/" + id + "/moves", json{{"token", tok}, {"move", mine["legal"][0]}});
          moved = true;
        }
      }
      if (!moved) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(st["status"], "over") << st.dump().substr(0, 3000);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the ratings' write
    return st;
  }
};

TEST_F(RatingsTest, ARatedTeamGameMovesBothPartnersAndTheBotLevel) {
  const json a = player("Ana"), b = player("Bo");
  const json st = play({{"target", "1"}}, {"human", "bot:casual", "human", "bot:casual"}, {a, nullptr, b, nullptr});
  EXPECT_EQ(st["rated"], true);
  const bool won = st["returns"][0].get<double>() > st["returns"][1].get<double>();
  for (const json& p : {a, b}) {
    const json page = get(port_, "/api/players/" + p["id"].get<std::string>()).j;
    ASSERT_TRUE(page["ratings"].contains("line")) << page;
    const json& r = page["ratings"]["line"];
    EXPECT_EQ(r["games"], 1);
    EXPECT_EQ(r["provisional"], true);
    EXPECT_LT(r["rd"].get<double>(), 350);
    if (won)
      EXPECT_GT(r["rating"].get<double>(), 1500);
    else
      EXPECT_LT(r["rating"].get<double>(), 1500);
    ASSERT_EQ(r["history"].size(), 1u);
    EXPECT_EQ(r["history"][0]["table"], st["table"]);
  }
  const json board = get(port_, "/api/leaderboard?game=latin").j;
  EXPECT_EQ(board["family"], "line");
  // One game each: provisional, so not on the board yet (issue 32 item 3).
  EXPECT_TRUE(board["players"].empty()) << board;
  ASSERT_EQ(board["bots"].size(), 1u);  // the two casual bots, one level, rated once
  EXPECT_EQ(board["bots"][0]["level"], "casual");
  EXPECT_EQ(board["bots"][0]["games"], 1);
  if (won)
    EXPECT_LT(board["bots"][0]["rating"].get<double>(), 1500);
  else
    EXPECT_GT(board["bots"][0]["rating"].get<double>(), 1500);
  EXPECT_EQ(get(port_, "/api/leaderboard?game=line").j["family"], "line");
  EXPECT_TRUE(get(port_, "/api/leaderboard?game=texas-42").j["players"].empty());
  // A bot is marked as one, with its level's published rating (issue 37, 3).
  EXPECT_EQ(board["bots"][0]["bot"], true);
  EXPECT_EQ(board["bots"][0]["published_rating"], 1500);
}

TEST_F(RatingsTest, TheLeaderboardListsEveryBotLevelWithItsPublishedRating) {
  // Before any rated game: each family's four levels, weakest first, each
  // marked as a bot and rated above the one below, as docs/bots.md measured.
  for (const char* game : {"latin", "texas-42", "mexican-train", "dice-and-dominoes"}) {
    const json board = get(port_, std::string("/api/leaderboard?game=") + game).j;
    EXPECT_TRUE(board["bots"].empty()) << board;
    const json& levels = board["levels"];
    ASSERT_EQ(levels.size(), 4u) << board;
    const char* names[] = {"beginner", "casual", "strong", "expert"};
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(levels[i]["level"], names[i]) << game;
      EXPECT_EQ(levels[i]["bot"], true) << game;
      EXPECT_EQ(levels[i]["published_rating"].get<double>(),
                *level_rating(board["family"].get<std::string>(), names[i]))
          << game;
      if (i > 0) {
        EXPECT_GT(levels[i]["published_rating"].get<double>(), levels[i - 1]["published_rating"].get<double>())
            << game << " " << names[i];
      }
    }
  }
}

// Beside its name at a rated table, a bot level before its first rated game
// shows its published rating as measured, not as a provisional "1500?".
TEST_F(RatingsTest, ABotLevelNewHereShowsItsPublishedRatingAsMeasured) {
  json body{{"game", "latin"}, {"seats", {"human", "bot:strong", "human", "bot:casual"}}, {"rated", true}};
  const Reply made = post(port_, "/api/tables", body);
  ASSERT_EQ(made.status, 201) << made.body;
  const json st =
      get(port_, "/api/tables/" + made.j["id"].get<std::string>() + "?token=" + made.j["spectate"].get<std::string>())
          .j;
  const json& strong = st["seats"][1]["rating"];
  EXPECT_EQ(strong["rating"].get<double>(), *level_rating("line", "strong")) << st["seats"].dump();
  EXPECT_EQ(strong["provisional"], false);
  EXPECT_EQ(strong["measured"], true);
  EXPECT_EQ(st["seats"][3]["rating"]["rating"].get<double>(), 1500);
  EXPECT_TRUE(st["seats"][0]["rating"].is_null()) << "a seat nobody took shows no rating";
}

TEST_F(RatingsTest, AnIndividualGameRatesEachAgainstTheOther) {
  const json a = player("Ana"), b = player("Bo");
  const json st = play({{"players", "2"}, {"target", "1"}}, {"human", "human"}, {a, b});
  const double ra = get(port_, "/api/players/" + a["id"].get<std::string>()).j["ratings"]["line"]["rating"];
  const double rb = get(port_, "/api/players/" + b["id"].get<std::string>()).j["ratings"]["line"]["rating"];
  const double da = st["returns"][0].get<double>() - st["returns"][1].get<double>();
  if (da > 0)
    EXPECT_GT(ra, rb);
  else if (da < 0)
    EXPECT_LT(ra, rb);
  else
    EXPECT_DOUBLE_EQ(ra, rb);
  EXPECT_NEAR(ra - 1500, 1500 - rb, 1e-6);  // two new players: equal and opposite
}

TEST_F(RatingsTest, AGuestSeatLeavesTheGameUnratedAndBadOptionsAreRefused) {
  const json a = player("Ana");
  const json st =
      play({{"target", "1"}}, {"human", "bot:casual", "human", "bot:casual"}, {a, nullptr, nullptr, nullptr});
  EXPECT_TRUE(get(port_, "/api/players/" + a["id"].get<std::string>()).j["ratings"].empty());
  bool told = false;
  for (const auto& n : st["notices"]) told |= n["text"].get<std::string>().find("not rated") != std::string::npos;
  EXPECT_TRUE(told) << st["notices"];
  EXPECT_EQ(
      post(port_, "/api/tables",
           json{{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}, {"rated", "yes"}})
          .status,
      400);
  EXPECT_EQ(post(port_, "/api/tables",
                 json{{"game", "latin"},
                      {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}},
                      {"rated", true},
                      {"seed", 4}})
                .status,
            400);
  EXPECT_EQ(get(port_, "/api/leaderboard?game=chess").status, 400);
  EXPECT_EQ(get(port_, "/api/leaderboard").status, 400);
}

// Time without games (Glicko-2, step 6 per idle rating period): ten days
// after their last game, two players' deviations have grown on the board and
// the player page, and their next game starts from the grown deviations.
TEST_F(RatingsTest, TenIdleDaysWidenTheDeviationShownAndUsedByTheNextGame) {
  const json a = player("Ana"), b = player("Bo");
  const json first = play({{"players", "2"}, {"target", "1"}}, {"human", "human"}, {a, b});
  const std::string ida = a["id"], idb = b["id"];
  // The server stopped, their last game is moved ten days (and a minute) back.
  srv_.reset();
  const int64_t then = static_cast<int64_t>(std::time(nullptr)) - 10 * 86400 - 60;
  server::StoredRating ra, rb;
  {
    server::Storage st(test_db((dir_ / "test.db").string()), false);
    ra = *st.rating(ida, "line");
    rb = *st.rating(idb, "line");
    ASSERT_GT(ra.last, then);
    server::Write w;
    w.table = first["table"];
    for (auto r : {ra, rb}) {
      r.last = then;
      w.ratings.push_back(r);
    }
    st.write(std::move(w));
  }
  start();
  const auto idle_a = server::glicko2::idle({ra.rating, ra.rd, ra.volatility}, 10);
  const auto idle_b = server::glicko2::idle({rb.rating, rb.rd, rb.volatility}, 10);
  EXPECT_GT(idle_a.rd, ra.rd);
  const json page = get(port_, "/api/players/" + ida).j["ratings"]["line"];
  EXPECT_NEAR(page["rd"].get<double>(), idle_a.rd, 1e-9);
  EXPECT_NEAR(page["rating"].get<double>(), ra.rating, 1e-9);
  const json board = get(port_, "/api/leaderboard?game=line").j;
  for (const auto& p : board["players"])
    EXPECT_NEAR(p["rd"].get<double>(), (p["id"] == ida ? idle_a : idle_b).rd, 1e-9) << p;
  // The next game: each one's update starts from the widened deviation.
  const json second = play({{"players", "2"}, {"target", "1"}}, {"human", "human"}, {a, b});
  const double diff = second["returns"][0].get<double>() - second["returns"][1].get<double>();
  const double score = diff > 0 ? 1 : diff < 0 ? 0 : 0.5;
  const auto want = server::glicko2::update(idle_a, {{idle_b, score}});
  const json after = get(port_, "/api/players/" + ida).j["ratings"]["line"];
  // Bo is provisional (two games): the change is a part of Glicko-2's.
  EXPECT_NEAR(after["rating"].get<double>(), ra.rating + server::kProvisionalOpponentWeight * (want.rating - ra.rating),
              1e-6);
  EXPECT_NEAR(after["rd"].get<double>(), want.rd, 1e-6);
  EXPECT_EQ(after["games"], 2);
}

}  // namespace
}  // namespace boneyard::test
