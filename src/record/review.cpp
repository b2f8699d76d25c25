#include "record/review.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

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

double graded_loss(double loss, double se) { return std::max(0.0, loss - kNoiseSe * se); }

Grade fair_grade(double loss, double se, const GradeThresholds& t) { return grade_for(graded_loss(loss, se), t); }

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

// The review's unit for a game (docs/bots.md, "Review"), as its registration gives it.
std::string unit_of(const AnyState& st) {
  const GameEntry& g = find_game(st.game());
  if (!g.review_unit) throw Error(fmt::format("{} has no review: its registration gives no review unit", g.name));
  return g.review_unit(st);
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
  // The bot's values in the review's unit, as the game's registration says.
  const double scale = entry.review_scale ? entry.review_scale(st) : 1.0;
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
  const bool solved = static_cast<bool>(find_game(st.game()).review_solver.sampled);
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
  const ReviewSolver& solver = find_game(st.game()).review_solver;
  if (!solver.sampled) return false;
  solver.sampled(st, seat, seed, samples, names, out, deadline);
  return true;
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
  const ReviewSolver& solver = s.entry().review_solver;
  const bool solved = static_cast<bool>(solver.sampled);
  r.unit = unit_of(s.state());
  r.method = solved ? "sampled solver" : strongest_fair_bot(s.entry());
  if (solved) r.samples = o.samples;
  if (!solved) r.runs = kBotRuns;
  r.thresholds = thresholds_for(r.unit);

  // The face-up line's solver for this hand (it keeps the time spent).
  std::function<ReviewSolver::Values(const AnyState&, int, bool&)> face_up;
  if (solved && o.face_up && solver.face_up)
    face_up = solver.face_up({o.solver_ms, o.hand_exact_ms, o.bounded_ms, o.hand_ms});
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
        if (s.entry().value_unit) m.unit_words = s.entry().value_unit(s.state());
        m.best_words = s.state().move_words(seat, m.best);
        m.best_value = mean[best];
        m.played_value = mean[played];
        // Paired differences: the deals (or the bot's runs) are the same for
        // both moves, so their luck cancels and the error is that of the
        // difference.
        for (const auto& row : per) {
          const double top = *std::max_element(row.begin(), row.end());
          if (row[played] < top - solver.margin) m.bound = true;  // past the solver's margin: a bound
        }
        m.se = gap_se(per, mean, best)[played];
        m.rows = static_cast<int>(ns);
        // Face up: the exact solver on the real deal, a second line only.
        if (face_up) {
          bool bound = false;
          const Values fv = face_up(s.state(), seat, bound);
          if (!fv.empty()) {
            m.face_up = true;
            m.face_up_best = fv.front().first;
            m.face_up_best_words = s.state().move_words(seat, m.face_up_best);
            double pv = fv.front().second;
            for (const auto& [mv, x] : fv)
              if (mv == m.played) pv = x;
            m.face_up_loss = std::max(0.0, fv.front().second - pv);
            if (m.face_up_loss <= 1e-9) m.face_up_best = m.played;
            m.face_up_bound = bound && m.face_up_loss > solver.margin;
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
                        {"graded_loss", graded_loss(m)},
                        {"grade", grade_name(m.grade)},
                        {"values", vals}};
    if (m.bound) j["bound"] = true;
    if (!m.unit_words.empty()) j["unit_words"] = m.unit_words;
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

// A move as the review says it: Texas 42's list words "play 6-4" without
// the verb, every other move as listed ("6-4 on the left", "bid 30").
std::string spoken(const std::string& words) { return words.starts_with("play ") ? words.substr(5) : words; }

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
      "allowed for (2 standard errors): best when nothing was clearly better, good up to {}, inaccuracy up to {}, "
      "mistake up to {}, blunder more.\n",
      r.unit, r.thresholds.good, r.thresholds.inaccuracy, r.thresholds.mistake);
  if (r.moves.empty()) out += "  No decisions with a choice.\n";
  // Where the values count differently from one decision to another (Texas
  // 42's bids weigh a set), each change is said before its moves.
  const bool varies = std::any_of(r.moves.begin(), r.moves.end(),
                                  [&](const ReviewedMove& m) { return m.unit_words != r.moves.front().unit_words; });
  std::string said;
  for (const auto& m : r.moves) {
    if (varies && m.unit_words != said) out += fmt::format("  (Values from here: {}.)\n", said = m.unit_words);
    // The move in the seat's words, without a verb to follow ("played play
    // 6-4", "played bid 30" read badly): "Event 12: 6-4", "Event 3: bid 30".
    out += fmt::format("  Event {}: {}", m.event, spoken(m.played_words));
    if (m.loss <= 0)
      out += ", the best move.\n";
    else if (m.grade == Grade::Best)
      out += fmt::format(". Best: {} averaged {} {} more, but give or take {} that is too close to call.\n",
                         spoken(m.best_words), amount(m.loss), r.unit, amount(m.se));
    else  // the figure graded said too: 11.9 give or take 4.98 grades as 1.94, "Good"
      out += fmt::format(". {}: {} was better by {}{} {}{}.\n",
                         m.grade == Grade::Good ? std::string("Good") : "That is " + with_article(m.grade),
                         spoken(m.best_words), m.bound ? "at least " : "", amount(m.loss), r.unit,
                         m.se > 0 ? fmt::format(", give or take {}, so by at least {} (the figure graded)",
                                                amount(m.se), amount(graded_loss(m)))
                                  : "");
    if (m.face_up && m.face_up_best != m.played)
      out += fmt::format("    With every hand face up, {} would have won {}{} more (hindsight, not the grade).\n",
                         spoken(m.face_up_best_words), m.face_up_bound ? "at least " : "", amount(m.face_up_loss));
  }
  if (r.forced) out += fmt::format("  ({} forced move{} not graded.)\n", r.forced, r.forced == 1 ? "" : "s");
  if (r.unsolved)
    out += fmt::format("  ({} decision{} too hard to solve in the time allowed, not graded.)\n", r.unsolved,
                       r.unsolved == 1 ? "" : "s");
  return out;
}

}  // namespace boneyard
