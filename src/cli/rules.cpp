// boneyard rules [NAME] [--json]: every game and preset, its options and sources.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common.h"

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
  auto* cmd = app.add_subcommand("rules", "List every game and preset with its options and source letters");
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
        all.push_back({{"name", g.name}, {"family", g.family}, {"summary", g.summary}, {"sources", g.sources},
                       {"bots", all_bots(g)}, {"options", d.value("options", nlohmann::json::object())},
                       {"catalogue", d.value("catalogue", nlohmann::json::object())}});
        continue;
      }
      if (g.family != family) {
        family = g.family;
        std::cout << fmt::format("\n== {} ==\n", family);
      }
      std::cout << fmt::format("\n{}  [{}]  {}\n", g.name, g.sources, g.summary);
      std::string line = "   ";
      const nlohmann::json options = d.value("options", nlohmann::json::object());
      const nlohmann::json catalogue = d.value("catalogue", nlohmann::json::object());
      for (const auto& [k, v] : options.items()) {
        std::string item = fmt::format(" {}={}", k, value_text(v));
        if (line.size() + item.size() > 100) {
          std::cout << line << "\n";
          line = "   ";
        }
        line += item;
      }
      std::cout << line << "\n";
      if (!name->empty()) {
        std::cout << "\n  options and their values:\n";
        for (const auto& [k, v] : catalogue.items())
          std::cout << fmt::format("    {:22} {}\n", k, value_text(v));
        std::cout << fmt::format("  bots: {} (search bots take --think-ms, --iterations, --bot-threads; omniscient sees every hand)\n",
                                 fmt::join(all_bots(g), ", "));
      }
    }
    if (!name->empty() && all.empty() && *json_out) find_game(*name);  // throws with the list
    if (!name->empty() && !*json_out) find_game(*name);
    if (*json_out) std::cout << all.dump(2) << "\n";
    else if (name->empty())
      std::cout << "\nOverride any option: boneyard play latin --option target=100 --option bonuses=capicua_25\n";
  });
}

}  // namespace boneyard::cli
