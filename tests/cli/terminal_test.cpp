// The terminal for a person (issue 12, points 15-19): what `play` shows,
// help per game, layout, and consistent wording across the subcommands.
// Each test drives the executable with a seed and scripted input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "cli_util.h"
#include "test_paths.h"  // BONEYARD_EXE, BONEYARD_SOURCE_DIR

using cli_util::run;
using nlohmann::json;

namespace {

// `play ARGS` with these lines typed at the prompt (then the input ends).
std::string play(const std::string& args, const std::string& input, const std::string& env = "") {
  const std::string file = std::filesystem::temp_directory_path() / ("boneyard-terminal-" + std::to_string(getpid()));
  std::ofstream(file) << input;
  std::string out;
  if (env.empty()) {
    out = run("play " + args + " < " + file);
  } else {
    FILE* p = popen((env + " " + BONEYARD_EXE + " play " + args + " < " + file + " 2>&1").c_str(), "r");
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    pclose(p);
  }
  std::filesystem::remove(file);
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
  EXPECT_TRUE(
      has(mt, "Penalty (lower is better): seat 0: 39   seat 1: 31   seat 2: 12   seat 3: 0\n  seat 0: 12-11 5-4 5-2\n"))
      << mt;
  // The running total under it is named as the total, not as the round's penalty again.
  EXPECT_TRUE(has(mt, "Penalty so far (lower is better): seat 0: 39   seat 1: 31")) << mt;
  EXPECT_EQ(count(mt, "Penalty (lower is better):"), 1u) << mt;
}

// 16. Say what just happened.
TEST(Terminal, SaysWhatJustHappened) {
  // A person drawing sees each tile drawn, not the table again.
  const std::string draw = play("two-draw --seed 3", repeat("1", 40));
  EXPECT_TRUE(has(draw, "You drew 5-1.\nYou have no playable tile (nothing on 2 or 0): draw.\nYou drew 4-4.\n"))
      << draw;
  EXPECT_TRUE(has(draw, "  seat 1 (greedy): draws 3 tiles (nothing on 2 or 1)\n  seat 1 (greedy): 3-1 on the right"))
      << draw;
  // Why a seat leads: the highest double, or the tiles drawn for the lead.
  EXPECT_TRUE(has(draw, "Seat 1 has the lead: 6-6 is the highest double dealt")) << draw;
  const std::string latin = play("latin --seed 3", "1\n");
  EXPECT_TRUE(has(latin,
                  "Seat 3 has the lead: the highest draw for the lead (seat 0 3-1 (4),\n"
                  "  seat 1 5-5 (10), seat 2 1-1 (2), seat 3 6-4 (10))"))
      << latin;
  // The person's own move goes into the log as the bots' do ("1" meant 4-3 on the left).
  EXPECT_TRUE(has(latin, "  seat 0 (you): 4-3 on the left\n  seat 1 (greedy): ")) << latin;
  // ... and that those tiles were shuffled back (seat 0 now holds the 6-4 seat 3 drew).
  EXPECT_TRUE(has(std::regex_replace(latin, std::regex(R"(\s+)"), " "),
                  "the higher number, 6; the drawn tiles then went back for the shuffle"))
      << latin;
  // The ends at a pass.
  EXPECT_TRUE(has(play("latin --seed 3", repeat("1", 10)), "seat 3 (greedy): pass (nothing on 0)"));
  // The watcher sees the table after each trick.
  const std::string t42 = run("play texas-42 --watch --seed 2 -o target_marks=1");
  EXPECT_TRUE(
      has(t42, "Last trick: seat 3 5-5, seat 0 5-2, seat 1 6-4, seat 2 5-1  won by seat 3\nTrick 2: seat 3 to lead"))
      << t42;
  // ... and the trick that ended a hand, with the hand's result.
  const std::string t42b = run("play texas-42 --watch --seed 2 -o target_marks=2");
  EXPECT_TRUE(has(t42b, "Last trick: seat 3 6-5, seat 0 5-3, seat 1 4-1, seat 2 5-0  won by seat 3\n")) << t42b;
  // The dice round that ended a Dice & Dominoes hand comes with its result.
  const std::string dd = run("play dice-and-dominoes --watch --seed 2 -o hands=1");
  EXPECT_TRUE(has(dd, "  seat 3: laid 1: 5-4 discarded  OUT\nHand 1: seat 2, 3 went out in round 7.")) << dd;
}

// 17. Help for each game, and the bidding shortcut of Texas 42.
TEST(Terminal, HelpForEachGameAndABareBid) {
  const std::string mt = play("mexican-train --seed 3", "help\n", "COLUMNS=400");
  EXPECT_TRUE(has(mt, "12-4:T0")) << mt;
  EXPECT_TRUE(has(mt, "12-4:M on the Mexican train")) << mt;
  EXPECT_TRUE(has(mt, "MARKER")) << mt;
  // The opening turn is its own rule: own train only, and an open double waits for it.
  EXPECT_TRUE(has(mt, "(the opening turn) is on your own train only")) << mt;
  EXPECT_TRUE(has(mt, "once every seat has had its opening turn")) << mt;
  const std::string t42 = play("texas-42 --seed 3", "help\n", "COLUMNS=400");
  for (const char* w : {"type 30 to 42", "84 bids 2 marks", "fives or sixes, doubles, or follow-me",
                        "While bidding a bare number is a bid amount only"})
    EXPECT_TRUE(has(t42, w)) << w << "\n" << t42;
  // Players' words, not the protocol's move texts.
  for (const std::string& h : {t42, mt})
    for (const char* code : {"bid:", "trump:", "end_opening"}) EXPECT_FALSE(has(h, code)) << code << "\n" << h;
  EXPECT_TRUE(has(mt, "end (\"end your opening turn\") ends the turn")) << mt;
  const std::string dd = play("dice-and-dominoes --seed 3", "help\n", "COLUMNS=400");
  for (const char* w : {"match points", "face down", "Wild: 0-0", "Perfect:", "W-perfect:", "reroll"})
    EXPECT_TRUE(has(dd, w)) << w << "\n" << dd;
  // While bidding, 30 means bid 30 (not move 30); #5 is the fifth move in the list.
  EXPECT_TRUE(has(play("texas-42 --seed 3", "30\n"), "Bids:  seat 0 30  seat 1 pass"));
  EXPECT_TRUE(has(play("texas-42 --seed 3", "#5\n"), "Bids:  seat 0 33  seat 1 pass"));
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
    if (line.rfind("Line: [", 0) == 0)
      in_line = true;
    else if (line.rfind("      [", 0) != 0)
      in_line = false;
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
  EXPECT_TRUE(
      has(games, R"("bots":["random","greedy","pimc","ismcts","omniscient","ismcts-v1","paired"],"family":"line")"))
      << games;
  // A hint: the coach's expected values in the player's unit (issue 23, 4).
  const std::string hint = play("latin --seed 3 --iterations 8", "hint\n");
  EXPECT_TRUE(has(std::regex_replace(hint, std::regex(R"(\s+)"), " "),
                  "Expected values over 8 deals consistent with what you can see, each solved, in points for your "
                  "side this hand"))
      << hint;
  const std::string t42 = play("texas-42 --seed 3 --iterations 4", "hint\n");
  EXPECT_TRUE(has(std::regex_replace(t42, std::regex(R"(\s+)"), " "),
                  "Expected values over 4 deals consistent with what you can see, each solved, in marks for your side"))
      << t42;
  EXPECT_TRUE(has(run("arena mexican-train --bots greedy,random --games 2 -o rounds=1"),
                  "penalty pips/hand: the pips left in hand, so lower is better"));
  // The per-hand column in the game's unit (Texas 42 said "points/hand" of
  // marks), and the JSON says it with its direction.
  const std::string t42arena = run("arena texas-42 --bots greedy,random --games 2");
  EXPECT_TRUE(has(t42arena, "marks/hand")) << t42arena;
  EXPECT_TRUE(has(t42arena, "±800 Elo is the clamp")) << t42arena;  // greedy wins both: +800
  const json mt = json::parse(run("arena mexican-train --bots greedy,random --games 2 -o rounds=1 --json"));
  EXPECT_EQ(mt["points_unit"], "pips");
  EXPECT_EQ(mt["points_lower_is_better"], true);
  const json latin = json::parse(run("arena latin --bots greedy,random --games 2 --json"));
  EXPECT_EQ(latin["points_unit"], "points");
  EXPECT_EQ(latin["points_lower_is_better"], false);
  EXPECT_TRUE(has(play("latin --seed 3 --bots omniscient", "quit\n"),
                  "Warning: seat 1 is played by 'omniscient', which sees every hand (it cheats)."));
  const std::string eof = play("latin --seed 3", "");
  EXPECT_TRUE(has(eof, "input ended")) << eof;
  // Quitting says so, with the standing.
  const std::string quit = play("latin --seed 3", "quit\n");
  EXPECT_TRUE(has(quit, "The game was left before its end. Score: team 0 (seats 0+2): 0")) << quit;
}

TEST(Terminal, AnalyzeHonoursBotAndNamesTheEventsItCanAnalyse) {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("boneyard-terminal-rec-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  play("latin --seed 5 --record " + dir, "quit\n");
  const std::string rec = dir + "/latin-5.json";
  int rc = 0;
  const std::string greedy = run("analyze " + rec + " --event 1 --bot greedy", &rc);
  EXPECT_EQ(rc, 0) << greedy;
  EXPECT_TRUE(has(greedy, "greedy would play: lead 6-6")) << greedy;
  const std::string chance = run("analyze " + rec + " --event 0", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_TRUE(has(chance, "events that can be analysed: 1-3")) << chance;
  // With --seat, only that seat's decisions (seat 2 leads at 1, seat 0 is to play at 3).
  const std::string mine = run("analyze " + rec + " --event 1 --seat 0", &rc);
  EXPECT_TRUE(has(mine, "seat 0 has no decision to make")) << mine;
  EXPECT_TRUE(has(mine, "its events that can be analysed: 3")) << mine;
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
    if (line.rfind("> ", 0) == 0)
      requests += line.substr(2) + "\n";
    else if (line.rfind("< ", 0) == 0)
      want.push_back(line.substr(2));
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
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(answers[i], want[i]) << "answer " << i + 1 << " of docs/protocol.md's example";
}

// ---- Issue 22: the terminal as a new player meets it ----

namespace {

// Columns a line takes: UTF-8 continuation bytes take none.
size_t columns(const std::string& line) {
  size_t n = 0;
  for (unsigned char ch : line) n += (ch & 0xC0) != 0x80;
  return n;
}

// What a person sees: the prompt is followed by their typing and Enter,
// so the text after it starts a new row.
// (By hand, not std::regex, which under ASan took half of the width test.)
std::vector<std::string> rows(const std::string& text) {
  std::string cut;
  cut.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 6, "(y/n) ") == 0) {
      cut += '\n';
      i += 6;
      continue;
    }
    if (text.compare(i, 5, "seat ") == 0) {
      size_t d = i + 5;
      while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d]))) ++d;
      if (d > i + 5 && text.compare(d, 2, "> ") == 0) {
        cut += '\n';
        i = d + 2;
        continue;
      }
    }
    cut += text[i++];
  }
  std::vector<std::string> out;
  std::istringstream in(cut);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::set<std::string> words_of(const std::string& text) {
  std::set<std::string> out;
  for (const auto& r : rows(text)) {
    std::istringstream in(r);
    for (std::string w; in >> w;) out.insert(w);
  }
  return out;
}

