// wrap_text and wrap_items (core/text.h): rows no wider than the width,
// broken at blanks, between tiles or after commas, never inside a tile.
#include <gtest/gtest.h>

#include <sstream>

#include "core/text.h"

namespace {

using boneyard::shown_text;
using boneyard::wrap_items;
using boneyard::wrap_text;

std::vector<std::string> rows(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string r; std::getline(in, r);) out.push_back(r);
  return out;
}

TEST(Wrap, BreaksAtBlanksAndIndentsTheRest) {
  EXPECT_EQ(wrap_text("  seat 0 (you): 7 tiles   6-4 5-2 4-3 3-0 2-2 2-1 2-0", 30),
            "  seat 0 (you): 7 tiles   6-4\n    5-2 4-3 3-0 2-2 2-1 2-0");
  EXPECT_EQ(wrap_text("short\n", 30), "short\n");
}

// A score stays with its seat: "seat 5:" ended a row and its "-1" began
// the next. Tiles may still start a row.
TEST(Wrap, ANumberStaysWithTheWordBeforeIt) {
  const std::string out = wrap_text("Chips: seat 0: -1   seat 1: -1   seat 2: 12   seat 3: -1", 40);
  for (const auto& r : rows(out)) {
    EXPECT_LE(r.size(), 40u) << out;
    EXPECT_EQ(r.find_last_not_of(' '), r.size() - 1) << out;
    EXPECT_FALSE(r.size() >= 4 && r.compare(r.size() - 4, 4, "seat") == 0) << out;
    EXPECT_FALSE(r.size() >= 1 && r.back() == ':') << out;
  }
  EXPECT_EQ(out, "Chips: seat 0: -1   seat 1: -1\n  seat 2: 12   seat 3: -1");
}

// A unit stays with its figure: "0.0" ended a row and its "s" began the next.
TEST(Wrap, AUnitStaysWithItsFigure) {
  EXPECT_EQ(wrap_text("seat 1 thought for 0.0 s, seat 2 for 12 ms.", 24),
            "seat 1 thought for\n  0.0 s, seat 2\n  for 12 ms.");
  EXPECT_EQ(wrap_text("it took 0.0 s in all", 20), "it took 0.0 s in all");
  EXPECT_EQ(wrap_text("the whole run took 0.0 s here", 22), "the whole run took\n  0.0 s here");
}

// Text echoed in an error: cut short, its controls and direction overrides
// shown as '?', never a character cut in half.
TEST(ShownText, ControlsAndOverridesAreMarkedAndCharactersStayWhole) {
  EXPECT_EQ(shown_text(std::string("a\0b\x7f", 4)), "a?b?");
  EXPECT_EQ(shown_text("x\u202Eevil\u2066y"), "x?evil?y");
  EXPECT_EQ(shown_text("caf\u00e9"), "caf\u00e9");
  const std::string long_e = std::string(63, 'a') + "\u00e9\u00e9";  // the cut falls inside the first é
  EXPECT_EQ(shown_text(long_e), std::string(63, 'a') + "...");
  EXPECT_EQ(shown_text(std::string(64, 'a')), std::string(64, 'a'));
  EXPECT_EQ(shown_text(std::string(65, 'a')), std::string(64, 'a') + "...");
}

TEST(Wrap, AChainOfTilesBreaksBetweenTiles) {
  const std::string chain = "Line: [6|6][6|5][5|5][5|4][4|4][4|3][3|3][3|2][2|2]";
  for (const auto& r : rows(wrap_text(chain, 24))) {
    EXPECT_LE(r.size(), 24u) << r;
    EXPECT_EQ(std::count(r.begin(), r.end(), '['), std::count(r.begin(), r.end(), ']')) << r;
  }
}

TEST(Wrap, ANoteInBracketsStaysWhole) {
  const std::string out = wrap_text("  seat 2  [1|5][5|7]  -> open end 7  [OPEN DOUBLE: must be covered]", 40);
  EXPECT_NE(out.find("[OPEN DOUBLE: must be covered]"), std::string::npos) << out;
  for (const auto& r : rows(out)) EXPECT_LE(r.size(), 40u) << r;
}

TEST(Wrap, ALabelCountsForTheFirstItem) {
  EXPECT_EQ(wrap_items({"aaaa", "bbbb"}, "Label that is long: ", "  ", 24, " "), "Label that is long: aaaa\n  bbbb");
  EXPECT_EQ(wrap_items({"a-very-long-item"}, "Label that is long: ", "  ", 24, " "),
            "Label that is long:\n  a-very-long-item");
}

}  // namespace
