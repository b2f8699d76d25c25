// The compiled half of the Python package `boneyard` (docs/python.md): an
// OpenSpiel-style Game/State over every registered game, bots, and batch
// runs in C++ with the GIL released. Game logic, action codes and tensor
// encoders live in each game folder (src/<game>/research.h); this file only
// marshals.
#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/adapter.h"
#include "core/game.h"
#include "core/playout.h"
#include "core/research.h"
#include "dice_dominoes/research.h"
#include "line/research.h"
#include "mexican_train/research.h"
#include "record/session.h"
#include "texas42/research.h"

namespace py = pybind11;
using namespace boneyard;

namespace {

// pyspiel's player ids.
constexpr int kChancePlayer = -1;
constexpr int kSimultaneousPlayer = -2;
constexpr int kTerminalPlayer = -4;

using Floats = py::array_t<float, py::array::c_style | py::array::forcecast>;

class GameBase;

// The type-erased state the Python class wraps.
class StateBase {
 public:
  virtual ~StateBase() = default;
  virtual std::unique_ptr<StateBase> clone() const = 0;
  virtual const GameBase& game() const = 0;
  virtual int current_player() const = 0;
  virtual bool is_terminal() const = 0;
  virtual bool acts(int player) const = 0;
  virtual void legal_actions(int player, std::vector<int>& out) const = 0;
  virtual void apply_action(int action) = 0;
  virtual void apply_actions(const std::vector<int>& actions) = 0;
  virtual std::string action_to_string(int player, int action) const = 0;
  virtual int string_to_action(int player, const std::string& text) const = 0;
  virtual std::vector<double> returns() const = 0;
  virtual std::vector<double> scores() const = 0;
  virtual std::vector<std::pair<int, int>> history() const = 0;
  virtual void observation(int player, float* out) const = 0;
  virtual void info_state(int player, float* out) const = 0;
  virtual std::string info_string(int player) const = 0;
  virtual void reshuffle(uint64_t seed) = 0;
  virtual std::shared_ptr<GameBase> game_shared() const = 0;
  virtual std::string render(int player) const = 0;
  virtual std::string view_json(int player) const = 0;
  virtual std::string serialize() const = 0;
  virtual std::unique_ptr<StateBase> resample(int player, uint64_t seed) const = 0;
  virtual int bot_action(AnyBot& bot, int player) const = 0;
  virtual std::vector<std::pair<int, double>> bot_values(AnyBot& bot, int player) const = 0;
  virtual int num_players() const = 0;
  virtual int hands_finished() const = 0;
  // Explicit chance (docs/python.md, Chance).
  virtual bool explicit_chance() const = 0;
  virtual std::string chance_event() const = 0;
  virtual std::vector<std::pair<int, double>> chance_outcomes() const = 0;
  virtual void replay(const std::vector<std::pair<int, int>>& actions) = 0;
};

struct PlayoutResult {
  uint64_t hands = 0, moves = 0;
  double seconds = 0;
  double cpu_seconds = 0;  // the calling thread's own time (as `boneyard bench` reports it)
};

struct ArenaResult {
  std::vector<double> returns;  // mean per seat
  uint64_t games = 0;
  double seconds = 0;
};

class GameBase {
 public:
  virtual ~GameBase() = default;
  std::string name, family;
  OptionList options;
  bool single_hand = false;
  int players = 0, actions = 0, max_length = 0, chance_actions = 0;
  std::vector<int> obs_shape, info_shape;
  std::string options_text;  // the game's options as JSON (every value, defaults included)
  int obs_size = 0, info_size = 0;
  const GameEntry* entry = nullptr;

  virtual std::unique_ptr<StateBase> new_state(uint64_t seed, bool explicit_chance = false) const = 0;
  virtual std::unique_ptr<StateBase> from_record(const std::string& text) const = 0;
  virtual PlayoutResult random_playouts(uint64_t n, uint64_t seed, int threads) const = 0;
  virtual ArenaResult arena(const std::vector<std::string>& bots, uint64_t games, uint64_t seed, int threads,
                            const BotOptions& budget) const = 0;
};

void check_player(int player, int n) {
  if (player < 0 || player >= n) throw Error(fmt::format("player {} does not exist; players are 0..{}", player, n - 1));
}

template <class G, class R>
class GameImpl;

template <class G, class R>
class StateImpl final : public StateBase {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using List = MoveList<Move, G::kMaxMoves>;

  // Information state: a resampled (or reshuffled) state's history starts
  // at that point (the root), after the text each seat had there.
  struct Root {
    State state;
    size_t index = 0;                 // actions_ before the root
    std::vector<std::string> prefix;  // per player: the text up to the root
    std::string public_prefix;        // the public part (no "seat N" line)
  };

  StateImpl(std::shared_ptr<const GameImpl<G, R>> g, State s, uint64_t seed, bool seeded, bool explicit_chance = false)
      : g_(std::move(g)), s_(std::move(s)), seed_(seed), seeded_(seeded), explicit_(explicit_chance) {
    settle();
  }

  std::unique_ptr<StateBase> clone() const override { return std::make_unique<StateImpl>(*this); }
  std::shared_ptr<GameBase> game_shared() const override { return std::const_pointer_cast<GameImpl<G, R>>(g_); }

  // A seeded state carries its future: the stock's order and the generator
  // of later deals and rolls (a clone carries the same). This deals the
  // undrawn stock anew, uniformly, and reseeds the generator; what any seat
  // sees is unchanged.
  void reshuffle(uint64_t seed) override {
    if (explicit_)
      throw Error("resample_chance: an explicit-chance state has no stock order yet: each draw is a chance node");
    Rng rng(seed);
    std::vector<Outcome> o;
    for (int k = 0;; ++k) {
      R::draw_outcomes(s_, k, o);
      if (o.empty()) break;
      double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
      size_t pick = o.size() - 1;
      for (size_t i = 0; i < o.size(); ++i) {
        if (u < o[i].probability) {
          pick = i;
          break;
        }
        u -= o[i].probability;
      }
      R::put_next_draw(s_, k, o[pick].action);
    }
    s_.reseed(rng.next());
    seeded_ = false;            // no seed replays this state now
    root_ = make_root(s_, -1);  // nobody saw the stock: every text stays
  }

