#pragma once
// GameAdapter<G>: the one implementation of AnyState for every concrete game.
#include <fmt/format.h>

#include <algorithm>
#include <concepts>
#include <nlohmann/json.hpp>

#include "core/game.h"

namespace boneyard {

// The game contract of game.h as a concept: a game that misses a member, or
// gives one the wrong shape, fails here with the member's name instead of
// deep inside an adapter or a bot.
template <class G>
concept Game = requires(const typename G::State& s, typename G::State& m, typename G::Move mv,
                        MoveList<typename G::Move, G::kMaxMoves>& list, int seat, double* out, std::string_view text,
                        uint64_t seed, Rng& rng, const typename G::Observation& obs) {
  typename G::Options;
  { G::kMaxMoves } -> std::convertible_to<int>;
  { s.num_seats() } -> std::convertible_to<int>;
  { s.num_sides() } -> std::convertible_to<int>;
  { s.side_of(seat) } -> std::convertible_to<int>;
  { s.actor() } -> std::same_as<Actor>;
  s.legal_moves(seat, list);
  m.apply(seat, mv);
  m.apply_chance();
  { s.chance_text() } -> std::convertible_to<std::string>;
  m.apply_chance_text(text);
  { s.move_text(mv) } -> std::convertible_to<std::string>;
  { s.parse_move(seat, text) } -> std::same_as<typename G::Move>;
  { s.terminal() } -> std::convertible_to<bool>;
  s.returns(out);
  { s.hands_finished() } -> std::convertible_to<int>;
  { s.last_hand() } -> std::convertible_to<HandSummary>;
  s.scores(out);
  { s.observe(seat) } -> std::convertible_to<typename G::Observation>;
  { s.view(seat) } -> std::convertible_to<nlohmann::json>;
  { s.render(seat) } -> std::convertible_to<std::string>;
  { s.options_json() } -> std::convertible_to<nlohmann::json>;
  m.reseed(seed);
  { G::sample(obs, rng) } -> std::convertible_to<typename G::State>;
  { G::side_name(s, seat) } -> std::convertible_to<std::string>;
  { G::reward(s, s, seat) } -> std::convertible_to<double>;
}
&&std::copy_constructible<typename G::State>&& std::is_trivially_copyable_v<typename G::Move>;

template <Game G>
class GameAdapter final : public AnyState {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using List = MoveList<Move, G::kMaxMoves>;

  GameAdapter(std::string name, State s) : name_(std::move(name)), s_(std::move(s)) {}

  std::unique_ptr<AnyState> clone() const override { return std::make_unique<GameAdapter>(*this); }
  const std::string& game() const override { return name_; }
  nlohmann::json options() const override { return s_.options_json(); }
  int num_seats() const override { return s_.num_seats(); }
  int num_sides() const override { return s_.num_sides(); }
  int side_of(int seat) const override { return s_.side_of(seat); }
  std::string side_name(int side) const override { return G::side_name(s_, side); }
  Actor actor() const override { return s_.actor(); }

  std::vector<std::string> legal_moves(int seat) const override {
    std::vector<std::string> out;
    if (!s_.actor().acts(seat)) return out;
    List l;
    s_.legal_moves(seat, l);
    for (const Move& m : l) out.push_back(s_.move_text(m));
    return out;
  }

  std::string move_words(int seat, std::string_view text) const override {
    check_turn(seat);
    const Move m = s_.parse_move(seat, text);
    if constexpr (requires { s_.move_words(seat, m); })
      return s_.move_words(seat, m);
    else
      return s_.move_text(m);
  }

  std::string apply(int seat, std::string_view text) override {
    check_turn(seat);
    const Move m = s_.parse_move(seat, text);
    std::string canon = s_.move_text(m);
    s_.apply(seat, m);
    after();
    return canon;
  }

