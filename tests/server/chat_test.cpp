// Table chat (docs/server.md, "Chat"): the seats' and the spectators' lines
// apart (a secrecy scan of everything each receives, over HTTP and the
// WebSocket), quick phrases, limits of length and rate (per token and per
// address), stored with the table and back after a restart.
#include "server/chat.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>

#include "client.h"
#include "core/game.h"
#include "routes_world.h"
#include "server/net.h"
#include "server_fixture.h"
#include "test_store.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;

const std::string kSeatSecret = "only-for-the-seats-7d1";
const std::string kSpectatorSecret = "only-for-the-spectators-4a9";

json latin_table(server::Hub& hub) {
  return hub.create({{"game", "latin"}, {"seats", {"human", "human", "bot:casual", "bot:casual"}}});
}

std::pair<int, json> say(RoutesWorld& w, const std::string& id, json body) {
  return w.post(fmt::format("/api/tables/{}/chat", id), body.dump());
}

TEST(Chat, SeatsAndSpectatorsNeverSeeEachOthersLines) {
  RoutesWorld w;
  const json t = latin_table(*w.hub);
  const std::string id = t["id"], s0 = t["tokens"]["0"], s1 = t["tokens"]["1"], spec = t["spectate"];
  auto [a, la] = say(w, id, {{"token", s0}, {"text", kSeatSecret}});
  ASSERT_EQ(a, 200) << la.dump();
  EXPECT_EQ(la["line"]["seat"], 0);
  EXPECT_EQ(la["line"]["text"], kSeatSecret);
  auto [b, lb] = say(w, id, {{"token", s1}, {"phrase", "buena"}});
  ASSERT_EQ(b, 200) << lb.dump();
  auto [c, lc] = say(w, id, {{"token", spec}, {"text", kSpectatorSecret}});
  ASSERT_EQ(c, 200) << lc.dump();
  EXPECT_TRUE(lc["line"]["seat"].is_null());
  for (const std::string& tok : {s0, s1}) {
    auto [st, v] = w.get(fmt::format("/api/tables/{}?token={}", id, tok));
    ASSERT_EQ(st, 200);
    ASSERT_EQ(v["chat"].size(), 2u) << v["chat"].dump();
    EXPECT_EQ(v["chat"][0]["text"], kSeatSecret);
    EXPECT_EQ(v["chat"][1]["phrase"], "buena");
    EXPECT_EQ(v["chat"][1]["seat"], 1);
    EXPECT_EQ(v.dump().find(kSpectatorSecret), std::string::npos);
  }
  auto [st, v] = w.get(fmt::format("/api/tables/{}?token={}", id, spec));
  ASSERT_EQ(st, 200);
  ASSERT_EQ(v["chat"].size(), 1u) << v["chat"].dump();
  EXPECT_EQ(v["chat"][0]["text"], kSpectatorSecret);
  EXPECT_EQ(v.dump().find(kSeatSecret), std::string::npos);
  EXPECT_EQ(v.dump().find("buena"), std::string::npos);
}

