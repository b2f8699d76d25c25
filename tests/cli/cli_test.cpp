// Front-ends: records round-trip for every game, the protocol answers every
// line, and the executable's subcommands work end to end.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "core/env.h"
#include "record/protocol.h"
#include "record/session.h"

using namespace boneyard;
using nlohmann::json;

using cli_util::bot_game;
using cli_util::run;

namespace {}  // namespace

class Records : public ::testing::Test {
 protected:
  void SetUp() override { register_all_games(); }
};

TEST_F(Records, EveryGameRoundTripsThroughItsRecord) {
  std::set<std::string> families;
  for (const auto& g : games()) {
    const bool first_of_family = families.insert(g.family).second;
    const int n = first_of_family ? 20 : 3;  // every preset, more for one of each family
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE(g.name);
      Session s = bot_game(g.name, 100 + static_cast<uint64_t>(i), "greedy");
      const json rec = s.record();
      const json back = parse_record_text(rec.dump());
      Session r = Session::from_record(back);
      ASSERT_TRUE(r.state().terminal());
      EXPECT_EQ(r.state().scores(), s.state().scores());
      EXPECT_EQ(r.state().returns(), s.state().returns());
      EXPECT_EQ(r.record()["events"], rec["events"]);
      EXPECT_EQ(r.record()["hands"], rec["hands"]);
    }
  }
  EXPECT_GE(families.size(), 1u);
}

TEST_F(Records, BrokenRecordsAreRefusedWithAReason) {
  Session s = bot_game("latin", 3, "greedy");
  json rec = s.record();
  auto refused = [](const json& j, const std::string& word) {
    try {
      Session::from_record(j);
      ADD_FAILURE() << "accepted a broken record";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  };
  json a = rec;
  a["format"] = "chess";
  refused(a, "format");
  json b = rec;
  b.erase("seed");
  refused(b, "seed");
  json c = rec;
  c["events"][5]["move"] = "9-9";
  refused(c, "event 5");
  json d = rec;
  d["hands"][0]["side_points"] = json::array({999, 0});
  refused(d, "hand 1");
  json e = rec;
  e["game"] = "checkers";
  refused(e, "unknown game");
  json f = rec;
  f["events"].erase(f["events"].size() - 1);
  refused(f, "hands");
  EXPECT_THROW(parse_record_text("{not json"), Error);
}

TEST(Protocol, EveryBadLineGetsAnErrorAndTheSessionGoesOn) {
  Protocol p;
  auto ask = [&](const std::string& line) { return json::parse(p.handle(line)); };
  EXPECT_FALSE(ask("garbage")["ok"]);
  EXPECT_FALSE(ask("[1,2]")["ok"]);
  EXPECT_FALSE(ask(R"({"cmd":"legal"})")["ok"]);  // no game yet
  EXPECT_FALSE(ask(R"({"cmd":"new","game":"nope"})")["ok"]);
  EXPECT_FALSE(ask(R"({"cmd":"new","game":"latin","options":{"target":"x"}})")["ok"]);
  EXPECT_FALSE(ask(R"({"cmd":"new","game":"latin","seed":-4})")["ok"]);
  json r = ask(
      R"({"cmd":"new","game":"caribbean","options":{"hand_size":"2"},"deal":"deal 1-0 2-0 / 5-5 5-4 / 3-3 3-2 / 6-1 4-4","id":7})");
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["id"], 7);
  EXPECT_EQ(r["actor"]["seat"], 1);
  EXPECT_EQ(ask(R"({"cmd":"legal"})")["legal"], json::array({"5-5"}));
  json bad = ask(R"({"cmd":"apply","move":"5-4"})");
  EXPECT_FALSE(bad["ok"]);
  EXPECT_NE(bad["error"].get<std::string>().find("5-5"), std::string::npos);
  EXPECT_FALSE(ask(R"({"cmd":"apply","move":"5-5","seat":2})")["ok"]);  // not seat 2's turn
  EXPECT_TRUE(ask(R"({"cmd":"apply","move":"[5|5]"})")["ok"]);
  json view = ask(R"({"cmd":"state","seat":2})")["view"];
  EXPECT_TRUE(view["hands"][0]["tiles"].is_null());  // seat 2 cannot see seat 0's tiles
  EXPECT_FALSE(view["hands"][2]["tiles"].is_null());
  json bot = ask(R"({"cmd":"bot","bot":"greedy"})");
  EXPECT_TRUE(bot["ok"]) << bot.dump();
  json rec = ask(R"({"cmd":"record"})")["record"];
  json loaded = ask(json{{"cmd", "load"}, {"record", rec}}.dump());
  EXPECT_TRUE(loaded["ok"]) << loaded.dump();
  EXPECT_EQ(loaded["events"], rec["events"].size());
  EXPECT_FALSE(ask(R"({"cmd":"load","record":{"format":"x"}})")["ok"]);
  EXPECT_TRUE(ask(R"({"cmd":"quit"})")["ok"]);
  EXPECT_TRUE(p.quit());
}

