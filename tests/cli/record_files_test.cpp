// Records are never lost (issue 12): the folder is checked before play, the
// record is rewritten atomically after every hand and on SIGINT/SIGTERM, and
// no file is ever overwritten. Seeds on the command line are checked.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <set>
#include <thread>

#include "cli_util.h"
#include "test_paths.h"  // BONEYARD_EXE, BONEYARD_SOURCE_DIR

using namespace cli_util;

namespace {
class RecordFiles : public ::testing::Test {
 protected:
  void SetUp() override { register_all_games(); }
};
}  // namespace

TEST_F(RecordFiles, NegativeOrOversizedSeedOnTheCommandLineIsRefused) {
  for (const std::string seed : {"-1", "18446744073709551616", "99999999999999999999999", "1.5", "x"}) {
    for (const std::string cmd : {"play latin --watch --seed ", "arena latin --bots greedy --games 1 --seed "}) {
      int rc = 0;
      const std::string out = run(cmd + seed, &rc);
      EXPECT_NE(rc, 0) << cmd << seed << ": " << out;
      EXPECT_EQ(out.find("Game over"), std::string::npos) << cmd << seed;
      EXPECT_NE(out.find("--seed"), std::string::npos) << cmd << seed << ": " << out;
    }
  }
}

TEST_F(RecordFiles, UnwritableRecordFolderIsRefusedBeforePlay) {
  const std::string dir = fresh_dir("ro");
  fs::create_directories(dir);
  write_file(dir + "/file", "x");
  for (const std::string& target :
       {dir + "/file", dir + "/file/sub", std::string("/proc/boneyard-no"), std::string("/proc")}) {
    for (const std::string cmd :
         {"play latin --watch --seed 5 --record ", "arena latin --bots greedy --games 2 --record "}) {
      int rc = 0;
      const std::string out = run(cmd + target, &rc);
      EXPECT_EQ(rc, 2) << cmd << target << ": " << out;
      EXPECT_NE(out.find(target), std::string::npos) << out;
      EXPECT_EQ(out.find("seat"), std::string::npos) << "played before refusing: " << out;
    }
  }
  if (geteuid() != 0) {  // root writes anywhere
    const std::string ro = dir + "/readonly";
    fs::create_directories(ro);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
    int rc = 0;
    const std::string out = run("play latin --watch --seed 5 --record " + ro, &rc);
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("cannot write"), std::string::npos) << out;
    fs::permissions(ro, fs::perms::owner_all);
  }
}

// Every folder the CLI writes in: a file or an impossible path is one clear
// error (selfplay --out and arena --checkpoint ended in "terminate called
// after throwing ... filesystem_error", rc 134; a file as the record folder
// said "File exists").
TEST_F(RecordFiles, EveryOutputFolderIsRefusedWithAReasonNotACrash) {
  const std::string dir = fresh_dir("out");
  fs::create_directories(dir);
  write_file(dir + "/file", "x");
  const std::vector<std::pair<std::string, std::string>> uses = {
      {"selfplay latin --bots greedy --games 2 --out ", "the --out folder"},
      {"arena latin --bots greedy,random --games 2 --checkpoint ", "the --checkpoint folder"},
      {"play latin --watch --seed 5 --record ", "the record folder"}};
  for (const auto& [cmd, what] : uses)
    for (const std::string& target : {dir + "/file", std::string("/proc/boneyard-no/")}) {
      int rc = 0;
      const std::string out = run(cmd + target, &rc);
      EXPECT_EQ(rc, 2) << cmd << target << ": " << out;
      EXPECT_NE(out.find("cannot use '" + target + "' as " + what), std::string::npos) << out;
      EXPECT_EQ(out.find("terminate"), std::string::npos) << out;
      if (target == dir + "/file") {  // braces: EXPECT_NE ends in an if/else of its own
        EXPECT_NE(out.find("it is a file, not a folder"), std::string::npos) << out;
      }
    }
}

