// Social (docs/server.md, "Friends, challenges, reports"): follows and who
// is online, blocks (quick match keeps the two apart), reports kept for the
// operator with the game attached (rate-limited, the operator's token
// required), challenges on chosen terms and partners' invitations; and
// hostile input of every kind answered in words.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <thread>

#include "beside_db.h"
#include "server/storage.h"
#include "server_fixture.h"

namespace boneyard::test {
namespace {

constexpr const char* kOperator = "operator-token-for-tests-0123";

class Social : public ServerFixture {
 protected:
  Social() : ServerFixture("social") {}
  void SetUp() override {
    ServerFixture::SetUp();
    start();
  }
  void start(double qm_wait = 60, bool with_operator = true) {
    auto c = config();
    c.hub.quickmatch_wait_s = qm_wait;
    if (with_operator) c.hub.operator_token = kOperator;
    serve(c);
  }
  json player(const std::string& name) {
    Reply r = post(port_, "/api/players", {{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.j;
  }
  json mine(const json& p) {
    Reply r = get(port_, "/api/social?key=" + p["key"].get<std::string>());
    EXPECT_EQ(r.status, 200) << r.body;
    return r.j;
  }
  Reply act(const char* what, const json& me, const json& them, json extra = json::object()) {
    json b{{"key", me["key"]}, {"player", them["id"]}};
    for (auto& [k, v] : extra.items()) b[k] = v;
    return post(port_, std::string("/api/social/") + what, b);
  }
  Reply report(const json& me, const json& them, json extra = json::object()) {
    json b{{"key", me["key"]}, {"player", them["id"]}, {"reason", "abuse"}};
    for (auto& [k, v] : extra.items()) b[k] = v;
    return post(port_, "/api/reports", b);
  }
  static std::string error(const Reply& r) { return r.j.value("error", ""); }
};

// ------------------------------------------------------------ follow, online

TEST_F(Social, FollowingAPlayerListsThemWithWhetherTheyAreOnline) {
  json ann = player("Ann"), bob = player("Bob"), cy = player("Cy");
  ASSERT_EQ(act("follow", ann, bob).status, 200);
  ASSERT_EQ(act("follow", ann, cy).status, 200);
  ASSERT_EQ(act("follow", ann, cy).status, 200);  // twice: still once
  mine(bob);                                      // Bob has the app open
  json m = mine(ann);
  ASSERT_EQ(m["following"].size(), 2u) << m;
  std::map<std::string, json> by_name;
  for (const auto& f : m["following"]) by_name[f["name"]] = f;
  EXPECT_EQ(by_name["Bob"]["online"], true);
  EXPECT_EQ(by_name["Cy"]["online"], false);
  ASSERT_EQ(act("follow", ann, cy, {{"on", false}}).status, 200);
  EXPECT_EQ(mine(ann)["following"].size(), 1u);
  // Kept across a restart.
  start();
  EXPECT_EQ(mine(ann)["following"][0]["name"], "Bob");
}

TEST_F(Social, FollowAndBlockRefuseHostileInputInWords) {
  json ann = player("Ann");
  Reply self = act("follow", ann, ann);
  EXPECT_EQ(self.status, 400);
  EXPECT_EQ(error(self), "you cannot follow yourself");
  EXPECT_EQ(error(act("block", ann, ann)), "you cannot block yourself");
  Reply nobody = post(port_, "/api/social/follow", {{"key", ann["key"]}, {"player", "ffff"}});
  EXPECT_EQ(nobody.status, 404);
  EXPECT_EQ(error(nobody), "there is no player 'ffff'");
  Reply huge = post(port_, "/api/social/follow", {{"key", ann["key"]}, {"player", std::string(5000, 'a')}});
  EXPECT_EQ(huge.status, 400);
  Reply badkey = post(port_, "/api/social/block", {{"key", "nope"}, {"player", ann["id"]}});
  EXPECT_EQ(badkey.status, 403);
  EXPECT_NE(error(badkey).find("make a player first"), std::string::npos);
  EXPECT_EQ(post(port_, "/api/social/block", {{"player", ann["id"]}}).status, 400);
  EXPECT_EQ(post(port_, "/api/social/follow", {{"key", ann["key"]}, {"player", 7}}).status, 400);
  json bob = player("Bob");
  EXPECT_EQ(act("follow", ann, bob, {{"on", "yes"}}).status, 400);
  EXPECT_EQ(get(port_, "/api/social?key=nope").status, 403);
  EXPECT_EQ(get(port_, "/api/social").status, 400);
}

// ------------------------------------------------------------ block

TEST_F(Social, QuickMatchNeverSeatsABlockedPlayerWithTheBlocker) {
  start(1);
  json ann = player("Ann"), bob = player("Bob");
  Reply b = act("block", ann, bob);
  ASSERT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(b.j["blocked"], true);
  EXPECT_EQ(mine(ann)["blocked"][0]["name"], "Bob");
  // Blocked, in either direction, whoever asks first.
  for (int round = 0; round < 2; ++round) {
    const json& first = round == 0 ? ann : bob;
    const json& second = round == 0 ? bob : ann;
    ASSERT_EQ(post(port_, "/api/quickmatch", {{"key", first["key"]}, {"game", "latin"}}).status, 200);
    ASSERT_EQ(post(port_, "/api/quickmatch", {{"key", second["key"]}, {"game", "latin"}}).status, 200);
    std::string tables[2];
    for (int i = 0; i < 2; ++i) {
      const json& p = i == 0 ? ann : bob;
      json s = json::object();
      for (int k = 0; k < 200 && s.value("status", "") != "seated"; ++k) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        s = get(port_, "/api/quickmatch?key=" + p["key"].get<std::string>()).j;
      }
      ASSERT_EQ(s["status"], "seated") << s;
      tables[i] = s["table"];
    }
    EXPECT_NE(tables[0], tables[1]) << "a blocked player was seated with the one who blocked them";
    request(port_, http::verb::delete_, "/api/quickmatch?key=" + ann["key"].get<std::string>());
    request(port_, http::verb::delete_, "/api/quickmatch?key=" + bob["key"].get<std::string>());
  }
  // Unblocked: they may meet again.
  ASSERT_EQ(act("block", ann, bob, {{"on", false}}).status, 200);
  EXPECT_TRUE(mine(ann)["blocked"].empty());
}

TEST_F(Social, ABlockIsKeptAcrossARestart) {
  json ann = player("Ann"), bob = player("Bob");
  ASSERT_EQ(act("block", bob, ann).status, 200);
  start(1);
  ASSERT_EQ(post(port_, "/api/quickmatch", {{"key", ann["key"]}, {"game", "latin"}}).status, 200);
  ASSERT_EQ(post(port_, "/api/quickmatch", {{"key", bob["key"]}, {"game", "latin"}}).status, 200);
  std::string tables[2];
  for (int i = 0; i < 2; ++i) {
    const json& p = i == 0 ? ann : bob;
    json s = json::object();
    for (int k = 0; k < 200 && s.value("status", "") != "seated"; ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      s = get(port_, "/api/quickmatch?key=" + p["key"].get<std::string>()).j;
    }
    ASSERT_EQ(s["status"], "seated") << s;
    tables[i] = s["table"];
  }
  EXPECT_NE(tables[0], tables[1]);
}

// ------------------------------------------------------------ reports

TEST_F(Social, AReportIsKeptForTheOperatorWithTheGameAttached) {
  json ann = player("Ann"), bob = player("Bob");
  Reply t = post(port_, "/api/tables",
                 {{"game", "latin"}, {"seats", {"human", "human", "bot:casual", "bot:casual"}}, {"key", bob["key"]}});
  ASSERT_EQ(t.status, 201);
  const std::string id = t.j["id"];
  Reply r = report(ann, bob, {{"reason", "cheating"}, {"table", id}, {"text", "always knows my tiles"}});
  ASSERT_EQ(r.status, 201) << r.body;
  // Only with the operator's token.
  EXPECT_EQ(post(port_, "/api/operator/reports", json::object()).status, 403);
  Reply wrong = post(port_, "/api/operator/reports", {{"token", "guess"}});
  EXPECT_EQ(wrong.status, 403);
  EXPECT_EQ(error(wrong), "this is not the operator's token");
  Reply list = post(port_, "/api/operator/reports", {{"token", kOperator}});
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.j["reports"].size(), 1u);
  const json& x = list.j["reports"][0];
  EXPECT_EQ(x["reporter_name"], "Ann");
  EXPECT_EQ(x["reported_name"], "Bob");
  EXPECT_EQ(x["reason"], "cheating");
  EXPECT_EQ(x["text"], "always knows my tiles");
  EXPECT_EQ(x["table"], id);
  EXPECT_EQ(x["record"], "/api/tables/" + id + "/record");
  // Kept across a restart; a report reaches nobody but the operator.
  start();
  EXPECT_EQ(post(port_, "/api/operator/reports", {{"token", kOperator}}).j["reports"].size(), 1u);
  EXPECT_EQ(mine(bob).dump().find("cheating"), std::string::npos);
  EXPECT_EQ(get(port_, "/api/players/" + bob["id"].get<std::string>()).body.find("cheating"), std::string::npos);
  // Without an operator token nobody reads them.
  start(60, false);
  Reply none = post(port_, "/api/operator/reports", {{"token", kOperator}});
  EXPECT_EQ(none.status, 404);
}

TEST_F(Social, ReportsRefuseHostileInputDuplicatesAndFloods) {
  json ann = player("Ann"), bob = player("Bob");
  EXPECT_EQ(error(report(ann, ann)), "you cannot report yourself");
  EXPECT_EQ(error(report(ann, bob, {{"reason", "rude"}})), "'reason' must be \"cheating\" or \"abuse\"");
  Reply longtext = report(ann, bob, {{"text", std::string(501, 'x')}});
  EXPECT_EQ(longtext.status, 400);
  EXPECT_EQ(error(longtext), "'text' is too long: 500 characters at most");
  // Bytes that are not UTF-8 (sent as they are: a JSON library would refuse them).
  const std::string raw = R"({"key": ")" + ann["key"].get<std::string>() + R"(", "player": ")" +
                          bob["id"].get<std::string>() + R"(", "reason": "abuse", "text": "bad)" + "\xff" + R"("})";
  EXPECT_EQ(request(port_, http::verb::post, "/api/reports", raw).status, 400);
  EXPECT_EQ(report(ann, bob, {{"text", "a\u202eb"}}).status, 400);
  Reply notthere = report(ann, bob, {{"table", "0123abcd"}});
  EXPECT_EQ(notthere.status, 400);
  EXPECT_EQ(error(notthere), "Bob did not play at the game '0123abcd'");
  ASSERT_EQ(report(ann, bob, {{"text", "rude in chat"}}).status, 201);
  Reply again = report(ann, bob);
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(error(again), "you have already reported Bob for this: the operator has it");
  // A flood: 5 an hour per reporter.
  int ok = 1;
  Reply last;
  for (int i = 0; i < 8; ++i) {
    last = report(ann, player(fmt::format("P{}", i)));
    ok += last.status == 201;
  }
  EXPECT_EQ(ok, 5);
  EXPECT_EQ(last.status, 429);
  EXPECT_NE(error(last).find("too many reports"), std::string::npos);
  EXPECT_GT(std::stoi(last.retry_after.empty() ? "0" : last.retry_after), 0) << "no Retry-After";
}