// A finished hand names the next leader in hands_over, result and the record
// (spec line-games.md: What the engine exposes).
TEST(Protocol, FinishedHandsNameTheNextLeader) {
  Protocol p;
  register_all_games();
  auto ask = [&](const std::string& line) { return json::parse(p.handle(line)); };
  json r =
      ask(R"({"cmd":"new","game":"latin","options":{"hand_size":"1"},"deal":"deal 6-6 / 5-5 / 4-4 / 3-3 leader 2"})");
  ASSERT_TRUE(r["ok"]) << r.dump();
  r = ask(R"({"cmd":"apply","move":"4-4"})");  // seat 2 goes out; latin rotates the lead
  ASSERT_TRUE(r["ok"]) << r.dump();
  ASSERT_EQ(r["hands_over"].size(), 1u) << r.dump();
  const json want{{"how", "rotate"}, {"seat", 3}};
  EXPECT_EQ(r["hands_over"][0]["next_leader"], want) << r.dump();
  EXPECT_EQ(r["hands_over"][0]["detail"]["next_leader"], want);
  EXPECT_EQ(ask(R"({"cmd":"result"})")["hands"][0]["next_leader"], want);
  EXPECT_EQ(ask(R"({"cmd":"record"})")["record"]["hands"][0]["next_leader"], want);
}

TEST(Protocol, SimultaneousAndChanceWithoutAutoChance) {
  Protocol p;
  register_all_games();
  bool has_dice = false;
  for (const auto& g : games()) has_dice |= g.name == "dice-and-dominoes";
  json r = json::parse(p.handle(R"({"cmd":"new","game":"latin","auto_chance":false})"));
  EXPECT_EQ(r["actor"]["kind"], "chance");
  r = json::parse(p.handle(R"({"cmd":"chance"})"));
  EXPECT_TRUE(r["ok"]);
  EXPECT_EQ(r["actor"]["kind"], "seat");
  if (!has_dice) GTEST_SKIP() << "dice-and-dominoes not built";
  r = json::parse(p.handle(R"({"cmd":"new","game":"dice-and-dominoes","seed":4})"));
  ASSERT_TRUE(r["ok"]) << r.dump();
  ASSERT_EQ(r["actor"]["kind"], "simultaneous");
  r = json::parse(p.handle(R"({"cmd":"legal"})"));
  EXPECT_TRUE(r["legal_by_seat"].is_object());
}

