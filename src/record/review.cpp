#include "record/review.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "bots/pimc.h"
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

Grade fair_grade(double loss, double se, const GradeThresholds& t) {
  return grade_for(std::max(0.0, loss - kNoiseSe * se), t);
}

namespace {

using Values = std::vector<std::pair<std::string, double>>;
using Clock = std::chrono::steady_clock;

// The thresholds of docs/bots.md, "Review", one row per unit.
GradeThresholds thresholds_for(const std::string& unit) {
  // points recalibrated for the fair grades (docs/bots.md, "Review"): the
  // sampled values' noise is discounted first, so smaller bands.
  if (unit == "points") return {2, 5, 15};
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

// The solver a fair review uses per game: exact within the pimc margin of
// each deal's best move (a move further below gets a bound, which only
// makes its loss smaller: the grade stays on the player's side).
template <class G>
bool sampled_of(const AnyState& st, int seat, uint64_t seed, int samples, std::vector<std::string>& names,
                std::vector<std::vector<double>>& out, Clock::time_point deadline) {
  const auto* s = typed<G>(st);
  if (!s) return false;
  auto [moves, v] = legal_of<G>(*s, seat);
  names.clear();
  for (int i = 0; i < moves.size(); ++i) names.push_back(s->move_text(moves[i]));
  // Only the seat's observation goes in: the hidden tiles cannot leak.
  const auto obs = s->observe(seat);
  Rng rng(seed);
  thread_local std::unique_ptr<typename G::Solver> solver;
  if (!solver) solver = std::make_unique<typename G::Solver>();
  out.clear();
  for (int k = 0; k < samples; ++k) {
    const typename G::State deal = G::sample(obs, rng);
    if constexpr (HasDeadline<typename G::Solver>) solver->set_deadline(deadline);
    solver->values(deal, seat, moves.span(), v.data());
    if constexpr (HasDeadline<typename G::Solver>) {
      const bool stopped = solver->stopped();
      solver->set_deadline(Clock::time_point::max());
      if (stopped) break;
    }
    out.push_back(v);
  }
  return true;
}

// Each legal move's value for `seat`, in the review's unit, best first.
struct Evaluator {
  ReviewOptions o;
  std::unique_ptr<line::Solver> line_exact, line_bounded;
  double exact_ms = 0;  // spent on exact line-game solves so far
  Clock::time_point start = Clock::now();
  std::unique_ptr<texas42::Solver> t42;

  Values operator()(const AnyState& st, int seat, bool& bound) {
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
        if (!line_exact) line_exact = std::make_unique<line::Solver>(16, 0);
        const auto t0 = Clock::now();
        line_exact->set_deadline(t0 + std::chrono::microseconds(static_cast<int64_t>(left * 1000)));
        line_exact->values(*s, seat, moves.span(), v.data());
        exact_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        exact = !line_exact->stopped();
      }
      if (!exact) {
        bound = true;
        if (!line_bounded) line_bounded = std::make_unique<line::Solver>(16, line::Solver::kPimcMargin);
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
    return {};  // no exact solver: no face-up line
  }
};

// The review's unit for a game (docs/bots.md, "Review").
std::string unit_of(const AnyState& st) {
  if (const auto* ls = typed<line::LineGame>(st)) return ls->rules().scoring == line::Scoring::Wins ? "wins" : "points";
  if (const auto* ts = typed<texas42::Texas42>(st))
    return ts->rules().scoring == texas42::Scoring::Points ? "points" : "marks";
  return typed<mexican_train::MexicanTrain>(st) ? "pips" : "chips";
}

// One decision's values, in the review's unit: per[k][i] is move i's value
// in sampled deal k, or one row of the strongest fair bot's values (seeded
// by `seed`, from the seat's own view). Empty where the time cap struck.
void decision_values(const AnyState& st, int seat, uint64_t seed, const ReviewOptions& o, Clock::time_point deadline,
                     std::vector<std::string>& names, std::vector<std::vector<double>>& per) {
  names.clear();
  per.clear();
  if (sampled_values(st, seat, seed, o.samples, names, per, deadline)) return;
  const GameEntry& entry = find_game(st.game());
  BotOptions bo;
  bo.iterations = o.iterations;
  bo.think_ms = o.think_ms;
  // Mexican Train's ismcts reward is a pip difference over 8 x the set's top
  // pip (mexican_train/bots.cpp); Dice & Dominoes' is 2 x won / pot - 1, and
  // the pot stays the same through the hand.
  double scale = 1;
  if (const auto* ms = typed<mexican_train::MexicanTrain>(st)) scale = 8.0 * ms->rules().max_pip();
  if (const auto* ds = typed<dice_dominoes::DiceDominoes>(st)) scale = ds->pot() / 2.0;
  // Independent runs of the bot (seeds apart): one run's values carry no
  // error of their own, and over seeds one move's value ranged wider than
  // the grade bands (issue 36, 1). Each run is a row, as a sampled deal is,
  // so the means and the paired standard errors are computed the same way.
  for (int run = 0; run < kBotRuns; ++run) {
    const uint64_t run_seed = run == 0 ? seed : seed ^ (0xd1b54a32d192ed03ULL * static_cast<uint64_t>(run));
    auto bot = make_bot(entry, strongest_fair_bot(entry), run_seed, bo);
    const auto v = st.bot_values(seat, *bot);
    if (v.empty()) break;
    if (names.empty())
      for (const auto& mv : v) names.push_back(mv.first);  // the first run's order, then by name
    std::vector<double> row(names.size(), 0);
    for (const auto& [mv, x] : v)
      row[static_cast<size_t>(std::find(names.begin(), names.end(), mv) - names.begin())] = x * scale;
    per.push_back(std::move(row));
  }
}

// Each move's mean over the rows, in one order, so that the review and
// expected_values give the same numbers to the last bit.
std::vector<double> means(const std::vector<std::vector<double>>& per, size_t nm) {
  std::vector<double> mean(nm, 0);
  for (const auto& row : per)
    for (size_t i = 0; i < nm; ++i) mean[i] += row[i] / static_cast<double>(per.size());
  return mean;
}

// Each move's standard error of its gap to the best move (index `best`),
// paired over the rows: the same deals (or runs) value both moves, so their
// common luck cancels. 0 with one row (no estimate).
std::vector<double> gap_se(const std::vector<std::vector<double>>& per, const std::vector<double>& mean, size_t best) {
  std::vector<double> se(mean.size(), 0);
  const size_t ns = per.size();
  if (ns < 2) return se;
  for (size_t i = 0; i < mean.size(); ++i) {
    double ss = 0;
    for (const auto& row : per) {
      const double d = row[best] - row[i] - (mean[best] - mean[i]);
      ss += d * d;
    }
    se[i] = std::sqrt(ss / static_cast<double>(ns - 1) / static_cast<double>(ns));
  }
  return se;
}

Clock::time_point cap_from_now(double ms) {
  return ms >= 1e8 ? Clock::time_point::max()
                   : Clock::now() + std::chrono::microseconds(static_cast<int64_t>(ms * 1000));
}

}  // namespace

ReviewOptions coach_options(const BotOptions& budget) {
  ReviewOptions o;
  if (budget.iterations > 0) {
    o.samples = o.iterations = budget.iterations;
    o.fair_ms = o.fair_hand_ms = 1e9;  // no clock: a seed gives the same values on any machine
  }
  if (budget.think_ms > 0) o.fair_ms = o.fair_hand_ms = o.think_ms = budget.think_ms;  // a time wins
  o.face_up = false;
  return o;
}

uint64_t review_seed(uint64_t game_seed, size_t event) { return game_seed ^ (0x9e3779b97f4a7c15ULL * (event + 1)); }

ExpectedValues expected_values(const AnyState& st, int seat, uint64_t seed, const ReviewOptions& o) {
  if (o.samples < 1) throw Error(fmt::format("samples {} is not allowed; expected at least 1", o.samples));
  if (seat < 0 || seat >= st.num_seats())
    throw Error(fmt::format("seat {} does not exist; seats are 0..{}", seat, st.num_seats() - 1));
  ExpectedValues r;
  const bool solved = typed<line::LineGame>(st) || typed<texas42::Texas42>(st);
  r.method = solved ? "sampled solver" : strongest_fair_bot(find_game(st.game()));
  r.unit = unit_of(st);
  if (!st.actor().acts(seat)) return r;
  std::vector<std::string> names;
  std::vector<std::vector<double>> per;
  decision_values(st, seat, seed, o, cap_from_now(o.fair_ms), names, per);
  if (solved) r.samples = static_cast<int>(per.size());
  r.rows = static_cast<int>(per.size());
  if (per.empty()) return r;
  const std::vector<double> mean = means(per, names.size());
  std::vector<size_t> order(names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return mean[a] > mean[b]; });
  const std::vector<double> se = gap_se(per, mean, order[0]);
  for (size_t i : order) {
    r.moves.emplace_back(names[i], mean[i]);
    r.se.push_back(se[i]);
  }
  return r;
}