const std::vector<std::pair<std::string, std::string>> kFamilies = {
    {"latin", "-o target=40"},
    {"mexican-train", "-o rounds=1"},
    {"texas-42", "-o target_marks=1"},
    {"dice-and-dominoes", "-o hands=2"},
};

std::string script() {
  std::string s = "board\nhint\nhelp\n";
  for (int i = 0; i < 400; ++i) s += "#1\n";
  return s;
}

}  // namespace

// 2. Every printed line fits the width and breaks at tile and word
// boundaries only: no row longer than the width, and every word of a
// narrow window is a word of a wide one (or a run of whole tiles, as the
// line and the trains break between tiles).
// A run of tiles as the terminal draws them, "[6|4][4|4]*" (by hand, not
// <regex>: it is matched against every word of every line, and std::regex
// under ASan made this the suite's slowest test).
bool is_tiles(const std::string& w) {
  size_t i = 0, n = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
    return i > from;
  };
  while (i < w.size() && w[i] == '[') {
    ++i;
    if (!digits() || i >= w.size() || w[i++] != '|' || !digits() || i >= w.size() || w[i++] != ']') return false;
    ++n;
  }
  if (i < w.size() && w[i] == '*') ++i;
  return n > 0 && i == w.size();
}

TEST(Terminal, EveryLineWrapsAtTilesAndWords) {
  for (const char* yes : {"[6|4]", "[6|4][4|12]", "[0|0]*"}) EXPECT_TRUE(is_tiles(yes)) << yes;
  for (const char* no : {"", "*", "[6|4", "[6|]", "[|4]", "[6|4]x", "[6|4]**", "6|4"}) EXPECT_FALSE(is_tiles(no)) << no;
  for (const auto& [game, opts] : kFamilies) {
    for (const bool watch : {false, true}) {
      const std::string args = game + " --seed 5 --iterations 2 " + opts + (watch ? " --watch --pace 0" : "");
      const std::set<std::string> wide = words_of(play(args, watch ? "" : script(), "COLUMNS=1000"));
      for (const int width : {40, 60, 80, 100}) {
        const std::string out = play(args, watch ? "" : script(), "COLUMNS=" + std::to_string(width));
        int long_rows = 0, split = 0;
        for (const auto& r : rows(out)) {
          if (columns(r) > static_cast<size_t>(width) && ++long_rows <= 3)
            ADD_FAILURE() << game << " at " << width << " columns: " << columns(r) << " long: " << r;
          std::istringstream in(r);
          for (std::string w; in >> w;)
            if (!wide.count(w) && !is_tiles(w) && ++split <= 3)
              ADD_FAILURE() << game << " at " << width << " columns: '" << w
                            << "' is a piece of a word or tile in: " << r;
        }
        EXPECT_EQ(long_rows, 0) << game << " " << width;
        EXPECT_EQ(split, 0) << game << " " << width;
      }
    }
  }
  // The explanations of the rules too.
  for (const int width : {40, 60, 80, 100}) {
    FILE* p = popen(("COLUMNS=" + std::to_string(width) + " " + BONEYARD_EXE + " rules dominican-patio").c_str(), "r");
    std::string text;
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) text.append(buf.data(), n);
    pclose(p);
    for (const auto& r : rows(text.substr(text.find("Options"))))
      EXPECT_LE(columns(r), static_cast<size_t>(width)) << r;
  }
}

