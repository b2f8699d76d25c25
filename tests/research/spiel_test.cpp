// The OpenSpiel semantics the Python package binds (src/research/spiel.h):
// game strings, explicit chance, information states, batches.
#include "research/spiel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/rng.h"

namespace boneyard::spiel {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GameString, NameAndOptionsInOrder) {
  auto [name, opts] = parse_game_string(" latin( single_hand=true , target=100 ) ");
  EXPECT_EQ(name, "latin");
  ASSERT_EQ(opts.size(), 2u);
  EXPECT_EQ(opts[0], (std::pair<std::string, std::string>{"single_hand", "on"}));  // OpenSpiel's true is "on"
  EXPECT_EQ(opts[1], (std::pair<std::string, std::string>{"target", "100"}));
  EXPECT_EQ(parse_game_string("texas-42").first, "texas-42");
  EXPECT_TRUE(parse_game_string("latin()").second.empty());
}

TEST(GameString, RepeatedEmptyAndMalformedOptionsAreRefused) {
  EXPECT_NE(error_of([] { parse_game_string("latin(single_hand=true,single_hand=false)"); }).find("given twice"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_game_string("latin(target=)"); }).find("has no value"), std::string::npos);
  EXPECT_NE(error_of([] { parse_game_string("latin(=3)"); }).find("no name"), std::string::npos);
  EXPECT_NE(error_of([] { parse_game_string("latin(target=100,)"); }).find("empty option"), std::string::npos);
  EXPECT_NE(error_of([] { parse_game_string("latin(target)"); }).find("not option=value"), std::string::npos);
  EXPECT_NE(error_of([] { parse_game_string("latin(target=1"); }).find("expected name("), std::string::npos);
  EXPECT_NE(error_of([] { parse_game_string("(target=1)"); }).find("name is empty"), std::string::npos);
}

TEST(LoadGame, OneGameHoweverItsOptionsAreSpelled) {
  const auto a = load_game("latin", {{"single_hand", "true"}});
  const auto b = load_game("latin(single_hand=true)");
  const auto c = load_game("latin", {{"single_hand", "on"}});
  EXPECT_TRUE(a->same_game(*b));
  EXPECT_TRUE(a->same_game(*c));
  EXPECT_TRUE(a->single_hand);
  EXPECT_FALSE(a->same_game(*load_game("latin")));
  EXPECT_FALSE(a->same_game(*load_game("jamaica(single_hand=true)")));
}

TEST(LoadGame, AnOptionTwiceOrEmptyIsRefused) {
  EXPECT_NE(error_of([] {
              load_game("latin(single_hand=true)", {{"single_hand", "off"}});
            }).find("both in the game string and in params"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              load_game("latin", {{"target", "100"}, {"target", "200"}});
            }).find("given twice"),
            std::string::npos);
  EXPECT_NE(error_of([] { load_game("latin", {{"target", ""}}); }).find("has no value"), std::string::npos);
  EXPECT_NE(error_of([] { load_game("no-such-game"); }), "");
}

TEST(Threads, OutOfRangeIsAClearError) {
  const auto g = load_game("latin(single_hand=true)");
  for (int t : {0, -1, kMaxThreads + 1, 100000}) {
    const std::string e = error_of([&] { g->random_playouts(10, 1, t); });
    EXPECT_NE(e.find("threads must be 1..256"), std::string::npos) << t << ": " << e;
    EXPECT_NE(error_of([&] { g->arena({"random"}, 1, 1, t, BotOptions{}); }).find("threads must be 1..256"),
              std::string::npos);
  }
  BotOptions many;
  many.threads = 1000000;
  EXPECT_NE(error_of([&] { g->arena({"random"}, 1, 1, 1, many); }).find("bot_threads must be 1..256"),
            std::string::npos);
}

