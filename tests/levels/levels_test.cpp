// Bot levels (issue 37, 3): beginner, casual, strong and expert are one
// mapping for the server's seats and the CLI's --bots, and each has a
// published rating per rating family, higher for each level up.
#include "bots/levels.h"

#include <gtest/gtest.h>

#include <set>

#include "core/game.h"

using namespace boneyard;

TEST(BotLevels, EachLevelPlaysItsBotAtItsBudget) {
  register_all_games();
  ASSERT_GE(games().size(), 4u);
  for (const GameEntry& g : games()) {
    EXPECT_EQ(level_bot(g, "beginner").bot, "random") << g.name;
    EXPECT_EQ(level_bot(g, "casual").bot, "greedy") << g.name;
    // By default counts (the strength measured, whatever the load) ...
    const LevelBot strong = level_bot(g, "strong"), expert = level_bot(g, "expert", {0, 0, 3});
    // Texas 42's levels play ismcts; its hints keep pimc (the strongest bot's values in points).
    EXPECT_EQ(strong.bot, g.family == "texas-42" ? "ismcts" : strongest_fair_bot(g)) << g.name;
    EXPECT_EQ(strong.bot, level_search_bot(g)) << g.name;
    EXPECT_EQ(strong.options.think_ms, 0);
    // The counts the ladder of docs/bots.md measured: the bot's default
    // count and kExpertFactor times it, but where the game sets its own.
    int base = strong.bot == "pimc" ? 24 : 2000, top = kExpertFactor * base;
    if (g.family == "dice-and-dominoes") base = 1000, top = 4000;
    if (g.family == "mexican-train") base = 500, top = 8000;
    EXPECT_EQ(strong.options.iterations, base) << g.name;  // no clock
    EXPECT_EQ(strong.options.threads, 1);
    EXPECT_EQ(expert.bot, level_search_bot(g));
    EXPECT_EQ(expert.options.think_ms, 0);
    EXPECT_EQ(expert.options.iterations, top) << g.name;
    EXPECT_EQ(expert.options.threads, 3);
    EXPECT_EQ(level_bot(g, "expert").options.threads, 1) << g.name;  // one search tree by default
    // ... or the server's times.
    const LevelBot timed = level_bot(g, "expert", {150, 1000, 2});
    EXPECT_EQ(timed.options.think_ms, 1000);
    EXPECT_EQ(level_bot(g, "strong", {150, 1000, 2}).options.think_ms, 150);
    // The CLI's names: make_bot takes a level and makes its bot.
    EXPECT_EQ(make_bot(g, "strong", 1)->name(), level_search_bot(g)) << g.name;
    EXPECT_EQ(make_bot(g, "beginner", 1)->name(), "random") << g.name;
  }
  EXPECT_THROW(level_bot(find_game("latin"), "grandmaster"), Error);
  try {
    make_bot(find_game("latin"), "grandmaster", 1);
    FAIL() << "an unknown bot was made";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("levels: beginner, casual, strong, expert"), std::string::npos) << e.what();
  }
}

TEST(BotLevels, EveryRatingFamilyHasAClimbingLadder) {
  register_all_games();
  std::set<std::string> families{"line", "texas-42", "mexican-train", "dice-and-dominoes"};
  for (const GameEntry& g : games()) families.insert(rating_family(g));
  for (const auto& f : families) {
    double below = -1e9;
    for (const auto& l : bot_levels()) {
      const auto r = level_rating(f, l);
      ASSERT_TRUE(r.has_value()) << f << " " << l;
      // Each level is published clearly above the one below it.
      EXPECT_GT(*r, below + 30) << f << ": " << l << " is not clearly above the level below";
      below = *r;
    }
    EXPECT_EQ(*level_rating(f, "casual"), 1500) << f;
  }
  EXPECT_FALSE(level_rating("line", "grandmaster").has_value());
}
