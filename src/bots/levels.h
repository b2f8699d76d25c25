#pragma once
// The bot levels people choose: beginner, casual, strong, expert. The
// server's "bot:LEVEL" seats and the CLI's level names (`--bots strong`)
// make the same bot with the same budget, and each level has a published
// rating per rating family, measured in duplicate arenas (docs/bots.md,
// "Levels"), shown beside the bots on the server's leaderboard.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace boneyard {

// Weakest first.
const std::vector<std::string>& bot_levels();
bool is_bot_level(std::string_view name);

// How long the search levels think (the server's --strong-ms, --expert-ms,
// --expert-threads; 0 threads: one, a single search tree). By
// default a count, not a time, so a level plays as strongly on a loaded
// machine as where it was measured: strong takes the bot's default count
// (ismcts 2,000 iterations, pimc 24 samples) and expert kExpertFactor times
// that, unless the game's registration sets its own (GameEntry::strong_count,
// expert_count: Dice & Dominoes 1,000 and 4,000, Mexican Train 500 and
// 8,000). A time > 0 replaces the count.
struct LevelBudgets {
  double strong_ms = 0;
  double expert_ms = 0;
  int expert_threads = 0;
};
inline constexpr int kExpertFactor = 4;

struct LevelBot {
  std::string bot;  // a name make_bot accepts for the game
  BotOptions options;
};
// The bot a level plays in game g (throws Error for an unknown level).
LevelBot level_bot(const GameEntry& g, std::string_view level, const LevelBudgets& budgets = {});

// The level's published rating in a rating family (casual is 1500; the
// others are placed by their measured Elo against the level below);
// nullopt for a family or level without one.
std::optional<double> level_rating(std::string_view family, std::string_view level);

}  // namespace boneyard
