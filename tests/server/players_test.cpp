// Players, display names and rematch (issue 21 items 13-14, issue 25 items
// 1, 6, 8, 9): the routes without sockets, a restart on a database file, and
// every message other seats and spectators receive scanned for a key.
#include "server/players.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "client.h"
#include "core/game.h"
#include "routes_world.h"
#include "server/http_routes.h"
#include "server/limits.h"
#include "server/storage.h"
#include "server/tables.h"
#include "test_store.h"

namespace boneyard {
namespace {

using nlohmann::json;

// Every message pushed to one subscriber (what its WebSocket would carry).
struct Collect : server::Subscriber {
  std::mutex m;
  std::vector<std::string> got;
  void push(std::shared_ptr<const std::string> message) override {
    std::lock_guard lk(m);
    got.push_back(*message);
  }
  std::string all() {
    std::lock_guard lk(m);
    std::string s;
    for (const auto& g : got) s += g + "\n";
    return s;
  }
};

// Pushes are broadcast from the hub's pool once a change is stored: waits
// (up to 10 s) until `sub` has received a message containing `text`.
bool received(Collect& sub, const std::string& text) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (sub.all().find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

struct Players : test::RoutesWorld {
  server::Limits* limits = nullptr;
  std::pair<int, json> post_from(const std::string& target, const json& body, const std::string& client = "10.0.0.1") {
    const std::string text = body.dump();  // the request views it
    server::Request r{"POST", target, text, "application/json", client, limits};
    auto res = server::handle_request(*hub, "", r);
    return {res.status, json::parse(res.body)};
  }
  json make_player(const std::string& name, const std::string& password = "") {
    json b{{"name", name}};
    if (!password.empty()) b["password"] = password;
    auto [status, p] = post_from("/api/players", b);
    EXPECT_EQ(status, 201) << p.dump();
    return p;
  }
  // Plays each seat's first legal move until the game is over.
  void play_out(const json& t) {
    const std::string id = t["id"];
    for (int guard = 0; guard < 5000; ++guard) {
      if (hub->get(id, t["spectate"])["status"] == "over") return;
      bool moved = false;
      for (int k = 0; k < 4 && !moved; ++k) {
        if (!t["tokens"].contains(std::to_string(k))) continue;
        const std::string tok = t["tokens"][std::to_string(k)];
        const json mine = hub->get(id, tok);
        if (mine["to_act"] == true) {
          hub->move(id, tok, mine["legal"][0]);
          moved = true;
        }
      }
      ASSERT_TRUE(moved) << "nobody could move";
    }
    FAIL() << "the game did not end";
  }
};

TEST(Players, AMadePlayerHasAnIdAKeyAndAPublicPageWithoutTheKey) {
  Players w;
  const json p = w.make_player("Ann");
  ASSERT_TRUE(p["id"].is_string());
  ASSERT_TRUE(p["key"].is_string());
  EXPECT_GE(p["key"].get<std::string>().size(), 32u);
  EXPECT_EQ(p["name"], "Ann");
  auto [status, page] = w.get("/api/players/" + p["id"].get<std::string>());
  ASSERT_EQ(status, 200) << page.dump();
  EXPECT_EQ(page["name"], "Ann");
  EXPECT_TRUE(page["ratings"].is_object() && page["ratings"].empty()) << "no ratings exist yet";
  EXPECT_TRUE(page["games"].is_array() && page["games"].empty());
  EXPECT_EQ(page.dump().find(p["key"].get<std::string>()), std::string::npos);
  auto [missing, err] = w.get("/api/players/0000000000000000");
  EXPECT_EQ(missing, 404);
  EXPECT_NE(err["error"].get<std::string>().find("no player"), std::string::npos);
}

TEST(Players, ATakenNameGetsASuffixWhateverItsCase) {
  Players w;
  EXPECT_EQ(w.make_player("Ann")["name"], "Ann");
  EXPECT_EQ(w.make_player("ann")["name"], "ann 2");
  EXPECT_EQ(w.make_player("ANN")["name"], "ANN 3");
  // The suffix fits the length limit: the name is shortened for it.
  const std::string longest(32, 'x');
  EXPECT_EQ(w.make_player(longest)["name"], longest);
  EXPECT_EQ(w.make_player(longest)["name"], std::string(30, 'x') + " 2");
}

TEST(Players, NamesAreValidatedWithAClearErrorNamingTheRule) {
  Players w;
  struct Case {
    std::string name, says;
  };
  const std::vector<Case> bad = {
      {"", "empty"},
      {"   ", "empty"},
      {std::string(33, 'a'), "at most 32"},
      {"An\x07n", "control character (U+0007)"},
      {"Ann\nBob", "control character (U+000A)"},
      {"\xc2\x85x", "control character (U+0085)"},
      {"evil\xe2\x80\xaegnp.exe", "bidirectional control character (U+202E)"},
      {"a\xe2\x81\xa6"
       "b",
       "bidirectional control character (U+2066)"},
      {"A\xe2\x80\x8bnn", "invisible character (U+200B)"},
      {"\xff\xfe", "not valid UTF-8"},
      {"\xc0\xaf", "not valid UTF-8"},      // an overlong '/'
      {"\xed\xa0\x80", "not valid UTF-8"},  // a surrogate
  };
  for (const auto& c : bad) {
    // Sent as raw bytes (JSON of invalid UTF-8 cannot be built): through the route.
    std::string body = "{\"name\": \"";
    for (unsigned char ch : c.name) {
      if (ch < 0x20)
        body += fmt::format("\\u{:04x}", ch);
      else
        body += static_cast<char>(ch);
    }
    body += "\"}";
    auto r = server::handle_request(*w.hub, "",
                                    server::Request{"POST", "/api/players", body, "application/json", "", nullptr});
    const json j = json::parse(r.body, nullptr, false);
    if (j.is_discarded()) {
      ADD_FAILURE() << "not JSON: " << r.body;
      continue;
    }
    EXPECT_EQ(r.status, 400) << c.says << ": " << r.body;
    if (r.status == 400 && c.says != "not valid UTF-8") {
      EXPECT_NE(j["error"].get<std::string>().find(c.says), std::string::npos) << j.dump();
    } else if (r.status == 400) {
      // nlohmann refuses invalid UTF-8 in the body already, or the name check does.
      const std::string e = j["error"].get<std::string>();
      EXPECT_TRUE(e.find("UTF-8") != std::string::npos || e.find("not valid JSON") != std::string::npos) << e;
    }
  }
  // Spaces at the ends are dropped; any script, punctuation and emoji are fine.
  EXPECT_EQ(server::check_name("  Zoë  "), "Zoë");
  EXPECT_EQ(server::check_name("山田 太郎"), "山田 太郎");
  EXPECT_EQ(server::check_name("<img src=x onerror=alert(1)>"), "<img src=x onerror=alert(1)>");
  EXPECT_EQ(server::check_name(std::string(32, 'a')), std::string(32, 'a'));
  EXPECT_EQ(server::check_name(std::string(30, 'a') + "\xf0\x9f\x98\x80"),
            std::string(30, 'a') + "\xf0\x9f\x98\x80");  // counted in characters, not bytes
  EXPECT_THROW(server::check_name("\xef\xbb\xbf"
                                  "Ann"),
               server::ApiError);  // a byte order mark
}

TEST(Players, APasswordLetsTheSamePlayerLogInOnAnotherDevice) {
  Players w;
  auto [short_status, short_err] = w.post_from("/api/players", {{"name", "Bo"}, {"password", "short"}});
  EXPECT_EQ(short_status, 400);
  EXPECT_NE(short_err["error"].get<std::string>().find("8 to 256"), std::string::npos) << short_err.dump();
  const json p = w.make_player("Bo", "correct horse");
  auto [status, again] = w.post_from("/api/players/login", {{"name", "bo"}, {"password", "correct horse"}});
  ASSERT_EQ(status, 200) << again.dump();
  EXPECT_EQ(again["id"], p["id"]);
  EXPECT_NE(again["key"], p["key"]) << "each device gets its own key";
  // Both keys are the player's.
  for (const json& key : {p["key"], again["key"]}) {
    auto [s, t] =
        w.post_from("/api/tables",
                    {{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}, {"key", key}});
    ASSERT_EQ(s, 201) << t.dump();
    const json st = w.hub->get(t["id"], t["tokens"]["0"]);
    EXPECT_EQ(st["seats"][0]["player_id"], p["id"]);
  }
  // A wrong password and an unknown name get the same answer.
  auto [wrong, e1] = w.post_from("/api/players/login", {{"name", "Bo"}, {"password", "wrong horse"}});
  auto [unknown, e2] = w.post_from("/api/players/login", {{"name", "Nobody"}, {"password", "correct horse"}});
  EXPECT_EQ(wrong, 401);
  EXPECT_EQ(unknown, 401);
  EXPECT_EQ(e1["error"], e2["error"]);
  // A player without a password cannot be logged into.
  w.make_player("Cy");
  auto [none, e3] = w.post_from("/api/players/login", {{"name", "Cy"}, {"password", ""}});
  EXPECT_EQ(none, 401);
  // The stored hash is argon2id, never the password.
  const auto stored = w.db.player(p["id"]);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->password.rfind("$argon2id$", 0), 0u) << stored->password;
  EXPECT_EQ(stored->password.find("correct horse"), std::string::npos);
}

// A player made without a password (the app's first visit) sets one later
// with its key, then logs in with it from another device.
TEST(Players, APlayerSetsAPasswordWithItsKeyAndThenLogsInWithIt) {
  Players w;
  const json p = w.make_player("Dana");
  const json other = w.make_player("Eli");
  const std::string target = fmt::format("/api/players/{}/password", p["id"].get<std::string>());
  // Before: no password, no login.
  EXPECT_EQ(w.post_from("/api/players/login", {{"name", "Dana"}, {"password", "new horse 1"}}).first, 401);
  // Another player's key, or a made-up one, may not set it.
  auto [wrong, e1] = w.post_from(target, {{"key", other["key"]}, {"password", "new horse 1"}});
  EXPECT_EQ(wrong, 403) << e1.dump();
  EXPECT_NE(e1["error"].get<std::string>().find("not this player's"), std::string::npos) << e1.dump();
  EXPECT_EQ(w.post_from(target, {{"key", "0123abcd"}, {"password", "new horse 1"}}).first, 403);
  EXPECT_EQ(w.post_from("/api/players/nosuchplayer/password", {{"key", p["key"]}, {"password", "new horse 1"}}).first,
            403);
  // The same limits as at creation.
  auto [too_short, e2] = w.post_from(target, {{"key", p["key"]}, {"password", "short"}});
  EXPECT_EQ(too_short, 400) << e2.dump();
  EXPECT_NE(e2["error"].get<std::string>().find("8 to 256"), std::string::npos) << e2.dump();
  EXPECT_EQ(w.post_from(target, {{"key", p["key"]}, {"password", std::string(257, 'x')}}).first, 400);
  EXPECT_EQ(w.post_from(target, {{"key", p["key"]}}).first, 400);  // no password at all
  EXPECT_EQ(w.post_from("/api/players/login", {{"name", "Dana"}, {"password", "new horse 1"}}).first,
            401);  // nothing was set
  // Set, then a login gives a new key for the same player.
  auto [set, r] = w.post_from(target, {{"key", p["key"]}, {"password", "new horse 1"}});
  ASSERT_EQ(set, 200) << r.dump();
  EXPECT_EQ(r["id"], p["id"]);
  EXPECT_FALSE(r.contains("key")) << "setting a password makes no key";
  auto [in, again] = w.post_from("/api/players/login", {{"name", "Dana"}, {"password", "new horse 1"}});
  ASSERT_EQ(in, 200) << again.dump();
  EXPECT_EQ(again["id"], p["id"]);
  EXPECT_NE(again["key"], p["key"]);
  // Changed (with the new device's key): the old password no longer works.
  ASSERT_EQ(w.post_from(target, {{"key", again["key"]}, {"password", "newer horse 2"}}).first, 200);
  EXPECT_EQ(w.post_from("/api/players/login", {{"name", "Dana"}, {"password", "new horse 1"}}).first, 401);
  EXPECT_EQ(w.post_from("/api/players/login", {{"name", "Dana"}, {"password", "newer horse 2"}}).first, 200);
  EXPECT_EQ(w.db.player(p["id"])->password.rfind("$argon2id$", 0), 0u);
}

TEST(Players, CreatingPlayersIsLimitedPerAddress) {
  Players w;
  server::LimitsConfig cfg;
  cfg.player = {0.001, 3};
  server::Limits limits(cfg);
  w.limits = &limits;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(w.post_from("/api/players", {{"name", fmt::format("P{}", i)}}, "10.0.0.7").first, 201);
  auto [status, err] = w.post_from("/api/players", {{"name", "P9"}}, "10.0.0.7");
  EXPECT_EQ(status, 429) << err.dump();
  EXPECT_NE(err["error"].get<std::string>().find("new players"), std::string::npos) << err.dump();
  // Logins share the allowance (a guessed password costs as much).
  EXPECT_EQ(w.post_from("/api/players/login", {{"name", "P0"}, {"password", "whatever1"}}, "10.0.0.7").first, 429);
  // Another address is not held back.
  EXPECT_EQ(w.post_from("/api/players", {{"name", "Q"}}, "10.0.0.8").first, 201);
}

TEST(Players, ARematchCountsAsANewTableForTheAddressLimit) {
  Players w;
  server::LimitsConfig cfg;
  cfg.create = {0.001, 1};
  server::Limits limits(cfg);
  w.limits = &limits;
  const json t = w.hub->create({{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}});
  const std::string target = "/api/tables/" + t["id"].get<std::string>() + "/rematch";
  EXPECT_EQ(w.post_from(target, {{"token", t["tokens"]["0"]}}, "10.0.0.9").first, 409);  // spends the one allowed
  auto [status, err] = w.post_from(target, {{"token", t["tokens"]["0"]}}, "10.0.0.9");
  EXPECT_EQ(status, 429) << err.dump();
  EXPECT_NE(err["error"].get<std::string>().find("new tables"), std::string::npos) << err.dump();
}

TEST(Players, AKeyAtCreationOrJoiningPutsThePlayerAndNameInTheSeat) {
  Players w;
  const json ann = w.make_player("Ann"), bo = w.make_player("Bo");
  auto [s, t] =
      w.post_from("/api/tables",
                  {{"game", "latin"}, {"seats", {"bot:casual", "human", "human", "bot:casual"}}, {"key", ann["key"]}});
  ASSERT_EQ(s, 201) << t.dump();
  const std::string id = t["id"];
  json st = w.hub->get(id, t["spectate"]);
  EXPECT_EQ(st["seats"][1]["name"], "Ann") << "the first human seat is the key's";
  EXPECT_EQ(st["seats"][1]["player_id"], ann["id"]);
  EXPECT_TRUE(st["seats"][2]["name"].is_null());
  EXPECT_TRUE(st["seats"][0]["name"].is_null());
  // Joining with a key: that player's name at the seat.
  auto [js, joined] = w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["2"]}, {"key", bo["key"]}});
  ASSERT_EQ(js, 200) << joined.dump();
  EXPECT_EQ(joined["seats"][2]["name"], "Bo");
  // An unknown key, a bad key_seat, a bad name: refused with what was wrong.
  auto [u, ue] =
      w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["2"]}, {"key", "0123456789abcdef0123"}});
  EXPECT_EQ(u, 403);
  EXPECT_NE(ue["error"].get<std::string>().find("not known"), std::string::npos) << ue.dump();
  auto [ks, ke] = w.post_from("/api/tables", {{"game", "latin"},
                                              {"seats", {"bot:casual", "human", "human", "bot:casual"}},
                                              {"key", ann["key"]},
                                              {"key_seat", 0}});
  EXPECT_EQ(ks, 400);
  EXPECT_NE(ke["error"].get<std::string>().find("key_seat"), std::string::npos) << ke.dump();
  // Another player cannot take a player's seat; a name alone leaves it as it is.
  auto [o, oe] = w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["1"]}, {"key", bo["key"]}});
  EXPECT_EQ(o, 409) << oe.dump();
  auto [g, ge] = w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["1"]}, {"name", "Mallory"}});
  EXPECT_EQ(g, 200);
  EXPECT_EQ(ge["seats"][1]["name"], "Ann");
  // The player's page lists the table.
  auto [ps, page] = w.get("/api/players/" + ann["id"].get<std::string>());
  ASSERT_EQ(ps, 200);
  ASSERT_EQ(page["games"].size(), 1u) << page.dump();
  EXPECT_EQ(page["games"][0]["table"], id);
  EXPECT_EQ(page["games"][0]["seat"], 1);
  EXPECT_EQ(page["games"][0]["game"], "latin");
  EXPECT_EQ(page["games"][0]["over"], false);
  EXPECT_FALSE(page["games"][0].contains("replay")) << "no replay while the game is in progress";
}

