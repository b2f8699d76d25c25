#pragma once
// What a game's ReviewSolver (core/game.h) is made of, for any game G with
// an exact Solver: each move's value in deals sampled from one seat's
// observation, and the values of one state named and sorted. The games
// register them (line/review.cpp, texas42/register.cpp); record/review.cpp
// calls them through the registration only.
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bots/pimc.h"
#include "core/adapter.h"

namespace boneyard {

template <class G>
std::pair<MoveList<typename G::Move, G::kMaxMoves>, std::vector<double>> legal_values(const typename G::State& s,
                                                                                      int seat) {
  std::pair<MoveList<typename G::Move, G::kMaxMoves>, std::vector<double>> r;
  s.legal_moves(seat, r.first);
  r.second.resize(static_cast<size_t>(r.first.size()));
  return r;
}

// The moves' texts with their values times `scale`, best first.
template <class S, class L>
ReviewSolver::Values named_values(const S& s, const L& moves, const std::vector<double>& v, double scale) {
  ReviewSolver::Values out;
  for (int i = 0; i < moves.size(); ++i) out.emplace_back(s.move_text(moves[i]), v[static_cast<size_t>(i)] * scale);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

// The solver a fair review uses: exact within the pimc margin of each deal's
// best move (a move further below gets a bound, which only makes its loss
// smaller: the grade stays on the player's side). Values times `scale`.
template <class G>
void sampled_solver_values(const AnyState& st, int seat, uint64_t seed, int samples, std::vector<std::string>& names,
                           std::vector<std::vector<double>>& out, std::chrono::steady_clock::time_point deadline,
                           double scale = 1) {
  using Clock = std::chrono::steady_clock;
  const auto* s = typed_state<G>(st);
  names.clear();
  out.clear();
  if (!s) return;
  auto [moves, v] = legal_values<G>(*s, seat);
  for (int i = 0; i < moves.size(); ++i) names.push_back(s->move_text(moves[i]));
  // Only the seat's observation goes in: the hidden tiles cannot leak.
  const auto obs = s->observe(seat);
  Rng rng(seed);
  thread_local std::unique_ptr<typename G::Solver> solver;
  if (!solver) solver = std::make_unique<typename G::Solver>();
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
    if (scale != 1)
      for (auto& x : out.back()) x *= scale;
  }
}

}  // namespace boneyard