  // A new start for history_text at `at` (this state's history so far):
  // `keep`'s text (every seat's when -1) as it is now; the others' the
  // public history and the tiles they hold in `at`.
  std::shared_ptr<const Root> make_root(const State& at, int keep) const {
    auto root = std::make_shared<Root>();
    const std::string pub = history_text(0, false);
    root->public_prefix = pub.substr(pub.find('\n') + 1);  // without the "seat N" line
    for (int q = 0; q < s_.num_seats(); ++q)
      root->prefix.push_back(
          keep < 0 || q == keep ? info_string(q)
                                : fmt::format("seat {}\n{}you hold {}\n", q, root->public_prefix, R::hand_text(at, q)));
    root->state = at;
    root->index = actions_.size();
    return root;
  }
  const GameBase& game() const override { return *g_; }
  int num_players() const override { return s_.num_seats(); }
  int hands_finished() const override { return s_.hands_finished(); }
  const State& state() const { return s_; }

  bool explicit_chance() const override { return explicit_; }
  // "draw" (tiles owed to a move that draws), else the game's event ("deal",
  // "dealer_draw", "roll"); "" at no chance node.
  std::string chance_event() const override {
    if (!chance_now()) return "";
    return draws_needed_ > 0 ? "draw" : R::chance_event(s_);
  }

  // Explicit chance: a chance node now (a deal, draw for the lead or the
  // dealer, or roll pending in the game, or tiles owed to a draw just chosen).
  bool chance_now() const {
    return explicit_ && (draws_needed_ > 0 || (!s_.terminal() && s_.actor().kind == Actor::Chance));
  }

  std::vector<std::pair<int, double>> chance_outcomes() const override {
    if (!chance_now())
      throw Error(explicit_
                      ? fmt::format("chance_outcomes: not a chance node ({})", to_string(s_.actor()))
                      : std::string("chance_outcomes: not a chance node (this state resolves chance with its own "
                                    "seeded generator; new_initial_state(seed, explicit_chance=True) exposes it)"));
    std::vector<Outcome> o;
    outcomes(o);
    std::vector<std::pair<int, double>> out;
    out.reserve(o.size());
    for (const Outcome& x : o) out.emplace_back(x.action, x.probability);
    return out;
  }

  void replay(const std::vector<std::pair<int, int>>& acts) override {
    size_t i = 0;
    while (i < acts.size()) {
      if (current_player() == kSimultaneousPlayer) {
        const Actor a = s_.actor();
        std::vector<int> joint(static_cast<size_t>(s_.num_seats()), -1);
        int missing = std::popcount(static_cast<unsigned>(a.seats));
        while (missing > 0 && i < acts.size()) {
          const auto [p, x] = acts[i++];
          if (p < 0 || p >= s_.num_seats() || !a.acts(p) || joint[static_cast<size_t>(p)] >= 0)
            throw Error(fmt::format("state: action {} of player {} at a simultaneous node of {}", x, p, to_string(a)));
          joint[static_cast<size_t>(p)] = x;
          --missing;
        }
        if (missing > 0) throw Error("state: the last simultaneous round is incomplete");
        apply_actions(joint);
      } else {
        const auto [p, x] = acts[i++];
        if (p != current_player())
          throw Error(fmt::format("state: action {} of player {}, but player {} is to act", x, p, current_player()));
        apply_action(x);
      }
    }
  }

  int current_player() const override {
    if (chance_now()) return kChancePlayer;
    const Actor a = s_.actor();
    switch (a.kind) {
      case Actor::Seat:
        return a.seat;
      case Actor::Chance:
        return kChancePlayer;
      case Actor::Simultaneous:
        return kSimultaneousPlayer;
      case Actor::Terminal:
        return kTerminalPlayer;
    }
    return kTerminalPlayer;
  }
  bool is_terminal() const override { return s_.terminal(); }
  bool acts(int player) const override { return !chance_now() && s_.actor().acts(player); }

  void legal_actions(int player, std::vector<int>& out) const override {
    out.clear();
    if (player == kChancePlayer && chance_now()) {
      std::vector<Outcome> o;
      outcomes(o);
      for (const Outcome& x : o) out.push_back(x.action);
      return;
    }
    if (player < 0 || player >= s_.num_seats() || !acts(player)) return;
    List l;
    s_.legal_moves(player, l);
    out.reserve(static_cast<size_t>(l.size()));
    for (const Move& m : l) out.push_back(R::to_action(s_, m));
    std::sort(out.begin(), out.end());
  }

  void apply_action(int action) override {
    if (chance_now()) return apply_chance_action(action);
    const Actor a = s_.actor();
    if (a.kind == Actor::Terminal) throw Error(fmt::format("action {} on a terminal state: the game is over", action));
    if (a.kind == Actor::Simultaneous)
      throw Error("a simultaneous node: give every acting player's action with apply_actions([...])");
    if (a.kind == Actor::Chance) throw Error("internal: a chance node left unresolved");
    if (explicit_ && start_draws(a, std::vector<int>{action})) return;
    apply_for(a.seat, action);
    settle();
  }

