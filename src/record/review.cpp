#include "record/review.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/adapter.h"
#include "dice_dominoes/state.h"
#include "line/solver.h"
#include "line/state.h"
#include "mexican_train/state.h"
#include "texas42/solver.h"
#include "texas42/state.h"

namespace boneyard {

const char* grade_name(Grade g) {
  switch (g) {
    case Grade::Best:
      return "best";
    case Grade::Good:
      return "good";
    case Grade::Inaccuracy:
      return "inaccuracy";
    case Grade::Mistake:
      return "mistake";
    case Grade::Blunder:
      return "blunder";
  }
  return "?";
}

Grade grade_for(double loss, const GradeThresholds& t) {
  constexpr double eps = 1e-9;  // exact values are whole points (or hundredths of a mark)
  if (loss <= eps) return Grade::Best;
  if (loss <= t.good + eps) return Grade::Good;
  if (loss <= t.inaccuracy + eps) return Grade::Inaccuracy;
  if (loss <= t.mistake + eps) return Grade::Mistake;
  return Grade::Blunder;
}

namespace {

using Values = std::vector<std::pair<std::string, double>>;
using Clock = std::chrono::steady_clock;

// The thresholds of docs/bots.md, "Review", one row per unit.
GradeThresholds thresholds_for(const std::string& unit) {
  if (unit == "points") return {5, 10, 20};
  if (unit == "wins") return {0.1, 0.5, 1};
  if (unit == "marks") return {0.1, 0.3, 1};
  if (unit == "pips") return {5, 12, 25};
  return {0.2, 0.5, 1};  // chips
}

template <class G>
const typename G::State* typed(const AnyState& st) {
  const auto* a = dynamic_cast<const GameAdapter<G>*>(&st);
  return a ? &a->state() : nullptr;
}

template <class G>
std::pair<MoveList<typename G::Move, G::kMaxMoves>, std::vector<double>> legal_of(const typename G::State& s,
                                                                                  int seat) {
  std::pair<MoveList<typename G::Move, G::kMaxMoves>, std::vector<double>> r;
  s.legal_moves(seat, r.first);
  r.second.resize(static_cast<size_t>(r.first.size()));
  return r;
}

template <class S, class L>
Values named(const S& s, const L& moves, const std::vector<double>& v, double scale) {
  Values out;
  for (int i = 0; i < moves.size(); ++i) out.emplace_back(s.move_text(moves[i]), v[static_cast<size_t>(i)] * scale);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

// Each legal move's value for `seat`, in the review's unit, best first.
struct Evaluator {
  const GameEntry* entry = nullptr;
  ReviewOptions o;
  uint64_t seed = 0;
  std::unique_ptr<line::Solver> line_exact, line_bounded;
  double exact_ms = 0;  // spent on exact line-game solves so far
  Clock::time_point start = Clock::now();
  std::unique_ptr<texas42::Solver> t42;

  Values operator()(const AnyState& st, int seat, size_t event, bool& bound) {
    bound = false;
    if (const auto* s = typed<line::LineGame>(st)) {
      auto [moves, v] = legal_of<line::LineGame>(*s, seat);
      // Exact, within a time per decision and per hand; past either, the
      // bounded solver: exact within 20 points of the best, a bound below
      // that. The grades are the same either way (a loss over 20 points is
      // a Blunder); only a Blunder's loss becomes "at least".
      const double left = std::min(o.solver_ms, o.hand_exact_ms - exact_ms);
      bool exact = false;
      if (left > 0) {
        if (!line_exact) line_exact = std::make_unique<line::Solver>(18, 0);
        const auto t0 = Clock::now();
        line_exact->set_deadline(t0 + std::chrono::microseconds(static_cast<int64_t>(left * 1000)));
        line_exact->values(*s, seat, moves.span(), v.data());
        exact_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        exact = !line_exact->stopped();
      }
      if (!exact) {
        bound = true;
        if (!line_bounded) line_bounded = std::make_unique<line::Solver>(18, line::Solver::kPimcMargin);
        const double spent = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        const double cap = std::min(o.bounded_ms, o.hand_ms - spent);
        if (cap <= 0) return {};
        line_bounded->set_deadline(Clock::now() + std::chrono::microseconds(static_cast<int64_t>(cap * 1000)));
        line_bounded->values(*s, seat, moves.span(), v.data());
        if (line_bounded->stopped()) return {};  // too hard in the time: not graded
      }
      return named(*s, moves, v, 1);
    }
    if (const auto* s = typed<texas42::Texas42>(st)) {
      if (!t42) t42 = std::make_unique<texas42::Solver>();
      auto [moves, v] = legal_of<texas42::Texas42>(*s, seat);
      t42->values(*s, seat, moves.span(), v.data());
      return named(*s, moves, v, s->rules().scoring == texas42::Scoring::Points ? 42 : 1);
    }
    // The strongest fair bot from the seat's own view, reproducibly: a
    // fixed budget and a seed from the record's seed and the event.
    BotOptions bo;
    bo.iterations = o.iterations;
    auto bot = make_bot(*entry, strongest_fair_bot(*entry), seed ^ (0x9e3779b97f4a7c15ULL * (event + 1)), bo);
    return st.bot_values(seat, *bot);
  }
};

}  // namespace

HandReview review_hand(const nlohmann::json& record, int seat, int hand, const ReviewOptions& o) {
  const auto t0 = Clock::now();
  Session s = Session::start_of_record(record);
  const auto events = Session::record_events(record);
  const int n = s.state().num_seats();
  if (seat < 0 || seat >= n) throw Error(fmt::format("seat {} does not exist; seats are 0..{}", seat, n - 1));
  if (hand < 1) throw Error(fmt::format("hand {} does not exist; hands are numbered from 1", hand));
  HandReview r;
  r.game = s.entry().name;
  r.hand = hand;
  r.seat = seat;
  const auto& probe = s.state();
  if (const auto* ls = typed<line::LineGame>(probe)) {
    r.hands_known = true;
    r.method = "solver";
    r.unit = ls->rules().scoring == line::Scoring::Wins ? "wins" : "points";
  } else if (const auto* ts = typed<texas42::Texas42>(probe)) {
    r.hands_known = true;
    r.method = "solver";
    r.unit = ts->rules().scoring == texas42::Scoring::Points ? "points" : "marks";
  } else {
    r.method = strongest_fair_bot(s.entry());
    r.unit = typed<mexican_train::MexicanTrain>(probe) ? "pips" : "chips";
  }
  r.thresholds = thresholds_for(r.unit);
  // Mexican Train's ismcts reward is a pip difference over 8 x the set's top
  // pip (mexican_train/bots.cpp); Dice & Dominoes' is 2 x won / pot - 1 (the
  // pot is known once the hand is over, below).
  double scale = 1;
  if (const auto* ms = typed<mexican_train::MexicanTrain>(probe)) scale = 8.0 * ms->rules().max_pip();

  Evaluator eval;
  eval.entry = &s.entry();
  eval.o = o;
  eval.seed = s.seed();
  for (size_t k = 0; k < events.size(); ++k) {
    const int done = static_cast<int>(s.state().hands().size());
    if (done >= hand) break;
    const RecordEvent& e = events[k];
    if (done == hand - 1 && !e.chance && e.seat == seat) {
      if (s.state().legal_moves(seat).size() <= 1) {
        ++r.forced;
      } else {
        ReviewedMove m;
        m.event = k;
        m.values = eval(s.state(), seat, k, m.bound);
        if (m.values.empty()) {
          ++r.unsolved;
          s.apply_event(e);
          continue;
        }
        // The record's text is canonical; compare through the game's own parse to be safe.
        auto copy = s.state().clone();
        m.played = copy->apply(seat, e.text);
        m.best = m.values.front().first;
        m.played_words = s.state().move_words(seat, m.played);
        m.best_words = s.state().move_words(seat, m.best);
        m.best_value = m.values.front().second;
        m.played_value = m.best_value;
        for (const auto& [mv, v] : m.values)
          if (mv == m.played) m.played_value = v;
        r.moves.push_back(std::move(m));
      }
    }
    s.apply_event(e);
  }
  const auto& hands = s.state().hands();
  if (static_cast<int>(hands.size()) < hand)
    throw Error(fmt::format("hand {} is not finished: the record has {} finished hand{}", hand, hands.size(),
                            hands.size() == 1 ? "" : "s"));
  if (r.unit == "chips") {
    const auto d = nlohmann::json::parse(hands[static_cast<size_t>(hand - 1)].detail_json, nullptr, false);
    scale = d.is_object() && d.contains("pot") && d["pot"].is_number() ? d["pot"].get<double>() / 2 : 1;
  }
  for (auto& m : r.moves) {
    if (scale != 1) {
      for (auto& [mv, v] : m.values) v *= scale;
      m.best_value *= scale;
      m.played_value *= scale;
    }
    m.loss = std::max(0.0, m.best_value - m.played_value);
    if (m.played == m.best || m.loss <= 1e-9) {  // a move as good as the best is the best
      m.loss = 0;
      m.best = m.played;
      m.best_words = m.played_words;
      m.best_value = m.played_value;
    }
    m.grade = grade_for(m.loss, r.thresholds);
    if (m.loss <= line::Solver::kPimcMargin) m.bound = false;  // within the margin the bounded solver is exact
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

nlohmann::json review_json(const HandReview& r) {
  nlohmann::json moves = nlohmann::json::array();
  for (const auto& m : r.moves) {
    nlohmann::json vals = nlohmann::json::array();
    for (const auto& [mv, v] : m.values) vals.push_back({{"move", mv}, {"value", v}});
    nlohmann::json j = {{"event", m.event},
                        {"played", m.played},
                        {"best", m.best},
                        {"played_value", m.played_value},
                        {"best_value", m.best_value},
                        {"loss", m.loss},
                        {"grade", grade_name(m.grade)},
                        {"values", vals}};
    if (m.bound) j["bound"] = true;
    moves.push_back(std::move(j));
  }
  nlohmann::json counts = nlohmann::json::object();
  for (Grade g : {Grade::Best, Grade::Good, Grade::Inaccuracy, Grade::Mistake, Grade::Blunder})
    counts[grade_name(g)] = 0;
  for (const auto& m : r.moves) counts[grade_name(m.grade)] = counts[grade_name(m.grade)].get<int>() + 1;
  return {{"game", r.game},
          {"hand", r.hand},
          {"seat", r.seat},
          {"hands_known", r.hands_known},
          {"method", r.method},
          {"unit", r.unit},
          {"thresholds",
           {{"good", r.thresholds.good}, {"inaccuracy", r.thresholds.inaccuracy}, {"mistake", r.thresholds.mistake}}},
          {"counts", counts},
          {"forced", r.forced},
          {"unsolved", r.unsolved},
          {"moves", moves},
          {"ms", std::round(r.seconds * 1e4) / 10}};
}

std::string review_text(const HandReview& r) {
  std::string out = fmt::format("Review of seat {}'s moves in hand {} ({}): ", r.seat, r.hand, r.game);
  out += r.hands_known ? "the exact solver, with hands known (the hand is over, so every hand is public).\n"
                       : fmt::format("the {} bot's values from the seat's own view at each move.\n", r.method);
  out += fmt::format(
      "Grades by the value lost against the best move, in {}: best 0, good up to {}, inaccuracy up to {}, "
      "mistake up to {}, blunder more.\n",
      r.unit, r.thresholds.good, r.thresholds.inaccuracy, r.thresholds.mistake);
  if (r.moves.empty()) out += "  No decisions with a choice.\n";
  for (const auto& m : r.moves) {
    out += fmt::format("  event {:>3}  {:<10} played {:<14} best {:<14} lost {:>6.2f}{}\n", m.event,
                       grade_name(m.grade), m.played_words, m.best_words, m.loss, m.bound ? " (at least)" : "");
  }
  if (r.forced) out += fmt::format("  ({} forced move{} not graded.)\n", r.forced, r.forced == 1 ? "" : "s");
  if (r.unsolved)
    out += fmt::format("  ({} decision{} too hard to solve in the time allowed, not graded.)\n", r.unsolved,
                       r.unsolved == 1 ? "" : "s");
  return out;
}

}  // namespace boneyard
