// Text forms, observations and sampling, the adapter, records and replay,
// properties over random hands, and the greedy bot.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/adapter.h"
#include "core/env.h"
#include "core/playout.h"
#include "helpers.h"
#include "texas42/bots.h"
#include "texas42/register.h"

using namespace t42test;

// --- Moves as text ---

TEST(Texas42Text, MovesRoundTripAndFriendlyFormsParse) {
  State s = dealt({"6-4 6-6 5-5 4-4 3-3 2-2 1-1", "", "", ""});
  MoveList<Move, Texas42::kMaxMoves> l;
  s.legal_moves(1, l);
  for (const Move& m : l) EXPECT_EQ(s.parse_move(1, s.move_text(m)), m);
  EXPECT_EQ(s.move_text(s.parse_move(1, "BID 31")), "bid:31");
  EXPECT_EQ(s.move_text(s.parse_move(1, "31")), "bid:31");
  EXPECT_EQ(s.move_text(s.parse_move(1, "1 mark")), "bid:42");
  EXPECT_EQ(s.move_text(s.parse_move(1, " pass ")), "pass");
  try {
    s.parse_move(1, "bid:29");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("legal now"), std::string::npos);
  }
  try {  // "bid" alone: its amount is missing (it was "'' is not a bid")
    s.parse_move(1, "bid");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a bid needs its amount"), std::string::npos) << e.what();
  }
  EXPECT_THROW(s.parse_move(1, "6-4"), Error);
  EXPECT_THROW(s.parse_move(1, ""), Error);
  EXPECT_THROW(s.parse_move(1, "trump:5"), Error);
  bids(s, "pass", "pass", "pass", "bid:30");
  EXPECT_EQ(s.move_text(s.parse_move(0, "trump fives")), "trump:5");
  EXPECT_EQ(s.move_text(s.parse_move(0, "5s")), "trump:5");
  EXPECT_EQ(s.move_text(s.parse_move(0, "Doubles")), "trump:doubles");
  EXPECT_EQ(s.move_text(s.parse_move(0, "no-trump")), "trump:follow-me");
  EXPECT_THROW(s.parse_move(0, "trump:9"), Error);
  act(s, "trump:6");
  EXPECT_EQ(s.move_text(s.parse_move(0, "[4|6]")), "6-4");
  EXPECT_EQ(s.move_text(s.parse_move(0, "4-6")), "6-4");
  EXPECT_THROW(s.parse_move(0, "7-7"), Error);
  EXPECT_THROW(s.parse_move(0, "6-5"), Error);  // not held
  act(s, "6-4");
  try {
    s.parse_move(1, s.move_text({Move::Play, Tile::of(0, 0).index}));
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("follow"), std::string::npos) << e.what();
  }
}

TEST(Texas42Text, ViewAndRenderShowTheTable) {
  State s = dealt({"6-4 6-6 5-5 4-4 3-3 2-2 1-1", "", "", ""});
  contract(s, "bid:30", "trump:6");
  act(s, "6-4");
  const auto v = s.view(0);
  EXPECT_EQ(v["trumps"], "sixes");
  EXPECT_EQ(v["declarer"], 0);
  EXPECT_TRUE(v["hands"][1]["tiles"].is_null());
  EXPECT_EQ(v["hands"][0]["tiles"].size(), 6u);
  EXPECT_EQ(v["trick"].size(), 1u);
  const std::string r = s.render(1);
  EXPECT_NE(r.find("trumps: sixes"), std::string::npos) << r;
  EXPECT_NE(r.find("*"), std::string::npos) << r;  // seat 1's playable tiles
  EXPECT_NE(r.find("seat 1 (team 1) you"), std::string::npos) << r;
}

