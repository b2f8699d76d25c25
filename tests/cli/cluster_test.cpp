// Beyond one machine: arena under mpirun gives the one-process result, the
// SPRT stops a duplicate arena, self-play shards replay, runs resume.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "record/session.h"
#include "record/zstd_io.h"
#include "test_paths.h"  // BONEYARD_EXE, BONEYARD_SOURCE_DIR

using namespace boneyard;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
std::string sh(const std::string& cmd, int* rc = nullptr) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  if (rc) *rc = WEXITSTATUS(status);
  return out;
}
std::string exe() { return BONEYARD_EXE; }
std::string run(const std::string& args, int* rc = nullptr) { return sh(exe() + " " + args + " 2>&1", rc); }
std::string run_stdout(const std::string& args, int* rc = nullptr) {
  return sh(exe() + " " + args + " 2>/dev/null", rc);
}

// mpirun with what a container needs; empty when this build or machine has no MPI.
std::string mpirun(int np) {
#ifdef BONEYARD_MPIEXEC
  std::string m = BONEYARD_MPIEXEC;
  if (m.empty() || !fs::exists(m)) return "";
  // Shared memory without the single-copy mechanism (containers refuse it);
  // no leak report from Open MPI's own allocations in a sanitizer build.
  std::string cmd = m + " -np " + std::to_string(np) +
                    " --oversubscribe --mca btl self,vader --mca btl_vader_single_copy_mechanism none"
                    " -x ASAN_OPTIONS=detect_leaks=0";
  if (geteuid() == 0) cmd += " --allow-run-as-root";
  return cmd + " ";
#else
  (void)np;
  return "";
#endif
}
#define NEED_MPI() \
  if (mpirun(2).empty()) GTEST_SKIP() << "this build has no MPI (or mpirun is missing): MPI tests skipped"

// The result without what depends on the run (time, threads, ranks).
json result_of(const std::string& text) {
  json j = json::parse(text);
  j.erase("seconds");
  j.erase("threads");
  j.erase("ranks");
  j.erase("timing");  // wall-clock milliseconds a decision
  return j;
}

std::string tmpdir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("boneyard-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  return d.string();
}
}  // namespace

