#pragma once
// The exact solver for a line-game hand with every hand known (and the
// boneyard order fixed): alpha-beta over the concrete state with a
// transposition table keyed by a Zobrist hash, and move ordering.
//
// A hand's value for a seat is what the rest of the hand adds to its side's
// score minus the best of what it adds to any other side, in the preset's
// own unit (points, or wins), with every bonus the preset scores: the search
// plays the real State to the end of the hand, so it scores exactly as the
// engine does. With more than two sides the others are assumed to play
// against the seat together (the "paranoid" assumption).
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "line/state.h"

namespace boneyard::line {

class Solver {
 public:
  // margin 0: every value exact. margin m > 0 (what pimc uses): exact for
  // moves within m of the best; a worse move gets an upper bound that is
  // still below best - m, which is far cheaper to prove.
  static constexpr int kPimcMargin = 20;
  // 2^16 entries (1 MiB): a larger table misses the cache more than it
  // saves (bench_line, BM_LineSolveDeals).
  explicit Solver(int log2_entries = 16, int margin = kPimcMargin);
  Solver(Solver&&) = default;
  ~Solver();

  // The value of each move (legal for `seat` in `s`) for seat's side.
  // A decision that leads to a fresh deal (a redeal) is valued 0.
  void values(const State& s, int seat, std::span<const Move> moves, double* out);
  // The value of the hand from `s` for `seat` with best play by everyone.
  int solve(const State& s, int seat);

  uint64_t nodes() const { return nodes_; }  // positions searched, all calls

  // A search still running at `t` gives up: stopped() says so and its
  // values are meaningless (pimc drops that sample). Applies from the next
  // values() or solve() on; time_point::max() (the default) never stops.
  using Clock = std::chrono::steady_clock;
  void set_deadline(Clock::time_point t) { deadline_ = t; }
  bool stopped() const { return stopped_; }

 private:
  struct Entry;
  int search(State& s, uint64_t zobrist, int alpha, int beta);
  int leaf(const State& s) const;
  int end_value(const State& s, int w, int out) const;
  static int priority(const State& s, int seat, Move m);  // move ordering: higher first
  uint64_t key(const State& s, uint64_t zobrist) const;
  void begin(const State& s, int seat);

  int margin_;
  std::unique_ptr<Entry[]> table_;
  uint64_t mask_;
  uint64_t generation_ = 0;
  uint64_t salt_ = 0;  // mixed into every key: a call's own
  uint64_t nodes_ = 0;
  Clock::time_point deadline_ = Clock::time_point::max();
  bool stopped_ = false;
  // The solve under way.
  int me_side_ = 0;
  bool pip_scoring_ = false;  // a hand scores its pips only: no bonus, no wins
  bool exact_ = false;        // every value this call returns is exact (no margin)
  int hands_ = 0;
  int32_t base_[kMaxSeats] = {};  // scores when it began
};

}  // namespace boneyard::line