// 5. While bidding a bare number is a bid amount only; #N picks from the
// list; 42 and marks ask first.
TEST(Terminal, TexasBidsAreAmountsAndBigBidsAreConfirmed) {
  const std::string out = play("texas-42 --seed 3", "14\n29\n#14\nn\n42\ny\n");
  EXPECT_TRUE(has(out, "14 is no bid: bid 30 to 42 points, or marks as 84")) << out;
  EXPECT_TRUE(has(out, "29 is no bid")) << out;
  EXPECT_TRUE(has(out, "bid 42: your team must then take every trick. Sure? (y/n) Not bid.")) << out;
  EXPECT_TRUE(has(out, "Bids:  seat 0 42")) << out;
  EXPECT_FALSE(has(out, "Bids:  seat 0 30")) << out;
  // An answer that is neither yes nor no is asked again, not taken as no.
  const std::string maybe = play("texas-42 --seed 3", "42\nmaybe\ny\n");
  EXPECT_TRUE(has(maybe, "Sure? (y/n) Type y to bid it, or n not to:")) << maybe;
  EXPECT_TRUE(has(maybe, "Bids:  seat 0 42")) << maybe;
  // A bid the rules refuse is refused before the question.
  const std::string marks = play("texas-42 --seed 3", "84\n");
  EXPECT_TRUE(has(marks, "2 marks may only be bid once someone has bid 42")) << marks;
  EXPECT_FALSE(has(marks, "Sure?")) << marks;
  // After the bidding a bare number is a list number again.
  // (While naming trumps 0 to 6 is asked back: #1 is the first move.)
  EXPECT_TRUE(has(play("texas-42 --seed 3", "30\n#1\n"), "Declarer: seat 0 (team 0), bid 30, trumps: blanks"));
}