  std::string apply_chance() override {
    if (s_.actor().kind != Actor::Chance) throw Error("no chance event is pending now: " + to_string(s_.actor()));
    s_.apply_chance();
    std::string text = s_.chance_text();
    after();
    return text;
  }
  void apply_chance(std::string_view outcome) override {
    if (s_.actor().kind != Actor::Chance) throw Error("no chance event is pending now: " + to_string(s_.actor()));
    s_.apply_chance_text(outcome);
    after();
  }

  bool terminal() const override { return s_.terminal(); }
  std::vector<double> returns() const override {
    std::vector<double> r(static_cast<size_t>(s_.num_seats()));
    s_.returns(r.data());
    return r;
  }
  std::vector<double> scores() const override {
    std::vector<double> r(static_cast<size_t>(s_.num_sides()));
    s_.scores(r.data());
    return r;
  }
  const std::vector<HandSummary>& hands() const override { return hands_; }
  int deals() const override {
    if constexpr (requires { s_.redeals(); })
      return s_.hands_finished() + s_.redeals();
    else
      return s_.hands_finished();
  }
  nlohmann::json view(int seat) const override { return s_.view(seat); }
  std::string render(int seat) const override { return s_.render(seat); }

  std::string play_bot(int seat, AnyBot& bot) override {
    const Move m = choose(seat, bot);
    std::string text = s_.move_text(m);
    s_.apply(seat, m);
    after();
    return text;
  }
  std::string ask_bot(int seat, AnyBot& bot) const override { return s_.move_text(choose(seat, bot)); }
  std::vector<std::pair<std::string, double>> bot_values(int seat, AnyBot& bot) const override {
    check_turn(seat);
    Bot<G>& typed = typed_bot(bot);
    List l;
    s_.legal_moves(seat, l);
    std::vector<double> v(static_cast<size_t>(l.size()));
    std::vector<std::pair<std::string, double>> out;
    if (!typed.values(s_.observe(seat), l.span(), v.data())) return out;
    for (int i = 0; i < l.size(); ++i) out.emplace_back(s_.move_text(l[i]), v[static_cast<size_t>(i)]);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return out;
  }

  const State& state() const { return s_; }

 private:
  void check_turn(int seat) const {
    const Actor a = s_.actor();
    if (seat < 0 || seat >= s_.num_seats())
      throw Error(fmt::format("seat {} does not exist; seats are 0..{}", seat, s_.num_seats() - 1));
    if (!a.acts(seat)) throw Error(fmt::format("it is not seat {}'s turn: {}", seat, to_string(a)));
  }
  Bot<G>& typed_bot(AnyBot& bot) const {
    auto* typed = dynamic_cast<Bot<G>*>(&bot);
    if (!typed) throw Error(fmt::format("bot '{}' does not play {}", bot.name(), name_));
    return *typed;
  }
  Move choose(int seat, AnyBot& bot) const {
    check_turn(seat);
    Bot<G>& typed = typed_bot(bot);
    List l;
    s_.legal_moves(seat, l);
    if (l.size() == 1) return l[0];  // nothing to think about
    // Only a bot that says it cheats is shown the whole state.
    if (typed.omniscient()) return typed.choose_seeing_all(s_, seat, l.span());
    return typed.choose(s_.observe(seat), l.span());
  }
  void after() {
    while (static_cast<int>(hands_.size()) < s_.hands_finished()) hands_.push_back(s_.last_hand());
  }

  std::string name_;
  State s_;
  std::vector<HandSummary> hands_;
};

// The game's own state behind an AnyState of game G; nullptr for another game.
template <Game G>
const typename G::State* typed_state(const AnyState& st) {
  const auto* a = dynamic_cast<const GameAdapter<G>*>(&st);
  return a ? &a->state() : nullptr;
}

// Random playouts of G from `fresh` until `seconds` pass, for `bench`.
template <class G>
BenchResult bench_random_playouts(const typename G::State& fresh, uint64_t seed, double seconds);

}  // namespace boneyard
