// Issue 22, point 1: what the terminal shows a seat, and what the protocol
// answers for a seat, holds no tile that seat may not know at that moment.
// Whole games of every family are played in-process with a person at one
// seat (typing moves, board, hint and help) or watching as one seat; after
// every step the text printed since the last one is scanned for tiles that
// the full view has and the seat's view has not (the other hands, the
// boneyard, tiles laid face down). The server's secrecy test, for the
// terminal and the protocol.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "cli/common.h"
#include "cli/play.h"
#include "core/text.h"
#include "record/protocol.h"

namespace {

using namespace boneyard;
using nlohmann::json;

// "6-4", "[6|4]", "4|6", "12-4:T2": every tile named in a text, as "high-low".
std::set<std::string> tiles_in(const std::string& text) {
  static const std::regex tile(R"((^|[^0-9.+\-])(\d{1,2})[-|](\d{1,2})(?![0-9.]))");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tile); it != std::sregex_iterator(); ++it) {
    const int a = std::stoi((*it)[2]), b = std::stoi((*it)[3]);
    out.insert(std::to_string(std::max(a, b)) + "-" + std::to_string(std::min(a, b)));
  }
  return out;
}

void strings_of(const json& j, std::string& out) {
  if (j.is_string())
    out += " " + j.get<std::string>() + " ";
  else if (j.is_array() || j.is_object())
    for (const auto& x : j) strings_of(x, out);
}

std::set<std::string> tiles_in(const json& view) {
  std::string all;
  strings_of(view, all);
  return tiles_in(all);
}

// Tiles the full view holds that `seat`'s view does not: what it may not know.
std::set<std::string> secret_for(const AnyState& st, int seat) {
  const auto known = tiles_in(st.view(seat));
  std::set<std::string> out;
  for (const auto& t : tiles_in(st.view(-1)))
    if (!known.count(t)) out.insert(t);
  return out;
}

// The draw for the lead (draw_before_deal) is public: everyone saw the
// tiles turned up before they went back for the deal. The text that tells
// it is left out of the scan (the view does not list those tiles).
std::string without_lead_draw(const std::string& text) {
  static const std::regex draw(R"(draw for the lead \((?:[^()]|\([^()]*\))*\))");
  return std::regex_replace(text, draw, "draw for the lead");
}

struct Leak {
  std::string tile, where;
};

// Plays one game at the terminal and returns every secret tile printed.
std::vector<Leak> terminal_leaks(const std::string& game, const std::vector<std::string>& options, uint64_t seed,
                                 int seat, bool watch, int* steps) {
  cli::PlayConfig c;
  c.name = game;
  c.options = options;
  c.seed = seed;
  c.seat = seat;
  c.seat_given = true;
  c.watch = watch;
  c.pace = 0;
  c.budget.iterations = 2;
  std::string input;
  for (int i = 0; i < 6; ++i) input += "board\nhint\nhelp\n#1\n";
  for (int i = 0; i < 4000; ++i) input += i % 97 == 5 ? "hint\n#1\n" : "#1\n";
  std::istringstream in(input);
  std::ostringstream out;
  Session s(game, cli::parse_options(options), seed);
  auto bots = cli::seat_bots(c, s);
  std::vector<Leak> leaks;
  size_t hands_seen = 0;
  cli::Terminal io{in, out, [](double) {}, 60, nullptr};
  const std::string help = wrap_text(cli::help_text(s.entry()), 60);
  io.on_step = [&](const Session& now, std::string printed) {
    ++*steps;
    // The help's examples name tiles as examples, not as news.
    for (size_t p = printed.find(help); p != std::string::npos; p = printed.find(help)) printed.erase(p, help.size());
    auto secret = secret_for(now.state(), seat);
    // A hand that ended in this step is shown whole: its summary is public.
    for (; hands_seen < now.state().hands().size(); ++hands_seen)
      for (const auto& t : tiles_in(now.state().hands()[hands_seen].text)) secret.erase(t);
    for (const auto& t : tiles_in(without_lead_draw(printed)))
      if (secret.count(t)) leaks.push_back({t, printed});
  };
  cli::play_game(c, s, bots, nullptr, io);
  EXPECT_TRUE(s.state().terminal() || watch) << game << ": the scripted game did not end\n"
                                             << out.str().substr(out.str().size() > 3000 ? out.str().size() - 3000 : 0);
  return leaks;
}

