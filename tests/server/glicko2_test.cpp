// Glicko-2 against Glickman's worked example ("Example of the Glicko-2
// system"), a period without games, and the team form for partnerships.
#include "server/glicko2.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"

using namespace boneyard::server::glicko2;

TEST(Glicko2, GlickmansWorkedExample) {
  const Rating player{1500, 200, 0.06};
  const std::vector<Game> games{{{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
  const Rating r = update(player, games, Config{0.5});
  // The paper, step 7: mu' = -0.2069, phi' = 0.8722 (the Glicko-2 scale,
  // four decimals), and sigma' = 0.05999 (step 5).
  EXPECT_NEAR((r.rating - 1500) / 173.7178, -0.2069, 0.00005);
  EXPECT_NEAR(r.rd / 173.7178, 0.8722, 0.00005);
  EXPECT_NEAR(r.volatility, 0.05999, 0.00001);
  // Step 8: r' = 1464.06, RD' = 151.52. The paper converts the rounded mu'
  // (173.7178 x -0.2069 + 1500); unrounded, r' is 1464.0507, within the
  // +-0.0087 that rounding mu' to four decimals allows.
  EXPECT_NEAR(r.rating, 1464.06, 0.01);
  EXPECT_NEAR(r.rd, 151.52, 0.005);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Rating player{1500, 200, 0.06};
  const Rating r = update(player, {});
  EXPECT_EQ(r.rating, 1500);
  EXPECT_EQ(r.volatility, 0.06);
  // Step 6: phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale.
  const double phi = 200 / 173.7178;
  EXPECT_NEAR(r.rd, 173.7178 * std::sqrt(phi * phi + 0.06 * 0.06), 1e-9);
  EXPECT_GT(r.rd, 200);
  // Idle long enough, a player is as unsure as a new one, never more.
  Rating idle = player;
  for (int k = 0; k < 10000; ++k) idle = update(idle, {});
  EXPECT_DOUBLE_EQ(idle.rd, 350);
}

TEST(Glicko2, ProvisionalAboveTheThreshold) {
  EXPECT_TRUE(provisional(Rating{}));  // a new player: RD 350
  EXPECT_TRUE(provisional(Rating{1500, kProvisionalRd, 0.06}));
  EXPECT_FALSE(provisional(Rating{1500, kProvisionalRd - 1, 0.06}));
  // Ten periods of one game each against settled equals bring a new player under it.
  Rating r;
  for (int k = 0; k < 10; ++k) r = update(r, {{{1500, 50, 0.06}, k % 2 ? 1.0 : 0.0}});
  EXPECT_FALSE(provisional(r)) << r.rd;
}

TEST(Glicko2, TeamsPlayTheOpposingTeamsComposite) {
  const std::vector<Rating> us{{1500, 200, 0.06}, {1600, 50, 0.06}};
  const std::vector<Rating> them{{1400, 30, 0.06}, {1600, 100, 0.08}};
  const Rating c = composite(them);
  EXPECT_DOUBLE_EQ(c.rating, 1500);
  EXPECT_DOUBLE_EQ(c.rd, std::sqrt((30.0 * 30 + 100.0 * 100) / 2));
  EXPECT_DOUBLE_EQ(c.volatility, 0.07);
  const auto won = update_team(us, them, 1);
  ASSERT_EQ(won.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const Rating alone = update(us[k], {{c, 1}});
    EXPECT_DOUBLE_EQ(won[k].rating, alone.rating);
    EXPECT_DOUBLE_EQ(won[k].rd, alone.rd);
    EXPECT_GT(won[k].rating, us[k].rating);
  }
  // The unsure partner moves more than the settled one.
  EXPECT_GT(won[0].rating - us[0].rating, won[1].rating - us[1].rating);
  // The losing side, each against the winners' composite, goes down.
  const auto lost = update_team(them, us, 0);
  EXPECT_LT(lost[0].rating, them[0].rating);
  EXPECT_LT(lost[1].rating, them[1].rating);
  // A draw between equal teams changes no rating.
  const auto drawn = update_team({{1500, 100, 0.06}}, {{1500, 100, 0.06}}, 0.5);
  EXPECT_NEAR(drawn[0].rating, 1500, 1e-9);
}

TEST(Glicko2, BadInputIsRefusedWithAReason) {
  EXPECT_THROW(update(Rating{1500, 0, 0.06}, {}), boneyard::Error);
  EXPECT_THROW(update(Rating{1500, 200, 0.06}, {{Rating{1500, 200, 0.06}, 2}}), boneyard::Error);
  EXPECT_THROW(update(Rating{NAN, 200, 0.06}, {}), boneyard::Error);
  EXPECT_THROW(composite({}), boneyard::Error);
  try {
    update(Rating{1500, 200, 0.06}, {{Rating{1500, 200, 0.06}, -1}});
  } catch (const boneyard::Error& e) {
    EXPECT_NE(std::string(e.what()).find("score"), std::string::npos);
  }
}

// Glickman's step 6 for n periods without a game: phi* = sqrt(phi^2 + n sigma^2).
// By hand for RD 50, sigma 0.06 and ten idle periods: phi = 50 / 173.7178 =
// 0.287823, phi^2 = 0.082842, + 10 x 0.0036 = 0.118842, sqrt = 0.344735,
// RD* = 0.344735 x 173.7178 = 59.887.
TEST(Glicko2, IdlePeriodsWidenTheDeviationUpToANewPlayers) {
  const Rating settled{1720, 50, 0.06};
  const Rating r = idle(settled, 10);
  EXPECT_NEAR(r.rd, 59.887, 0.001);
  EXPECT_EQ(r.rating, 1720);
  EXPECT_EQ(r.volatility, 0.06);
  // n periods at once are the same as n single idle periods (step 6 each time).
  Rating step = settled;
  for (int k = 0; k < 10; ++k) step = update(step, {});
  EXPECT_NEAR(step.rd, r.rd, 1e-9);
  // None: unchanged; long absent: a new player's 350 and no more.
  EXPECT_EQ(idle(settled, 0).rd, 50);
  EXPECT_EQ(idle(settled, -3).rd, 50);
  EXPECT_EQ(idle(settled, 1000000).rd, 350);
  EXPECT_TRUE(provisional(idle(settled, 1000000)));
  EXPECT_FALSE(provisional(r));
}