// ------------------------------------------------------------ challenges

TEST_F(Social, AnAcceptedChallengeSeatsBothOnTheChosenTerms) {
  json ann = player("Ann"), bob = player("Bob");
  Reply c = post(port_, "/api/challenges",
                 {{"key", ann["key"]},
                  {"player", bob["id"]},
                  {"game", "latin"},
                  {"options", {{"target", "100"}}},
                  {"level", "beginner"}});
  ASSERT_EQ(c.status, 201) << c.body;
  const std::string id = c.j["id"];
  // Bob sees it; Ann sees hers waiting.
  json mb = mine(bob);
  ASSERT_EQ(mb["challenges"]["to_me"].size(), 1u) << mb;
  EXPECT_EQ(mb["challenges"]["to_me"][0]["from"]["name"], "Ann");
  EXPECT_EQ(mine(ann)["challenges"]["from_me"][0]["status"], "pending");
  // Only Bob may accept.
  EXPECT_EQ(post(port_, "/api/challenges/" + id + "/accept", {{"key", ann["key"]}}).status, 403);
  Reply a = post(port_, "/api/challenges/" + id + "/accept", {{"key", bob["key"]}});
  ASSERT_EQ(a.status, 200) << a.body;
  const std::string table = a.j["table"];
  json ma = mine(ann);
  const json& mine_c = ma["challenges"]["from_me"][0];
  ASSERT_EQ(mine_c["status"], "accepted");
  EXPECT_EQ(mine_c["seat"]["table"], table);
  // Bob never sees Ann's token, nor Ann Bob's.
  EXPECT_EQ(mine(bob).dump().find(mine_c["seat"]["token"].get<std::string>()), std::string::npos);
  EXPECT_EQ(ma.dump().find(a.j["token"].get<std::string>()), std::string::npos);
  json sa = get(port_, fmt::format("/api/tables/{}?token={}", table, mine_c["seat"]["token"].get<std::string>())).j;
  EXPECT_EQ(sa["seat"], 0);
  EXPECT_EQ(sa["seats"][0]["name"], "Ann");
  EXPECT_EQ(sa["seats"][1]["name"], "Bob");
  EXPECT_EQ(sa["seats"][2]["player"], "bot:beginner");
  Reply rec = get(port_, "/api/tables/" + table + "/record");
  (void)rec;
  // Accepted once.
  EXPECT_EQ(post(port_, "/api/challenges/" + id + "/accept", {{"key", bob["key"]}}).status, 409);
}

