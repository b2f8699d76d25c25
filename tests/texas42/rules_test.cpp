// Texas 42 rules (spec: rules/texas-42.md), each set up from an explicit deal.
#include <gtest/gtest.h>

#include <algorithm>

#include "../refusal.h"
#include "helpers.h"

using namespace t42test;

namespace {
std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Seats 0..3 for the follow and trump tests (all 28 tiles).
const std::vector<std::string> kSpread = {"6-5 4-4 1-0 2-0 3-0 4-0 5-0",   // seat 0
                                          "6-6 6-2 2-1 3-1 4-1 5-1 3-2",   // seat 1: one plain six besides 6-6
                                          "1-1 2-2 3-3 5-5 0-0 4-2 5-2",   // seat 2: no six
                                          "6-0 6-1 6-3 6-4 4-3 5-3 5-4"};  // seat 3

// Seat 0 holds six of the sixes (spec: Scoring tests below).
const std::vector<std::string> kSixes = {"6-6 6-5 6-4 6-3 6-2 6-1 1-0", "6-0 5-5 5-4 5-3 5-2 5-1 5-0",
                                         "4-4 4-3 4-2 4-1 4-0 3-3 3-2", "3-1 3-0 2-2 2-1 2-0 1-1 0-0"};
// The scripted play of kSixes: team 0 takes 36 points in the first six
// tricks (30 after five), seat 1 takes the seventh with 5-1 (6 points).
const char* kSixesPlay[7][4] = {{"6-6", "6-0", "4-4", "0-0"}, {"6-5", "5-5", "4-3", "1-1"},
                                {"6-4", "5-4", "4-2", "2-0"}, {"6-3", "5-3", "4-1", "2-1"},
                                {"6-2", "5-2", "4-0", "2-2"}, {"6-1", "5-0", "3-3", "3-0"},
                                {"1-0", "5-1", "3-2", "3-1"}};
void play_sixes(State& s, int tricks = 7) {
  for (int k = 0; k < tricks && s.phase() == Phase::Play; ++k)
    for (int i = 0; i < 4 && s.phase() == Phase::Play; ++i) act(s, kSixesPlay[k][i]);
}
}  // namespace

// --- Deal ---

TEST(Texas42Deal, FirstDealerIsTheHighestDrawTiesByHigherNumber) {
  State a(Rules{}, 1);
  a.apply_chance_text("draw 6-5 4-4 6-6 2-0");
  EXPECT_EQ(a.dealer(), 2);
  State b(Rules{}, 1);
  b.apply_chance_text("draw 4-1 3-2 5-0 0-0");  // three fives: 5-0 has the higher number
  EXPECT_EQ(b.dealer(), 2);
  State c(Rules{}, 1);
  c.apply_chance_text("draw 3-3 4-2 5-1 6-0");  // four sixes: 6-0
  EXPECT_EQ(c.dealer(), 3);
}

TEST(Texas42Deal, SeededDealIsReproducibleAndRoundTrips) {
  State a(Rules{}, 42), b(Rules{}, 42);
  a.apply_chance();
  b.apply_chance();
  EXPECT_EQ(a.chance_text(), b.chance_text());
  a.apply_chance();
  const std::string deal = a.chance_text();
  uint32_t all = 0;
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(std::popcount(a.hand(s)), 7);
    EXPECT_EQ(all & a.hand(s), 0u);
    all |= a.hand(s);
  }
  EXPECT_EQ(all, kAllTiles);
  State c(Rules{}, 7);
  c.apply_chance_text(b.chance_text());
  c.apply_chance_text(deal);
  for (int s = 0; s < 4; ++s) EXPECT_EQ(c.hand(s), a.hand(s));
  // spec: Bidding starts with the seat after the dealer.
  EXPECT_EQ(c.actor().seat, (c.dealer() + 1) & 3);
}