TEST(Players, AGuestNameIsShownInTheStateTheRecordAndTheReplay) {
  Players w;
  const json t =
      w.hub->create({{"game", "latin"}, {"options", {{"target", 1}}}, {"seats", {"human", "human", "human", "human"}}});
  const std::string id = t["id"];
  const std::string xss = "<img src=x onerror=alert(1)>";
  for (int k = 0; k < 4; ++k) {
    auto [s, j] = w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"][std::to_string(k)]},
                                                              {"name", k == 0 ? xss : fmt::format("Seat{}", k)}});
    ASSERT_EQ(s, 200) << j.dump();
  }
  auto [bad, be] = w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["1"]},
                                                               {"name",
                                                                "a\xe2\x80\xae"
                                                                "b"}});
  EXPECT_EQ(bad, 400) << be.dump();
  EXPECT_EQ(w.hub->get(id, t["spectate"])["seats"][0]["name"], xss);
  w.play_out(t);
  // Once over, the names are the record's: a late name changes nothing.
  auto [late, le] = w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["3"]}, {"name", "Late"}});
  EXPECT_EQ(late, 200) << le.dump();
  EXPECT_EQ(le["seats"][3]["name"], "Seat3");
  const json rec = w.hub->record(id);
  EXPECT_EQ(rec["names"][0], xss);
  EXPECT_EQ(rec["names"][3], "Seat3");
  auto [rs, rp] = w.get("/api/tables/" + id + "/replay");
  ASSERT_EQ(rs, 200);
  EXPECT_EQ(rp["names"][1], "Seat1");
}

