// The table and hand results as a person reads them (issue 12).
#include <gtest/gtest.h>

#include "line/state.h"
#include "support.h"

namespace boneyard::line::testing {

// While the winning team chooses who leads, nobody is marked as the leader:
// the marker from the last hand would be stale.
TEST(LineText, NoLeaderMarkerWhileTheTeamChooses) {
  State s = make("caribbean", {{"hand_size", "2"}});
  s.apply_chance_text("deal 1-0 2-0 / 5-5 5-4 / 3-3 3-2 / 6-1 4-4");
  play(s, {"5-5", "pass", "pass", "pass", "5-4"});  // seat 1 goes out
  ASSERT_EQ(s.phase(), Phase::Deal);
  s.apply_chance();
  ASSERT_EQ(s.phase(), Phase::ChooseLeader) << s.render(-1);
  const std::string r = s.render(-1);
  EXPECT_EQ(r.find("[leader]"), std::string::npos) << r;
  EXPECT_NE(r.find("chooses who leads"), std::string::npos) << r;
}

}  // namespace boneyard::line::testing