TEST(Texas42Deal, BadChanceTextsAreErrors) {
  State s(Rules{}, 1);
  EXPECT_THROW(s.apply_chance_text("deal 6-6"), Error);  // the draw comes first
  EXPECT_THROW(s.apply_chance_text("draw 6-6 6-6 1-0 2-0"), Error);
  EXPECT_THROW(s.apply_chance_text("draw 6-6 1-0 2-0"), Error);
  s.apply_chance_text("draw 6-6 0-0 1-0 2-0");
  EXPECT_THROW(s.apply_chance_text("deal 6-6 6-5"), Error);
  EXPECT_THROW(s.apply_chance_text("deal 7-7"), Error);
  std::string d = deal_text({"", "", "", ""});
  EXPECT_NO_THROW(s.apply_chance_text(d));
}

// --- Following and trick winners (spec: Suits and following) ---

TEST(Texas42Follow, SourceExampleFiveOneLeadsFivesAndTwoOneLeadsTwos) {
  // A non-double leads its higher number.
  EXPECT_EQ(tables().led_suit[kFollowMe][Tile::of(5, 1).index], 5);
  EXPECT_EQ(tables().led_suit[kFollowMe][Tile::of(2, 1).index], 2);
  State s = dealt({"5-1 2-1 0-0 1-1 3-3 4-4 6-6", "5-0 5-6 2-0 2-2 3-0 4-0 6-0", "", ""});
  contract(s, "bid:30", "trump:3");
  act(s, "5-1");
  EXPECT_EQ(sorted(legal(s)), sorted({"5-0", "6-5"}));
  State t = dealt({"5-1 2-1 0-0 1-1 3-3 4-4 6-6", "5-0 5-6 2-0 2-2 3-0 4-0 6-0", "", ""});
  contract(t, "bid:30", "trump:3");
  act(t, "2-1");
  EXPECT_EQ(sorted(legal(t)), sorted({"2-0", "2-2"}));
}

TEST(Texas42Follow, SourceExampleThreesTrumpFiveFiveLedMustPlayFiveBlank) {
  State s = dealt({"5-5 1-1 2-2 3-3 4-4 6-6 6-1", "5-0 5-3 0-0 1-0 2-0 2-1 4-0", "", ""});
  contract(s, "bid:30", "trump:3");
  act(s, "5-5");
  EXPECT_EQ(legal(s), std::vector<std::string>{"5-0"});  // 5-3 is a trump, not a five
  EXPECT_THROW(act(s, "5-3"), Error);
}

TEST(Texas42Follow, NumberTrumpsBelongOnlyToTheTrumpSuitAndWin) {
  State s = dealt(kSpread);
  contract(s, "bid:30", "trump:4");
  act(s, "6-5");  // leads sixes
  EXPECT_EQ(sorted(legal(s)), sorted({"6-6", "6-2"}));
  act(s, "6-6");
  EXPECT_EQ(legal(s).size(), 7u);  // seat 2 holds no six: anything, trumps included
  act(s, "4-2");
  EXPECT_EQ(sorted(legal(s)), sorted({"6-0", "6-1", "6-3"}));  // 6-4 is a four (trump), not a six
  act(s, "6-3");
  EXPECT_EQ(s.trick_won_by(0), 2);  // a trump beats the double of the led suit
  EXPECT_EQ(s.points_taken(0), 1);
  EXPECT_EQ(s.not_holding(2) & tables().members[4][6], tables().members[4][6]);  // seat 2 showed no six
}

TEST(Texas42Follow, HighestTrumpWinsAndTheTrumpDoubleIsHighest) {
  for (const char* seat0 : {"4-0", "4-4"}) {
    State s = dealt(kSpread);
    contract(s, "bid:30", "trump:4", 3);  // seat 3 declares and leads
    act(s, "6-4");                        // a trump leads trumps
    EXPECT_EQ(sorted(legal(s)), sorted({"4-4", "4-0"}));
    act(s, seat0);
    EXPECT_EQ(legal(s), std::vector<std::string>{"4-1"});
    act(s, "4-1");
    act(s, "4-2");
    EXPECT_EQ(s.trick_won_by(0), std::string(seat0) == "4-4" ? 0 : 3);
    // 6-4 (10) + 4-1 (5) + the trick.
    EXPECT_EQ(s.points_taken(std::string(seat0) == "4-4" ? 0 : 1), 16);
  }
}