TEST(Chat, TextIsKeptLiterallyAndBadLinesAreRefusedWithAClearError) {
  RoutesWorld w;
  const json t = latin_table(*w.hub);
  const std::string id = t["id"], s0 = t["tokens"]["0"];
  const std::string html = "<img src=x onerror=alert(1)>";
  auto [ok, l] = say(w, id, {{"token", s0}, {"text", html}});
  ASSERT_EQ(ok, 200) << l.dump();
  EXPECT_EQ(l["line"]["text"], html);  // the app escapes; the server keeps what was said
  std::string long_ok;
  for (size_t k = 0; k < server::kChatChars; ++k) long_ok += "é";  // characters, not bytes
  EXPECT_EQ(say(w, id, {{"token", s0}, {"text", long_ok}}).first, 200);
  auto expect_400 = [&](json body, const std::string& words) {
    body["token"] = s0;
    auto [st, j] = say(w, id, body);
    EXPECT_EQ(st, 400) << body.dump();
    EXPECT_NE(j.value("error", "").find(words), std::string::npos) << j.dump();
  };
  expect_400({{"text", std::string(server::kChatChars + 1, 'a')}}, "at most 200 characters");
  expect_400({{"text", std::string(5000, 'a')}}, "at most 200 characters");
  expect_400({{"text", "   "}}, "must not be empty");
  expect_400({{"text", "two\nlines"}}, "without control characters");
  expect_400({{"text", "\u202Eevil"}}, "direction overrides");  // would reorder the text after it
  expect_400({{"text", 42}}, "'text' must be a string");
  expect_400({{"phrase", "insult"}}, "'phrase' must be one of hello, buena");
  expect_400({{"text", "hi"}, {"phrase", "hello"}}, "one of them");
  // Emotes: a fixed set (issue 34, 14), one kind of line at a time.
  expect_400({{"emote", "<b>"}}, "'emote' must be one of thumbs_up, clap");
  expect_400({{"emote", 1}}, "'emote' must be one of");
  expect_400({{"emote", "clap"}, {"text", "hi"}}, "one of them");
  auto [em, le] = say(w, id, {{"token", s0}, {"emote", "clap"}});
  ASSERT_EQ(em, 200) << le.dump();
  EXPECT_EQ(le["line"]["emote"], "clap");
  EXPECT_FALSE(le["line"].contains("phrase"));
  expect_400(json::object(), "one of them");
  auto [s403, j403] = say(w, id, {{"token", "nope"}, {"text", "hi"}});
  EXPECT_EQ(s403, 403) << j403.dump();
  auto [s404, j404] = w.post("/api/tables/nosuchtable/chat", json{{"token", s0}, {"text", "hi"}}.dump());
  EXPECT_EQ(s404, 404) << j404.dump();
  auto [st, v] = w.get(fmt::format("/api/tables/{}?token={}", id, s0));
  EXPECT_EQ(v["chat"].size(), 3u);  // the refused lines were never said
  EXPECT_EQ(v["chat"][2]["emote"], "clap");
}

TEST(Chat, LinesAreLimitedPerTokenAndPerAddress) {
  RoutesWorld w;
  const json t = latin_table(*w.hub);
  const std::string id = t["id"], s0 = t["tokens"]["0"], s1 = t["tokens"]["1"];
  auto post = [&](server::Limits& lim, const std::string& tok, const std::string& addr) {
    const std::string target = fmt::format("/api/tables/{}/chat", id);
    const std::string body = json{{"token", tok}, {"text", "hi"}}.dump();
    return server::handle_request(*w.hub, "", server::Request{"POST", target, body, "application/json", addr, &lim});
  };
  {
    server::LimitsConfig cfg;
    cfg.chat = {100, 100};
    cfg.chat_token = {0.01, 3};
    server::Limits lim(cfg);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(post(lim, s0, "10.0.0.1").status, 200);
    const auto r = post(lim, s0, "10.0.0.1");
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_NE(r.body.find("from this seat"), std::string::npos) << r.body;
    bool retry = false;
    for (const auto& [k, v] : r.headers) retry |= k == "Retry-After" && std::stoi(v) >= 1;
    EXPECT_TRUE(retry);
    EXPECT_EQ(post(lim, s1, "10.0.0.1").status, 200);  // another seat has its own share
  }
  {
    server::LimitsConfig cfg;
    cfg.chat = {0.01, 2};
    cfg.chat_token = {100, 100};
    server::Limits lim(cfg);
    EXPECT_EQ(post(lim, s0, "10.0.0.2").status, 200);
    EXPECT_EQ(post(lim, s1, "10.0.0.2").status, 200);
    const auto r = post(lim, s0, "10.0.0.2");
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_NE(r.body.find("from your address"), std::string::npos) << r.body;
    EXPECT_EQ(post(lim, s1, "10.0.0.3").status, 200);  // another address is not held up
  }
}

