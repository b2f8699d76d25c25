// The lobby (issue 25, 2): public tables list their open seats, live over
// /ws/lobby; one request takes a free seat; a seat whose player never comes
// is free again; nothing in the lobby holds a seat's token; an invitation
// opened holds its seat for whoever opened it alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "client.h"
#include "core/game.h"
#include "routes_world.h"
#include "server_fixture.h"

namespace boneyard::test {
namespace {

using server::ServerConfig;

class LobbyTest : public ServerFixture {
 protected:
  LobbyTest() : ServerFixture("lobby") {}
  void start(int claim_s = 60) {
    ServerConfig c = config();
    c.io_threads = 2;
    c.hub.claim_s = claim_s;
    serve(c);
  }
  void restart() { start(); }
  Reply create(const json& seats, bool is_public = true) {
    return post(port_, "/api/tables",
                json{{"game", "latin"}, {"seats", seats}, {"public", is_public}, {"bot_delay_ms", 0}});
  }
  json entry(const std::string& id) {
    const Reply r = get(port_, "/api/lobby");
    for (const auto& t : r.j["tables"])
      if (t["table"] == id) return t;
    return nullptr;
  }
};

TEST_F(LobbyTest, PublicTablesAreListedWithTheirFreeSeatsPrivateOnesNot) {
  start();
  Reply pub = create({"human", "open", "bot:casual", "open"});
  ASSERT_EQ(pub.status, 201) << pub.body;
  // The creator gets its own seat's token, never an open seat's.
  EXPECT_EQ(pub.j["tokens"].size(), 1u);
  EXPECT_TRUE(pub.j["tokens"].contains("0"));
  Reply priv =
      post(port_, "/api/tables", json{{"game", "latin"}, {"seats", {"human", "human", "bot:casual", "bot:casual"}}});
  ASSERT_EQ(priv.status, 201);
  const json e = entry(pub.j["id"]);
  ASSERT_TRUE(e.is_object()) << get(port_, "/api/lobby").body;
  EXPECT_EQ(e["game"], "latin");
  EXPECT_EQ(e["free"], 2);
  EXPECT_EQ(e["seats"][0]["kind"], "human");
  EXPECT_EQ(e["seats"][1]["kind"], "open");
  EXPECT_EQ(e["seats"][1]["taken"], false);
  EXPECT_EQ(e["seats"][2]["kind"], "bot");
  EXPECT_EQ(e["seats"][2]["level"], "casual");
  EXPECT_EQ(e["rated"], false);
  EXPECT_TRUE(entry(priv.j["id"]).is_null());
}

TEST_F(LobbyTest, BadLobbyRequestsAreRefusedWithReasons) {
  start();
  Reply r = create({"human", "open", "bot:casual", "bot:casual"}, false);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.j["error"].get<std::string>().find("public"), std::string::npos) << r.body;
  r = create({"human", "human", "bot:casual", "bot:casual"}, true);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.j["error"].get<std::string>().find("open"), std::string::npos) << r.body;
  r = post(port_, "/api/tables",
           json{{"game", "latin"}, {"seats", {"human", "open", "open", "open"}}, {"public", "yes"}});
  EXPECT_EQ(r.status, 400);
  const Reply pub = create({"human", "open", "bot:casual", "bot:casual"});
  const std::string id = pub.j["id"];
  EXPECT_EQ(post(port_, "/api/tables/" + id + "/sit", json{{"seat", 9}}).status, 400);
  EXPECT_EQ(post(port_, "/api/tables/" + id + "/sit", json{{"seat", 0}}).status, 409);  // the creator's
  EXPECT_EQ(post(port_, "/api/tables/" + id + "/sit", json{{"seat", "one"}}).status, 400);
  EXPECT_EQ(post(port_, "/api/tables/nope/sit", json::object()).status, 404);
  const Reply priv =
      post(port_, "/api/tables", json{{"game", "latin"}, {"seats", {"human", "human", "bot:casual", "bot:casual"}}});
  EXPECT_EQ(post(port_, "/api/tables/" + priv.j["id"].get<std::string>() + "/sit", json::object()).status, 403);
  EXPECT_EQ(post(port_, "/api/lobby", json::object()).status, 405);
}