TEST(Texas42Follow, RankInASuitIsTheDoubleThenSixDownToBlank) {
  State s = dealt({"3-0 0-0 1-1 2-2 4-4 5-5 6-6", "3-1 1-0 2-0 2-1 4-0 4-1 5-0", "3-3 5-1 6-1 6-0 4-2 5-2 6-2", ""});
  contract(s, "bid:30", "trump:follow-me");
  act(s, "3-0");
  act(s, "3-1");
  act(s, "3-3");  // the double is the highest three
  const int w = s.actor().seat;
  act(s, "6-3");
  EXPECT_EQ(s.trick_won_by(0), 2);
  EXPECT_EQ(w, 3);
}

TEST(Texas42Follow, DoublesTrumpsAreTheirOwnSuit) {
  State s = dealt(kSpread);
  contract(s, "bid:30", "trump:doubles");
  act(s, "6-5");  // leads sixes; 6-6 is a trump, not a six
  EXPECT_EQ(legal(s), std::vector<std::string>{"6-2"});
  act(s, "6-2");
  act(s, "1-1");  // seat 2, void in sixes, trumps with the lowest double
  EXPECT_EQ(sorted(legal(s)), sorted({"6-0", "6-1", "6-3", "6-4"}));
  act(s, "6-4");
  EXPECT_EQ(s.trick_won_by(0), 2);
  act(s, "5-5");                   // a double leads doubles
  EXPECT_EQ(legal(s).size(), 6u);  // seat 3 holds no double
  act(s, "5-4");
  EXPECT_EQ(legal(s), std::vector<std::string>{"4-4"});
  act(s, "4-4");
  EXPECT_EQ(legal(s), std::vector<std::string>{"6-6"});
  act(s, "6-6");
  EXPECT_EQ(s.trick_won_by(1), 1);  // 6-6 highest
}

TEST(Texas42Follow, FollowMeDoublesLeadTheirNumberAndRankHighest) {
  State s = dealt(kSpread);
  contract(s, "bid:30", "trump:follow-me");
  act(s, "6-5");
  EXPECT_EQ(sorted(legal(s)), sorted({"6-6", "6-2"}));
  act(s, "6-6");
  act(s, "4-2");  // no six, no trump: a discard cannot win
  act(s, "6-4");
  EXPECT_EQ(s.trick_won_by(0), 1);
  EXPECT_EQ(s.points_taken(1), 11);
}

// --- Bidding (spec: Bidding) ---

TEST(Texas42Bidding, MinimumThirtyAndEachBidHigher) {
  State s = dealt({"", "", "", ""});
  auto l = legal(s);
  EXPECT_TRUE(has(l, "pass"));
  EXPECT_TRUE(has(l, "bid:30"));
  EXPECT_TRUE(has(l, "bid:42"));
  EXPECT_FALSE(has(l, "bid:29"));
  EXPECT_FALSE(has(l, "bid:2marks"));  // 2 marks only after 42
  EXPECT_THROW(act(s, "bid:29"), Error);
  act(s, "bid 35");
  EXPECT_THROW(act(s, "bid:35"), Error);
  EXPECT_FALSE(has(legal(s), "bid:34"));
  EXPECT_TRUE(has(legal(s), "bid:36"));
  try {
    act(s, "bid:2marks");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("42"), std::string::npos) << e.what();
  }
}

// open_two_marks: 2 marks as the opening bid (the first bid made, whoever
// passed before it), or after 42; never over a points bid.
TEST(Texas42Bidding, OpenTwoMarksOnlyAsTheOpeningBid) {
  const OptionList open{{"open_two_marks", "on"}};
  State s = dealt({"", "", "", ""}, open);
  EXPECT_TRUE(has(legal(s), "bid:2marks"));  // seat 1 opens
  act(s, "bid:37");
  EXPECT_FALSE(has(legal(s), "bid:2marks"));
  try {
    act(s, "bid:2marks");
    FAIL() << "2 marks accepted after a points bid";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("opening"), std::string::npos) << e.what();
  }
  act(s, "bid:42");
  EXPECT_TRUE(has(legal(s), "bid:2marks"));  // after 42, as without the option
  // Earlier players passed: the first bid made is still the opening bid.
  State t = dealt({"", "", "", ""}, open);
  act(t, "pass");
  act(t, "pass");
  EXPECT_TRUE(has(legal(t), "bid:2marks"));
  act(t, "bid:2marks");
  EXPECT_EQ(sorted(legal(t)), sorted({"pass", "bid:3marks"}));
  // The dealer, after three passes, may open with 2 marks too.
  State u = dealt({"", "", "", ""}, open);
  for (int i = 0; i < 3; ++i) act(u, "pass");
  EXPECT_TRUE(has(legal(u), "bid:2marks"));
  act(u, "bid:30");
  EXPECT_EQ(u.declarer(), 0);
}

