#include "server/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/error.h"

namespace boneyard::server::glicko2 {

namespace {
constexpr double kScale = 173.7178;  // Glicko to Glicko-2 scale (step 2)
constexpr double kMaxRd = 350;

double g(double phi) { return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi)); }
double expected(double mu, double mu_j, double phi_j) { return 1 / (1 + std::exp(-g(phi_j) * (mu - mu_j))); }

void check(const Rating& r, const char* who) {
  if (!std::isfinite(r.rating) || !std::isfinite(r.rd) || !std::isfinite(r.volatility) || r.rd <= 0 ||
      r.volatility <= 0)
    throw Error(std::string("glicko2: ") + who + " needs a finite rating, a positive RD and a positive volatility");
}
}  // namespace

Rating idle(const Rating& player, long periods) {
  if (periods <= 0) return player;
  check(player, "the player");
  const double phi = player.rd / kScale, sigma = player.volatility;
  const double phi_star = std::sqrt(phi * phi + static_cast<double>(periods) * sigma * sigma);
  return {player.rating, std::min(kMaxRd, std::max(player.rd, phi_star * kScale)), sigma};
}

Rating update(const Rating& player, const std::vector<Game>& games, const Config& cfg) {
  check(player, "the player");
  if (!(cfg.tau > 0) || !(cfg.epsilon > 0)) throw Error("glicko2: tau and epsilon must be positive");
  // Step 2: to the Glicko-2 scale.
  const double mu = (player.rating - 1500) / kScale;
  const double phi = player.rd / kScale;
  const double sigma = player.volatility;
  if (games.empty()) {
    // Step 6 alone: a period without games only widens the deviation.
    const double phi_star = std::sqrt(phi * phi + sigma * sigma);
    return {player.rating, std::min(kMaxRd, phi_star * kScale), sigma};
  }
  // Steps 3 and 4: the estimated variance v and improvement delta.
  double inv_v = 0, sum = 0;
  for (const Game& game : games) {
    check(game.opponent, "an opponent");
    if (!(game.score >= 0 && game.score <= 1)) throw Error("glicko2: a score is 0 (lost), 0.5 (drawn) or 1 (won)");
    const double mu_j = (game.opponent.rating - 1500) / kScale;
    const double phi_j = game.opponent.rd / kScale;
    const double e = expected(mu, mu_j, phi_j);
    inv_v += g(phi_j) * g(phi_j) * e * (1 - e);
    sum += g(phi_j) * (game.score - e);
  }
  const double v = 1 / inv_v;
  const double delta = v * sum;
  // Step 5: the new volatility, by the Illinois algorithm on f.
  const double a = std::log(sigma * sigma);
  const double tau2 = cfg.tau * cfg.tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / tau2;
  };
  double A = a, B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * cfg.tau) < 0) ++k;
    B = a - k * cfg.tau;
  }
  double fA = f(A), fB = f(B);
  for (int iter = 0; std::fabs(B - A) > cfg.epsilon && iter < 1000; ++iter) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const double sigma2 = std::exp(A / 2);
  // Steps 6 and 7: the new deviation and rating.
  const double phi_star = std::sqrt(phi * phi + sigma2 * sigma2);
  const double phi2 = 1 / std::sqrt(1 / (phi_star * phi_star) + 1 / v);
  const double mu2 = mu + phi2 * phi2 * sum;
  // Step 8: back to the Glicko scale.
  return {kScale * mu2 + 1500, std::min(kMaxRd, kScale * phi2), sigma2};
}

Rating composite(const std::vector<Rating>& team) {
  if (team.empty()) throw Error("glicko2: a team has at least one player");
  Rating c{0, 0, 0};
  for (const Rating& r : team) {
    check(r, "a team's player");
    c.rating += r.rating;
    c.rd += r.rd * r.rd;
    c.volatility += r.volatility;
  }
  const double n = static_cast<double>(team.size());
  return {c.rating / n, std::sqrt(c.rd / n), c.volatility / n};
}

std::vector<Rating> update_team(const std::vector<Rating>& team, const std::vector<Rating>& opponents, double score,
                                const Config& cfg) {
  const Rating other = composite(opponents);
  std::vector<Rating> out;
  out.reserve(team.size());
  for (const Rating& r : team) out.push_back(update(r, {{other, score}}, cfg));
  return out;
}

}  // namespace boneyard::server::glicko2
