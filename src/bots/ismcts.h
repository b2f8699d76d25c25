#pragma once
// Information-set Monte Carlo tree search (single observer, open loop),
// generic over the game interface.
//
// Each iteration samples a full state consistent with what the seat knows
// (G::sample), walks one shared tree whose edges are (seat, move) pairs,
// choosing by UCB among the moves legal in that sample (counting how often
// each was available), expands one edge, plays the rest of the hand out and
// backs up G::reward for every seat that moved. Chance is not a node: the
// sampled state's own generator rolls it, so the tree follows moves only;
// except that a game whose chance is public and decides what is best (Dice
// & Dominoes' dice) may name its outcome, `static uint64_t
// G::chance_key(const State&)`, and each outcome then has its own node.
// Simultaneous moves are decoupled: at such a node every seat chooses from
// its own edges, unaware of the others' choices, and the joint result
// continues in one successor node.
//
// A game whose sampler weighs deals by evidence (Texas 42's auction, the
// line games' beliefs from play, src/line/beliefs.h) may
// supply `static State G::sample_weighted(const Observation&, Rng&, double&
// log_weight)`: then each worker draws a pool of kPool such deals once a
// decision (a game with `kMaxPool`: more, below) and every iteration
// resamples one by its weight (sampling
// importance resampling over one pool, not a fresh set of candidates per
// iteration: the cost of the evidence is paid once, docs/bots.md).
// `ismcts-v1` (V1 = true) is the bot before these, kept to measure against.
//
// A game may supply `static Move G::rollout_move(const State&, int seat,
// std::span<const Move> legal, Rng&)` for playouts better than random
// (`rollout_move_v1`: one that only `ismcts-v1` uses).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "bots/budget.h"
#include "core/game.h"
#include "core/playout.h"

namespace boneyard {

template <class G>
concept HasRolloutPolicy = requires(const typename G::State& s, std::span<const typename G::Move> l, Rng& r) {
  { G::rollout_move(s, 0, l, r) } -> std::same_as<typename G::Move>;
};

// The playout policy `ismcts-v1` used where ismcts now plays out at random.
template <class G>
concept HasRolloutPolicyV1 = requires(const typename G::State& s, std::span<const typename G::Move> l, Rng& r) {
  { G::rollout_move_v1(s, 0, l, r) } -> std::same_as<typename G::Move>;
};

// The sampler `ismcts-v1` used where ismcts now deals faster (Mexican Train).
template <class G>
concept HasSampleV1 = requires(const typename G::Observation& o, Rng& r) {
  { G::sample_v1(o, r) } -> std::same_as<typename G::State>;
};

template <class G>
concept HasWeightedSample = requires(const typename G::Observation& o, Rng& r, double& w) {
  { G::sample_weighted(o, r, w) } -> std::same_as<typename G::State>;
};

// A game whose deals are worth more than their cost may let the pool grow
// up to `G::kMaxPool` deals: under a time limit until a quarter of the time
// is spent, under a count to a quarter of the worker's iterations (at least
// kPool), so that more iterations do not resample the same few deals.
template <class G>
concept HasPoolLimit = requires {
  { G::kMaxPool } -> std::convertible_to<int>;
};

template <class G>
concept HasPublicChance = requires(const typename G::State& s) {
  { G::chance_key(s) } -> std::same_as<uint64_t>;
};

template <class G, bool V1 = false>
class IsmctsBot final : public Bot<G> {
 public:
  using Move = typename G::Move;
  using State = typename G::State;
  using List = MoveList<Move, G::kMaxMoves>;
  static constexpr int kDefaultIterations = 2000;
  static constexpr double kExploration = 0.7;
  static constexpr int kPool = 256;    // weighted deals a worker draws a decision
  static constexpr int kMinPool = 16;  // however short the time

  IsmctsBot(uint64_t seed, const BotOptions& o) : Bot<G>(V1 ? "ismcts-v1" : "ismcts", seed), options_(o) {}

  Move choose(const typename G::Observation& obs, std::span<const Move> legal) override {
    if (legal.size() == 1) return legal[0];
    std::vector<double> value(legal.size()), visits(legal.size());
    search(obs, legal, value.data(), visits.data());
    return legal[static_cast<size_t>(best_index(legal, visits.data()))];
  }

  // Mean reward in [-1, 1] of each root move (0 for a move never tried).
  bool values(const typename G::Observation& obs, std::span<const Move> legal, double* out) override {
    std::vector<double> visits(legal.size());
    search(obs, legal, out, visits.data());
    return true;
  }

