// The turn clock (docs/server.md, "Turn clock"): an idle human seat's move
// is played by the takeover bot at its timeout and the seat is marked; the
// bank is spent before the timeout; the banks and marks survive a restart;
// bad options are refused. The clock's second is scaled down
// (clock_second_ms), the rules are those of production. Nothing asserts on
// how long anything took.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "client.h"
#include "core/game.h"
#include "routes_world.h"
#include "server/net.h"
#include "test_store.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;

class ClockTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { register_all_games(); }
  void SetUp() override { dir_ = temp_dir("boneyard-clock", "t"); }
  void TearDown() override {
    srv_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void start(int second_ms) {
    server::ServerConfig c;
    c.port = 0;
    c.db = test_db((dir_ / "test.db").string());
    c.io_threads = 2;
    c.full_sync = false;
    c.hub.bot_threads = 2;
    c.hub.clock_second_ms = second_ms;
    srv_ = std::make_unique<server::Server>(c);
    srv_->start();
    port_ = srv_->port();
  }
  json view(const std::string& id, const std::string& token) {
    Reply r = get(port_, fmt::format("/api/tables/{}?token={}", id, token));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.j;
  }
  // Polls the seat's state until pred holds (60 s at most).
  template <class P>
  json until(const std::string& id, const std::string& token, P pred) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    json v;
    while (std::chrono::steady_clock::now() < end) {
      v = view(id, token);
      if (pred(v)) return v;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ADD_FAILURE() << "never happened; last state: " << v.dump();
    return v;
  }
  json create(json body) {
    body["game"] = "latin";
    body["seats"] = {"human", "bot:casual", "bot:casual", "bot:casual"};
    if (!body.contains("seed"))
      body["bot_delay_ms"] = 0;
    else
      body["bot_delay_ms"] = 20;
    body["drop_delay_ms"] = 86400000;  // the seat is never dropped: only the clock acts for it
    Reply r = post(port_, "/api/tables", body);
    EXPECT_EQ(r.status, 201) << r.body;
    return r.j;
  }
  fs::path dir_;
  std::unique_ptr<server::Server> srv_;
  unsigned short port_ = 0;
};

TEST_F(ClockTest, AnIdleSeatsMoveIsPlayedByTheBotAtTimeoutAndTheSeatIsMarked) {
  start(10);  // 15 s a move: 150 ms; a bank of 10 s: 100 ms
  const json t = create({{"clock_s", 15}, {"bank_s", 10}});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  WsClient ws(port_, fmt::format("/ws?table={}&token={}", id, tok));  // present: never on autopilot
  ws.start_reading();
  const json turn = until(id, tok, [](const json& v) { return v["to_act"] == true || v["status"] == "over"; });
  ASSERT_EQ(turn["to_act"], true) << turn.dump();
  const json& c = turn["clock"];
  EXPECT_EQ(c["move_s"], 15);
  EXPECT_EQ(c["bank_s"], 10);
  EXPECT_EQ(c["seats"][0]["running"], true);
  EXPECT_LE(c["seats"][0]["remaining_ms"].get<int>(), 250);
  EXPECT_EQ(c["seats"][0]["timeouts"], 0);
  EXPECT_FALSE(c["seats"][1].contains("remaining_ms"));  // a bot's seat is not timed
  // Nobody moves for seat 0: the bot does, and the seat is marked.
  const int version = turn["version"];
  const json after = until(id, tok, [&](const json& v) { return v["version"].get<int>() > version; });
  EXPECT_EQ(after["clock"]["seats"][0]["timeouts"], 1) << after.dump();
  EXPECT_EQ(after["clock"]["seats"][0]["bank_ms"], 0);  // spent before the timeout
  EXPECT_EQ(after["seats"][0]["autopilot"], false);     // one move only: the seat stays the person's
  EXPECT_EQ(after["seats"][0]["connected"], true);
  bool told = false;
  for (const auto& n : after["notices"])
    told |= n["text"].get<std::string>().find("ran out of time") != std::string::npos;
  EXPECT_TRUE(told) << after["notices"].dump();
  bool seat0_moved = false;
  for (const auto& e : after["log"])
    seat0_moved |= e["kind"] == "move" && e["seat"] == 0 && e["n"].get<int>() >= version;
  EXPECT_TRUE(seat0_moved) << after["log"].dump();
  // The marks and the empty bank are stored with the table.
  srv_.reset();
  start(10);
  const json back = view(id, tok);
  EXPECT_EQ(back["clock"]["seats"][0]["timeouts"].get<int>() >= 1, true) << back.dump();
}

// Whoever opens, with the bots' usual delay: every seed's idle seat is played for.
TEST_F(ClockTest, TheClockPlaysForTheIdleSeatWhoeverOpens) {
  start(10);
  std::vector<std::pair<std::string, std::string>> tables;
  for (int seed = 1; seed <= 6; ++seed) {
    json t = create({{"clock_s", 15}, {"bank_s", 5}, {"seed", seed}});
    tables.emplace_back(t["id"], t["tokens"]["0"]);
  }
  std::vector<std::unique_ptr<WsClient>> ws;
  for (const auto& [id, tok] : tables) {
    ws.push_back(std::make_unique<WsClient>(port_, fmt::format("/ws?table={}&token={}", id, tok)));
    ws.back()->start_reading();
  }
  for (const auto& [id, tok] : tables) {
    const json v = until(id, tok, [](const json& s) {
      return s["status"] == "over" || (s.contains("clock") && s["clock"]["seats"][0]["timeouts"].get<int>() >= 2);
    });
    EXPECT_GE(v["clock"]["seats"][0]["timeouts"].get<int>(), 2) << v.dump();
  }
}

