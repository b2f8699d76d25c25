// What the front-ends ask a game's registration (issue 31, 3): no front-end
// names a family any more, so a field a game leaves out would silently take
// the default; each game says its own.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/game.h"

namespace boneyard {
namespace {

TEST(Registration, EveryGameGivesItsHelpAndReviewUnit) {
  register_all_games();
  for (const GameEntry& g : games()) {
    EXPECT_FALSE(g.help.empty()) << g.name;
    ASSERT_TRUE(g.review_unit) << g.name;
    const auto st = g.make({}, 1);
    const std::string u = g.review_unit(*st);
    EXPECT_TRUE(u == "points" || u == "wins" || u == "marks" || u == "pips" || u == "chips") << g.name << ": " << u;
  }
}

TEST(Registration, EachFamilySaysItsOwnWords) {
  register_all_games();
  const GameEntry& mt = find_game("mexican-train");
  EXPECT_TRUE(mt.penalty);
  EXPECT_EQ(mt.score_heading(*mt.make({}, 1)), "Penalty so far (lower is better):");
  EXPECT_EQ(mt.review_unit(*mt.make({}, 1)), "pips");
  EXPECT_EQ(mt.review_scale(*mt.make({}, 1)), 8.0 * 12);  // double-twelve

  const GameEntry& dd = find_game("dice-and-dominoes");
  EXPECT_TRUE(dd.face_down);
  EXPECT_FALSE(dd.penalty);
  EXPECT_NE(dd.score_heading(*dd.make({}, 1)).find("ante of 1"), std::string::npos);
  EXPECT_EQ(dd.value_unit(*dd.make({}, 1)), "chips for your seat this hand");
  // The dice are public, the deal is not; no other family has a public chance.
  ASSERT_TRUE(dd.public_chance);
  EXPECT_EQ(dd.public_chance("roll 6 3"), "6 3");
  EXPECT_EQ(dd.public_chance("deal 6-6 5-5 / 4-4 3-3"), std::nullopt);
  for (const char* other : {"latin", "mexican-train", "texas-42"})
    EXPECT_FALSE(find_game(other).public_chance) << other;

  const GameEntry& latin = find_game("latin");
  EXPECT_TRUE(latin.count_passes);
  EXPECT_FALSE(latin.face_down);
  EXPECT_TRUE(latin.partnership(nlohmann::json::object()));
  EXPECT_FALSE(latin.partnership({{"players", "4"}}));
  EXPECT_EQ(latin.review_unit(*latin.make({}, 1)), "points");
  EXPECT_EQ(latin.review_unit(*latin.make({{"scoring", "wins"}}, 1)), "wins");
  EXPECT_EQ(latin.value_unit(*latin.make({{"scoring", "wins"}}, 1)), "wins for your side this hand");
  // Each seat its own side (4 players, no partners): the hint says "you".
  EXPECT_EQ(latin.value_unit(*latin.make({{"players", "4"}}, 1)), "points for you this hand");
  EXPECT_FALSE(mt.partnership);  // never in partnerships

  const GameEntry& t42 = find_game("texas-42");
  EXPECT_TRUE(t42.partnership(nlohmann::json::object()));
  EXPECT_EQ(t42.review_unit(*t42.make({}, 1)), "marks");
  EXPECT_EQ(t42.review_unit(*t42.make({{"scoring", "points"}}, 1)), "points");
  EXPECT_NE(t42.value_unit(*t42.make({}, 1)).find("marks"), std::string::npos);
}

TEST(Registration, RatingFamiliesComeFromTheRegisteredGames) {
  register_all_games();
  EXPECT_EQ(rating_families(), (std::vector<std::string>{"line", "mexican-train", "texas-42", "dice-and-dominoes"}));
  EXPECT_EQ(rating_family(find_game("havana")), "line");
  EXPECT_FALSE(find_game("four-individual").partnership(nlohmann::json::object()));  // the preset says 4
}

}  // namespace
}  // namespace boneyard