// A trick with no count tile is 1 point: "1 trick 1 point", not "1 points".
TEST(Texas42Text, TakenPointsAreCountedInWords) {
  State s = dealt({"6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 6-4 6-3 6-2 6-1 6-0 5-4", "5-3 5-2 5-1 5-0 4-3 4-2 4-1",
                   "4-0 3-2 3-1 3-0 2-1 2-0 1-0"});
  contract(s, "bid:30", "trump:6");
  for (const char* t : {"6-6", "6-5", "5-3", "2-1"}) act(s, t);
  const std::string r = s.render(0);
  EXPECT_NE(r.find("Taken: team 0 1 trick 1 point   team 1 0 tricks 0 points"), std::string::npos) << r;
}

TEST(Texas42Text, TricksFaceDownHideTurnedTricks) {
  State s = dealt({"6-4 6-6 5-5 4-4 3-3 2-2 1-1", "", "", ""}, {{"tricks_face_down", "on"}});
  contract(s, "bid:30", "trump:6");
  for (int i = 0; i < 4; ++i) act(s, legal(s)[0]);
  EXPECT_EQ(s.view(1)["tricks"][0].count("tiles"), 0u);
  EXPECT_EQ(s.view(-1)["tricks"][0]["tiles"].size(), 4u);
  EXPECT_EQ(s.view(1)["points_taken"][0].get<int>() + s.view(1)["points_taken"][1].get<int>(),
            s.points_taken(0) + s.points_taken(1));
}

TEST(Texas42Options, BadOptionsAreErrors) {
  EXPECT_THROW(make_rules({{"scoring", "tricks"}}), Error);
  EXPECT_THROW(make_rules({{"target_marks", "0"}}), Error);
  EXPECT_THROW(make_rules({{"nello", "maybe"}}), Error);
  try {
    make_rules({{"colour", "red"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("colour"), std::string::npos);
  }
  EXPECT_EQ(make_rules({{"scoring", "points"}}).scoring, Scoring::Points);
}

// --- Observation and sampling ---

TEST(Texas42Observation, HidesOtherHandsAndSamplesConsistently) {
  Rng rng(5);
  for (int g = 0; g < 300; ++g) {
    State s(Rules{}, static_cast<uint64_t>(g));
    s.apply_chance();
    s.apply_chance();
    MoveList<Move, Texas42::kMaxMoves> l;
    const int steps = static_cast<int>(rng.below(25));
    for (int k = 0; k < steps && s.actor().kind == Actor::Seat; ++k) {
      s.legal_moves(s.actor().seat, l);
      s.apply(s.actor().seat, l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))]);
    }
    if (s.actor().kind != Actor::Seat) continue;
    const int me = static_cast<int>(rng.below(4));
    const Observation o = s.observe(me);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(o.masked.hand(k), k == me ? s.hand(me) : 0u);
    const State x = State::sample(o, rng);
    uint32_t all = x.played();
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(std::popcount(x.hand(k)), std::popcount(s.hand(k)));
      EXPECT_EQ(x.hand(k) & x.not_holding(k), 0u) << "a sampled hand breaks a shown void";
      EXPECT_EQ(all & x.hand(k), 0u);
      all |= x.hand(k);
    }
    EXPECT_EQ(all, kAllTiles);
    EXPECT_EQ(x.hand(me), s.hand(me));
    EXPECT_EQ(x.actor(), s.actor());
  }
}

// --- Properties over random hands ---