TEST(Cli, HelpRulesBenchArenaReplay) {
  int rc = 0;
  EXPECT_NE(run("--help", &rc).find("arena"), std::string::npos);
  EXPECT_EQ(rc, 0);
  // A usage line says the command a person types, subcommand and all.
  EXPECT_NE(run("--help").find("Usage: boneyard [OPTIONS] SUBCOMMAND"), std::string::npos);
  EXPECT_NE(run("play --help").find("Usage: boneyard play [OPTIONS] name"), std::string::npos);
  int seat_rc = 0;
  const std::string seat = run("play latin --seat x", &seat_rc);
  EXPECT_EQ(seat_rc, 2);
  EXPECT_NE(seat.find("--seat: 'x' is not a whole number"), std::string::npos) << seat;
  // Its values in a person's words: a number and its range, a choice of words.
  const std::string arena_help = run("arena --help"), serve_help = run("serve --help");
  EXPECT_NE(arena_help.find("--games N (1 to 100000000)"), std::string::npos) << arena_help;
  EXPECT_NE(serve_help.find("--sync full|normal=full"), std::string::npos) << serve_help;
  for (const std::string& h : {arena_help, serve_help})
    for (const char* code : {"INT", "FLOAT", "TEXT:"}) EXPECT_EQ(h.find(code), std::string::npos) << code << "\n" << h;
  const std::string rules = run("rules", &rc);
  EXPECT_EQ(rc, 0);
  for (const char* p : {"latin", "dominican-patio", "three-21", "four-individual", "[Dp]"})
    EXPECT_NE(rules.find(p), std::string::npos) << p;
  const json rj = json::parse(run("rules --json"));
  EXPECT_GE(rj.size(), 24u);
  run("rules nosuchgame", &rc);
  EXPECT_NE(rc, 0);
  const json bench = json::parse(run("bench latin --seconds 0.2 --json", &rc));
  EXPECT_EQ(rc, 0);
  EXPECT_GT(bench[0]["hands_per_second"].get<double>(), 1000);
  EXPECT_GT(bench[0]["hands_per_second_cpu"].get<double>(), 1000);
  // A bad option is an error, not a crash in a playing thread.
  const std::string bad = run("bench latin --threads 2 --seconds 0.1 -o target=abc", &rc);
  EXPECT_EQ(rc, 2) << bad;
  EXPECT_NE(bad.find("bad value 'abc' for option target"), std::string::npos) << bad;
  const std::string dir = std::filesystem::temp_directory_path() / "boneyard-cli-test";
  std::filesystem::remove_all(dir);
  const json arena =
      json::parse(run("arena latin --bots greedy,random --games 40 --threads 2 --json --record " + dir, &rc));
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(arena["games"], 40);
  EXPECT_NEAR(arena["bots"][0]["win_share"].get<double>() + arena["bots"][1]["win_share"].get<double>(), 1.0, 1e-9);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    if (files == 1) {
      const std::string out = run("replay --quiet " + e.path().string(), &rc);
      EXPECT_EQ(rc, 0) << out;
      EXPECT_NE(out.find("Replay verified"), std::string::npos);
      const json j = json::parse(run("replay --json " + e.path().string()));
      EXPECT_TRUE(j["verified"].get<bool>());
    }
  }
  EXPECT_EQ(files, 40);
  // Threads do not change results: the same seed gives the same figures.
  const json one = json::parse(run("arena latin --bots greedy,random --games 20 --seed 9 --json"));
  const json two = json::parse(run("arena latin --bots greedy,random --games 20 --seed 9 --threads 2 --json"));
  EXPECT_EQ(one["bots"], two["bots"]);
}

// An entry of --bots may think at its own budget (a match at odds of time):
// `ismcts@30` plays as ismcts at --iterations 30 does, whatever the common
// budget, and only a search bot takes one.
TEST(Cli, AnEntryMayThinkAtItsOwnBudget) {
  const auto bots = [](const std::string& args) {
    json j = json::parse(run("arena latin --games 3 --seed 5 --json " + args));
    for (auto& b : j["bots"]) b.erase("bot");
    return j["bots"];
  };
  const json own = bots("--bots ismcts@30,random");
  EXPECT_EQ(own, bots("--bots ismcts,random --iterations 30"));
  EXPECT_EQ(own, bots("--bots ismcts@30,random --iterations 400"));  // its own wins over the common one
  EXPECT_NE(own, bots("--bots ismcts,random --iterations 400"));     // which does play otherwise
  // Two budgets of one bot are two entries, named as listed.
  const json odds = json::parse(run("arena latin --bots ismcts@2ms,ismcts@20 --games 1 --duplicate --json"));
  ASSERT_EQ(odds["bots"].size(), 2u);
  EXPECT_EQ(odds["bots"][0]["bot"], "ismcts@2ms");
  EXPECT_EQ(odds["bots"][1]["bot"], "ismcts@20");
  EXPECT_EQ(odds["timing"][0]["bot"], "ismcts@2ms");
  for (const auto& [list, said] : std::vector<std::pair<std::string, std::string>>{
           {"greedy@20ms,random", "'greedy@20ms': only a search bot of latin (pimc, ismcts"},
           {"strong@5,random", "'strong@5': only a search bot of latin"},
           {"ismcts@0,random", "'ismcts@0': after @ comes the bot's own budget, milliseconds a decision from 1"},
           {"ismcts@,random", "'ismcts@': after @ comes"},
           {"ismcts@2x0ms,random", "'ismcts@2x0ms': after @ comes"},
           {"ismcts@-5,random", "'ismcts@-5': after @ comes"},
           {"ismcts@3600001ms,random", "'ismcts@3600001ms': after @ comes"},
           {"ismcts@99999999999999999999,random", "after @ comes"}}) {
    int rc = 0;
    const std::string out = run("arena latin --games 1 --bots " + list, &rc);
    EXPECT_NE(rc, 0) << list;
    EXPECT_NE(out.find(said), std::string::npos) << list << ": " << out;
  }
}