  void apply_actions(const std::vector<int>& actions) override {
    const Actor a = s_.actor();
    if (chance_now()) {
      if (actions.size() == 1) return apply_action(actions[0]);
      throw Error("a chance node: apply one outcome with apply_action(a) (see chance_outcomes())");
    }
    if (a.kind != Actor::Simultaneous) {
      if (actions.size() == 1 && a.kind == Actor::Seat) return apply_action(actions[0]);
      throw Error(fmt::format("apply_actions needs a simultaneous node; now: {}", to_string(a)));
    }
    if (static_cast<int>(actions.size()) != s_.num_seats())
      throw Error(fmt::format("apply_actions needs one action per player ({}), got {} (use -1 for a player not acting)",
                              s_.num_seats(), actions.size()));
    // Check every action first, so a bad one changes nothing.
    for (int p = 0; p < s_.num_seats(); ++p)
      if (a.acts(p)) legal_move(p, actions[static_cast<size_t>(p)]);
    if (explicit_ && start_draws(a, actions)) return;
    for (int p = 0; p < s_.num_seats(); ++p)
      if (a.acts(p)) apply_for(p, actions[static_cast<size_t>(p)]);
    settle();
  }

  std::string action_to_string(int player, int action) const override {
    if (player == kChancePlayer) {
      if (action < 0 || action >= g_->chance_actions)
        throw Error(fmt::format("chance action {} is outside 0..{}", action, g_->chance_actions - 1));
      return R::chance_action_text(action);
    }
    if (player != kChancePlayer) check_player(player, s_.num_seats());
    if (action < 0 || action >= g_->actions)
      throw Error(fmt::format("action {} is outside 0..{}", action, g_->actions - 1));
    // Any action in range has a text, legal now or not (OpenSpiel's
    // algorithms print whole policies).
    return s_.move_text(R::from_action(s_, action));
  }

  int string_to_action(int player, const std::string& text) const override {
    if (player == kChancePlayer) return R::chance_action_of(s_, text);
    check_player(player, s_.num_seats());
    if (!s_.actor().acts(player))
      throw Error(fmt::format("it is not player {}'s turn: {}", player, to_string(s_.actor())));
    return R::to_action(s_, s_.parse_move(player, text));
  }

  std::vector<double> returns() const override {
    std::vector<double> r(static_cast<size_t>(s_.num_seats()), 0.0);
    if (!s_.terminal()) return r;
    if (g_->single_hand && s_.hands_finished() >= 1) {
      // The hand's result in the game's own unit, less the mean over sides:
      // zero-sum (Mexican Train's penalty points count against).
      std::vector<double> points;  // HandSummary::side_points, without its texts
      R::hand_points(s_, points);
      const double sign = g_->family == "mexican-train" ? -1.0 : 1.0;
      const double mean =
          std::accumulate(points.begin(), points.end(), 0.0) / static_cast<double>(std::max<size_t>(1, points.size()));
      for (int p = 0; p < s_.num_seats(); ++p) {
        const auto sd = static_cast<size_t>(s_.side_of(p));
        r[static_cast<size_t>(p)] = sd < points.size() ? sign * (points[sd] - mean) : 0.0;
      }
      return r;
    }
    s_.returns(r.data());
    return r;
  }

  std::vector<double> scores() const override {
    std::vector<double> r(static_cast<size_t>(s_.num_sides()));
    s_.scores(r.data());
    return r;
  }

  std::vector<std::pair<int, int>> history() const override {
    std::vector<std::pair<int, int>> out;
    out.reserve(actions_.size());
    for (const auto& [p, a] : actions_) out.emplace_back(p, a);
    return out;
  }

  void observation(int player, float* out) const override {
    check_player(player, s_.num_seats());
    R::observation(s_, player, out);
  }
  void info_state(int player, float* out) const override {
    check_player(player, s_.num_seats());
    R::info_state(s_, player, std::span<const Step<Move>>(hand_moves_), out);
  }
  std::string render(int player) const override {
    if (player != -1) check_player(player, s_.num_seats());
    return s_.render(player);
  }
  std::string view_json(int player) const override {
    if (player != -1) check_player(player, s_.num_seats());
    return s_.view(player).dump();
  }

  std::string serialize() const override {
    if (!seeded_)
      throw Error(
          "this state was resampled (resample_from_infostate or resample_chance): no seed replays it, so it has no "
          "record");
    if (explicit_) {
      // Explicit chance: the game, its seed and every action, chance ones
      // included (as OpenSpiel serializes a state): no CLI record can hold a
      // stock whose order is still being chosen draw by draw.
      nlohmann::json j;
      j["boneyard_state"] = 1;
      j["game"] = g_->name;
      nlohmann::json opts = nlohmann::json::array();
      for (const auto& [k, v] : g_->options) opts.push_back({k, v});
      j["options"] = opts;
      j["seed"] = seed_;
      j["explicit_chance"] = true;
      nlohmann::json acts = nlohmann::json::array();
      for (const auto& [p, a] : actions_) acts.push_back({p, a});
      j["actions"] = acts;
      return j.dump();
    }
    // Replays the actions from the seed in a Session: the record is the
    // CLI's own (docs/records.md).
    Session sess(g_->name, g_->options, seed_);
    sess.settle_chance();
    State s = fresh();
    for (const auto& [p, a] : actions_) {
      const Move m = R::from_action(s, a);
      sess.apply(p, s.move_text(m));
      s.apply(p, m);
      sess.settle_chance();
      while (!s.terminal() && s.actor().kind == Actor::Chance) s.apply_chance();
    }
    return sess.record().dump();
  }

  std::unique_ptr<StateBase> resample(int player, uint64_t seed) const override {
    check_player(player, s_.num_seats());
    if (chance_now())
      throw Error("resample_from_infostate: the state is at a chance node; resolve the chance event first");
    Rng rng(seed);
    State s = G::sample(s_.observe(player), rng);
    s.reseed(rng.next());
    auto out = std::make_unique<StateImpl>(*this);
    out->s_ = s;
    out->seeded_ = false;
    // The sampler's information state is the original's; another seat's
    // private past in the sampled world is unknown, so its text is the
    // public history and the tiles it holds now.
    out->root_ = make_root(s, player);
    return out;
  }