namespace {
// An independent reading of the spec's follow and winner rules.
bool ref_trump(int trump, Tile t) {
  return trump <= 6 ? t.shows(trump) : trump == kDoublesTrump ? t.is_double() : false;
}
int ref_led(int trump, Tile t) {
  if (ref_trump(trump, t)) return 8;
  if (trump == kNello && t.is_double()) return 7;
  return t.high();
}
bool ref_in(int trump, int led, Tile t) {
  if (led == 8) return ref_trump(trump, t);
  if (led == 7) return t.is_double();
  if (ref_trump(trump, t) || (trump == kNello && t.is_double())) return false;
  return t.shows(led);
}
// Higher is better inside a suit: the double, then the other end.
int ref_rank(int trump, int led, Tile t) {
  if (led == 7 || (led == 8 && trump == kDoublesTrump)) return t.high();
  const int n = led == 8 ? trump : led;
  return t.is_double() ? 7 : t.other(n);
}
int ref_winner(int trump, const Tile* t, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i) {
    if (trump == kSevens) {
      if (std::abs(t[i].pips() - 7) < std::abs(t[best].pips() - 7)) best = i;
      continue;
    }
    const int led = ref_led(trump, t[0]);
    const bool ti = ref_trump(trump, t[i]), tb = ref_trump(trump, t[best]);
    if (ti && !tb)
      best = i;
    else if (ti && tb) {
      if (ref_rank(trump, 8, t[i]) > ref_rank(trump, 8, t[best])) best = i;
    } else if (!ti && !tb && ref_in(trump, led, t[i]) && ref_rank(trump, led, t[i]) > ref_rank(trump, led, t[best])) {
      best = i;
    }
  }
  return best;
}
}  // namespace