// Watching as a seat sees that seat's table, but the watcher is not the
// seat: its bot's moves are not said to "you" ("12-7 on your train").
TEST(Terminal, WatchingAsASeatSaysNoYouOfItsBot) {
  const std::string w = run("play mexican-train -o single_hand=on --watch --seat 1 --seed 5 --pace 0");
  EXPECT_TRUE(has(w, "seat 1 (greedy): ")) << w;
  EXPECT_FALSE(std::regex_search(w, std::regex(R"(\(greedy\): [^\n]*\byour\b)"))) << w;
}

// A game's end: after the last hand's result and score, only the verdict
// (the table and the score were printed a second time).
TEST(Terminal, TheEndSaysTheVerdictOnceAfterTheLastHand) {
  const std::string w = run("play latin -o single_hand=on --watch --pace 0 --seed 5");
  const size_t at = w.find("\nHand 1: ");
  ASSERT_NE(at, std::string::npos) << w;
  const std::string tail = w.substr(at);
  EXPECT_EQ(count(tail, "Score:"), 1u) << tail;
  EXPECT_EQ(count(tail, "open ends"), 0u) << tail;
  EXPECT_TRUE(has(tail, "Game over: team 1 (seats 1+3) wins\n")) << tail;
}

// Mexican Train's hint counts in the game's own word: a round, not a hand.
TEST(Terminal, MexicanTrainHintsSayRound) {
  const std::string out = play("mexican-train -o single_hand=on --seed 5 --think-ms 20", "hint\nquit\n");
  EXPECT_TRUE(has(std::regex_replace(out, std::regex(R"(\s+)"), " "), "pips for you this round")) << out;
  EXPECT_FALSE(has(out, "your side")) << out;  // no teams: each seat plays for itself
  EXPECT_FALSE(has(out, "this hand")) << out;
}

