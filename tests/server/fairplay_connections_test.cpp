// Rated play people can trust (issue 32 item 9, in part): addresses that
// hold their full share of connections cannot lock a newcomer out.
#include <fmt/format.h>
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

// A refusal names the limit it met, in a player's words, so a client (or a
// person reading the error) knows how long to wait and what is allowed.
TEST(FairPlayConnections, LimitsReadAsPlayersWords) {
  EXPECT_EQ(server::limit_text({0.5, 20}), "at most 20 at once, then one every 2 s");
  EXPECT_EQ(server::limit_text({2, 10}), "at most 10 at once, then 2 a second");
  EXPECT_EQ(server::limit_text({1.0 / 600, 20}), "at most 20 at once, then one every 10 min");
  EXPECT_EQ(server::limit_text({1.0 / 7200, 3}), "at most 3 at once, then one every 2 h");
  EXPECT_EQ(server::limit_text({1.0 / 5400, 3}), "at most 3 at once, then one every 1.5 h");
  EXPECT_EQ(server::limit_text({0, 5}), "at most 5 at once, none after");
  server::LimitsConfig cfg;
  cfg.chat = {0.25, 6};
  EXPECT_EQ(server::Limits(cfg).limit_text(server::Cost::chat), "at most 6 at once, then one every 4 s");
}

// Issue 32 item 9: one IPv6 network (a /64, what one household or one
// rented server holds) shares one address's limits: picking another
// address in it gets nothing more.
TEST(FairPlayConnections, IPv6AddressesShareTheirNetworksLimits) {
  EXPECT_EQ(server::address_network("2001:db8:1:2:aaaa::1", 64), "2001:db8:1:2::/64");
  EXPECT_EQ(server::address_network("2001:db8:1:2:ffff:ffff:ffff:ffff", 64), "2001:db8:1:2::/64");
  EXPECT_EQ(server::address_network("2001:db8:1:3::1", 64), "2001:db8:1:3::/64");
  EXPECT_EQ(server::address_network("2001:db8:1:2::1", 48), "2001:db8:1::/48");
  EXPECT_EQ(server::address_network("2001:db8:1:2::1", 128), "2001:db8:1:2::1");
  EXPECT_EQ(server::address_network("::ffff:10.0.0.7", 64), "10.0.0.7") << "an IPv4-mapped address is its IPv4 one";
  EXPECT_EQ(server::address_network("10.0.0.7", 64), "10.0.0.7");
  EXPECT_EQ(server::address_network("#token", 64), "#token") << "a token's key is no address";

  server::LimitsConfig cfg;
  cfg.max_connections_per_address = 8;
  server::Limits limits(cfg);
  int opened = 0;
  for (int i = 0; i < 20; ++i) opened += limits.open(fmt::format("2001:db8:1:2::{:x}", i + 1)) ? 1 : 0;
  EXPECT_EQ(opened, 8) << "twenty addresses of one /64 hold one address's share";
  EXPECT_TRUE(limits.open("2001:db8:1:3::1")) << "the next network has its own";
  limits.close("2001:db8:1:2::5");
  EXPECT_TRUE(limits.open("2001:db8:1:2::99")) << "a closed connection frees the network's share";
  // The token buckets too: a burst of 20 new tables is the network's.
  int made = 0;
  for (int i = 0; i < 40; ++i) made += limits.take(fmt::format("2001:db8:1:2::{:x}", i + 1), server::Cost::create) == 0;
  EXPECT_EQ(made, 20);
}

}  // namespace
}  // namespace boneyard::test
