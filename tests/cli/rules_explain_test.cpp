// Issue 22, point 4: every option of every game and preset, and every value
// its catalogue lists, is explained in words in describe()'s "explain" (what
// `rules NAME` prints and the app's lobby can show).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/game.h"

namespace {

using namespace boneyard;

TEST(RulesExplain, EveryOptionAndListedValueHasWords) {
  register_all_games();
  int options = 0, values = 0;
  for (const auto& g : games()) {
    const nlohmann::json d = g.describe();
    ASSERT_TRUE(d.contains("explain")) << g.name;
    const nlohmann::json& ex = d["explain"];
    for (const auto& [k, cat] : d["catalogue"].items()) {
      ++options;
      ASSERT_TRUE(ex.contains(k)) << g.name << ": option " << k << " is not explained";
      EXPECT_FALSE(ex[k].value("about", "").empty()) << g.name << " " << k;
      if (!cat.is_array()) continue;
      for (const auto& v : cat) {
        ++values;
        const std::string name = v.get<std::string>();
        EXPECT_TRUE(ex[k].contains("values") && ex[k]["values"].contains(name))
            << g.name << ": value " << k << "=" << name << " is not explained";
      }
    }
  }
  EXPECT_GT(options, 100);
  EXPECT_GT(values, 100);
}

}  // namespace