// 4. Moves in words for people; the protocol keeps its texts.
TEST(Terminal, MovesInPlayersWords) {
  const std::string t42 = play("texas-42 --seed 3", "30\n");
  // While bidding the list shows what to type: a bare number is a bid.
  EXPECT_TRUE(has(t42, "Your bids (type one):  pass  30  31  32")) << t42;
  EXPECT_FALSE(has(t42, "2) bid 30")) << t42;
  EXPECT_TRUE(has(t42, "trumps: ")) << t42;
  EXPECT_FALSE(has(t42, "bid:30")) << t42;
  EXPECT_FALSE(has(t42, "trump:")) << t42;
  const std::string mt = play("mexican-train --seed 3 -o rounds=1", repeat("#1", 300));
  EXPECT_TRUE(has(mt, "on your train")) << mt;
  EXPECT_FALSE(has(mt, ":T0") || has(mt, "end_opening")) << mt;
  const std::string dd = play("dice-and-dominoes --seed 3 -o hands=1", repeat("#1", 100));
  EXPECT_TRUE(has(dd, "1) lay ")) << dd;
  // Protocol texts are unchanged.
  const std::string legal =
      run("engine <<'EOF'\n{\"cmd\":\"new\",\"game\":\"texas-42\",\"seed\":3}\n{\"cmd\":\"legal\"}\nEOF");
  EXPECT_TRUE(has(legal, "\"bid:30\"")) << legal;
  // rules PRESET explains every option and the value in force.
  const std::string rules = run("rules dominican-patio");
  EXPECT_TRUE(has(rules, "block_winner = last_vs_next: who wins a blocked hand")) << rules;
  EXPECT_TRUE(has(rules, "last_vs_next: the player who laid the last tile against the next seat")) << rules;
  EXPECT_TRUE(has(rules, "<- this preset")) << rules;
  EXPECT_TRUE(has(run("rules latin --json"), "\"explain\""));
}

// 6. A hint agrees with the protocol's `values` at the same budget and
// seed, and says what its numbers are.
TEST(Terminal, HintAgreesWithValues) {
  const std::vector<std::tuple<std::string, int, int>> cases = {
      {"dice-and-dominoes", 0, 40}, {"latin", 1, 40}, {"texas-42", 2, 3}};
  for (const auto& [game, seat, iterations] : cases) {
    const std::string hint =
        play(fmt::format("{} --seed 4 --seat {} --iterations {}", game, seat, iterations), "hint\n");
    const std::string values =
        run(fmt::format("engine "
                        "<<'EOF'\n{{\"cmd\":\"new\",\"game\":\"{}\",\"seed\":4}}\n{{\"cmd\":\"values\",\"seat\":{},"
                        "\"iterations\":{}}}\nEOF",
                        game, seat, iterations));
    const size_t a = values.find('\n') + 1;
    const json v = json::parse(values.substr(a, values.find('\n', a) - a));
    ASSERT_TRUE(v.contains("moves")) << values;
    std::vector<std::string> want, got;
    for (const auto& m : v["moves"]) want.push_back(fmt::format("{:+.3f}", m["value"].get<double>()));
    const std::regex num(R"(  ([+-]\d+\.\d{3})\n)");
    for (auto it = std::sregex_iterator(hint.begin(), hint.end(), num); it != std::sregex_iterator(); ++it)
      got.push_back((*it)[1]);
    EXPECT_FALSE(got.empty()) << hint;
    EXPECT_EQ(got, want) << game << "\n" << hint << values;
    // Expected values in the player's unit (issue 23, 4), never a bot's -1..+1.
    EXPECT_TRUE(has(hint, "Expected values")) << hint;
    EXPECT_TRUE(has(hint, game == "dice-and-dominoes" ? "chips for your seat"
                          : game == "latin"           ? "points for your side"
                                                      : "marks"))
        << hint;
    EXPECT_FALSE(has(hint, "sure loss")) << hint;
    // The numbers beside the moves play them; they are not ranks, and it says so.
    EXPECT_TRUE(has(std::regex_replace(hint, std::regex(R"(\s+)"), " "),
                    "a move's number is the one that plays it, not its rank"))
        << hint;
  }
  // A Texas 42 bid's value is the bidding model's, and says so.
  const std::string bid = play("texas-42 --seed 3 --iterations 4", "hint\n");
  EXPECT_TRUE(has(bid, "counts 3 times its marks")) << bid;
}