bool sampled_values(const AnyState& st, int seat, uint64_t seed, int samples, std::vector<std::string>& names,
                    std::vector<std::vector<double>>& out, Clock::time_point deadline) {
  if (sampled_of<line::LineGame>(st, seat, seed, samples, names, out, deadline)) return true;
  if (sampled_of<texas42::Texas42>(st, seat, seed, samples, names, out, deadline)) {
    if (typed<texas42::Texas42>(st)->rules().scoring == texas42::Scoring::Points)
      for (auto& row : out)
        for (auto& x : row) x *= 42;  // the solver's fraction of the hand's 42 points
    return true;
  }
  return false;
}

HandReview review_hand(const nlohmann::json& record, int seat, int hand, const ReviewOptions& o) {
  const auto t0 = Clock::now();
  Session s = Session::start_of_record(record);
  const auto events = Session::record_events(record);
  const int n = s.state().num_seats();
  if (seat < 0 || seat >= n) throw Error(fmt::format("seat {} does not exist; seats are 0..{}", seat, n - 1));
  if (hand < 1) throw Error(fmt::format("hand {} does not exist; hands are numbered from 1", hand));
  if (o.samples < 1) throw Error(fmt::format("samples {} is not allowed; expected at least 1", o.samples));
  HandReview r;
  r.game = s.entry().name;
  r.hand = hand;
  r.seat = seat;
  const bool line_game = typed<line::LineGame>(s.state()) != nullptr;
  const bool solved = line_game || typed<texas42::Texas42>(s.state()) != nullptr;
  r.unit = unit_of(s.state());
  r.method = solved ? "sampled solver" : strongest_fair_bot(s.entry());
  if (solved) r.samples = o.samples;
  if (!solved) r.runs = kBotRuns;
  r.thresholds = thresholds_for(r.unit);

  Evaluator eval;
  eval.o = o;
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
        // The record's text is canonical; compare through the game's own parse to be safe.
        auto copy = s.state().clone();
        m.played = copy->apply(seat, e.text);
        std::vector<std::string> names;
        std::vector<std::vector<double>> per;  // [sample][move]
        const double spent = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        const double cap = std::min(o.fair_ms, o.fair_hand_ms - spent);
        if (cap > 0 || !solved)
          decision_values(s.state(), seat, review_seed(s.seed(), k), o, cap_from_now(cap), names, per);
        if (per.empty()) {
          ++r.unsolved;
          s.apply_event(e);
          continue;
        }
        if (solved) m.samples = static_cast<int>(per.size());
        const size_t nm = names.size(), ns = per.size();
        const std::vector<double> mean = means(per, nm);
        size_t best = 0, played = 0;
        for (size_t i = 0; i < nm; ++i) {
          if (mean[i] > mean[best]) best = i;
          if (names[i] == m.played) played = i;
        }
        for (size_t i = 0; i < nm; ++i) m.values.emplace_back(names[i], mean[i]);
        std::stable_sort(m.values.begin(), m.values.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        m.best = names[best];
        m.played_words = s.state().move_words(seat, m.played);
        m.best_words = s.state().move_words(seat, m.best);
        m.best_value = mean[best];
        m.played_value = mean[played];
        // Paired differences: the deals (or the bot's runs) are the same for
        // both moves, so their luck cancels and the error is that of the
        // difference.
        for (const auto& row : per) {
          const double top = *std::max_element(row.begin(), row.end());
          if (line_game && row[played] < top - line::Solver::kPimcMargin) m.bound = true;  // the line solver's margin
        }
        m.se = gap_se(per, mean, best)[played];
        m.rows = static_cast<int>(ns);
        // Face up: the exact solver on the real deal, a second line only.
        if (solved && o.face_up) {
          bool bound = false;
          const Values fv = eval(s.state(), seat, bound);
          if (!fv.empty()) {
            m.face_up = true;
            m.face_up_best = fv.front().first;
            m.face_up_best_words = s.state().move_words(seat, m.face_up_best);
            double pv = fv.front().second;
            for (const auto& [mv, x] : fv)
              if (mv == m.played) pv = x;
            m.face_up_loss = std::max(0.0, fv.front().second - pv);
            if (m.face_up_loss <= 1e-9) m.face_up_best = m.played;
            m.face_up_bound = bound && m.face_up_loss > line::Solver::kPimcMargin;
          }
        }
        r.moves.push_back(std::move(m));
      }
    }
    s.apply_event(e);
  }
  const auto& hands = s.state().hands();
  if (static_cast<int>(hands.size()) < hand)
    throw Error(fmt::format("hand {} is not finished: the record has {} finished hand{}", hand, hands.size(),
                            hands.size() == 1 ? "" : "s"));
  for (auto& m : r.moves) {
    m.loss = std::max(0.0, m.best_value - m.played_value);
    if (m.played == m.best || m.loss <= 1e-9) {  // a move as good as the best is the best
      m.loss = 0;
      m.se = 0;
      m.best = m.played;
      m.best_words = m.played_words;
      m.best_value = m.played_value;
    }
    m.grade = fair_grade(m.loss, m.se, r.thresholds);
    if (!m.bound) continue;
    m.bound = m.grade == Grade::Blunder;  // "at least" matters only where the grade is already the worst
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
                        {"se", m.se},
                        {"grade", grade_name(m.grade)},
                        {"values", vals}};
    if (m.bound) j["bound"] = true;
    if (m.samples) j["samples"] = m.samples;
    if (m.rows) j["rows"] = m.rows;
    if (m.face_up) {
      j["face_up"] = {{"best", m.face_up_best}, {"loss", m.face_up_loss}};
      if (m.face_up_bound) j["face_up"]["bound"] = true;
    }
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
          {"samples", r.samples},
          {"runs", r.runs},
          {"noise_se", kNoiseSe},
          {"unit", r.unit},
          {"thresholds",
           {{"good", r.thresholds.good}, {"inaccuracy", r.thresholds.inaccuracy}, {"mistake", r.thresholds.mistake}}},
          {"counts", counts},
          {"forced", r.forced},
          {"unsolved", r.unsolved},
          {"moves", moves},
          {"ms", std::round(r.seconds * 1e4) / 10}};
}

