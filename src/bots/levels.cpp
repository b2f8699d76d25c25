#include "bots/levels.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace boneyard {

const std::vector<std::string>& bot_levels() {
  static const std::vector<std::string> l{"beginner", "casual", "strong", "expert"};
  return l;
}

bool is_bot_level(std::string_view name) {
  const auto& l = bot_levels();
  return std::find(l.begin(), l.end(), name) != l.end();
}

namespace {
// The count a search bot takes by default (pimc.h, ismcts.h), or the
// game's own for its strong level (its registration: Dice & Dominoes,
// Mexican Train).
int strong_count(const GameEntry& g, const std::string& bot) {
  if (g.strong_count > 0) return g.strong_count;
  return bot == "pimc" ? 24 : 2000;
}
int expert_count(const GameEntry& g, const std::string& bot) {
  return g.expert_count > 0 ? g.expert_count : kExpertFactor * strong_count(g, bot);
}
}  // namespace

LevelBot level_bot(const GameEntry& g, std::string_view level, const LevelBudgets& b) {
  if (level == "beginner") return {"random", {}};
  if (level == "casual") return {"greedy", {}};
  LevelBot out{level_search_bot(g), {}};
  if (level == "strong") {
    out.options.think_ms = b.strong_ms;
    // 0: the level's count, with no clock (pimc's default stops at 150 ms:
    // on a loaded machine that is fewer samples than measured).
    if (b.strong_ms <= 0) out.options.iterations = strong_count(g, out.bot);
  } else if (level == "expert") {
    out.options.think_ms = b.expert_ms;
    if (b.expert_ms <= 0) out.options.iterations = expert_count(g, out.bot);
    // One search tree by default: the same count split over four trees
    // (root parallelism) measured +6 Elo over strong at Texas 42 where one
    // tree measured +161 (docs/bots.md, "Levels").
    out.options.threads = std::max(1, b.expert_threads);
  } else {
    throw Error(fmt::format("unknown bot level '{}'; levels: {}", level, fmt::join(bot_levels(), ", ")));
  }
  return out;
}

namespace {
// Elo of each level over the one below, per rating family, from the
// duplicate arenas of docs/bots.md ("Levels"; point estimates, clamped to
// 800): casual over beginner, strong over casual, expert over strong.
// Every rung is measured. (Dice & Dominoes' expert measured level with its
// strong, +1, until each roll of the dice had its own node in the tree.)
struct Ladder {
  const char* family;
  double casual_over_beginner, strong_over_casual, expert_over_strong;
};
constexpr Ladder kLadders[] = {
    {"line", 338, 604, 67},
    {"texas-42", 800, 223, 161},
    {"mexican-train", 800, 100, 100},
    {"dice-and-dominoes", 329, 172, 42},
};
}  // namespace

std::optional<double> level_rating(std::string_view family, std::string_view level) {
  for (const Ladder& l : kLadders) {
    if (family != l.family) continue;
    if (level == "beginner") return 1500 - l.casual_over_beginner;
    if (level == "casual") return 1500;
    if (level == "strong") return 1500 + l.strong_over_casual;
    if (level == "expert") return 1500 + l.strong_over_casual + l.expert_over_strong;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace boneyard