TEST(Players, APlayersKeyNeverReachesAnotherSeatOrASpectator) {
  Players w;
  const json ann = w.make_player("Ann"), bo = w.make_player("Bo");
  const std::string ak = ann["key"], bk = bo["key"];
  const json t = w.hub->create(
      {{"game", "latin"}, {"options", {{"target", 1}}}, {"seats", {"human", "human", "human", "human"}}, {"key", ak}});
  const std::string id = t["id"];
  // Every seat and a spectator watch (the WebSocket's messages) from the start.
  std::vector<std::shared_ptr<Collect>> subs;
  for (int k = 0; k < 4; ++k) {
    subs.push_back(std::make_shared<Collect>());
    w.hub->subscribe(id, t["tokens"][std::to_string(k)], std::nullopt, subs.back());
  }
  auto spect = std::make_shared<Collect>();
  w.hub->subscribe(id, t["spectate"], std::nullopt, spect);
  ASSERT_EQ(w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["1"]}, {"key", bk}}).first, 200);
  std::string seen;  // everything GET and the sockets gave anyone but the key's owner
  w.play_out(t);
  for (int k = 0; k < 4; ++k) {
    const std::string tok = t["tokens"][std::to_string(k)];
    seen += w.get("/api/tables/" + id + "?token=" + tok).second.dump();
  }
  seen += w.get("/api/tables/" + id + "?token=" + t["spectate"].get<std::string>()).second.dump();
  seen += w.get("/api/tables/" + id + "/record").second.dump();
  seen += w.get("/api/tables/" + id + "/replay").second.dump();
  seen += w.get("/api/tables/" + id + "/fairness").second.dump();
  seen += w.get("/api/players/" + ann["id"].get<std::string>()).second.dump();
  seen += w.get("/api/players/" + bo["id"].get<std::string>()).second.dump();
  for (const auto& s : subs) seen += s->all();
  seen += spect->all();
  // The rematch's answers and pushes too (made once every seat accepted).
  for (const char* k : {"0", "1", "3"}) {
    auto [os, om] = w.post_from("/api/tables/" + id + "/rematch", {{"token", t["tokens"][k]}});
    ASSERT_EQ(os, 200) << om.dump();
    seen += om.dump();
  }
  auto [rs, rm] = w.post_from("/api/tables/" + id + "/rematch", {{"token", t["tokens"]["2"]}});
  ASSERT_EQ(rs, 200) << rm.dump();
  seen += rm.dump();
  for (const auto& s : subs) EXPECT_TRUE(received(*s, "\"rematch\""));
  EXPECT_TRUE(received(*spect, "\"rematch\""));
  for (const auto& s : subs) seen += s->all();
  seen += spect->all();
  seen +=
      w.get("/api/tables/" + rm["table"].get<std::string>() + "?token=" + rm["token"].get<std::string>()).second.dump();
  EXPECT_NE(seen.find("\"Ann\""), std::string::npos) << "the scan saw the names";
  EXPECT_EQ(seen.find(ak), std::string::npos) << "Ann's key was shown";
  EXPECT_EQ(seen.find(bk), std::string::npos) << "Bo's key was shown";
  // Nor is it stored in clear.
  auto st = w.db.load(id);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->spec.dump().find(ak), std::string::npos);
  EXPECT_EQ(st->meta.dump().find(ak), std::string::npos);
}