// 7. Dice & Dominoes: the chips after a hand already paid the next ante.
TEST(Terminal, DiceChipsSayTheNextAnteIsPaid) {
  const std::string dd = run("play dice-and-dominoes --watch --pace 0 --seed 2 -o hands=2");
  EXPECT_TRUE(has(dd, "Chips (the next hand's ante of 1 already paid): seat 0:")) << dd;
  // Every chip line writes a seat's chips one way, "seat 0: -1", as the score
  // line does (the table wrote "seat 0 -1", the hand's end "seat 0: -1"), and
  // the first hand's -1 says it is the ante.
  EXPECT_TRUE(has(dd, "Hand 1/2   round 1   pot 4   ante 1\nChips (antes included): seat 0: -1   seat 1: -1")) << dd;
  EXPECT_TRUE(has(dd, "chips this hand: seat 0: ")) << dd;
  EXPECT_FALSE(std::regex_search(dd, std::regex(R"(seat \d [+-]?\d)"))) << dd;
  // Quit during a hand: the ante counted is that hand's, not a next one's.
  const std::string quit = run("play dice-and-dominoes --seed 5 <<'EOF'\nquit\nEOF\n");
  EXPECT_TRUE(has(quit, "Chips (this hand's ante of 1 included):")) << quit;
  EXPECT_FALSE(has(quit, "next hand's ante")) << quit;
}

// 7b. `boneyard rules` says what its brackets are, and never "seed 000"
// (a reader took it for --seed).
// The list's own words are a move ("6-0 on the right", any case), and a verb
// copied before a tile ("play 6-6") gets the tile's own reason, not "not a move".
TEST(Terminal, TheListsOwnWordsAreAMove) {
  const std::string out = run("play latin --seed 4 <<'EOF'\nplay 6-6\n6-0 On The Right\nquit\nEOF\n");
  EXPECT_TRUE(has(out, "'play 6-6' is not allowed now: seat 0 does not hold 6-6")) << out;
  EXPECT_TRUE(has(out, "seat 0 (you): 6-0 on the right")) << out;
  // Dice & Dominoes' engine names the seat too ("illegal move '...' for seat 0"): said as typed.
  const std::string dd = run("play dice-and-dominoes --seed 3 <<'EOF'\n6-6,6-5\nquit\nEOF\n");
  EXPECT_TRUE(has(dd, "'6-6,6-5' is not allowed now: seat 0 does not hold 6-6 6-5")) << dd;
  EXPECT_FALSE(has(dd, "for seat") || has(dd, "illegal move")) << dd;
}

TEST(Terminal, RulesSayWhereTheRulesComeFrom) {
  const std::string all = run("rules");
  EXPECT_TRUE(has(all, "In brackets after each name: where its rules come from")) << all;
  EXPECT_TRUE(has(all, "[Lugo (source document 000)]")) << all;
  EXPECT_FALSE(std::regex_search(all, std::regex(R"(seed \d)"))) << all;
  EXPECT_FALSE(std::regex_search(all, std::regex(R"(\[\d+\])"))) << all;  // dice-and-dominoes said [001]
  // One game: only what applies to it (Texas 42 was told of regional presets' letters).
  const std::string t42 = run("rules texas-42");
  EXPECT_TRUE(has(t42, "In brackets after the name: where its rules come from.")) << t42;
  EXPECT_FALSE(has(t42, "regional preset")) << t42;
  EXPECT_TRUE(has(run("rules dominican-patio"), "In brackets after the name: its letter in the Caribbean"));
  // The omniscient bot is named only where it exists, and said to cheat.
  const std::string latin = std::regex_replace(run("rules latin"), std::regex(R"(\s+)"), " ");  // unwrapped
  EXPECT_TRUE(has(latin, "omniscient sees every hand: it cheats")) << latin;
  EXPECT_FALSE(has(run("rules mexican-train"), "omniscient")) << run("rules mexican-train");
}

// --version and `boneyard help [subcommand]`, as other command-line tools take them.
TEST(Terminal, VersionAndHelpSubcommand) {
  int rc = 1;
  EXPECT_TRUE(std::regex_match(run("--version", &rc), std::regex(R"(boneyard \d+\.\d+\.\d+\n)")));
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(has(run("help", &rc), "Start with `boneyard rules`"));
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(has(run("help play", &rc), "Play a game in the terminal"));
  EXPECT_EQ(rc, 0);
}

