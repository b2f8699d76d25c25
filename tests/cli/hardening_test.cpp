// Hardening (issue 12): user text, protocol lines and records never crash
// the program or wrap numbers; replays check every result; bot budgets.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bots/levels.h"
#include "cli_util.h"
#include "record/protocol.h"
#include "record/session.h"

using namespace boneyard;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using namespace cli_util;

std::string refusal(const json& rec) {
  try {
    Session::from_record(rec);
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

class Hardening : public ::testing::Test {
 protected:
  void SetUp() override { register_all_games(); }
};

}  // namespace

// --- 1. numbers typed at the play prompt -------------------------------------

TEST_F(Hardening, HugeMoveNumberAtThePromptIsRefusedAndTheRecordKept) {
  const std::string dir = fresh_dir("bignum");
  int rc = 0;
  const std::string out = run("play caribbean --seed 3 --seat 0 --record " + dir +
                                  " <<'EOF'\n99999999999999999999\n000000000000000000000000001\n0\nquit\nEOF",
                              &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("no move numbered 99999999999999999999"), std::string::npos) << out;
  EXPECT_EQ(files_in(dir).size(), 1u) << out;
}

// --- 2. punctuation-only moves --------------------------------------------------

const char* kJunkMoves[] = {":",
                            "=",
                            "::",
                            " : ",
                            ",",
                            "/",
                            "-",
                            "|",
                            "[]",
                            "[",
                            "]",
                            ":l",
                            "=:=",
                            "+",
                            ";",
                            "\t",
                            "bid",
                            "bid:",
                            "trump",
                            "t:",
                            "leader",
                            "leader:",
                            "-1",
                            "1e400",
                            "6-",
                            "-6",
                            "6-4:",
                            ":m",
                            "t",
                            "99999999999999999999",
                            "bid 99999999999999999999",
                            "99999999999999999999marks"};
const char* kNeverLegal[] = {":", "=", "::", " : ", ",", "/", "|", "[]", "=:=", ";", "\t"};

// Every game's move parser, at every kind of decision its games reach
// (bids, trumps, tricks, trains, dice rounds), answers junk with an Error.
TEST_F(Hardening, EveryMoveParserRefusesPunctuationInEveryPhase) {
  for (const auto& g : games()) {
    SCOPED_TRACE(g.name);
    Session s(g.name, {}, 11);
    std::vector<std::unique_ptr<AnyBot>> bots;
    for (int k = 0; k < s.state().num_seats(); ++k) bots.push_back(make_bot(g, "random", 5 + static_cast<uint64_t>(k)));
    for (int step = 0; step < 400 && !s.state().terminal(); ++step) {
      const Actor a = s.state().actor();
      if (a.kind == Actor::Chance) {
        s.chance();
        continue;
      }
      for (int k = 0; k < s.state().num_seats(); ++k) {
        if (!a.acts(k)) continue;
        for (const char* junk : kJunkMoves) {
          auto copy = s.state().clone();
          try {
            copy->apply(k, junk);
          } catch (const Error&) {
          }
        }
        for (const char* junk : kNeverLegal) {
          auto copy = s.state().clone();
          EXPECT_THROW(copy->apply(k, junk), Error) << "'" << junk << "'";
        }
        s.bot_move(k, *bots[static_cast<size_t>(k)]);
        if (a.kind == Actor::Seat) break;
      }
    }
  }
}

TEST_F(Hardening, Texas42PunctuationThroughTheProtocol) {
  Protocol p;
  auto ask = [&](const std::string& line) { return json::parse(p.handle(line)); };
  ASSERT_TRUE(ask(R"({"cmd":"new","game":"texas-42","seed":1})")["ok"]);
  for (const char* m : {":", "=", "::", " : "}) {
    const json r = ask(json{{"cmd", "apply"}, {"move", m}}.dump());
    EXPECT_FALSE(r["ok"]) << r.dump();
    EXPECT_NE(r["error"].get<std::string>().find("illegal move"), std::string::npos) << r.dump();
  }
  EXPECT_TRUE(ask(R"({"cmd":"bot","bot":"greedy"})")["ok"]);  // the session goes on
}

TEST_F(Hardening, Texas42PunctuationInARecordIsRefused) {
  Session s = bot_game("texas-42", 4);
  json rec = s.record();
  ASSERT_GT(rec["events"].size(), 10u);
  size_t k = 0;
  while (!rec["events"][k].contains("move")) ++k;
  for (const char* m : {":", "=", "::", " : "}) {
    json bad = rec;
    bad["events"][k]["move"] = m;
    EXPECT_NE(refusal(bad).find(fmt::format("event {}", k)), std::string::npos) << refusal(bad);
    Protocol p;
    const json r = json::parse(p.handle(json{{"cmd", "load"}, {"record", bad}}.dump()));
    EXPECT_FALSE(r["ok"]) << r.dump();
  }
  const std::string dir = fresh_dir("t42colon");
  fs::create_directories(dir);
  json bad = rec;
  bad["events"][k]["move"] = ":";
  write_file(dir + "/bad.json", bad.dump());
  int rc = 0;
  const std::string out = run("replay " + dir + "/bad.json", &rc);
  EXPECT_EQ(rc, 2) << out;
  EXPECT_NE(out.find("illegal move ':'"), std::string::npos) << out;
}

TEST_F(Hardening, Texas42PunctuationAtThePlayPrompt) {
  int rc = 0;
  const std::string out = run("play texas-42 --seed 1 --seat 0 <<'EOF'\n:\n=\n::\n : \nquit\nEOF", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("':' is not a move"), std::string::npos) << out;
}

// --- 3. record fields of the wrong type -----------------------------------------

TEST_F(Hardening, RecordFieldsOfTheWrongTypeAreRefusedByName) {
  Session s = bot_game("latin", 3);
  const json rec = s.record();
  EXPECT_NE(refusal(json{{"format", 1}, {"version", 1}}).find("'format'"), std::string::npos);
  struct Case {
    std::vector<std::string> path;
    json value;
    std::string word;
  };
  const std::vector<Case> cases = {
      {{"format"}, 1, "'format'"},
      {{"format"}, nullptr, "'format'"},
      {{"version"}, "1", "'version'"},
      {{"version"}, 1.0, "'version'"},
      {{"game"}, 7, "'game'"},
      {{"options"}, json::array(), "'options'"},
      {{"options"}, json{{"target", 100}}, "option 'target'"},
      {{"seed"}, "3", "'seed'"},
      {{"seed"}, -3, "'seed'"},
      {{"seed"}, 3.5, "'seed'"},
      {{"players"}, "greedy", "'players'"},
      {{"players"}, json::array({1, 2, 3, 4}), "'players'"},
      {{"events"}, json::object(), "'events'"},
      {{"hands"}, "none", "'hands'"},
      {{"hands", "0"}, 5, "hand 1"},
      {{"hands", "0", "winner_side"}, "0", "winner_side"},
      {{"hands", "0", "side_points"}, "lots", "side_points"},
      {{"result"}, 5, "'result'"},
      {{"result", "over"}, "yes", "'over'"},
      {{"result", "scores"}, "high", "'scores'"},
  };
  for (const auto& c : cases) {
    json bad = rec;
    json* at = &bad;
    for (size_t i = 0; i + 1 < c.path.size(); ++i)
      at = at->is_array() ? &(*at)[std::stoul(c.path[i])] : &(*at)[c.path[i]];
    (at->is_array() ? (*at)[std::stoul(c.path.back())] : (*at)[c.path.back()]) = c.value;
    const std::string why = refusal(bad);
    EXPECT_NE(why.find(c.word), std::string::npos) << c.path.back() << " = " << c.value.dump() << ": " << why;
    EXPECT_EQ(why.rfind("bad record", 0), 0u) << why;
  }
}

TEST_F(Hardening, ReplayAndAnalyzeRefuseANonStringFormat) {
  const std::string dir = fresh_dir("format");
  fs::create_directories(dir);
  write_file(dir + "/r.json", R"({"format":1,"version":1})");
  for (const std::string cmd : {"replay ", "analyze --event 0 "}) {
    int rc = 0;
    const std::string out = run(cmd + dir + "/r.json", &rc);
    EXPECT_EQ(rc, 2) << cmd << out;
    EXPECT_NE(out.find("'format' must be"), std::string::npos) << cmd << out;
  }
}

// --- 5. integers are range- and type-checked ------------------------------------

TEST_F(Hardening, ProtocolIntegersAreCheckedNotWrapped) {
  Protocol p;
  auto ask = [&](const std::string& line) { return json::parse(p.handle(line)); };
  auto error_of = [&](const std::string& line) {
    const json r = ask(line);
    EXPECT_FALSE(r["ok"]) << line << " -> " << r.dump();
    return r.value("error", std::string());
  };
  ASSERT_TRUE(ask(R"({"cmd":"new","game":"latin","seed":3})")["ok"]);
  const int to_move = ask(R"({"cmd":"state"})")["actor"]["seat"];
  const std::string first = ask(R"({"cmd":"legal"})")["legal"][0];
  // 2^32 + seat would wrap to the seat to move.
  const std::string wrapped = std::to_string((uint64_t{1} << 32) + static_cast<uint64_t>(to_move));
  EXPECT_NE(error_of(R"({"cmd":"apply","move":")" + first + R"(","seat":)" + wrapped + "}").find("seat"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"legal","seat":18446744073709551615})").find("seat"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"legal","seat":1.0})").find("seat"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"legal","seat":-1})").find("seat"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"new","game":"latin","seed":1e400})").find("number out of range"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"new","game":"latin","seed":18446744073709551616})").find("'seed'"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"new","game":"latin","seed":2.5})").find("'seed'"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"bot","bot":"ismcts","iterations":1.5})").find("'iterations'"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"bot","bot":"ismcts","iterations":4294967297})").find("'iterations'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"bot","bot":"ismcts","threads":2.5})").find("'threads'"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"bot","bot":"ismcts","think_ms":-1})").find("'think_ms'"), std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"bot","bot":"ismcts","think_ms":"5"})").find("'think_ms'"), std::string::npos);
  EXPECT_EQ(ask(R"({"cmd":"state"})")["actor"]["seat"], to_move);  // nothing was applied
  const json rec = ask(R"({"cmd":"record"})")["record"];
  EXPECT_NE(error_of(json{{"cmd", "load"}, {"record", rec}, {"upto", uint64_t{1} << 32}}.dump()).find("'upto'"),
            std::string::npos);
  EXPECT_NE(error_of(json{{"cmd", "load"}, {"record", rec}, {"upto", -1}}.dump()).find("'upto'"), std::string::npos);
  // Past the record's end is no point of the game (it was taken as the end).
  const size_t events = rec["events"].size();
  EXPECT_TRUE(ask(json{{"cmd", "load"}, {"record", rec}, {"upto", events}}.dump())["ok"]);
  EXPECT_NE(error_of(json{{"cmd", "load"}, {"record", rec}, {"upto", events + 1}}.dump())
                .find(fmt::format("past the record's end: it has {} events", events)),
            std::string::npos);
  EXPECT_NE(error_of(R"({"cmd":"new","game":"latin","id":1e999})").find("number out of range"), std::string::npos);
}