TEST(Texas42Bidding, TwoMarksOnlyAfterFortyTwoThenOneMarkAtATime) {
  State s = dealt({"", "", "", ""});
  EXPECT_NE(refusal(s, s.actor().seat, "126").find("so at most 1 mark (42) now (no one has bid yet)"),
            std::string::npos)
      << refusal(s, s.actor().seat, "126");
  act(s, "bid:42");
  auto l = legal(s);
  EXPECT_EQ(sorted(l), sorted({"pass", "bid:2marks"}));
  act(s, "bid 2 marks");
  EXPECT_EQ(sorted(legal(s)), sorted({"pass", "bid:3marks"}));
  EXPECT_NE(refusal(s, s.actor().seat, "bid:4marks").find("so at most 3 marks now (the highest bid is 2 marks)"),
            std::string::npos)
      << refusal(s, s.actor().seat, "bid:4marks");
  act(s, "bid:126");  // 3 marks as points
  EXPECT_EQ(sorted(legal(s)), sorted({"pass", "bid:4marks"}));
  act(s, "pass");
  EXPECT_EQ(s.declarer(), 3);
  EXPECT_EQ(s.high_bid(), 126);
  EXPECT_EQ(s.actor().seat, 3);  // the declarer names trumps
}

// spec: Bidding: a bid is 30..42 points or 1 to 4 marks (4 marks = 168).
// With open_two_marks the one round could reach 5 marks: it stops at 4.
TEST(Texas42Bidding, MarkBidsStopAtFourMarks) {
  State s = dealt({"", "", "", ""}, {{"open_two_marks", "on"}});
  act(s, "bid:2marks");
  act(s, "bid:3marks");
  act(s, "bid:4marks");
  EXPECT_EQ(sorted(legal(s)), sorted({"pass"}));
  for (const char* bid : {"bid:5marks", "bid:210", "210"}) {
    try {
      act(s, bid);
      FAIL() << bid << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("highest bid is 4 marks"), std::string::npos) << e.what();
    }
  }
  act(s, "pass");
  EXPECT_EQ(s.declarer(), 3);
  EXPECT_EQ(s.high_bid(), 168);
}

TEST(Texas42Bidding, OpenTwoMarksAllowsAnOpeningTwoMarks) {
  State s = dealt({"", "", "", ""}, {{"open_two_marks", "on"}});
  EXPECT_NE(refusal(s, s.actor().seat, "bid:3marks").find("so at most 2 marks now (no one has bid yet)"),
            std::string::npos)
      << refusal(s, s.actor().seat, "bid:3marks");
  EXPECT_TRUE(has(legal(s), "bid:2marks"));
  EXPECT_FALSE(has(legal(s), "bid:3marks"));
  act(s, "bid:31");
  EXPECT_FALSE(has(legal(s), "bid:2marks"));  // only as the opening bid (spec: Bidding)
}

TEST(Texas42Bidding, HighestBidderDeclaresNamesTrumpsAndLeads) {
  State s = dealt({"", "", "", ""});
  bids(s, "bid:30", "pass", "bid:31", "pass");
  EXPECT_EQ(s.phase(), Phase::Trumps);
  EXPECT_EQ(s.declarer(), 3);
  EXPECT_EQ(sorted(legal(s)), sorted({"trump:0", "trump:1", "trump:2", "trump:3", "trump:4", "trump:5", "trump:6",
                                      "trump:doubles", "trump:follow-me"}));
  act(s, "trump fives");
  EXPECT_EQ(s.trump(), 5);
  EXPECT_EQ(s.actor().seat, 3);
  EXPECT_EQ(s.phase(), Phase::Play);
}

