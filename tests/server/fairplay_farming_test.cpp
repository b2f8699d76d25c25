// Rated play people can trust (issue 32 item 3): no farming. Rated quick
// match never seats two players of one address together; new players per
// address are limited over hours; provisional opponents move a rating
// little; the leaderboard lists settled ratings only.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "routes_world.h"
#include "server/limits.h"
#include "server/ratings.h"

namespace boneyard::test {
namespace {

using nlohmann::json;

json with_key(json ask, const json& player) {
  ask["key"] = player["key"];
  return ask;
}

struct Farm : RoutesWorld {
  server::Limits* limits = nullptr;
  std::pair<int, json> call(const char* method, const std::string& target, const json& body,
                            const std::string& client) {
    const std::string text = body.is_null() ? "" : body.dump();
    server::Request r{method, target, text, "application/json", client, limits};
    const auto res = server::handle_request(*hub, "", r);
    return {res.status, json::parse(res.body)};
  }
};

TEST(FairPlayFarming, RatedQuickMatchNeverSeatsTwoPlayersOfOneAddress) {
  Farm w;
  const auto player = [&](const std::string& name) {
    return w.post("/api/players", json{{"name", name}}.dump()).second;
  };
  const json a = player("Main"), b = player("Throwaway"), c = player("Stranger");
  const json ask{{"game", "latin"}, {"options", {{"players", "2"}}}, {"rated", true}};
  auto [s1, q1] = w.call("POST", "/api/quickmatch", with_key(ask, a), "10.9.0.1");
  ASSERT_EQ(s1, 200) << q1.dump();
  auto [s2, q2] = w.call("POST", "/api/quickmatch", with_key(ask, b), "10.9.0.1");
  ASSERT_EQ(s2, 200) << q2.dump();
  EXPECT_EQ(q2["status"], "waiting") << "two players of one address were seated at a rated table: " << q2.dump();
  // A player from another address is seated with the first.
  auto [s3, q3] = w.call("POST", "/api/quickmatch", with_key(ask, c), "10.9.0.2");
  ASSERT_EQ(s3, 200) << q3.dump();
  EXPECT_EQ(q3["status"], "seated") << q3.dump();
  auto [s4, q4] = w.call("GET", "/api/quickmatch?key=" + a["key"].get<std::string>(), nullptr, "10.9.0.1");
  EXPECT_EQ(q4["status"], "seated") << q4.dump();
  EXPECT_EQ(q4["table"], q3["table"]);
  // Issue 32 item 11: the table is counted against the first asker's
  // address (--strong-per-client), as a table made by POST is.
  const auto stored = w.db.load(q3["table"].get<std::string>());
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->spec.value("client", ""), "10.9.0.1") << stored->spec.dump();
  // Unrated, a household plays together.
  const json d = player("Sibling");
  const json casual{{"game", "latin"}, {"options", {{"players", "2"}}}, {"rated", false}};
  ASSERT_EQ(w.call("POST", "/api/quickmatch", with_key(casual, b), "10.9.0.1").first, 200);
  auto [s5, q5] = w.call("POST", "/api/quickmatch", with_key(casual, d), "10.9.0.1");
  EXPECT_EQ(q5["status"], "seated") << q5.dump();
}

TEST(FairPlayFarming, NewPlayersPerAddressAreLimitedOverHours) {
  Farm w;
  server::LimitsConfig lc;
  lc.player.burst = 100;
  lc.new_player = {1.0 / 3600, 3};
  server::Limits limits(lc);
  w.limits = &limits;
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(w.call("POST", "/api/players", json{{"name", "Alt " + std::to_string(i)}}, "10.8.0.1").first, 201);
  auto [s, e] = w.call("POST", "/api/players", json{{"name", "Alt 9"}}, "10.8.0.1");
  EXPECT_EQ(s, 429) << e.dump();
  EXPECT_NE(e.value("error", "").find("too many new players from your address (at most 3 at once, then one every 1 h)"),
            std::string::npos)
      << "the refusal names the limit: " << e.dump();
  // Logins are not new players; another address is not held back.
  EXPECT_EQ(w.call("POST", "/api/players/login", json{{"name", "Alt 0"}, {"password", "whatever1"}}, "10.8.0.1").first,
            401);
  EXPECT_EQ(w.call("POST", "/api/players", json{{"name", "Neighbour"}}, "10.8.0.2").first, 201);
  // The default holds over hours: twenty, then six an hour.
  EXPECT_LE(server::LimitsConfig{}.new_player.rate, 6.0 / 3600);
}

TEST(FairPlayFarming, ProvisionalMeansFewGamesOrAWideDeviation) {
  server::StoredRating r;
  r.rd = 60;
  r.games = 9;
  EXPECT_TRUE(server::provisional_rating(r)) << "nine games are not enough";
  r.games = 10;
  EXPECT_FALSE(server::provisional_rating(r));
  r.rd = 120;
  EXPECT_TRUE(server::provisional_rating(r));
}

// Issue 32 item 10: the table cap cannot be filled and held by a few
// addresses: each holds a quota of live tables (bot-only ones count), and a
// creator's expire_s is capped.
TEST(FairPlayFarming, EachAddressHoldsAQuotaOfLiveTablesAndExpiryIsCapped) {
  register_all_games();
  boost::asio::io_context ioc;
  server::Storage db{test_db(":memory:"), false};
  server::HubConfig cfg;
  cfg.run_bots = false;
  cfg.max_tables_per_client = 3;
  server::Hub hub(db, ioc, cfg);
  const json people{{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}};
  const json bots{{"game", "latin"}, {"seats", {"bot:casual", "bot:casual", "bot:casual", "bot:casual"}}};
  hub.create(people, "10.7.0.1");
  hub.create(bots, "10.7.0.1");
  hub.create(people, "10.7.0.1");
  try {
    hub.create(bots, "10.7.0.1");
    ADD_FAILURE() << "a fourth live table for one address was made";
  } catch (const server::ApiError& e) {
    EXPECT_EQ(e.status, 429);
    EXPECT_NE(std::string(e.what()).find("holds 3 live tables"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(hub.create(people, "10.7.0.2"));
  json long_lived = people;
  long_lived["expire_s"] = 2592000;
  try {
    hub.create(long_lived, "10.7.0.3");
    ADD_FAILURE() << "a table asked to wait 30 days was made";
  } catch (const server::ApiError& e) {
    EXPECT_EQ(e.status, 400);
    EXPECT_NE(std::string(e.what()).find("expire_s"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace boneyard::test
