#pragma once
// GameImpl<G, R>: the OpenSpiel game of one family (src/research/spiel.h)
// and its batches: random playouts as `boneyard bench` plays them, and an
// arena on the CLI arena's game loop (play_out, src/record/session.h).
#include <chrono>

#include "core/playout.h"
#include "research/spiel_state.h"

namespace boneyard::spiel {

template <class G, class R>
class GameImpl final : public GameBase, public std::enable_shared_from_this<GameImpl<G, R>> {
 public:
  using State = typename G::State;

  // A new game from `seed`: the registry's state for seed 1, reseeded (the
  // constructors draw nothing, so this is State(rules, seed), the CLI's
  // game, without parsing the options again).
  State make(uint64_t seed) const {
    State s = tmpl_;
    s.reseed(seed);
    return s;
  }

  void init() {
    auto any = entry->make(options, 1);
    auto* ad = dynamic_cast<GameAdapter<G>*>(any.get());
    if (!ad) throw Error(fmt::format("internal: {} is not of the expected family", name));
    tmpl_ = ad->state();
    const State& s = tmpl_;
    players = s.num_seats();
    actions = R::num_actions(s);
    obs_shape = R::observation_shape(s);
    obs_size = std::accumulate(obs_shape.begin(), obs_shape.end(), 1, std::multiplies<>());
    static_assert(RecallTensor<G, R>, "the family's Research lacks the information-state tensor's parts");
    // The observation, then per hand of the game its tiles and step slots
    // (StateImpl::recall_walk).
    info_shape = {obs_size + R::info_max_hands(s) *
                                 (R::info_hand_size(s) + R::info_max_steps(s) * (players + R::info_step_size(s)))};
    info_hands = R::info_max_hands(s);
    info_size = std::accumulate(info_shape.begin(), info_shape.end(), 1, std::multiplies<>());
    max_length = R::max_game_length(s);
    max_chance_nodes = R::max_chance_nodes(s);
    chance_actions = R::max_chance_outcomes(s);
    const nlohmann::json o = s.options_json();
    options_text = o.dump();
    if (o.contains("single_hand")) {
      const auto& v = o["single_hand"];
      single_hand = v.is_boolean() ? v.get<bool>() : (v.is_string() && v.get<std::string>() == "on");
    }
  }

  std::unique_ptr<StateBase> new_state(uint64_t seed, bool explicit_chance) const override {
    return std::make_unique<StateImpl<G, R>>(this->shared_from_this(), make(seed), seed, true, explicit_chance);
  }

  std::unique_ptr<StateBase> from_record(const std::string& text) const override {
    const nlohmann::json rec = parse_record_text(text);
    if (rec.is_object() && rec.contains("explicit_chance")) {
      // An explicit-chance state (StateImpl::serialize): replay its actions.
      if (!rec.contains("game") || rec["game"] != name) throw Error(fmt::format("the state is not a game of {}", name));
      if (!rec.contains("seed") || !rec.contains("actions") || !rec["actions"].is_array())
        throw Error("an explicit-chance state needs 'seed' and 'actions'");
      const uint64_t seed = whole_number_u64(rec["seed"], "seed");
      std::vector<std::pair<int, int>> acts;
      for (const auto& a : rec["actions"]) {
        if (!a.is_array() || a.size() != 2) throw Error("state: each action is [player, action]");
        acts.emplace_back(static_cast<int>(whole_number(a[0], "player", -1, kMaxRecordSeat)),
                          static_cast<int>(whole_number(a[1], "action", 0, 1 << 20)));
      }
      auto st = std::make_unique<StateImpl<G, R>>(this->shared_from_this(), make(seed), seed, true, true);
      st->replay(acts);
      return st;
    }
    // Session checks the record (game, options, every event, hand results).
    Session check = Session::from_record(rec);
    if (check.entry().name != name)
      throw Error(fmt::format("the record is a game of {}, not {}", check.entry().name, name));
    auto st = std::make_unique<StateImpl<G, R>>(this->shared_from_this(), make(check.seed()), check.seed(), true);
    for (const RecordEvent& e : Session::record_events(rec)) st->apply_event(e);
    return st;
  }