TEST(Batch, PlayoutsPlayEveryHandAsked) {
  const auto g = load_game("two-draw(single_hand=true)");
  const PlayoutResult one = g->random_playouts(500, 3, 1);
  EXPECT_EQ(one.hands, 500u);
  EXPECT_GT(one.moves, 500u);
  EXPECT_FALSE(one.interrupted);
  EXPECT_EQ(g->random_playouts(500, 3, 4, [] { return false; }).hands, 500u);
}

TEST(Batch, AnInterruptStopsBetweenHands) {
  const auto g = load_game("latin(single_hand=true)");
  int polls = 0;
  const PlayoutResult r = g->random_playouts(uint64_t{1} << 50, 1, 2, [&] { return ++polls >= 2; });
  EXPECT_TRUE(r.interrupted);
  EXPECT_LT(r.hands, uint64_t{1} << 50);
  const ArenaResult a = g->arena({"greedy"}, uint64_t{1} << 40, 1, 2, BotOptions{}, [] { return true; });
  EXPECT_TRUE(a.interrupted);
  EXPECT_LT(a.games, uint64_t{1} << 40);
}

TEST(Batch, ArenaGamesDoNotDependOnThreads) {
  // Game k is dealt from seed + k and its bots seeded from it: the same
  // games on any number of threads, played by the CLI arena's loop.
  const auto g = load_game("latin(single_hand=true)");
  const ArenaResult one = g->arena({"greedy", "random"}, 40, 5, 1, BotOptions{});
  const ArenaResult two = g->arena({"greedy", "random"}, 40, 5, 2, BotOptions{});
  EXPECT_EQ(one.games, 40u);
  ASSERT_EQ(one.returns.size(), 4u);
  for (size_t p = 0; p < 4; ++p) EXPECT_DOUBLE_EQ(one.returns[p], two.returns[p]);
  EXPECT_NE(one.returns[0], 0.0);  // the games were played: some side won points
  // One hand: zero-sum points.
  EXPECT_NEAR(std::accumulate(one.returns.begin(), one.returns.end(), 0.0), 0.0, 1e-9);
  EXPECT_NE(error_of([&] { g->arena({"nobody"}, 1, 1, 1, BotOptions{}); }), "");
}

// Plays a state to its end, chance outcomes and actions picked by `rng`.
void play_random(StateBase& s, Rng& rng) {
  std::vector<int> acts;
  while (!s.is_terminal()) {
    const int p = s.current_player();
    if (p == kChancePlayer) {
      const auto o = s.chance_outcomes();
      double sum = 0;
      for (const auto& [a, pr] : o) sum += pr;
      ASSERT_NEAR(sum, 1.0, 1e-9);
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
      ASSERT_FALSE(acts.empty());
      s.apply_action(acts[rng.below(static_cast<uint32_t>(acts.size()))]);
    }
  }
}

TEST(ExplicitChance, EveryFamilyPlaysFromTheChanceRootAndReplays) {
  for (const char* name : {"latin", "two-draw", "mexican-train", "texas-42", "dice-and-dominoes"}) {
    SCOPED_TRACE(name);
    const auto g = load_game(name, {{"single_hand", "on"}});
    auto s = g->new_state(11, true);
    EXPECT_EQ(s->current_player(), kChancePlayer);
    EXPECT_FALSE(s->chance_event().empty());
    Rng rng(7);
    play_random(*s, rng);
    ASSERT_TRUE(s->is_terminal());
    const auto r = s->returns();
    EXPECT_NEAR(std::accumulate(r.begin(), r.end(), 0.0), 0.0, 1e-9);
    // serialize() keeps the seed and every action; deserialize replays them.
    auto back = g->from_record(s->serialize());
    EXPECT_EQ(back->history(), s->history());
    for (int p = 0; p < g->players; ++p) EXPECT_EQ(back->info_string(p), s->info_string(p));
  }
}

