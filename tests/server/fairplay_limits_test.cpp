// Rated play people can trust (issue 32 items 3, 9, 10): two people of one
// network are not rated together, a game's length is capped, and a lobby
// feed nobody looks at is closed. Clients come in through a trusted proxy
// (X-Forwarded-For), so each test chooses every client's address.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "client.h"
#include "server_fixture.h"

namespace boneyard::test {
namespace {

using nlohmann::json;

class FairPlayLimits : public ServerFixture {
 protected:
  FairPlayLimits() : ServerFixture("fairplay-limits") {}
  server::ServerConfig behind_proxy() const {
    auto c = config();
    c.trusted_proxies = {"127.0.0.1"};
    c.hub.default_bot_delay_ms = 0;
    return c;
  }
  json player(const std::string& name, const std::string& from) {
    const Reply r = post_from(from, port_, "/api/players", {{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.j;
  }
  // A rated two-player latin game to one hand; each player joins from their address.
  json rated_table(const json& a, const std::string& from_a, const json& b, const std::string& from_b) {
    const Reply made = post_from(from_a, port_, "/api/tables",
                                 {{"game", "latin"},
                                  {"options", {{"players", "2"}, {"target", "1"}}},
                                  {"seats", {"human", "human"}},
                                  {"rated", true}});
    EXPECT_EQ(made.status, 201) << made.body;
    const std::string id = made.j["id"];
    EXPECT_EQ(
        post_from(from_a, port_, "/api/tables/" + id + "/join", {{"token", made.j["tokens"]["0"]}, {"key", a["key"]}})
            .status,
        200);
    EXPECT_EQ(
        post_from(from_b, port_, "/api/tables/" + id + "/join", {{"token", made.j["tokens"]["1"]}, {"key", b["key"]}})
            .status,
        200);
    return made.j;
  }
  json state(const json& t, int seat) {
    return get(port_, "/api/tables/" + t["id"].get<std::string>() +
                          "?token=" + t["tokens"][std::to_string(seat)].get<std::string>())
        .j;
  }
  // Each seat plays its first legal move until the game is over.
  json play_out(const json& t) {
    const std::string id = t["id"];
    for (int guard = 0; guard < 2000; ++guard) {
      bool moved = false;
      for (int k = 0; k < 2 && !moved; ++k) {
        const json st = state(t, k);
        if (st["status"] == "over") return st;
        if (st["to_act"] == true) {
          const std::string tok = t["tokens"][std::to_string(k)];
          EXPECT_EQ(post(port_, "/api/tables/" + id + "/moves", {{"token", tok}, {"move", st["legal"][0]}}).status,
                    200);
          moved = true;
        }
      }
      if (!moved) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ADD_FAILURE() << "the game did not end";
    return nullptr;
  }
  json line_rating(const json& p) {
    const json page = get(port_, "/api/players/" + p["id"].get<std::string>()).j;
    return page["ratings"].value("line", json());
  }
};

// Issue 32 item 3: a rated table that seats two players of one network (two
// addresses of one IPv6 /64) is not rated, says so at once and at the end,
// and rates nobody; the same players apart are rated as usual.
TEST_F(FairPlayLimits, TwoPlayersOfOneNetworkAreNotRatedTogether) {
  serve(behind_proxy());
  const json a = player("Household A", "2001:db8:5:6::1");
  const json b = player("Household B", "2001:db8:5:6::2");
  const json c = player("Far Away C", "2001:db8:7:8::1");

  const json together = rated_table(a, "2001:db8:5:6::1", b, "2001:db8:5:6::2");
  json st = state(together, 1);
  ASSERT_TRUE(st.contains("unrated")) << st.dump().substr(0, 1500);
  EXPECT_EQ(st["unrated"], json({{"why", "network"}, {"seat", 0}, {"other", 1}}));
  bool told = false;
  for (const auto& n : st["notices"]) told |= n["text"].get<std::string>().find("one network") != std::string::npos;
  EXPECT_TRUE(told) << st["notices"];
  st = play_out(together);
  EXPECT_EQ(st["unrated"]["why"], "network");
  EXPECT_TRUE(line_rating(a).is_null()) << line_rating(a);
  EXPECT_TRUE(line_rating(b).is_null()) << line_rating(b);
  // Their rematch (offered by one, accepted by the other) is not rated either.
  const std::string id = together["id"];
  ASSERT_EQ(post_from("2001:db8:5:6::1", port_, "/api/tables/" + id + "/rematch", {{"token", together["tokens"]["0"]}})
                .status,
            200);
  const Reply re =
      post_from("2001:db8:5:6::2", port_, "/api/tables/" + id + "/rematch", {{"token", together["tokens"]["1"]}});
  ASSERT_EQ(re.status, 200) << re.body;
  ASSERT_TRUE(re.j.contains("table")) << re.body;
  const json again =
      get(port_, "/api/tables/" + re.j["table"].get<std::string>() + "?token=" + re.j["token"].get<std::string>()).j;
  EXPECT_EQ(again["unrated"]["why"], "network") << again.dump().substr(0, 1500);

  const json apart = rated_table(a, "2001:db8:5:6::1", c, "2001:db8:7:8::1");
  st = state(apart, 0);
  EXPECT_EQ(st["rated"], true) << st.dump().substr(0, 1500);
  EXPECT_FALSE(st.contains("unrated"));
  play_out(apart);
  json ra;
  for (int i = 0; i < 200 && ra.is_null(); ++i) {  // the rating is stored with the last move; read it back
    ra = line_rating(a);
    if (ra.is_null()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(ra.is_object());
  EXPECT_EQ(ra["games"], 1) << "only the game apart is rated";
  EXPECT_EQ(line_rating(c)["games"], 1);
}

// Issue 32 item 10: a game with a million hands (bots only) does not hold
// its table for ever: it stops at the server's limit on a game's length,
// unrated, and stays stopped after a restart.
TEST_F(FairPlayLimits, AGameThatReachesTheMoveLimitIsStopped) {
  auto c = behind_proxy();
  c.hub.max_game_moves = 300;
  serve(c);
  const Reply made = post_from("10.9.0.1", port_, "/api/tables",
                               {{"game", "dice-and-dominoes"},
                                {"options", {{"players", "2"}, {"hands", "1000000"}}},
                                {"seats", {"bot:casual", "bot:casual"}}});
  ASSERT_EQ(made.status, 201) << made.body;
  const std::string id = made.j["id"], spectate = made.j["spectate"];
  json st;
  for (int i = 0; i < 3000; ++i) {
    st = get(port_, "/api/tables/" + id + "?token=" + spectate).j;
    if (st["status"] == "over") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(st["status"], "over") << "the bots were still playing after 30 s";
  EXPECT_EQ(st["stopped"], true);
  EXPECT_GE(st["version"].get<int>(), 300);
  EXPECT_LT(st["version"].get<int>(), 400) << "stopped soon after the limit";
  EXPECT_FALSE(st.contains("returns")) << "a stopped game has no result";
  bool told = false;
  for (const auto& n : st["notices"])
    told |= n["text"].get<std::string>().find("limit of 300 moves") != std::string::npos;
  EXPECT_TRUE(told) << st["notices"];
  const int version = st["version"];
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + spectate).j["version"], version) << "nothing moves after";

  serve(c);  // a restart: the table is over, and loads as it was
  st = get(port_, "/api/tables/" + id + "?token=" + spectate).j;
  EXPECT_EQ(st["status"], "over");
  EXPECT_EQ(st["stopped"], true);
  EXPECT_EQ(st["version"], version);
}

// Issue 32 item 9: the lobby's feed is closed once nobody has looked for
// --lobby-idle seconds (an "idle" message first); a page that says "here"
// keeps it.
TEST_F(FairPlayLimits, ALobbyFeedNobodyLooksAtIsClosed) {
  auto c = behind_proxy();
  c.lobby_idle_s = 1;
  serve(c);
  WsClient idle(port_, "/ws/lobby");
  WsClient here(port_, "/ws/lobby");
  idle.start_reading();
  here.start_reading();
  ASSERT_FALSE(idle.wait_for([](const json& j) { return j.value("type", "") == "lobby"; }, 10).is_null());
  ASSERT_FALSE(here.wait_for([](const json& j) { return j.value("type", "") == "lobby"; }, 10).is_null());
  for (int i = 0; i < 8; ++i) {  // 2.4 s of a person's activity
    here.send(R"({"type":"here"})");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  EXPECT_TRUE(idle.wait_closed(10)) << "the idle feed is still open";
  bool said = false;
  for (const auto& m : idle.all()) said |= json::parse(m, nullptr, false).value("type", "") == "idle";
  EXPECT_TRUE(said) << "closed without saying why";
  EXPECT_FALSE(here.is_closed()) << "a feed someone looks at was closed";
  for (const auto& m : here.all())
    EXPECT_NE(json::parse(m, nullptr, false).value("type", ""), "error") << "\"here\" was refused: " << m;
}

// Issue 32 item 11: a quick-match table is its first player's address's,
// like a table made by POST (its bots' strong thinking is counted there:
// --strong-per-client; and its live tables: --max-tables-per-address).
TEST_F(FairPlayLimits, AQuickMatchTableCountsAgainstItsPlayersAddress) {
  auto c = behind_proxy();
  c.hub.max_tables_per_client = 1;
  c.hub.quickmatch_wait_s = 0.2;  // bots fill the other seats at once
  serve(c);
  const json p = player("Quick One", "10.7.0.1");
  const Reply asked = post_from("10.7.0.1", port_, "/api/quickmatch",
                                {{"key", p["key"]}, {"game", "latin"}, {"options", {{"players", "2"}}}});
  ASSERT_EQ(asked.status, 200) << asked.body;
  json seated;
  for (int i = 0; i < 500 && !seated.contains("table"); ++i) {
    seated = get(port_, "/api/quickmatch?key=" + p["key"].get<std::string>()).j;
    if (!seated.contains("table")) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(seated.contains("table")) << seated;
  const json body{{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}};
  const Reply mine = post_from("10.7.0.1", port_, "/api/tables", body);
  EXPECT_EQ(mine.status, 429) << "the quick-match table was not counted as the address's: " << mine.body;
  EXPECT_NE(mine.body.find("live tables"), std::string::npos) << mine.body;
  EXPECT_EQ(post_from("10.7.0.2", port_, "/api/tables", body).status, 201) << "another address has its own share";
}

}  // namespace
}  // namespace boneyard::test