// replay's and analyze's file errors say why, and name the file: a missing
// file, a folder, a file that is not JSON, and --game on one game's record
// (it said "bad record: not valid JSON" of a good record; analyze said
// "cannot read record" with no reason, and "not valid JSON" of no file).
TEST_F(RecordFiles, ReplaySaysWhyItCannotReadAFile) {
  const std::string dir = fresh_dir("replay");
  int rc = 0;
  run("play latin --watch --pace 0 --seed 7 --record " + dir, &rc);
  ASSERT_EQ(rc, 0);
  const std::string rec = dir + "/latin-7.json";
  write_file(dir + "/bad.json", "{bad");
  json tampered = read_json(rec);  // a hand's result changed: analyze checks the whole record as replay does
  tampered["hands"][0]["side_points"][0] = 999;
  write_file(dir + "/tampered.json", tampered.dump());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"replay " + rec + " --game 3", "is one game's record, not a self-play shard"},
      {"replay " + rec + ":3", "is one game's record, not a self-play shard"},
      {"replay " + dir, "it is a folder, not a file"},
      {"replay " + dir + "/none.json", "No such file or directory"},
      {"replay " + dir + "/bad.json", "bad record '" + dir + "/bad.json': not valid JSON"},
      {"analyze " + dir + " --event 1", "it is a folder, not a file"},
      {"analyze " + dir + "/none.json --event 1", "No such file or directory"},
      {"analyze " + dir + "/bad.json --event 1", "bad record '" + dir + "/bad.json': not valid JSON"},
      {"analyze " + dir + "/tampered.json --event 1", "bad record: hand 1: 'side_points'"}};
  for (const auto& [cmd, says] : cases) {
    const std::string out = run(cmd, &rc);
    EXPECT_EQ(rc, 2) << cmd << ": " << out;
    EXPECT_NE(out.find(says), std::string::npos) << cmd << ": " << out;
  }
  EXPECT_NE(run("replay " + rec + " --game 0", &rc).find("latin (seed 7)"), std::string::npos);
  EXPECT_EQ(rc, 0);
}

TEST_F(RecordFiles, ASecondGameWithTheSameSeedGetsANewName) {
  const std::string dir = fresh_dir("twice");
  int rc = 0;
  run("play latin --watch --seed 5 --record " + dir, &rc);
  EXPECT_EQ(rc, 0);
  const auto one = files_in(dir);
  ASSERT_EQ(one.size(), 1u);
  const json first = read_json(one[0]);
  run("play latin --watch --seed 5 --bots random --record " + dir, &rc);
  run("play latin --watch --seed 5 --bots random --record " + dir, &rc);
  const auto three = files_in(dir);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(read_json(one[0]), first);  // not overwritten
  for (const auto& f : three) {
    EXPECT_EQ(f.find(".tmp"), std::string::npos) << f;  // no temporary left behind
    EXPECT_NO_THROW(Session::from_record(read_json(f))) << f;
  }
  EXPECT_NE(std::find(three.begin(), three.end(), dir + "/latin-5-2.json"), three.end());
  EXPECT_NE(std::find(three.begin(), three.end(), dir + "/latin-5-3.json"), three.end());
  // arena too
  const std::string adir = fresh_dir("twice-arena");
  run("arena latin --bots greedy --games 2 --seed 4 --record " + adir, &rc);
  run("arena latin --bots greedy --games 2 --seed 4 --record " + adir, &rc);
  EXPECT_EQ(files_in(adir).size(), 4u);
}

namespace {
// Starts `boneyard args` with a pipe as its input and a file as its output.
struct Child {
  pid_t pid = -1;
  int in = -1;
};
Child spawn(const std::vector<std::string>& args, const std::string& out_path) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[0], 0);
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(out, 2);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(BONEYARD_EXE));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(BONEYARD_EXE, argv.data());
    _exit(127);
  }
  close(fds[0]);
  return {pid, fds[1]};
}