TEST_F(LobbyTest, OneRequestTakesAFreeSeatAndTheGameStartsWhenAllCame) {
  start();
  const Reply pub = create({"human", "open", "bot:casual", "open"});
  const std::string id = pub.j["id"];
  const Reply a = post(port_, "/api/tables/" + id + "/sit", json::object());
  ASSERT_EQ(a.status, 201) << a.body;
  EXPECT_EQ(a.j["seat"], 1);
  EXPECT_EQ(entry(id)["free"], 1);
  EXPECT_EQ(entry(id)["seats"][1]["taken"], true);
  // The token holds that seat.
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + a.j["token"].get<std::string>()).j["seat"], 1);
  const Reply b = post(port_, "/api/tables/" + id + "/sit", json{{"seat", 3}, {"name", "Ana"}});
  ASSERT_EQ(b.status, 201) << b.body;
  // The name given when sitting down is the seat's.
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + b.j["token"].get<std::string>()).j["seats"][3]["name"], "Ana");
  // Full: gone from the lobby, and no seat left to take.
  EXPECT_TRUE(entry(id).is_null());
  EXPECT_EQ(post(port_, "/api/tables/" + id + "/sit", json::object()).status, 409);
  // Everyone joins: the game starts.
  for (const std::string& tok :
       {pub.j["tokens"]["0"].get<std::string>(), a.j["token"].get<std::string>(), b.j["token"].get<std::string>()})
    ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", tok}}).status, 200);
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + a.j["token"].get<std::string>()).j["status"], "playing");
}

TEST_F(LobbyTest, ASeatWhosePlayerNeverComesIsFreeAgainAndItsTokenVoid) {
  start(1);
  const Reply pub = create({"human", "open", "bot:casual", "bot:casual"});
  const std::string id = pub.j["id"];
  const Reply a = post(port_, "/api/tables/" + id + "/sit", json::object());
  ASSERT_EQ(a.status, 201);
  EXPECT_TRUE(entry(id).is_null());
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (entry(id).is_null() && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(entry(id).is_object()) << "the seat never came back to the lobby";
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + a.j["token"].get<std::string>()).status, 403);
  // A player who came in time keeps the seat.
  const Reply b = post(port_, "/api/tables/" + id + "/sit", json::object());
  ASSERT_EQ(b.status, 201);
  ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", b.j["token"]}}).status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + b.j["token"].get<std::string>()).status, 200);
}

TEST_F(LobbyTest, ATakenSeatSurvivesARestart) {
  start();
  const Reply pub = create({"human", "open", "open", "bot:casual"});
  const std::string id = pub.j["id"];
  const Reply a = post(port_, "/api/tables/" + id + "/sit", json::object());
  ASSERT_EQ(a.status, 201);
  restart();
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + a.j["token"].get<std::string>()).j["seat"], 1);
  const json e = entry(id);
  ASSERT_TRUE(e.is_object());
  EXPECT_EQ(e["free"], 1);
}

