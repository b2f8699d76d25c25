// boneyard rules [NAME] [--json]: every game and preset, its options and sources.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common.h"
#include "core/text.h"

namespace boneyard::cli {

namespace {
// An option value as a person types it: on/off for switches (the spelling
// --option accepts), lists as "a, b, c".
std::string value_text(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + value_text(x);
    return s;
  }
  return v.dump();
}
}  // namespace

void add_rules(CLI::App& app) {
  auto* cmd = app.add_subcommand("rules", "List every game and preset with its options and where its rules come from");
  auto name = std::make_shared<std::string>();
  auto json_out = std::make_shared<bool>(false);
  cmd->add_option("name", *name, "Only this game or preset");
  cmd->add_flag("--json", *json_out, "Machine-readable output");
  cmd->callback([=] {
    nlohmann::json all = nlohmann::json::array();
    std::string family;
    for (const auto& g : games()) {
      if (!name->empty() && g.name != *name) continue;
      const nlohmann::json d = g.describe();
      if (*json_out) {
        all.push_back({{"name", g.name},
                       {"family", g.family},
                       {"summary", g.summary},
                       {"sources", g.sources},
                       {"bots", all_bots(g)},
                       {"options", d.value("options", nlohmann::json::object())},
                       {"catalogue", d.value("catalogue", nlohmann::json::object())},
                       {"explain", d.value("explain", nlohmann::json::object())}});
        continue;
      }
      // The brackets' letters are the spec's; say what they are (a "seed"
      // here was read as --seed).
      // One game: only the words that apply to it ("letter" for a preset's
      // code, as "Dp"; a source document otherwise).
      const bool letter = g.sources.find(' ') == std::string::npos;
      if (family.empty())
        std::cout << wrap_text(
            name->empty()
                ? "In brackets after each name: where its rules come from, or for a regional preset its letter "
                  "in the Caribbean rules' table of regional variants (* marks that table's defaults).\n"
            : letter ? "In brackets after the name: its letter in the Caribbean rules' table of regional variants (* "
                       "marks that table's defaults).\n"
                     : "In brackets after the name: where its rules come from.\n",
            terminal_width());
      if (g.family != family) {
        family = g.family;
        std::cout << fmt::format("\n== {} ==\n", family);
      }
      std::cout << wrap_text(fmt::format("\n{}  [{}]  {}\n", g.name, g.sources, g.summary), terminal_width());
      std::string line = "   ";
      const nlohmann::json options = d.value("options", nlohmann::json::object());
      const nlohmann::json catalogue = d.value("catalogue", nlohmann::json::object());
      for (const auto& [k, v] : options.items()) {
        std::string item = fmt::format(" {}={}", k, value_text(v));
        if (line.size() + item.size() > static_cast<size_t>(std::min(100, terminal_width()))) {
          std::cout << line << "\n";
          line = "   ";
        }
        line += item;
      }
      std::cout << line << "\n";
      if (!name->empty()) {
        // Every option in words: what it does, this preset's value first,
        // then the others (the catalogue's "explain", as the lobby shows it).
        const nlohmann::json explain = d.value("explain", nlohmann::json::object());
        std::string text = "\nOptions (change one with --option key=value):\n";
        for (const auto& [k, cat] : catalogue.items()) {
          const nlohmann::json e = explain.value(k, nlohmann::json::object());
          const std::string now = options.contains(k) ? value_text(options[k]) : "";
          text += fmt::format("\n  {} = {}: {}\n", k, now.empty() ? "(none)" : now, e.value("about", value_text(cat)));
          const nlohmann::json vals = e.value("values", nlohmann::json::object());
          if (vals.contains(now))
            text += fmt::format("      {}: {}  <- this preset\n", now, vals[now].get<std::string>());
          for (const auto& [v, words] : vals.items())
            if (v != now) text += fmt::format("      {}: {}\n", v, words.get<std::string>());
          if (vals.empty() && cat.is_string()) text += fmt::format("      values: {}\n", cat.get<std::string>());
        }
        std::cout << wrap_text(text, terminal_width());
        // The omniscient note only where that bot exists (games with an exact solver).
        const auto bots = all_bots(g);
        const bool omniscient = std::find(bots.begin(), bots.end(), "omniscient") != bots.end();
        std::cout << wrap_text(
            fmt::format("  bots: {} (search bots take --think-ms, --iterations, --bot-threads{})\n",
                        fmt::join(bots, ", "), omniscient ? "; omniscient sees every hand: it cheats" : ""),
            terminal_width());
      }
    }
    if (!name->empty() && all.empty() && *json_out) find_game(*name);  // throws with the list
    if (!name->empty() && !*json_out) find_game(*name);
    if (*json_out)
      std::cout << all.dump(2) << "\n";
    else if (name->empty())
      std::cout << "\nOverride any option: boneyard play latin --option target=100 --option bonuses=capicua_25\n";
  });
}

}  // namespace boneyard::cli