 private:
  struct Edge {
    Move move;
    int seat;
    uint32_t visits = 0;
    uint32_t avail = 0;
    double total = 0;  // sum of the mover's rewards in [0, 1]
    int child = -1;
  };
  struct Node {
    std::vector<Edge> edges;
    std::unordered_map<uint64_t, int> index;  // (seat, move) -> edge: no scans
    int after = -1;                           // simultaneous nodes: the one successor
  };
  static_assert(sizeof(Move) <= 7, "ismcts keys a move by its bytes");
  static uint64_t key_of(int seat, const Move& m) {
    uint64_t k = 0;
    std::memcpy(&k, &m, sizeof(Move));  // moves are bytes without padding
    return k << 8 | static_cast<uint64_t>(seat);
  }
  struct Step {
    int node, edge;
  };

  // One tree, grown by one worker.
  class Tree {
   public:
    explicit Tree(uint64_t seed) : rng_(seed) { nodes_.emplace_back(); }

    // The pool of weighted deals for this decision (none where the weights
    // are all equal: then every iteration draws a fresh deal). Under a time
    // limit the pool takes at most a quarter of it (Mexican Train's late
    // placements cost up to 16 ms for 256 deals: with 5 ms a decision the
    // search had no time left, docs/bots.md).
    void prepare(const typename G::Observation& obs, const Budget& budget, int share) {
      if constexpr (HasWeightedSample<G> && !V1) {
        pool_.clear();
        cum_.clear();
        std::vector<double> lw;
        double top = -1e300, low = 1e300;
        int most = kPool;
        if constexpr (HasPoolLimit<G>)
          most = budget.timed() ? G::kMaxPool : std::clamp(share / 4, kPool, static_cast<int>(G::kMaxPool));
        for (int i = 0; i < most && !(i >= kMinPool && budget.past(0.25)); ++i) {
          double w = 0;
          pool_.push_back(G::sample_weighted(obs, rng_, w));
          lw.push_back(w);
          top = std::max(top, w);
          low = std::min(low, w);
        }
        if (top == low) {  // no evidence: fresh deals are as good and more varied
          pool_.clear();
          return;
        }
        double total = 0;
        for (double w : lw) cum_.push_back(total += std::exp(w - top));
      }
    }
    State draw(const typename G::Observation& obs) {
      if (pool_.empty()) {
        if constexpr (V1 && HasSampleV1<G>) return G::sample_v1(obs, rng_);
        return G::sample(obs, rng_);
      }
      const double r = rng_.uniform() * cum_.back();
      const auto it = std::upper_bound(cum_.begin(), cum_.end(), r);
      return pool_[std::min(static_cast<size_t>(it - cum_.begin()), pool_.size() - 1)];
    }

    void iterate(const typename G::Observation& obs) {
      State s = draw(obs);
      s.reseed(rng_.next());  // the future is unknown, whatever the sample says
      const State root = s;
      const int hands = s.hands_finished();
      path_.clear();
      int node = 0;
      bool expanded = false;
      List l;
      while (!expanded && !over(s, hands)) {
        const Actor a = s.actor();
        if (a.kind == Actor::Chance) {
          s.apply_chance();
          if constexpr (HasPublicChance<G> && !V1) node = chance_child(node, G::chance_key(s));
          continue;
        }
        if (a.kind == Actor::Seat) {
          s.legal_moves(a.seat, l);
          const int e = select(node, a.seat, l, expanded);
          path_.push_back({node, e});
          s.apply(a.seat, nodes_[static_cast<size_t>(node)].edges[static_cast<size_t>(e)].move);
          node = child_of(node, e);
          continue;
        }
        for (int seat = 0; seat < s.num_seats() && s.actor().kind == Actor::Simultaneous; ++seat) {
          if (!s.actor().acts(seat)) continue;
          s.legal_moves(seat, l);
          bool fresh = false;
          const int e = select(node, seat, l, fresh);
          expanded = expanded || fresh;
          path_.push_back({node, e});
          s.apply(seat, nodes_[static_cast<size_t>(node)].edges[static_cast<size_t>(e)].move);
        }
        node = after_of(node);
      }
      rollout(s, hands);
      double reward[16];
      for (int seat = 0; seat < s.num_seats(); ++seat) reward[seat] = (G::reward(root, s, seat) + 1) / 2;
      for (const Step& st : path_) {
        Edge& e = nodes_[static_cast<size_t>(st.node)].edges[static_cast<size_t>(st.edge)];
        ++e.visits;
        e.total += reward[e.seat];
      }
    }

    const std::vector<Edge>& root_edges() const { return nodes_[0].edges; }

   private:
    static bool over(const State& s, int hands) { return s.terminal() || s.hands_finished() != hands; }