TEST_F(Hardening, RecordSeatsAreCheckedNotWrapped) {
  Session s = bot_game("latin", 3);
  json rec = s.record();
  size_t k = 0;
  while (!rec["events"][k].contains("move")) ++k;
  const int seat = rec["events"][k]["seat"];
  json bad = rec;
  bad["events"][k]["seat"] = (uint64_t{1} << 32) + static_cast<uint64_t>(seat);
  EXPECT_NE(refusal(bad).find("'seat'"), std::string::npos) << refusal(bad);
  bad["events"][k]["seat"] = 1.0 * seat;
  EXPECT_NE(refusal(bad).find("'seat'"), std::string::npos) << refusal(bad);
  EXPECT_THROW(parse_record_text(R"({"format":"boneyard-record","seed":1e400})"), Error);
  try {
    parse_record_text(R"({"seed":1e400})");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("number out of range"), std::string::npos) << e.what();
  }
}

// --- 6. replay checks every hand result and the game result -----------------------

TEST_F(Hardening, TamperedResultsAreRefused) {
  for (const std::string game : {"latin", "texas-42", "mexican-train", "dice-and-dominoes"}) {
    SCOPED_TRACE(game);
    Session s = bot_game(game, 8);
    const json rec = s.record();
    ASSERT_EQ(refusal(rec), "(accepted)");
    auto tampered = [&](auto change, const std::string& word) {
      json bad = rec;
      change(bad);
      const std::string why = refusal(bad);
      EXPECT_NE(why.find(word), std::string::npos) << why;
    };
    tampered([](json& r) { r["result"]["scores"][0] = r["result"]["scores"][0].get<double>() + 1; }, "scores");
    tampered([](json& r) { r["result"]["over"] = false; }, "over");
    tampered([](json& r) { r["result"]["returns"][0] = 0.25; }, "returns");
    tampered([](json& r) { r["result"].erase("returns"); }, "returns");
    tampered([](json& r) { r["hands"][0]["how"] = "magic"; }, "hand 1");
    tampered([](json& r) { r["hands"][0]["side_points"][0] = r["hands"][0]["side_points"][0].get<double>() + 1; },
             "hand 1");
    tampered(
        [](json& r) {
          const json w = r["hands"][0]["winner_side"];
          r["hands"][0]["winner_side"] = w.is_null() ? json(0) : json(w.get<int>() + 0.0);
        },
        "winner_side");
    if (rec["hands"][0].contains("detail")) tampered([](json& r) { r["hands"][0]["detail"]["extra"] = 1; }, "hand 1");
  }
}

