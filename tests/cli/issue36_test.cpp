// Issue 36, items 1-7: a coach whose grades are signal (standard errors for
// the bot-valued games, ± in hints, review lines in words) and a terminal
// that never misleads (Texas 42 input, bots' words from the listener's
// side, wrapping and no protocol words, Dice & Dominoes and the smaller
// things). Each test failed on the build before the fix.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/common.h"
#include "cli/play.h"
#include "cli_util.h"
#include "record/protocol.h"
#include "record/review.h"
#include "test_paths.h"  // BONEYARD_EXE, BONEYARD_SOURCE_DIR

using cli_util::run;
using nlohmann::json;
using namespace boneyard;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// `play ARGS` with these lines typed at the prompt; `env` goes before the program.
std::string play(const std::string& args, const std::string& input, const std::string& env = "") {
  const std::string file = std::filesystem::temp_directory_path() / ("boneyard-issue36-" + std::to_string(getpid()));
  std::ofstream(file) << input;
  std::string out;
  FILE* p = popen((env + " " + BONEYARD_EXE + " play " + args + " < " + file + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  pclose(p);
  std::filesystem::remove(file);
  return out;
}

std::string repeat(const std::string& line, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += line + "\n";
  return s;
}

// Columns of a line of UTF-8 text (one per code point).
size_t columns(const std::string& line) {
  size_t n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}

// Every line of `text` fits `width` columns.
void fits(const std::string& text, size_t width, const std::string& what) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) EXPECT_LE(columns(line), width) << what << ": " << line;
}