    // Picks the edge for `seat` at `node` among the moves legal now: an
    // untried one first (expanding the tree), else the best by UCB.
    int select(int node, int seat, const List& legal, bool& expanded) {
      Node& nd = nodes_[static_cast<size_t>(node)];
      int found[G::kMaxMoves], untried[G::kMaxMoves];
      int n_found = 0, n_untried = 0;
      // Count availability of the moves legal in this sample; note untried ones.
      for (int i = 0; i < legal.size(); ++i) {
        const auto it = nd.index.find(key_of(seat, legal[i]));
        if (it == nd.index.end()) {
          untried[n_untried++] = i;
          continue;
        }
        found[n_found++] = it->second;
        ++nd.edges[static_cast<size_t>(it->second)].avail;
      }
      if (n_untried > 0 && !expanded) {
        const Move m = legal[untried[rng_.below(static_cast<uint32_t>(n_untried))]];
        nd.edges.push_back(Edge{m, seat, 0, 1, 0, -1});
        const int e = static_cast<int>(nd.edges.size()) - 1;
        nd.index.emplace(key_of(seat, m), e);
        expanded = true;
        return e;
      }
      int best = -1;
      double best_score = -1;
      for (int j = 0; j < n_found; ++j) {
        const Edge& x = nd.edges[static_cast<size_t>(found[j])];
        const double score = x.visits == 0
                                 ? 1e9 + rng_.uniform()
                                 : x.total / x.visits + kExploration * std::sqrt(std::log(double(x.avail)) / x.visits);
        if (score > best_score) best_score = score, best = found[j];
      }
      return best;
    }
    int child_of(int node, int e) {
      int c = nodes_[static_cast<size_t>(node)].edges[static_cast<size_t>(e)].child;
      if (c >= 0) return c;
      c = static_cast<int>(nodes_.size());
      nodes_.emplace_back();
      nodes_[static_cast<size_t>(node)].edges[static_cast<size_t>(e)].child = c;
      return c;
    }
    // A public chance outcome (the dice) leads to its own node: what is best
    // after one roll says nothing about another.
    int chance_child(int node, uint64_t key) {
      const uint64_t k = key << 8 | 0xFF;  // no seat is 0xFF
      auto& index = nodes_[static_cast<size_t>(node)].index;
      const auto it = index.find(k);
      if (it != index.end()) return it->second;
      const int c = static_cast<int>(nodes_.size());
      index.emplace(k, c);
      nodes_.emplace_back();
      return c;
    }
    int after_of(int node) {
      int c = nodes_[static_cast<size_t>(node)].after;
      if (c >= 0) return c;
      c = static_cast<int>(nodes_.size());
      nodes_.emplace_back();
      nodes_[static_cast<size_t>(node)].after = c;
      return c;
    }
    void rollout(State& s, int hands) {
      List l;
      while (!over(s, hands)) {
        const Actor a = s.actor();
        if (a.kind == Actor::Chance) {
          s.apply_chance();
          continue;
        }
        for (int seat = 0; seat < s.num_seats(); ++seat) {
          if (!s.actor().acts(seat)) continue;
          play(s, seat, l);
          if (a.kind == Actor::Seat) break;
        }
      }
    }
    // One playout move: the game's policy, else at random without listing.
    void play(State& s, int seat, List& l) {
      if constexpr (V1 && HasRolloutPolicyV1<G>) {
        s.legal_moves(seat, l);
        s.apply(seat, G::rollout_move_v1(s, seat, l.span(), rng_));
      } else if constexpr (HasRolloutPolicy<G>) {
        s.legal_moves(seat, l);
        s.apply(seat, G::rollout_move(s, seat, l.span(), rng_));
      } else {
        apply_random_move<G>(s, seat, rng_, l);
      }
    }

    Rng rng_;
    std::vector<State> pool_;
    std::vector<double> cum_;  // the pool's cumulative weights
    std::vector<Node> nodes_;
    std::vector<Step> path_;
  };

  void search(const typename G::Observation& obs, std::span<const Move> legal, double* value, double* visits) {
    const int workers = std::max(1, options_.threads);
    const Budget budget(options_, kDefaultIterations);
    std::vector<std::unique_ptr<Tree>> trees;
    for (int w = 0; w < workers; ++w) trees.push_back(std::make_unique<Tree>(this->rng().next()));
    run_workers(workers, [&](int w) {
      Tree& t = *trees[static_cast<size_t>(w)];
      const int share = budget.share(w, workers);
      t.prepare(obs, budget, share);
      const auto begun = Budget::Clock::now();  // the pool's time is not an iteration's
      for (int n = 0; !budget.over(n, share, begun); ++n) t.iterate(obs);
    });
    // Root parallelism: add up the workers' root statistics per move.
    for (size_t i = 0; i < legal.size(); ++i) {
      double total = 0, n = 0;
      for (const auto& t : trees)
        for (const Edge& e : t->root_edges())
          if (e.seat == obs.seat && e.move == legal[i]) total += e.total, n += e.visits;
      visits[i] = n;
      value[i] = n > 0 ? 2 * total / n - 1 : 0;
    }
  }

  BotOptions options_;
};

}  // namespace boneyard
