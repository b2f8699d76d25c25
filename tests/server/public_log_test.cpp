// The log as text (PublicLogText, what a table sends on each change) is
// exactly the log as JSON (public_log, what GET shows), event by event, in
// every family: across deals, hand ends and a cleared cache. And the move
// that ends a hand, which comes in one message with the next deal, is in
// the log beside that deal.
#include "server/public_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/game.h"
#include "record/session.h"

namespace boneyard::server {
namespace {

using nlohmann::json;

int hand_of(const AnyState& st) { return static_cast<int>(st.hands().size()) + (st.terminal() ? 0 : 1); }

bool is_deal(const RecordEvent& e) { return e.chance && e.text.rfind("deal", 0) == 0; }

// The hand in play's first deal (a redeal deals again in the same hand).
std::size_t first_deal(const Session& s) {
  const std::size_t since = s.hand_ends().empty() ? 0 : s.hand_ends().back() + 1;
  for (std::size_t i = since; i < s.events().size(); ++i)
    if (is_deal(s.events()[i])) return i;
  return 0;
}

// ends_shown: how often the log showed a hand's last move beside the next deal.
void check_game(const std::string& game, uint64_t seed, size_t& ends_shown) {
  Session s(game, {}, seed);
  std::mt19937_64 rng(seed);
  PublicLogText every(40), sometimes(40), cleared(40), small(5);
  size_t checked = 0, finished = 0;
  for (int step = 0; step < 5000 && !s.state().terminal(); ++step) {
    const Actor a = s.state().actor();
    if (a.kind == Actor::Chance) {
      s.chance();
    } else {
      int seat = a.seat;
      if (a.kind != Actor::Seat)  // simultaneous: any seat that acts
        for (int k = 0; k < s.state().num_seats(); ++k)
          if (a.acts(k)) {
            seat = k;
            break;
          }
      const auto moves = s.state().legal_moves(seat);
      ASSERT_FALSE(moves.empty()) << game << ": no legal move for seat " << seat;
      s.apply(seat, moves[rng() % moves.size()]);
    }
    const int hand = hand_of(s.state());
    // The session notes the event that ended each hand.
    if (s.state().hands().size() > finished) {
      finished = s.state().hands().size();
      ASSERT_EQ(s.hand_ends().size(), finished) << game;
      EXPECT_EQ(s.hand_ends().back(), s.events().size() - 1) << game;
    }
    ASSERT_EQ(s.hand_ends().size(), finished) << game;
    // After the next deal, the log starts with that event, under its hand's
    // number, shown as any entry is (a face-down lay keeps its tiles).
    const json log = public_log(s, 40, hand);
    const std::size_t deal = first_deal(s);
    if (finished > 0 && s.hand_ends().back() < deal && s.events().size() - deal <= 40) {
      const std::size_t end = s.hand_ends().back();
      const RecordEvent& e = s.events()[end];
      ASSERT_GE(log.size(), 2u) << game;
      EXPECT_EQ(log[0]["n"], end) << game;
      EXPECT_EQ(log[0]["hand"], static_cast<int>(finished)) << game;
      EXPECT_EQ(log[1]["n"], deal) << game;
      EXPECT_EQ(log[1]["hand"], hand) << game;
      if (!e.chance && !(s.entry().face_down && e.text.find('-') != std::string::npos)) {
        EXPECT_EQ(log[0]["move"], e.text) << game;
        ++ends_shown;
      } else {
        EXPECT_TRUE(log[0]["move"].is_null()) << game << ": " << log[0].dump();
      }
    } else if (!log.empty()) {
      EXPECT_EQ(log[0]["hand"], hand) << game;
    }
    std::string text;
    every.append(s, hand, text);
    ASSERT_EQ(json::parse(text), public_log(s, 40, hand)) << game << " after event " << s.events().size();
    if (step % 7 == 0) {
      std::string t2;
      sometimes.append(s, hand, t2);
      ASSERT_EQ(t2, text) << game << " after event " << s.events().size();
    }
    if (step % 50 == 0) cleared.clear();
    std::string t3;
    cleared.append(s, hand, t3);
    ASSERT_EQ(t3, text) << game << " (cleared) after event " << s.events().size();
    std::string t4;
    small.append(s, hand, t4);
    ASSERT_EQ(json::parse(t4), public_log(s, 5, hand)) << game << " after event " << s.events().size();
    ++checked;
  }
  EXPECT_GT(checked, 50u) << game;
  EXPECT_GT(s.state().hands().size(), 0u) << game << ": the check should cross a hand's end";
}

TEST(PublicLogText, IsThePublicLogEventByEventInEveryFamily) {
  register_all_games();
  for (const char* game : {"latin", "texas-42", "mexican-train", "dice-and-dominoes"}) {
    size_t shown = 0;
    check_game(game, 11, shown);
    // Dice & Dominoes' hands end on face-down lays; the others on a move in the open.
    if (std::string(game) != "dice-and-dominoes") {
      EXPECT_GT(shown, 0u) << game;
    }
  }
}

// A redeal is no new hand: the log keeps the hand's first deal, so "Last
// moves" still shows who asked for the redeal (latin: five doubles) or the
// four passes (Texas 42), then the deal again, all under one hand's number.
void check_redeal(const Session& s, const std::vector<std::pair<int, std::string>>& asked) {
  const json log = public_log(s, 40, 1);
  std::string text;
  PublicLogText(40).append(s, 1, text);
  EXPECT_EQ(json::parse(text), log);
  ASSERT_EQ(log.size(), asked.size() + 2) << log.dump();
  EXPECT_EQ(log.front()["kind"], "deal");
  for (std::size_t k = 0; k < asked.size(); ++k) {
    EXPECT_EQ(log[k + 1]["kind"], "move") << log.dump();
    EXPECT_EQ(log[k + 1]["seat"], asked[k].first) << log.dump();
    EXPECT_EQ(log[k + 1]["move"], asked[k].second) << log.dump();
  }
  EXPECT_EQ(log.back()["kind"], "deal");
  for (const auto& e : log) EXPECT_EQ(e["hand"], 1);
}

TEST(PublicLog, ARedealKeepsWhoAskedForIt) {
  register_all_games();
  // latin: find a deal where the seat to decide holds five doubles.
  bool found = false;
  for (uint64_t seed = 1; seed < 2000 && !found; ++seed) {
    Session s("latin", {}, seed);
    s.settle_chance();
    const Actor a = s.state().actor();
    if (a.kind != Actor::Seat) continue;
    const auto moves = s.state().legal_moves(a.seat);
    if (std::find(moves.begin(), moves.end(), "redeal") == moves.end()) continue;
    found = true;
    EXPECT_EQ(s.state().deals(), 0);
    s.apply(a.seat, "redeal");
    s.settle_chance();
    EXPECT_EQ(s.state().deals(), 1);  // a deal thrown in counts, so front-ends show the new one
    EXPECT_TRUE(s.state().hands().empty());
    check_redeal(s, {{a.seat, "redeal"}});
  }
  EXPECT_TRUE(found) << "no latin deal with five doubles in 2,000 seeds";
  // Texas 42: all four pass, and the hand is dealt again.
  Session t("texas-42", {}, 3);
  t.settle_chance();
  std::vector<std::pair<int, std::string>> passes;
  for (int k = 0; k < 4; ++k) {
    const int seat = t.state().actor().seat;
    passes.push_back({seat, t.apply(seat, "pass")});
  }
  t.settle_chance();
  EXPECT_EQ(t.state().deals(), 1);
  check_redeal(t, passes);
}

}  // namespace
}  // namespace boneyard::server