TEST(Texas42Bidding, AllPassRedealsByTheNextDealer) {
  State s = dealt({"", "", "", ""});
  bids(s, "pass", "pass", "pass", "pass");
  EXPECT_EQ(s.actor().kind, Actor::Chance);
  EXPECT_EQ(s.dealer(), 1);
  EXPECT_EQ(s.hands_finished(), 0);
  EXPECT_EQ(s.redeals(), 1);
  s.apply_chance();
  EXPECT_EQ(s.actor().seat, 2);
}

TEST(Texas42Bidding, ForcedBidMakesTheDealerBid) {
  State s = dealt({"", "", "", ""}, {{"forced_bid", "on"}});
  act(s, "pass");
  act(s, "pass");
  act(s, "pass");
  EXPECT_FALSE(has(legal(s), "pass"));
  EXPECT_TRUE(has(legal(s), "bid:30"));
  EXPECT_THROW(act(s, "pass"), Error);
  act(s, "bid:30");
  EXPECT_EQ(s.declarer(), 0);
  // Once someone has bid, the dealer may pass.
  State t = dealt({"", "", "", ""}, {{"forced_bid", "on"}});
  act(t, "bid:30");
  act(t, "pass");
  act(t, "pass");
  EXPECT_TRUE(has(legal(t), "pass"));
}

// --- Count and scoring (spec: Count and points, Scoring) ---

TEST(Texas42Count, CountTilesAndTricksMakeFortyTwo) {
  int count = 0;
  for (int i = 0; i < kTiles; ++i) count += count_of(Tile{static_cast<uint8_t>(i)});
  EXPECT_EQ(count + kTricks, 42);
  EXPECT_EQ(count_of(Tile::of(5, 5)), 10);
  EXPECT_EQ(count_of(Tile::of(6, 4)), 10);
  EXPECT_EQ(count_of(Tile::of(5, 0)), 5);
  EXPECT_EQ(count_of(Tile::of(4, 1)), 5);
  EXPECT_EQ(count_of(Tile::of(3, 2)), 5);
  EXPECT_EQ(count_of(Tile::of(6, 3)), 0);
}

TEST(Texas42Marks, BidMadeStopsWhenDecided) {
  State s = dealt(kSixes);
  contract(s, "bid:30", "trump:6");
  play_sixes(s);
  EXPECT_EQ(s.hands_finished(), 1);
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.made);
  EXPECT_TRUE(h.stopped_early);
  EXPECT_EQ(h.tricks_played, 5);  // 30 points after five tricks
  EXPECT_EQ(h.points[0], 30);
  EXPECT_EQ(h.gained[0], 1);
  EXPECT_EQ(h.gained[1], 0);
  EXPECT_EQ(s.score(0), 1);
  EXPECT_EQ(s.dealer(), 1);  // the next seat deals
}

TEST(Texas42Marks, PlayedOutWithoutStopWhenDecided) {
  State s = dealt(kSixes, {{"stop_when_decided", "off"}});
  contract(s, "bid:30", "trump:6");
  play_sixes(s);
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.made);
  EXPECT_EQ(h.tricks_played, 7);
  EXPECT_EQ(h.points[0] + h.points[1], 42);
  EXPECT_EQ(h.points[1], 6);
}

TEST(Texas42Marks, BidSetGivesTheDefendersAMark) {
  State s = dealt(kSixes);
  contract(s, "bid:37", "trump:6");  // 36 taken: the defenders' 6 > 42 - 37
  play_sixes(s);
  const HandResult& h = s.last_result();
  EXPECT_FALSE(h.made);
  EXPECT_EQ(h.points[0], 36);
  EXPECT_EQ(h.gained[1], 1);
  EXPECT_EQ(s.score(1), 1);
}

TEST(Texas42Marks, SetAsSoonAsTheDefendersHoldMoreThanFortyTwoLessTheBid) {
  // Seat 1 holds every six: with sixes trumps it wins every trick.
  State s = dealt({"", "6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", ""});
  contract(s, "bid:30", "trump:6");
  while (s.phase() == Phase::Play) act(s, legal(s)[0]);
  const HandResult& h = s.last_result();
  EXPECT_FALSE(h.made);
  EXPECT_TRUE(h.stopped_early);
  EXPECT_GT(h.points[1], 12);
  EXPECT_EQ(h.gained[1], 1);
}