// The one record in dir once it holds at least `hands` finished hands.
json wait_for_record(const std::string& dir, size_t hands, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    const auto f = files_in(dir);
    if (f.size() == 1) {
      try {
        const json r = read_json(f[0]);
        if (r["hands"].size() >= hands) return r;
      } catch (const Error&) {
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return nullptr;
}
}  // namespace

// A person plays (always their first legal move) through a few hands, then
// stops typing; a signal at the prompt writes the record, which replays.
TEST_F(RecordFiles, RecordIsWrittenAfterEveryHandAndOnASignal) {
  for (int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    const std::string dir = fresh_dir("signal");
    const std::string out = dir + ".out";
    Child c = spawn({"play", "latin", "--seed", "5", "--seat", "0", "-o", "target=1000", "--record", dir}, out);
    ASSERT_GT(c.pid, 0);
    std::string ones;
    for (int i = 0; i < 40; ++i) ones += "1\n";
    ASSERT_EQ(write(c.in, ones.data(), ones.size()), static_cast<ssize_t>(ones.size()));
    const json mid = wait_for_record(dir, 2, 30);
    ASSERT_FALSE(mid.is_null()) << "no record with two finished hands while playing";
    EXPECT_FALSE(mid["result"]["over"].get<bool>());
    EXPECT_NO_THROW(Session::from_record(mid));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // all 40 lines used: at the prompt
    kill(c.pid, sig);
    int status = 0;
    waitpid(c.pid, &status, 0);
    close(c.in);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    const json end = wait_for_record(dir, 2, 1);
    ASSERT_FALSE(end.is_null());
    EXPECT_GE(end["events"].size(), mid["events"].size());
    EXPECT_NO_THROW(Session::from_record(end));
    std::ifstream f(out);
    std::stringstream b;
    b << f.rdbuf();
    EXPECT_NE(b.str().find("Record written to"), std::string::npos) << b.str();
    // The signal is said as itself, not as an end of the input.
    EXPECT_EQ(b.str().find("input ended"), std::string::npos) << b.str();
  }
}

TEST_F(RecordFiles, EndOfInputAtThePromptKeepsTheRecord) {
  const std::string dir = fresh_dir("eof");
  int rc = 0;
  const std::string out = run("play latin --seed 5 --seat 0 --record " + dir + " <<'EOF'\n1\n1\n1\nEOF", &rc);
  ASSERT_EQ(files_in(dir).size(), 1u) << out;
  const json r = read_json(files_in(dir)[0]);
  EXPECT_GE(r["events"].size(), 4u);
  EXPECT_NO_THROW(Session::from_record(r));
}

// Ctrl-C during an arena: the games under way stop and are recorded (as far
// as they went), every record written is whole and replays and holds a move
// (games not begun when the signal came wrote empty records), no temporary
// file is left, and the games done are reported as interrupted.
TEST_F(RecordFiles, ArenaInterruptedKeepsEveryRecord) {
  const std::string dir = fresh_dir("arena-int");
  const std::string out = dir + ".out";
  Child c = spawn(
      {"arena", "latin", "--bots", "greedy", "--games", "100000", "--threads", "2", "--json", "--record", dir}, out);
  ASSERT_GT(c.pid, 0);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (files_in(dir).size() < 3 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(c.pid, SIGINT);
  int status = 0;
  waitpid(c.pid, &status, 0);
  close(c.in);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  const auto files = files_in(dir);
  EXPECT_GE(files.size(), 3u);
  EXPECT_LT(files.size(), 100000u);
  for (const auto& f : files) {
    EXPECT_EQ(f.find(".tmp"), std::string::npos) << f;
    EXPECT_NO_THROW(Session::from_record(read_json(f))) << f;
    const auto ev = Session::record_events(read_json(f));
    EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const RecordEvent& e) { return !e.chance; })) << f;
  }
  std::ifstream o(out);
  std::stringstream b;
  b << o.rdbuf();
  EXPECT_NE(b.str().find("Interrupted"), std::string::npos) << b.str();
  // The games done from the first one are reported, marked as interrupted
  // (none when the first game was still under way).
  const bool partial = b.str().find("\"interrupted\": true") != std::string::npos;
  EXPECT_TRUE(partial || b.str().find("no results") != std::string::npos) << b.str();
  EXPECT_EQ(partial, b.str().find("win_share") != std::string::npos) << b.str();
}