// --- 7. the protocol's bot takes each call's budget -------------------------------

TEST_F(Hardening, EveryBotCallGetsItsOwnBudget) {
  // The budget of a call is reported back, and a call gives what a fresh
  // bot with that budget gives, whatever budget earlier calls had.
  int differ = 0;
  for (int seed = 1; seed <= 6; ++seed) {
    Protocol a, b;
    const std::string start = fmt::format(R"({{"cmd":"new","game":"latin","seed":{}}})", seed);
    ASSERT_TRUE(json::parse(a.handle(start))["ok"]);
    ASSERT_TRUE(json::parse(b.handle(start))["ok"]);
    const json first = json::parse(a.handle(R"({"cmd":"bot","bot":"ismcts","iterations":1,"apply":false})"));
    ASSERT_TRUE(first["ok"]) << first.dump();
    EXPECT_EQ(first["budget"]["iterations"], 1) << first.dump();
    const json later = json::parse(a.handle(R"({"cmd":"bot","bot":"ismcts","iterations":3000,"apply":false})"));
    EXPECT_EQ(later["budget"]["iterations"], 3000) << later.dump();
    const json fresh = json::parse(b.handle(R"({"cmd":"bot","bot":"ismcts","iterations":3000,"apply":false})"));
    EXPECT_EQ(later["move"], fresh["move"]) << "seed " << seed;
    differ += first["move"] != fresh["move"];
    const json dflt = json::parse(a.handle(R"({"cmd":"bot","bot":"ismcts","think_ms":5,"apply":false})"));
    EXPECT_EQ(dflt["budget"]["think_ms"], 5) << dflt.dump();
    EXPECT_EQ(dflt["budget"]["iterations"], 0) << dflt.dump();
  }
  EXPECT_GT(differ, 0);  // the budgets do lead to different moves
}

