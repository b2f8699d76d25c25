// The exact solver against plain minimax, its bidding and trump values, the
// omniscient and pimc bots, the sampler's respect for shown voids, and the
// ismcts reward.
#include "texas42/solver.h"

#include <gtest/gtest.h>

#include <cmath>

#include "bots/pimc.h"
#include "bots/register.h"
#include "helpers.h"
#include "texas42/bots.h"
#include "texas42/register.h"

using namespace t42test;

namespace {

using List = MoveList<Move, Texas42::kMaxMoves>;

// The hand's value for `seat` from the game's own result, in the solver's
// unit: marks (+ points difference / 100), or points scoring's gain / 42.
double result_value(const State& s, int seat) {
  const HandResult& h = s.last_result();
  const int me = State::side_of(seat), them = 1 - me;
  if (s.rules().scoring == Scoring::Points) return (h.gained[me] - h.gained[them]) / 42.0;
  return (h.gained[me] - h.gained[them]) + (h.points[me] - h.points[them]) / 100.0;
}

// Plain minimax over State::apply: no table, no pruning, no ordering.
double brute(const State& s, int seat, int hands) {
  if (s.hands_finished() != hands) return result_value(s, seat);
  const int mover = s.actor().seat;
  List l;
  s.legal_moves(mover, l);
  const bool maxi = State::side_of(mover) == State::side_of(seat);
  double best = maxi ? -1e9 : 1e9;
  for (const Move& m : l) {
    State c = s;
    c.apply(mover, m);
    const double v = brute(c, seat, hands);
    best = maxi ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

// A random hand taken by random moves to a random point of the play with
// `left` tricks (or fewer) still to play.
State random_late(uint64_t seed, const OptionList& o, int left) {
  Rng rng(seed);
  State s(make_rules(o), seed);
  List l;
  while (true) {
    const Actor a = s.actor();
    if (a.kind == Actor::Chance) {
      s.apply_chance();
      continue;
    }
    if (s.phase() == Phase::Play && s.tricks_done() >= kTricks - left) {
      // stop at a trick boundary or part way through one
      if (s.trick_size() == 0 || rng.below(2)) return s;
    }
    if (s.hands_finished() > 0) {  // decided before reaching the point: start again
      s = State(make_rules(o), rng.next());
      continue;
    }
    s.legal_moves(a.seat, l);
    s.apply(a.seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
  }
}

void expect_matches_brute(const OptionList& o, int positions, uint64_t seed0, int max_left) {
  Solver solver;
  List l;
  for (int i = 0; i < positions; ++i) {
    const int left = 2 + i % (max_left - 1);
    const State s = random_late(seed0 + static_cast<uint64_t>(i), o, left);
    const int mover = s.actor().seat;
    s.legal_moves(mover, l);
    std::vector<double> v(static_cast<size_t>(l.size()));
    solver.values(s, mover, l.span(), v.data());
    for (int k = 0; k < l.size(); ++k) {
      State c = s;
      c.apply(mover, l[k]);
      const double want = brute(c, mover, s.hands_finished());
      ASSERT_NEAR(v[static_cast<size_t>(k)], want, 1e-9) << "position " << i << " move " << s.move_text(l[k]) << "\n"
                                                         << s.render(-1);
    }
    // value() agrees with the best move
    EXPECT_NEAR(solver.value(s, mover), *std::max_element(v.begin(), v.end()), 1e-9);
    EXPECT_NEAR(solver.value(s, (mover + 1) & 3), -*std::max_element(v.begin(), v.end()), 1e-9);
  }
}

}  // namespace

TEST(Texas42Solver, MatchesPlainMinimaxInLatePositions) { expect_matches_brute({}, 160, 1000, 4); }

TEST(Texas42Solver, MatchesPlainMinimaxWhenHandsArePlayedOut) {
  expect_matches_brute({{"stop_when_decided", "off"}}, 60, 2000, 3);
  expect_matches_brute({{"scoring", "points"}}, 60, 3000, 3);
  expect_matches_brute({{"scoring", "points"}, {"made_scores_taken", "on"}}, 40, 4000, 3);
}

TEST(Texas42Solver, MatchesPlainMinimaxForEveryContract) {
  const OptionList all{{"nello", "on"}, {"plunge", "on"}, {"splash", "on"}, {"sevens", "on"}, {"open_two_marks", "on"}};
  expect_matches_brute(all, 160, 5000, 3);
  // make sure nello and sevens were among them
  int nello = 0, sevens = 0;
  for (int i = 0; i < 160; ++i) {
    const State s = random_late(5000 + static_cast<uint64_t>(i), all, 2 + i % 2);
    nello += s.trump() == kNello;
    sevens += s.trump() == kSevens;
  }
  EXPECT_GT(nello, 0);
  EXPECT_GT(sevens, 0);
}

TEST(Texas42Solver, AllTheSixesMakeEveryBidAndEveryTrickWithSixes) {
  State s = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", "", ""});
  // bidding: seat 1 opens
  List l;
  s.legal_moves(1, l);
  Solver solver(Solver::BidModel::Plain);
  std::vector<double> v(static_cast<size_t>(l.size()));
  EXPECT_EQ(solver.max_points(s, 0, 6, 0), 42);
  // Seat 1's partner (seat 3) holds every five: with fives seat 1's side
  // would take every trick, with sixes none.
  EXPECT_EQ(solver.max_points(s, 1, 5, 1), 42);
  EXPECT_EQ(solver.max_points(s, 1, 6, 1), 0);
  // But seat 1 bids on the trump its own hand suggests, not on fives it
  // cannot see: a pass is 0, a bid its result with that trump.
  const int trump1 = estimate_hand(s.hand(1)).trump;
  EXPECT_NE(trump1, 5);
  const int level = solver.bid_level(s, 1, trump1, 1);
  solver.values(s, 1, l.span(), v.data());
  for (int k = 0; k < l.size(); ++k) {
    const int bid = State::value_of(l[k]);
    const bool made = level >= std::min(42, bid + Solver::kBidMargin);
    const double want = l[k].kind == Move::Pass ? 0 : (made ? 1 : -Solver::kSetWeight) + (2 * level - 42) / 100.0;
    EXPECT_NEAR(v[static_cast<size_t>(k)], want, 1e-9) << s.move_text(l[k]);
  }
  // Opening, the auction model agrees (no partner's bid to weigh).
  Solver auction;
  std::vector<double> w(v.size());
  auction.values(s, 1, l.span(), w.data());
  for (size_t k = 0; k < v.size(); ++k) EXPECT_NEAR(w[k], v[k], 1e-9);
  act(s, "pass");
  act(s, "pass");
  act(s, "pass");
  s.legal_moves(0, l);
  v.resize(static_cast<size_t>(l.size()));
  solver.values(s, 0, l.span(), v.data());
  for (int k = 0; k < l.size(); ++k) {
    const double want = l[k].kind == Move::Pass ? 0 : l[k].kind == Move::Bid ? 1.42 : v[static_cast<size_t>(k)];
    EXPECT_NEAR(v[static_cast<size_t>(k)], want, 1e-9) << s.move_text(l[k]);
  }
  act(s, "bid:42");
  s.legal_moves(0, l);
  v.resize(static_cast<size_t>(l.size()));
  solver.values(s, 0, l.span(), v.data());
  for (int k = 0; k < l.size(); ++k) {
    if (l[k].arg == 6) {
      EXPECT_NEAR(v[static_cast<size_t>(k)], 1.42, 1e-9);  // every trick
    } else {
      EXPECT_LE(v[static_cast<size_t>(k)], 1.42);
    }
  }
  // And from the first lead: made, all 42 points.
  act(s, "trump:6");
  EXPECT_NEAR(solver.value(s, 0), 1.42, 1e-9);
  EXPECT_NEAR(solver.value(s, 1), -1.42, 1e-9);
  EXPECT_GT(solver.nodes(), 0u);
}

TEST(Texas42Solver, TrumpValuesAreTheHandPlayedWithThatTrump) {
  Rng rng(17);
  Solver solver, fresh;
  for (int g = 0; g < 6; ++g) {
    State s(Rules{}, 300 + static_cast<uint64_t>(g));
    s.apply_chance();
    s.apply_chance();
    const int bidder = s.to_move();
    for (int k = 0; k < 4; ++k) act(s, s.to_move() == bidder ? "bid:30" : "pass");
    List l;
    s.legal_moves(bidder, l);
    std::vector<double> v(static_cast<size_t>(l.size()));
    solver.values(s, bidder, l.span(), v.data());
    for (int k = 0; k < l.size(); ++k) {
      State c = s;
      c.apply(bidder, l[k]);
      EXPECT_NEAR(v[static_cast<size_t>(k)], fresh.value(c, bidder), 1e-9);
      EXPECT_NEAR(v[static_cast<size_t>(k)], -fresh.value(c, (bidder + 1) & 3), 1e-9);
    }
  }
}

TEST(Texas42Solver, OmniscientPlayNeverDoesWorseThanItsGuaranteeNorGreedy) {
  // Fixed deals; greedy bids and names trumps; then the play: omniscient
  // partnership against greedy, and greedy against greedy, same seats.
  double omni_marks = 0, greedy_marks = 0;
  Solver solver;
  for (int g = 0; g < 24; ++g) {
    State s(Rules{}, 700 + static_cast<uint64_t>(g));
    GreedyBot greedy(5);
    List l;
    while (s.phase() != Phase::Play) {
      if (s.actor().kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      const int seat = s.actor().seat;
      s.legal_moves(seat, l);
      s.apply(seat, greedy.choose(s.observe(seat), l.span()));
    }
    const int side = g & 1;  // which side is omniscient
    const double guarantee = solver.value(s, side);
    for (int omni = 0; omni < 2; ++omni) {
      State p = s;
      OmniscientBot<Texas42> o(1);
      GreedyBot gb(9);
      while (p.hands_finished() == 0) {
        const int seat = p.actor().seat;
        p.legal_moves(seat, l);
        const Move m = omni && State::side_of(seat) == side ? o.choose_seeing_all(p, seat, l.span())
                                                            : gb.choose(p.observe(seat), l.span());
        p.apply(seat, m);
      }
      const double marks = p.last_result().gained[side] - p.last_result().gained[1 - side];
      if (omni) {
        EXPECT_GE(result_value(p, side), guarantee - 1e-9) << "deal " << g;
        omni_marks += marks;
      } else {
        greedy_marks += marks;
      }
    }
  }
  EXPECT_GE(omni_marks, greedy_marks);
}

TEST(Texas42Sample, SampledHandsRespectAFailureToFollow) {
  // Seat 1 holds no five and shows it on a fives lead: no sample may give
  // seat 1 a five (fives that are not trumps).
  State s = dealt({"5-5 6-6 0-0 1-0 2-0 3-0 4-0", "6-4 4-4 4-3 3-3 2-2 1-1 2-1", "", ""});
  contract(s, "bid:30", "trump:6");
  act(s, "5-5");
  act(s, "4-4");
  const uint32_t fives = tables().members[6][5];
  EXPECT_EQ(s.not_holding(1) & fives, fives);
  Rng rng(3);
  int five_to_3 = 0;
  for (int i = 0; i < 300; ++i) {
    const State x = State::sample(s.observe(2), rng);
    EXPECT_EQ(x.hand(1) & fives, 0u);
    five_to_3 += (x.hand(3) & fives) != 0;
    EXPECT_EQ(x.hand(2), s.hand(2));
  }
  EXPECT_GT(five_to_3, 0);  // the fives do go somewhere else
}

TEST(Texas42Search, RewardIsTheMarksOfTheHandForThatSide) {
  State s = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", "", ""});
  contract(s, "bid:30", "trump:6");
  const State from = s;
  while (s.hands_finished() == 0) act(s, legal(s)[0]);
  EXPECT_TRUE(s.last_result().made);
  const double r0 = Texas42::reward(from, s, 0), r1 = Texas42::reward(from, s, 1);
  EXPECT_GT(r0, 0.8);
  EXPECT_LE(r0, 1.0);
  EXPECT_NEAR(r1, -r0, 1e-12);
  EXPECT_EQ(Texas42::reward(from, from, 2), 0);
}

TEST(Texas42Search, SearchBotsAreRegisteredAndPlayLegalMoves) {
  register_games();
  const GameEntry& e = find_game("texas-42");
  EXPECT_EQ(e.search_bots,
            (std::vector<std::string>{"pimc", "ismcts", "omniscient", "ismcts-v1", "paired", "pimc-plain"}));
  State s = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", "", ""});
  PimcBot<Texas42> pimc(1, BotOptions{.iterations = 4});
  List l;
  s.legal_moves(1, l);
  const Move m = pimc.choose(s.observe(1), l.span());
  EXPECT_NE(std::find(l.begin(), l.end(), m), l.end());
  auto g = e.make({}, 5);
  auto bot = make_bot(e, "pimc", 3, BotOptions{.iterations = 2});
  auto ism = make_bot(e, "ismcts", 4, BotOptions{.iterations = 50});
  auto plain = make_bot(e, "pimc-plain", 5, BotOptions{.iterations = 2});
  EXPECT_EQ(plain->name(), "pimc-plain");
  while (!g->terminal() && g->hands().size() < 2) {
    const Actor a = g->actor();
    if (a.kind == Actor::Chance) {
      g->apply_chance();
      continue;
    }
    g->play_bot(a.seat, (a.seat & 1) ? *bot : g->hands().empty() ? *ism : *plain);
  }
  EXPECT_EQ(g->hands().size(), 2u);
}

TEST(Texas42Solver, BidLevelIsTheMostPointsAsFarAsBidsGo) {
  Solver a, b;
  for (int g = 0; g < 4; ++g) {
    State s(Rules{}, 900 + static_cast<uint64_t>(g));
    s.apply_chance();
    s.apply_chance();
    for (const int t : {g, int{kDoublesTrump}, int{kFollowMe}}) {
      const int most = a.max_points(s, g, t, g);
      EXPECT_EQ(b.bid_level(s, g, t, g), std::max(29, most)) << "trump " << t;
    }
  }
}

TEST(Texas42Search, RolloutMoveIsMostlyTheGreedyChoice) {
  State s = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", "", ""});
  contract(s, "bid:30", "trump:6");
  List l;
  s.legal_moves(0, l);
  Rng rng(4);
  int greedy_choice = 0;
  for (int i = 0; i < 200; ++i) {
    const Move m = Texas42::rollout_move(s, 0, l.span(), rng);
    ASSERT_NE(std::find(l.begin(), l.end(), m), l.end());
    greedy_choice += m == Move{Move::Play, Tile::of(6, 6).index};  // lead the top trump
  }
  EXPECT_GT(greedy_choice, 160);
  EXPECT_LT(greedy_choice, 200);  // and sometimes something else
}

TEST(Texas42Solver, APassLeavesTheHighBidderToPlayIt) {
  State s = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", "", ""});
  act(s, "pass");
  act(s, "bid:30");  // seat 2, seat 0's partner
  Solver solver;
  const int level = solver.bid_level(s, 2, estimate_hand(s.hand(2)).trump, 2);
  // Seat 2's contract for its own side (seat 0): a set weighs kSetWeight;
  // for the opponents (seat 3) it is plain +-1.
  const bool made = level >= 30 + Solver::kBidMargin;
  const double own = (made ? 1 : -Solver::kSetWeight) + (2 * level - 42) / 100.0;
  const double theirs = (made ? 1 : -1) + (2 * level - 42) / 100.0;
  List l;
  for (const int seat : {3, 0}) {
    s.legal_moves(seat, l);
    std::vector<double> v(static_cast<size_t>(l.size()));
    solver.values(s, seat, l.span(), v.data());
    ASSERT_EQ(l[0].kind, Move::Pass);
    EXPECT_NEAR(v[0], seat == 3 ? -theirs : own, 1e-9) << "seat " << seat;
    if (seat == 3) act(s, "pass");
  }
}

TEST(Texas42Solver, BiddingCountsABidMadeOnlyWithTheSafetyMargin) {
  // Double dummy flatters the declarer: a bid counts as made only when the
  // side takes kBidMargin points more than it double dummy, and a set of
  // one's own side weighs kSetWeight. A hand that double dummy just makes
  // 30 (but not 30 + margin) is not worth bidding; a hand that takes every
  // trick is worth any points bid.
  static_assert(Solver::kBidMargin > 0 && Solver::kBidMargin < 12 && Solver::kSetWeight >= 1);
  Solver solver;
  bool found = false;
  for (uint64_t g = 0; g < 400 && !found; ++g) {
    State s(Rules{}, 500 + g);
    s.apply_chance();
    s.apply_chance();
    const int seat = s.to_move();
    const int level = solver.bid_level(s, seat, estimate_hand(s.hand(seat)).trump, seat);
    if (level < 30 || level >= 30 + Solver::kBidMargin) continue;
    found = true;
    List l;
    s.legal_moves(seat, l);
    std::vector<double> v(static_cast<size_t>(l.size()));
    solver.values(s, seat, l.span(), v.data());
    ASSERT_EQ(l[0].kind, Move::Pass);
    EXPECT_NEAR(v[0], 0, 1e-9);
    for (int k = 1; k < l.size(); ++k) {
      EXPECT_LT(v[static_cast<size_t>(k)], v[0]) << "level " << level << ": " << s.move_text(l[k]);
      if (l[k].kind == Move::Bid && State::value_of(l[k]) == 30) {
        EXPECT_NEAR(v[static_cast<size_t>(k)], -Solver::kSetWeight + (2 * level - 42) / 100.0, 1e-9);
      }
    }
  }
  EXPECT_TRUE(found) << "no deal that double dummy makes 30 but not 30 + margin";

  State s = dealt({"", "6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", ""});  // seat 1 opens
  List l;
  s.legal_moves(1, l);
  std::vector<double> v(static_cast<size_t>(l.size()));
  solver.values(s, 1, l.span(), v.data());
  for (int k = 0; k < l.size(); ++k) {
    if (l[k].kind == Move::Bid) {
      EXPECT_NEAR(v[static_cast<size_t>(k)], 1.42, 1e-9) << s.move_text(l[k]);
    }
  }
}
