// Quick match (issue 25, 3): players waiting for the same game are seated
// together as soon as they fill a table; after the wait, bots fill the rest;
// partners are drawn at random unless two asked for each other.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <thread>

#include "beside_db.h"
#include "server_fixture.h"

namespace boneyard::test {
namespace {

using server::ServerConfig;

class QuickMatchTest : public ServerFixture {
 protected:
  QuickMatchTest() : ServerFixture("qm") {}
  void start(double wait_s) {
    ServerConfig c = config();
    c.hub.quickmatch_wait_s = wait_s;
    serve(c);
  }
  json player(const std::string& name) {
    Reply r = post(port_, "/api/players", json{{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.j;
  }
  Reply ask(const json& p, json extra = json::object()) {
    json body{{"key", p["key"]}, {"game", "latin"}};
    for (auto& [k, v] : extra.items()) body[k] = v;
    return post(port_, "/api/quickmatch", body);
  }
  json status(const json& p) { return get(port_, "/api/quickmatch?key=" + p["key"].get<std::string>()).j; }
  json seated(const json& p, double secs = 10) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(secs);
    json s = status(p);
    while (s.value("status", "") != "seated" && std::chrono::steady_clock::now() < end) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      s = status(p);
    }
    return s;
  }
};

TEST_F(QuickMatchTest, FourWaitingPlayersAreSeatedAtOneTableAtOnce) {
  start(60);  // no bots: the fourth fills the table
  std::vector<json> ps;
  for (const char* n : {"Ana", "Bo", "Cy", "Di"}) ps.push_back(player(n));
  for (int i = 0; i < 3; ++i) {
    Reply r = ask(ps[static_cast<size_t>(i)]);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.j["status"], "waiting");
    EXPECT_EQ(r.j["waiting"], i + 1);
    EXPECT_GT(r.j["seconds_left"].get<double>(), 50);
  }
  Reply last = ask(ps[3]);
  ASSERT_EQ(last.status, 200);
  EXPECT_EQ(last.j["status"], "seated");  // made in the fourth's own request
  std::set<int> seats;
  std::set<std::string> tables;
  for (const auto& p : ps) {
    const json s = status(p);
    ASSERT_EQ(s["status"], "seated") << s;
    seats.insert(s["seat"].get<int>());
    tables.insert(s["table"].get<std::string>());
    // The token holds that seat, with the player's name, and no other seat's token is shown.
    const json st =
        get(port_, "/api/tables/" + s["table"].get<std::string>() + "?token=" + s["token"].get<std::string>()).j;
    EXPECT_EQ(st["seat"], s["seat"]);
    EXPECT_EQ(st["seats"][s["seat"].get<size_t>()]["name"], p["name"]);
    EXPECT_EQ(s.dump().find(p["key"].get<std::string>()), std::string::npos);
  }
  EXPECT_EQ(seats.size(), 4u);
  EXPECT_EQ(tables.size(), 1u);
  const json st =
      get(port_, "/api/tables/" + *tables.begin() + "?token=" + status(ps[0])["token"].get<std::string>()).j;
  for (const auto& s : st["seats"]) EXPECT_EQ(s["player"], "human");
}

// A rated queue counts only who could share a table: two of one address
// never do, so each sees "1 here" and that another of its network waits
// (they read "2 of 4 here", then each got a table of bots).
TEST_F(QuickMatchTest, ARatedWaitCountsOnlyWhoCouldShareTheTable) {
  start(60);
  const json a = player("Al"), b = player("Bea");
  ASSERT_EQ(ask(a, {{"rated", true}}).status, 200);
  const Reply r = ask(b, {{"rated", true}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.j["waiting"], 1) << r.body;
  EXPECT_EQ(r.j["same_network"], 1) << r.body;
  EXPECT_EQ(status(a)["waiting"], 1);
  // A casual queue seats them together: both counted.
  const json c = player("Cai"), d = player("Dot");
  ASSERT_EQ(ask(c).status, 200);
  const Reply casual = ask(d);
  EXPECT_EQ(casual.j["waiting"], 2) << casual.body;
  EXPECT_EQ(casual.j["same_network"], 0) << casual.body;
}

TEST_F(QuickMatchTest, AfterTheWaitBotsOfTheChosenLevelFillTheEmptySeats) {
  start(1);
  const json a = player("Ana"), b = player("Bo");
  ASSERT_EQ(ask(a, {{"level", "beginner"}}).j["status"], "waiting");
  ASSERT_EQ(ask(b).j["status"], "waiting");
  const json sa = seated(a), sb = seated(b);
  ASSERT_EQ(sa["status"], "seated") << sa;
  ASSERT_EQ(sb["status"], "seated") << sb;
  EXPECT_EQ(sa["table"], sb["table"]);
  const json st =
      get(port_, "/api/tables/" + sa["table"].get<std::string>() + "?token=" + sa["token"].get<std::string>()).j;
  int humans = 0, bots = 0;
  for (const auto& s : st["seats"]) {
    if (s["player"] == "human")
      ++humans;
    else if (s["player"] == "bot:beginner")
      ++bots;  // the first asker's level
  }
  EXPECT_EQ(humans, 2);
  EXPECT_EQ(bots, 2);
}

TEST_F(QuickMatchTest, TwoWhoCameTogetherArePartners) {
  start(60);
  // Over many tables: the pair always sits at partner seats (k, k+2).
  for (int round = 0; round < 6; ++round) {
    const json a = player("Pa"), b = player("Pb"), c = player("Pc"), d = player("Pd");
    ASSERT_EQ(ask(a, {{"with", b["id"]}}).status, 200);
    ASSERT_EQ(ask(c).status, 200);
    ASSERT_EQ(ask(b, {{"with", a["id"]}}).status, 200);
    ASSERT_EQ(ask(d).status, 200);
    const json sa = seated(a), sb = seated(b);
    ASSERT_EQ(sa["status"], "seated");
    EXPECT_EQ(sa["table"], sb["table"]);
    EXPECT_EQ((sa["seat"].get<int>() + 2) % 4, sb["seat"].get<int>()) << "round " << round;
  }
}

TEST_F(QuickMatchTest, LeavingBadInputAndOtherGamesApart) {
  start(60);
  const json a = player("Ana"), b = player("Bo");
  EXPECT_EQ(post(port_, "/api/quickmatch", json{{"game", "latin"}}).status, 400);  // no key
  EXPECT_EQ(post(port_, "/api/quickmatch", json{{"key", "nope"}, {"game", "latin"}}).status, 403);
  EXPECT_EQ(ask(a, {{"game", "no-such-game"}}).status, 400);
  EXPECT_EQ(ask(a, {{"options", {{"target", "banana"}}}}).status, 400);
  EXPECT_EQ(ask(a, {{"level", "godlike"}}).status, 400);
  EXPECT_EQ(ask(a, {{"rated", "yes"}}).status, 400);
  EXPECT_EQ(get(port_, "/api/quickmatch?key=" + a["key"].get<std::string>()).status, 404);  // not waiting
  // Different games wait apart.
  ASSERT_EQ(ask(a).j["waiting"], 1);
  ASSERT_EQ(ask(b, {{"game", "texas-42"}}).j["waiting"], 1);
  // Asked again: still one waiting, not two.
  EXPECT_EQ(ask(a).j["waiting"], 1);
  EXPECT_EQ(request(port_, http::verb::delete_, "/api/quickmatch?key=" + a["key"].get<std::string>()).status, 200);
  EXPECT_EQ(get(port_, "/api/quickmatch?key=" + a["key"].get<std::string>()).status, 404);
  EXPECT_EQ(request(port_, http::verb::delete_, "/api/quickmatch?key=" + a["key"].get<std::string>()).status, 404);
  EXPECT_EQ(request(port_, http::verb::put, "/api/quickmatch").status, 405);
}

// A player waits in one queue at a time: asking for another game moves
// them there (the first queue no longer counts them); asking again for the
// same one keeps one place.
TEST_F(QuickMatchTest, APlayerWaitsInOneQueueAtATime) {
  start(60);
  const json a = player("Ana"), b = player("Bo"), c = player("Cy");
  ASSERT_EQ(ask(a).j["waiting"], 1);
  ASSERT_EQ(ask(b).j["waiting"], 2);
  const Reply moved = ask(a, {{"game", "texas-42"}});
  ASSERT_EQ(moved.status, 200) << moved.body;
  EXPECT_EQ(moved.j["game"], "texas-42");
  EXPECT_EQ(moved.j["waiting"], 1);
  EXPECT_EQ(status(a)["game"], "texas-42");
  EXPECT_EQ(status(b)["waiting"], 1) << "Ana left the latin queue";
  EXPECT_EQ(ask(c).j["waiting"], 2);  // Bo and Cy, not Ana
  EXPECT_EQ(ask(c).j["waiting"], 2);  // asked again: one place
}

// The queue is kept in the store: a restart (or, with several nodes, the
// node that takes the match shard: server_cluster_shared) finds every
// player waiting with the wait they had, the ones seated with their seat,
// and none who left.
TEST_F(QuickMatchTest, TheQueueOutlivesARestart) {
  start(60);
  const json a = player("Ana"), b = player("Bo"), c = player("Cy"), d = player("Di"), e = player("Ed");
  const json f = player("Flo"), g = player("Gus");
  ASSERT_EQ(ask(a).j["waiting"], 1);
  ASSERT_EQ(ask(b).j["waiting"], 2);
  ASSERT_EQ(ask(e, {{"game", "texas-42"}}).status, 200);
  ASSERT_EQ(request(port_, http::verb::delete_, "/api/quickmatch?key=" + e["key"].get<std::string>()).status, 200);
  // Two at a two-player table: seated at once.
  const json two{{"options", {{"players", "2"}}}};
  ASSERT_EQ(ask(f, two).status, 200);
  ASSERT_EQ(ask(g, two).j["status"], "seated");
  const json seated = status(f);
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  const double left = status(a)["seconds_left"];
  ServerConfig cfg = config();
  cfg.hub.quickmatch_wait_s = 60;
  serve(cfg);  // the same database
  const json sa = status(a);
  ASSERT_EQ(sa.value("status", ""), "waiting") << sa;
  EXPECT_EQ(sa["waiting"], 2);
  EXPECT_LE(sa["seconds_left"].get<double>(), left) << "the wait goes on from where it was";
  EXPECT_GT(sa["seconds_left"].get<double>(), 50);
  EXPECT_EQ(status(e).value("status", ""), "") << "who left stays gone: " << status(e);
  EXPECT_EQ(status(f), seated) << "a seated player still finds their table";
  ASSERT_EQ(ask(c).j["waiting"], 3);
  const Reply last = ask(d);
  ASSERT_EQ(last.status, 200) << last.body;
  EXPECT_EQ(last.j["status"], "seated");
  EXPECT_EQ(status(a)["table"], last.j["table"]) << "Ana, waiting from before the restart, sits with the last";
  EXPECT_EQ(status(b)["table"], last.j["table"]);
}

// A queue that cannot be read is not taken for an empty one: quick match
// answers 503 in words and health names the cause; once the database reads
// again (tried each second) the players waiting before are there, in place.
TEST_F(QuickMatchTest, AnUnreadableQueueClosesQuickMatchUntilItReads) {
  start(60);
  const json a = player("Ana"), b = player("Bo");
  ASSERT_EQ(ask(a).j["waiting"], 1);
  const std::string db = config().db;
  srv_.reset();
  on_db(db, "ALTER TABLE quickmatch RENAME COLUMN entry TO hidden");  // every read of the list fails
  start(60);
  const Reply closed = ask(b);
  EXPECT_EQ(closed.status, 503) << closed.body;
  EXPECT_NE(closed.body.find("waiting list cannot be read"), std::string::npos) << closed.body;
  const Reply health = get(port_, "/api/health");
  EXPECT_EQ(health.status, 503) << health.body;
  EXPECT_NE(health.j.value("quickmatch", "").find("could not be read"), std::string::npos) << health.body;
  EXPECT_EQ(health.j.value("storage", ""), "ok") << health.body;
  on_db(db, "ALTER TABLE quickmatch RENAME COLUMN hidden TO entry");
  Reply sa;
  for (int i = 0; i < 100 && sa.status != 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    sa = get(port_, "/api/quickmatch?key=" + a["key"].get<std::string>());
  }
  ASSERT_EQ(sa.status, 200) << sa.body;
  EXPECT_EQ(sa.j.value("status", ""), "waiting") << "Ana kept her place: " << sa.body;
  EXPECT_EQ(get(port_, "/api/health").j.value("quickmatch", ""), "ok");
  const Reply two = ask(b);
  ASSERT_EQ(two.status, 200) << two.body;
  EXPECT_EQ(two.j["waiting"], 2);
}

}  // namespace
}  // namespace boneyard::test