TEST(Cli, BadInputGetsClearErrors) {
  int rc = 0;
  std::string out = run("arena latin --bots greedy,wizard --games 2", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("unknown bot 'wizard'"), std::string::npos) << out;
  out = run("arena latin --bots greedy --games 2 --option hand_size=9", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("impossible options"), std::string::npos) << out;
  out = run("play latin --option target", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("key=value"), std::string::npos) << out;
  out = run("replay /nonexistent/file.json", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("cannot read"), std::string::npos) << out;
}

// A usage error reads as the program's own ("boneyard: ..."), says where the
// help is and exits 2, as other tools do (CLI11's own exits were 105 to 109);
// a misspelt subcommand is named as such, with the subcommands there are.
TEST(Cli, UsageErrorsNameTheProblemAndExitTwo) {
  int rc = 0;
  std::string out = run("frob", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(out.rfind("boneyard: 'frob' is not a subcommand; they are: rules, play, arena", 0), 0u) << out;
  EXPECT_NE(out.find("Run `boneyard --help`"), std::string::npos) << out;
  out = run("", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(out.rfind("boneyard: say what to do, one of: rules, play", 0), 0u) << out;
  // A missing game and a word too many, in a person's words.
  out = run("play", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(out.rfind("boneyard: which game? Put its name after the command (`boneyard rules` lists them)", 0), 0u)
      << out;
  out = run("play latin --bogus", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(out.rfind("boneyard: '--bogus' is not understood here: no such option", 0), 0u) << out;
  out = run("play latin jamaica", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(out.rfind("boneyard: 'jamaica' is not understood here: more words than the command takes", 0), 0u) << out;
  out = run("arena latin --bots greedy --games abc", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_EQ(out.rfind("boneyard: ", 0), 0u) << out;
  EXPECT_NE(out.find("--games"), std::string::npos) << out;
  EXPECT_NE(out.find("Run `boneyard arena --help`"), std::string::npos) << out;
  // A bad number in a person's words (what is wrong with it, and the range
  // as numbers are written ("0 to 60", not "0.000000 to 60.000000").
  for (const auto& [args, said] : std::vector<std::pair<std::string, std::string>>{
           {"arena latin --games abc", "--games: 'abc' is not a number: it takes a whole number from 1 to 100000000"},
           {"arena latin --games 2.5", "--games: 2.5 is not a whole number: it takes a whole number from 1 to"},
           {"arena latin --threads 0", "--threads: 0 is out of range: it takes a whole number from 1 to 256"},
           {"arena latin --threads 99999999999999999999", "--threads: 99999999999999999999 is out of range"},
           {"arena latin --threads nan", "--threads: 'nan' is not a number"},
           {"arena latin --games 1e3", "--games: write 1e3 in digits only (1000): it takes a whole number from 1 to"},
           {"play latin --watch=maybe", "--watch: 'maybe' is not yes or no (write --watch alone for yes)\n"},
           {"serve --port -5", "--port: '-5' is not a whole number of 0 or more\n"},
           {"play latin --pace 99", "--pace: 99 is out of range: it takes a number from 0 to 60\n"},
           {"play latin --pace 1", "--pace requires --watch\n"},
           {"play latin --step", "--step requires --watch\n"},
           {"bench --seconds", "--seconds: a value is missing: a number from 0.05 to 600\n"}}) {
    out = run(args, &rc);
    EXPECT_EQ(rc, 2) << out;
    EXPECT_EQ(out.rfind("boneyard: " + said, 0), 0u) << args << "\n" << out;
  }
  out = run("bench --nope", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find("--nope"), std::string::npos) << out;
  EXPECT_NE(out.find("Run `boneyard bench --help`"), std::string::npos) << out;
  // The help states the defaults and where the bots' names are.
  out = run("arena --help", &rc);
  EXPECT_EQ(rc, 0) << out;
  for (const char* said : {"deal sets; default 100)", "Games played at once (default 1)",
                           "beginner, casual, strong, expert", "`boneyard rules GAME` lists them"})
    EXPECT_NE(out.find(said), std::string::npos) << said << "\n" << out;
  EXPECT_NE(run("bench --help").find("Seconds per game (default 2)"), std::string::npos);
  // The engine answers each request once; a blank line is none (docs/protocol.md).
  out = run("engine <<'EOF'\n\n   \n{\"cmd\":\"help\"}\n\nEOF\n", &rc);  // EOF alone on its line
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

// An arena of one bot compares seats, not bots: said (a run may mean that).
TEST(Cli, OneBotArenaSaysItComparesSeats) {
  int rc = 0;
  const std::string out = run("arena latin --bots greedy --games 2", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("Note: every seat plays greedy, so the shares below compare seats, not bots"), std::string::npos)
      << out;
  EXPECT_EQ(run("arena latin --bots greedy,random --games 2").find("Note:"), std::string::npos);
}

TEST(Cli, PlayAPersonsGameFromStdin) {
  // A person at seat 0 types junk, a bad tile, help, then quits.
  int rc = 0;
  const std::string out = run("play caribbean --seed 3 --seat 0 <<'EOF'\nzzz\n9-9\nhelp\nquit\nEOF", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("Your moves:"), std::string::npos) << out;
  EXPECT_NE(out.find("'zzz' is not a move"), std::string::npos) << out;
  const std::string watch = run("play latin --watch --seed 5", &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_NE(watch.find("Game over"), std::string::npos);
  // Watching simultaneous play: every round's reveal is shown.
  const std::string dd = run("play dice-and-dominoes --watch --seed 2 -o hands=1", &rc);
  EXPECT_EQ(rc, 0) << dd;
  EXPECT_NE(dd.find("Round 1: match points"), std::string::npos) << dd;
  EXPECT_NE(dd.find("Round 2: match points"), std::string::npos) << dd;
}

// The record file arena wrote for game k.
std::string record_of(const std::string& dir, int k) {
  const std::string tail = "-g" + std::to_string(k) + ".json";
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string p = e.path().string();
    if (p.size() > tail.size() && p.compare(p.size() - tail.size(), tail.size(), tail) == 0) return p;
  }
  return dir + "/missing" + tail;
}

// Duplicate play: each deal set is played once per seating with the same
// deals; the bots change seats; Elo is antisymmetric for two bots.
TEST(Cli, DuplicateArenaSharesDealsAndRatesBots) {
  int rc = 0;
  const std::string dir = std::filesystem::temp_directory_path() / "boneyard-dup-test";
  std::filesystem::remove_all(dir);
  const json a = json::parse(run("arena latin --bots greedy,random --games 6 --duplicate --json --record " + dir, &rc));
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(a["seatings"], 2);
  EXPECT_EQ(a["deal_sets"], 6);
  EXPECT_EQ(a["games"], 12);
  EXPECT_NEAR(a["bots"][0]["elo"].get<double>(), -a["bots"][1]["elo"].get<double>(), 1e-9);
  EXPECT_GT(a["bots"][0]["elo"].get<double>(), 0);  // greedy over random
  auto first_deal = [&](int game) {
    std::ifstream f(record_of(dir, game));
    const json rec = json::parse(f);
    for (const auto& e : rec["events"])
      if (e.contains("chance")) return e["chance"].get<std::string>();
    return std::string();
  };
  auto players = [&](int game) {
    std::ifstream f(record_of(dir, game));
    return json::parse(f)["players"];
  };
  ASSERT_TRUE(std::filesystem::exists(record_of(dir, 0)));
  EXPECT_EQ(first_deal(0), first_deal(1));  // one deal set: the same deal
  EXPECT_NE(first_deal(0), first_deal(2));  // the next set: another
  EXPECT_EQ(players(0)[0], "greedy");
  EXPECT_EQ(players(1)[0], "random");  // the partnerships' hands swapped
  // Three individual players: three seatings.
  const json t = json::parse(run("arena three-draw --bots greedy,random,random --games 2 --duplicate --json", &rc));
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(t["seatings"], 3);
  EXPECT_EQ(t["bots"].size(), 2u);  // per bot name
  // One bot in one seat against another in two: shares are per seat (per
  // side), and with one deal set the head-to-head share is exactly the
  // bot's share per seat against the other's (at equal strength 0.5, not
  // the 1/3 a per-game ratio would give).
  const json one = json::parse(run("arena three-draw --bots greedy,random,random --games 1 --duplicate --json", &rc));
  const json& g = one["bots"][0];
  const json& r = one["bots"][1];
  const double ws = g["win_share"].get<double>() + r["win_share"].get<double>();
  ASSERT_GT(ws, 0);
  EXPECT_NEAR(g["head_to_head"].get<double>(), g["win_share"].get<double>() / ws, 1e-9);
  const double sides = g["hand_share"].get<double>() + 2 * r["hand_share"].get<double>();
  EXPECT_LE(sides, 1 + 1e-9);  // the three sides' shares of the hands won
}

// Hints and analysis: every legal move valued by the strongest fair bot.
TEST(Cli, AnalyzeAndProtocolValues) {
  register_all_games();  // the registry is asked directly below
  int rc = 0;
  const std::string dir = std::filesystem::temp_directory_path() / "boneyard-analyze-test";
  std::filesystem::remove_all(dir);
  run("arena latin --bots greedy,random --games 1 --json --record " + dir, &rc);
  const std::string rec = record_of(dir, 0);
  // By default the coach's expected values (deals consistent with the
  // seat's view, each solved), exactly those of the review's line for this
  // decision at the same budget; any fair search bot may be named instead.
  const json rv = json::parse(run("analyze " + rec + " --review --hand 1 --iterations 6 --json", &rc));
  ASSERT_EQ(rc, 0) << rv.dump();
  ASSERT_FALSE(rv["reviews"][0]["moves"].empty()) << rv.dump();
  const json& decision = rv["reviews"][0]["moves"][0];  // seat 0's first choice
  const json a = json::parse(
      run(fmt::format("analyze {} --event {} --seat 0 --iterations 6 --json", rec, decision["event"].get<int>()), &rc));
  EXPECT_EQ(rc, 0) << a.dump();
  EXPECT_EQ(a["method"], "sampled solver");
  EXPECT_EQ(a["samples"], 6);
  EXPECT_FALSE(a.contains("bot"));
  ASSERT_EQ(decision["values"].size(), a["moves"].size()) << decision.dump() << a.dump();
  for (size_t i = 0; i < a["moves"].size(); ++i) {
    EXPECT_EQ(decision["values"][i]["move"], a["moves"][i]["move"]);
    EXPECT_DOUBLE_EQ(decision["values"][i]["value"].get<double>(), a["moves"][i]["value"].get<double>());
  }
  // Each gap's standard error, as the text's "give or take" (the JSON had none); the review's, at its best move.
  EXPECT_EQ(a["noise_se"], 2);
  EXPECT_EQ(a["moves"][0]["se"], 0.0);
  for (const auto& m : a["moves"]) EXPECT_GE(m["se"].get<double>(), 0.0) << a.dump();
  for (size_t i = 0; i < a["moves"].size(); ++i) {
    if (a["moves"][i]["move"] == decision["played"] && i > 0) {
      EXPECT_DOUBLE_EQ(a["moves"][i]["se"].get<double>(), decision["se"].get<double>()) << a.dump();
    }
  }
  const json ap = json::parse(run("analyze " + rec + " --event 6 --bot pimc --iterations 2 --json", &rc));
  EXPECT_EQ(rc, 0) << ap.dump();
  EXPECT_EQ(ap["bot"], "pimc");
  for (const json* x : {&a, &ap}) {
    ASSERT_FALSE((*x)["moves"].empty());
    for (size_t i = 1; i < (*x)["moves"].size(); ++i)
      EXPECT_GE((*x)["moves"][i - 1]["value"].get<double>(), (*x)["moves"][i]["value"].get<double>());  // best first
  }
  std::string out = run("analyze " + rec + " --event 100000", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("out of range"), std::string::npos) << out;
  out = run("analyze " + rec + " --event 6 --bot omniscient", &rc);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find("fair bot"), std::string::npos) << out;

  Protocol p;
  auto ask = [&](const std::string& line) { return json::parse(p.handle(line)); };
  ASSERT_TRUE(ask(R"({"cmd":"new","game":"latin","seed":3})")["ok"]);
  const json legal = ask(R"({"cmd":"legal"})")["legal"];
  const json v = ask(R"({"cmd":"values","iterations":100})");
  ASSERT_TRUE(v["ok"]) << v.dump();
  EXPECT_EQ(v["moves"].size(), legal.size());
  const json w = ask(R"({"cmd":"values","bot":"ismcts","iterations":50})");
  EXPECT_EQ(w["bot"], "ismcts");
  EXPECT_FALSE(ask(R"({"cmd":"values","bot":"omniscient"})")["ok"]);
  EXPECT_FALSE(ask(R"({"cmd":"values","iterations":"many"})")["ok"]);
}