  int bot_action(AnyBot& bot, int player) const override {
    check_player(player, s_.num_seats());
    if (!s_.actor().acts(player))
      throw Error(fmt::format("it is not player {}'s turn: {}", player, to_string(s_.actor())));
    auto* typed = dynamic_cast<Bot<G>*>(&bot);
    if (!typed) throw Error(fmt::format("bot '{}' does not play {}", bot.name(), g_->name));
    List l;
    s_.legal_moves(player, l);
    if (l.size() == 1) return R::to_action(s_, l[0]);
    const Move m = typed->omniscient() ? typed->choose_seeing_all(s_, player, l.span())
                                       : typed->choose(s_.observe(player), l.span());
    return R::to_action(s_, m);
  }

  std::vector<std::pair<int, double>> bot_values(AnyBot& bot, int player) const override {
    check_player(player, s_.num_seats());
    if (!s_.actor().acts(player))
      throw Error(fmt::format("it is not player {}'s turn: {}", player, to_string(s_.actor())));
    auto* typed = dynamic_cast<Bot<G>*>(&bot);
    if (!typed) throw Error(fmt::format("bot '{}' does not play {}", bot.name(), g_->name));
    List l;
    s_.legal_moves(player, l);
    std::vector<double> v(static_cast<size_t>(l.size()));
    std::vector<std::pair<int, double>> out;
    if (!typed->values(s_.observe(player), l.span(), v.data())) return out;
    for (int i = 0; i < l.size(); ++i) out.emplace_back(R::to_action(s_, l[i]), v[static_cast<size_t>(i)]);
    std::sort(out.begin(), out.end());
    return out;
  }

  // Applies a parsed record's events (deserialize_state).
  void apply_event(const RecordEvent& e) {
    if (e.chance) {
      if (s_.actor().kind == Actor::Chance) s_.apply_chance_text(e.text);
      return;  // auto chance already dealt it (the same seed: the same outcome)
    }
    const int p = e.seat;
    check_player(p, s_.num_seats());
    if (!s_.actor().acts(p)) throw Error(fmt::format("record: it is not seat {}'s turn: {}", p, to_string(s_.actor())));
    const Move m = s_.parse_move(p, e.text);
    apply_for(p, R::to_action(s_, m));
    settle();
  }

 private:
  State fresh() const;

  Move legal_move(int player, int action) const {
    const Move m = R::from_action(s_, action);
    List l;
    s_.legal_moves(player, l);
    for (const Move& x : l)
      if (x == m) return x;
    std::string legal;
    for (const Move& x : l)
      legal += fmt::format("{}{} ({})", legal.empty() ? "" : ", ", R::to_action(s_, x), s_.move_text(x));
    throw Error(
        fmt::format("illegal action {} for player {}; legal: {}", action, player, legal.empty() ? "none" : legal));
  }

  void outcomes(std::vector<Outcome>& o) const {
    if (draws_needed_ > 0)
      R::draw_outcomes(s_, draws_done_, o);
    else
      R::chance_outcomes(s_, std::span<const uint8_t>(chosen_), o);
  }

  // Explicit chance: if this move (or simultaneous round) draws tiles from
  // the stock, it waits for them: one chance node per tile, then it is
  // applied with those tiles next in the stock. The move is in the history
  // before its tiles.
  bool start_draws(const Actor& a, const std::vector<int>& acts) {
    State probe = s_;
    const bool one = a.kind == Actor::Seat;
    for (int p = 0; p < s_.num_seats(); ++p) {
      if (!a.acts(p)) continue;
      const int x = one ? acts[0] : acts[static_cast<size_t>(p)];
      probe.apply(p, legal_move(p, x));
    }
    const uint32_t k = R::stock_draws(probe) - R::stock_draws(s_);
    if (k == 0) return false;
    pending_.assign(static_cast<size_t>(s_.num_seats()), -1);
    for (int p = 0; p < s_.num_seats(); ++p) {
      if (!a.acts(p)) continue;
      const int x = one ? acts[0] : acts[static_cast<size_t>(p)];
      pending_[static_cast<size_t>(p)] = x;
      actions_.emplace_back(p, x);
    }
    draws_needed_ = static_cast<int>(k);
    draws_done_ = 0;
    return true;
  }

  void apply_chance_action(int action) {
    std::vector<Outcome> o;
    outcomes(o);
    bool ok = false;
    for (const Outcome& x : o) ok = ok || x.action == action;
    if (!ok) {
      std::string list;
      for (const Outcome& x : o)
        list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", x.action, R::chance_action_text(x.action));
      throw Error(fmt::format("illegal chance action {}; the outcomes now: {}", action, list.empty() ? "none" : list));
    }
    if (draws_needed_ > 0) {
      R::put_next_draw(s_, draws_done_, action);
      actions_.emplace_back(kChancePlayer, action);
      if (++draws_done_ < draws_needed_) return;
      draws_needed_ = draws_done_ = 0;
      std::vector<int> moves;
      moves.swap(pending_);
      for (int p = 0; p < s_.num_seats(); ++p)
        if (moves[static_cast<size_t>(p)] >= 0) apply_for(p, moves[static_cast<size_t>(p)], false);
      return;
    }
    actions_.emplace_back(kChancePlayer, action);
    chosen_.push_back(static_cast<uint8_t>(action));
    const int hands = s_.hands_finished();
    if (R::chance_finish(s_, std::span<const uint8_t>(chosen_))) {
      chosen_.clear();
      if (s_.hands_finished() != hands) hand_moves_.clear();
    }
  }

  void apply_for(int player, int action, bool record = true) {
    const Move m = legal_move(player, action);
    const int hands = s_.hands_finished();
    s_.apply(player, m);
    if (record) actions_.emplace_back(player, action);
    if (s_.hands_finished() != hands)
      hand_moves_.clear();
    else
      hand_moves_.push_back({player, m});
  }