// A level named in a bot request plays the level's own bot and budget (the
// offline app's levels are the server's), reports that budget, and refuses a
// budget of its own instead of dropping it.
TEST_F(Hardening, ALevelPlaysItsOwnBudget) {
  for (const char* game : {"latin", "texas-42", "dice-and-dominoes"}) {
    Protocol a, b;
    const std::string start = fmt::format(R"({{"cmd":"new","game":"{}","seed":5}})", game);
    ASSERT_TRUE(json::parse(a.handle(start))["ok"]);
    ASSERT_TRUE(json::parse(b.handle(start))["ok"]);
    // A simultaneous choice (Dice & Dominoes' lays) names the seat asked for.
    const std::string seat = std::string(game) == "dice-and-dominoes" ? R"(,"seat":0)" : "";
    std::string bot;
    const json games = json::parse(a.handle(R"({"cmd":"games","detail":true})"));
    for (const json& g : games["games"])
      if (g["name"] == game) bot = g["strongest"];
    ASSERT_FALSE(bot.empty());
    const GameEntry& entry = find_game(game);
    for (const char* level : {"strong", "expert"}) {
      const BotOptions want = level_bot(entry, level).options;
      const json got = json::parse(a.handle(fmt::format(R"({{"cmd":"bot","bot":"{}","apply":false{}}})", level, seat)));
      ASSERT_TRUE(got["ok"]) << got.dump();
      EXPECT_EQ(got["budget"]["iterations"], want.iterations) << game << " " << level;
      EXPECT_EQ(got["budget"]["threads"], want.threads) << game << " " << level;
      EXPECT_GT(want.iterations, 0);
      // The same move as the level's bot named with that budget.
      const json same =
          json::parse(b.handle(fmt::format(R"({{"cmd":"bot","bot":"{}","iterations":{},"threads":{},"apply":false{}}})",
                                           bot, want.iterations, want.threads, seat)));
      EXPECT_EQ(got["move"], same["move"]) << game << " " << level;
      const json refused =
          json::parse(a.handle(fmt::format(R"({{"cmd":"bot","bot":"{}","think_ms":150{}}})", level, seat)));
      EXPECT_FALSE(refused["ok"]);
      EXPECT_NE(refused.value("error", "").find("'think_ms'"), std::string::npos) << refused.dump();
      EXPECT_NE(refused.value("error", "").find(bot), std::string::npos) << refused.dump();
    }
    EXPECT_EQ(json::parse(a.handle(
                  fmt::format(R"({{"cmd":"bot","bot":"casual","apply":false{}}})", seat)))["budget"]["iterations"],
              0)
        << game;
  }
}