// max_chance_nodes (pyspiel's max_chance_nodes_in_history) bounds the
// chance nodes of random games from the chance root, one hand and whole
// games, and is larger for a whole game than for one hand.
TEST(ExplicitChance, MaxChanceNodesBoundsEveryHistory) {
  const std::pair<const char*, OptionList> games[] = {
      {"latin", {}},         {"two-draw", {}}, {"two-sleep", {{"first_leader", "draw_after_deal"}}},
      {"mexican-train", {}}, {"texas-42", {}}, {"dice-and-dominoes", {}},
  };
  for (const auto& [name, options] : games) {
    SCOPED_TRACE(name);
    OptionList one = options;
    one.emplace_back("single_hand", "on");
    const auto g1 = load_game(name, one), g = load_game(name, options);
    EXPECT_GT(g1->max_chance_nodes, 0);
    EXPECT_GT(g->max_chance_nodes, g1->max_chance_nodes);
    Rng rng(3);
    for (const auto& game : {g1, g}) {
      int most = 0;
      for (uint64_t seed = 1; seed <= (game == g1 ? 20u : 2u); ++seed) {
        auto s = game->new_state(seed, true);
        play_random(*s, rng);
        int chance = 0;
        for (const auto& [p, a] : s->history()) chance += p == kChancePlayer;
        most = std::max(most, chance);
      }
      EXPECT_GT(most, 0);
      EXPECT_LE(most, game->max_chance_nodes);
    }
  }
}

TEST(Seeded, ARecordReplaysTheSameGame) {
  const auto g = load_game("two-draw(single_hand=true)");
  auto s = g->new_state(4);
  EXPECT_NE(s->current_player(), kChancePlayer);
  EXPECT_THROW(s->chance_outcomes(), Error);
  Rng rng(3);
  play_random(*s, rng);
  auto back = g->from_record(s->serialize());
  EXPECT_TRUE(back->is_terminal());
  EXPECT_EQ(back->returns(), s->returns());
  EXPECT_EQ(back->info_string(1), s->info_string(1));
}

TEST(InformationState, NamesTheSeatAndHidesOtherHands) {
  const auto g = load_game("latin(single_hand=true)");
  auto s = g->new_state(9);
  const std::string mine = s->info_string(0);
  EXPECT_EQ(mine.rfind("seat 0\n", 0), 0u);
  EXPECT_NE(mine.find("you hold"), std::string::npos);
  // Another seat's first line differs; nobody's text names a hand but its own.
  EXPECT_NE(s->info_string(1), mine);
  EXPECT_THROW(s->info_string(4), Error);
}

TEST(Undo, ReplaysBackToEveryEarlierState) {
  for (bool explicit_chance : {false, true}) {
    const auto g = load_game("two-draw(single_hand=true)");
    auto s = g->new_state(6, explicit_chance);
    std::vector<std::unique_ptr<StateBase>> before;
    std::vector<int> acts;
    Rng rng(6);
    while (!s->is_terminal() && before.size() < 30) {
      before.push_back(s->clone());
      const int p = s->current_player();
      if (p == kChancePlayer) {
        const auto o = s->chance_outcomes();
        s->apply_action(o[rng.below(static_cast<uint32_t>(o.size()))].first);
      } else {
        s->legal_actions(p, acts);
        s->apply_action(acts[rng.below(static_cast<uint32_t>(acts.size()))]);
      }
    }
    while (!before.empty()) {
      const auto [p, a] = s->history().back();
      EXPECT_NE(error_of([&] { s->undo(p, a + 1); }).find("the last action is"), std::string::npos);
      s->undo(p, a);
      EXPECT_EQ(s->history(), before.back()->history());
      EXPECT_EQ(s->info_string(1), before.back()->info_string(1));
      before.pop_back();
    }
    EXPECT_NE(error_of([&] { s->undo(0, 0); }).find("no action to undo"), std::string::npos);
  }
}

}  // namespace
}  // namespace boneyard::spiel
