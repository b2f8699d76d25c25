// Rated play people can trust (issue 32 item 9, in part): addresses that
// hold their full share of connections cannot lock a newcomer out.
#include <gtest/gtest.h>

#include <string>

#include "server/limits.h"

namespace boneyard::test {
namespace {

// Two addresses take all they may (64 each, against a total of 100): they
// stop at three quarters of the total, and the last quarter is there for
// addresses holding a few connections, so a newcomer always gets in.
TEST(FairPlayConnections, AddressesHoldingTheMostLeaveRoomForANewcomer) {
  server::LimitsConfig cfg;
  cfg.max_connections = 100;
  cfg.max_connections_per_address = 64;
  server::Limits limits(cfg);
  int a = 0, b = 0;
  while (a < 100 && limits.open("10.0.0.1")) ++a;
  while (b < 100 && limits.open("10.0.0.2")) ++b;
  EXPECT_EQ(a, 64);
  EXPECT_EQ(b, 11) << "the second address stops at three quarters of the total";
  // Newcomers: four connections each, until the total cap.
  int newcomers = 0;
  for (int i = 0; i < 10; ++i)
    for (int k = 0; k < 4; ++k) newcomers += limits.open("10.1.0." + std::to_string(i)) ? 1 : 0;
  EXPECT_EQ(newcomers, 25);
  EXPECT_EQ(limits.connections(), 100u);
  EXPECT_FALSE(limits.open("10.2.0.1")) << "the total cap holds";
  // One of the big address's connections closes: a newcomer gets it, not the big one.
  limits.close("10.0.0.1");
  EXPECT_FALSE(limits.open("10.0.0.1"));
  EXPECT_TRUE(limits.open("10.2.0.1"));
}

}  // namespace
}  // namespace boneyard::test