TEST(Chat, LinesAreStoredWithTheTableAndBackAfterARestart) {
  register_all_games();
  const fs::path dir = temp_dir("boneyard-chat", "restart");
  const std::string db = test::test_db((dir / "chat.db").string());
  std::string id, s0, spec;
  {
    boost::asio::io_context ioc;
    server::Storage st(db, false);
    server::HubConfig cfg;
    cfg.run_bots = false;
    server::Hub hub(st, ioc, cfg);
    const json t = latin_table(hub);
    id = t["id"];
    s0 = t["tokens"]["0"];
    spec = t["spectate"];
    hub.chat(id, s0, {{"text", kSeatSecret}});
    hub.chat(id, s0, {{"phrase", "good_game"}});
    hub.chat(id, spec, {{"text", kSpectatorSecret}});
  }
  {
    boost::asio::io_context ioc;
    server::Storage st(db, false);
    server::HubConfig cfg;
    cfg.run_bots = false;
    server::Hub hub(st, ioc, cfg);
    const json seat = hub.get(id, s0);
    ASSERT_EQ(seat["chat"].size(), 2u) << seat["chat"].dump();
    EXPECT_EQ(seat["chat"][0]["text"], kSeatSecret);
    EXPECT_EQ(seat["chat"][1]["phrase"], "good_game");
    const json watcher = hub.get(id, spec);
    ASSERT_EQ(watcher["chat"].size(), 1u);
    EXPECT_EQ(watcher["chat"][0]["text"], kSpectatorSecret);
    // Numbering goes on after the stored lines.
    const json next = hub.chat(id, s0, {{"text", "again"}});
    EXPECT_EQ(next["line"]["n"], 4);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

// A real server and a latin table with two people at it, for the chat
// over WebSockets; seat_token: the rate of one seat's lines.
class ChatSockets : public ServerFixture {
 protected:
  ChatSockets() : ServerFixture("chat") {}
  void open(server::RateLimit seat_token = server::LimitsConfig{}.chat_token) {
    server::ServerConfig c = config();
    c.limits.chat_token = seat_token;
    serve(c);
    port = port_;
    const Reply made =
        post(port, "/api/tables",
             {{"game", "latin"}, {"seats", {"human", "human", "bot:casual", "bot:casual"}}, {"bot_delay_ms", 0}});
    EXPECT_EQ(made.status, 201) << made.body;
    id = made.j.value("id", "");
    s0 = made.j["tokens"].value("0", "");
    s1 = made.j["tokens"].value("1", "");
    spec = made.j.value("spectate", "");
  }
  // A state message whose chat holds `what`.
  static std::function<bool(const json&)> has(const std::string& what) {
    return [what](const json& j) {
      return j.value("type", "") == "state" && j.contains("chat") && j["chat"].dump().find(what) != std::string::npos;
    };
  }
  unsigned short port = 0;
  std::string id, s0, s1, spec;
};

// Everything each WebSocket receives, scanned: a seat never gets a
// spectator's line, the spectators never a seat's.
TEST_F(ChatSockets, WebSocketsCarryEachAudiencesLinesOnly) {
  open();
  WsClient seat(port, fmt::format("/ws?table={}&token={}", id, s0));
  WsClient watcher(port, fmt::format("/ws?table={}&token={}", id, spec));
  seat.start_reading();
  watcher.start_reading();
  EXPECT_EQ(post(port, fmt::format("/api/tables/{}/chat", id), {{"token", s1}, {"text", kSeatSecret}}).status, 200);
  EXPECT_EQ(post(port, fmt::format("/api/tables/{}/chat", id), {{"token", spec}, {"text", kSpectatorSecret}}).status,
            200);
  EXPECT_FALSE(seat.wait_for(has(kSeatSecret)).is_null());
  EXPECT_FALSE(watcher.wait_for(has(kSpectatorSecret)).is_null());
  // One more line each way, so both have had every broadcast of the others.
  EXPECT_EQ(post(port, fmt::format("/api/tables/{}/chat", id), {{"token", s0}, {"text", "last-seat"}}).status, 200);
  EXPECT_EQ(post(port, fmt::format("/api/tables/{}/chat", id), {{"token", spec}, {"text", "last-spec"}}).status, 200);
  EXPECT_FALSE(seat.wait_for(has("last-seat")).is_null());
  EXPECT_FALSE(watcher.wait_for(has("last-spec")).is_null());
  for (const auto& m : seat.all()) {
    EXPECT_EQ(m.find(kSpectatorSecret), std::string::npos) << m;
    EXPECT_EQ(m.find("last-spec"), std::string::npos) << m;
  }
  for (const auto& m : watcher.all()) {
    EXPECT_EQ(m.find(kSeatSecret), std::string::npos) << m;
    EXPECT_EQ(m.find("last-seat"), std::string::npos) << m;
  }
}

// A line sent over a seat's own WebSocket (no POST): checked, counted and
// stored as over HTTP, and heard by the seats only.
TEST_F(ChatSockets, ALineSentOverASeatsWebSocketReachesTheSeatsOnly) {
  open({0.001, 2});  // two lines from one seat, then a long wait
  WsClient seat0(port, fmt::format("/ws?table={}&token={}", id, s0));
  WsClient seat1(port, fmt::format("/ws?table={}&token={}", id, s1));
  WsClient watcher(port, fmt::format("/ws?table={}&token={}", id, spec));
  for (WsClient* w : {&seat0, &seat1, &watcher}) w->start_reading();
  auto reply = [](WsClient& w, const char* type) {
    return w.wait_for([type](const json& j) { return j.value("type", "") == type; }, 20);
  };
  seat0.send(json{{"type", "chat"}, {"text", kSeatSecret}}.dump());
  const json ack = reply(seat0, "ack");
  ASSERT_FALSE(ack.is_null());
  EXPECT_EQ(ack["chat"]["seat"], 0);
  EXPECT_EQ(ack["chat"]["text"], kSeatSecret);
  EXPECT_FALSE(seat1.wait_for(has(kSeatSecret), 20).is_null()) << "the other seat hears it";
  // A bad line: an error naming the problem, and it costs nothing.
  seat0.send(json{{"type", "chat"}, {"text", "  "}}.dump());
  const json bad = reply(seat0, "error");
  ASSERT_FALSE(bad.is_null());
  EXPECT_EQ(bad["code"], "bad_request");
  EXPECT_NE(bad["error"].get<std::string>().find("must not be empty"), std::string::npos) << bad;
  seat0.send(json{{"type", "chat"}, {"phrase", "insult"}}.dump());
  const json bad2 = reply(seat0, "error");
  ASSERT_FALSE(bad2.is_null());
  EXPECT_NE(bad2["error"].get<std::string>().find("'phrase' must be one of"), std::string::npos) << bad2;
  seat0.send(json{{"type", "chat"}, {"phrase", "buena"}}.dump());
  ASSERT_FALSE(reply(seat0, "ack").is_null());
  // The third good line is over the seat's rate.
  seat0.send(json{{"type", "chat"}, {"text", "one too many"}}.dump());
  const json limited = reply(seat0, "error");
  ASSERT_FALSE(limited.is_null());
  EXPECT_EQ(limited["status"], 429);
  EXPECT_EQ(limited["code"], "rate_limited");
  EXPECT_NE(limited["error"].get<std::string>().find("from this seat"), std::string::npos) << limited;
  EXPECT_GE(limited["retry_after"].get<int>(), 1);
  // The spectators' own line, so the watcher has had every broadcast.
  EXPECT_EQ(post(port, fmt::format("/api/tables/{}/chat", id), {{"token", spec}, {"text", "last-spec"}}).status, 200);
  EXPECT_FALSE(watcher.wait_for(has("last-spec"), 20).is_null());
  for (const auto& m : watcher.all()) {
    EXPECT_EQ(m.find(kSeatSecret), std::string::npos) << m;
    EXPECT_EQ(m.find("buena"), std::string::npos) << m;
  }
  // Stored as over HTTP: the seats' two lines, in order; nothing refused.
  const json st = get(port, fmt::format("/api/tables/{}?token={}", id, s1)).j;
  ASSERT_EQ(st["chat"].size(), 2u) << st["chat"].dump();
  EXPECT_EQ(st["chat"][0]["text"], kSeatSecret);
  EXPECT_EQ(st["chat"][1]["phrase"], "buena");
}

}  // namespace
}  // namespace boneyard::test
