#pragma once
// Sequential probability ratio test for A/B tests of bots, as fishtest does
// it: a generalised SPRT (GSPRT) on the logistic Elo of the paired result of
// each duplicate deal set (Michel Van den Bergh, "A practical introduction to
// the GSPRT", and fishtest's LLRcalc.py; docs/tournaments.md explains it).
//
// A sample is the score of bot A in one deal set, in [0, 1] (a deal set
// played both ways with win/draw/loss games gives 0, 0.25, 0.5, 0.75 or 1:
// the pentanomial model). The test does not assume a distribution: the
// likelihood ratio compares the maximum likelihood distributions, on the
// observed values, whose means are the scores of elo0 and elo1.
#include <map>
#include <string>

namespace boneyard {

struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  // "elo0=0,elo1=5,alpha=0.05,beta=0.05" (any subset, any order); throws Error.
  static SprtParams parse(const std::string& text);
  double lower() const;  // log(beta / (1 - alpha)): accept H0 at or below
  double upper() const;  // log((1 - beta) / alpha): accept H1 at or above
};

// Expected score for a logistic Elo difference, and back.
double elo_to_score(double elo);
double score_to_elo(double score);

class Sprt {
 public:
  enum class Result { Continue, H0, H1 };
  explicit Sprt(SprtParams p) : p_(p) {}
  // Adds one sample (a deal set's score for bot A, 0..1) and returns the
  // decision after it. Deterministic: the same samples in the same order
  // give the same LLR.
  Result add(double score);
  double llr() const { return llr_; }
  Result result() const { return result_; }
  int samples() const { return n_; }
  // Elo estimate of A over B from the mean sample, with a 95% interval
  // (normal approximation on the mean score).
  double elo() const;
  double elo_lo() const;
  double elo_hi() const;
  double mean() const;
  // How the test stands, for a progress line: "+12 Elo [-30, +54], LLR
  // +0.41 (-2.94 to +2.94)"; empty before the first sample.
  std::string standing() const;
  const SprtParams& params() const { return p_; }
  static const char* name(Result r) { return r == Result::H1 ? "H1" : r == Result::H0 ? "H0" : "continue"; }

  // The log-likelihood ratio for a histogram (value -> count) of samples:
  // sum of counts times log(p1/p0), p0 and p1 being the maximum likelihood
  // distributions with means elo_to_score(elo0) and elo_to_score(elo1).
  // Empty bins of the pentanomial grid (0, 1/4, 1/2, 3/4, 1) get a count of
  // 1e-3, as fishtest's regularize(), so the means can always be reached.
  static double llr_of(const std::map<double, double>& histogram, double elo0, double elo1);

 private:
  double half_width() const;
  SprtParams p_;
  std::map<double, double> hist_;
  int n_ = 0;
  double sum_ = 0, sum_sq_ = 0;
  double llr_ = 0;
  Result result_ = Result::Continue;
};

}  // namespace boneyard