std::string temp_dir(const std::string& name) {
  const std::string dir =
      std::filesystem::temp_directory_path() / ("boneyard-issue36-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

// A game driven through the protocol where seat 0 always plays the move its
// `values` (the hint's numbers) rank first, the others random, to the end of
// the first hand; returns the record.
json hinted_hand(const std::string& game, uint64_t seed, int iterations) {
  Protocol p;
  auto ask = [&](const json& req) {
    const json r = json::parse(p.handle(req.dump()));
    EXPECT_TRUE(r.value("ok", false)) << req.dump() << " -> " << r.dump();
    return r;
  };
  ask({{"cmd", "new"}, {"game", game}, {"seed", seed}});
  for (int guard = 0; guard < 2000; ++guard) {
    const json st = ask({{"cmd", "state"}});
    if (st.value("hands_finished", 0) >= 1 || st.value("terminal", false)) break;
    const json a = st["actor"];
    const std::string kind = a.value("kind", "");
    if (kind == "chance") {
      ask({{"cmd", "chance"}});
      continue;
    }
    std::vector<int> seats;
    if (a.contains("seat")) seats.push_back(a["seat"].get<int>());
    if (a.contains("seats"))
      for (const auto& k : a["seats"]) seats.push_back(k.get<int>());
    for (int k : seats) {
      if (k == 0) {
        const json v = ask({{"cmd", "values"}, {"seat", 0}, {"iterations", iterations}});
        ask({{"cmd", "apply"}, {"seat", 0}, {"move", v["moves"][0]["move"]}});
      } else {
        ask({{"cmd", "bot"}, {"seat", k}, {"bot", "random"}});
      }
    }
  }
  return ask({{"cmd", "record"}})["record"];
}

}  // namespace

// 1. Dice & Dominoes and Mexican Train values come from independent runs of
// the bot, with a standard error, and the 2-SE rule applies.
TEST(Issue36Coach, BotValuedReviewsHaveAStandardError) {
  register_all_games();
  for (const std::string game : {"dice-and-dominoes", "mexican-train"}) {
    std::ifstream in(std::string(BONEYARD_SOURCE_DIR) + "/tests/data/calibration/" + game + "-random.json");
    const json record = json::parse(in);
    ReviewOptions o = coach_options(BotOptions{.iterations = 100});
    const HandReview r = review_hand(record, 1, 1, o);
    ASSERT_FALSE(r.moves.empty()) << game;
    EXPECT_EQ(r.runs, kBotRuns) << game;
    int with_se = 0;
    for (const auto& m : r.moves) {
      EXPECT_EQ(m.rows, kBotRuns) << game;
      with_se += m.loss > 0 && m.se > 0;
      EXPECT_EQ(m.grade, fair_grade(m.loss, m.se, r.thresholds)) << game;
    }
    EXPECT_GT(with_se, 0) << game << ": no loss had a standard error";
    const json j = review_json(r);
    EXPECT_EQ(j["runs"], kBotRuns);
    // The hint's numbers carry the same errors: one per move, 0 for the first.
    Session s = Session::start_of_record(record);
    const auto events = Session::record_events(record);
    for (size_t k = 0; k < r.moves[0].event; ++k) s.apply_event(events[k]);
    const ExpectedValues ev = expected_values(s.state(), 1, review_seed(s.seed(), r.moves[0].event), o);
    EXPECT_EQ(ev.rows, kBotRuns);
    ASSERT_EQ(ev.se.size(), ev.moves.size());
    EXPECT_EQ(ev.se[0], 0);
    EXPECT_EQ(ev.moves, r.moves[0].values);
  }
}

// 1. A move the hint ranks first, at the review's budget, is never graded
// below Good: the hint is the review's numbers for that decision.
TEST(Issue36Coach, TheHintsBestMoveIsNeverGradedBelowGood) {
  register_all_games();
  for (const std::string game : {"dice-and-dominoes", "mexican-train", "latin"}) {
    const int iterations = game == "latin" ? 4 : 60;
    const json record = hinted_hand(game, 11, iterations);
    ReviewOptions o = coach_options(BotOptions{.iterations = iterations});
    const HandReview r = review_hand(record, 0, 1, o);
    EXPECT_FALSE(r.moves.empty()) << game;
    for (const auto& m : r.moves)
      EXPECT_LE(static_cast<int>(m.grade), static_cast<int>(Grade::Good))
          << game << " event " << m.event << ": played " << m.played << ", graded " << grade_name(m.grade);
  }
}

// 2. Hints show the ± of each gap, or "too close to call".
TEST(Issue36Coach, HintsSayWhatTheNumbersCannotTell) {
  const std::string latin = play("latin --seed 4 --seat 1 --iterations 6", "hint\nquit\n");
  EXPECT_TRUE(has(latin, "give or take one standard error")) << latin;
  EXPECT_TRUE(std::regex_search(latin, std::regex("too close to call|\u00b1 [0-9.e+-]+ below"))) << latin;
  const std::string t42 = play("texas-42 --seed 3 --iterations 4", "30\n#1\nhint\nquit\n");
  EXPECT_TRUE(has(t42, "give or take one standard error")) << t42;
  const std::string dd = play("dice-and-dominoes --seed 3", "hint\nquit\n");
  EXPECT_TRUE(has(dd, "independent runs")) << dd;
  // A close call shows its gap and error too, so that one row is not a mystery beside another.
  EXPECT_TRUE(std::regex_search(dd, std::regex("too close \\([0-9.e+-]+ \u00b1 [0-9.e+-]+\\)"))) << dd;
  EXPECT_TRUE(has(dd, "The first 6 moves are too close to call at this budget")) << dd;
  // The protocol's values carry the errors too (a field added, none removed).
  const std::string v =
      run("engine <<'EOF'\n{\"cmd\":\"new\",\"game\":\"latin\",\"seed\":4}\n{\"cmd\":\"values\",\"seat\":1,"
          "\"iterations\":4}\nEOF");
  EXPECT_TRUE(has(v, "\"se\":")) << v;
  EXPECT_TRUE(has(v, "\"value\":")) << v;
}

// 3. Review lines a player reads once: no "best ... played X, best Y, lost".
TEST(Issue36Coach, ReviewLinesInWords) {
  const std::string dir = temp_dir("review");
  play("latin --seed 5 --record " + dir + " -o single_hand=on", repeat("#1", 40));
  const auto files = cli_util::files_in(dir);
  ASSERT_EQ(files.size(), 1u);
  const std::string text = run("analyze " + files[0] + " --review --seat 0 --iterations 4");
  EXPECT_TRUE(has(text, "Event ")) << text;
  EXPECT_FALSE(std::regex_search(text, std::regex(R"(played .* best .* lost )"))) << text;
  EXPECT_TRUE(std::regex_search(text, std::regex("the best move|too close to call|was better by"))) << text;
  std::filesystem::remove_all(dir);
}

// 4. Texas 42: every spelling of a big bid asks; a digit while naming trumps
// is asked back; the list's size bounds "#N"; after nonsense, the advice works.
TEST(Issue36Terminal, TexasInputCannotSkipTheQuestion) {
  for (const std::string typed : {"1 mark", "bid:1m", "42"}) {
    const std::string out = play("texas-42 --seed 8", typed + "\nn\nquit\n");
    EXPECT_TRUE(has(out, "Sure? (y/n)")) << typed << "\n" << out;
    EXPECT_TRUE(has(out, "Not bid.")) << typed << "\n" << out;
  }
  for (const std::string typed : {"bid:84", "2marks"}) {
    const std::string out = play("texas-42 --seed 8 -o open_two_marks=on", typed + "\nn\nquit\n");
    EXPECT_TRUE(has(out, "Sure? (y/n)")) << typed << "\n" << out;
  }
  // 29 with 14 moves listed: no "#29".
  const std::string bad = play("texas-42 --seed 3", "29\nquit\n");
  EXPECT_TRUE(has(bad, "29 is no bid")) << bad;
  EXPECT_FALSE(has(bad, "#29")) << bad;
  // After nonsense the advice is one that works while bidding.
  const std::string xyz = play("texas-42 --seed 3", "xyz\n#1\nquit\n");
  EXPECT_FALSE(has(xyz, "type a number from the list")) << xyz;
  EXPECT_TRUE(std::regex_search(xyz, std::regex(R"(#N for\s+move N)"))) << xyz;
  // Naming trumps: 6 is asked back; sixes and #1 work.
  const std::string six = play("texas-42 --seed 3", "30\n6\nsixes\nquit\n");
  EXPECT_TRUE(has(six, "'6' could mean move 6 of the list")) << six;
  EXPECT_TRUE(has(six, "trumps: sixes")) << six;
  EXPECT_TRUE(has(play("texas-42 --seed 3", "30\n#1\nquit\n"), "bid 30, trumps: blanks"));
  // A bid the rules refuse is said with what was typed, not the protocol's text.
  const std::string low = play("texas-42 --seed 3", "30\n31\nquit\n");
  EXPECT_FALSE(has(low, "illegal move 'bid:")) << low;
}

// 5. A bot's move is said from the listener's side, in play and replay.
TEST(Issue36Terminal, BotsMovesFromTheListenersSide) {
  const std::string mt = run("play mexican-train --watch --pace 0 --seed 3 -o rounds=1");
  EXPECT_FALSE(has(mt, "on your train")) << mt;
  EXPECT_FALSE(has(mt, "end your opening turn")) << mt;
  EXPECT_FALSE(has(mt, "(your marker goes on)")) << mt;
  EXPECT_TRUE(has(mt, "on its own train")) << mt;
  // A person at seat 0 hears the bots' moves on its train as "your train".
  const std::string me = play("mexican-train --seed 3 -o rounds=1", repeat("#1", 300));
  EXPECT_FALSE(std::regex_search(me, std::regex(R"(seat [1-9] \(greedy\): [^\n]*(end your|your marker))"))) << me;
  // The winning team names its leader (Dominican patio): said to a watcher.
  const std::string patio = run("play dominican-patio --watch --pace 0 --seed 3");
  EXPECT_FALSE(has(patio, ": you lead")) << patio;
  EXPECT_TRUE(has(patio, "(greedy): names seat 3 to lead")) << patio;
  // replay says the same.
  const std::string dir = temp_dir("replay5");
  play("mexican-train --seed 3 -o rounds=1 --record " + dir, repeat("#1", 300));
  const auto files = cli_util::files_in(dir);
  ASSERT_EQ(files.size(), 1u);
  const std::string rp = run("replay " + files[0]);
  EXPECT_FALSE(has(rp, "on your train") || has(rp, "end your opening turn")) << rp;
  std::filesystem::remove_all(dir);
}

// 6. replay, analyze, the arena's progress line and the stop line fit the
// terminal; no protocol words.
TEST(Issue36Terminal, EverythingWrapsAndNoProtocolWords) {
  const std::string dir = temp_dir("wrap6");
  play("texas-42 --seed 3 -o single_hand=on --record " + dir, "30\n#1\n" + repeat("#1", 10));
  const auto files = cli_util::files_in(dir);
  ASSERT_EQ(files.size(), 1u);
  std::string out;
  {
    FILE* p = popen(("COLUMNS=60 " + std::string(BONEYARD_EXE) + " replay " + files[0] + " 2>&1").c_str(), "r");
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    pclose(p);
  }
  fits(out, 60, "replay");
  std::string an;
  {
    FILE* p = popen(("COLUMNS=60 " + std::string(BONEYARD_EXE) + " analyze " + files[0] +
                     " --review --seat 0 --iterations 3 2>&1; COLUMNS=60 " + BONEYARD_EXE + " analyze " + files[0] +
                     " --event 5 --iterations 3 2>&1")
                        .c_str(),
                    "r");
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) an.append(buf.data(), n);
    pclose(p);
  }
  fits(an, 60, "analyze");
  EXPECT_TRUE(has(an, "The record plays: ")) << an;
  EXPECT_FALSE(std::regex_search(an, std::regex("The record plays: (trump|bid):"))) << an;
  std::filesystem::remove_all(dir);
  // The arena's progress line: one line of at most 79 columns with three
  // bots, cleared to its end (no stale "." after "estimating...").
  for (int cols : {60, 80}) {
    const std::string a = cli::progress_line("latin ismcts,pimc,greedy", 0, 2000, 0.1, cols);
    const std::string b = cli::progress_line("latin ismcts,pimc,greedy", 12, 2000, 3, cols);
    for (const std::string& l : {a, b}) {
      ASSERT_EQ(l.rfind("\r", 0), 0u);
      ASSERT_GE(l.size(), 4u);
      EXPECT_EQ(l.substr(l.size() - 3), "\033[K") << l;
      EXPECT_LE(columns(l.substr(1, l.size() - 4)), static_cast<size_t>(cols - 1)) << l;
    }
  }
  // No protocol words at the table or in a stop.
  const std::string patio = run("play dominican-patio --watch --pace 0 --seed 3");
  EXPECT_TRUE(has(patio, "chooses who leads: seat 1 or seat 3")) << patio;
  EXPECT_FALSE(has(patio, "(leader:") || has(patio, "(highest_double)")) << patio;
  EXPECT_FALSE(has(play("latin --seed 3", "zzz\nquit\n"), "such as")) << "a move such as ...";
  EXPECT_EQ(cli::stop_words(2), "Interrupted (Ctrl-C)");
}

