// boneyard analyze RECORD --event N: every legal move's value at one point
// of a recorded game, from one seat's view, by the strongest fair bot.
// boneyard analyze RECORD --review: every finished hand's moves graded
// (record/review.h, the same review the server gives the app).
#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/common.h"
#include "cli/record_file.h"
#include "core/text.h"
#include "record/review.h"
#include "record/session.h"

namespace boneyard::cli {

namespace {

struct AnalyzeConfig {
  std::string file;
  static constexpr int kNoEvent = std::numeric_limits<int>::min();
  int event = kNoEvent;
  int seat = -1;
  bool review = false;
  int hand = 0;
  std::string bot;
  bool json = false;
  BotOptions budget;
};

// The events after which some seat has a decision, as ranges: "1-13, 15-27".
// seat >= 0: only the events where that seat decides.
std::string decision_events(const nlohmann::json& rec, const std::vector<RecordEvent>& events, int seat = -1) {
  Session s = Session::start_of_record(rec);
  std::vector<std::pair<size_t, size_t>> r;
  for (size_t k = 0;; ++k) {
    const Actor a = s.state().actor();
    if ((a.kind == Actor::Seat || a.kind == Actor::Simultaneous) && (seat < 0 || a.acts(seat))) {
      if (!r.empty() && r.back().second + 1 == k)
        r.back().second = k;
      else
        r.push_back({k, k});
    }
    if (k == events.size()) break;
    s.apply_event(events[k]);
  }
  std::string out;
  for (const auto& [a, b] : r)
    out += (out.empty() ? "" : ", ") + (a == b ? std::to_string(a) : fmt::format("{}-{}", a, b));
  return out.empty() ? "none" : out;
}

// --review: every finished hand (or --hand K), every seat (or --seat N).
void run_review(const AnalyzeConfig& c, const nlohmann::json& rec) {
  const Session full = Session::from_record(rec);
  const int n = full.state().num_seats();
  const int hands = static_cast<int>(full.state().hands().size());
  if (c.seat < -1 || c.seat >= n) throw Error(fmt::format("--seat {} does not exist; seats are 0..{}", c.seat, n - 1));
  if (hands == 0) throw Error(fmt::format("the record '{}' has no finished hand to review", c.file));
  if (c.hand < 0 || c.hand > hands)
    throw Error(fmt::format("--hand {} does not exist: the record has {} finished hand{} (1..{})", c.hand, hands,
                            hands == 1 ? "" : "s", hands));
  // The coach's budget, as for --event: the same decision gets the same values.
  ReviewOptions o = coach_options(c.budget);
  o.face_up = true;
  nlohmann::json all = nlohmann::json::array();
  // A review with a big budget takes minutes: a bar on a terminal, one step
  // a seat's hand, cleared while each review is printed.
  Progress bar("Reviewing", static_cast<uint64_t>((c.hand ? 1 : hands) * (c.seat >= 0 ? 1 : n)));
  uint64_t done = 0;
  bar.update(0);
  for (int h = 1; h <= hands; ++h) {
    if (c.hand && h != c.hand) continue;
    for (int seat = 0; seat < n; ++seat) {
      if (c.seat >= 0 && seat != c.seat) continue;
      const HandReview r = review_hand(rec, seat, h, o);
      bar.finish();
      if (c.json)
        all.push_back(review_json(r));
      else
        std::cout << wrap_text(review_text(r), terminal_width()) << "\n" << std::flush;
      bar.update(++done);
    }
  }
  bar.finish();
  if (c.json) std::cout << nlohmann::json{{"game", full.entry().name}, {"reviews", all}}.dump(2) << "\n";
}

void run_analyze(const AnalyzeConfig& c) {
  const nlohmann::json rec = read_record(c.file);
  Session::start_of_record(rec);  // the header first: "not a Boneyard record" before "missing events"
  const auto events = Session::record_events(rec);
  if (c.review) {
    run_review(c, rec);
    return;
  }
  if (c.event == AnalyzeConfig::kNoEvent)
    throw Error("name the point to analyse with --event N, or review the finished hands with --review");
  if (c.event < 0 || c.event > static_cast<int>(events.size()))
    throw Error(fmt::format("--event {} is out of range: the record has {} events (0..{})", c.event, events.size(),
                            events.size()));
  Session::from_record(rec);  // the whole record checked first, as replay checks it (a tampered result is refused)
  Session s = Session::from_record(rec, c.event);
  const AnyState& st = s.state();
  const Actor a = st.actor();
  if (c.seat < -1 || c.seat >= st.num_seats())
    throw Error(fmt::format("--seat {} does not exist; seats are 0..{}", c.seat, st.num_seats() - 1));
  int seat = c.seat;
  if (seat < 0) {
    if (a.kind == Actor::Chance || a.kind == Actor::Terminal)
      throw Error(fmt::format(
          "after event {} nobody has a decision ({}); events that can be analysed: {}", c.event,
          a.kind == Actor::Chance ? "a chance event comes next: a deal, a draw or dice" : "the game is over",
          decision_events(rec, events)));
    if (a.kind != Actor::Seat)
      throw Error(
          fmt::format("after event {} no single seat is to move ({}); name one with --seat", c.event, to_string(a)));
    seat = a.seat;
  }
  if (!a.acts(seat))
    throw Error(fmt::format("after event {} seat {} has no decision to make ({}); its events that can be analysed: {}",
                            c.event, seat, to_string(a), decision_events(rec, events, seat)));
  const GameEntry& g = s.entry();
  const std::string played = c.event < static_cast<int>(events.size()) &&
                                     !events[static_cast<size_t>(c.event)].chance &&
                                     events[static_cast<size_t>(c.event)].seat == seat
                                 ? events[static_cast<size_t>(c.event)].text
                                 : "";
  const int width = terminal_width();
  // A search with a big budget takes a while: said on a terminal until its
  // values are ready (cleared before anything is printed).
  auto busy = [&](auto&& work) {
    const bool tty = isatty(STDERR_FILENO);
    if (tty) std::cerr << fmt::format("Analysing event {} for seat {}…", c.event, seat) << std::flush;
    auto result = work();
    if (tty) std::cerr << "\r\033[K" << std::flush;
    return result;
  };
  if (c.bot.empty()) {
    // The coach's expected values, as the review and the hints give them
    // (the review's seed for this decision: the same numbers as its line).
    const uint64_t seed = review_seed(s.seed(), static_cast<size_t>(c.event));
    if (c.json) {
      const ExpectedValues ev = busy([&] { return expected_values(st, seat, seed, coach_options(c.budget)); });
      nlohmann::json moves = nlohmann::json::array();
      // Each move's gap to the first has its standard error ("se", as the text's "give or take"):
      // the gap is too close to call within noise_se of them.
      for (size_t i = 0; i < ev.moves.size(); ++i)
        moves.push_back(
            {{"move", ev.moves[i].first}, {"value", ev.moves[i].second}, {"se", i < ev.se.size() ? ev.se[i] : 0.0}});
      nlohmann::json out = {{"game", g.name},      {"event", c.event},     {"seat", seat},
                            {"method", ev.method}, {"unit", ev.unit},      {"samples", ev.samples},
                            {"rows", ev.rows},     {"noise_se", kNoiseSe}, {"moves", moves}};
      if (!played.empty()) out["played"] = played;
      std::cout << out.dump(2) << "\n";
      return;
    }
    const std::string hint = busy([&] { return hint_text(st, seat, g, c.budget, seed); });
    std::cout << wrap_text(st.render(seat), width) << "\n";
    std::cout << wrap_text(fmt::format("After event {} of {}, seat {} to decide.\n", c.event, events.size(), seat),
                           width);
    std::cout << wrap_text(hint, width);
    if (!played.empty())
      std::cout << wrap_text(fmt::format("The record plays: {}\n", st.move_words(seat, played)), width);
    return;
  }
  const std::string name = c.bot;
  auto bot = make_bot(g, name, values_bot_seed(s.seed(), seat), c.budget);
  if (bot->omniscient())
    throw Error(fmt::format("'{}' sees every hand; analysis is from one seat's view: use a fair bot", name));
  if (c.json) {
    const auto values = busy([&] { return st.bot_values(seat, *bot); });
    nlohmann::json moves = nlohmann::json::array();
    for (const auto& [m, v] : values) moves.push_back({{"move", m}, {"value", v}});
    nlohmann::json out = {{"game", g.name}, {"event", c.event}, {"seat", seat}, {"bot", name}, {"moves", moves}};
    if (values.empty()) out["choice"] = st.ask_bot(seat, *bot);
    if (!played.empty()) out["played"] = played;
    std::cout << out.dump(2) << "\n";
    return;
  }
  const std::string values =
      busy([&] { return move_values_text(st, seat, g, c.budget, name, values_bot_seed(s.seed(), seat)); });
  std::cout << wrap_text(st.render(seat), width) << "\n";
  std::cout << wrap_text(fmt::format("After event {} of {}, seat {} to decide.\n", c.event, events.size(), seat),
                         width);
  std::cout << wrap_text(values, width);
  if (!played.empty())
    std::cout << wrap_text(fmt::format("The record plays: {}\n", st.move_words(seat, played)), width);
}

}  // namespace

void add_analyze(CLI::App& app) {
  auto* cmd = app.add_subcommand("analyze",
                                 "Every legal move's expected value at one point of a recorded game, from what one "
                                 "seat could see; or the review of "
                                 "every finished hand");
  auto c = std::make_shared<AnalyzeConfig>();
  cmd->add_option("file", c->file,
                  "Record file (JSON), as written by play/arena --record; FILE:K, the K-th game (from 0) of a "
                  "self-play shard")
      ->required();
  cmd->add_option("--event", c->event, "Analyse the position after this many events of the record (0: the start)");
  auto* review = cmd->add_flag(
      "--review", c->review,
      "Grade every move of each finished hand by the expected value it lost from what its seat could see "
      "(docs/bots.md, Review): deals consistent with the seat's view, each solved exactly, for the line games "
      "and Texas 42; the strongest fair bot's values for the others. Face-up values come as a separate line");
  cmd->add_option("--hand", c->hand, "With --review: only this hand (1-based; default: every finished hand)")
      ->check(CLI::Range(1, 1000000))
      ->needs(review);
  cmd->add_option("--seat", c->seat,
                  "The seat whose view and decision to analyse (default: the seat to move; with --review: every seat)");
  cmd->add_option("--bot", c->bot,
                  "With --event: this fair bot's own values instead of the coach's expected values (docs/bots.md)")
      ->excludes(review);  // the review grades by the coach's values alone
  cmd->add_flag("--json", c->json, "Machine-readable output");
  add_bot_budget(cmd, c->budget);
  cmd->callback([c] {
    if (c->review && c->event != AnalyzeConfig::kNoEvent)
      throw Error("--review grades whole hands; it takes no --event");
    run_analyze(*c);
  });
}

}  // namespace boneyard::cli