TEST_F(Social, ChallengesAreDeclinedWithdrawnAndRefusedInWords) {
  json ann = player("Ann"), bob = player("Bob");
  auto challenge = [&](const json& from, const json& to, json extra = json::object()) {
    json b{{"key", from["key"]}, {"player", to["id"]}, {"game", "latin"}};
    for (auto& [k, v] : extra.items()) b[k] = v;
    return post(port_, "/api/challenges", b);
  };
  EXPECT_EQ(error(challenge(ann, ann)), "you cannot challenge yourself");
  EXPECT_EQ(challenge(ann, bob, {{"game", "chess"}}).status, 400);
  EXPECT_EQ(challenge(ann, bob, {{"options", {{"target", "-5"}}}}).status, 400);
  EXPECT_EQ(challenge(ann, bob, {{"level", "god"}}).status, 400);
  EXPECT_EQ(challenge(ann, bob, {{"rated", "yes"}}).status, 400);
  Reply partner = challenge(ann, bob, {{"kind", "partner"}, {"game", "mexican-train"}});
  EXPECT_EQ(partner.status, 400) << partner.body;
  EXPECT_NE(error(partner).find("is not played in partnerships"), std::string::npos) << partner.body;
  Reply c = challenge(ann, bob);
  ASSERT_EQ(c.status, 201);
  Reply twice = challenge(ann, bob);
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(error(twice), "you have already challenged Bob: wait for their answer");
  // Declined by Bob: Ann sees it.
  Reply d = post(port_, "/api/challenges/" + c.j["id"].get<std::string>() + "/decline", {{"key", bob["key"]}});
  ASSERT_EQ(d.status, 200) << d.body;
  EXPECT_EQ(mine(ann)["challenges"]["from_me"][0]["status"], "declined");
  EXPECT_TRUE(mine(bob)["challenges"]["to_me"].empty());
  // Withdrawn by Ann.
  Reply c2 = challenge(ann, bob);
  ASSERT_EQ(c2.status, 201);
  Reply w = post(port_, "/api/challenges/" + c2.j["id"].get<std::string>() + "/decline", {{"key", ann["key"]}});
  EXPECT_EQ(w.j["status"], "withdrawn");
  // A stranger cannot see or answer it; an unknown one is 404.
  json cy = player("Cy");
  Reply c3 = challenge(ann, bob);
  EXPECT_EQ(post(port_, "/api/challenges/" + c3.j["id"].get<std::string>() + "/accept", {{"key", cy["key"]}}).status,
            404);
  EXPECT_EQ(post(port_, "/api/challenges/ffff/decline", {{"key", bob["key"]}}).status, 404);
  // Blocked: no challenge either way.
  ASSERT_EQ(post(port_, "/api/social/block", {{"key", bob["key"]}, {"player", cy["id"]}}).status, 200);
  Reply blocked = challenge(cy, bob);
  EXPECT_EQ(blocked.status, 403);
  EXPECT_EQ(error(blocked), "you cannot challenge Bob");
  // At most 5 waiting.
  json many = player("Many");
  int made = 0;
  Reply last;
  for (int i = 0; i < 7; ++i) {
    last = challenge(many, player(fmt::format("Q{}", i)));
    made += last.status == 201;
  }
  EXPECT_EQ(made, 5);
  EXPECT_EQ(last.status, 429);
}

