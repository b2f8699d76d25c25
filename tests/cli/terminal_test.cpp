// The terminal for a person (issue 12, points 15-19): what `play` shows,
// help per game, layout, and consistent wording across the subcommands.
// Each test drives the executable with a seed and scripted input.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli_util.h"

using cli_util::run;

namespace {

// `play ARGS` with these lines typed at the prompt (then the input ends).
std::string play(const std::string& args, const std::string& input, const std::string& env = "") {
  const std::string file = std::filesystem::temp_directory_path() / ("boneyard-terminal-" + std::to_string(getpid()));
  std::ofstream(file) << input;
  std::string out = run("play " + args + " < " + file);
  std::filesystem::remove(file);
  if (!env.empty()) {
    std::ofstream(file) << input;
    out = "";
    FILE* p = popen((env + " " + BONEYARD_EXE + " play " + args + " < " + file + " 2>&1").c_str(), "r");
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    pclose(p);
    std::filesystem::remove(file);
  }
  return out;
}

std::string repeat(const std::string& line, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += line + "\n";
  return s;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

// 15. The end of a hand: the final line, every hand's tiles, why a block
// went as it did in numbers, bonuses and scoring in words.
TEST(Terminal, HandEndShowsTheTableAndWhyInNumbers) {
  const std::string dp = run("play dominican-patio --watch --seed 4");
  EXPECT_TRUE(has(dp, "Bonuses: pass on the lead +25, three passes +25, capicúa +25")) << dp;
  EXPECT_TRUE(has(dp, "target 100: all pips (both teams)")) << dp;
  EXPECT_TRUE(has(dp, "Block: seat 1 (last tile): 1 pip < seat 2 (next): 4 pips")) << dp;
  EXPECT_TRUE(has(dp, "team 1 (seats 1+3) wins the hand and scores 35 (pips 10, three passes +25)")) << dp;
  EXPECT_TRUE(has(dp, "  Final line: [2|2][2|1]")) << dp;
  EXPECT_TRUE(has(dp, "  seat 1: 1-0  (1 pip)")) << dp;
  // Option names stay out of what a person reads.
  for (const char* raw : {"capicua_", "three_passes", "all_pips", "lead_pass"}) EXPECT_FALSE(has(dp, raw)) << raw;
  const std::string pr = run("play puerto-rico --watch --seed 1");
  EXPECT_TRUE(has(pr, "Block: team 0: 2 + 6 = 8 pips < team 1: 8 + 4 = 12 pips")) << pr;
  // Mexican Train: every hand left at the end of a round, lower is better.
  const std::string mt = play("mexican-train --seed 3 -o rounds=1", repeat("1", 300));
  EXPECT_TRUE(has(mt, "Penalty (lower is better): seat 0 39 seat 1 31 seat 2 12 seat 3 0\n  seat 0: 12-11 5-4 5-2\n")) << mt;
}

// 16. Say what just happened.
TEST(Terminal, SaysWhatJustHappened) {
  // A person drawing sees each tile drawn, not the table again.
  const std::string draw = play("two-draw --seed 3", repeat("1", 40));
  EXPECT_TRUE(has(draw, "You drew 5-1.\nYou have no playable tile (nothing on 2 or 0): draw.\nYou drew 4-4.\n")) << draw;
  EXPECT_TRUE(has(draw, "  seat 1 (greedy): draws 3 tiles (nothing on 2 or 1)\n  seat 1 (greedy): 3-1:R")) << draw;
  // Why a seat leads: the highest double, or the tiles drawn for the lead.
  EXPECT_TRUE(has(draw, "Seat 1 has the lead: 6-6 is the highest double dealt")) << draw;
  const std::string latin = play("latin --seed 3", "1\n");
  EXPECT_TRUE(has(latin, "Seat 3 has the lead: the highest draw for the lead (seat 0 3-1 (4),\n"
                         "  seat 1 5-5 (10), seat 2 1-1 (2), seat 3 6-4 (10))"))
      << latin;
  // The ends at a pass.
  EXPECT_TRUE(has(play("latin --seed 3", repeat("1", 10)), "seat 3 (greedy): pass (nothing on 0)"));
  // The watcher sees the table after each trick.
  const std::string t42 = run("play texas-42 --watch --seed 2 -o target_marks=1");
  EXPECT_TRUE(has(t42, "Last trick (seat 3 led): 5-5 5-2 6-4 5-1  won by seat 3\nTrick 2: seat 3 to lead")) << t42;
  // ... and the trick that ended a hand, with the hand's result.
  const std::string t42b = run("play texas-42 --watch --seed 2 -o target_marks=2");
  EXPECT_TRUE(has(t42b, "Last trick (seat 3 led): 6-5 5-3 4-1 5-0  won by seat 3\n")) << t42b;
  // The dice round that ended a Dice & Dominoes hand comes with its result.
  const std::string dd = run("play dice-and-dominoes --watch --seed 2 -o hands=1");
  EXPECT_TRUE(has(dd, "  seat 3: laid 1: 5-4 discarded  OUT\nHand 1 (7 rounds)")) << dd;
}

// 17. Help for each game, and the bidding shortcut of Texas 42.
TEST(Terminal, HelpForEachGameAndABareBid) {
  const std::string mt = play("mexican-train --seed 3", "help\n", "COLUMNS=400");
  EXPECT_TRUE(has(mt, "12-4:T0")) << mt;
  EXPECT_TRUE(has(mt, "12-4:M on the Mexican train")) << mt;
  EXPECT_TRUE(has(mt, "MARKER")) << mt;
  const std::string t42 = play("texas-42 --seed 3", "help\n", "COLUMNS=400");
  for (const char* w : {"bid:30", "bid:2marks", "trump:", "while bidding, a bare number that is a bid amount is that bid"})
    EXPECT_TRUE(has(t42, w)) << w << "\n" << t42;
  const std::string dd = play("dice-and-dominoes --seed 3", "help\n", "COLUMNS=400");
  for (const char* w : {"match points", "face down", "Wild: 0-0", "Perfect:", "W-perfect:", "reroll"})
    EXPECT_TRUE(has(dd, w)) << w << "\n" << dd;
  // While bidding, 30 means bid 30 (not move 30); 5 is the fifth move in the list.
  EXPECT_TRUE(has(play("texas-42 --seed 3", "30\n"), "Bids:  seat 0 30  seat 1 pass"));
  EXPECT_TRUE(has(play("texas-42 --seed 3", "5\n"), "Bids:  seat 0 33  seat 1 pass"));
  // In play a bare number still picks from the list.
  EXPECT_TRUE(has(play("latin --seed 3", "2\n"), "Line: [5|2][2|6][6|3][3|2]"));  // 2) 6-3:L
}

// 18. Layout: wrapped to the terminal, partner and next to play, "1 tile",
// one seed in the header.
TEST(Terminal, LayoutFitsTheTerminal) {
  const std::string narrow = play("latin --seed 3", repeat("1", 8), "COLUMNS=40");
  std::istringstream in(narrow);
  std::string line;
  int line_rows = 0;
  bool in_line = false;
  while (std::getline(in, line)) {
    if (line.rfind("Line: [", 0) == 0) in_line = true;
    else if (line.rfind("      [", 0) != 0) in_line = false;
    if (in_line) {
      ++line_rows;
      EXPECT_LE(line.size(), 40u) << line;
    }
  }
  EXPECT_GT(line_rows, 8) << narrow;  // the long line took more than one row somewhere
  const std::string out = play("latin --seed 3", repeat("1", 30));
  EXPECT_TRUE(has(out, "seat 2 (team 0) partner:")) << out;
  EXPECT_TRUE(has(out, "6-5 6-4 6-3 4-4 4-3 2-2 2-1   <- to play")) << out;
  EXPECT_TRUE(has(out, " 1 tile ") || has(out, " 1 tile\n")) << out;
  EXPECT_FALSE(has(out, " 1 tiles")) << out;
  EXPECT_EQ(count(out, "(seed 3)"), 1u) << out;
  const std::string mt = play("mexican-train --seed 3 -o rounds=1", repeat("1", 300), "COLUMNS=50");
  EXPECT_TRUE(has(mt, "  seat 0 (you)    [1|5][5|7][7|2][2|11][11|0][0|3]\n                  [3|6]")) << mt;
}

// 19. Consistency between the subcommands.
TEST(Terminal, ConsistentWording) {
  const std::string rules = run("rules latin");
  EXPECT_TRUE(has(rules, "bots: random, greedy, pimc, ismcts, omniscient")) << rules;
  EXPECT_TRUE(has(rules, "redeal_five_doubles=on")) << rules;
  EXPECT_FALSE(has(rules, "=true") || has(rules, "=false")) << rules;
  const std::string games = run("engine <<'EOF'\n{\"cmd\":\"games\"}\nEOF");
  EXPECT_TRUE(has(games, R"("bots":["random","greedy","pimc","ismcts","omniscient"],"family":"line")")) << games;
  const std::string hint = play("latin --seed 3 --iterations 100", "hint\n");
  EXPECT_TRUE(has(hint, "Move values by ismcts, in a score in [-1, 1] for your side")) << hint;
  const std::string t42 = play("texas-42 --seed 3 --iterations 4", "hint\n");
  EXPECT_TRUE(has(t42, "Move values by pimc, in marks for your side")) << t42;
  EXPECT_TRUE(has(run("arena mexican-train --bots greedy,random --games 2 -o rounds=1"),
                  "penalty/hand: the pips left in hand, so lower is better"));
  EXPECT_TRUE(has(play("latin --seed 3 --bots omniscient", "quit\n"),
                  "Warning: seat 1 is played by 'omniscient', which sees every hand (it cheats)."));
  const std::string eof = play("latin --seed 3", "");
  EXPECT_TRUE(has(eof, "input ended")) << eof;
}

TEST(Terminal, AnalyzeHonoursBotAndNamesTheEventsItCanAnalyse) {
  const std::string dir = std::filesystem::temp_directory_path() / ("boneyard-terminal-rec-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  play("latin --seed 5 --record " + dir, "quit\n");
  const std::string rec = dir + "/latin-5.json";
  int rc = 0;
  const std::string greedy = run("analyze " + rec + " --event 1 --bot greedy", &rc);
  EXPECT_EQ(rc, 0) << greedy;
  EXPECT_TRUE(has(greedy, "greedy would play: 6-6")) << greedy;
  const std::string chance = run("analyze " + rec + " --event 0", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_TRUE(has(chance, "events that can be analysed: 1-3")) << chance;
  std::filesystem::remove_all(dir);
}

// docs/protocol.md's example session is what this build answers: the test
// runs its requests and compares every answer. BONEYARD_UPDATE_DOCS=1 (or
// scripts/update-protocol-example.sh) writes the current answers instead.
TEST(Terminal, ProtocolDocExampleIsCurrent) {
  const std::string path = std::string(BONEYARD_SOURCE_DIR) + "/docs/protocol.md";
  std::ifstream f(path);
  ASSERT_TRUE(f) << path;
  std::stringstream buf;
  buf << f.rdbuf();
  const std::string doc = buf.str();
  const size_t head = doc.find("## Example session");
  ASSERT_NE(head, std::string::npos);
  const size_t open = doc.find("```\n", head);
  const size_t close = doc.find("```\n", open + 4);
  ASSERT_NE(close, std::string::npos);
  const std::string block = doc.substr(open + 4, close - open - 4);
  std::istringstream in(block);
  std::string line, requests;
  std::vector<std::string> want;
  while (std::getline(in, line)) {
    if (line.rfind("> ", 0) == 0) requests += line.substr(2) + "\n";
    else if (line.rfind("< ", 0) == 0) want.push_back(line.substr(2));
  }
  const std::string file = std::filesystem::temp_directory_path() / ("boneyard-protocol-" + std::to_string(getpid()));
  std::ofstream(file) << requests;
  const std::string got = run("engine < " + file);
  std::filesystem::remove(file);
  std::vector<std::string> answers;
  std::istringstream gin(got);
  while (std::getline(gin, line)) answers.push_back(line);
  if (const char* u = std::getenv("BONEYARD_UPDATE_DOCS"); u && std::string(u) == "1") {
    std::string fresh;
    std::istringstream rin(requests);
    size_t i = 0;
    while (std::getline(rin, line)) fresh += "> " + line + "\n< " + (i < answers.size() ? answers[i++] : "") + "\n";
    std::ofstream(path) << doc.substr(0, open + 4) << fresh << doc.substr(close);
    GTEST_SKIP() << "rewrote the example in " << path;
  }
  ASSERT_EQ(answers.size(), want.size()) << got;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(answers[i], want[i]) << "answer " << i + 1 << " of docs/protocol.md's example";
}