// 8. arena: the table fits 80 columns; Ctrl-C prints what is done.
TEST(Terminal, ArenaFitsAndReportsWhenInterrupted) {
  const std::string out = run("arena latin --bots greedy,random --games 4");
  for (const auto& r : rows(out)) EXPECT_LE(columns(r), 80u) << r;
  EXPECT_TRUE(has(out, "game share")) << out;
  int rc = 0;
  // Interrupted once three games are recorded (so some are done, however busy the machine).
  const std::string dir = std::filesystem::temp_directory_path() / ("boneyard-arena22-" + std::to_string(getpid()));
  auto interrupted = [&](const std::string& more) {
    std::filesystem::remove_all(dir);
    return run("arena latin --bots greedy,random --games 10000000 --record " + dir + more +
                   " 2>&1 & P=$!; while [ $(ls " + dir +
                   " 2>/dev/null | wc -l) -lt 3 ]; do sleep 0.1; done; kill -INT $P; wait $P",
               &rc);
  };
  const std::string cut = interrupted("");
  // The two counts agree: "the partial results of the first N games" and "Partial results of the first N games".
  const std::string flat = std::regex_replace(cut, std::regex(R"(\s+)"), " ");  // unwrapped
  std::smatch said, shown;
  ASSERT_TRUE(std::regex_search(flat, said, std::regex(R"(the partial results of the first (\d+) games)"))) << cut;
  ASSERT_TRUE(std::regex_search(flat, shown, std::regex(R"(Partial results of the first (\d+) games \(interrupted\))")))
      << cut;
  EXPECT_EQ(said[1], shown[1]) << cut;
  EXPECT_TRUE(has(cut, "greedy")) << cut;
  EXPECT_EQ(rc, 130) << cut;
  const std::string js = interrupted(" --json");
  EXPECT_TRUE(has(js, "\"interrupted\": true")) << js;
  std::filesystem::remove_all(dir);
}

// 3. --watch has a pace (0 when piped) and a key to step; each hand's deal
// is shown as it starts.
TEST(Terminal, WatchHasAPaceAStepAndShowsEachDeal) {
  int rc = 0;
  const std::string bad = run("play latin --watch --pace -1", &rc);
  EXPECT_NE(rc, 0) << bad;
  const std::string w = run("play latin --watch --pace 0 --seed 3 -o target=30");
  EXPECT_TRUE(has(w, "Hand 1 is dealt:")) << w;
  EXPECT_TRUE(has(w, "Hand 2 is dealt:")) << w;
  // --step: Enter for each move; q stops.
  const std::string step = play("latin --watch --step --seed 3", "\n\nq\n");
  EXPECT_EQ(count(step, "(Enter: next move, q: stop)"), 3u) << step;
}

// Every deal is said once, before the first move in it; a deal thrown in
// (Texas 42: all four passed) is "dealt again"; a game of rounds says
// "Round"; the table at a hand's end is that hand's, with its last trick.
TEST(Terminal, EachDealIsSaidOnceBeforeItsMoves) {
  // Seed 3: hand 1 dealt by seat 3 and won by team 1; hand 2's first deal is passed out.
  const std::string w = run("play texas-42 --watch --pace 0 --seed 3 -o target_marks=2");
  EXPECT_TRUE(has(w, "\nHand 2 is dealt again:\n")) << w;
  EXPECT_EQ(count(w, "Hand 2 is dealt"), 2u) << w;
  // The board that ends hand 1 is hand 1's: its number, dealer and bids.
  const size_t end1 = w.find("Hand 1: seat 3 bid 30");
  ASSERT_NE(end1, std::string::npos) << w;
  const std::string board = w.substr(0, end1).substr(w.rfind("Texas 42 - hand", end1));
  EXPECT_TRUE(has(board, "Texas 42 - hand 1 ")) << board;
  EXPECT_TRUE(has(board, "Dealer: seat 3\nBids:  seat 0 pass  seat 1 pass  seat 2 pass  seat 3 30\n")) << board;
  EXPECT_TRUE(has(board, "Seat 0 deals hand 2 next")) << board;
  // A player: hand 2 is announced before the bots bid in it, and the trick
  // that decided hand 1 is shown with its winner before the result.
  const std::string p = play("texas-42 --seed 3 -o target_marks=2", repeat("#1", 40));
  const size_t dealt2 = p.find("Hand 2 is dealt.\n");
  ASSERT_NE(dealt2, std::string::npos) << p;
  EXPECT_LT(p.find("Score: team 0 (seats 0+2): 0   team 1 (seats 1+3): 1"), dealt2) << p;
  EXPECT_EQ(p.find("  seat 1 (greedy): pass", p.find("Score: team 0")), p.find("\n", dealt2) + 1) << p;
  const size_t last = p.find("Last trick: seat 1 3-3, seat 2 1-1, seat 3 6-4, seat 0 6-3  won by seat 1\n");
  EXPECT_LT(last, p.find("Hand 1: seat 3")) << p;
  EXPECT_TRUE(has(p, "Hand 2 is dealt again.\n")) << p;
  // Mexican Train plays rounds.
  const std::string mt = run("play mexican-train --watch --pace 0 --seed 2 -o players=3 -o rounds=2");
  EXPECT_TRUE(has(mt, "Round 2 is dealt:\n")) << mt;
  EXPECT_FALSE(has(mt, "Hand 1 is dealt")) << mt;
}