// A person's game with a seed from the clock: the seed deals every hand, so
// neither the screen nor the record on disk says it before the game is over
// (the file is named by the time it started, its seed 0 until the end); the
// last write and the last line say it, and the record replays all along.
TEST_F(RecordFiles, AClockSeedIsSaidOnlyAtTheEnd) {
  const std::string dir = fresh_dir("secret-seed");
  const std::string out = dir + ".out";
  Child c = spawn({"play", "latin", "--seat", "0", "-o", "target=1000", "--record", dir}, out);
  ASSERT_GT(c.pid, 0);
  std::string ones;
  for (int i = 0; i < 40; ++i) ones += "1\n";
  ASSERT_EQ(write(c.in, ones.data(), ones.size()), static_cast<ssize_t>(ones.size()));
  const json mid = wait_for_record(dir, 2, 30);
  ASSERT_FALSE(mid.is_null()) << "no record with two finished hands while playing";
  EXPECT_EQ(mid["seed"].get<uint64_t>(), 0u);
  EXPECT_NO_THROW(Session::from_record(mid));
  // The record, not the temporary file a write goes through (".boneyard-record-*.tmp").
  std::string name;
  for (const auto& f : files_in(dir))
    if (std::filesystem::path(f).filename().string()[0] != '.') name = std::filesystem::path(f).filename().string();
  EXPECT_TRUE(std::regex_match(name, std::regex(R"(latin-\d{8}-\d{6}\.json)"))) << name;
  const std::string quit = "quit\n";
  ASSERT_EQ(write(c.in, quit.data(), quit.size()), static_cast<ssize_t>(quit.size()));
  close(c.in);
  int status = 0;
  waitpid(c.pid, &status, 0);
  std::ifstream f(out);
  std::stringstream b;
  b << f.rdbuf();
  const std::string said = b.str();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(said, m, std::regex(R"(This game's seed was (\d+): `boneyard play latin --seed \1`)")))
      << said;
  EXPECT_FALSE(std::regex_search(said.substr(0, static_cast<size_t>(m.position(0))), std::regex(R"(seed \d)")))
      << said;  // not before the end
  const json end = read_json(files_in(dir)[0]);
  EXPECT_EQ(std::to_string(end["seed"].get<uint64_t>()), m[1].str());
  EXPECT_NO_THROW(Session::from_record(end));
}

// replay --step numbers events from 0, as `analyze --event` and the review
// do: the move the review calls event E is the one replay --step plays at
// "[event E of 0..N]" (it was at E + 1).
TEST_F(RecordFiles, ReplayStepsAndTheReviewNumberEventsAlike) {
  const std::string dir = fresh_dir("step-numbers");
  run("play latin -o single_hand=on --watch --pace 0 --seed 5 --record " + dir);
  ASSERT_EQ(files_in(dir).size(), 1u);
  const std::string rec = files_in(dir)[0];
  const std::string review = run("analyze " + rec + " --review --hand 1 --seat 0");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(review, m, std::regex(R"(Event (\d+): ([^.,]+))"))) << review;
  const size_t e = std::stoul(m[1].str());
  const std::string played = m[2].str();
  const std::string step = run("replay " + rec + " --step <<'EOF'\n" + std::string(e + 1, '\n') + "q\nEOF\n");
  const std::string prompt = "[event " + m[1].str() + " of 0..";
  const size_t at = step.find(prompt);
  ASSERT_NE(at, std::string::npos) << step;
  const std::string line = step.substr(at, step.find('\n', at) - at);
  EXPECT_NE(line.find("seat 0 "), std::string::npos) << line;
  EXPECT_NE(line.find(played), std::string::npos) << line << "\nreview: " << played;
}

