// mexican_train_holders: how well ismcts's pool of sampled deals places
// Mexican Train's hidden tiles, and the data of a tile-holder model
// (docs/bots.md, "Beliefs from play (Mexican Train)").
//
// usage: mexican_train_holders GAMES ITERATIONS SEED [W1 ... WF]
// Plays 4-player games of ismcts against ismcts-v1. At every third decision
// with a choice it deals ismcts's pool of 256 deals for the mover and
// prints, per hidden tile, one line: the places it could be (each other
// seat, then the boneyard; a place the public evidence rules out is left
// out), each as "LOGSIZE F1..FF" (its size's log and the tile's features
// there, zero for the boneyard), then "| TRUE" (the tile's true place).
// With weights W, each pool deal is weighed by the placements (as ismcts)
// times exp(W . F) over its hidden tiles. On stderr: the mean probability
// and log score the pool gives each tile's true place, unweighted, weighed
// by the placements, and weighed by both.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "mexican_train/beliefs.h"
#include "placements.h"

using namespace boneyard;
using namespace boneyard::mexican_train;

namespace {

constexpr int kF = 8;

// The features of hidden tile t in seat k's hand: what the public log says
// about the tiles k keeps.
void features(const State& s, int k, Tile t, double* f) {
  const double progress = s.laid_count() / 60.0;
  const int own = s.train_end(k);
  const int mex = s.mexican_started() ? s.train_end(kMexican) : s.engine().high();
  bool covers_own_double = false;
  for (int i = 0; i < s.laid_count(); ++i)
    if (s.laid_by(i) == k && s.laid_tile(i).is_double() && !t.is_double() && t.shows(s.laid_tile(i).high()))
      covers_own_double = true;
  f[0] = t.shows(own);
  f[1] = t.shows(own) && s.drew_at(k) == 0;
  f[2] = t.is_double();
  f[3] = t.pips() / 12.0;
  f[4] = t.shows(mex);
  f[5] = t.is_double() * progress;
  f[6] = t.pips() / 12.0 * progress;
  f[7] = covers_own_double;
}

bool ruled_out(const State& s, int k, Tile t) {
  const uint32_t v = s.known_void(k);
  if ((v >> t.high() & 1) || (v >> t.low() & 1)) return true;
  return t.is_double() && s.double_cap(k) != 127 && t.high() > s.double_cap(k);
}

struct Score {
  double p = 0, log = 0;
  long n = 0;
  void add(double q) { p += q, log += std::log(std::max(q, 1e-6)), ++n; }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 4 + kF) {
    std::fprintf(stderr,
                 "usage: mexican_train_holders GAMES ITERATIONS SEED [W1 ... W%d]\n"
                 "Plays GAMES Mexican Train games (ismcts against ismcts-v1, ITERATIONS each a decision), prints\n"
                 "each hidden tile's places and features at every third decision (tools/fit_holders.py fits\n"
                 "them) and, on stderr, how well the pool of sampled deals places the tiles (see the file's head).\n",
                 kF);
    return argc == 2 && std::string(argv[1]) == "--help" ? 0 : 2;
  }
  const auto number = [&](const char* text, const char* what, double lo, double hi) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (!*text || *end || !(v >= lo && v <= hi)) {
      std::fprintf(stderr, "mexican_train_holders: %s must be a number from %.12g to %.12g, not '%s'\n", what, lo, hi,
                   text);
      std::exit(2);
    }
    return v;
  };
  const int games = static_cast<int>(number(argv[1], "GAMES", 1, 100000));
  const int iterations = static_cast<int>(number(argv[2], "ITERATIONS", 1, 1000000));
  const int seed = static_cast<int>(number(argv[3], "SEED", 0, 1 << 30));
  std::vector<double> w(kF, 0.0);
  const bool weighted = argc == 4 + kF;
  for (int i = 0; weighted && i < kF; ++i) w[static_cast<size_t>(i)] = number(argv[4 + i], "a weight", -100, 100);
  Score uniform, placements, both;
  Rng rng(static_cast<uint64_t>(seed) * 7 + 1);
  long decisions = 0;
  for (int g = 0; g < games; ++g) {
    State s(make_rules({}), static_cast<uint64_t>(seed + g));
    const auto bots = tools::placements_bots<MexicanTrain>(s.num_seats(), g, iterations);
    int step = 0;
    while (!s.terminal()) {
      const Actor actor = s.actor();
      if (actor.kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      MoveList<Move, MexicanTrain::kMaxMoves> legal;
      s.legal_moves(actor.seat, legal);
      const Observation o = s.observe(actor.seat);
      if (legal.size() > 1 && s.phase() == Phase::Play && ++step % 3 == 0) {
        ++decisions;
        const int me = actor.seat, seats = s.num_seats();
        const TileSet hidden = s.set_tiles().minus(s.table()).minus(s.hand(me));
        std::vector<Tile> tiles;
        for (int i = 0; i < hidden.size(); ++i) tiles.push_back(hidden.nth(i));
        // The tiles' features in each place (seats; the boneyard is place `seats`).
        std::vector<double> f(tiles.size() * static_cast<size_t>(seats) * kF, 0.0);
        auto fe = [&](size_t i, int k) { return &f[(i * static_cast<size_t>(seats) + static_cast<size_t>(k)) * kF]; };
        for (size_t i = 0; i < tiles.size(); ++i)
          for (int k = 0; k < seats; ++k)
            if (k != me) features(s, k, tiles[i], fe(i, k));
        auto place_of = [&](const State& d, Tile t) {
          for (int k = 0; k < seats; ++k)
            if (k != me && d.hand(k).has(t)) return k;
          return seats;
        };
        // Print the fitting data.
        for (size_t i = 0; i < tiles.size(); ++i) {
          std::vector<int> places;
          for (int k = 0; k < seats; ++k)
            if (k != me && !ruled_out(s, k, tiles[i])) places.push_back(k);
          places.push_back(seats);
          if (places.size() < 2) continue;
          const int truth = place_of(s, tiles[i]);
          std::printf("%zu", places.size());
          int chosen = -1;
          for (size_t j = 0; j < places.size(); ++j) {
            const int k = places[j];
            const int size = k == seats ? s.stock_left() : s.hand_count(k);
            std::printf("  %.4f", std::log(std::max(size, 1)));
            for (int x = 0; x < kF; ++x) std::printf(" %.4f", k == seats ? 0.0 : fe(i, k)[x]);
            if (k == truth) chosen = static_cast<int>(j);
          }
          std::printf(" | %d\n", chosen);
        }
        // The pool, and the probability each weighting gives each true place.
        constexpr int kPool = 256;
        std::vector<std::vector<int>> at(kPool, std::vector<int>(tiles.size()));
        std::vector<double> lw_play(kPool), lw_both(kPool);
        for (int d = 0; d < kPool; ++d) {
          double lw = 0;
          const State deal = MexicanTrain::sample_weighted(o, rng, lw);
          double tile_lw = 0;
          for (size_t i = 0; i < tiles.size(); ++i) {
            const int k = at[static_cast<size_t>(d)][i] = place_of(deal, tiles[i]);
            if (k < seats)
              for (int x = 0; x < kF; ++x) tile_lw += w[static_cast<size_t>(x)] * fe(i, k)[x];
          }
          lw_play[static_cast<size_t>(d)] = lw, lw_both[static_cast<size_t>(d)] = lw + tile_lw;
        }
        auto normalise = [](std::vector<double>& lw) {
          double mx = -1e300, z = 0;
          for (double x : lw) mx = std::max(mx, x);
          for (double& x : lw) z += (x = std::exp(x - mx));
          for (double& x : lw) x /= z;
        };
        normalise(lw_play), normalise(lw_both);
        for (size_t i = 0; i < tiles.size(); ++i) {
          const int truth = place_of(s, tiles[i]);
          double qu = 0, qp = 0, qb = 0;
          for (int d = 0; d < kPool; ++d)
            if (at[static_cast<size_t>(d)][i] == truth)
              qu += 1.0 / kPool, qp += lw_play[static_cast<size_t>(d)], qb += lw_both[static_cast<size_t>(d)];
          uniform.add(qu), placements.add(qp), both.add(qb);
        }
      }
      const auto m = bots[static_cast<size_t>(actor.seat)]->choose(o, legal.span());
      s.apply(actor.seat, m);
    }
    std::fprintf(stderr, "game %d done\n", g + 1);
  }
  auto say = [](const char* what, const Score& x) {
    std::fprintf(stderr, "%-28s p(true place) %.4f  log score %.4f\n", what, x.p / x.n, x.log / x.n);
  };
  std::fprintf(stderr, "%ld decisions, %ld hidden tiles\n", decisions, uniform.n);
  say("uniform", uniform);
  say("weighed by the placements", placements);
  if (weighted) say("placements and tile model", both);
  return 0;
}