// Mexican Train: a draw that cannot be laid puts the marker on, and the
// terminal says so to the drawer and to the others (spec Play 3 and 5).
TEST(Terminal, AnUnplayableDrawSaysTheMarkerGoesOn) {
  const std::string p = play("mexican-train --seed 2 -o players=3 -o rounds=1", repeat("#1", 300));
  EXPECT_TRUE(has(p, "You drew 7-3 (it cannot be laid: your marker goes on).\n")) << p;
  EXPECT_TRUE(has(p, "  seat 2 (greedy): draws 1 tile (it cannot be laid: its marker goes on)\n")) << p;
  // A bot's draw that it then lays says nothing of a marker.
  const std::string w = run("play mexican-train --watch --pace 0 --seed 2 -o players=3 -o rounds=1");
  EXPECT_TRUE(has(w, "  seat 0 (greedy): draws 1 tile\n  seat 0 (greedy): 7-3 on the Mexican train\n")) << w;
}

// 9. The smaller things.
TEST(Terminal, SmallerThings) {
  // A tie in the draw for the lead is explained.
  const std::string latin = run("play latin --watch --pace 0 --seed 3 -o target=30", nullptr);
  EXPECT_TRUE(std::regex_search(latin, std::regex(R"(tie on 10 pips: the\s+higher\s+number, 6)"))) << latin;
  // Each hand's summary lists the passes.
  EXPECT_TRUE(has(latin, "  Passes this hand: seat 0 once, seat 2 once, seat 3 once\n")) << latin;
  // "1 trick", not "1 tricks"; the last hand's result once, not on every board.
  const std::string t42 = run("play texas-42 --watch --pace 0 --seed 2 -o target_marks=3");
  EXPECT_TRUE(has(t42, "in 1 trick,")) << t42;
  EXPECT_FALSE(has(t42, " 1 tricks")) << t42;
  EXPECT_LE(count(t42, "Hand 1: seat"), 2u) << t42;
  // The Jamaican six-love, by name.
  EXPECT_TRUE(has(run("play jamaica --watch --pace 0 --seed 1 -o target=2"), "only as a shutout (2-love)"));
  // One error, not three nested ones.
  const std::string bad = play("latin --seed 3", "zzz\n");
  EXPECT_TRUE(has(bad, "'zzz' is not a move: type a number from the list")) << bad;
  EXPECT_FALSE(has(bad, "legal now:") || has(bad, "bad tile")) << bad;
  // A prompt word with more after it is said so, not read as a tile.
  const std::string hint2 = play("latin --seed 3", "hint 2\n");
  EXPECT_TRUE(has(hint2, "'hint 2': hint takes nothing after it; type hint alone.")) << hint2;
  EXPECT_FALSE(has(hint2, "unknown end")) << hint2;
  // Face-down tiles stay face down for a person.
  const std::string dd = play("dice-and-dominoes --seed 3 -o hands=1", repeat("#1", 3));
  EXPECT_TRUE(has(dd, "seat 1 (greedy): lays 2 tiles face down")) << dd;
  // A bot that thinks over half a second says so.
  const std::string slow = play("latin --seed 3 --bots ismcts --think-ms 700", "quit\n");
  EXPECT_TRUE(has(slow, "is thinking…")) << slow;
  // replay: an unfinished game says so; -q prints results only.
  const std::string dir = std::filesystem::temp_directory_path() / ("boneyard-terminal22-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  play("latin --seed 5 --record " + dir, "#1\n#1\nquit\n");
  const std::string part = run("replay " + dir + "/latin-5.json");
  EXPECT_TRUE(has(part, "The record ends before the game is over")) << part;
  const std::string q = run("replay -q " + dir + "/latin-5.json");
  EXPECT_FALSE(has(q, "seat 1 (greedy)") || has(q, "Line:")) << q;
  EXPECT_TRUE(has(q, "The record ends before the game is over")) << q;
  std::filesystem::remove_all(dir);
}
