#include "core/sprt.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.h"

namespace boneyard {

namespace {
// Maximum likelihood distribution on the values a_i (empirical weights p_i)
// with mean s: p_i / (1 + x (a_i - s)), x the root of
// sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 in the interval where every
// denominator is positive (fishtest's MLE_expected and secular()). The sum
// decreases in x, so bisection finds it.
std::vector<double> mle_with_mean(const std::vector<double>& a, const std::vector<double>& p, double s) {
  double lo = -1e300, hi = 1e300;
  for (double ai : a) {
    const double d = ai - s;
    if (d > 0) lo = std::max(lo, -1 / d);
    if (d < 0) hi = std::min(hi, -1 / d);
  }
  auto f = [&](double x) {
    double v = 0;
    for (size_t i = 0; i < a.size(); ++i) v += p[i] * (a[i] - s) / (1 + x * (a[i] - s));
    return v;
  };
  for (int it = 0; it < 200; ++it) {
    const double mid = lo / 2 + hi / 2;
    if (mid <= lo || mid >= hi) break;
    if (f(mid) > 0)
      lo = mid;
    else
      hi = mid;
  }
  const double x = lo / 2 + hi / 2;
  std::vector<double> q(a.size());
  double total = 0;
  for (size_t i = 0; i < a.size(); ++i) total += q[i] = p[i] / (1 + x * (a[i] - s));
  for (double& v : q) v /= total;
  return q;
}
}  // namespace

double elo_to_score(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }
double score_to_elo(double score) {
  score = std::clamp(score, 1e-6, 1 - 1e-6);
  return -400 * std::log10(1 / score - 1);
}

SprtParams SprtParams::parse(const std::string& text) {
  SprtParams p;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string kv = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t eq = kv.find('=');
    if (eq == std::string::npos)
      throw Error(
          fmt::format("bad --sprt '{}': expected key=value pairs such as elo0=0,elo1=5,alpha=0.05,beta=0.05", text));
    const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    double x = 0;
    try {
      size_t used = 0;
      x = std::stod(v, &used);
      if (used != v.size() || !std::isfinite(x)) throw std::invalid_argument(v);
    } catch (const std::exception&) {
      throw Error(fmt::format("bad --sprt value '{}' for {}: expected a number", v, k));
    }
    if (k == "elo0")
      p.elo0 = x;
    else if (k == "elo1")
      p.elo1 = x;
    else if (k == "alpha")
      p.alpha = x;
    else if (k == "beta")
      p.beta = x;
    else
      throw Error(fmt::format("bad --sprt key '{}': the keys are elo0, elo1, alpha, beta", k));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!(p.alpha > 0 && p.alpha < 0.5 && p.beta > 0 && p.beta < 0.5))
    throw Error("--sprt: alpha and beta must be between 0 and 0.5");
  if (!(p.elo1 > p.elo0)) throw Error("--sprt: elo1 must be greater than elo0");
  if (std::abs(p.elo0) > 800 || std::abs(p.elo1) > 800) throw Error("--sprt: elo0 and elo1 must be within ±800");
  return p;
}

double SprtParams::lower() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upper() const { return std::log((1 - beta) / alpha); }

double Sprt::llr_of(const std::map<double, double>& histogram, double elo0, double elo1) {
  std::map<double, double> h = histogram;
  for (double g : {0.0, 0.25, 0.5, 0.75, 1.0})
    if (!h.count(g)) h[g] = 1e-3;
  std::vector<double> a, p;
  double n = 0;
  for (const auto& [v, c] : h) a.push_back(v), p.push_back(c), n += c;
  for (double& v : p) v /= n;
  const auto p0 = mle_with_mean(a, p, elo_to_score(elo0));
  const auto p1 = mle_with_mean(a, p, elo_to_score(elo1));
  double llr = 0;
  for (size_t i = 0; i < a.size(); ++i) llr += p[i] * std::log(p1[i] / p0[i]);
  return n * llr;
}

Sprt::Result Sprt::add(double score) {
  if (!(score >= 0 && score <= 1)) throw Error(fmt::format("SPRT sample {} is not in [0, 1]", score));
  hist_[score] += 1;
  ++n_;
  sum_ += score;
  sum_sq_ += score * score;
  llr_ = llr_of(hist_, p_.elo0, p_.elo1);
  if (result_ == Result::Continue) {
    if (llr_ >= p_.upper())
      result_ = Result::H1;
    else if (llr_ <= p_.lower())
      result_ = Result::H0;
  }
  return result_;
}

double Sprt::mean() const { return n_ ? sum_ / n_ : 0.5; }
double Sprt::half_width() const {
  if (n_ < 2) return 0.5;
  const double m = mean();
  const double var = std::max(0.0, (sum_sq_ - n_ * m * m) / (n_ - 1));
  return 1.96 * std::sqrt(var / n_);
}
double Sprt::elo() const { return score_to_elo(mean()) + 0.0; }
double Sprt::elo_lo() const { return score_to_elo(mean() - half_width()) + 0.0; }
double Sprt::elo_hi() const { return score_to_elo(mean() + half_width()) + 0.0; }

std::string Sprt::standing() const {
  if (n_ == 0) return "";
  return fmt::format("{:+.0f} Elo [{:+.0f}, {:+.0f}], LLR {:+.2f} ({:+.2f} to {:+.2f})", elo(), elo_lo(), elo_hi(),
                     llr_, p_.lower(), p_.upper());
}

}  // namespace boneyard
