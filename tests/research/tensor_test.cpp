// The perfect-recall information-state tensor (src/research/spiel_state.h,
// docs/python.md, Tensors): two information states of a seat have the same
// tensor exactly when they have the same string, over a hand and over a
// whole game of several hands, and the tensor never depends on a tile the
// seat cannot see.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/env.h"
#include "core/rng.h"
#include "research/spiel.h"

namespace boneyard::spiel {
namespace {

// Every family, one hand (whole games: WholeGamesAcrossHands).
const char* const kGames[] = {"latin", "two-draw", "three-draw", "mexican-train", "texas-42", "dice-and-dominoes"};

// The tensor's bytes, in a buffer kept from call to call: a whole game's
// tensor is megabytes, and a fresh one each time cost most of the test's
// time in page faults. Valid until the next call.
std::string_view tensor_view(const StateBase& s, int p) {
  thread_local std::vector<float> t;
  t.assign(static_cast<size_t>(s.game().info_size), 0.0F);
  s.info_state(p, t.data());
  return {reinterpret_cast<const char*>(t.data()), t.size() * sizeof(float)};
}

std::string tensor_of(const StateBase& s, int p) { return std::string(tensor_view(s, p)); }

std::string observation_of(const StateBase& s, int p) {
  std::vector<float> t(static_cast<size_t>(s.game().obs_size));
  s.observation(p, t.data());
  return std::string(reinterpret_cast<const char*>(t.data()), t.size() * sizeof(float));
}

// One random step: a chance outcome, a move, or a simultaneous round.
void random_step(StateBase& s, Rng& rng) {
  std::vector<int> acts;
  const int p = s.current_player();
  if (p == kChancePlayer) {
    const auto o = s.chance_outcomes();
    s.apply_action(o[rng.below(static_cast<uint32_t>(o.size()))].first);
  } else if (p == kSimultaneousPlayer) {
    std::vector<int> joint(static_cast<size_t>(s.num_players()), -1);
    for (int q = 0; q < s.num_players(); ++q) {
      s.legal_actions(q, acts);
      if (!acts.empty()) joint[static_cast<size_t>(q)] = acts[rng.below(static_cast<uint32_t>(acts.size()))];
    }
    s.apply_actions(joint);
  } else {
    s.legal_actions(p, acts);
    s.apply_action(acts[rng.below(static_cast<uint32_t>(acts.size()))]);
  }
}

// A whole game's tensor is large (latin: 723,000 floats): the index keeps
// a 64-bit hash of it (a collision would only make a false failure).
size_t digest(std::string_view t) { return std::hash<std::string_view>{}(t); }

// Per seat: string -> tensor and tensor -> string; counts the tensors that
// two strings share and the strings with two tensors.
struct Index {
  std::vector<std::map<std::string, size_t>> by_string;
  std::vector<std::map<size_t, std::string>> by_tensor;
  int shared = 0, split = 0;
  explicit Index(int n) : by_string(static_cast<size_t>(n)), by_tensor(static_cast<size_t>(n)) {}
  void add(const StateBase& s) {
    for (int p = 0; p < s.num_players(); ++p) add(p, s.info_string(p), digest(tensor_view(s, p)));
  }
  void add(int p, const std::string& str, size_t t) {
    auto [i, new_string] = by_string[static_cast<size_t>(p)].emplace(str, t);
    if (!new_string && i->second != t) ++split;
    auto [j, new_tensor] = by_tensor[static_cast<size_t>(p)].emplace(t, str);
    if (!new_tensor && j->second != str) ++shared;
  }
};

// (1) From several deals, many random histories: a tensor is never shared by
// two information states, and one information state has one tensor.
TEST(PerfectRecallTensor, OneTensorPerInformationStateInEveryFamily) {
  for (const char* name : kGames) {
    SCOPED_TRACE(name);
    const auto g = load_game(name, {{"single_hand", "on"}});
    EXPECT_EQ(g->info_size, g->info_shape.at(0));
    Index index(g->players);
    Rng rng(17);
    int states = 0;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      for (int walk = 0; walk < 25; ++walk) {
        auto s = g->new_state(seed);  // one deal per seed; the moves differ
        for (int step = 0; !s->is_terminal() && step < 60; ++step) {
          index.add(*s);
          ++states;
          random_step(*s, rng);
        }
        index.add(*s);
      }
    }
    EXPECT_GT(states, 500);
    EXPECT_EQ(index.shared, 0) << "tensors shared by two information states";
    EXPECT_EQ(index.split, 0) << "information states with two tensors";
  }
}

// The same from the chance root: a state reached by explicit chance and the
// seeded state give one tensor (the seed plays its chance outcomes).
TEST(PerfectRecallTensor, ExplicitChanceMatchesItsStrings) {
  for (const char* name : kGames) {
    SCOPED_TRACE(name);
    const auto g = load_game(name, {{"single_hand", "on"}});
    Index index(g->players);
    Rng rng(5);
    for (int walk = 0; walk < 16; ++walk) {
      auto s = g->new_state(walk, true);
      while (!s->is_terminal()) {
        if (s->current_player() != kChancePlayer) index.add(*s);
        random_step(*s, rng);
      }
      index.add(*s);
    }
    EXPECT_EQ(index.shared, 0);
    EXPECT_EQ(index.split, 0);
  }
}

// (2) The case: latin, one deal, each seat lays the same tiles in
// another order, the table the same: seat 2's strings differ, and so now do
// its tensors (the old tensor, the observation and each seat's laid tiles,
// was one).
TEST(PerfectRecallTensor, LatinPlaysReorderedGiveOtherTensors) {
  const auto g = load_game("latin(single_hand=true)");
  // key: the observation and each seat's laid tiles (what the old tensor held)
  std::map<std::string, std::pair<std::string, std::string>> seen;  // key -> (string, tensor)
  Rng rng(36);
  int reordered = 0;
  for (int walk = 0; walk < 3000 && reordered < 20; ++walk) {
    auto s = g->new_state(5);
    std::vector<std::set<int>> laid(4);
    for (int step = 0; step < 14 && !s->is_terminal(); ++step) {
      const int p = s->current_player();
      std::vector<int> acts;
      s->legal_actions(p, acts);
      const int a = acts[rng.below(static_cast<uint32_t>(acts.size()))];
      if (a < 3 * 28) laid[static_cast<size_t>(p)].insert(a % 28);
      s->apply_action(a);
    }
    std::string key = observation_of(*s, 2);
    for (const auto& l : laid)
      for (int t : l) key += "," + std::to_string(t);
    const std::string str = s->info_string(2), t = tensor_of(*s, 2);
    auto [i, fresh] = seen.emplace(key, std::make_pair(str, t));
    if (!fresh && i->second.first != str) {
      ++reordered;
      EXPECT_NE(i->second.second, t) << "seat 2: one tensor for\n" << i->second.first << "and\n" << str;
    }
  }
  EXPECT_GT(reordered, 0) << "no two histories with the same tiles laid in another order";
}

// (1b) Whole games (single_hand off), several hands: from one deal, many
// random games; a tensor is never shared by two information states, in any
// hand. The hand's own part alone (the observation and the current hand's
// tiles and steps: what the tensor held before) is shared by information
// states that differ only in an earlier hand, so this test would catch a
// tensor that forgets earlier hands.
TEST(PerfectRecallTensor, WholeGamesAcrossHands) {
  const std::pair<const char*, OptionList> games[] = {
      {"latin", {{"target", "50"}}},           {"two-draw", {{"target", "30"}}},
      {"mexican-train", {{"rounds", "3"}}},    {"texas-42", {{"target_marks", "3"}}},
      {"dice-and-dominoes", {{"hands", "3"}}},
  };
  int hand_only_shared = 0;
  const int walks = property_games(10000) >= 10000 ? 8 : 3;  // the sanitizer build: fewer
  for (const auto& [name, options] : games) {
    SCOPED_TRACE(name);
    const auto g = load_game(name, options);
    ASSERT_GT(g->info_hands, 1);
    EXPECT_EQ(g->info_size, g->info_shape.at(0));
    const size_t part = static_cast<size_t>(g->info_size - g->obs_size) / static_cast<size_t>(g->info_hands);
    EXPECT_EQ(part * static_cast<size_t>(g->info_hands), static_cast<size_t>(g->info_size - g->obs_size));
    Index index(g->players);
    std::vector<std::map<size_t, std::string>> by_hand_part(static_cast<size_t>(g->players));
    Rng rng(41);
    int later = 0;  // states in the second hand or later
    for (int walk = 0; walk < walks; ++walk) {
      auto s = g->new_state(3);  // one deal (and one generator for later deals); the moves differ
      for (int step = 0; !s->is_terminal() && step < 400; ++step) {
        if (s->hands_finished() >= 1 && s->current_player() != kChancePlayer) {
          ++later;
          for (int p = 0; p < g->players; ++p) {
            const std::string_view t = tensor_view(*s, p);
            const std::string str = s->info_string(p);
            index.add(p, str, digest(t));
            const size_t at = static_cast<size_t>(s->hands_finished()) * part * sizeof(float);
            if (at + part * sizeof(float) > t.size() - static_cast<size_t>(g->obs_size) * sizeof(float)) continue;
            const std::string key =
                std::string(t.substr(0, static_cast<size_t>(g->obs_size) * sizeof(float))) +
                std::string(t.substr(static_cast<size_t>(g->obs_size) * sizeof(float) + at, part * sizeof(float)));
            auto [i, fresh] = by_hand_part[static_cast<size_t>(p)].emplace(digest(key), str);
            if (!fresh && i->second != str) ++hand_only_shared;
          }
        }
        random_step(*s, rng);
      }
    }
    EXPECT_GT(later, 12 * walks) << "too few states after the first hand";
    EXPECT_EQ(index.shared, 0) << "tensors shared by two information states";
    EXPECT_EQ(index.split, 0) << "information states with two tensors";
  }
  EXPECT_GT(hand_only_shared, 0) << "no two information states differed only in an earlier hand";
}

// The tensor's size: the observation, then per hand with room (one with
// single_hand) the hand's tiles and its step slots.
TEST(PerfectRecallTensor, OnePartPerHand) {
  const auto one = load_game("latin", {{"single_hand", "on"}});
  const auto whole = load_game("latin");
  EXPECT_EQ(one->info_hands, 1);
  EXPECT_EQ(whole->info_hands, 100);
  EXPECT_EQ(whole->info_size - whole->obs_size, 100 * (one->info_size - one->obs_size));
  EXPECT_EQ(load_game("dice-and-dominoes", {{"hands", "4"}})->info_hands, 4);
  EXPECT_EQ(load_game("mexican-train", {{"rounds", "5"}})->info_hands, 5);
  // Nothing but zeros past the hand in progress.
  auto s = whole->new_state(9);
  std::vector<float> t(static_cast<size_t>(whole->info_size));
  s->info_state(s->current_player(), t.data());
  const size_t part = static_cast<size_t>(one->info_size - one->obs_size);
  EXPECT_TRUE(std::all_of(t.begin() + whole->obs_size + static_cast<std::ptrdiff_t>(part), t.end(),
                          [](float x) { return x == 0.0f; }));
}

// (3) Secrecy: worlds that differ only in the tiles the seat cannot see (a
// resample for seat p), played on with the same actions while p's string
// stays the same, give p the same tensor: it never depends on another
// seat's hidden tiles or hidden draws.
TEST(PerfectRecallTensor, NeverDependsOnAnotherSeatsHiddenTiles) {
  for (const char* name : kGames) {
    SCOPED_TRACE(name);
    const auto g = load_game(name, {{"single_hand", "on"}});
    Rng rng(23);
    int compared = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      auto s = g->new_state(seed);
      for (int step = 0; step < 4 && !s->is_terminal(); ++step) random_step(*s, rng);
      if (s->is_terminal()) continue;
      const int p = static_cast<int>(seed % static_cast<uint64_t>(g->players));
      auto w = s->resample(p, seed * 101);
      ASSERT_EQ(w->info_string(p), s->info_string(p));
      // Another seat's tiles differ in the world (else the check says nothing).
      bool differs = false;
      for (int q = 0; q < g->players; ++q)
        if (q != p) differs |= observation_of(*w, q) != observation_of(*s, q);
      EXPECT_TRUE(differs);
      std::vector<int> a, b, common;
      while (!s->is_terminal() && !w->is_terminal() && w->info_string(p) == s->info_string(p)) {
        EXPECT_EQ(tensor_of(*w, p), tensor_of(*s, p));
        ++compared;
        const int cp = s->current_player();
        if (cp != w->current_player() || cp == kChancePlayer) break;
        std::vector<int> joint(static_cast<size_t>(g->players), -1);
        bool stuck = false;
        for (int q = 0; q < g->players; ++q) {
          if (cp >= 0 && q != cp) continue;
          s->legal_actions(q, a);
          w->legal_actions(q, b);
          common.clear();
          std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
          if (a.empty() && b.empty()) continue;
          if (common.empty()) {
            stuck = true;
            break;
          }
          joint[static_cast<size_t>(q)] = common[rng.below(static_cast<uint32_t>(common.size()))];
        }
        if (stuck) break;
        if (cp >= 0) {
          s->apply_action(joint[static_cast<size_t>(cp)]);
          w->apply_action(joint[static_cast<size_t>(cp)]);
        } else {
          s->apply_actions(joint);
          w->apply_actions(joint);
        }
      }
    }
    EXPECT_GE(compared, 6);
  }
}

}  // namespace
}  // namespace boneyard::spiel
