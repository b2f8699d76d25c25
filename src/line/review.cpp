// The line games' review solver (review.h): sampled deals solved exactly
// within the pimc margin, and the face-up line within the review's budgets.
#include "line/review.h"

#include <chrono>
#include <memory>

#include "bots/review_solver.h"
#include "line/solver.h"
#include "line/state.h"

namespace boneyard::line {

ReviewSolver review_solver() {
  using Clock = std::chrono::steady_clock;
  ReviewSolver r;
  r.sampled = [](const AnyState& st, int seat, uint64_t seed, int samples, std::vector<std::string>& names,
                 std::vector<std::vector<double>>& out, Clock::time_point deadline) {
    sampled_solver_values<LineGame>(st, seat, seed, samples, names, out, deadline);
  };
  r.margin = Solver::kPimcMargin;
  // Exact, within a time per decision and per hand; past either, the
  // bounded solver: exact within 20 points of the best, a bound below that.
  // The grades are the same either way (a loss over 20 points is a
  // Blunder); only a Blunder's loss becomes "at least".
  r.face_up = [](const FaceUpBudget& o) {
    struct Hand {
      std::unique_ptr<Solver> exact, bounded;
      double exact_ms = 0;  // spent on exact solves so far
      Clock::time_point start = Clock::now();
    };
    auto h = std::make_shared<Hand>();
    return [h, o](const AnyState& st, int seat, bool& bound) -> ReviewSolver::Values {
      bound = false;
      const auto* s = typed_state<LineGame>(st);
      if (!s) return {};
      auto [moves, v] = legal_values<LineGame>(*s, seat);
      const double left = std::min(o.solver_ms, o.hand_exact_ms - h->exact_ms);
      bool exact = false;
      if (left > 0) {
        if (!h->exact) h->exact = std::make_unique<Solver>(16, 0);
        const auto t0 = Clock::now();
        h->exact->set_deadline(t0 + std::chrono::microseconds(static_cast<int64_t>(left * 1000)));
        h->exact->values(*s, seat, moves.span(), v.data());
        h->exact_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        exact = !h->exact->stopped();
      }
      if (!exact) {
        bound = true;
        if (!h->bounded) h->bounded = std::make_unique<Solver>(16, Solver::kPimcMargin);
        const double spent = std::chrono::duration<double, std::milli>(Clock::now() - h->start).count();
        const double cap = std::min(o.bounded_ms, o.hand_ms - spent);
        if (cap <= 0) return {};
        h->bounded->set_deadline(Clock::now() + std::chrono::microseconds(static_cast<int64_t>(cap * 1000)));
        h->bounded->values(*s, seat, moves.span(), v.data());
        if (h->bounded->stopped()) return {};  // too hard in the time: not graded
      }
      return named_values(*s, moves, v, 1);
    };
  };
  return r;
}

}  // namespace boneyard::line