// An invitation link opened is claimed: its seat gets a new token for the
// person who opened it, and the link's own token is void from then on (its
// sender, or anyone the link reached, no longer sees that seat's hand), also
// after a restart. The spectator's token holds no seat to claim.
TEST_F(LobbyTest, AnInvitationClaimedHoldsItsSeatForWhoeverOpenedItAlone) {
  start();
  const Reply t = create({"human", "human", "bot:casual", "bot:casual"}, false);
  ASSERT_EQ(t.status, 201) << t.body;
  const std::string id = t.j["id"], invite = t.j["tokens"]["1"], creator = t.j["tokens"]["0"];
  const Reply c = post(port_, "/api/tables/" + id + "/claim", json{{"token", invite}});
  ASSERT_EQ(c.status, 200) << c.body;
  EXPECT_EQ(c.j["seat"], 1);
  const std::string mine = c.j["token"];
  EXPECT_NE(mine, invite);
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + mine).j["seat"], 1);
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + invite).status, 403);
  const Reply again = post(port_, "/api/tables/" + id + "/claim", json{{"token", invite}});
  EXPECT_EQ(again.status, 403);
  EXPECT_NE(again.body.find("this invitation opens no seat: it was used already"), std::string::npos) << again.body;
  EXPECT_EQ(post(port_, "/api/tables/" + id + "/claim", json{{"token", t.j["spectate"]}}).status, 403);
  restart();
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + mine).j["seat"], 1);
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + invite).status, 403);
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + creator).j["seat"], 0);
  // The game goes on with the claimed token.
  ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", creator}}).status, 200);
  ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", mine}}).status, 200);
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + mine).j["status"], "playing");
}

// A seat whose player has come is not claimed from under them: the link's
// token that joined stays the seat's (a second holder would see the hand while
// the first, socket open, still played it). The watching link says what it is.
TEST_F(LobbyTest, AJoinedSeatsInvitationIsNotClaimedAgain) {
  start();
  const Reply t = create({"human", "human", "human", "bot:casual"}, false);
  ASSERT_EQ(t.status, 201) << t.body;
  const std::string id = t.j["id"], invite = t.j["tokens"]["1"];
  ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", invite}}).status, 200);
  const Reply late = post(port_, "/api/tables/" + id + "/claim", json{{"token", invite}});
  EXPECT_EQ(late.status, 409) << late.body;
  EXPECT_NE(late.body.find("seat 1 has joined already"), std::string::npos) << late.body;
  EXPECT_EQ(get(port_, "/api/tables/" + id + "?token=" + invite).j["seat"], 1);
  // Claimed, then joined: the claimed token is not claimed again either.
  const Reply c = post(port_, "/api/tables/" + id + "/claim", json{{"token", t.j["tokens"]["2"]}});
  ASSERT_EQ(c.status, 200) << c.body;
  ASSERT_EQ(post(port_, "/api/tables/" + id + "/join", json{{"token", c.j["token"]}}).status, 200);
  EXPECT_EQ(post(port_, "/api/tables/" + id + "/claim", json{{"token", c.j["token"]}}).status, 409);
  const Reply watch = post(port_, "/api/tables/" + id + "/claim", json{{"token", t.j["spectate"]}});
  EXPECT_EQ(watch.status, 403);
  EXPECT_NE(watch.body.find("watching link"), std::string::npos) << watch.body;
}

TEST_F(LobbyTest, TheFeedSendsEveryChangeAndNoSeatToken) {
  start();
  WsClient lobby(port_, "/ws/lobby");
  lobby.start_reading();
  ASSERT_FALSE(lobby.wait_for([](const json& j) { return j["type"] == "lobby"; }, 10).is_null());
  const Reply pub = create({"human", "open", "bot:casual", "open"});
  const std::string id = pub.j["id"];
  // Each change alone, in order of its version.
  int64_t version = 0;
  auto change = [&](auto pred) {
    const json j = lobby.wait_for([](const json& m) { return m["type"] == "lobby_change"; }, 10);
    if (j.is_null()) return false;
    EXPECT_EQ(j["version"].get<int64_t>(), version + 1) << j;
    version = j["version"];
    return pred(j);
  };
  EXPECT_TRUE(change([&](const json& j) { return j["table"]["table"] == id && j["table"]["free"] == 2; }));
  const Reply a = post(port_, "/api/tables/" + id + "/sit", json::object());
  EXPECT_TRUE(change([&](const json& j) { return j["table"]["table"] == id && j["table"]["free"] == 1; }));
  const Reply b = post(port_, "/api/tables/" + id + "/sit", json::object());
  EXPECT_TRUE(change([&](const json& j) { return j["removed"] == id; }));
  // A watcher that comes now gets the list as it is.
  WsClient late(port_, "/ws/lobby");
  late.start_reading();
  const json list = late.wait_for([](const json& j) { return j["type"] == "lobby"; }, 10);
  ASSERT_TRUE(list.is_object());
  EXPECT_EQ(list["version"], version);
  EXPECT_TRUE(list["tables"].empty());
  // A message to the feed gets an error, not a crash.
  lobby.send("{\"type\":\"hello\"}");
  EXPECT_FALSE(lobby.wait_for([](const json& j) { return j.contains("error"); }, 10).is_null());
  // Secrecy: no token of any seat (nor the spectators') in anything sent.
  for (const auto& m : lobby.all())
    for (const std::string& tok : {pub.j["tokens"]["0"].get<std::string>(), pub.j["spectate"].get<std::string>(),
                                   a.j["token"].get<std::string>(), b.j["token"].get<std::string>()})
      EXPECT_EQ(m.find(tok), std::string::npos) << m;
  EXPECT_EQ(get(port_, "/api/lobby").body.find(a.j["token"].get<std::string>()), std::string::npos);
}