  PlayoutResult random_playouts(uint64_t n, uint64_t seed, int threads, const Interrupt& interrupt) const override {
    check_threads("threads", threads);
    const State fresh = make(seed);
    std::atomic<uint64_t> next{0}, moves{0}, hands{0};
    std::atomic<bool> stop{false};
    double cpu = 0;
    const auto start = std::chrono::steady_clock::now();
    auto work = [&](int t) {
      const double cpu0 = thread_cpu_seconds();
      Rng rng(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(t) + 1);
      State s = fresh;
      s.reseed(rng.next());
      uint64_t my_moves = 0, my_hands = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        const uint64_t k = next.fetch_add(64);
        if (k >= n) break;
        for (uint64_t j = k; j < std::min(n, k + 64); ++j) {
          if (s.terminal()) {
            s = fresh;
            s.reseed(rng.next());
          }
          my_moves += static_cast<uint64_t>(play_random_hand<G>(s, rng));
          ++my_hands;
        }
      }
      moves += my_moves;
      hands += my_hands;
      if (t == 0) cpu = thread_cpu_seconds() - cpu0;
    };
    PlayoutResult r;
    r.interrupted = run_pool(threads, work, stop, interrupt);
    r.cpu_seconds = cpu;
    r.hands = hands;
    r.moves = moves;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

  ArenaResult arena(const std::vector<std::string>& bots, uint64_t games, uint64_t seed, int threads,
                    const BotOptions& budget, const Interrupt& interrupt) const override {
    if (bots.empty()) throw Error("arena needs at least one bot name");
    check_threads("threads", threads);
    check_threads("bot_threads", budget.threads);
    for (const auto& b : bots) make_bot(*entry, b, 1, budget);  // unknown names fail here, before any thread
    const int n = players;
    std::vector<std::vector<double>> sums(static_cast<size_t>(threads),
                                          std::vector<double>(static_cast<size_t>(n), 0.0));
    std::vector<uint64_t> played(static_cast<size_t>(threads), 0);
    std::atomic<uint64_t> next{0};
    std::atomic<bool> stop{false};
    const auto start = std::chrono::steady_clock::now();
    auto work = [&](int t) {
      for (;;) {
        const uint64_t k = next.fetch_add(1);
        if (k >= games) break;
        const uint64_t game_seed = seed + k;
        std::vector<std::unique_ptr<AnyBot>> seat_bots;
        for (int p = 0; p < n; ++p)
          seat_bots.push_back(make_bot(*entry, bots[static_cast<size_t>(p) % bots.size()],
                                       game_seed * 1000003u + static_cast<uint64_t>(p) + 17, budget));
        // The CLI arena's loop: a Session played by the bots to the end.
        Session sess(name, options, game_seed);
        if (!play_out(sess, seat_bots, [&] { return stop.load(std::memory_order_relaxed); })) break;
        const auto* typed = dynamic_cast<const GameAdapter<G>*>(&sess.state());
        if (!typed) throw Error(fmt::format("internal: {} is not of the expected family", name));
        const auto r = spiel_returns<G, R>(typed->state(), single_hand, entry->penalty);
        for (int p = 0; p < n; ++p) sums[static_cast<size_t>(t)][static_cast<size_t>(p)] += r[static_cast<size_t>(p)];
        ++played[static_cast<size_t>(t)];
      }
    };
    ArenaResult out;
    out.interrupted = run_pool(threads, work, stop, interrupt);
    out.games = std::accumulate(played.begin(), played.end(), uint64_t{0});
    out.returns.assign(static_cast<size_t>(n), 0.0);
    for (const auto& s : sums)
      for (int p = 0; p < n; ++p) out.returns[static_cast<size_t>(p)] += s[static_cast<size_t>(p)];
    for (auto& x : out.returns) x /= static_cast<double>(std::max<uint64_t>(1, out.games));
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }

 private:
  State tmpl_;
};

template <class G, class R>
typename G::State StateImpl<G, R>::fresh() const {
  return g_->make(seed_);
}

// The game of family G for a registered entry and its options (load_game;
// each src/<game>/spiel.cpp instantiates it once).
template <class G, class R>
std::shared_ptr<const GameBase> build_game(const GameEntry& e, const OptionList& opts) {
  auto impl = std::make_shared<GameImpl<G, R>>();
  impl->name = e.name;
  impl->family = e.family;
  impl->options = opts;
  impl->entry = &e;
  impl->init();
  return impl;
}

}  // namespace boneyard::spiel
