#pragma once
// Glicko-2 ratings (Mark E. Glickman, "Example of the Glicko-2 system",
// 2013): a rating r, a rating deviation RD (how unsure the rating is) and a
// volatility sigma (how erratic the player's results are), updated once per
// rating period from that period's games. docs/server.md, "Ratings", says
// how the server uses it (each rated game is a period of its own; time
// without games widens RD).
#include <vector>

namespace boneyard::server::glicko2 {

struct Rating {
  double rating = 1500;      // r
  double rd = 350;           // RD
  double volatility = 0.06;  // sigma
};

// One game of the period: the opponent's rating (as it was at the start of
// the period) and the score: 1 won, 0.5 drawn, 0 lost.
struct Game {
  Rating opponent;
  double score = 0;
};

struct Config {
  double tau = 0.5;           // constrains the change of volatility (the paper: 0.3 to 1.2)
  double epsilon = 0.000001;  // convergence of the volatility iteration (step 5)
};

// A rating at or above this RD is provisional (shown with a "?"): a new
// player starts at 350 and gets under it after about ten games against
// established players. 110 is about two thirds of the way from a settled
// player (RD 50-60) to a new one.
inline constexpr double kProvisionalRd = 110;
inline bool provisional(const Rating& r) { return r.rd >= kProvisionalRd; }

// The rating after one period (steps 1-8 of the paper). No games: only the
// deviation grows (step 6), rating and volatility stay. The deviation never
// exceeds that of a new player (350).
Rating update(const Rating& player, const std::vector<Game>& games, const Config& cfg = {});

// Time without games: n whole rating periods without a game each widen the
// deviation as step 6 does, together phi* = sqrt(phi^2 + n sigma^2) (the
// Glicko-2 scale), never above a new player's 350; rating and volatility
// stay. n <= 0 changes nothing.
Rating idle(const Rating& player, long periods);

// A partnership game (Texas 42, partnership dominoes): the opposing team as
// one opponent, its rating the mean of its players' ratings and its RD the
// root mean square of their RDs (the composite's uncertainty is that of a
// typical member; its volatility the mean of theirs, unused by the update).
Rating composite(const std::vector<Rating>& team);

// Both partners' new ratings after a team game against another team:
// each partner plays one game against the opposing team's composite, scored
// with the team's result (1, 0.5, 0). Each partner keeps their own deviation
// and volatility, so a new player's rating moves more than an established
// partner's.
std::vector<Rating> update_team(const std::vector<Rating>& team, const std::vector<Rating>& opponents, double score,
                                const Config& cfg = {});

}  // namespace boneyard::server::glicko2