TEST_F(Social, AnAcceptedPartnerInvitationSeatsTheTwoAsPartners) {
  start(3);
  json ann = player("Ann"), bob = player("Bob");
  Reply c = post(port_, "/api/challenges",
                 {{"key", ann["key"]}, {"player", bob["id"]}, {"game", "texas-42"}, {"kind", "partner"}});
  ASSERT_EQ(c.status, 201) << c.body;
  Reply a = post(port_, "/api/challenges/" + c.j["id"].get<std::string>() + "/accept", {{"key", bob["key"]}});
  ASSERT_EQ(a.status, 200) << a.body;
  const json qm = a.j["quickmatch"];
  EXPECT_EQ(qm["with"], ann["id"]);
  // Each asks quick match "with" the other, as the app does.
  ASSERT_EQ(post(port_, "/api/quickmatch", {{"key", bob["key"]}, {"game", "texas-42"}, {"with", ann["id"]}}).status,
            200);
  ASSERT_EQ(mine(ann)["challenges"]["from_me"][0]["status"], "accepted");
  ASSERT_EQ(post(port_, "/api/quickmatch", {{"key", ann["key"]}, {"game", "texas-42"}, {"with", bob["id"]}}).status,
            200);
  int seats[2];
  std::string tables[2];
  for (int i = 0; i < 2; ++i) {
    const json& p = i == 0 ? ann : bob;
    json s = json::object();
    for (int k = 0; k < 200 && s.value("status", "") != "seated"; ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      s = get(port_, "/api/quickmatch?key=" + p["key"].get<std::string>()).j;
    }
    ASSERT_EQ(s["status"], "seated") << s;
    seats[i] = s["seat"];
    tables[i] = s["table"];
  }
  EXPECT_EQ(tables[0], tables[1]);
  EXPECT_EQ((seats[0] + 2) % 4, seats[1]) << "partners sit at seats k and k+2";
}

