// Registers Texas 42 by name.
#include "bots/register.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "bots/review_solver.h"
#include "core/adapter.h"
#include "core/playout.h"
#include "texas42/bots.h"
#include "texas42/register.h"
#include "texas42/solver.h"

namespace boneyard::texas42 {

namespace {

// What the moves look like and mean, one paragraph a line (the rules:
// ../shared/rules/), for `play`'s help.
const char* kHelp =
    "Bidding: type 30 to 42 (the points your team promises to take of the 42) or pass. Once someone has "
    "bid 42 (1 mark), 84 bids 2 marks, 126 3 marks and so on: your team must then take every trick.\n"
    "While bidding a bare number is a bid amount only: 30 means bid 30, 84 means 2 marks (42 points a mark); "
    "29 is no bid. To pick from the list by its number, type # first: #14. A bid of 42 or of marks asks you "
    "to confirm, however it is typed. After the bidding a bare number picks from the list again, except "
    "0 to 6 while naming trumps, which is asked back: type fives for fives, or #6 for the sixth move.\n"
    "Trumps: the declarer names them: blanks, ones, twos, threes, fours, fives or sixes, doubles, or "
    "follow-me (no trumps). A trump leads trumps, a double its number, any other tile its higher "
    "number; follow the suit led if you can. '*' marks the tiles you may play.\n"
    "Count: 5-5 and 6-4 10 points each, 5-0, 4-1 and 3-2 5 each, 1 a trick: 42 in all. A made bid scores "
    "1 mark (a marks bid its marks); a set gives them to the other team.\n";

bool points(const AnyState& st) {
  const auto* s = typed_state<Texas42>(st);
  return s && s->rules().scoring == Scoring::Points;
}

// What the solver's values mean (pimc, omniscient).
std::string value_unit(const AnyState& st) {
  if (points(st)) return "points for your side this hand";
  bool bidding = false;
  for (int k = 0; k < st.num_seats(); ++k)
    if (st.actor().acts(k))
      for (const auto& m : st.legal_moves(k)) bidding |= m.rfind("bid:", 0) == 0;
  // The solver's bidding model weighs a set of your own side's bid
  // (solver.h, kSetWeight): a pass is 0, and a bid is worth more only when
  // it is made in most sampled deals.
  if (bidding)
    return fmt::format(
        "marks for your side this hand as the bidding bot weighs them: a made bid +1 a mark, a set of your "
        "side's bid counts {:g} times its marks (it costs one mark; the weight keeps the bot from bidding "
        "on a coin flip), a pass 0; plus a hundredth of (points taken - points given) to break ties",
        Solver::kSetWeight);
  // The solver's value (solver.h): marks, and the points difference / 100
  // to break ties, so a set hand reads -1 + 0.20 when its side still took
  // 20 points more than it gave: said, or that -0.80 reads as no mark value.
  return "marks for your side this hand (a made bid +1, a set -1), plus a hundredth of (points taken - points "
         "given) to break ties";
}

}  // namespace

void register_games() {
  GameEntry e;
  e.name = "texas-42";
  e.family = "texas-42";
  e.summary = "Texas 42: partnership trick-taking with bids, trumps, count and marks";
  e.sources = "source document 004 (the 42 Dominoes app, with the footnote's house rules)";
  e.describe = [] {
    return nlohmann::json{
        {"options", to_json(Rules{})}, {"catalogue", option_catalogue()}, {"explain", option_explanations()}};
  };
  e.make = [](const OptionList& o, uint64_t seed) -> std::unique_ptr<AnyState> {
    return std::make_unique<GameAdapter<Texas42>>("texas-42", State(make_rules(o), seed));
  };
  e.bots = {"random", "greedy"};
  e.make_bot = [](std::string_view bot, uint64_t seed) -> std::unique_ptr<AnyBot> {
    if (bot == "greedy") return std::make_unique<GreedyBot>(seed);
    return std::make_unique<RandomBot<Texas42>>(seed);
  };
  add_search_bots<Texas42>(e);
  // Hints keep pimc (its values are the exact solver's points); the levels
  // play ismcts, as strong as pimc at its default count in a fifteenth of
  // the time and far stronger at equal time (docs/bots.md, issue 37).
  e.level_bot = "ismcts";
  // pimc as it bid before issue 23 (auction ignored), for measuring.
  e.search_bots.push_back("pimc-plain");
  e.make_search_bot = [search = e.make_search_bot](std::string_view bot, uint64_t seed,
                                                   const BotOptions& o) -> std::unique_ptr<AnyBot> {
    if (bot == "pimc-plain") return std::make_unique<PlainPimcBot>(seed, o);
    return search(bot, seed, o);
  };
  e.bench = [](const OptionList& o, uint64_t seed, double seconds) {
    return bench_random_playouts<Texas42>(State(make_rules(o), seed), seed, seconds);
  };
  e.help = kHelp;
  e.value_unit = value_unit;
  e.review_unit = [](const AnyState& st) { return points(st) ? "points" : "marks"; };
  // The solver's values are fractions of the hand's 42 points (or marks).
  e.review_solver.sampled = [](const AnyState& st, int seat, uint64_t seed, int samples,
                               std::vector<std::string>& names, std::vector<std::vector<double>>& out,
                               std::chrono::steady_clock::time_point deadline) {
    sampled_solver_values<Texas42>(st, seat, seed, samples, names, out, deadline, points(st) ? 42 : 1);
  };
  e.review_solver.face_up = [](const FaceUpBudget&) {
    auto solver = std::make_shared<Solver>();
    return [solver](const AnyState& st, int seat, bool& bound) -> ReviewSolver::Values {
      bound = false;
      const auto* s = typed_state<Texas42>(st);
      if (!s) return {};
      auto [moves, v] = legal_values<Texas42>(*s, seat);
      solver->values(*s, seat, moves.span(), v.data());
      return named_values(*s, moves, v, s->rules().scoring == Scoring::Points ? 42 : 1);
    };
  };
  e.partnership = [](const nlohmann::json&) { return true; };
  register_game(std::move(e));
}

}  // namespace boneyard::texas42