struct Case {
  std::string game;
  std::vector<std::string> options;
};

const std::vector<Case> kCases = {
    {"latin", {"target=60"}},        {"two-draw", {"target=40"}},      {"jamaica", {"target=2"}},
    {"mexican-train", {"rounds=2"}}, {"texas-42", {"target_marks=2"}}, {"dice-and-dominoes", {"hands=2"}},
};

TEST(Secrecy, TerminalShowsASeatOnlyWhatItMayKnow) {
  register_all_games();
  for (const auto& cs : kCases)
    for (int seat : {0, 1})
      for (bool watch : {false, true}) {
        int steps = 0;
        const auto leaks = terminal_leaks(cs.game, cs.options, 7 + static_cast<uint64_t>(seat), seat, watch, &steps);
        EXPECT_GT(steps, 10) << cs.game;
        for (const auto& l : leaks)
          ADD_FAILURE() << cs.game << (watch ? " --watch" : "") << " seat " << seat << " was shown " << l.tile
                        << ", which it may not know, in:\n"
                        << l.where;
      }
}

// The protocol: every answer to a request for one seat (state, render,
// legal, values) names only tiles that seat's view holds.
TEST(Secrecy, ProtocolAnswersForASeatHoldOnlyItsTiles) {
  register_all_games();
  for (const auto& cs : kCases) {
    Protocol p;
    json opts = json::object();
    for (const auto& o : cs.options) opts[o.substr(0, o.find('='))] = o.substr(o.find('=') + 1);
    json r = json::parse(p.handle(json{{"cmd", "new"}, {"game", cs.game}, {"seed", 11}, {"options", opts}}.dump()));
    ASSERT_TRUE(r.value("ok", false)) << r;
    int checked = 0;
    for (int guard = 0; guard < 5000; ++guard) {
      const json all = json::parse(p.handle(R"({"cmd":"state"})"));
      const json actor = all["actor"];
      if (all.value("terminal", false) || actor.value("kind", "") == "terminal") break;
      std::vector<int> seats;
      if (actor.contains("seats"))
        for (const auto& k : actor["seats"]) seats.push_back(k.get<int>());
      else if (actor.contains("seat") && actor["seat"].is_number())
        seats.push_back(actor["seat"].get<int>());
      if (seats.empty()) {
        p.handle(R"({"cmd":"chance"})");
        continue;
      }
      for (int k : seats) {
        const json mine = json::parse(p.handle(json{{"cmd", "state"}, {"seat", k}}.dump()));
        const auto known = tiles_in(mine["view"]);
        std::set<std::string> secret;
        for (const auto& t : tiles_in(all["view"]))
          if (!known.count(t)) secret.insert(t);
        const bool value_now = guard % 25 == 0;
        std::vector<std::string> answers = {p.handle(json{{"cmd", "render"}, {"seat", k}}.dump()),
                                            p.handle(json{{"cmd", "legal"}, {"seat", k}}.dump())};
        if (value_now) answers.push_back(p.handle(json{{"cmd", "values"}, {"seat", k}, {"iterations", 2}}.dump()));
        for (const auto& a : answers) {
          ++checked;
          for (const auto& t : tiles_in(without_lead_draw(a)))
            if (secret.count(t))
              ADD_FAILURE() << cs.game << ": an answer for seat " << k << " names " << t << ": " << a;
        }
      }
      for (int k : seats) p.handle(json{{"cmd", "bot"}, {"bot", "random"}, {"seat", k}}.dump());
    }
    EXPECT_GT(checked, 20) << cs.game;
  }
}

}  // namespace