TEST_F(ClockTest, TheBankIsSpentBeforeTheTimeout) {
  start(20);  // 15 s a move: 300 ms; a bank of 30 s: 600 ms
  const json t = create({{"clock_s", 15}, {"bank_s", 30}});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  WsClient ws(port_, fmt::format("/ws?table={}&token={}", id, tok));
  ws.start_reading();
  // Wait until the move's own time is used and the bank is draining, then move.
  const json v = until(id, tok, [](const json& s) {
    const json& mine = s["clock"]["seats"][0];
    return s["status"] == "over" || (s["to_act"] == true && mine.value("move_ms", 1) == 0 &&
                                     mine["bank_ms"].get<int>() < 590 && mine["timeouts"] == 0);
  });
  ASSERT_EQ(v["to_act"], true) << v.dump();
  EXPECT_LT(v["clock"]["seats"][0]["bank_ms"].get<int>(), 600);
  Reply r = post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", tok}, {"move", v["legal"][0]}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json& mine = r.j["clock"]["seats"][0];
  EXPECT_EQ(mine["timeouts"], 0) << r.body;
  EXPECT_LT(mine["bank_ms"].get<int>(), 600) << r.body;  // what the turn used beyond its 300 ms
}

// The next hand is dealt at once, behind the hand's result: a seat's first
// turn after a hand ends has kReadingS seconds more, its later turns not.
TEST_F(ClockTest, ASeatsFirstTurnAfterAHandEndsHasTimeToReadTheResult) {
  start(20);
  const json t = create({{"clock_s", 15}, {"bank_s", 30}});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  WsClient ws(port_, fmt::format("/ws?table={}&token={}", id, tok));
  ws.start_reading();
  const int64_t reading = int64_t{server::TurnClock::kReadingS} * 20;
  std::vector<std::pair<int, int64_t>> turns;  // (hands finished, reading_ms) of each turn of seat 0
  int version = -1;
  while (turns.empty() || turns.back().first < 2) {
    const json v = until(id, tok, [&](const json& s) {
      return s["status"] == "over" || (s["to_act"] == true && s["version"].get<int>() > version);
    });
    if (v["status"] == "over") break;
    version = v["version"];
    const json& mine = v["clock"]["seats"][0];
    ASSERT_EQ(mine["running"], true) << v.dump();
    const int64_t read = mine.value("reading_ms", int64_t{0});
    turns.emplace_back(v["hands_finished"].get<int>(), read);
    EXPECT_LE(mine["move_ms"].get<int64_t>(), 15 * 20 + read);
    Reply r = post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", tok}, {"move", v["legal"][0]}});
    ASSERT_EQ(r.status, 200) << r.body;
  }
  ASSERT_GE(turns.size(), 3u);
  int firsts = 0;
  for (size_t i = 0; i < turns.size(); ++i) {
    const bool first_after_a_hand = turns[i].first > (i == 0 ? 0 : turns[i - 1].first);
    EXPECT_EQ(turns[i].second, first_after_a_hand ? reading : 0) << "turn " << i << " in hand " << turns[i].first + 1;
    firsts += first_after_a_hand;
  }
  EXPECT_GE(firsts, 1);
}

TEST(ClockOptions, BadValuesAreRefusedWithAClearError) {
  RoutesWorld w;
  auto create = [&](json extra) {
    json body{{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}};
    for (auto& [k, v] : extra.items()) body[k] = v;
    return w.post("/api/tables", body.dump());
  };
  for (const json& bad : {json(20), json(-15), json("30"), json(30.5), json(600)}) {
    auto [status, j] = create({{"clock_s", bad}});
    EXPECT_EQ(status, 400) << bad.dump();
    EXPECT_NE(j["error"].get<std::string>().find("'clock_s' must be 0 (no clock), 15, 30 or 60"), std::string::npos)
        << j.dump();
  }
  for (const json& bad : {json(-1), json(301), json("10")}) {
    auto [status, j] = create({{"clock_s", 30}, {"bank_s", bad}});
    EXPECT_EQ(status, 400) << bad.dump();
    EXPECT_NE(j["error"].get<std::string>().find("'bank_s' must be a whole number of seconds from 0 to 300"),
              std::string::npos)
        << j.dump();
  }
  auto [status, j] = create({{"bank_s", 20}});
  EXPECT_EQ(status, 400);
  EXPECT_NE(j["error"].get<std::string>().find("needs a clock"), std::string::npos) << j.dump();
  // Good values: the state shows the clock (the bank 30 s unless set); no clock, no "clock".
  auto [s1, made] = create({{"clock_s", 60}});
  ASSERT_EQ(s1, 201) << made.dump();
  const json st = w.hub->get(made["id"], made["tokens"]["0"]);
  EXPECT_EQ(st["clock"]["move_s"], 60);
  EXPECT_EQ(st["clock"]["bank_s"], 30);
  EXPECT_EQ(st["clock"]["seats"][0]["bank_ms"], 30000);
  auto [s2, plain] = create({{"clock_s", 0}});
  ASSERT_EQ(s2, 201);
  EXPECT_FALSE(w.hub->get(plain["id"], plain["tokens"]["0"]).contains("clock"));
}

}  // namespace
}  // namespace boneyard::test