// 7. Dice & Dominoes rounds, rules in words, single hand, --step, --record.
TEST(Issue36Terminal, SmallerThings) {
  // In a game of several hands, the round someone went out.
  const std::string dd = run("play dice-and-dominoes --watch --pace 0 --seed 2 -o hands=2");
  EXPECT_TRUE(std::regex_search(dd, std::regex(R"(went out in round \d+)"))) << dd;
  // ... said once: not again with the last round's table, nor with the next deal.
  int said = 0;
  for (size_t at = dd.find("Hand 1: "); at != std::string::npos; at = dd.find("Hand 1: ", at + 1)) ++said;
  EXPECT_EQ(said, 1) << dd;
  // rules in words, with the target's range.
  const std::string jam = run("rules jamaica");
  EXPECT_FALSE(has(jam, "on: so")) << jam;
  EXPECT_TRUE(std::regex_search(jam, std::regex(R"(from\s+1\s+to\s+10000)"))) << jam;
  const std::string t42 = run("rules texas-42");
  EXPECT_FALSE(has(t42, "4 marks or more")) << t42;
  // One hand: no target.
  const std::string one = run("play texas-42 --watch --pace 0 --seed 2 -o single_hand=on");
  EXPECT_FALSE(has(one, "marks to 7")) << one;
  // --step: no pace before each prompt (the pauses counted, not timed).
  {
    register_all_games();
    cli::PlayConfig c;
    c.name = "latin";
    c.seed = 3;
    c.watch = true;
    c.pace = 0.8;
    c.step = true;
    Session s(c.name, {}, c.seed);
    auto bots = cli::seat_bots(c, s);
    std::istringstream in("\n\nq\n");
    std::ostringstream out;
    int pauses = 0;
    cli::Terminal io{in, out, [&](double) { ++pauses; }, 80, nullptr};
    cli::play_game(c, s, bots, nullptr, io);
    EXPECT_EQ(pauses, 0) << out.str();
  }
  // --record games/: one slash; a missing parent folder is refused.
  const std::string dir = temp_dir("record7");
  std::filesystem::create_directories(dir);
  const std::string rec = play("latin --seed 5 --record " + dir + "/", "quit\n");
  EXPECT_TRUE(has(rec, "Record written to " + dir + "/latin-5.json")) << rec;
  EXPECT_FALSE(has(rec, "//")) << rec;
  int rc = 0;
  const std::string missing = run("play latin --seed 5 --record " + dir + "/nope/games < /dev/null", &rc);
  EXPECT_NE(rc, 0) << missing;
  EXPECT_TRUE(has(missing, "does not exist")) << missing;
  EXPECT_FALSE(std::filesystem::exists(dir + "/nope")) << missing;
  std::filesystem::remove_all(dir);
}