// Starts a command in the background; returns its pid (sh execs it).
pid_t spawn(const std::string& cmd) {
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + cmd + " >/dev/null 2>&1").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}
void kill_now(pid_t pid) {
  kill(pid, SIGKILL);
  int st = 0;
  waitpid(pid, &st, 0);
}
template <class F>
bool wait_until(F f, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (f()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(ClusterArena, MpiGivesTheOneProcessResultLatin) {
  NEED_MPI();
  const std::string args = "arena latin --bots greedy,random --duplicate --games 40 --seed 11 --json";
  int rc = 0;
  const json one = result_of(run_stdout(args + " --threads 1", &rc));
  ASSERT_EQ(rc, 0);
  const std::string two_text = sh(mpirun(2) + exe() + " " + args + " --threads 2 2>&1", &rc);
  ASSERT_EQ(rc, 0) << two_text;
  const json two = json::parse(two_text);
  EXPECT_EQ(two["ranks"], 2);
  EXPECT_EQ(one.dump(), result_of(two_text).dump());
  EXPECT_EQ(one["deal_sets"], 40);
}

TEST(ClusterArena, MpiGivesTheOneProcessResultTexas42) {
  NEED_MPI();
  const std::string args = "arena texas-42 --bots greedy,random --duplicate --games 6 --seed 5 --json";
  int rc = 0;
  const json one = result_of(run_stdout(args, &rc));
  ASSERT_EQ(rc, 0);
  const std::string two_text = sh(mpirun(2) + exe() + " " + args + " --threads 1 2>&1", &rc);
  ASSERT_EQ(rc, 0) << two_text;
  EXPECT_EQ(one.dump(), result_of(two_text).dump());
}

TEST(ClusterArena, ThreadsGiveTheSameResult) {
  const std::string args = "arena dominican-patio --bots greedy,random --games 30 --seed 3 --json";
  int rc = 0;
  const json one = result_of(run_stdout(args + " --threads 1", &rc));
  ASSERT_EQ(rc, 0);
  EXPECT_EQ(one.dump(), result_of(run_stdout(args + " --threads 2")).dump());
}

TEST(SprtArena, GreedyAgainstRandomAcceptsH1Quickly) {
  const std::string args =
      "arena latin --bots greedy,random --duplicate --games 5000 --seed 2 --json --sprt elo0=0,elo1=20";
  int rc = 0;
  const std::string text = run_stdout(args + " --threads 2", &rc);
  ASSERT_EQ(rc, 0) << text;
  const json j = json::parse(text);
  const json& s = j["sprt"];
  EXPECT_EQ(s["result"], "H1");
  EXPECT_GE(s["llr"].get<double>(), s["upper_bound"].get<double>());
  EXPECT_NEAR(s["upper_bound"].get<double>(), std::log(0.95 / 0.05), 1e-9);
  EXPECT_NEAR(s["lower_bound"].get<double>(), std::log(0.05 / 0.95), 1e-9);
  EXPECT_LT(s["deal_sets"].get<int>(), 500);
  EXPECT_EQ(s["deal_sets"], j["deal_sets"]);  // the report covers the sets the test used
  EXPECT_GT(s["elo"].get<double>(), 20);
  EXPECT_LE(s["elo_ci95"][0].get<double>(), s["elo"].get<double>());
  // Deterministic: the sets in index order decide, whatever the threads.
  EXPECT_EQ(result_of(text).dump(), result_of(run_stdout(args + " --threads 1")).dump());
  if (!mpirun(2).empty()) {
    const std::string two = sh(mpirun(2) + exe() + " " + args + " --threads 2 2>&1", &rc);
    ASSERT_EQ(rc, 0) << two;
    EXPECT_EQ(result_of(text).dump(), result_of(two).dump());
  }
  // The SPRT's Elo is the table's, of the same deal sets (it had its own,
  // zero-wide where every set ended alike).
  EXPECT_EQ(s["elo"], j["bots"][0]["elo"]);
  EXPECT_EQ(s["elo_ci95"], j["bots"][0]["elo_ci95"]);
  // Text output names the decision, and where the LLR stands against its
  // bounds in words ("LLR 3.073 in [-2.944, 2.944]" read as inside them).
  std::string plain = run("arena latin --bots greedy,random --duplicate --games 5000 --seed 2 --sprt elo1=20");
  plain = std::regex_replace(plain, std::regex(R"(\s+)"), " ");
  EXPECT_NE(plain.find("SPRT, A greedy against B random (elo0 0, elo1 20, alpha 0.05, beta 0.05)"), std::string::npos)
      << plain;
  EXPECT_TRUE(std::regex_search(plain, std::regex(R"(the LLR is \+\d\.\d{3}, at or above \+2\.944: H1 accepted)")))
      << plain;
  // An empty --sprt is refused (it ran no test at all).
  EXPECT_NE(
      run("arena latin --bots greedy,random --duplicate --games 3 --sprt ''", &rc).find("--sprt needs its settings"),
      std::string::npos);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(run("arena latin --bots greedy,random --games 10 --sprt elo1=5", &rc).find("--duplicate"),
            std::string::npos);
  EXPECT_EQ(rc, 2);
}

TEST(ClusterArena, ResumeAfterAKillGivesTheUninterruptedResult) {
  const std::string dir = tmpdir("arena-ck");
  const std::string args = "arena latin --bots greedy,random --duplicate --games 1500 --seed 9 --json";
  const fs::path ck = fs::path(dir) / "arena-checkpoint.json";
  const pid_t pid = spawn(exe() + " " + args + " --threads 2 --checkpoint " + dir);
  const bool some = wait_until(
      [&] {
        try {
          std::ifstream f(ck);
          return f && json::parse(f)["outcomes"].size() >= 10;
        } catch (...) {
          return false;
        }
      },
      30);
  kill_now(pid);
  ASSERT_TRUE(some) << "no checkpoint with games in 30 s";
  const size_t saved = json::parse(std::ifstream(ck))["outcomes"].size();
  int rc = 0;
  const std::string resumed = run_stdout("arena --resume " + dir + " --json --threads 2", &rc);
  ASSERT_EQ(rc, 0) << resumed;
  EXPECT_EQ(result_of(resumed).dump(), result_of(run_stdout(args + " --threads 2")).dump()) << saved << " games saved";
  EXPECT_EQ(json::parse(std::ifstream(ck))["outcomes"].size(), 3000u);
  // A second run into the same folder is refused; bad resumes say why.
  EXPECT_NE(run(args + " --checkpoint " + dir, &rc).find("--resume"), std::string::npos);
  EXPECT_EQ(rc, 2);
  EXPECT_NE(run("arena --resume " + dir + " --games 5", &rc).find("leave out --games"), std::string::npos);
  EXPECT_NE(run("arena --resume " + dir + "-none", &rc).find("no checkpoint"), std::string::npos);
  fs::remove_all(dir);
}

// A damaged checkpoint (a game number past the run, a value that is not a
// count, too few values) is refused naming the file, the game and what was
// wrong: it once crashed (a game number out of range, or not a number).
TEST(ClusterArena, ADamagedCheckpointIsRefusedNamingTheGameAndWhatIsWrong) {
  const std::string dir = tmpdir("arena-bad-ck");
  int rc = 0;
  run("arena latin --bots greedy,random --games 2 --checkpoint " + dir, &rc);
  ASSERT_EQ(rc, 0);
  const fs::path ck = fs::path(dir) / "arena-checkpoint.json";
  const json good = json::parse(std::ifstream(ck));
  ASSERT_EQ(good["outcomes"].size(), 2u);
  struct Damage {
    std::function<void(json&)> apply;
    std::string says;
  };
  const std::vector<Damage> damages = {
      {[](json& j) { j["outcomes"]["7"] = j["outcomes"]["1"]; }, "game '7': games are numbered 0 to 1"},
      {[](json& j) { j["outcomes"]["x"] = j["outcomes"]["1"]; }, "game 'x': games are numbered 0 to 1"},
      {[](json& j) { j["outcomes"]["1"][3] = -2; }, "game '1': a bot's number of seats must be a whole number"},
      {[](json& j) { j["outcomes"]["1"][2] = 3; }, "game '1': the third value, the number of bots, is 3"},
      {[](json& j) { j["outcomes"]["1"].erase(5), j["outcomes"]["1"].erase(5); },
       "game '1': expected 18 values for 2 bots, found 16"},
      {[](json& j) { j["outcomes"]["0"][0] = "many"; }, "game '0': expected a list of numbers"},
      {[](json& j) { j["outcomes"]["0"][5] = 9; }, "game '0': a bot's share is outside 0 to its seats"},
      {[](json& j) { j["outcomes"] = 3; }, "expected \"outcomes\", an object of games"},
      {[](json& j) { j["settings"]["games"] = -3; }, "games must be from 1 to 100000000, not -3"},
      {[](json& j) { j["settings"]["bot_threads"] = 0; }, "bot_threads must be from 1 to 256, not 0"},
  };
  for (const auto& d : damages) {
    json j = good;
    d.apply(j);
    std::ofstream(ck) << j.dump();
    const std::string out = run("arena --resume " + dir, &rc);
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("bad checkpoint '" + ck.string() + "': " + d.says), std::string::npos) << out;
  }
  std::ofstream(ck) << good.dump();  // the undamaged one still resumes
  run("arena --resume " + dir, &rc);
  EXPECT_EQ(rc, 0);
  fs::remove_all(dir);
}

namespace {
// Every game of a self-play folder: index -> record, checking the manifest.
std::map<int, json> read_selfplay(const std::string& dir, bool replay_each) {
  const json m = json::parse(std::ifstream(fs::path(dir) / "manifest.json"));
  std::map<int, json> games;
  size_t listed = 0;
  for (const auto& sh_entry : m["shards"]) {
    const std::string file = (fs::path(dir) / sh_entry["file"].get<std::string>()).string();
    const ZstdLines z = read_zstd_lines(file);
    EXPECT_EQ(z.valid_bytes, z.file_bytes) << file;
    EXPECT_EQ(z.lines.size(), sh_entry["games"].get<size_t>()) << file;
    for (size_t k = 0; k < z.lines.size(); ++k) {
      const json rec = json::parse(z.lines[k]);
      const int idx = rec["selfplay"]["index"];
      EXPECT_EQ(sh_entry["indices"][k], idx);
      EXPECT_TRUE(games.emplace(idx, rec).second) << "game " << idx << " twice";
      EXPECT_NO_THROW(Session::from_record(rec)) << file << ":" << k;  // replays exactly
      if (replay_each && k < 3) {
        int rc = 0;
        const std::string out = run_stdout("replay " + file + ":" + std::to_string(k) + " --json", &rc);
        EXPECT_EQ(rc, 0) << out;
        EXPECT_TRUE(json::parse(out)["verified"].get<bool>());
      }
    }
    listed += sh_entry["games"].get<size_t>();
  }
  EXPECT_EQ(listed, m["games_written"].get<size_t>());
  return games;
}
}  // namespace

TEST(Selfplay, ShardsDecompressAndReplay) {
  register_all_games();
  const std::string dir = tmpdir("selfplay");
  int rc = 0;
  const std::string out = run("selfplay latin --bots greedy,random --games 24 --threads 2 --seed 4 --out " + dir, &rc);
  ASSERT_EQ(rc, 0) << out;
  const json m = json::parse(std::ifstream(fs::path(dir) / "manifest.json"));
  EXPECT_TRUE(m["complete"].get<bool>());
  EXPECT_EQ(m["settings"]["games"], 24);
  EXPECT_EQ(m["settings"]["bots"], "greedy,random");
  const auto games = read_selfplay(dir, true);
  ASSERT_EQ(games.size(), 24u);
  EXPECT_EQ(games.begin()->first, 0);
  EXPECT_EQ(games.rbegin()->first, 23);
  // How the games fall into the threads' shards depends on timing: take one
  // that holds several.
  std::string shard;
  for (const auto& e : m["shards"])
    if (e["games"].get<int>() >= 2) shard = (fs::path(dir) / e["file"].get<std::string>()).string();
  ASSERT_FALSE(shard.empty()) << m.dump();
  EXPECT_NE(run("replay " + shard, &rc).find("--game K"), std::string::npos);
  EXPECT_EQ(rc, 2);
  EXPECT_EQ(run("replay " + shard + " --game 0 -q", &rc).find("Replay verified") != std::string::npos, true);
  EXPECT_NE(run("replay " + shard + ":999", &rc).find("no game 999"), std::string::npos);
  // Under mpirun: the same games, record for record.
  if (!mpirun(2).empty()) {
    const std::string dir2 = tmpdir("selfplay-mpi");
    const std::string o2 =
        sh(mpirun(2) + exe() + " selfplay latin --bots greedy,random --games 24 --seed 4 --out " + dir2 + " 2>&1", &rc);
    ASSERT_EQ(rc, 0) << o2;
    const auto g2 = read_selfplay(dir2, false);
    ASSERT_EQ(g2.size(), 24u);
    for (const auto& [k, rec] : games) EXPECT_EQ(rec.dump(), g2.at(k).dump()) << k;
    std::set<std::string> ranks;
    const json m2 = json::parse(std::ifstream(fs::path(dir2) / "manifest.json"));
    for (const auto& s : m2["shards"]) ranks.insert(s["file"].get<std::string>().substr(0, 11));
    EXPECT_EQ(ranks.size(), 2u);  // shard-p0-r0, shard-p0-r1
    fs::remove_all(dir2);
  }
  fs::remove_all(dir);
}

// A manifest whose settings skip their options' ranges, or a shard holding a
// game past the run, is refused naming it (a negative count once aborted).
// --json: the run's manifest on stdout (what a script reads), with its path,
// the same as the file; the sentence is left out.
TEST(Selfplay, JsonPrintsTheManifestWithItsPath) {
  const std::string dir = tmpdir("selfplay-json");
  int rc = 0;
  const std::string out = run_stdout("selfplay latin --bots greedy --games 3 --json --out " + dir, &rc);
  ASSERT_EQ(rc, 0) << out;
  const json printed = json::parse(out);
  const fs::path manifest = fs::path(dir) / "manifest.json";
  EXPECT_EQ(printed["manifest"], manifest.string());
  json file = json::parse(std::ifstream(manifest));
  file["manifest"] = manifest.string();
  EXPECT_EQ(printed, file);
  EXPECT_EQ(printed["games_written"], 3);
  EXPECT_TRUE(printed["complete"].get<bool>());
}

TEST(Selfplay, ADamagedRunIsRefusedNamingWhatIsWrong) {
  const std::string dir = tmpdir("selfplay-bad");
  int rc = 0;
  run("selfplay latin --bots greedy --games 5 --out " + dir, &rc);
  ASSERT_EQ(rc, 0);
  const fs::path manifest = fs::path(dir) / "manifest.json";
  const json good = json::parse(std::ifstream(manifest));
  auto resume_with = [&](const std::function<void(json&)>& damage) {
    json m = good;
    m["complete"] = false;
    damage(m);
    std::ofstream(manifest) << m.dump();
    return run("selfplay --resume " + dir, &rc);
  };
  std::string out = resume_with([](json& m) { m["settings"]["games"] = -3; });
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("bad manifest '" + manifest.string() + "': games must be from 1 to 100000000, not -3"),
            std::string::npos)
      << out;
  out = resume_with([](json& m) { m["settings"]["games"] = 3; });  // the shard holds games 0 to 4
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("holds game 3, but the run has games 0 to 2"), std::string::npos) << out;
  {  // a whole line that is not a record (a cut-off one is dropped instead)
    ZstdLineWriter w((fs::path(dir) / "shard-p9-r0-t0.jsonl.zst").string());
    w.write_line("{\"selfplay\": {\"index\": \"x\"}}");
  }
  out = resume_with([](json&) {});
  EXPECT_EQ(rc, 2);
  EXPECT_NE(out.find("shard-p9-r0-t0.jsonl.zst', line 1: not a self-play record with its index"), std::string::npos)
      << out;
  fs::remove(fs::path(dir) / "shard-p9-r0-t0.jsonl.zst");
  out = resume_with([](json&) {});
  EXPECT_EQ(rc, 0) << out;
  fs::remove_all(dir);
}

