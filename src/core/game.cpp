#include "core/game.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "bots/levels.h"
#include "core/text.h"

namespace boneyard {

std::string to_string(const Actor& a) {
  switch (a.kind) {
    case Actor::Seat:
      return fmt::format("seat {} to act", a.seat);
    case Actor::Chance:
      return "a chance event (deal, draw or dice) is pending";
    case Actor::Terminal:
      return "the game is over";
    case Actor::Simultaneous: {
      std::string s = "simultaneous choice, waiting for seats";
      for (int i = 0; i < 16; ++i)
        if ((a.seats >> i) & 1) s += fmt::format(" {}", i);
      return s;
    }
  }
  return "?";
}

namespace {
std::vector<GameEntry>& registry() {
  static std::vector<GameEntry> r;
  return r;
}
}  // namespace

void register_game(GameEntry entry) {
  for (const auto& e : registry())
    if (e.name == entry.name) return;  // registering twice is harmless
  registry().push_back(std::move(entry));
}

const std::vector<GameEntry>& games() { return registry(); }

const GameEntry& find_game(std::string_view name) {
  for (const auto& e : registry())
    if (e.name == name) return e;
  std::string names;
  for (const auto& e : registry()) names += (names.empty() ? "" : ", ") + e.name;
  throw Error(fmt::format("unknown game '{}'; known games: {} (see `boneyard rules`)", shown_text(name), names));
}

std::unique_ptr<AnyBot> make_bot(const GameEntry& g, std::string_view bot, uint64_t seed, const BotOptions& options) {
  // A level (beginner ... expert) plays its own bot at its own budget.
  if (is_bot_level(bot)) {
    const LevelBot l = level_bot(g, bot);
    return make_bot(g, l.bot, seed, l.options);
  }
  for (const auto& b : g.bots)
    if (b == bot) return g.make_bot(bot, seed);
  for (const auto& b : g.search_bots)
    if (b == bot) return g.make_search_bot(bot, seed, options);
  std::string names;
  for (const auto& b : g.bots) names += (names.empty() ? "" : ", ") + b;
  for (const auto& b : g.search_bots) names += ", " + b;
  throw Error(
      fmt::format("unknown bot '{}' for {}; bots: {}; levels: {}", bot, g.name, names, fmt::join(bot_levels(), ", ")));
}

std::vector<std::string> all_bots(const GameEntry& g) {
  std::vector<std::string> v = g.bots;
  v.insert(v.end(), g.search_bots.begin(), g.search_bots.end());
  return v;
}

std::string strongest_fair_bot(const GameEntry& g) {
  if (!g.strongest_bot.empty()) return g.strongest_bot;
  for (const char* b : {"pimc", "ismcts"})
    for (const auto& x : g.search_bots)
      if (x == b) return x;
  return "greedy";
}

std::string level_search_bot(const GameEntry& g) { return g.level_bot.empty() ? strongest_fair_bot(g) : g.level_bot; }

const std::string& rating_family(const GameEntry& g) { return g.rating_family.empty() ? g.family : g.rating_family; }

std::vector<std::string> rating_families() {
  std::vector<std::string> out;
  for (const auto& g : games())
    if (std::find(out.begin(), out.end(), rating_family(g)) == out.end()) out.push_back(rating_family(g));
  return out;
}

}  // namespace boneyard