// Seats named on the command line of replay and analyze are checked (the
// views index arrays by seat).
TEST_F(Hardening, ReplayAndAnalyzeCheckTheirSeat) {
  const std::string dir = fresh_dir("seatarg");
  fs::create_directories(dir);
  write_file(dir + "/r.json", bot_game("dice-and-dominoes", 2).record().dump());
  for (const std::string cmd :
       {"replay -q --seat 4", "replay --seat -2", "analyze --event 3 --seat -3", "analyze --event 3 --seat 4"}) {
    int rc = 0;
    const std::string out = run(cmd + " " + dir + "/r.json", &rc);
    EXPECT_EQ(rc, 2) << cmd << ": " << out;
    EXPECT_NE(out.find("does not exist"), std::string::npos) << cmd << ": " << out;
  }
}

// A setting that would be ignored, or read as "not given", is refused by
// name: --hand 0 reviewed every hand, --review --bot dropped the bot, replay
// --json --step never stepped, --iterations 0 was the bot's own count.
TEST_F(Hardening, ASettingThatWouldBeIgnoredIsRefused) {
  const std::string dir = fresh_dir("ignored");
  fs::create_directories(dir);
  write_file(dir + "/r.json", bot_game("latin", 2).record().dump());
  const std::string r = " " + dir + "/r.json";
  for (const auto& [cmd, said] : std::vector<std::pair<std::string, std::string>>{
           {"analyze" + r + " --review --hand 0", "--hand: 0 is out of range: it takes a whole number from 1"},
           {"analyze" + r + " --hand 1", "--hand requires --review"},
           {"analyze" + r + " --review --bot greedy", "--review and --bot do not go together"},
           {"replay" + r + " --json --step", "do not go together"},
           {"replay" + r + " --json --seat 1", "do not go together"},
           {"arena latin --bots greedy,random --games 1 --iterations 0", "--iterations: 0 is out of range"}}) {
    int rc = 0;
    const std::string out = run(cmd, &rc);
    EXPECT_EQ(rc, 2) << cmd << ": " << out;
    EXPECT_NE(out.find(said), std::string::npos) << cmd << ": " << out;
  }
}

// An arena of one bot shows what it measures (its points per hand), not a
// table of shares that are 1 by definition; a missing part is named alone.
TEST_F(Hardening, AnArenaOfOneBotShowsNoShares) {
  int rc = 0;
  const std::string one = run("arena latin --bots greedy --games 2", &rc);
  EXPECT_EQ(rc, 0) << one;
  EXPECT_NE(one.find("played itself in every seat"), std::string::npos) << one;
  EXPECT_EQ(one.find("game share"), std::string::npos) << one;
  EXPECT_NE(run("arena latin --games 2", &rc).find("arena needs --bots"), std::string::npos);
  EXPECT_NE(run("arena --bots greedy --games 2", &rc).find("arena needs a game:"), std::string::npos);
}