// ------------------------------------------------------------ schema

TEST(SocialSchema, AVersion2DatabaseIsMigratedAndKeepsWhatItHad) {
  const auto dir = temp_dir("boneyard-social", "schema");
  const std::string db = test_db((dir / "old.db").string());
  {
    server::Storage s(db, false);
    server::Write w;
    w.player = server::StoredPlayer{"p1", "Ann", "", 0};
    w.key_hash = "h1";
    s.write(std::move(w));
  }
  // The database as version 2 left it: no social tables, no quick-match
  // queue, no finished tables marked.
  on_db(db, "ALTER TABLE tables DROP COLUMN finished");
  on_db(db, "DROP TABLE relations");
  on_db(db, "DROP TABLE reports");
  on_db(db, "DROP TABLE quickmatch");
  on_db(db, "UPDATE schema_version SET version = 2");
  EXPECT_EQ(on_db(db, "SELECT version FROM schema_version"), "2");
  {
    server::Storage s(db, false);
    EXPECT_EQ(on_db(db, "SELECT version FROM schema_version"), std::to_string(server::kSchemaVersion));
    EXPECT_EQ(server::kSchemaVersion, 5);
    ASSERT_TRUE(s.player("p1").has_value());
    s.put_seeker("p1", "{\"a\":1}", nullptr);
    s.put_seeker("p1", "{\"a\":2}", nullptr);  // replaced
    EXPECT_EQ(s.seekers(), std::vector<std::string>{"{\"a\":2}"});
    s.drop_seeker("p1", nullptr);
    EXPECT_TRUE(s.seekers().empty());
    s.set_relation("p1", "p2", server::kRelBlock, true);
    s.set_relation("p1", "p2", server::kRelBlock, true);  // once
    EXPECT_EQ(s.relations("p1", server::kRelBlock).size(), 1u);
    EXPECT_EQ(s.relations("", server::kRelBlock).size(), 1u);
    EXPECT_TRUE(s.relations("p1", server::kRelFollow).empty());
    s.add_report(server::StoredReport{0, "p1", "p2", "t1", "abuse", "words", 0, "", ""});
    const auto r = s.reports(10);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].reporter_name, "Ann");
    EXPECT_EQ(r[0].table, "t1");
    s.set_relation("p1", "p2", server::kRelBlock, false);
    EXPECT_TRUE(s.relations("p1", server::kRelBlock).empty());
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace
}  // namespace boneyard::test
