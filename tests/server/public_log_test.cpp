// The log as text (PublicLogText, what a table sends on each change) is
// exactly the log as JSON (public_log, what GET shows), event by event, in
// every family: across deals, hand ends and a cleared cache.
#include "server/public_log.h"

#include <gtest/gtest.h>

#include <random>

#include "core/game.h"
#include "record/session.h"

namespace boneyard::server {
namespace {

using nlohmann::json;

int hand_of(const AnyState& st) { return static_cast<int>(st.hands().size()) + (st.terminal() ? 0 : 1); }

void check_game(const std::string& game, uint64_t seed) {
  Session s(game, {}, seed);
  std::mt19937_64 rng(seed);
  PublicLogText every(40), sometimes(40), cleared(40), small(5);
  size_t checked = 0;
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
  for (const char* game : {"latin", "texas-42", "mexican-train", "dice-and-dominoes"}) check_game(game, 11);
}

}  // namespace
}  // namespace boneyard::server
