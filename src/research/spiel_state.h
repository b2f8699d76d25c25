#pragma once
// StateImpl<G, R>: the OpenSpiel state of one game family G with its
// research encoders R (src/<game>/research.h): explicit or seeded chance,
// the perfect-recall information state, serialize and resample
// (docs/python.md). Instantiated once per family (src/<game>/spiel.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "core/adapter.h"
#include "core/game.h"
#include "core/research.h"
#include "record/session.h"
#include "research/spiel.h"

namespace boneyard::spiel {

// Python's returns(): with single_hand, the hand's result in the game's own
// unit less the mean over sides (zero-sum; Mexican Train's penalty points
// count against); else the game's own returns. Zeros before the end.
template <class G, class R>
std::vector<double> spiel_returns(const typename G::State& s, bool single_hand, bool penalty_points) {
  std::vector<double> r(static_cast<size_t>(s.num_seats()), 0.0);
  if (!s.terminal()) return r;
  if (single_hand && s.hands_finished() >= 1) {
    std::vector<double> points;  // HandSummary::side_points, without its texts
    R::hand_points(s, points);
    const double sign = penalty_points ? -1.0 : 1.0;
    const double mean =
        std::accumulate(points.begin(), points.end(), 0.0) / static_cast<double>(std::max<size_t>(1, points.size()));
    for (int p = 0; p < s.num_seats(); ++p) {
      const auto sd = static_cast<size_t>(s.side_of(p));
      r[static_cast<size_t>(p)] = sd < points.size() ? sign * (points[sd] - mean) : 0.0;
    }
    return r;
  }
  s.returns(r.data());
  return r;
}

template <class G, class R>
class GameImpl;

// Every family's Research gives the perfect-recall tensor's parts
// (core/research.h): info_max_hands, info_hand_size, info_hand,
// info_step_size, info_max_steps, info_step.
template <class G, class R>
concept RecallTensor = requires(const typename G::State& s, const typename G::Move& m, float* out) {
  R::info_hand_size(s);
  R::info_hand(s, 0, out);
  R::info_step_size(s);
  R::info_max_steps(s);
  R::info_max_hands(s);
  R::info_step(s, s, 0, 0, m, true, out);
};

template <class G, class R>
class StateImpl final : public StateBase {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using List = MoveList<Move, G::kMaxMoves>;

  // The perfect-recall information-state tensor (docs/python.md, Tensors):
  // per hand of the game (R::info_max_hands), the player's tiles when the
  // hand's first step came (R::info_hand), then the hand's steps, each one
  // slot (the actor relative to the observer, then the family's
  // R::info_step). Each hand has its own part, so the whole game is
  // recalled and where a hand ends is never ambiguous.
  struct RecallStep {
    State before;
    int actor;
    Move move;
  };
  struct RecallAcc {
    int hands = -1;  // hands_finished() of the hand being recorded
    int n = 0;       // its slots written
    bool have_hand = false;
    std::vector<float> data;          // per hand so far (R::info_max_hands at most): H, then N slots of K
    std::vector<RecallStep> pending;  // steps whose outcome (chance included) is not known yet
  };

  // Information state: a resampled (or reshuffled) state's history starts
  // at that point (the root), after the text each seat had there.
  struct Root {
    State state;
    size_t index = 0;                 // actions_ before the root
    std::vector<std::string> prefix;  // per player: the text up to the root
    std::string public_prefix;        // the public part (no "seat N" line)
    // Perfect-recall tensor (recall_walk): per player the steps up to the
    // root as that player's tensor had them (own), and their public part.
    std::vector<RecallAcc> recall, recall_public;
  };

  StateImpl(std::shared_ptr<const GameImpl<G, R>> g, State s, uint64_t seed, bool seeded, bool explicit_chance = false)
      : g_(std::move(g)), s_(std::move(s)), seed_(seed), seeded_(seeded), explicit_(explicit_chance) {
    settle();
  }

  std::unique_ptr<StateBase> clone() const override { return std::make_unique<StateImpl>(*this); }
  std::shared_ptr<const GameBase> game_shared() const override { return g_; }

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
    for (int q = 0; q < s_.num_seats(); ++q) {
      root->recall_public.push_back(recall_walk(q, false));
      root->recall.push_back(keep < 0 || q == keep ? recall_walk(q, true) : root->recall_public.back());
    }
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

  void undo(int player, int action) override {
    if (actions_.empty()) throw Error("undo_action: no action to undo (the state is at its start)");
    const auto [p, a] = actions_.back();
    if (p != player || a != action)
      throw Error(
          fmt::format("undo_action: the last action is {} of player {}, not {} of player {}", a, p, action, player));
    if (!seeded_ || root_)
      throw Error("undo_action: this state was resampled; no seed replays it, so no action can be undone");
    StateImpl r(g_, g_->make(seed_), seed_, true, explicit_);
    r.replay(std::vector<std::pair<int, int>>(actions_.begin(), actions_.end() - 1));
    *this = std::move(r);
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

  std::vector<double> returns() const override { return spiel_returns<G, R>(s_, g_->single_hand, g_->entry->penalty); }

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
    const RecallAcc acc = recall_walk(player, true);
    R::observation(s_, player, out);
    float* rest = std::copy(acc.data.begin(), acc.data.end(), out + g_->obs_size);
    std::fill(rest, out + g_->info_size, 0.0f);  // hands not reached yet
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
    if (R::chance_finish(s_, std::span<const uint8_t>(chosen_))) chosen_.clear();
  }

  void apply_for(int player, int action, bool record = true) {
    s_.apply(player, legal_move(player, action));
    if (record) actions_.emplace_back(player, action);
  }

