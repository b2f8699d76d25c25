// Strangers at one table (issue 34, defects 1, 3, 4, 7): a quick-match
// table always has a clock and says its terms while waiting; a game that
// never really started can be aborted by the others; ratings stand beside
// the names, with the change at the end, and a guest's seat says the game
// will not be rated; a rematch starts by consent (the seats of those who
// left go to bots after a while); a bot's move for a person is marked as
// the bot's.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "routes_world.h"
#include "server_fixture.h"

namespace boneyard::test {
namespace {

using nlohmann::json;
using server::ServerConfig;

class StrangersTest : public ServerFixture {
 protected:
  StrangersTest() : ServerFixture("strangers") {}
  json player(const std::string& name) {
    Reply r = post(port_, "/api/players", json{{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.j;
  }
  json view(const std::string& id, const std::string& token) {
    Reply r = get(port_, "/api/tables/" + id + "?token=" + token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.j;
  }
  // Polls until pred holds (30 s at most); each round, `each` may act.
  template <class P, class E>
  json until(const std::string& id, const std::string& token, P pred, E each) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    json v;
    while (std::chrono::steady_clock::now() < end) {
      v = view(id, token);
      if (pred(v)) return v;
      each(v);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ADD_FAILURE() << "never happened; last state: " << v.dump().substr(0, 3000);
    return v;
  }
};

// Defect 1: quick match always gives the table a clock (a default per
// game), and says it (and whether it is rated) while the player waits.
TEST_F(StrangersTest, AQuickMatchTableAlwaysHasAClockShownWhileWaiting) {
  ServerConfig c = config();
  c.hub.quickmatch_wait_s = 60;
  serve(c);
  std::vector<json> ps;
  for (const char* n : {"Ana", "Bo", "Cy", "Di"}) ps.push_back(player(n));
  Reply w = post(port_, "/api/quickmatch", json{{"key", ps[0]["key"]}, {"game", "latin"}});
  ASSERT_EQ(w.status, 200) << w.body;
  EXPECT_EQ(w.j["status"], "waiting");
  EXPECT_EQ(w.j["rated"], false);
  EXPECT_EQ(w.j["clock"], (json{{"move_s", 30}, {"bank_s", 30}})) << w.body;
  // Texas 42 is a long game: a bigger bank.
  Reply tx = post(port_, "/api/quickmatch", json{{"key", ps[1]["key"]}, {"game", "texas-42"}, {"rated", true}});
  ASSERT_EQ(tx.status, 200) << tx.body;
  EXPECT_EQ(tx.j["rated"], true);
  EXPECT_EQ(tx.j["clock"], (json{{"move_s", 30}, {"bank_s", 60}})) << tx.body;
  for (size_t i = 1; i < 4; ++i)
    ASSERT_EQ(post(port_, "/api/quickmatch", json{{"key", ps[i]["key"]}, {"game", "latin"}}).status, 200);
  const json s = get(port_, "/api/quickmatch?key=" + ps[0]["key"].get<std::string>()).j;
  ASSERT_EQ(s["status"], "seated") << s;
  EXPECT_EQ(s["clock"]["move_s"], 30);
  const json st = view(s["table"], s["token"]);
  ASSERT_TRUE(st["clock"].is_object()) << st.dump().substr(0, 2000);
  EXPECT_EQ(st["clock"]["move_s"], 30);
  EXPECT_EQ(st["clock"]["bank_s"], 30);
}

// Defect 1 and 7: a person who never moves at a timed table: once their
// clock ran out (the bot played for them, and the log says so), any other
// person may abort the game; not before, and not the idle one. The
// aborted game is not kept, and takes no more moves.
TEST_F(StrangersTest, AGameThatNeverReallyStartedCanBeAbortedByTheOthers) {
  ServerConfig c = config();
  c.hub.clock_second_ms = 40;  // 15 s a move: 600 ms
  serve(c);
  // A fixed deal: with a random one, seat 1 now and then holds five doubles,
  // and its bot's move is then the choice of a new deal, which starts the
  // log again (once in about 270 runs; it failed CI once).
  Reply made = post(port_, "/api/tables",
                    json{{"game", "latin"},
                         {"seed", 1},
                         {"seats", {"human", "human", "bot:casual", "bot:casual"}},
                         {"clock_s", 15},
                         {"bank_s", 0},
                         {"bot_delay_ms", 0},
                         {"drop_delay_ms", 86400000}});
  ASSERT_EQ(made.status, 201) << made.body;
  const std::string id = made.j["id"], a = made.j["tokens"]["0"], idle = made.j["tokens"]["1"];
  for (const std::string& tok : {a, idle})
    ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", tok}}).status, 200);
  Reply early = post(port_, "/api/tables/" + id + "/abort", json{{"token", a}});
  EXPECT_EQ(early.status, 409) << early.body;
  EXPECT_NE(early.j.value("error", "").find("really started"), std::string::npos) << early.body;
  // Seat 0 plays its turns; seat 1 never moves.
  const json v = until(
      // The timeout is marked before the bot's move for it lands: wait for both.
      id, a, [](const json& s) { return s.contains("abortable") && s.contains("bot_played"); },
      [&](const json& s) {
        if (s["to_act"] == true)
          post(port_, "/api/tables/" + id + "/moves", json{{"token", a}, {"move", s["legal"][0]}});
      });
  EXPECT_EQ(v["abortable"]["idle_seat"], 1) << v.dump().substr(0, 2000);
  // The bot's move for seat 1 is marked as the bot's, because time ran out.
  ASSERT_TRUE(v.contains("bot_played")) << v.dump().substr(0, 2000);
  EXPECT_EQ(v["bot_played"][0]["seat"], 1);
  EXPECT_EQ(v["bot_played"][0]["why"], "time");
  bool in_log = false;
  for (const auto& e : v["log"]) in_log |= e["n"] == v["bot_played"][0]["n"] && e["seat"] == 1;
  EXPECT_TRUE(in_log) << "the bot's move is the log's entry of that index: " << v["bot_played"].dump() << " "
                      << v["log"].dump().substr(0, 3000);
  Reply self = post(port_, "/api/tables/" + id + "/abort", json{{"token", idle}});
  EXPECT_EQ(self.status, 409) << self.body;
  EXPECT_EQ(post(port_, "/api/tables/" + id + "/abort", json{{"token", made.j["spectate"]}}).status, 403);
  Reply ok = post(port_, "/api/tables/" + id + "/abort", json{{"token", a}});
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.j["status"], "aborted");
  const json after = view(id, idle);
  EXPECT_EQ(after["status"], "aborted");
  EXPECT_NE(after.value("error", "").find("aborted"), std::string::npos);
  Reply mv = post(port_, "/api/tables/" + id + "/moves", json{{"token", a}, {"move", "pass"}});
  EXPECT_EQ(mv.status, 409) << mv.body;
  EXPECT_NE(get(port_, "/api/tables/" + id + "/record").status, 200) << "an aborted game has no record";
}

// Plays each seat's first legal move until the game is over (no bots).
void play_out(RoutesWorld& w, const json& t, int seats) {
  const std::string id = t["id"];
  for (int guard = 0; guard < 5000; ++guard) {
    if (w.hub->get(id, t["spectate"])["status"] == "over") return;
    bool moved = false;
    for (int k = 0; k < seats && !moved; ++k) {
      const std::string tok = t["tokens"][std::to_string(k)];
      const json mine = w.hub->get(id, tok);
      if (mine["to_act"] == true) {
        w.hub->move(id, tok, mine["legal"][0]);
        moved = true;
      }
    }
    ASSERT_TRUE(moved) << "nobody could move";
  }
  FAIL() << "the game did not end";
}

json rated_table(RoutesWorld& w, std::vector<json>& keys) {
  for (const char* n : {"Ann", "Bob", "Cyd", "Dee"}) {
    auto [s, p] = w.post("/api/players", json{{"name", n}}.dump());
    EXPECT_EQ(s, 201) << p.dump();
    keys.push_back(p);
  }
  auto [cs, t] = w.post("/api/tables", json{{"game", "latin"},
                                            {"options", {{"target", "1"}}},
                                            {"seats", {"human", "human", "human", "human"}},
                                            {"rated", true},
                                            {"clock_s", 30},
                                            {"bank_s", 45},
                                            {"key", keys[0]["key"]}}
                                           .dump());
  EXPECT_EQ(cs, 201) << t.dump();
  return t;
}

// Defect 3: each seat's rating stands beside the name (provisional for a
// new player), and after a rated game its change; a guest at a rated
// table is said to make it unrated before the end.
TEST(Strangers, RatingsStandBesideTheNamesWithTheChangeAtTheEnd) {
  RoutesWorld w;
  std::vector<json> keys;
  const json t = rated_table(w, keys);
  const std::string id = t["id"];
  for (int k = 1; k < 4; ++k)
    ASSERT_EQ(
        w.post("/api/tables/" + id + "/join",
               json{{"token", t["tokens"][std::to_string(k)]}, {"key", keys[static_cast<size_t>(k)]["key"]}}.dump())
            .first,
        200);
  ASSERT_EQ(w.post("/api/tables/" + id + "/join", json{{"token", t["tokens"]["0"]}}.dump()).first, 200);
  const json st = w.hub->get(id, t["spectate"]);
  for (int k = 0; k < 4; ++k) {
    const json& r = st["seats"][static_cast<size_t>(k)]["rating"];
    ASSERT_TRUE(r.is_object()) << st["seats"].dump();
    EXPECT_DOUBLE_EQ(r["rating"].get<double>(), 1500);
    EXPECT_EQ(r["provisional"], true) << "a new player's rating says it is provisional";
  }
  EXPECT_FALSE(st.contains("unrated"));
  play_out(w, t, 4);
  const json end = w.hub->get(id, t["spectate"]);
  double total = 0;
  for (int k = 0; k < 4; ++k) {
    const json& r = end["seats"][static_cast<size_t>(k)]["rated"];
    ASSERT_TRUE(r.is_object()) << end["seats"].dump();
    EXPECT_NE(r["change"].get<double>(), 0);
    EXPECT_NEAR(r["rating"].get<double>() - r["change"].get<double>(), 1500, 1e-6);
    total += r["change"].get<double>();
  }
  EXPECT_NEAR(total, 0, 1e-6) << "four new players: the winners gain what the losers lose";

  // A guest (a name, no player key) at a rated table: said at once.
  auto [cs, g] = w.post(
      "/api/tables",
      json{{"game", "latin"}, {"seats", {"human", "human", "bot:casual", "bot:casual"}}, {"rated", true}}.dump());
  ASSERT_EQ(cs, 201);
  ASSERT_EQ(w.post("/api/tables/" + g["id"].get<std::string>() + "/join",
                   json{{"token", g["tokens"]["1"]}, {"name", "Gus"}}.dump())
                .first,
            200);
  const json gs = w.hub->get(g["id"], g["spectate"]);
  ASSERT_TRUE(gs.contains("unrated")) << gs.dump().substr(0, 2000);
  EXPECT_EQ(gs["unrated"]["why"], "guest");
  EXPECT_EQ(gs["unrated"]["seat"], 1);
}

// Defect 4: "Play again" offers a rematch; it is made once every person
// accepted, keeps the terms, and a decline ends the offer.
TEST(Strangers, ARematchStartsWhenEveryoneAccepts) {
  RoutesWorld w;
  std::vector<json> keys;
  const json t = rated_table(w, keys);
  const std::string id = t["id"];
  for (int k = 0; k < 4; ++k)
    ASSERT_EQ(w.post("/api/tables/" + id + "/join", json{{"token", t["tokens"][std::to_string(k)]}}.dump()).first, 200);
  play_out(w, t, 4);
  auto ask = [&](int k, bool accept = true) {
    return w.post("/api/tables/" + id + "/rematch",
                  json{{"token", t["tokens"][std::to_string(k)]}, {"accept", accept}}.dump());
  };
  auto [s0, r0] = ask(0);
  ASSERT_EQ(s0, 200) << r0.dump();
  EXPECT_EQ(r0["status"], "offered") << "nobody is moved without asking";
  EXPECT_EQ(r0["accepted"], json::array({0}));
  json st = w.hub->get(id, t["tokens"]["2"]);
  EXPECT_FALSE(st.contains("rematch"));
  ASSERT_TRUE(st.contains("rematch_offer")) << st.dump().substr(0, 1000);
  EXPECT_EQ(st["rematch_offer"]["accepted"], json::array({0}));
  // Declined: the offer ends.
  auto [sd, rd] = ask(2, false);
  ASSERT_EQ(sd, 200) << rd.dump();
  EXPECT_FALSE(w.hub->get(id, t["tokens"]["0"]).contains("rematch_offer"));
  EXPECT_EQ(ask(2, false).first, 409) << "nothing to decline any more";
  // Offered again, and accepted by all: made, with the terms kept.
  for (int k : {1, 0, 2}) {
    auto [s, r] = ask(k);
    ASSERT_EQ(s, 200) << r.dump();
    EXPECT_EQ(r["status"], "offered");
  }
  auto [s3, r3] = ask(3);
  ASSERT_EQ(s3, 200) << r3.dump();
  ASSERT_TRUE(r3.contains("table")) << r3.dump();
  const json nst = w.hub->get(r3["table"], r3["token"]);
  EXPECT_EQ(nst["rated"], true);
  EXPECT_EQ(nst["clock"]["move_s"], 30);
  EXPECT_EQ(nst["clock"]["bank_s"], 45);
  for (int k = 0; k < 4; ++k) {
    const json mine = w.hub->get(id, t["tokens"][std::to_string(k)]);
    ASSERT_TRUE(mine["rematch"]["token"].is_string()) << mine["rematch"].dump();
  }
}

// Defect 4: the seat of a player who left (no connection) goes to a bot
// once the offer has waited; a connected one who has not answered holds it.
TEST_F(StrangersTest, ALeftPlayersSeatGoesToABotAfterTheWait) {
  ServerConfig c = config();
  c.hub.rematch_wait_s = 1;
  serve(c);
  Reply made = post(port_, "/api/tables",
                    json{{"game", "latin"},
                         {"options", {{"target", "1"}}},
                         {"seats", {"human", "human", "human", "bot:casual"}},
                         {"bot_delay_ms", 0},
                         {"drop_delay_ms", 86400000}});
  ASSERT_EQ(made.status, 201) << made.body;
  const std::string id = made.j["id"];
  std::vector<std::string> tok;
  for (int k = 0; k < 3; ++k) tok.push_back(made.j["tokens"][std::to_string(k)]);
  for (const auto& x : tok) ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", x}}).status, 200);
  until(
      id, made.j["spectate"], [](const json& s) { return s["status"] == "over"; },
      [&](const json&) {
        for (const auto& x : tok) {
          const json s = view(id, x);
          if (s["to_act"] == true)
            post(port_, "/api/tables/" + id + "/moves", json{{"token", x}, {"move", s["legal"][0]}});
        }
      });
  // Seat 1 is still here (a connection), seat 2 has left.
  WsClient here(port_, "/ws?table=" + id + "&token=" + tok[1]);
  Reply offer = post(port_, "/api/tables/" + id + "/rematch", json{{"token", tok[0]}});
  ASSERT_EQ(offer.status, 200) << offer.body;
  EXPECT_EQ(offer.j["status"], "offered");
  std::this_thread::sleep_for(std::chrono::milliseconds(1600));
  EXPECT_FALSE(view(id, tok[0]).contains("rematch")) << "seat 1 is here and has not answered: no rematch yet";
  Reply yes = post(port_, "/api/tables/" + id + "/rematch", json{{"token", tok[1]}});
  ASSERT_EQ(yes.status, 200) << yes.body;
  ASSERT_TRUE(yes.j.contains("table")) << yes.body;
  const json gone = view(id, tok[2]);
  ASSERT_TRUE(gone.contains("rematch"));
  EXPECT_TRUE(gone["rematch"]["token"].is_null()) << "the one who left is not taken along";
  const json nst = view(yes.j["table"], yes.j["token"]);
  // Old seat k sits at k-1: old seat 2 (left) is new seat 1, now a bot.
  EXPECT_EQ(nst["seats"][1]["player"], "bot:casual") << nst["seats"].dump();
  EXPECT_EQ(nst["seats"][0]["player"], "human");
  EXPECT_EQ(nst["seats"][3]["player"], "human");
}

}  // namespace
}  // namespace boneyard::test
