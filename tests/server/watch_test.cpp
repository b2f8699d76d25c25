// Watch (docs/server.md, "Watch"): the live games anyone may watch, best
// rated first, a player's live game on their page, and secrecy: neither
// the list nor a spectator ever shows a tile a spectator may not know.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <set>

#include "beside_db.h"
#include "record/session.h"
#include "server_fixture.h"
#include "tile_scan.h"

namespace boneyard::test {
namespace {

class Watch : public ServerFixture {
 protected:
  Watch() : ServerFixture("watch") {}
  void SetUp() override {
    ServerFixture::SetUp();
    auto c = config();
    c.hub.bot_threads = 2;
    db_ = c.db;
    serve(c);
  }
  json player(const std::string& name) {
    Reply r = post(port_, "/api/players", {{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.j;
  }
  // A table of game g: seats 0 and 1 people (keys a and b), the rest casual
  // bots; both joined, so the game is being played.
  json table(const std::string& g, const std::string& a, const std::string& b, json extra = json::object()) {
    Reply probe = post(port_, "/api/tables", json{{"game", g}, {"seats", json::array()}});
    std::smatch m;
    const std::string err = probe.j.value("error", "");
    int n = 4;
    if (std::regex_search(err, m, std::regex("has (\\d+) seats"))) n = std::stoi(m[1]);
    std::vector<std::string> seats(static_cast<size_t>(n), "bot:casual");
    seats[0] = seats[1] = "human";
    json body{{"game", g}, {"seats", seats}, {"bot_delay_ms", 0}, {"key", a}};
    for (auto& [k, v] : extra.items()) body[k] = v;
    Reply r = post(port_, "/api/tables", body);
    EXPECT_EQ(r.status, 201) << r.body;
    const std::string id = r.j["id"];
    EXPECT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", r.j["tokens"]["0"]}}).status, 200);
    EXPECT_EQ(post(port_, fmt::format("/api/tables/{}/join", id), {{"token", r.j["tokens"]["1"]}, {"key", b}}).status,
              200);
    return r.j;
  }
  // The list, once `pred` holds (it is built again at most once a second).
  json watch_until(const std::function<bool(const json&)>& pred) {
    json w;
    for (int i = 0; i < 300; ++i) {
      Reply r = get(port_, "/api/watch");
      EXPECT_EQ(r.status, 200) << r.body;
      w = r.j;
      if (pred(w)) return w;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "the watch list never became what was expected: " << w.dump();
    return w;
  }
  static bool lists(const json& w, const std::string& id) {
    for (const auto& g : w["games"])
      if (g["table"] == id) return true;
    return false;
  }
  void put_rating(const std::string& subject, const std::string& family, double rating, int games) {
    const std::string row = fmt::format(
        "INSERT INTO ratings (subject, family, rating, rd, volatility, games) VALUES ('{}', '{}', {}, 60, 0.06, {})",
        subject, family, rating, games);
    if (testing_postgres())
      pg_exec(fmt::format("SET search_path TO {}; {}", db_.substr(db_.rfind("%3D") + 3), row));
    else
      sql(db_, row);
  }
  std::string db_;
};

TEST_F(Watch, TheListShowsGamesBeingPlayedBestRatedFirstAndNeverAPrivateOne) {
  json ann = player("Ann"), bob = player("Bob"), cy = player("Cy"), di = player("Di");
  json eve = player("Eve"), fay = player("Fay");
  put_rating(cy["id"], "line", 2100, 30);
  put_rating(ann["id"], "line", 1700, 30);
  json low = table("latin", ann["key"], bob["key"], {{"listed", true}});
  json high = table("latin", cy["key"], di["key"], {{"listed", true}});
  json hidden = table("latin", eve["key"], fay["key"]);  // a private table among friends
  const std::string lo = low["id"], hi = high["id"];
  json w = watch_until([&](const json& j) { return lists(j, lo) && lists(j, hi); });
  EXPECT_FALSE(lists(w, hidden["id"])) << "a private table was listed";
  ASSERT_GE(w["games"].size(), 2u);
  EXPECT_EQ(w["games"][0]["table"], hi) << "the best rated game comes first";
  EXPECT_EQ(w["games"][1]["table"], lo);
  const json& g = w["games"][0];
  EXPECT_EQ(g["spectate"], high["spectate"]);
  EXPECT_EQ(g["seats"][0]["name"], "Cy");
  EXPECT_EQ(g["seats"][0]["rating"], 2100);
  EXPECT_EQ(g["seats"][2]["bot"], "casual");
  // No seat's token anywhere in the list: only the spectators'.
  const std::string text = w.dump();
  for (const json* t : {&low, &high, &hidden})
    for (const auto& [seat, tok] : (*t)["tokens"].items())
      EXPECT_EQ(text.find(tok.get<std::string>()), std::string::npos) << "a seat's token is in the list";
  // The player's page links the game being played (a private one never).
  Reply page = get(port_, "/api/players/" + cy["id"].get<std::string>());
  ASSERT_EQ(page.status, 200);
  ASSERT_EQ(page.j["live"].size(), 1u);
  EXPECT_EQ(page.j["live"][0]["table"], hi);
  EXPECT_EQ(page.j["live"][0]["watch_page"], fmt::format("/?t={}&k={}", hi, high["spectate"].get<std::string>()));
  EXPECT_TRUE(get(port_, "/api/players/" + eve["id"].get<std::string>()).j["live"].empty());
  // A table made with a non-boolean "listed" is refused in words.
  Reply bad = post(port_, "/api/tables",
                   {{"game", "latin"}, {"seats", {"human", "human", "human", "human"}}, {"listed", "yes"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.j.value("error", "").find("'listed' must be true"), std::string::npos) << bad.body;
}

TEST_F(Watch, ATableOfBotsOnlyOrNotYetStartedIsNotListed) {
  Reply bots = post(port_, "/api/tables",
                    {{"game", "latin"},
                     {"seats", {"bot:casual", "bot:casual", "bot:casual", "bot:casual"}},
                     {"bot_delay_ms", 2000},
                     {"listed", true}});
  ASSERT_EQ(bots.status, 201);
  json ann = player("Ann");
  Reply waiting = post(port_, "/api/tables",
                       {{"game", "latin"},
                        {"seats", {"human", "human", "bot:casual", "bot:casual"}},
                        {"listed", true},
                        {"key", ann["key"]}});
  ASSERT_EQ(waiting.status, 201);
  json bob = player("Bob"), cy = player("Cy");
  json live = table("latin", bob["key"], cy["key"], {{"listed", true}});
  json w = watch_until([&](const json& j) { return lists(j, live["id"]); });
  EXPECT_FALSE(lists(w, bots.j["id"]));
  EXPECT_FALSE(lists(w, waiting.j["id"]));
}

// ------------------------------------------------------------ secrecy
// (the tile scan of tile_scan.h, as server_test.cpp's Secrecy)

class WatchSecrecy : public Watch, public ::testing::WithParamInterface<std::string> {};

// The two people play at random over HTTP; between moves a spectator reads
// the watch list and the game through the list's spectator token. Every
// one of those is scanned for a tile hidden at its version.
TEST_P(WatchSecrecy, NeitherTheListNorItsSpectatorSeesAHiddenTile) {
  register_all_games();
  const std::string g = GetParam();
  json ann = player("Ann"), bob = player("Bob");
  json t = table(g, ann["key"], bob["key"], {{"listed", true}});
  const std::string id = t["id"];
  const std::string toks[2] = {t["tokens"]["0"], t["tokens"]["1"]};
  json w = watch_until([&](const json& j) { return lists(j, id); });
  std::string spectate;
  for (const auto& e : w["games"])
    if (e["table"] == id) spectate = e["spectate"];
  ASSERT_FALSE(spectate.empty());
  std::vector<json> seen;  // the spectator's states and the list's entries, each with its version
  std::mt19937_64 rng(7);
  bool over = false;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!over && std::chrono::steady_clock::now() < end) {
    for (const auto& tok : toks) {
      Reply v = get(port_, fmt::format("/api/tables/{}?token={}", id, tok));
      ASSERT_EQ(v.status, 200) << v.body;
      if (v.j["status"] == "over") over = true;
      if (v.j["to_act"] == true)
        post(port_, fmt::format("/api/tables/{}/moves", id),
             {{"token", tok}, {"move", v.j["legal"][rng() % v.j["legal"].size()]}});
    }
    Reply s = get(port_, fmt::format("/api/tables/{}?token={}", id, spectate));
    ASSERT_EQ(s.status, 200);
    if (s.j["status"] != "over") seen.push_back(s.j);
    const Reply list = get(port_, "/api/watch");  // kept: a loop over a temporary's member would dangle
    for (const auto& e : list.j["games"])
      if (e["table"] == id) seen.push_back(json{{"version", e["version"]}, {"entry", e}});
  }
  ASSERT_TRUE(over) << "the game did not end in time";
  Reply rec = get(port_, fmt::format("/api/tables/{}/record", id));
  ASSERT_EQ(rec.status, 200);
  size_t checked = 0;
  std::map<int, std::unique_ptr<Session>> at;
  for (const auto& j : seen) {
    const int version = j["version"];
    if (!at.count(version)) at[version] = std::make_unique<Session>(Session::from_record(rec.j, version));
    std::vector<std::string> leaks;
    scan(j, forbidden(at[version]->state().view(-1), -1), "", leaks);
    EXPECT_TRUE(leaks.empty()) << "a spectator at version " << version << " was sent: " << leaks[0];
    const std::string text = j.dump();
    for (const auto& tok : toks) EXPECT_EQ(text.find(tok), std::string::npos) << "a seat's token reached a spectator";
    ++checked;
    if (HasFailure()) break;
  }
  EXPECT_GT(checked, 5u);
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, WatchSecrecy,
                         ::testing::Values("latin", "jamaica", "mexican-train", "texas-42", "dice-and-dominoes"),
                         [](const auto& info) { return std::regex_replace(info.param, std::regex("-"), "_"); });

}  // namespace
}  // namespace boneyard::test