// JSON nested 100000 deep parses, but copying or printing it recursed past
// the stack (the protocol echoes "id"; record errors print the value).
TEST_F(Hardening, DeeplyNestedJsonIsRefusedNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  Protocol p;
  const json r = json::parse(p.handle(R"({"cmd":"help","id":)" + deep + "}"));
  EXPECT_FALSE(r["ok"]);
  EXPECT_NE(r["error"].get<std::string>().find("nested"), std::string::npos) << r.dump();
  EXPECT_TRUE(json::parse(p.handle(R"({"cmd":"help","id":[[["a]]]"]]]})"))["ok"]);  // brackets in strings do not count
  try {
    parse_record_text(R"({"format":"boneyard-record","players":)" + deep + "}");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nested"), std::string::npos) << e.what();
  }
  const std::string dir = fresh_dir("deep");
  fs::create_directories(dir);
  write_file(dir + "/deep.json", R"({"format":)" + deep + "}");
  int rc = 0;
  const std::string out = run("replay " + dir + "/deep.json", &rc);
  EXPECT_EQ(rc, 2) << out;
}

// A field a command does not take is an error naming it, not ignored: a
// "state" with "Seat" for "seat" showed every hand. An unknown command is
// said as such before any game; a NUL in it no longer cuts the message.
TEST_F(Hardening, AFieldACommandDoesNotTakeIsRefusedByName) {
  Protocol p;
  auto ask = [&](const std::string& line) { return json::parse(p.handle(line)); };
  const json before = ask(R"({"cmd":"frobnicate"})");
  EXPECT_NE(before["error"].get<std::string>().find("unknown cmd 'frobnicate'"), std::string::npos) << before;
  ASSERT_TRUE(ask(R"({"cmd":"new","game":"latin","seed":3,"id":7})")["ok"]);
  const json typo = ask(R"({"cmd":"state","Seat":1})");
  EXPECT_FALSE(typo["ok"]);
  EXPECT_FALSE(typo.contains("view")) << typo;
  EXPECT_EQ(typo["error"], "'state' takes no field 'Seat'; its fields: seat");
  EXPECT_EQ(ask(R"({"cmd":"render","seet":1})")["error"], "'render' takes no field 'seet'; its fields: seat");
  EXPECT_EQ(ask(R"({"cmd":"result","seat":1})")["error"], "'result' takes no field 'seat'; it takes none");
  EXPECT_EQ(ask(R"({"cmd":"he\u0000lp"})")["error"], R"(unknown cmd 'he?lp'; send {"cmd":"help"} for the list)");
  EXPECT_TRUE(ask(R"({"cmd":"state","seat":1,"id":"x"})")["ok"]);  // "id" goes with every command
  // An unknown game's name is shown cut short too (a megabyte came back whole).
  const json big = ask(R"({"cmd":"new","game":")" + std::string(1u << 20, 'x') + R"("})");
  EXPECT_LT(big["error"].get<std::string>().size(), 1000u);  // the name cut, the list of games whole
  EXPECT_NE(big["error"].get<std::string>().find("unknown game 'xxxx"), std::string::npos) << big.dump().substr(0, 200);
}

// A request line past 16 MiB is refused and skipped, not held (a 300 MB line
// took 1.2 GB); the session goes on.
TEST_F(Hardening, AnOverlongProtocolLineIsSkipped) {
  const std::string dir = fresh_dir("long-line");
  fs::create_directories(dir);
  write_file(dir + "/in.txt", R"({"cmd":"help","id":")" + std::string(17u << 20, 'a') + "\"}\n{\"cmd\":\"help\"}\n");
  int rc = 0;
  const std::string out = run("engine < " + dir + "/in.txt", &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_NE(out.find("a request may be at most 16777216 (16 MiB): it was skipped"), std::string::npos)
      << out.substr(0, 300);
  EXPECT_NE(out.find("\"commands\""), std::string::npos) << out.substr(0, 300);
}

// A front door's address is an IP address: anything else is refused at the
// start with what was expected, never taken as a name nobody connects from.
TEST(ServeOptions, ATrustedProxyThatIsNotAnIpAddressIsRefused) {
  int rc = 0;
  const std::string out = run("serve --port 0 --db /nonexistent/x.db --trusted-proxy front-door", &rc);
  EXPECT_NE(rc, 0) << out;
  EXPECT_NE(out.find("'front-door' is not an IP address"), std::string::npos) << out;
}