// 7. ./run.sh prints no build lines when nothing is rebuilt.
TEST(Issue36Terminal, RunShIsQuietWhenNothingIsRebuilt) {
  const std::string exe = BONEYARD_EXE, want = std::string(BONEYARD_SOURCE_DIR) + "/build/boneyard";
  if (exe != want) GTEST_SKIP() << "run.sh builds build/; this test runs from " << exe;
  const std::string out = run("-h >/dev/null; cd " + std::string(BONEYARD_SOURCE_DIR) + " && ./run.sh rules latin");
  EXPECT_TRUE(has(out, "latin")) << out;
  EXPECT_FALSE(has(out, "ninja") || has(out, "web/dist") || has(out, "no work to do")) << out;
  // The first thing printed is the rules' own first line.
  EXPECT_EQ(out.substr(out.find_first_not_of('\n'), 11), "In brackets") << out;
}

// Issue 37, Tools: arena --json gives each bot's mean and max milliseconds a
// decision, and every share's interval stays inside 0..1 (a 4-game Texas 42
// arena reported [0.26, 1.24]).
TEST(Issue37Tools, ArenaTimesDecisionsAndKeepsIntervalsInRange) {
  int rc = 0;
  const std::string out = run("arena texas-42 --bots greedy,random --games 4 --json 2>/dev/null", &rc);
  ASSERT_EQ(rc, 0) << out;
  const json j = json::parse(out);
  for (const auto& b : j["bots"])
    for (const char* k : {"win_share_ci95", "hand_share_ci95"}) {
      EXPECT_GE(b[k][0].get<double>(), 0) << k << " " << b.dump();
      EXPECT_LE(b[k][1].get<double>(), 1) << k << " " << b.dump();
      EXPECT_LE(b[k][0].get<double>(), b[k][1].get<double>()) << b.dump();
    }
  // Elo's interval too comes from a bounded one: never a point, even when
  // every deal set ended alike.
  for (const auto& b : j["bots"]) EXPECT_TRUE(b["hands_won"].is_number_integer()) << b.dump();
  for (const auto& b : j["bots"])
    if (b.contains("elo_ci95")) {
      EXPECT_LT(b["elo_ci95"][0].get<double>(), b["elo_ci95"][1].get<double>()) << b.dump();
    }
  ASSERT_EQ(j["timing"].size(), j["bots"].size()) << out;
  for (const auto& t : j["timing"]) {
    EXPECT_GT(t["decisions"].get<double>(), 0) << t.dump();
    EXPECT_TRUE(t["decisions"].is_number_integer()) << t.dump();  // a count, not "412.0"
    EXPECT_GE(t["mean_ms"].get<double>(), 0) << t.dump();
    EXPECT_LE(t["mean_ms"].get<double>(), t["max_ms"].get<double>()) << t.dump();
  }
}

