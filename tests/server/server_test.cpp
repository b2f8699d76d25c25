// The game server end to end over loopback (docs/server.md): the API for
// every family, secrecy of every message, reconnects and bot takeover,
// fairness verification, crash recovery of a real `boneyard serve` process,
// and bad input of every kind. Every wait is bounded; nothing asserts on time.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>

#include "child_server.h"
#include "client.h"
#include "core/game.h"
#include "record/session.h"
#include "server/fairness.h"
#include "server/net.h"
#include "test_paths.h"  // BONEYARD_EXE, BONEYARD_SOURCE_DIR
#include "test_store.h"
#include "tile_scan.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using server::Server;
using server::ServerConfig;

const std::vector<std::string> kGames = {"latin", "jamaica", "mexican-train", "texas-42", "dice-and-dominoes"};

// The move a record holds at VERSION, a move's own: the last event before
// it that is not a chance outcome the move led to (a deal).
json own_event(const json& events, const json& version) {
  if (!version.is_number_integer()) return nullptr;
  auto i = version.get<int64_t>() - 1;
  if (i < 0 || i >= static_cast<int64_t>(events.size())) return nullptr;
  while (i > 0 && events[static_cast<size_t>(i)].contains("chance")) --i;
  return events[static_cast<size_t>(i)].value("move", json());
}

class ServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { register_all_games(); }
  void SetUp() override { dir_ = temp_dir("boneyard-server", "t"); }
  void TearDown() override {
    srv_.reset();
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void start(std::function<void(ServerConfig&)> tweak = {}) {
    ServerConfig c;
    c.port = 0;
    c.db = test_db((dir_ / "test.db").string());
    c.io_threads = 2;
    c.full_sync = false;
    c.hub.bot_threads = 2;
    c.hub.strong_ms = 5;
    c.hub.expert_ms = 10;
    c.hub.expert_threads = 1;
    if (tweak) tweak(c);
    srv_ = std::make_unique<Server>(c);
    srv_->start();
    port_ = srv_->port();
  }
  json create(const std::string& game, const std::vector<std::string>& seats, json extra = json::object()) {
    json body{{"game", game}, {"seats", seats}, {"bot_delay_ms", 0}};
    for (auto& [k, v] : extra.items()) body[k] = v;
    Reply r = post(port_, "/api/tables", body);
    EXPECT_EQ(r.status, 201) << r.body;
    return r.j;
  }
  // Seats for game g: seat 0 human, the rest casual bots.
  std::vector<std::string> one_human(const std::string& g, const std::string& level = "bot:casual") {
    Reply r = post(port_, "/api/tables", json{{"game", g}, {"seats", json::array()}});
    // The error names the number of seats: "... has N seats; ..."
    std::smatch m;
    std::string err = r.j.value("error", "");
    int n = 4;
    if (std::regex_search(err, m, std::regex("has (\\d+) seats"))) n = std::stoi(m[1]);
    std::vector<std::string> s(static_cast<size_t>(n), level);
    s[0] = "human";
    return s;
  }
  json view(const std::string& id, const std::string& token) {
    Reply r = get(port_, fmt::format("/api/tables/{}?token={}", id, token));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.j;
  }
  // Plays seat `token` with random legal moves until the game is over.
  json play_out(const std::string& id, const std::string& token, uint64_t seed, int max_moves = 100000) {
    std::mt19937_64 rng(seed);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    int moves = 0;
    while (std::chrono::steady_clock::now() < end) {
      json v = view(id, token);
      if (v["status"] == "over" || v["status"] == "broken") return v;
      if (v["to_act"] == true && moves < max_moves) {
        const auto& legal = v["legal"];
        Reply r = post(port_, fmt::format("/api/tables/{}/moves", id),
                       {{"token", token}, {"move", legal[rng() % legal.size()]}});
        EXPECT_EQ(r.status, 200) << r.body;
        ++moves;
        if (moves >= max_moves) return r.j;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    ADD_FAILURE() << "the game did not end in time";
    return nullptr;
  }
  fs::path dir_;
  std::unique_ptr<Server> srv_;
  unsigned short port_ = 0;
};

// ------------------------------------------------------------ API end to end

class ApiGame : public ServerTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(ApiGame, WholeGameWithOneHumanSeat) {
  start();
  const std::string g = GetParam();
  auto seats = one_human(g);
  seats.back() = g == "latin" ? "bot:strong" : "bot:beginner";
  json t = create(g, seats);
  const std::string id = t["id"], tok = t["tokens"]["0"];
  ASSERT_EQ(t["commitment"].get<std::string>().size(), 64u);
  // Before joining: waiting, no view; moves are refused.
  json v = view(id, tok);
  EXPECT_EQ(v["status"], "waiting");
  EXPECT_TRUE(v["view"].is_null());
  EXPECT_EQ(post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", tok}, {"move", "pass"}}).status, 409);
  Reply j = post(port_, fmt::format("/api/tables/{}/join", id), {{"token", tok}, {"entropy", "my dice"}});
  ASSERT_EQ(j.status, 200) << j.body;
  EXPECT_NE(j.j["status"], "waiting");
  EXPECT_EQ(post(port_, fmt::format("/api/tables/{}/entropy", id), {{"token", tok}, {"entropy", "late"}}).status, 409);
  // An illegal move is refused with the state unchanged.
  for (int i = 0; i < 2000; ++i) {
    v = view(id, tok);
    if (v["to_act"] == true || v["status"] == "over") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (v["to_act"] == true) {
    Reply bad = post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", tok}, {"move", "no-such-move"}});
    EXPECT_EQ(bad.status, 400) << bad.body;
    EXPECT_TRUE(bad.j.contains("error"));
    json after = view(id, tok);
    // Bots may move in between (Dice & Dominoes: all at once with this seat);
    // the refused move itself changed nothing: the seat still has to act.
    EXPECT_EQ(after["to_act"], true);
    if (after["version"] == v["version"]) {
      EXPECT_EQ(after["view"], v["view"]);
    }
  }
  // The record is refused until the end.
  if (v["status"] != "over") {
    EXPECT_EQ(get(port_, fmt::format("/api/tables/{}/record", id)).status, 409);
  }
  json fin = play_out(id, tok, 7);
  ASSERT_EQ(fin["status"], "over");
  EXPECT_TRUE(fin.contains("returns"));
  EXPECT_EQ(fin["secret"].get<std::string>().size(), 64u);
  Reply rec = get(port_, fmt::format("/api/tables/{}/record", id));
  ASSERT_EQ(rec.status, 200) << rec.body;
  Session s = Session::from_record(rec.j);  // what `boneyard replay` does
  EXPECT_TRUE(s.state().terminal());
  EXPECT_NO_THROW(server::verify_record(rec.j));
  EXPECT_EQ(rec.j["fairness"]["entropies"][0], "my dice");
  Reply f = get(port_, fmt::format("/api/tables/{}/fairness", id));
  ASSERT_EQ(f.status, 200);
  EXPECT_EQ(f.j["secret"], rec.j["fairness"]["secret"]);
  EXPECT_EQ(f.j["seed"], rec.j["seed"]);
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, ApiGame, ::testing::ValuesIn(kGames),
                         [](const auto& info) { return std::regex_replace(info.param, std::regex("-"), "_"); });

// ------------------------------------------------------------ secrecy

class Secrecy : public ServerTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(Secrecy, NoMessageShowsATileItsReaderMayNotKnow) {
  start();
  const std::string g = GetParam();
  auto seats = one_human(g);
  seats[1] = "human";  // a second human, played over HTTP
  // Jamaica is won 6-0 and starts over once every side has won a hand: at
  // random, a game of thousands of moves (most of this suite's time under
  // ASan). Won 2-0 it still has two hands or more, and often starts over.
  json t = create(g, seats, g == "jamaica" ? json{{"options", {{"target", "2"}}}} : json::object());
  const std::string id = t["id"], tok0 = t["tokens"]["0"], tok1 = t["tokens"]["1"];
  WsClient me(port_, fmt::format("/ws?table={}&token={}&entropy=abc", id, tok0));
  me.start_reading();
  WsClient watcher(port_, fmt::format("/ws?table={}&token={}", id, t["spectate"].get<std::string>()));
  watcher.start_reading();
  ASSERT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", tok1}}).status, 200);
  std::vector<json> http_msgs;  // seat 1's replies
  std::mt19937_64 rng(3);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(100);
  bool over = false, me_over = false;
  while (!over && std::chrono::steady_clock::now() < end) {
    json m = me.wait_for([](const json& j) { return j.value("type", "") == "state"; }, 0.02);
    if (!m.is_null() && m["status"] == "over") me_over = true;
    if (!m.is_null() && m["to_act"] == true) {
      // Act only on the newest state.
      json v = view(id, tok0);
      if (v["to_act"] == true && v["version"] == m["version"])
        me.send(json{{"type", "move"}, {"move", v["legal"][rng() % v["legal"].size()]}}.dump());
    }
    json v1 = view(id, tok1);
    http_msgs.push_back(v1);
    if (v1["to_act"] == true) {
      Reply r = post(port_, fmt::format("/api/tables/{}/moves", id),
                     {{"token", tok1}, {"move", v1["legal"][rng() % v1["legal"].size()]}});
      if (r.status == 200) http_msgs.push_back(r.j);
    }
    if (v1["status"] == "over") over = true;
  }
  ASSERT_TRUE(over) << "the game did not end in time";
  if (!me_over) {
    ASSERT_FALSE(me.wait_for([](const json& j) { return j.value("status", "") == "over"; }, 30).is_null());
  }
  ASSERT_FALSE(watcher.wait_for([](const json& j) { return j.value("status", "") == "over"; }, 30).is_null());
  Reply rec = get(port_, fmt::format("/api/tables/{}/record", id));
  ASSERT_EQ(rec.status, 200);
  const std::string secret = rec.j["fairness"]["secret"];
  EXPECT_GE(rec.j["hands"].size(), 2u) << "the messages between hands were not seen";
  struct Msg {
    int seat;
    json j;
  };
  std::vector<Msg> msgs;
  for (const auto& s : me.all()) msgs.push_back({0, json::parse(s)});
  for (const auto& s : watcher.all()) msgs.push_back({-1, json::parse(s)});
  for (const auto& j : http_msgs) msgs.push_back({1, j});
  // The whole view at each version a message names, from one replay of the
  // record (a replay per version was quadratic: 45 s for Mexican Train under ASan).
  std::map<int, json> full_at;
  for (const auto& [seat, j] : msgs)
    if (j.value("type", "") == "state" && !j["view"].is_null()) full_at[j["version"].get<int>()];
  EXPECT_NO_THROW(Session::from_record(rec.j));  // the record replays to its results
  {
    Session replay = Session::start_of_record(rec.j);
    const auto events = Session::record_events(rec.j);
    size_t applied = 0;
    for (auto& [version, full] : full_at) {  // in increasing order
      while (applied < events.size() && static_cast<int>(applied) < version) replay.apply_event(events[applied++]);
      full = replay.state().view(-1);
    }
  }
  size_t checked = 0;
  for (const auto& [seat, j] : msgs) {
    if (j.value("type", "") != "state" || j["view"].is_null()) continue;
    const std::string text = j.dump();
    if (j["status"] != "over") {
      EXPECT_EQ(text.find(secret), std::string::npos) << "the secret leaked before the end";
    }
    EXPECT_EQ(text.find("\"stock\""), std::string::npos);
    if (seat < 0) {
      EXPECT_TRUE(j["view"]["seat"].is_null());
    }
    const int version = j["version"];
    const json& full = full_at.at(version);
    std::vector<std::string> leaks;
    scan(j, forbidden(full, seat), "", leaks, /*echo=*/true);
    EXPECT_TRUE(leaks.empty()) << "seat " << seat << " at version " << version << " was sent: " << leaks[0];
    ++checked;
    if (HasFailure()) break;
  }
  EXPECT_GT(checked, 10u);
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, Secrecy, ::testing::ValuesIn(kGames),
                         [](const auto& info) { return std::regex_replace(info.param, std::regex("-"), "_"); });

TEST_F(ServerTest, PublicViewHidesEveryHandInEveryFamily) {
  register_all_games();
  for (const auto& g : kGames) {
    Session s(g, {}, 5);
    s.settle_chance();
    const json pv = server::public_view(s.state());
    EXPECT_TRUE(pv["seat"].is_null());
    std::vector<std::string> leaks;
    scan(pv, forbidden(s.state().view(-1), -1), g, leaks);
    EXPECT_TRUE(leaks.empty()) << leaks[0];
  }
}

// ------------------------------------------------------------ fairness

TEST_F(ServerTest, FinishedGameVerifiesAndTamperedRecordsDoNot) {
  start();
  json t = create("latin", {"bot:casual", "bot:beginner", "bot:casual", "bot:beginner"});
  const std::string id = t["id"];
  Reply rec;
  for (int i = 0; i < 20000; ++i) {
    rec = get(port_, fmt::format("/api/tables/{}/record", id));
    if (rec.status == 200) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(rec.status, 200) << rec.body;
  EXPECT_NO_THROW(server::verify_record(rec.j));
  EXPECT_EQ(server::commitment_of(rec.j["fairness"]["secret"]), t["commitment"]);
  // A changed deal: swap two tiles between hands in the first deal.
  {
    json bad = rec.j;
    std::string deal = bad["events"][0]["chance"];
    const std::regex tile("\\d-\\d");
    std::vector<std::pair<size_t, std::string>> at;
    for (auto it = std::sregex_iterator(deal.begin(), deal.end(), tile); it != std::sregex_iterator(); ++it)
      at.emplace_back(static_cast<size_t>(it->position()), it->str());
    ASSERT_GT(at.size(), 10u);
    std::swap(deal[at[0].first], deal[at.back().first]);
    std::swap(deal[at[0].first + 2], deal[at.back().first + 2]);
    bad["events"][0]["chance"] = deal;
    EXPECT_THROW(server::verify_record(bad), Error);
  }
  {
    json bad = rec.j;
    std::string s = bad["fairness"]["secret"];
    s[0] = s[0] == 'a' ? 'b' : 'a';
    bad["fairness"]["secret"] = s;
    EXPECT_THROW(server::verify_record(bad), Error);
  }
  {
    json bad = rec.j;
    bad["fairness"]["entropies"][1] = "forged";
    EXPECT_THROW(server::verify_record(bad), Error);
  }
  // The command line.
  const fs::path good = dir_ / "good.json", forged = dir_ / "forged.json";
  std::ofstream(good) << rec.j.dump();
  json bad = rec.j;
  bad["fairness"]["secret"] = std::string(64, '0');
  std::ofstream(forged) << bad.dump();
  EXPECT_EQ(std::system(fmt::format("{} verify {} >/dev/null", BONEYARD_EXE, good.string()).c_str()), 0);
  EXPECT_NE(std::system(fmt::format("{} verify {} >/dev/null 2>&1", BONEYARD_EXE, forged.string()).c_str()), 0);
  EXPECT_EQ(std::system(fmt::format("{} replay -q {} >/dev/null", BONEYARD_EXE, good.string()).c_str()), 0);
}

TEST_F(ServerTest, SeedDerivationIsAsDocumented) {
  const std::string secret(64, 'a');
  // SHA-256 over the secret's bytes, then SHA-256 of each entropy.
  std::string in = server::from_hex(secret);
  for (const char* e : {"x", "", "yz"}) in += server::sha256_raw(e);
  const std::string h = server::sha256_raw(in);
  uint64_t want = 0;
  for (int i = 0; i < 8; ++i) want = want << 8 | static_cast<unsigned char>(h[static_cast<size_t>(i)]);
  EXPECT_EQ(server::derive_seed(secret, {"x", "", "yz"}), want);
  EXPECT_NE(server::derive_seed(secret, {"x", "", "yz"}), server::derive_seed(secret, {"x", "y", "z"}));
  EXPECT_EQ(server::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// ------------------------------------------------------------ dropped players

TEST_F(ServerTest, DroppedPlayerIsReplacedByABotAndTakesTheSeatBack) {
  start();
  // Bots a little slow: at full speed, on a loaded machine, the whole game
  // could end before the seat's bot was seen to move.
  json t = create("latin", {"human", "bot:casual", "bot:casual", "bot:casual"},
                  {{"drop_delay_ms", 20}, {"bot_delay_ms", 15}});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  json first;
  {
    WsClient c(port_, fmt::format("/ws?table={}&token={}", id, tok));
    c.start_reading();
    first = c.wait_for([](const json& j) { return j.value("type", "") == "state" && j["status"] == "playing"; });
    ASSERT_FALSE(first.is_null());
    EXPECT_EQ(first["seats"][0]["connected"], true);
  }  // disconnects
  // The seat is kept; a bot plays it after the delay and the others are told.
  json v;
  for (int i = 0; i < 20000; ++i) {
    v = view(id, tok);
    if (v["seats"][0]["autopilot"] == true || v["status"] == "over") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(v["seats"][0]["autopilot"], true) << v.dump();
  bool told = false;
  for (const auto& n : v["notices"]) told |= n["text"].get<std::string>().find("away") != std::string::npos;
  EXPECT_TRUE(told);
  // The bot makes moves for seat 0.
  json later;
  for (int i = 0; i < 20000; ++i) {
    later = view(id, tok);
    if (later["status"] == "over" || later["version"].get<int>() > v["version"].get<int>() + 8) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_GT(later["version"].get<int>(), v["version"].get<int>());
  // Back with the token: the seat is the person's again.
  WsClient c(port_, fmt::format("/ws?table={}&token={}", id, tok));
  c.start_reading();
  json back = c.wait_for([](const json& j) { return j.value("type", "") == "state"; });
  ASSERT_FALSE(back.is_null());
  EXPECT_EQ(back["seats"][0]["autopilot"], false);
  EXPECT_EQ(back["seats"][0]["connected"], true);
  // Play to the end over the WebSocket: every move acknowledged, at its own
  // version in the record.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  bool over = false;
  std::vector<json> acks;
  while (!over && std::chrono::steady_clock::now() < end) {
    json s = view(id, tok);
    if (s["status"] == "over")
      over = true;
    else if (s["to_act"] == true) {
      EXPECT_EQ(s["seats"][0]["autopilot"], false);
      c.send(json{{"type", "move"}, {"move", s["legal"][0]}}.dump());
      json ack =
          c.wait_for([](const json& j) { return j.value("type", "") == "ack" || j.value("type", "") == "error"; });
      ASSERT_FALSE(ack.is_null());
      ASSERT_EQ(ack["type"], "ack") << ack.dump();
      acks.push_back(ack);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  EXPECT_TRUE(over);
  ASSERT_FALSE(acks.empty());
  const json events = get(port_, fmt::format("/api/tables/{}/record", id)).j["events"];
  for (const json& ack : acks) EXPECT_EQ(own_event(events, ack["version"]), ack["move"]) << ack.dump();
}

// A move's answer names the version the move made, though a bot may have
// moved while it was stored (the state answered is then later): the
// record holds the move there. Bots without delay, so that they often do.
TEST_F(ServerTest, AMovesAnswerNamesTheVersionItMade) {
  start();
  json t = create("latin", {"human", "bot:beginner", "bot:beginner", "bot:beginner"}, {{"bot_delay_ms", 0}});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  ASSERT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", tok}}).status, 200);
  std::vector<json> answers;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  for (json s = view(id, tok); s["status"] != "over" && std::chrono::steady_clock::now() < end; s = view(id, tok)) {
    if (s["to_act"] != true) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    const Reply r = post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", tok}, {"move", s["legal"][0]}});
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_TRUE(r.j.contains("move_version")) << r.body;
    EXPECT_LE(r.j["move_version"].get<int64_t>(), r.j["version"].get<int64_t>());
    answers.push_back(r.j);
  }
  ASSERT_FALSE(answers.empty());
  const json events = get(port_, fmt::format("/api/tables/{}/record", id)).j["events"];
  for (const json& a : answers) EXPECT_EQ(own_event(events, a["move_version"]), a["move"]) << a["move_version"];
}

// ------------------------------------------------------------ crash recovery

// Stable: seat 0 is the only one to act, or the game is over.
bool settled(const json& v) {
  if (v["status"] == "over") return true;
  if (v["to_act"] != true) return false;
  const json& a = v["actor"];
  return a["kind"] == "seat" || (a["kind"] == "simultaneous" && a["seats"].size() == 1);
}

TEST_F(ServerTest, KilledServerComesBackWithEveryTableAsItWas) {
  const std::string db = test_db((dir_ / "crash.db").string());
  Child c = spawn_server(db);
  ASSERT_GT(c.port, 0);
  port_ = c.port;
  struct T {
    std::string id, tok;
    json before;
  };
  std::vector<T> tables;
  for (const auto& g : {"latin", "mexican-train", "texas-42", "dice-and-dominoes"}) {
    auto seats = one_human(g);
    json t = create(g, seats, {{"drop_delay_ms", 600000}});
    tables.push_back({t["id"], t["tokens"]["0"], nullptr});
    ASSERT_EQ(post(port_, fmt::format("/api/tables/{}/join", t["id"].get<std::string>()), {{"token", t["tokens"]["0"]}})
                  .status,
              200);
  }
  // A table of bots, still playing when the server dies.
  json bots = create("latin", {"bot:casual", "bot:beginner", "bot:casual", "bot:beginner"}, {{"bot_delay_ms", 20}});
  for (auto& t : tables) play_out(t.id, t.tok, 11, 6);
  for (auto& t : tables) {
    for (int i = 0; i < 20000; ++i) {
      t.before = view(t.id, t.tok);
      if (settled(t.before)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_TRUE(settled(t.before));
  }
  const int bots_version = view(bots["id"], bots["spectate"])["version"];
  kill(c.pid, SIGKILL);
  waitpid(c.pid, nullptr, 0);

  Child c2 = spawn_server(db);
  ASSERT_GT(c2.port, 0);
  port_ = c2.port;
  for (auto& t : tables) {
    json after = view(t.id, t.tok);
    for (const char* k : {"status", "version", "view", "legal", "to_act", "scores", "actor", "commitment"})
      EXPECT_EQ(after[k], t.before[k]) << k << " differs for table " << t.id;
  }
  // The bots resume; every game finishes and its record verifies.
  json bv;
  for (int i = 0; i < 30000; ++i) {
    bv = view(bots["id"], bots["spectate"]);
    if (bv["status"] == "over") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(bv["status"], "over");
  EXPECT_GE(bv["version"].get<int>(), bots_version);
  for (auto& t : tables) EXPECT_EQ(play_out(t.id, t.tok, 5)["status"], "over");
  for (const auto& id : {tables[0].id, tables[3].id, bots["id"].get<std::string>()}) {
    Reply rec = get(port_, fmt::format("/api/tables/{}/record", id));
    ASSERT_EQ(rec.status, 200);
    EXPECT_NO_THROW(server::verify_record(rec.j));
  }
  kill(c2.pid, SIGTERM);
  int status = 0;
  waitpid(c2.pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status)) << "SIGTERM stops the server cleanly";
}

// ------------------------------------------------------------ bad input

std::string raw_exchange(unsigned short port, const std::string& bytes) {
  net::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  beast::error_code ec;
  net::write(s, net::buffer(bytes), ec);  // the server may close first: then read what it said
  s.shutdown(tcp::socket::shutdown_send, ec);
  std::string out;
  char buf[4096];
  for (;;) {
    const size_t n = s.read_some(net::buffer(buf), ec);
    if (ec) break;
    out.append(buf, n);
  }
  return out;
}

TEST_F(ServerTest, BadRequestsGetClearErrors) {
  start();
  EXPECT_EQ(get(port_, "/api/health").status, 200);
  EXPECT_EQ(get(port_, "/api/tables/nope?token=x").status, 404);
  EXPECT_EQ(get(port_, "/api/nothing").status, 404);
  EXPECT_EQ(request(port_, http::verb::delete_, "/api/tables").status, 405);
  EXPECT_EQ(request(port_, http::verb::post, "/api/tables", "{not json").status, 400);
  EXPECT_EQ(request(port_, http::verb::post, "/api/tables", "[1,2]").status, 400);
  EXPECT_EQ(post(port_, "/api/tables", {{"game", "chess"}, {"seats", {"human"}}}).status, 400);
  EXPECT_EQ(post(port_, "/api/tables", {{"game", "latin"}, {"seats", {"human", "bot:god", "human", "human"}}}).status,
            400);
  EXPECT_EQ(post(port_, "/api/tables", {{"game", "latin"}, {"seats", {"human"}}}).status, 400);
  EXPECT_EQ(
      post(port_, "/api/tables",
           {{"game", "latin"}, {"options", {{"target", "banana"}}}, {"seats", {"human", "human", "human", "human"}}})
          .status,
      400);
  EXPECT_EQ(get(port_, "/api/tables/x?token=%zz").status, 400);
  // Body too large.
  Reply big = request(port_, http::verb::post, "/api/tables", std::string(2000000, ' '));
  EXPECT_EQ(big.status, 413);
  // Tokens and turns.
  json t = create("latin", {"human", "bot:casual", "human", "bot:casual"});
  const std::string id = t["id"], a = t["tokens"]["0"], b = t["tokens"]["2"];
  EXPECT_EQ(get(port_, fmt::format("/api/tables/{}", id)).status, 401);
  EXPECT_EQ(get(port_, fmt::format("/api/tables/{}?token=wrong", id)).status, 403);
  EXPECT_EQ(post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", t["spectate"]}, {"move", "pass"}}).status,
            403);
  EXPECT_EQ(post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", a}}).status, 400);
  EXPECT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", a}, {"entropy", "caf\u00e9"}}).status, 400);
  EXPECT_EQ(
      post(port_, fmt::format("/api/tables/{}/join", id), {{"token", a}, {"entropy", std::string(300, 'x')}}).status,
      400);
  ASSERT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", a}}).status, 200);
  ASSERT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", b}}).status, 200);
  json v;
  for (int i = 0; i < 20000; ++i) {
    v = view(id, a);
    if (v["to_act"] == true) break;
    json w = view(id, b);
    if (w["to_act"] == true) {
      // Seat 0 moves out of turn: refused, nothing changes.
      Reply r = post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", a}, {"move", w["legal"][0]}});
      EXPECT_EQ(r.status, 409) << r.body;
      EXPECT_NE(r.j.value("error", "").find("not your turn"), std::string::npos);
      EXPECT_EQ(view(id, b)["version"], w["version"]);
      post(port_, fmt::format("/api/tables/{}/moves", id), {{"token", b}, {"move", w["legal"][0]}});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // Malformed HTTP gets a 400 and a closed connection; the server goes on.
  EXPECT_NE(raw_exchange(port_, "GARBAGE\r\n\r\n").find("400"), std::string::npos);
  EXPECT_NE(raw_exchange(port_, "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: zz\r\n\r\n").find("400"),
            std::string::npos);
  raw_exchange(port_, std::string("\x00\xff\x01\x02", 4));
  raw_exchange(port_, "GET /api/health HTTP/1.1\r\n");  // cut off
  EXPECT_NE(raw_exchange(port_, "GET /api/health HTTP/1.1\r\nHost: x\r\nX: " + std::string(40000, 'a') + "\r\n\r\n")
                .find("431"),
            std::string::npos);
  EXPECT_EQ(get(port_, "/api/health").status, 200);
}

TEST_F(ServerTest, RequestFloodIsRateLimited) {
  start([](ServerConfig& c) {
    c.http_rate = 1;
    c.http_burst = 5;
  });
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_));
  int limited = 0;
  for (int i = 0; i < 20; ++i) {
    http::request<http::string_body> req{http::verb::get, "/api/health", 11};
    req.set(http::field::host, "x");
    http::write(s, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    beast::error_code ec;
    http::read(s, buf, res, ec);
    if (ec) break;
    if (res.result_int() == 429) ++limited;
  }
  EXPECT_GT(limited, 0);
  EXPECT_EQ(get(port_, "/api/health").status, 200);  // a new connection is served
}

// A move sent with the version it was decided at is played once: its retry
// (the answer lost on the way) is refused, not played as the next move.
TEST_F(ServerTest, AMovesRetryWithItsVersionIsNotPlayedTwice) {
  start();
  json t = create("latin", one_human("latin", "bot:beginner"));
  const std::string id = t["id"], tok = t["tokens"]["0"];
  ASSERT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", tok}}).status, 200);
  json v;
  for (int i = 0; i < 5000; ++i) {
    v = view(id, tok);
    if (v["to_act"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(v["to_act"], true) << v.dump();
  const std::string path = fmt::format("/api/tables/{}/moves", id);
  const json move = {{"token", tok}, {"move", v["legal"][0]}, {"version", v["version"]}};
  Reply first = post(port_, path, move);
  ASSERT_EQ(first.status, 200) << first.body;
  Reply again = post(port_, path, move);
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_NE(again.body.find("you have moved since version"), std::string::npos) << again.body;
  const int64_t now = view(id, tok)["version"];
  EXPECT_EQ(post(port_, path, {{"token", tok}, {"move", "draw"}, {"version", now + 5}}).status, 409);
  // A mistyped field is refused by name (a "verison" dropped would play the retry).
  Reply typo = post(port_, path, {{"token", tok}, {"move", "pass"}, {"verison", 3}});
  EXPECT_EQ(typo.status, 400) << typo.body;
  EXPECT_NE(typo.body.find("'verison' is not a field of this request; it takes: token, move, version"),
            std::string::npos)
      << typo.body;
  // No token at all: 401, as a GET without one.
  Reply none = post(port_, path, {{"move", "pass"}});
  EXPECT_EQ(none.status, 401) << none.body;
  EXPECT_NE(none.body.find("'token' is missing"), std::string::npos) << none.body;
  for (const json& bad : {json("3"), json(-1), json(1.5)}) {
    Reply r = post(port_, path, {{"token", tok}, {"move", "draw"}, {"version", bad}});
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_NE(r.body.find("'version' must be"), std::string::npos) << r.body;
  }
}

// Every POST body holds only its route's fields: a mistyped one ("publc",
// "acept") is refused by name with the fields the route takes, and nothing
// is done (a dropped "publc" made a private table; a dropped "acept" accepted).
TEST_F(ServerTest, EveryBodyRefusesAFieldItDoesNotTakeByName) {
  start();
  json t = create("latin", one_human("latin", "bot:beginner"));
  const std::string id = t["id"], tok = t["tokens"]["0"];
  const std::string table = fmt::format("/api/tables/{}/", id);
  const json lobby_before = json::parse(get(port_, "/api/lobby").body);
  struct Case {
    std::string path;
    json body;
    std::string field, takes;
  };
  const std::vector<Case> cases{
      {"/api/tables",
       {{"game", "latin"}, {"seats", {"human", "open", "open", "open"}}, {"publc", true}},
       "publc",
       "game, options, seats, public"},
      {table + "join", {{"token", tok}, {"nmae", "Ann"}}, "nmae", "token, entropy, key, name"},
      {table + "entropy", {{"token", tok}, {"entopy", "ab"}}, "entopy", "token, entropy, key, name"},
      {table + "claim", {{"token", tok}, {"seat", 1}}, "seat", "token"},
      {table + "abort", {{"token", tok}, {"why", "x"}}, "why", "token"},
      {table + "rematch", {{"token", tok}, {"acept", false}}, "acept", "token, accept"},
      {table + "chat", {{"token", tok}, {"txt", "hi"}}, "txt", "token, text, phrase, emote"},
      {table + "sit", {{"seta", 1}}, "seta", "seat, key, name"},
      {"/api/players", {{"name", "Ann"}, {"pasword", "x"}}, "pasword", "name, password"},
      {"/api/players/login", {{"name", "Ann"}, {"password", "x"}, {"remember", true}}, "remember", "name, password"},
      {"/api/players/p1/password",
       {{"key", "k"}, {"password", "x"}, {"others", true}},
       "others",
       "key, password, sign_out_others"},
      {"/api/players/p1/signout", {{"key", "k"}, {"all", true}}, "all", "key"},
      {"/api/quickmatch",
       {{"key", "k"}, {"game", "latin"}, {"lvl", "strong"}},
       "lvl",
       "key, game, options, level, rated, with"},
      {"/api/social/follow", {{"key", "k"}, {"player", "p2"}, {"off", true}}, "off", "key, player, on"},
      {"/api/social/block", {{"key", "k"}, {"player", "p2"}, {"off", true}}, "off", "key, player, on"},
      {"/api/reports", {{"key", "k"}, {"player", "p2"}, {"why", "x"}}, "why", "key, player, reason, text, table"},
      {"/api/operator/reports", {{"token", "t"}, {"all", true}}, "all", "token"},
      {"/api/challenges",
       {{"key", "k"}, {"player", "p2"}, {"gmae", "latin"}},
       "gmae",
       "key, player, kind, game, options, level, rated"},
      {"/api/challenges/c1/accept", {{"key", "k"}, {"seat", 1}}, "seat", "key"},
      {"/api/challenges/c1/decline", {{"key", "k"}, {"why", "x"}}, "why", "key"},
  };
  for (const Case& c : cases) {
    Reply r = post(port_, c.path, c.body);
    EXPECT_EQ(r.status, 400) << c.path << ": " << r.body;
    EXPECT_NE(r.body.find(fmt::format("'{}' is not a field of this request; it takes: {}", c.field, c.takes)),
              std::string::npos)
        << c.path << ": " << r.body;
  }
  // Nothing was done: no table made, no seat joined, the game not aborted.
  EXPECT_EQ(json::parse(get(port_, "/api/lobby").body)["tables"], lobby_before["tables"]);
  const json v = view(id, tok);
  EXPECT_NE(v.value("status", ""), "over") << v.dump();
  EXPECT_EQ(post(port_, "/api/players", {{"name", "Ann"}}).status, 201);  // the refused one made no "Ann"
}

TEST_F(ServerTest, BadWebSocketInputGetsErrorsOrIsClosed) {
  start();
  json t = create("latin", {"human", "bot:casual", "bot:casual", "bot:casual"});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  {  // unknown table, wrong token
    WsClient c(port_, "/ws?table=nope&token=x");
    c.start_reading();
    json e = c.wait_for([](const json& j) { return j.value("type", "") == "error"; });
    ASSERT_FALSE(e.is_null());
    EXPECT_TRUE(c.wait_closed(30));
    WsClient d(port_, fmt::format("/ws?table={}&token=wrong", id));
    d.start_reading();
    EXPECT_FALSE(d.wait_for([](const json& j) { return j.value("type", "") == "error"; }).is_null());
  }
  {  // malformed JSON, unknown type, a bad move, out of turn: errors, the connection stays
    WsClient c(port_, fmt::format("/ws?table={}&token={}", id, tok));
    c.start_reading();
    ASSERT_FALSE(c.wait_for([](const json& j) { return j.value("type", "") == "state"; }).is_null());
    for (const char* m :
         {"{oops", "[]", "{\"type\":\"dance\"}", "{\"type\":\"move\"}", "{\"type\":\"move\",\"move\":\"9-9\"}"}) {
      c.send(m);
      json e = c.wait_for([](const json& j) { return j.value("type", "") == "error"; });
      ASSERT_FALSE(e.is_null()) << m;
    }
    c.send("{\"type\":\"ping\"}");
    EXPECT_FALSE(c.wait_for([](const json& j) { return j.value("type", "") == "pong"; }).is_null());
    // A message's id comes back on its answer, an error's too, with its status.
    c.send("{\"type\":\"dance\",\"id\":\"q1\"}");
    const json e = c.wait_for([](const json& j) { return j.value("type", "") == "error" && j.contains("id"); });
    EXPECT_EQ(e["id"], "q1") << e;
    EXPECT_EQ(e["status"], 400) << e;
    c.send("{\"type\":\"ping\",\"id\":7}");
    EXPECT_FALSE(
        c.wait_for([](const json& j) { return j.value("type", "") == "pong" && j.value("id", 0) == 7; }).is_null());
    // A field the message's type does not take is refused by name, as in a POST
    // (a "verison" dropped would play a retried move twice).
    for (const auto& [m, field] : std::vector<std::pair<std::string, std::string>>{
             {"{\"type\":\"move\",\"move\":\"pass\",\"verison\":3,\"id\":\"t1\"}", "'verison'"},
             {"{\"type\":\"chat\",\"txt\":\"hi\",\"id\":\"t1\"}", "'txt'"},
             {"{\"type\":\"ping\",\"at\":1,\"id\":\"t1\"}", "'at'"},
             {"{\"move\":\"pass\",\"tpye\":\"move\",\"id\":\"t1\"}", "'tpye'"}}) {
      c.send(m);
      const json r = c.wait_for([](const json& j) { return j.value("id", "") == "t1"; });
      EXPECT_EQ(r.value("type", ""), "error") << m << " " << r;
      EXPECT_NE(r.value("error", "").find(field + " is not a field of this request"), std::string::npos) << r;
    }
    // A message names its type: a move without one is refused, not guessed.
    for (const char* m : {"{\"move\":\"pass\",\"id\":\"t2\"}", "{\"type\":7,\"move\":\"pass\",\"id\":\"t2\"}"}) {
      c.send(m);
      const json r = c.wait_for([](const json& j) { return j.value("id", "") == "t2"; });
      EXPECT_EQ(r.value("type", ""), "error") << m << " " << r;
      EXPECT_NE(r.value("error", "").find("'type'"), std::string::npos) << r;
      EXPECT_NE(r.value("error", "").find("move, entropy, chat, get or ping"), std::string::npos) << r;
    }
    // A binary frame: an error, then the connection is closed.
    c.send(std::string("\x01\x02\x03", 3), true);
    EXPECT_FALSE(c.wait_for([](const json& j) { return j.value("type", "") == "error"; }).is_null());
    EXPECT_TRUE(c.wait_closed(30));
  }
  {  // a message over the size limit closes the connection
    WsClient c(port_, fmt::format("/ws?table={}&token={}", id, tok));
    c.start_reading();
    c.send(std::string(100000, 'x'));
    EXPECT_TRUE(c.wait_closed(30));
  }
  {  // fragments count together: a message in 1 KiB frames is answered under
     // the limit (16 KiB), closed over it
    WsClient c(port_, fmt::format("/ws?table={}&token={}", id, tok));
    c.fragment(1024);
    c.start_reading();
    c.send("{\"type\":\"ping\",\"id\":\"f1\"" + std::string(8000, ' ') + "}");
    EXPECT_FALSE(c.wait_for([](const json& j) { return j.value("id", "") == "f1"; }).is_null());
    c.send("{\"type\":\"ping\",\"id\":\"f2\"" + std::string(20000, ' ') + "}");
    EXPECT_TRUE(c.wait_for([](const json& j) { return j.value("id", "") == "f2"; }, 10).is_null());
    EXPECT_TRUE(c.wait_closed(30));
  }
  {  // a WebSocket anywhere but /ws is refused
    EXPECT_THROW(WsClient(port_, "/elsewhere"), std::exception);
  }
  // The table is intact and the seat still plays.
  json v = view(id, tok);
  EXPECT_NE(v["status"], "broken");
  EXPECT_EQ(get(port_, "/api/health").status, 200);
}

TEST_F(ServerTest, WebSocketFloodIsRateLimitedThenClosed) {
  start([](ServerConfig& c) {
    c.ws_rate = 1;
    c.ws_burst = 5;
  });
  json t = create("latin", {"human", "bot:casual", "bot:casual", "bot:casual"});
  WsClient c(port_,
             fmt::format("/ws?table={}&token={}", t["id"].get<std::string>(), t["tokens"]["0"].get<std::string>()));
  c.start_reading();
  for (int i = 0; i < 200; ++i) c.send("{\"type\":\"ping\"}");
  EXPECT_FALSE(c.wait_for([](const json& j) {
                  return j.value("type", "") == "error" &&
                         j["error"].get<std::string>().find("too many") != std::string::npos;
                }).is_null());
  EXPECT_TRUE(c.wait_closed(30));  // a long flood is closed
  EXPECT_EQ(get(port_, "/api/health").status, 200);
}

TEST_F(ServerTest, AClientThatNeverReadsIsDisconnected) {
  start([](ServerConfig& c) {
    c.ws_queue_limit = 8;
    c.ws_send_buffer = 4096;  // so that the kernel cannot take a whole game's messages
  });
  // A watcher with a tiny receive buffer that never reads, at a table of bots.
  // A long game with a 1 ms pause per move: it must still be going when the
  // watcher connects (at full speed a game to 200 can end first on an idle
  // machine, and then nothing piles up).
  json b = create("latin", {"bot:beginner", "bot:beginner", "bot:beginner", "bot:beginner"},
                  {{"bot_delay_ms", 1}, {"options", {{"target", "1000"}}}});
  WsClient slow(
      port_, fmt::format("/ws?table={}&token={}", b["id"].get<std::string>(), b["spectate"].get<std::string>()), 1024);
  json v;
  for (int i = 0; i < 30000; ++i) {
    v = view(b["id"], b["spectate"]);
    if (v["status"] == "over") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(v["status"], "over");  // the table was never held up by its watcher
  slow.start_reading();            // now read: what is left ends in a closed connection
  EXPECT_TRUE(slow.wait_closed(60));
  EXPECT_EQ(get(port_, "/api/health").status, 200);
}

TEST_F(ServerTest, StaticFilesAreServedAndTraversalRefused) {
  const fs::path www = dir_ / "www";
  fs::create_directories(www / "js");
  std::ofstream(www / "index.html") << "<h1>boneyard</h1>";
  std::ofstream(www / "js" / "app.js") << "let x = 1;";
  std::ofstream(dir_ / "secret.txt") << "top secret";
  start([&](ServerConfig& c) { c.static_dir = www.string(); });
  Reply r = get(port_, "/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "<h1>boneyard</h1>");
  EXPECT_EQ(get(port_, "/js/app.js").body, "let x = 1;");
  EXPECT_EQ(get(port_, "/missing.html").status, 404);
  for (const char* p : {"/../secret.txt", "/%2e%2e/secret.txt", "/js/../../secret.txt", "/js/%2E%2E/%2e%2e/secret.txt",
                        "/..%2fsecret.txt", "/.hidden"}) {
    Reply x = get(port_, p);
    EXPECT_NE(x.status, 200) << p;
    EXPECT_EQ(x.body.find("top secret"), std::string::npos) << p;
  }
  EXPECT_EQ(raw_exchange(port_, "GET ../secret.txt HTTP/1.1\r\nHost: x\r\n\r\n").find("top secret"), std::string::npos);
}

// Issue 35: the installable app's files with the types a browser needs:
// the manifest, the service worker (a script, from the root), the engine
// (compiled only as application/wasm), under a policy that lets it compile.
TEST_F(ServerTest, TheInstallableAppsFilesHaveTheirTypes) {
  const fs::path www = dir_ / "www";
  fs::create_directories(www / "engine");
  std::ofstream(www / "index.html") << "<h1>boneyard</h1>";
  std::ofstream(www / "manifest.webmanifest") << "{}";
  std::ofstream(www / "sw.js") << "self;";
  std::ofstream(www / "engine" / "engine.wasm") << "wasm";
  start([&](ServerConfig& c) { c.static_dir = www.string(); });
  for (const auto& [path, type] :
       std::vector<std::pair<std::string, std::string>>{{"/manifest.webmanifest", "application/manifest+json"},
                                                        {"/sw.js", "text/javascript; charset=utf-8"},
                                                        {"/engine/engine.wasm", "application/wasm"}}) {
    const std::string raw = raw_exchange(port_, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(raw.substr(0, 12), "HTTP/1.1 200") << path;
    EXPECT_NE(raw.find("Content-Type: " + type + "\r\n"), std::string::npos) << path << "\n" << raw.substr(0, 400);
    EXPECT_NE(raw.find("script-src 'self' 'wasm-unsafe-eval'"), std::string::npos) << path;
  }
}

// ------------------------------------------------------------ attacked (issue 20)

// The response head (status line and headers) of a raw exchange.
int status_of(const std::string& raw) {
  std::smatch m;
  return std::regex_search(raw, m, std::regex("^HTTP/1\\.[01] (\\d{3})")) ? std::stoi(m[1]) : 0;
}

std::string deep_json(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST_F(ServerTest, DeeplyNestedJsonIsRefusedEverywhereAndTheServerLives) {
  start();
  // 80,000 levels (160 KB, under the body limit) in the seats, in an option
  // value and as the whole body: a clear 400, not a stack overflow.
  const std::string deep = deep_json(80000);
  for (const std::string& body : {R"({"game":"latin","seats":)" + deep + "}",
                                  R"({"game":"latin","options":{"target":)" + deep + R"(},"seats":[]})", deep}) {
    Reply r = request(port_, http::verb::post, "/api/tables", body);
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.j.value("error", "").find("nested more than 64 levels"), std::string::npos) << r.body.substr(0, 200);
  }
  // 64 levels are fine as JSON (then refused for what they are).
  Reply ok64 = request(port_, http::verb::post, "/api/tables", R"({"game":"latin","seats":)" + deep_json(63) + "}");
  EXPECT_EQ(ok64.status, 400);
  EXPECT_EQ(ok64.j.value("error", "").find("nested"), std::string::npos);
  // A move body and a WebSocket message.
  json t = create("latin", {"human", "bot:casual", "bot:casual", "bot:casual"});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  EXPECT_EQ(
      request(port_, http::verb::post, fmt::format("/api/tables/{}/moves", id), R"({"token":)" + deep + "}").status,
      400);
  WsClient c(port_, fmt::format("/ws?table={}&token={}", id, tok));
  c.start_reading();
  ASSERT_FALSE(c.wait_for([](const json& j) { return j.value("type", "") == "state"; }).is_null());
  c.send(R"({"type":"move","move":)" + deep_json(5000) + "}");
  json e = c.wait_for([](const json& j) { return j.value("type", "") == "error"; });
  ASSERT_FALSE(e.is_null());
  EXPECT_NE(e["error"].get<std::string>().find("nested"), std::string::npos);
  EXPECT_EQ(get(port_, "/api/health").status, 200);
}

TEST_F(ServerTest, AHugeChunkedTrailerClosesThatConnectionOnly) {
  start();
  for (const char* path : {"/api/tables", "/api/health", "/"}) {
    const std::string req = fmt::format(
        "POST {} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: "
        "chunked\r\n\r\n2\r\n{{}}\r\n0\r\n"
        "X-Trailer: {}\r\n\r\n",
        path, std::string(70000, 'a'));
    const std::string out = raw_exchange(port_, req);
    EXPECT_EQ(status_of(out), 431) << path << ": " << out.substr(0, 200);
    EXPECT_EQ(get(port_, "/api/health").status, 200) << path;
  }
  // Many small trailer fields adding up past the header limit, too.
  std::string many;
  for (int i = 0; i < 3000; ++i) many += fmt::format("X-{}: {}\r\n", i, std::string(20, 'b'));
  const std::string out =
      raw_exchange(port_, "POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n" +
                              many + "\r\n");
  EXPECT_EQ(status_of(out), 431);
  EXPECT_EQ(get(port_, "/api/health").status, 200);
}

TEST_F(ServerTest, CostlyRequestsAreLimitedPerAddressWithRetryAfter) {
  start([](ServerConfig& c) {
    c.limits.create = {0.01, 3};
    c.limits.think = {0.01, 2};
  });
  for (int i = 0; i < 3; ++i) create("latin", {"bot:casual", "bot:casual", "bot:casual", "bot:casual"});
  const std::string raw = raw_exchange(port_,
                                       "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                       "application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
  EXPECT_EQ(status_of(raw), 429) << raw;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(raw, m, std::regex("Retry-After: (\\d+)"))) << raw;
  EXPECT_GE(std::stoi(m[1]), 1);
  // Hints, reviews and replays share one budget.
  int limited = 0;
  for (int i = 0; i < 4; ++i) limited += get(port_, "/api/tables/nope/replay").status == 429;
  EXPECT_EQ(limited, 2);
  // Everything else is not counted.
  EXPECT_EQ(get(port_, "/api/health").status, 200);
  EXPECT_EQ(get(port_, "/api/games").status, 200);
}

TEST_F(ServerTest, ConnectionsAreCappedInTotalAndPerAddressAndRefusedAtOnce) {
  start([](ServerConfig& c) {
    c.limits.max_connections = 40;
    c.limits.max_connections_per_address = 10;
  });
  // Ten idle connections from one address fill its share ...
  net::io_context ioc;
  std::vector<std::unique_ptr<tcp::socket>> idle;
  for (int i = 0; i < 10; ++i) {
    idle.push_back(std::make_unique<tcp::socket>(ioc));
    idle.back()->connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_));
  }
  // The eleventh from 127.0.0.1 is refused at once with a 503, not left
  // waiting (it sends nothing: the answer comes before any request).
  const std::string refused = raw_exchange(port_, "");
  EXPECT_EQ(status_of(refused), 503) << refused;
  EXPECT_NE(refused.find("too many connections"), std::string::npos);
  // Another address (127.0.0.2 is loopback too) is still served.
  {
    net::io_context io2;
    beast::tcp_stream s(io2);
    s.socket().open(tcp::v4());
    s.socket().bind(tcp::endpoint(net::ip::make_address("127.0.0.2"), 0));
    s.expires_after(std::chrono::seconds(30));
    s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_));
    http::request<http::string_body> req{http::verb::get, "/api/health", 11};
    req.set(http::field::host, "x");
    http::write(s, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(s, buf, res);
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_EQ(json::parse(res.body())["connections"].get<int>(), 11);
  }
  // Closing them frees the share.
  idle.clear();
  bool served = false;
  for (int i = 0; i < 200 && !served; ++i) {
    served = status_of(raw_exchange(port_, "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")) == 200;
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(served);
}

TEST_F(ServerTest, AWebSocketThatHoldsNoSeatIsClosed) {
  start([](ServerConfig& c) { c.ws_subscribe_timeout_s = 1; });
  // A client that opens a WebSocket to no table and then never reads (nor
  // answers the closing handshake): the server drops the TCP connection
  // itself, it does not wait for the client.
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws(ioc);
  beast::get_lowest_layer(ws).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_));
  ws.handshake("127.0.0.1", "/ws?table=nope&token=x");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  auto& raw = beast::get_lowest_layer(ws);
  raw.expires_after(std::chrono::seconds(5));
  char buf[4096];
  beast::error_code ec;
  while (!ec) raw.read_some(net::buffer(buf), ec);
  EXPECT_EQ(ec, net::error::eof) << ec.message();  // closed by the server, not our 5 s timeout
}

TEST_F(ServerTest, WebSocketsFromOtherSitesAndNonJsonPostsAreRefused) {
  start([](ServerConfig& c) { c.allow_origins = {"https://play.example.org"}; });
  json t = create("latin", {"human", "bot:casual", "bot:casual", "bot:casual"});
  const std::string target =
      fmt::format("/ws?table={}&token={}", t["id"].get<std::string>(), t["tokens"]["0"].get<std::string>());
  EXPECT_THROW(WsClient(port_, target, 0, "https://evil.example"), std::exception);
  EXPECT_THROW(WsClient(port_, target, 0, "null"), std::exception);
  for (const std::string origin : {"http://127.0.0.1", "https://play.example.org", ""}) {
    WsClient c(port_, target, 0, origin);
    c.start_reading();
    EXPECT_FALSE(c.wait_for([](const json& j) { return j.value("type", "") == "state"; }).is_null()) << origin;
  }
  // A form or text/plain POST (what another site can send without asking) is refused.
  for (const char* ct : {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""}) {
    std::string head = "POST /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n";
    if (*ct) head += fmt::format("Content-Type: {}\r\n", ct);
    const std::string out = raw_exchange(port_, head + "\r\n{}");
    EXPECT_EQ(status_of(out), 415) << ct;
  }
  EXPECT_EQ(status_of(raw_exchange(port_,
                                   "POST /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: "
                                   "Application/JSON; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}")),
            400);  // JSON, read (and refused for what it says)
}

TEST_F(ServerTest, EveryResponseCarriesTheSecurityHeadersAndHeadWorks) {
  const fs::path www = dir_ / "www";
  fs::create_directories(www);
  std::ofstream(www / "index.html") << "<h1>boneyard</h1>";
  start([&](ServerConfig& c) { c.static_dir = www.string(); });
  for (const char* path : {"/", "/api/health", "/api/nothing"}) {
    const std::string out =
        raw_exchange(port_, fmt::format("GET {} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path));
    EXPECT_NE(out.find("X-Content-Type-Options: nosniff"), std::string::npos) << path;
    EXPECT_NE(out.find("Referrer-Policy: no-referrer"), std::string::npos) << path;
    EXPECT_NE(out.find("Content-Security-Policy: default-src 'self'; script-src 'self'"), std::string::npos) << path;
  }
  // HEAD: GET's status and length, no body.
  for (const char* path : {"/api/health", "/"}) {
    const std::string getr =
        raw_exchange(port_, fmt::format("GET {} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path));
    const std::string head =
        raw_exchange(port_, fmt::format("HEAD {} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path));
    EXPECT_EQ(status_of(head), 200) << head;
    std::smatch a, b;
    ASSERT_TRUE(std::regex_search(getr, a, std::regex("Content-Length: (\\d+)")));
    ASSERT_TRUE(std::regex_search(head, b, std::regex("Content-Length: (\\d+)")));
    EXPECT_EQ(a[1], b[1]);
    EXPECT_EQ(head.substr(head.find("\r\n\r\n") + 4), "") << "HEAD has no body";
  }
  EXPECT_EQ(status_of(raw_exchange(port_, "HEAD /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")), 405);
}

TEST_F(ServerTest, StaticFilesStayInsideTheirFolderByRealPath) {
  const fs::path www = dir_ / "www";
  fs::create_directories(www);
  fs::create_directories(dir_ / "www-secret");
  std::ofstream(www / "index.html") << "<h1>boneyard</h1>";
  std::ofstream(dir_ / "www-secret" / "key.txt") << "top secret";
  std::ofstream(dir_ / "outside.txt") << "top secret";
  fs::create_symlink(dir_ / "www-secret", www / "link");       // a folder out of www
  fs::create_symlink(dir_ / "outside.txt", www / "leak.txt");  // a file out of www
  fs::create_symlink(www / "index.html", www / "home.html");   // inside: fine
  start([&](ServerConfig& c) { c.static_dir = www.string(); });
  for (const char* p : {"/link/key.txt", "/leak.txt", "/link"}) {
    Reply r = get(port_, p);
    EXPECT_EQ(r.status, 403) << p;
    EXPECT_EQ(r.body.find("top secret"), std::string::npos) << p;
  }
  EXPECT_EQ(get(port_, "/home.html").body, "<h1>boneyard</h1>");
}

TEST_F(ServerTest, ASeededTableIsMarkedNotProvablyFair) {
  start();
  json seeded = create("latin", {"bot:casual", "bot:casual", "bot:casual", "bot:casual"}, {{"seed", 7}});
  json real = create("latin", {"bot:casual", "bot:casual", "bot:casual", "bot:casual"});
  for (int i = 0; i < 3000; ++i) {
    if (view(seeded["id"], seeded["spectate"])["status"] == "over" &&
        view(real["id"], real["spectate"])["status"] == "over")
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(view(seeded["id"], seeded["spectate"])["provably_fair"], false);
  EXPECT_EQ(view(real["id"], real["spectate"])["provably_fair"], true);
  json fs_ = get(port_, fmt::format("/api/tables/{}/fairness", seeded["id"].get<std::string>())).j;
  EXPECT_EQ(fs_["provably_fair"], false);
  json fr = get(port_, fmt::format("/api/tables/{}/fairness", real["id"].get<std::string>())).j;
  EXPECT_EQ(fr["provably_fair"], true);
  EXPECT_EQ(fr["secret"].get<std::string>().size(), 64u);  // 32 random bytes
  // boneyard verify accepts the real table's record and says the seeded one proves nothing.
  for (const auto& [t, verdict] : {std::pair{seeded, false}, std::pair{real, true}}) {
    Reply rec = get(port_, fmt::format("/api/tables/{}/record", t["id"].get<std::string>()));
    ASSERT_EQ(rec.status, 200);
    EXPECT_EQ(rec.j["fairness"]["provably_fair"], verdict);
    const fs::path f = dir_ / fmt::format("rec-{}.json", verdict);
    std::ofstream(f) << rec.body;
    const fs::path out = dir_ / "verify.txt";
    const int rc = std::system(fmt::format("{} verify {} >{} 2>&1", BONEYARD_EXE, f.string(), out.string()).c_str());
    EXPECT_EQ(rc == 0, verdict);
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    if (!verdict) {
      EXPECT_NE(text.find("NOT provably fair"), std::string::npos) << text;
    }
  }
}

}  // namespace
}  // namespace boneyard::test