// replay --seat K shows the deal as that seat saw it: its own tiles, every
// one, and no other (it said "(hidden from seat K)", the seat's own hand too).
TEST_F(RecordFiles, ReplayForASeatShowsItsOwnDealAndNoOtherTile) {
  const std::string dir = fresh_dir("replay-seat");
  run("play latin -o single_hand=on --watch --pace 0 --seed 5 --record " + dir);
  ASSERT_EQ(files_in(dir).size(), 1u);
  const std::string rec = files_in(dir)[0];
  Session s = Session::start_of_record(read_json(rec));
  const auto events = Session::record_events(read_json(rec));
  ASSERT_TRUE(!events.empty() && events[0].chance);
  s.apply_event(events[0]);
  std::set<std::string> mine;
  const json view = s.state().view(1);
  for (const auto& h : view["hands"])
    if (h["seat"] == 1)
      for (const auto& t : h["tiles"]) mine.insert(t.get<std::string>());
  ASSERT_EQ(mine.size(), 7u) << view.dump();
  const std::string out = run("replay " + rec + " --seat 1");
  const size_t at = out.find("chance: seat 1 is dealt ");
  ASSERT_NE(at, std::string::npos) << out.substr(0, 400);
  const std::string line = out.substr(at, out.find("(the rest hidden", at) - at);  // wrapped, maybe
  std::set<std::string> shown;
  const std::regex tile(R"(\b(\d)-(\d)\b)");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), tile); it != std::sregex_iterator(); ++it)
    shown.insert((*it)[0].str());
  EXPECT_EQ(shown, mine) << line;
}

// Secrecy over whole games: each chance line of `replay --seat 1` names only
// tiles seat 1 holds right after that chance event (its view then), in every
// hand of a latin game and every round of a Mexican Train game with draws.
TEST_F(RecordFiles, ReplayForASeatNamesOnlyItsOwnTilesAtEveryChance) {
  for (const std::string game : {"latin", "mexican-train"}) {
    const std::string dir = fresh_dir("replay-secrecy-" + game);
    run("play " + game + " --watch --pace 0 --seed 9 --record " + dir);
    ASSERT_EQ(files_in(dir).size(), 1u) << game;
    const std::string rec = files_in(dir)[0];
    std::string out = run("replay " + rec + " --seat 1");
    out = std::regex_replace(out, std::regex(R"(\n {4,})"), " ");  // wrapped lines (indented 4) joined
    std::vector<std::string> lines;
    for (size_t at = out.find("chance: "); at != std::string::npos; at = out.find("chance: ", at + 1))
      lines.push_back(out.substr(at, out.find('\n', at) - at));
    Session s = Session::start_of_record(read_json(rec));
    size_t k = 0, shown_any = 0;
    const std::regex tile(R"(\b(\d{1,2})-(\d{1,2})\b)");
    for (const auto& e : Session::record_events(read_json(rec))) {
      s.apply_event(e);
      if (!e.chance) continue;
      ASSERT_LT(k, lines.size()) << game;
      const json view = s.state().view(1);
      std::set<std::string> mine;
      for (const auto& h : view["hands"])
        if (h["seat"] == 1 && h["tiles"].is_array())
          for (const auto& t : h["tiles"]) mine.insert(t.get<std::string>());
      const std::string& line = lines[k++];
      for (auto it = std::sregex_iterator(line.begin(), line.end(), tile); it != std::sregex_iterator(); ++it) {
        EXPECT_TRUE(mine.count((*it)[0].str())) << game << ": " << line << " names " << (*it)[0].str();
        ++shown_any;
      }
    }
    EXPECT_EQ(k, lines.size()) << game;
    EXPECT_GT(shown_any, 0u) << game;
  }
}

// A roll of the dice moves no tile and every seat sees it: `replay --seat`
// shows it (it said "hidden from seat 1"), while the deals stay hidden.
TEST_F(RecordFiles, ReplayForASeatShowsThePublicDiceRolls) {
  const std::string dir = fresh_dir("replay-dice");
  run("play dice-and-dominoes --watch --pace 0 --seed 9 -o hands=1 --record " + dir);
  ASSERT_EQ(files_in(dir).size(), 1u);
  const std::string out = run("replay " + files_in(dir)[0] + " --seat 1");
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(chance: roll [1-6] [1-6]\n)"))) << out;
  EXPECT_NE(out.find("(the rest hidden from seat 1)"), std::string::npos) << out;
}