// Sitting down is counted per player key as well as per address: one
// person cannot take seats faster by moving between addresses.
TEST(LobbyLimits, SittingDownIsLimitedPerPlayerKeyAsWellAsPerAddress) {
  RoutesWorld w;
  server::LimitsConfig cfg;
  cfg.create = {100, 100};      // the addresses have room to spare
  cfg.sit_player = {0.001, 2};  // a player key: two seats, then a long wait
  server::Limits lim(cfg);
  auto send = [&](const std::string& target, const json& body, const std::string& addr) {
    const std::string text = body.dump();
    return server::handle_request(*w.hub, "", server::Request{"POST", target, text, "application/json", addr, &lim});
  };
  const json ann = json::parse(send("/api/players", {{"name", "Ann"}}, "10.0.0.1").body);
  const json bo = json::parse(send("/api/players", {{"name", "Bo"}}, "10.0.0.1").body);
  auto table = [&] {
    return w.hub->create({{"game", "latin"}, {"seats", {"human", "open", "open", "open"}}, {"public", true}})["id"]
        .get<std::string>();
  };
  auto sit = [&](const json& body, const std::string& addr) {
    return send("/api/tables/" + table() + "/sit", body, addr);
  };
  EXPECT_EQ(sit({{"key", ann["key"]}}, "10.0.0.1").status, 201);
  EXPECT_EQ(sit({{"key", ann["key"]}}, "10.0.0.2").status, 201);
  const auto r = sit({{"key", ann["key"]}}, "10.0.0.3");  // a fresh address, the same player
  EXPECT_EQ(r.status, 429) << r.body;
  EXPECT_NE(r.body.find("too many seats taken by this player"), std::string::npos) << r.body;
  bool retry = false;
  for (const auto& [k, v] : r.headers) retry |= k == "Retry-After" && std::stoi(v) >= 1;
  EXPECT_TRUE(retry);
  // That address, and another player, are not held up by Ann's share.
  EXPECT_EQ(sit(json::object(), "10.0.0.3").status, 201);
  EXPECT_EQ(sit({{"key", bo["key"]}}, "10.0.0.3").status, 201);
  // And the address's own share still applies to everyone there.
  server::LimitsConfig tight;
  tight.create = {0.001, 1};
  server::Limits one(tight);
  const std::string text = json{{"key", bo["key"]}}.dump();
  EXPECT_EQ(server::handle_request(
                *w.hub, "",
                server::Request{"POST", "/api/tables/" + table() + "/sit", text, "application/json", "10.0.0.9", &one})
                .status,
            201);
  EXPECT_EQ(server::handle_request(
                *w.hub, "",
                server::Request{"POST", "/api/tables/" + table() + "/sit", "{}", "application/json", "10.0.0.9", &one})
                .status,
            429);
}

}  // namespace
}  // namespace boneyard::test