TEST(Texas42Property, RandomHandsKeepEveryRule) {
  const int hands = property_games(10000);
  const OptionList configs[] = {
      {},
      {{"stop_when_decided", "off"}},
      {{"scoring", "points"}},
      {{"scoring", "points"}, {"made_scores_taken", "on"}, {"forced_bid", "on"}},
      {{"nello", "on"}, {"plunge", "on"}, {"splash", "on"}, {"sevens", "on"}, {"stop_when_decided", "off"}},
      {{"nello", "on"}, {"sevens", "on"}, {"open_two_marks", "on"}},
  };
  Rng rng(11);
  int done = 0, made = 0, special = 0;
  MoveList<Move, Texas42::kMaxMoves> l;
  for (int g = 0; done < hands; ++g) {
    const OptionList& opt = configs[g % 6];
    const Rules rules = make_rules(opt);
    State s(rules, static_cast<uint64_t>(g) * 7919 + 1);
    while (!s.terminal() && done < hands) {
      const int before = s.hands_finished();
      uint32_t dealt[4] = {};
      while (s.hands_finished() == before && !s.terminal()) {
        const Actor a = s.actor();
        if (a.kind == Actor::Chance) {
          s.apply_chance();
          for (int k = 0; k < 4; ++k) dealt[k] = s.hand(k);
          continue;
        }
        const int seat = a.seat;
        s.legal_moves(seat, l);
        ASSERT_FALSE(l.empty());
        if (s.phase() == Phase::Play) {
          // Must follow: the legal tiles are exactly the held tiles of the
          // led suit, or the whole hand when there are none (or sevens).
          uint32_t want = s.hand(seat);
          if (s.trick_size() > 0 && s.trump() != kSevens) {
            const Tile lead{static_cast<uint8_t>(s.trick_tile(0))};
            uint32_t f = 0;
            for (uint32_t x = s.hand(seat); x; x &= x - 1) {
              const Tile t{static_cast<uint8_t>(std::countr_zero(x))};
              if (ref_in(s.trump(), ref_led(s.trump(), lead), t)) f |= uint32_t{1} << t.index;
            }
            if (f) want = f;
          }
          uint32_t got = 0;
          for (const Move& m : l) got |= uint32_t{1} << m.arg;
          ASSERT_EQ(got, want);
        }
        const Move m = l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
        ASSERT_EQ(s.parse_move(seat, s.move_text(m)), m);
        s.apply(seat, m);
      }
      if (s.hands_finished() == before) break;
      ++done;
      const HandResult& h = s.last_result();
      const int n = h.tricks_played;
      const int bidders = State::side_of(h.declarer);
      ASSERT_EQ(h.tricks[0] + h.tricks[1], n);
      // Every trick's winner, by the independent reading.
      for (int k = 0; k < n; ++k) {
        Tile t[4];
        const int size = h.trump == kNello ? 3 : 4;
        for (int i = 0; i < size; ++i) t[i] = Tile{s.trick_tiles(k)[i]};
        int seat = s.trick_led_by(k);
        const int w = ref_winner(h.trump, t, size);
        for (int i = 0; i < w; ++i) {
          seat = (seat + 1) & 3;
          if (h.trump == kNello && seat == State::partner(h.declarer)) seat = (seat + 1) & 3;
        }
        ASSERT_EQ(s.trick_won_by(k), seat);
      }
      // The last trick's taker, which "Last moves" names after the hand.
      ASSERT_EQ(h.last_trick_winner, s.trick_won_by(n - 1));
      ASSERT_EQ(hand_result_json(s, h).at("last_trick_winner").get<int>(), h.last_trick_winner);
      // Count and tricks add up to 42 (nello: less the sitting-out hand's count).
      int out_count = 0;
      if (h.trump == kNello) {
        for (uint32_t x = dealt[State::partner(h.declarer)]; x; x &= x - 1)
          out_count += count_of(Tile{static_cast<uint8_t>(std::countr_zero(x))});
      }
      if (n == kTricks)
        ASSERT_EQ(h.points[0] + h.points[1], 42 - out_count);
      else
        ASSERT_TRUE(rules.stops_early());
      // Made or set, by the contract.
      if (h.trump == kNello)
        ASSERT_EQ(h.made, h.tricks[bidders] == 0);
      else if (h.bid >= 42)
        ASSERT_EQ(h.made, h.tricks[1 - bidders] == 0);
      else
        ASSERT_EQ(h.made, h.points[bidders] >= h.bid);
      if (h.trump == kNello || h.bid_kind == BidKind::Plunge || h.bid_kind == BidKind::Splash || h.trump == kSevens)
        ++special;
      // Scoring.
      const int w = h.made ? bidders : 1 - bidders;
      ASSERT_EQ(h.winner_side, w);
      if (rules.scoring == Scoring::Marks) {
        ASSERT_EQ(h.gained[w], h.bid <= 42 ? 1 : h.bid / 42);
        ASSERT_EQ(h.gained[1 - w], 0);
      } else if (h.trump != kNello) {
        if (h.made) {
          const bool taken = rules.made_scores_taken && h.bid_kind == BidKind::Points;
          ASSERT_EQ(h.gained[bidders], taken ? h.points[bidders] : h.bid);
          ASSERT_EQ(h.gained[1 - bidders], h.points[1 - bidders]);
        } else {
          ASSERT_EQ(h.gained[bidders], 0);
          ASSERT_EQ(h.gained[1 - bidders], h.bid + h.points[1 - bidders]);
        }
      }
      made += h.made;
    }
  }
  EXPECT_GT(made, 0);
  if (hands >= 1000) {
    EXPECT_GT(special, 0);
  }
}

// --- The adapter, records and replay ---

TEST(Texas42Adapter, RegisteredGameReplaysFromItsRecord) {
  register_games();
  const GameEntry& e = find_game("texas-42");
  EXPECT_THROW(e.make({{"bogus", "1"}}, 1), Error);
  auto g = e.make({{"nello", "on"}, {"sevens", "on"}}, 99);
  auto bot0 = e.make_bot("greedy", 1);
  auto bot1 = e.make_bot("random", 2);
  std::vector<std::pair<int, std::string>> record;  // seat (-1 chance), text
  while (!g->terminal()) {
    const Actor a = g->actor();
    if (a.kind == Actor::Chance) {
      record.push_back({-1, g->apply_chance()});
      continue;
    }
    record.push_back({a.seat, g->play_bot(a.seat, (a.seat & 1) ? *bot1 : *bot0)});
  }
  auto r = e.make({{"nello", "on"}, {"sevens", "on"}}, 12345);
  for (const auto& [seat, text] : record) {
    if (seat < 0)
      r->apply_chance(text);
    else
      EXPECT_EQ(r->apply(seat, text), text);
  }
  EXPECT_TRUE(r->terminal());
  EXPECT_EQ(r->view(-1), g->view(-1));
  EXPECT_EQ(r->returns(), g->returns());
  EXPECT_EQ(r->hands().size(), g->hands().size());
  EXPECT_FALSE(g->hands().front().text.empty());
  const double total = g->returns()[0] + g->returns()[1];
  EXPECT_DOUBLE_EQ(total, 1.0);
  EXPECT_THROW(g->apply(0, "pass"), Error);
}