namespace {

// "0.21", "22.7", "3": a value lost, to the precision that means something.
std::string amount(double x) { return fmt::format("{:.3g}", x); }

// "an inaccuracy", "a mistake".
std::string with_article(Grade g) {
  const std::string n = grade_name(g);
  return (n[0] == 'i' ? "an " : "a ") + n;
}

}  // namespace

std::string review_text(const HandReview& r) {
  std::string out = fmt::format("Review of seat {}'s moves in hand {} ({}). ", r.seat, r.hand, r.game);
  out += r.samples > 0 ? fmt::format(
                             "Each move is valued from what seat {} could know then: {} deals that fit what it "
                             "saw, each solved exactly, averaged.\n",
                             r.seat, r.samples)
                       : fmt::format(
                             "Each move is valued from what seat {} could know then, by the {} bot ({} "
                             "independent runs, averaged).\n",
                             r.seat, r.method, r.runs);
  out += fmt::format(
      "A move's grade is what it cost against the best move, in {}, once the uncertainty of the estimate is "
      "allowed for (2 standard errors): good up to {}, inaccuracy up to {}, mistake up to {}, blunder more.\n",
      r.unit, r.thresholds.good, r.thresholds.inaccuracy, r.thresholds.mistake);
  if (r.moves.empty()) out += "  No decisions with a choice.\n";
  for (const auto& m : r.moves) {
    out += fmt::format("  Event {}: played {}", m.event, m.played_words);
    if (m.loss <= 0)
      out += ", the best move.\n";
    else if (m.grade == Grade::Best)
      out += fmt::format(". Fine: {} averaged {} {} more, but give or take {} that is too close to call.\n",
                         m.best_words, amount(m.loss), r.unit, amount(m.se));
    else
      out += fmt::format(". {}: {} was better by {}{} {}{}.\n",
                         m.grade == Grade::Good ? std::string("Good") : "That is " + with_article(m.grade),
                         m.best_words, m.bound ? "at least " : "", amount(m.loss), r.unit,
                         m.se > 0 ? fmt::format(" (give or take {})", amount(m.se)) : "");
    if (m.face_up && m.face_up_best != m.played)
      out += fmt::format("    With every hand face up, {} would have won {}{} more (hindsight, not the grade).\n",
                         m.face_up_best_words, m.face_up_bound ? "at least " : "", amount(m.face_up_loss));
  }
  if (r.forced) out += fmt::format("  ({} forced move{} not graded.)\n", r.forced, r.forced == 1 ? "" : "s");
  if (r.unsolved)
    out += fmt::format("  ({} decision{} too hard to solve in the time allowed, not graded.)\n", r.unsolved,
                       r.unsolved == 1 ? "" : "s");
  return out;
}

}  // namespace boneyard