// A table of people only (bots do not move in the routes world), finished.
TEST(Players, RematchOfAFinishedTableKeepsPeopleOptionsAndPartnersAndPassesTheLeadOn) {
  Players w;
  const json ann = w.make_player("Ann"), bo = w.make_player("Bo");
  const json t = w.hub->create({{"game", "latin"},
                                {"options", {{"target", 1}}},
                                {"seats", {"human", "human", "human", "human"}},
                                {"key", ann["key"]},
                                {"bot_delay_ms", 5},
                                {"takeover_level", "strong"}});
  const std::string id = t["id"];
  ASSERT_EQ(w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["1"]}, {"key", bo["key"]}}).first, 200);
  ASSERT_EQ(w.post_from("/api/tables/" + id + "/join", {{"token", t["tokens"]["2"]}, {"name", "Cy"}}).first, 200);
  w.hub->join(id, t["tokens"]["0"], std::nullopt);
  w.hub->join(id, t["tokens"]["3"], std::nullopt);
  auto [early, ee] = w.post_from("/api/tables/" + id + "/rematch", {{"token", t["tokens"]["0"]}});
  EXPECT_EQ(early, 409) << ee.dump();
  EXPECT_NE(ee["error"].get<std::string>().find("not over"), std::string::npos);
  auto watcher = std::make_shared<Collect>();
  w.hub->subscribe(id, t["tokens"]["3"], std::nullopt, watcher);
  w.play_out(t);
  auto [sp, se] = w.post_from("/api/tables/" + id + "/rematch", {{"token", t["spectate"]}});
  EXPECT_EQ(sp, 403) << se.dump();
  // Offered by seat 1, accepted by the others: made with the last answer.
  for (const char* k : {"1", "2", "3"}) {
    auto [so, ro] = w.post_from("/api/tables/" + id + "/rematch", {{"token", t["tokens"][k]}});
    ASSERT_EQ(so, 200) << ro.dump();
    EXPECT_EQ(ro["status"], "offered") << ro.dump();
  }
  auto [s2, r2] = w.post_from("/api/tables/" + id + "/rematch", {{"token", t["tokens"]["0"]}});
  ASSERT_EQ(s2, 200) << r2.dump();
  const std::string nid = r2["table"];
  EXPECT_NE(nid, id);
  EXPECT_EQ(r2["seat"], 3);
  // Asked again by another seat: the same table, that person's own seat and token.
  auto [s1, r1] = w.post_from("/api/tables/" + id + "/rematch", {{"token", t["tokens"]["1"]}});
  ASSERT_EQ(s1, 200) << r1.dump();
  EXPECT_EQ(r1["table"], nid);
  EXPECT_EQ(r1["seat"], 0) << "seat 1 (next after seat 0) leads the new game from seat 0";
  EXPECT_NE(r2["token"], r1["token"]);
  // Each old seat's token holds its person's new seat, named as before.
  const json nst = w.hub->get(nid, r1["token"]);
  EXPECT_EQ(nst["seat"], 0);
  EXPECT_EQ(nst["status"], "waiting");
  const std::vector<std::string> names = {"Bo", "Cy", "", "Ann"};
  for (int k = 0; k < 4; ++k) {
    if (names[static_cast<size_t>(k)].empty())
      EXPECT_TRUE(nst["seats"][k]["name"].is_null()) << k;
    else
      EXPECT_EQ(nst["seats"][k]["name"], names[static_cast<size_t>(k)]) << k;
  }
  EXPECT_EQ(nst["seats"][3]["player_id"], ann["id"]);
  EXPECT_EQ(nst["seats"][0]["player_id"], bo["id"]);
  // Partners stay partners: Ann (0) and Cy (2) were, and are (3 and 1).
  EXPECT_EQ(w.hub->get(nid, r2["token"])["seat"], 3);
  // Each seat also gets the new table's spectator link (for "Share"): it watches.
  ASSERT_TRUE(r1["spectate"].is_string()) << r1.dump();
  EXPECT_EQ(r1["spectate"], r2["spectate"]);
  EXPECT_TRUE(w.hub->get(nid, r1["spectate"])["seat"].is_null());
  // Its own fairness: a new commitment, nothing revealed.
  const json f = w.hub->fairness(nid);
  EXPECT_NE(f["commitment"], w.hub->fairness(id)["commitment"]);
  EXPECT_FALSE(f.contains("secret"));
  EXPECT_EQ(f["provably_fair"], true);
  // The same options.
  const auto stored = w.db.load(nid);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->spec["options"], json({{"target", "1"}}));
  EXPECT_EQ(stored->spec["takeover_level"], "strong");
  EXPECT_EQ(stored->spec["bot_delay_ms"], 5);
  // Every seat's state at the old table says where it went, with its own token only.
  for (int k = 0; k < 4; ++k) {
    const json old = w.hub->get(id, t["tokens"][std::to_string(k)]);
    ASSERT_TRUE(old.contains("rematch")) << old.dump();
    EXPECT_EQ(old["rematch"]["table"], nid);
    EXPECT_EQ(old["rematch"]["seat"], (k + 3) % 4);
    EXPECT_EQ(w.hub->get(nid, old["rematch"]["token"])["seat"], (k + 3) % 4);
  }
  const json spect = w.hub->get(id, t["spectate"]);
  EXPECT_EQ(w.hub->get(nid, spect["rematch"]["token"])["seat"], nullptr) << "a spectator follows as a spectator";
  // The pushes to seat 3 carried its own new token and nobody else's.
  EXPECT_TRUE(received(*watcher, w.hub->get(id, t["tokens"]["3"])["rematch"]["token"].get<std::string>()));
  const std::string pushed = watcher->all();
  EXPECT_EQ(pushed.find(r1["token"].get<std::string>()), std::string::npos);
  EXPECT_EQ(pushed.find(r2["token"].get<std::string>()), std::string::npos);
  // The finished game's players list it with a replay link.
  auto [ps, page] = w.get("/api/players/" + ann["id"].get<std::string>());
  bool listed = false;
  for (const auto& g : page["games"])
    if (g["table"] == id) listed = g["over"] == true && g["replay"] == "/api/tables/" + id + "/replay";
  EXPECT_TRUE(listed) << page.dump();
}