  // Auto chance: the state's own seeded generator resolves deals, draws and dice.
  void settle() {
    if (explicit_) return;  // chance nodes are the caller's to resolve
    while (!s_.terminal() && s_.actor().kind == Actor::Chance) {
      const int hands = s_.hands_finished();
      if (trace_) {
        const std::string event = R::chance_event(s_);
        s_.apply_chance();
        trace_log_.push_back(public_event(event) ? s_.chance_text() : event);
      } else {
        s_.apply_chance();
      }
      if (s_.hands_finished() != hands) hand_moves_.clear();
    }
  }

  // Rolls and the first-dealer draw are seen by every seat; a deal or a
  // draw from the stock only by the seat that gets the tiles.
  static bool public_event(std::string_view event) { return event == "roll" || event == "dealer_draw"; }

  // The perfect-recall information state of `player` (docs/python.md,
  // Information state): the history replayed from its root, every action
  // with its actor (another seat's move as that seat's opponents see it),
  // the public chance outcomes, and the player's own tiles each time they
  // change. Built only when asked: the play loop pays nothing for it.
  std::string info_string(int player) const override {
    check_player(player, s_.num_seats());
    return history_text(player, true);
  }

  // own = false: the public part only (the player's own moves and tiles
  // hidden), for a resampled world whose private past is unknown.
  std::string history_text(int player, bool own) const {
    StateImpl r(*this);
    r.actions_.clear();
    r.hand_moves_.clear();
    r.chosen_.clear();
    r.pending_.clear();
    r.draws_needed_ = r.draws_done_ = 0;
    r.trace_ = true;
    r.trace_log_.clear();
    std::string out;
    size_t start = 0;
    if (root_) {
      out = own ? root_->prefix[static_cast<size_t>(player)] : fmt::format("seat {}\n{}", player, root_->public_prefix);
      r.s_ = root_->state;
      start = root_->index;
    } else {
      out = fmt::format("seat {}\n", player);
      r.s_ = fresh();
      r.settle();
    }
    auto hand = [&] { return own ? R::hand_text(r.s_, player) : std::string(); };
    auto round = [&] {
      if constexpr (requires { R::public_round_text(r.s_); })
        return R::public_round_text(r.s_);
      else
        return std::string();
    };
    std::string last_hand = root_ ? hand() : std::string(), last_round = round();
    auto flush = [&] {
      if (std::string x = round(); x != last_round) {
        out += x + "\n";
        last_round = std::move(x);
      }
      for (const std::string& e : r.trace_log_) out += "chance " + e + "\n";
      r.trace_log_.clear();
      if (std::string h = hand(); h != last_hand) {
        out += "you hold " + h + "\n";
        last_hand = std::move(h);
      }
    };
    auto move_line = [&](int q, int action) {
      const Move m = R::from_action(r.s_, action);
      std::string text;
      if constexpr (requires { R::public_move_text(r.s_, q, m); })
        text = own && q == player ? r.s_.move_text(m) : R::public_move_text(r.s_, q, m);
      else
        text = r.s_.move_text(m);
      out += fmt::format("seat {} {}\n", q, text);
    };
    flush();
    size_t i = start;
    while (i < actions_.size()) {
      const auto [p, x] = actions_[i];
      if (p == kChancePlayer) {
        const std::string event = r.chance_event();
        out += "chance " + (public_event(event) ? R::chance_action_text(x) : event) + "\n";
        r.apply_action(x);
        ++i;
      } else if (r.current_player() == kSimultaneousPlayer) {
        const Actor a = r.s_.actor();
        std::vector<int> joint(static_cast<size_t>(r.s_.num_seats()), -1);
        int missing = std::popcount(static_cast<unsigned>(a.seats));
        while (missing-- > 0 && i < actions_.size()) {
          const auto [q, y] = actions_[i++];
          joint[static_cast<size_t>(q)] = y;
          move_line(q, y);
        }
        r.apply_actions(joint);
      } else {
        move_line(p, x);
        r.apply_action(x);
        ++i;
      }
      flush();
    }
    return out;
  }

  std::shared_ptr<const GameImpl<G, R>> g_;
  State s_;
  uint64_t seed_ = 0;
  bool seeded_ = true;
  std::vector<std::pair<int, int>> actions_;  // (player, action) in order
  std::vector<Step<Move>> hand_moves_;        // the current hand's moves
  // Explicit chance.
  bool explicit_ = false;
  std::vector<uint8_t> chosen_;  // the pending chance event's outcomes so far
  std::vector<int> pending_;     // per seat: the move waiting for its drawn tiles (-1: none)
  int draws_needed_ = 0, draws_done_ = 0;
  std::shared_ptr<const Root> root_;
  bool trace_ = false;  // settle() logs what every seat sees of each chance outcome
  std::vector<std::string> trace_log_;
};

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
    info_shape = R::info_state_shape(s);
    obs_size = std::accumulate(obs_shape.begin(), obs_shape.end(), 1, std::multiplies<>());
    info_size = std::accumulate(info_shape.begin(), info_shape.end(), 1, std::multiplies<>());
    max_length = R::max_game_length(s);
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

