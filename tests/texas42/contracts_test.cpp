// The contracts beyond the source (docs/texas-42.md): nello, plunge,
// splash, sevens. All off by default.
#include <gtest/gtest.h>

#include "../refusal.h"
#include "helpers.h"

using namespace t42test;

namespace {
const std::vector<std::string> kNelloDeal = {"2-2 1-0 2-0 2-1 3-0 3-1 4-0", "6-6 5-5 6-5 6-4 6-3 6-2 4-4",
                                             "0-0 1-1 3-2 4-1 5-1 6-0 6-1", "3-3 5-2 5-3 5-4 4-2 4-3 5-0"};
const OptionList kAll = {{"nello", "on"}, {"plunge", "on"}, {"splash", "on"}, {"sevens", "on"}};
}  // namespace

TEST(Texas42Contracts, OffByDefault) {
  State s = dealt({"6-6 5-5 4-4 3-3 2-2 1-1 0-0", "", "", ""});
  bids(s, "pass", "pass", "pass", "bid:42");
  EXPECT_FALSE(has(legal(s), "trump:nello"));
  EXPECT_FALSE(has(legal(s), "trump:sevens"));
  EXPECT_THROW(act(s, "nello"), Error);
  // The words for an unknown trump name only the contracts on in this game.
  const std::string off = refusal(s, 3, "trump:7");
  EXPECT_NE(off.find("say 0..6, doubles, follow-me;"), std::string::npos) << off;
  State on = dealt({"6-6 5-5 4-4 3-3 2-2 1-1 0-0", "", "", ""}, kAll);
  bids(on, "pass", "pass", "pass", "bid:42");
  const std::string all = refusal(on, 3, "trump:7");
  EXPECT_NE(all.find("say 0..6, doubles, follow-me, nello, sevens;"), std::string::npos) << all;
  State t = dealt({"", "6-6 5-5 4-4 3-3 2-2 1-1 0-0", "", ""});
  EXPECT_THROW(act(t, "plunge"), Error);
  EXPECT_THROW(act(t, "splash"), Error);
}

TEST(Texas42Nello, NeedsABidOfOneMark) {
  State low = dealt(kNelloDeal, {{"nello", "on"}});
  for (int seat : {1, 2, 3}) (void)seat, act(low, "pass");
  act(low, "bid:41");
  EXPECT_FALSE(has(legal(low), "trump:nello"));
  State s = dealt(kNelloDeal, {{"nello", "on"}});
  bids(s, "pass", "pass", "pass", "bid:42");
  EXPECT_TRUE(has(legal(s), "trump:nello"));
}

TEST(Texas42Nello, PartnerSitsOutAndDoublesAreTheirOwnSuit) {
  State s = dealt(kNelloDeal, {{"nello", "on"}});
  contract(s, "bid:42", "nello");
  EXPECT_EQ(s.trump(), kNello);
  EXPECT_EQ(s.sitting_out(), 2);
  EXPECT_EQ(s.actor().seat, 0);  // the declarer leads
  act(s, "2-2");                 // leads doubles, not twos
  EXPECT_EQ(sorted_copy(legal(s)), sorted_copy({"4-4", "5-5", "6-6"}));
  act(s, "6-6");
  EXPECT_EQ(s.actor().seat, 3);  // seat 2 is skipped
  EXPECT_EQ(legal(s), std::vector<std::string>{"3-3"});
  act(s, "3-3");
  EXPECT_EQ(s.tricks_done(), 1);  // three tiles make the trick
  EXPECT_EQ(s.trick_won_by(0), 1);
  EXPECT_EQ(s.trick_tiles(0)[3], 0xff);
  EXPECT_EQ(s.actor().seat, 1);
  act(s, "6-5");  // sixes: 6-6 would not be one, and seat 3 has none
  EXPECT_EQ(legal(s).size(), 6u);
}

TEST(Texas42Nello, SetTheMomentTheDeclarerTakesATrick) {
  State s = dealt(kNelloDeal, {{"nello", "on"}});
  contract(s, "bid:42", "nello");
  act(s, "1-0");  // nobody else holds a one
  act(s, legal(s)[0]);
  act(s, legal(s)[0]);
  EXPECT_EQ(s.hands_finished(), 1);
  EXPECT_FALSE(s.last_result().made);
  EXPECT_EQ(s.last_result().tricks_played, 1);
  EXPECT_EQ(s.last_result().gained[1], 1);
}

TEST(Texas42Nello, MadeWhenTheDeclarerLosesEveryTrick) {
  // Every tile of seat 0 is the lowest of its suit.
  State s = dealt({"0-0 1-0 2-0 3-0 4-0 5-0 6-0", "", "", ""}, {{"nello", "on"}});
  bids(s, "pass", "pass", "pass", "bid:42");
  act(s, "nello");
  act(s, "1-0");
  while (s.phase() == Phase::Play) act(s, legal(s)[0]);
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.made);
  EXPECT_EQ(h.tricks[0], 0);
  EXPECT_EQ(h.tricks_played, 7);
  EXPECT_EQ(h.points[0] + h.points[1], 42);  // seat 2's hand holds no count here
  EXPECT_EQ(h.gained[0], 1);
}