namespace {

// A text report's "mean [low, high]" figures in the lines that `row`
// matches (its groups 2 to 4: mean, low, high), each with its line.
struct ReportInterval {
  double mean, lo, hi;
  std::string line;
};
std::vector<ReportInterval> report_intervals(const std::string& out, const std::regex& row) {
  std::vector<ReportInterval> found;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) found.push_back({std::stod(m[2]), std::stod(m[3]), std::stod(m[4]), line});
  }
  return found;
}

}  // namespace

// The text table prints the same bounded intervals as [low, high] (it
// printed "1.000 ± 0.658" for a 2-game run: past 1).
TEST(Issue37Tools, ArenaTextKeepsSharesInRange) {
  int rc = 0;
  const std::string out = run("arena latin --bots greedy,random --games 2 2>/dev/null", &rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_FALSE(has(out, "\u00b1")) << out;
  // "greedy  0.750 [0.301, 0.954]": a bot's share
  const auto shares =
      report_intervals(out, std::regex(R"(^  (greedy|random) +(\d\.\d+) \[(-?\d\.\d+), (-?\d\.\d+)\])"));
  for (const auto& x : shares) {
    EXPECT_LE(0, x.lo) << x.line;
    EXPECT_LE(x.lo, x.mean) << x.line;
    EXPECT_LE(x.mean, x.hi) << x.line;
    EXPECT_LE(x.hi, 1) << x.line;
  }
  EXPECT_EQ(shares.size(), 4u) << out;  // each bot's game share and hand share
}

// Latin hands never give a side less than 0 points: a short run's points
// interval stops at 0 (it went to -1.23 for greedy here), in the text and
// in --json alike.
TEST(Issue37Tools, ArenaPointsIntervalStaysInTheGamesRange) {
  int rc = 0;
  const std::string out = run("arena latin --bots greedy,random --games 2 2>/dev/null", &rc);
  ASSERT_EQ(rc, 0) << out;
  // "greedy  0.536 [0.186, 0.886]  20.68 [0.00, 42.59]": hand share, points
  const auto points = report_intervals(
      out, std::regex(R"(^  (greedy|random) +\S+ \[\S+, \S+\] +(-?\d+\.\d+) \[(-?\d+\.\d+), (-?\d+\.\d+)\])"));
  for (const auto& x : points) {
    EXPECT_LE(0, x.lo) << x.line;
    EXPECT_LE(x.lo, x.mean) << x.line;
    EXPECT_LT(x.mean, x.hi) << x.line;
  }
  EXPECT_EQ(points.size(), 2u) << out;
  const auto j = nlohmann::json::parse(run("arena latin --bots greedy,random --games 2 --json 2>/dev/null", &rc));
  ASSERT_EQ(rc, 0);
  for (const auto& b : j.at("bots")) {
    EXPECT_GE(b.at("mean_points_per_hand_ci95")[0].get<double>(), 0) << b.dump();
    EXPECT_LT(b.at("mean_points_per_hand_ci95")[0].get<double>(), b.at("mean_points_per_hand_ci95")[1].get<double>());
  }
  // Dice & Dominoes' chips can be lost (a hand's net is below 0 for the
  // players who paid the ante and won nothing): there the interval is not cut.
  const auto d =
      nlohmann::json::parse(run("arena dice-and-dominoes --bots greedy,random --games 2 --json 2>/dev/null", &rc));
  ASSERT_EQ(rc, 0);
  bool below = false;
  for (const auto& b : d.at("bots")) {
    const auto ci = b.at("mean_points_per_hand_ci95");
    EXPECT_LE(ci[0].get<double>(), b.at("mean_points_per_hand").get<double>()) << b.dump();
    below = below || ci[0].get<double>() < 0;
  }
  EXPECT_TRUE(below) << d.dump();
}