  // Auto chance: the state's own seeded generator resolves deals, draws and dice.
  void settle() {
    if (explicit_) return;  // chance nodes are the caller's to resolve
    while (!s_.terminal() && s_.actor().kind == Actor::Chance) {
      if (trace_) {
        const std::string event = R::chance_event(s_);
        s_.apply_chance();
        trace_log_.push_back(public_event(event) ? s_.chance_text() : event);
      } else {
        s_.apply_chance();
      }
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
        // One line per chance event, once it is complete, as the seeded
        // state's trace gives it (settle), so one information state has one
        // string from the chance root or a seed; tiles owed to a move that
        // draws show as that seat's hand, as in a seeded state.
        const bool owed = r.draws_needed_ > 0;
        const std::string event = r.chance_event();
        r.apply_action(x);
        if (!owed && r.chosen_.empty()) r.trace_log_.push_back(public_event(event) ? r.s_.chance_text() : event);
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
      // Chance events in a row make one flush, as one settle() does in a
      // seeded state (a deal then a roll: both lines, then the hand).
      if (i < actions_.size() && actions_[i].first == kChancePlayer) continue;
      flush();
    }
    return out;
  }

  // The game's steps as `player` knows them (own = false: the public part
  // only), replaying the history from its root as history_text does, so a
  // seeded state and the chance root give one tensor.
  RecallAcc recall_walk(int player, bool own) const {
    const int S = s_.num_seats();
    const State& f = root_ ? root_->state : s_;
    const int H = R::info_hand_size(f), K = S + R::info_step_size(f), N = R::info_max_steps(f);
    const int hands = R::info_max_hands(f);
    const size_t part = static_cast<size_t>(H) + static_cast<size_t>(N) * static_cast<size_t>(K);
    StateImpl r(*this);
    r.actions_.clear();
    r.chosen_.clear();
    r.pending_.clear();
    r.draws_needed_ = r.draws_done_ = 0;
    r.trace_ = false;
    RecallAcc acc;
    size_t i = 0;
    if (root_) {
      acc = (own ? root_->recall : root_->recall_public)[static_cast<size_t>(player)];
      r.s_ = root_->state;
      i = root_->index;
    } else {
      r.s_ = fresh();
      r.settle();
    }
    // The part of hand k (hands_finished), or null past the room (left out).
    // The parts are allocated as the hands come (the rest of the tensor is
    // zeros), so a state early in a long game carries little.
    auto part_of = [&](int k) -> float* {
      if (k < 0 || k >= hands) return nullptr;
      const size_t end = static_cast<size_t>(k + 1) * part;
      if (acc.data.size() < end) acc.data.resize(end, 0.0f);
      return acc.data.data() + static_cast<size_t>(k) * part;
    };
    auto reset = [&](const State& at) {
      acc.hands = at.hands_finished();
      acc.n = 0;
      acc.have_hand = false;
    };
    if (acc.hands < 0) reset(r.s_);
    // The pending steps' slots, once what followed them is known (`after`:
    // the state before the next step, or now).
    auto flush = [&](const State& after) {
      float* base = part_of(acc.hands);
      for (const RecallStep& st : acc.pending) {
        if (!base || acc.n >= N) break;
        float* slot = base + H + static_cast<size_t>(acc.n) * static_cast<size_t>(K);
        slot[(st.actor - player + S) % S] = 1.0f;
        R::info_step(st.before, after, player, st.actor, st.move, own, slot + S);
        ++acc.n;
      }
      acc.pending.clear();
    };
    auto hand = [&](const State& at) {
      if (float* base = part_of(acc.hands); base && own) R::info_hand(at, player, base);
      acc.have_hand = true;
    };
    auto begin = [&](const State& at) {
      flush(at);
      if (at.hands_finished() != acc.hands) reset(at);
      if (!acc.have_hand) hand(at);
    };
    while (i < actions_.size()) {
      const auto [p, x] = actions_[i];
      if (p == kChancePlayer) {
        r.apply_action(x);
        ++i;
      } else if (r.current_player() == kSimultaneousPlayer) {
        begin(r.s_);
        const Actor a = r.s_.actor();
        std::vector<int> joint(static_cast<size_t>(S), -1);
        int missing = std::popcount(static_cast<unsigned>(a.seats));
        while (missing-- > 0 && i < actions_.size()) {
          const auto [q, y] = actions_[i++];
          joint[static_cast<size_t>(q)] = y;
          acc.pending.push_back({r.s_, q, R::from_action(r.s_, y)});
        }
        r.apply_actions(joint);
      } else {
        begin(r.s_);
        acc.pending.push_back({r.s_, p, R::from_action(r.s_, x)});
        r.apply_action(x);
        ++i;
      }
    }
    flush(r.s_);
    if (!r.s_.terminal() && r.s_.hands_finished() != acc.hands) reset(r.s_);
    if (!acc.have_hand && !r.chance_now()) hand(r.s_);
    return acc;
  }

  std::shared_ptr<const GameImpl<G, R>> g_;
  State s_;
  uint64_t seed_ = 0;
  bool seeded_ = true;
  std::vector<std::pair<int, int>> actions_;  // (player, action) in order
  // Explicit chance.
  bool explicit_ = false;
  std::vector<uint8_t> chosen_;  // the pending chance event's outcomes so far
  std::vector<int> pending_;     // per seat: the move waiting for its drawn tiles (-1: none)
  int draws_needed_ = 0, draws_done_ = 0;
  std::shared_ptr<const Root> root_;
  bool trace_ = false;  // settle() logs what every seat sees of each chance outcome
  std::vector<std::string> trace_log_;
};

}  // namespace boneyard::spiel