TEST(Players, RematchTurnsBotSeatsTooAndBotsStayBots) {
  register_all_games();
  boost::asio::io_context ioc;
  auto work = boost::asio::make_work_guard(ioc);
  std::thread io([&] { ioc.run(); });
  {
    server::Storage db(test::test_db(":memory:"), false);
    server::HubConfig cfg;
    cfg.bot_threads = 1;
    server::Hub hub(db, ioc, cfg);
    const json t = hub.create({{"game", "latin"},
                               {"options", {{"target", 1}}},
                               {"seats", {"human", "bot:beginner", "human", "bot:casual"}},
                               {"bot_delay_ms", 0}});
    const std::string id = t["id"];
    hub.join(id, t["tokens"]["0"], std::nullopt, {{"name", "Ann"}});
    hub.join(id, t["tokens"]["2"], std::nullopt, {{"name", "Cy"}});
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (hub.get(id, t["spectate"])["status"] != "over" && std::chrono::steady_clock::now() < until) {
      bool moved = false;
      for (const char* k : {"0", "2"}) {
        const json mine = hub.get(id, t["tokens"][k]);
        if (mine["to_act"] == true) {
          try {
            hub.move(id, t["tokens"][k], mine["legal"][0]);
            moved = true;
          } catch (const server::ApiError&) {  // a bot moved first
          }
        }
      }
      if (!moved) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_EQ(hub.get(id, t["spectate"])["status"], "over");
    EXPECT_EQ(hub.rematch(id, t["tokens"]["0"])["status"], "offered");  // made once both people accept
    const json r = hub.rematch(id, t["tokens"]["2"]);
    EXPECT_EQ(r["seat"], 1);
    const json nst = hub.get(r["table"], r["token"]);
    std::vector<std::string> kinds;
    for (const auto& s : nst["seats"]) kinds.push_back(s["player"]);
    // Old seats 0..3 (Ann, beginner, Cy, casual) now sit at 3, 0, 1, 2.
    EXPECT_EQ(kinds, (std::vector<std::string>{"bot:beginner", "human", "bot:casual", "human"}));
    EXPECT_EQ(nst["seats"][1]["name"], "Cy");
    EXPECT_EQ(nst["seats"][3]["name"], "Ann");
    EXPECT_EQ(nst["waiting_for"], json({1, 3})) << "the people are waited for; the bots need nobody";
    hub.shutdown();
  }
  work.reset();
  ioc.stop();
  io.join();
}

TEST(Players, PlayersAndSeatNamesSurviveARestart) {
  const auto dir = test::temp_dir("boneyard-players", "restart");
  const std::string path = test::test_db((dir / "t.db").string());
  register_all_games();
  json p, t;
  {
    boost::asio::io_context ioc;
    server::Storage db(path, false);
    server::HubConfig cfg;
    cfg.run_bots = false;
    server::Hub hub(db, ioc, cfg);
    p = hub.create_player({{"name", "Ann"}, {"password", "correct horse"}});
    t = hub.create({{"game", "latin"}, {"seats", {"human", "human", "bot:casual", "bot:casual"}}, {"key", p["key"]}});
    hub.join(t["id"], t["tokens"]["1"], std::nullopt, {{"name", "Guest"}});
    hub.join(t["id"], t["tokens"]["0"], std::nullopt);
  }
  boost::asio::io_context ioc;
  server::Storage db(path, false);
  server::HubConfig cfg;
  cfg.run_bots = false;
  server::Hub hub(db, ioc, cfg);
  const json st = hub.get(t["id"], t["spectate"]);
  EXPECT_EQ(st["seats"][0]["name"], "Ann");
  EXPECT_EQ(st["seats"][0]["player_id"], p["id"]);
  EXPECT_EQ(st["seats"][1]["name"], "Guest");
  EXPECT_EQ(hub.player(p["id"])["name"], "Ann");
  EXPECT_EQ(hub.player(p["id"])["games"][0]["table"], t["id"]);
  // The key and the password still work; the name is still taken.
  EXPECT_EQ(hub.create({{"game", "latin"},
                        {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}},
                        {"key", p["key"]}})["seats"],
            4);
  EXPECT_EQ(hub.login({{"name", "Ann"}, {"password", "correct horse"}})["id"], p["id"]);
  EXPECT_EQ(hub.create_player({{"name", "Ann"}})["name"], "Ann 2");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace boneyard