TEST(Texas42Plunge, FourDoublesBidFourMarksAndPartnerNamesTrumpsAndLeads) {
  State s = dealt({"", "6-6 5-5 4-4 3-3 6-0 5-0 4-0", "", ""}, kAll);
  EXPECT_TRUE(has(legal(s), "plunge:4marks"));
  act(s, "plunge");
  EXPECT_EQ(s.high_bid(), 168);
  EXPECT_EQ(sorted_copy(legal(s)), sorted_copy({"pass"}));  // seat 2: 4 marks is the highest bid (spec: Bidding)
  act(s, "pass");
  act(s, "pass");
  act(s, "pass");
  EXPECT_EQ(s.declarer(), 1);
  EXPECT_EQ(s.actor().seat, 3);  // the partner names trumps
  EXPECT_FALSE(has(legal(s), "trump:nello"));
  EXPECT_FALSE(has(legal(s), "trump:sevens"));
  act(s, "trump:doubles");
  EXPECT_EQ(s.actor().seat, 3);  // and leads
  EXPECT_EQ(s.phase(), Phase::Play);
  while (s.phase() == Phase::Play) act(s, legal(s)[0]);
  const HandResult& h = s.last_result();
  EXPECT_EQ(h.gained[h.made ? 1 : 0], 4);  // all or nothing, 4 marks
  EXPECT_EQ(h.made, h.tricks[0] == 0);
}

TEST(Texas42Plunge, NeedsFourDoublesAndGoesAboveHigherBids) {
  State s = dealt({"6-6 5-5 4-4 3-3 6-0 5-0 4-0", "2-2 1-1 0-0 6-1", "", ""}, kAll);
  EXPECT_FALSE(has(legal(s), "plunge:4marks"));  // seat 1: three doubles
  EXPECT_TRUE(has(legal(s), "splash:2marks"));
  act(s, "bid:42");
  act(s, "bid:2marks");
  act(s, "bid:3marks");
  EXPECT_TRUE(has(legal(s), "plunge:4marks"));  // seat 0, the dealer
  act(s, "bid:4marks");
  EXPECT_EQ(s.declarer(), 0);
  State u = dealt({"6-6 5-5 4-4 3-3 6-0 5-0 4-0", "", "", ""}, {{"plunge", "on"}, {"open_two_marks", "on"}});
  act(u, "bid:2marks");
  act(u, "bid:3marks");
  act(u, "bid:4marks");
  EXPECT_EQ(sorted_copy(legal(u)), sorted_copy({"pass"}));  // no plunge above 4 marks (spec: Bidding)
}

TEST(Texas42Splash, ThreeDoublesTwoOrThreeMarks) {
  State s = dealt({"", "6-6 5-5 4-4 6-0 5-0 4-0 3-0", "", "3-3 2-2 1-1 2-0"}, kAll);
  EXPECT_TRUE(has(legal(s), "splash:2marks"));
  EXPECT_FALSE(has(legal(s), "plunge:4marks"));
  act(s, "bid:42");
  act(s, "bid:2marks");
  EXPECT_TRUE(has(legal(s), "splash:3marks"));  // seat 3: one above 2 marks
  act(s, "splash");
  EXPECT_EQ(s.high_bid(), 126);
  act(s, "pass");
  EXPECT_EQ(s.declarer(), 3);
  EXPECT_EQ(s.actor().seat, 1);  // partner names trumps and leads
  act(s, "trump:6");
  EXPECT_EQ(s.actor().seat, 1);
  OptionList open = kAll;
  open.push_back({"open_two_marks", "on"});
  State t = dealt({"", "", "", "3-3 2-2 1-1 2-0"}, open);
  act(t, "bid:2marks");
  act(t, "bid:3marks");
  EXPECT_FALSE(has(legal(t), "splash:3marks"));  // splash goes to 3 marks at most
  for (const auto& m : legal(t)) EXPECT_EQ(m.rfind("splash", 0), std::string::npos);
}

TEST(Texas42Sevens, ClosestToSevenWinsTiesToTheEarlierAndNoFollowing) {
  State s = dealt({"6-0 1-0", "5-2 6-5 6-6 6-4", "4-3", "6-1"}, {{"sevens", "on"}});
  contract(s, "bid:42", "trump:sevens");
  act(s, "6-0");
  EXPECT_EQ(legal(s).size(), 7u);  // any tile: seat 1 holds sixes but need not follow
  act(s, "5-2");
  act(s, "4-3");
  act(s, "6-1");
  EXPECT_EQ(s.trick_won_by(0), 1);   // 5-2 first at 7 pips
  EXPECT_EQ(s.hands_finished(), 1);  // the defenders took a trick: set
  EXPECT_FALSE(s.last_result().made);
  EXPECT_EQ(s.last_result().gained[1], 1);
}