TEST(Texas42Marks, MarkBidThatLosesOneTrickIsSetByItsMarks) {
  State s = dealt(kSixes);
  bids(s, "bid:42", "pass", "pass", "bid:2marks");
  act(s, "trump:6");
  play_sixes(s);
  const HandResult& h = s.last_result();
  EXPECT_FALSE(h.made);  // seat 1 took the last trick
  EXPECT_EQ(h.tricks[1], 1);
  EXPECT_EQ(h.gained[1], 2);
  EXPECT_EQ(h.gained[0], 0);
}

TEST(Texas42Marks, MarkBidTakingEveryTrickScoresItsMarks) {
  State s = dealt({"6-6 6-5 6-4 6-3 6-2 6-1 6-0", "", "", ""});
  bids(s, "bid:42", "pass", "pass", "bid:2marks");
  act(s, "trump:6");
  while (s.phase() == Phase::Play) act(s, legal(s)[0]);
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.made);
  EXPECT_EQ(h.points[0], 42);
  EXPECT_EQ(h.gained[0], 2);
}

TEST(Texas42Marks, GameToTargetMarks) {
  State s = dealt(kSixes, {{"target_marks", "1"}});
  contract(s, "bid:30", "trump:6");
  play_sixes(s);
  EXPECT_TRUE(s.terminal());
  double r[4];
  s.returns(r);
  EXPECT_EQ(r[0], 1);
  EXPECT_EQ(r[2], 1);
  EXPECT_EQ(r[1], 0);
  EXPECT_EQ(r[3], 0);
}

TEST(Texas42Points, MadeBidScoresTheBidAndDefendersTheirPoints) {
  State s = dealt(kSixes, {{"scoring", "points"}});
  contract(s, "bid:30", "trump:6");
  play_sixes(s);
  const HandResult& h = s.last_result();
  EXPECT_TRUE(h.made);
  EXPECT_EQ(h.tricks_played, 7);  // points hands are always played out
  EXPECT_EQ(h.gained[0], 30);
  EXPECT_EQ(h.gained[1], 6);
}

TEST(Texas42Points, MadeScoresTakenScoresThePointsTaken) {
  State s = dealt(kSixes, {{"scoring", "points"}, {"made_scores_taken", "on"}});
  contract(s, "bid:30", "trump:6");
  play_sixes(s);
  EXPECT_EQ(s.last_result().gained[0], 36);
  EXPECT_EQ(s.last_result().gained[1], 6);
}

TEST(Texas42Points, SetBidGivesTheDefendersTheBidPlusTheirPoints) {
  State s = dealt(kSixes, {{"scoring", "points"}});
  contract(s, "bid:37", "trump:6");
  play_sixes(s);
  EXPECT_FALSE(s.last_result().made);
  EXPECT_EQ(s.last_result().gained[0], 0);
  EXPECT_EQ(s.last_result().gained[1], 43);
}

TEST(Texas42Points, MarkBidLosingOneTrickGivesFortyTwoPerMark) {
  State s = dealt(kSixes, {{"scoring", "points"}, {"made_scores_taken", "on"}});
  bids(s, "bid:42", "pass", "pass", "bid:2marks");
  act(s, "trump:6");
  play_sixes(s);
  EXPECT_FALSE(s.last_result().made);
  EXPECT_EQ(s.last_result().gained[1], 84 + 6);
}

TEST(Texas42Points, BothPastTheTargetTheHandsWinnerWins) {
  State s = dealt(kSixes, {{"scoring", "points"}, {"target_points", "6"}});
  contract(s, "bid:30", "trump:6");
  play_sixes(s);  // 30 and 6: both reach 6; the bidders made
  EXPECT_TRUE(s.terminal());
  EXPECT_EQ(s.winner_mask(), 1);
  State t = dealt(kSixes, {{"scoring", "points"}, {"target_points", "6"}});
  contract(t, "bid:37", "trump:6");
  play_sixes(t);
  EXPECT_EQ(t.winner_mask(), 2);
}