// --- Bots ---

TEST(Texas42Bots, GreedyHandEstimateFavoursLongTrumps) {
  const HandEstimate e = estimate_hand(tiles("6-6 6-5 6-4 6-3 6-2 5-5 1-0"));
  EXPECT_EQ(e.trump, 6);
  EXPECT_GE(e.points, 34);
  const HandEstimate weak = estimate_hand(tiles("1-0 2-0 3-1 4-2 5-3 6-1 4-0"));
  EXPECT_LT(weak.points, 30);
}

TEST(Texas42Bots, GreedyFeedsCountToAWinningPartnerAndKeepsItFromOpponents) {
  // Seat 0 leads 6-6 in sixes (unbeatable); seat 1 discards; seat 2 holds
  // 5-5 and no six: it feeds the count to its partner.
  State s = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 1-0", "", "5-5 3-0 1-1 2-1 2-2 0-0 4-2", ""});
  contract(s, "bid:30", "trump:6");
  act(s, "6-6");
  act(s, legal(s)[0]);
  MoveList<Move, Texas42::kMaxMoves> l;
  s.legal_moves(2, l);
  GreedyBot bot(1);
  EXPECT_EQ(s.move_text(bot.choose(s.observe(2), l.span())), "5-5");
  // Opponents winning: seat 1 (void in sixes, no trumps) must not give count.
  State t = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 1-0", "5-5 3-2 5-0 4-1 2-1 0-0 1-1", "", ""});
  contract(t, "bid:30", "trump:6");
  act(t, "6-6");
  t.legal_moves(1, l);
  const Move m = bot.choose(t.observe(1), l.span());
  EXPECT_EQ(count_of(m.tile()), 0) << t.move_text(m);
}

TEST(Texas42Bots, GreedyDeclarerLeadsTrumpsFirst) {
  State s = dealt({"6-6 6-5 6-4 5-5 4-4 3-0 1-0", "", "", ""});
  contract(s, "bid:30", "trump:6");
  MoveList<Move, Texas42::kMaxMoves> l;
  s.legal_moves(0, l);
  GreedyBot bot(3);
  EXPECT_TRUE(bot.choose(s.observe(0), l.span()).tile().shows(6));
}

TEST(Texas42Bots, GreedyBeatsRandom) {
  // Greedy partnerships against random ones, seats swapped every game.
  const int games = property_games(10000) >= 10000 ? 300 : 40;
  double greedy = 0;
  Rng rng(3);
  MoveList<Move, Texas42::kMaxMoves> l;
  for (int g = 0; g < games; ++g) {
    State s(Rules{}, static_cast<uint64_t>(g) + 100);
    GreedyBot gb(static_cast<uint64_t>(g));
    const int gside = g & 1;
    while (!s.terminal()) {
      const Actor a = s.actor();
      if (a.kind == Actor::Chance) {
        s.apply_chance();
        continue;
      }
      s.legal_moves(a.seat, l);
      Move m = State::side_of(a.seat) == gside ? gb.choose(s.observe(a.seat), l.span())
                                               : l[static_cast<int>(rng.below(static_cast<uint32_t>(l.size())))];
      s.apply(a.seat, m);
    }
    double r[4];
    s.returns(r);
    greedy += r[gside];
  }
  EXPECT_GT(greedy / games, 0.6);
}
