#pragma once
// The review of one seat's moves in one finished hand (docs/bots.md,
// "Review"): each decision graded by the value it lost against the best
// move. The line games and Texas 42 are judged by their exact solver with
// every hand known (the hand is public once it is over); Mexican Train and
// Dice & Dominoes by the strongest fair bot (ismcts) from the seat's own
// view at that moment, with a fixed budget and seed so that the CLI and the
// server give the same review. `boneyard analyze --review` and the server's
// review endpoint both call review_hand.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "record/session.h"

namespace boneyard {

enum class Grade { Best, Good, Inaccuracy, Mistake, Blunder };
const char* grade_name(Grade g);  // "best", "good", "inaccuracy", "mistake", "blunder"

// Upper bounds of the value lost, in the review's unit: a loss of 0 is
// Best, up to `good` Good, up to `inaccuracy` Inaccuracy, up to `mistake`
// Mistake, more Blunder.
struct GradeThresholds {
  double good = 0, inaccuracy = 0, mistake = 0;
};
Grade grade_for(double loss, const GradeThresholds& t);

struct ReviewedMove {
  size_t event = 0;  // the event's index in the record
  std::string played, best;
  std::string played_words, best_words;  // the same said for people (AnyState::move_words)
  double played_value = 0, best_value = 0, loss = 0;  // in the review's unit
  Grade grade = Grade::Best;
  // The solver ran out of time and fell back to a bounded search: the loss
  // of a move far from the best is then at least `loss` (still a Blunder).
  bool bound = false;
  std::vector<std::pair<std::string, double>> values;  // every legal move, best first
};

struct HandReview {
  std::string game;
  int hand = 1;  // 1-based
  int seat = 0;
  bool hands_known = false;  // true: exact solver with every hand known
  std::string method;        // "solver" or the bot's name
  std::string unit;          // "points", "wins", "marks", "pips", "chips"
  GradeThresholds thresholds;
  std::vector<ReviewedMove> moves;  // the seat's decisions with a choice
  int forced = 0;                   // decisions with one legal move (not graded)
  int unsolved = 0;                 // decisions the solver could not finish in the time allowed (not graded)
  double seconds = 0;               // time taken
};

struct ReviewOptions {
  double solver_ms = 1000;      // per decision, exact line-game solve; then a bounded one
  double hand_exact_ms = 2500;  // the same for all of one review's decisions together
  double bounded_ms = 2000;     // per decision, the bounded solve; past it the decision is not graded
  double hand_ms = 6000;        // all the line-game solving of one review
  int iterations = 0;           // ismcts iterations per decision (0: the game's default)
};

// Reviews `seat`'s decisions in hand `hand` (1-based) of a record; throws
// Error naming the problem (no such seat, the hand is not finished, ...).
HandReview review_hand(const nlohmann::json& record, int seat, int hand, const ReviewOptions& o = {});

nlohmann::json review_json(const HandReview& r);
// For a person: one line per decision, and what the grades mean.
std::string review_text(const HandReview& r);

}  // namespace boneyard
