// Issue 22, point 3 and 8: the pace of --watch, counted rather than timed
// (the game's pauses go through the Terminal's pause function), and the
// arena's time estimate.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>
#include <vector>

#include "cli/common.h"
#include "cli/play.h"

namespace {

using namespace boneyard;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

struct Watched {
  std::vector<double> pauses;
  std::string out;
};

Watched watch(double pace, const std::string& input = "", bool step = false, std::function<int()> measure = nullptr) {
  register_all_games();
  cli::PlayConfig c;
  c.name = "latin";
  c.options = {"target=30"};
  c.seed = 3;
  c.watch = true;
  c.pace = pace;
  c.step = step;
  Session s(c.name, cli::parse_options(c.options), c.seed);
  auto bots = cli::seat_bots(c, s);
  std::istringstream in(input);
  std::ostringstream out;
  Watched w;
  cli::Terminal io{in, out, [&](double seconds) { w.pauses.push_back(seconds); }, 80, nullptr, measure};
  cli::play_game(c, s, bots, nullptr, io);
  w.out = out.str();
  return w;
}

TEST(Pace, OnePausePerMoveShownAtThePaceAsked) {
  const Watched w = watch(0.8);
  // Every move shown ("  seat k (greedy): ...") is followed by one pause.
  EXPECT_EQ(w.pauses.size(), count(w.out, " (greedy): ")) << w.out;
  EXPECT_GT(w.pauses.size(), 20u);
  for (double p : w.pauses) EXPECT_EQ(p, 0.8);
}

// A window resized mid-game: each print is wrapped to the width it has now.
TEST(Pace, TheWidthFollowsAResizedWindow) {
  int calls = 0;
  const Watched w = watch(0, "", false, [&] { return ++calls < 10 ? 100 : 44; });
  std::vector<std::string> lines;
  std::istringstream in(w.out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_GT(calls, 60);
  size_t before = 0, after = 0;
  for (size_t i = 0; i < 10 && i < lines.size(); ++i) before = std::max(before, lines[i].size());
  for (size_t i = lines.size() / 2; i < lines.size(); ++i) after = std::max(after, lines[i].size());
  EXPECT_GT(before, 44u) << w.out;  // the first lines at 100 columns
  EXPECT_LE(after, 44u) << w.out;   // the later ones at 44
}

TEST(Pace, ZeroIsInstant) { EXPECT_TRUE(watch(0).pauses.empty()); }

TEST(Pace, StepWaitsForEnterAndQStops) {
  const Watched w = watch(0, "\n\n\nq\n", true);
  EXPECT_EQ(count(w.out, "(Enter: next move, q: stop)"), 4u) << w.out;
  EXPECT_EQ(count(w.out, " (greedy): "), 4u) << w.out;
  EXPECT_EQ(count(w.out, "Game over"), 0u) << w.out;
}

TEST(Pace, TheDealOfEveryHandIsShown) {
  const Watched w = watch(0);
  const size_t hands = count(w.out, "wins the hand") + count(w.out, "nobody wins the hand");
  EXPECT_GT(hands, 1u) << w.out;
  EXPECT_EQ(count(w.out, " is dealt:\n"), hands) << w.out;
}

TEST(Pace, ArenaEtaEstimatesUntilAGameIsDone) {
  EXPECT_EQ(cli::eta_text(0, 100, 20), "estimating...");
  EXPECT_EQ(cli::eta_text(10, 100, 5), "45s left");
  EXPECT_EQ(cli::eta_text(1, 100, 20), "33m00s left");
  EXPECT_EQ(cli::eta_text(1, 1000, 20), "5h33m left");
  // An SPRT may stop before its most games: the time left is a bound.
  EXPECT_EQ(cli::eta_text(10, 100, 5, true), "at most 45s left");
  EXPECT_EQ(cli::eta_text(0, 100, 20, true), "estimating...");
}

// A progress run with stderr pointed at `target`, a line at every update.
void progress_into(int target) {
  std::fflush(stderr);
  const int saved = dup(STDERR_FILENO);
  dup2(target, STDERR_FILENO);
  {
    cli::Progress p("latin ismcts,ismcts-v1", 10, 0);
    p.update(4, "+12 Elo");
    p.update(5);
    p.finish();
  }
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
}

TEST(Pace, AFileGetsPlainProgressLinesAPipeNothing) {
  char path[] = "/tmp/boneyard-progress-XXXXXX";
  const int file = mkstemp(path);
  ASSERT_GE(file, 0);
  progress_into(file);
  std::string logged(4096, '\0');
  logged.resize(static_cast<size_t>(std::max<ssize_t>(0, pread(file, logged.data(), logged.size(), 0))));
  close(file);
  std::remove(path);
  EXPECT_NE(logged.find("latin ismcts,ismcts-v1: 4 of 10 done, "), std::string::npos) << logged;
  EXPECT_NE(logged.find("; +12 Elo\n"), std::string::npos) << logged;
  EXPECT_NE(logged.find("latin ismcts,ismcts-v1: 5 of 10 done, "), std::string::npos) << logged;
  EXPECT_EQ(logged.find('\r'), std::string::npos) << "no bar in a log";
  EXPECT_EQ(logged.find('\033'), std::string::npos) << "no terminal codes in a log";
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  progress_into(fds[1]);
  close(fds[1]);
  char buf[64];
  EXPECT_EQ(read(fds[0], buf, sizeof buf), 0) << "a pipe (a program reading the output) gets no progress";
  close(fds[0]);
}

TEST(Pace, TheProgressCarriesTheRunningResultWhereItFits) {
  const std::string note = "+12 Elo [-30, +54], LLR +0.41 (-2.94 to +2.94)";
  const std::string wide = cli::progress_line("mexican-train ismcts,ismcts-v1", 40, 400, 60, 120, note);
  EXPECT_NE(wide.find(note), std::string::npos) << wide;
  EXPECT_NE(wide.find("40/400  9m00s left"), std::string::npos) << wide;
  // Too narrow for it: the bar and the counts stay, the note goes.
  const std::string narrow = cli::progress_line("mexican-train ismcts,ismcts-v1", 40, 400, 60, 60, note);
  EXPECT_EQ(narrow.find("Elo"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("40/400"), std::string::npos) << narrow;
  EXPECT_LE(narrow.size() - 4, 59u) << narrow;  // less "\r" and "\033[K"
  // A log (stderr a file) gets plain lines, no bar or terminal codes.
  EXPECT_EQ(cli::progress_log_line("latin ismcts,ismcts-v1", 40, 400, 60, note),
            "latin ismcts,ismcts-v1: 40 of 400 done, 9m00s left; " + note + "\n");
  EXPECT_EQ(cli::progress_log_line("latin ismcts,ismcts-v1", 40, 400, 60, note, true),
            "latin ismcts,ismcts-v1: 40 of 400 done, at most 9m00s left; " + note + "\n");
  EXPECT_EQ(cli::progress_log_line("selfplay latin greedy", 0, 10, 1),
            "selfplay latin greedy: 0 of 10 done, estimating...\n");
}

}  // namespace