  PlayoutResult random_playouts(uint64_t n, uint64_t seed, int threads) const override {
    threads = std::max(1, threads);
    const State fresh = make(seed);
    std::atomic<uint64_t> next{0}, moves{0};
    const auto start = std::chrono::steady_clock::now();
    auto work = [&](int t) {
      Rng rng(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(t) + 1);
      State s = fresh;
      s.reseed(rng.next());
      uint64_t my_moves = 0;
      for (;;) {
        const uint64_t k = next.fetch_add(64);
        if (k >= n) break;
        for (uint64_t j = k; j < std::min(n, k + 64); ++j) {
          if (s.terminal()) {
            s = fresh;
            s.reseed(rng.next());
          }
          my_moves += static_cast<uint64_t>(play_random_hand<G>(s, rng));
        }
      }
      moves += my_moves;
    };
    std::vector<std::thread> pool;
    const double cpu0 = thread_cpu_seconds();
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    const double cpu = thread_cpu_seconds() - cpu0;
    for (auto& th : pool) th.join();
    PlayoutResult r;
    r.cpu_seconds = cpu;
    r.hands = n;
    r.moves = moves;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

  ArenaResult arena(const std::vector<std::string>& bots, uint64_t games, uint64_t seed, int threads,
                    const BotOptions& budget) const override {
    if (bots.empty()) throw Error("arena needs at least one bot name");
    for (const auto& b : bots) make_bot(*entry, b, 1, budget);  // unknown names fail here, with the GIL held
    threads = std::max(1, threads);
    const int n = players;
    std::vector<std::vector<double>> sums(static_cast<size_t>(threads),
                                          std::vector<double>(static_cast<size_t>(n), 0.0));
    std::atomic<uint64_t> next{0};
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
        StateImpl<G, R> st(this->shared_from_this(), make(game_seed), game_seed, true);
        while (!st.is_terminal()) {
          const int cp = st.current_player();
          if (cp >= 0) {
            st.apply_action(st.bot_action(*seat_bots[static_cast<size_t>(cp)], cp));
          } else {
            std::vector<int> acts(static_cast<size_t>(n), -1);
            for (int p = 0; p < n; ++p)
              if (st.acts(p)) acts[static_cast<size_t>(p)] = st.bot_action(*seat_bots[static_cast<size_t>(p)], p);
            st.apply_actions(acts);
          }
        }
        const auto r = st.returns();
        for (int p = 0; p < n; ++p) sums[static_cast<size_t>(t)][static_cast<size_t>(p)] += r[static_cast<size_t>(p)];
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    ArenaResult out;
    out.games = games;
    out.returns.assign(static_cast<size_t>(n), 0.0);
    for (const auto& s : sums)
      for (int p = 0; p < n; ++p) out.returns[static_cast<size_t>(p)] += s[static_cast<size_t>(p)];
    for (auto& x : out.returns) x /= static_cast<double>(std::max<uint64_t>(1, games));
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

OptionList to_options(const py::object& params) {
  OptionList out;
  if (params.is_none()) return out;
  if (!py::isinstance<py::dict>(params)) throw Error("params must be a dict of option names to values");
  for (auto item : py::reinterpret_borrow<py::dict>(params)) {
    const std::string key = py::str(item.first);
    py::handle v = item.second;
    std::string value;
    if (py::isinstance<py::bool_>(v))
      value = v.cast<bool>() ? "on" : "off";
    else
      value = py::str(v);
    out.emplace_back(key, value);
  }
  return out;
}

std::shared_ptr<GameBase> load_game(const std::string& name, const py::object& params) {
  register_all_games();
  const GameEntry& e = find_game(name);
  const OptionList opts = to_options(params);
  std::shared_ptr<GameBase> g;
  auto build = [&]<class G, class R>() {
    auto impl = std::make_shared<GameImpl<G, R>>();
    impl->name = e.name;
    impl->family = e.family;
    impl->options = opts;
    impl->entry = &e;
    impl->init();
    g = impl;
  };
  if (e.family == "line")
    build.template operator()<line::LineGame, line::Research>();
  else if (e.family == "mexican-train")
    build.template operator()<mexican_train::MexicanTrain, mexican_train::Research>();
  else if (e.family == "texas-42")
    build.template operator()<texas42::Texas42, texas42::Research>();
  else if (e.family == "dice-and-dominoes")
    build.template operator()<dice_dominoes::DiceDominoes, dice_dominoes::Research>();
  else
    throw Error(fmt::format("game '{}' (family {}) has no Python support yet", name, e.family));
  return g;
}

// The Python-facing wrappers: a State keeps its Game alive.
struct PyGame {
  std::shared_ptr<GameBase> g;
};

struct PyState {
  std::unique_ptr<StateBase> s;
  PyState clone() const { return PyState{s->clone()}; }
};

struct PyBot {
  std::unique_ptr<AnyBot> bot;
  std::string game;
  int seat = 0;
};

uint64_t seed_of(const py::object& seed) {
  if (seed.is_none()) return std::random_device{}() * 0x100000001ull + std::random_device{}();
  const auto bad = [&] {
    return Error(fmt::format("seed must be an int in 0..2**64-1 (or None for OpenSpiel's chance root), got {}",
                             std::string(py::repr(seed))));
  };
  if (!py::isinstance<py::int_>(seed) || py::isinstance<py::bool_>(seed)) throw bad();
  const unsigned long long v = PyLong_AsUnsignedLongLong(seed.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw bad();
  }
  return v;
}

// A player argument: None is the current player; CHANCE names the chance
// player; anything else must be a seat.
int player_arg(const StateBase& s, const py::object& player) {
  if (player.is_none()) return s.current_player();
  if (!py::isinstance<py::int_>(player))
    throw Error(fmt::format("player must be an int, got {}", std::string(py::repr(player))));
  const int p = player.cast<int>();
  if (p != kChancePlayer) check_player(p, s.num_players());
  return p;
}

// A seat argument (tensors, strings): None is the current player, which
// must then be a seat.
int seat_arg(const StateBase& s, const py::object& player) {
  if (player.is_none()) {
    const int p = s.current_player();
    if (p < 0) throw Error(fmt::format("no player to act now (current player {}): name the player", p));
    return p;
  }
  if (!py::isinstance<py::int_>(player))
    throw Error(fmt::format("player must be an int, got {}", std::string(py::repr(player))));
  const int p = player.cast<int>();
  check_player(p, s.num_players());
  return p;
}

py::array_t<float> new_tensor(const std::vector<int>& shape) {
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  return py::array_t<float>(dims);
}

// A preallocated numpy buffer: float32, C-contiguous, writeable, the
// tensor's size (any shape), written in place.
float* buffer_of(py::array& buf, int size) {
  if (!buf.dtype().is(py::dtype::of<float>()) || !(buf.flags() & py::array::c_style) || !buf.writeable())
    throw Error("the buffer must be a writeable C-contiguous numpy array of float32");
  if (buf.size() != size) throw Error(fmt::format("the buffer has {} floats; the tensor needs {}", buf.size(), size));
  return static_cast<float*>(buf.mutable_data());
}

}  // namespace

PYBIND11_MODULE(_boneyard, m) {
  m.doc() = "Boneyard domino games: an OpenSpiel-style API (docs/python.md)";
  // A ValueError (bad input) that is also a RuntimeError, as pyspiel.SpielError is.
  py::register_exception<Error>(m, "BoneyardError",
                                py::make_tuple(py::handle(PyExc_ValueError), py::handle(PyExc_RuntimeError)));
  register_all_games();

  m.attr("CHANCE") = kChancePlayer;
  m.attr("SIMULTANEOUS") = kSimultaneousPlayer;
  m.attr("INVALID") = -3;
  m.attr("TERMINAL") = kTerminalPlayer;

  m.def("registered_games", [] {
    register_all_games();
    std::vector<std::string> out;
    for (const auto& e : games()) out.push_back(e.name);
    return out;
  });
  m.def("game_info", [](const std::string& name) {
    register_all_games();
    const GameEntry& e = find_game(name);
    py::dict d;
    d["name"] = e.name;
    d["family"] = e.family;
    d["summary"] = e.summary;
    d["bots"] = e.bots;
    d["search_bots"] = e.search_bots;
    d["describe"] = e.describe().dump();
    return d;
  });

  py::class_<PyGame>(m, "Game")
      .def("name", [](const PyGame& g) { return g.g->name; })
      .def("family", [](const PyGame& g) { return g.g->family; })
      .def("params",
           [](const PyGame& g) {
             py::dict d;
             for (const auto& [k, v] : g.g->options) d[py::str(k)] = v;
             return d;
           })
      .def("options_json", [](const PyGame& g) { return g.g->options_text; })
      .def("num_players", [](const PyGame& g) { return g.g->players; })
      .def("num_distinct_actions", [](const PyGame& g) { return g.g->actions; })
      .def("max_game_length", [](const PyGame& g) { return g.g->max_length; })
      .def("max_chance_outcomes", [](const PyGame& g) { return g.g->chance_actions; })
      .def("single_hand", [](const PyGame& g) { return g.g->single_hand; })
      .def("observation_tensor_shape", [](const PyGame& g) { return g.g->obs_shape; })
      .def("observation_tensor_size", [](const PyGame& g) { return g.g->obs_size; })
      .def("information_state_tensor_shape", [](const PyGame& g) { return g.g->info_shape; })
      .def("information_state_tensor_size", [](const PyGame& g) { return g.g->info_size; })
      .def(
          "_new_initial_state",
          [](const PyGame& g, const py::object& seed, bool explicit_chance) {
            return PyState{g.g->new_state(seed_of(seed), explicit_chance)};
          },
          py::arg("seed") = py::none(), py::arg("explicit_chance") = false)
      .def("deserialize_state",
           [](const PyGame& g, const std::string& text) { return PyState{g.g->from_record(text)}; })
      .def("_random_playouts",
           [](const PyGame& g, uint64_t n, uint64_t seed, int threads) {
             PlayoutResult r;
             {
               py::gil_scoped_release nogil;
               r = g.g->random_playouts(n, seed, threads);
             }
             py::dict d;
             d["hands"] = r.hands;
             d["moves"] = r.moves;
             d["seconds"] = r.seconds;
             d["hands_per_second"] = r.seconds > 0 ? static_cast<double>(r.hands) / r.seconds : 0.0;
             d["cpu_seconds"] = r.cpu_seconds;  // thread 0's own time
             return d;
           })
      .def("_arena",
           [](const PyGame& g, const std::vector<std::string>& bots, uint64_t games, uint64_t seed, int threads,
              double think_ms, int iterations, int bot_threads) {
             BotOptions b;
             b.think_ms = think_ms;
             b.iterations = iterations;
             b.threads = std::max(1, bot_threads);
             ArenaResult r;
             {
               py::gil_scoped_release nogil;
               r = g.g->arena(bots, games, seed, threads, b);
             }
             py::dict d;
             d["games"] = r.games;
             d["returns"] = r.returns;
             d["seconds"] = r.seconds;
             return d;
           })
      .def("__str__", [](const PyGame& g) { return g.g->name; });

  m.def(
      "_load_game", [](const std::string& name, const py::object& params) { return PyGame{load_game(name, params)}; },
      py::arg("name"), py::arg("params") = py::none());

  py::class_<PyState>(m, "State")
      .def("current_player", [](const PyState& s) { return s.s->current_player(); })
      .def("is_chance_node", [](const PyState& s) { return s.s->current_player() == kChancePlayer; })
      .def("is_simultaneous_node", [](const PyState& s) { return s.s->current_player() == kSimultaneousPlayer; })
      .def("is_terminal", [](const PyState& s) { return s.s->is_terminal(); })
      .def("is_player_acting", [](const PyState& s, int p) { return s.s->acts(p); })
      .def("num_players", [](const PyState& s) { return s.s->num_players(); })
      .def("hands_finished", [](const PyState& s) { return s.s->hands_finished(); })
      .def("chance_outcomes", [](const PyState& s) { return s.s->chance_outcomes(); })
      .def("explicit_chance", [](const PyState& s) { return s.s->explicit_chance(); })
      .def("chance_event", [](const PyState& s) { return s.s->chance_event(); })
      .def(
          "legal_actions",
          [](const PyState& s, const py::object& player) {
            const int p = player_arg(*s.s, player);
            static thread_local std::vector<int> buf;
            s.s->legal_actions(p, buf);
            py::list out(buf.size());
            for (size_t i = 0; i < buf.size(); ++i)
              PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), PyLong_FromLong(buf[i]));
            return out;
          },
          py::arg("player") = py::none())
      .def(
          "legal_actions_mask",
          [](const PyState& s, const py::object& player) {
            const int p = player_arg(*s.s, player);
            std::vector<int> buf;
            s.s->legal_actions(p, buf);
            py::array_t<int8_t> mask(p == kChancePlayer ? s.s->game().chance_actions : s.s->game().actions);
            std::fill(mask.mutable_data(), mask.mutable_data() + mask.size(), int8_t{0});
            for (int a : buf) mask.mutable_data()[a] = 1;
            return mask;
          },
          py::arg("player") = py::none())
      // DominoEnv.observe in one call: {"observation": tensor, "action_mask": mask}.
      .def("_env_observation",
           [](const PyState& s, int p, bool masked) {
             check_player(p, s.s->num_players());
             auto obs = new_tensor(s.s->game().obs_shape);
             s.s->observation(p, obs.mutable_data());
             py::array_t<int8_t> mask(s.s->game().actions);
             std::fill(mask.mutable_data(), mask.mutable_data() + mask.size(), int8_t{0});
             if (!masked) {
               static thread_local std::vector<int> buf;
               s.s->legal_actions(p, buf);
               for (int a : buf) mask.mutable_data()[a] = 1;
             }
             py::dict d;
             d["observation"] = std::move(obs);
             d["action_mask"] = std::move(mask);
             return d;
           })
      .def("apply_action", [](PyState& s, int a) { s.s->apply_action(a); })
      .def("apply_actions", [](PyState& s, const std::vector<int>& a) { s.s->apply_actions(a); })
      .def("action_to_string", [](const PyState& s, int p, int a) { return s.s->action_to_string(p, a); })
      .def("string_to_action",
           [](const PyState& s, int p, const std::string& t) { return s.s->string_to_action(p, t); })
      .def("returns", [](const PyState& s) { return s.s->returns(); })
      .def("scores", [](const PyState& s) { return s.s->scores(); })
      .def("history",
           [](const PyState& s) {
             std::vector<int> out;
             for (const auto& [p, a] : s.s->history()) out.push_back(a);
             return out;
           })
      .def("full_history", [](const PyState& s) { return s.s->history(); })
      .def(
          "observation_string", [](const PyState& s, const py::object& p) { return s.s->render(seat_arg(*s.s, p)); },
          py::arg("player") = py::none())
      .def(
          "information_state_string",
          [](const PyState& s, const py::object& p) { return s.s->info_string(seat_arg(*s.s, p)); },
          py::arg("player") = py::none())
      .def(
          "view_json", [](const PyState& s, int p) { return s.s->view_json(p); }, py::arg("player") = -1)
      .def(
          "observation_tensor",
          [](const PyState& s, const py::object& p) {
            auto out = new_tensor(s.s->game().obs_shape);
            s.s->observation(seat_arg(*s.s, p), out.mutable_data());
            return out;
          },
          py::arg("player") = py::none())
      .def("observation_tensor_into",
           [](const PyState& s, int p, py::array& buf) { s.s->observation(p, buffer_of(buf, s.s->game().obs_size)); })
      .def(
          "information_state_tensor",
          [](const PyState& s, const py::object& p) {
            auto out = new_tensor(s.s->game().info_shape);
            s.s->info_state(seat_arg(*s.s, p), out.mutable_data());
            return out;
          },
          py::arg("player") = py::none())
      .def("information_state_tensor_into",
           [](const PyState& s, int p, py::array& buf) { s.s->info_state(p, buffer_of(buf, s.s->game().info_size)); })
      .def("clone", &PyState::clone)
      .def("__copy__", &PyState::clone)
      .def("__deepcopy__", [](const PyState& s, py::object) { return s.clone(); })
      .def("serialize", [](const PyState& s) { return s.s->serialize(); })
      .def("resample_from_infostate",
           [](const PyState& s, int p, uint64_t seed) { return PyState{s.s->resample(p, seed)}; })
      .def("_bot_action",
           [](const PyState& s, PyBot& b, int p) {
             py::gil_scoped_release nogil;
             return s.s->bot_action(*b.bot, p);
           })
      .def("_bot_values",
           [](const PyState& s, PyBot& b, int p) {
             py::gil_scoped_release nogil;
             return s.s->bot_values(*b.bot, p);
           })
      .def("game_name", [](const PyState& s) { return s.s->game().name; })
      .def("get_game", [](const PyState& s) { return PyGame{s.s->game_shared()}; })
      .def("_reshuffle", [](PyState& s, const py::object& seed) { s.s->reshuffle(seed_of(seed)); })
      .def("__str__", [](const PyState& s) { return s.s->render(-1); })
      .def("__repr__", [](const PyState& s) { return fmt::format("<boneyard.State of {}>", s.s->game().name); });

  py::class_<PyBot>(m, "Bot").def_readonly("seat", &PyBot::seat).def("name", [](const PyBot& b) {
    return b.bot->name();
  });
  m.def("_make_bot", [](const PyGame& g, const std::string& name, int seat, double think_ms, int iterations,
                        uint64_t seed, int threads) {
    BotOptions o;
    o.think_ms = think_ms;
    o.iterations = iterations;
    o.threads = std::max(1, threads);
    check_player(seat, g.g->players);
    return PyBot{make_bot(*g.g->entry, name, seed, o), g.g->name, seat};
  });
}
