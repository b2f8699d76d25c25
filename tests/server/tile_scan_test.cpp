// The secrecy scan itself (tile_scan.h): it finds a hidden tile wherever a
// message carries it, in any spelling, and passes only the parts that are
// public by the rules. A scan that found nothing would pass every test.
#include "tile_scan.h"

#include <gtest/gtest.h>

namespace boneyard::test {
namespace {

using nlohmann::json;

std::vector<std::string> leaks_in(const json& message, bool echo = false) {
  std::vector<std::string> leaks;
  scan(message, {"6-3"}, "", leaks, echo);
  return leaks;
}

TEST(TileScan, FindsAHiddenTileWhereverAMessageCarriesIt) {
  EXPECT_EQ(leaks_in({{"view", {{"hands", {{{"seat", 1}, {"tiles", {"1-1", "3-6"}}}}}}}}).size(), 1u);
  EXPECT_EQ(leaks_in({{"legal", {"6|3:left"}}}).size(), 1u);
  EXPECT_EQ(leaks_in({{"move", "6-3"}}).size(), 1u);  // not the reader's own unless echo
  // The hand in play's log entries are scanned.
  EXPECT_EQ(leaks_in({{"log", {{{"hand", 1}, {"move", "4-4"}}, {{"hand", 2}, {"move", "6-3"}}}}}).size(), 1u);
  EXPECT_TRUE(leaks_in({{"view", {{"hands", {{{"tiles", {"1-1", "5-2"}}}}}}}}).empty());
}

TEST(TileScan, PassesOnlyWhatTheRulesMakePublic) {
  EXPECT_TRUE(leaks_in({{"move", "6-3"}}, /*echo=*/true).empty());
  EXPECT_TRUE(leaks_in({{"view", {{"last_hand", {{"hands", {"6-3"}}}}, {"known_not_holding", {"3-6"}}}}}).empty());
  // The log's entry of the hand before: the move that ended it, laid face up.
  EXPECT_TRUE(leaks_in({{"log", {{{"hand", 1}, {"move", "6-3"}}, {{"hand", 2}, {"kind", "deal"}}}}}).empty());
  // But only in the log: an array elsewhere with "hand" numbers is scanned.
  EXPECT_EQ(leaks_in({{"trail", {{{"hand", 1}, {"move", "6-3"}}, {{"hand", 2}}}}}).size(), 1u);
}

}  // namespace
}  // namespace boneyard::test