TEST(Selfplay, ResumeAfterAKillCompletesWithoutDuplicates) {
  register_all_games();
  const std::string dir = tmpdir("selfplay-kill");
  // Enough games that the kill lands mid-run (the first shard's bytes come
  // within a few games); fewer in the sanitizer build, ten times slower.
  const int N = std::getenv("BONEYARD_PROPERTY_GAMES") ? 1000 : 3000;
  const pid_t pid = spawn(exe() + " selfplay latin --bots greedy,random --threads 2 --seed 6 --games " +
                          std::to_string(N) + " --out " + dir);
  const bool some = wait_until(
      [&] {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec))
          if (e.path().extension() == ".zst" && fs::file_size(e.path()) > 2000) return true;
        return false;
      },
      30);
  kill_now(pid);
  ASSERT_TRUE(some) << "no shard written in 30 s";
  const json before = json::parse(std::ifstream(fs::path(dir) / "manifest.json"));
  EXPECT_FALSE(before["complete"].get<bool>());
  int rc = 0;
  const std::string out = run("selfplay --resume " + dir + " --threads 2", &rc);
  ASSERT_EQ(rc, 0) << out;
  const json m = json::parse(std::ifstream(fs::path(dir) / "manifest.json"));
  EXPECT_TRUE(m["complete"].get<bool>());
  EXPECT_EQ(m["parts"], 2);
  EXPECT_EQ(m["games_written"], N);
  const auto games = read_selfplay(dir, false);
  EXPECT_EQ(games.size(), static_cast<size_t>(N));
  EXPECT_EQ(games.rbegin()->first, N - 1);
  EXPECT_NE(run("selfplay latin --bots greedy --games 5 --out " + dir, &rc).find("--resume"), std::string::npos);
  fs::remove_all(dir);
}
