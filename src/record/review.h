#pragma once
// The review of one seat's moves in one finished hand (docs/bots.md,
// "Review"): each decision graded by the expected value it lost against the
// best move given what the seat could know at that moment. The line games
// and Texas 42 sample deals consistent with the seat's view (the sampler
// the fair bots use) and solve each exactly; Mexican Train and Dice &
// Dominoes average independent runs of the strongest fair bot (ismcts)
// from the seat's view. Fixed budgets and seeds, so that the CLI and the server give the
// same review. The exact solver with every hand known ("face up") is kept
// as a second, labelled line, never the grade. `boneyard analyze --review`
// and the server's review endpoint both call review_hand.
#include <chrono>
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
  // What the values count here, in words (GameEntry::value_unit): Texas 42's
  // bids are valued as the bidding bot weighs a set, its plays in plain marks.
  std::string unit_words;
  // Expected values over the seat's sampled deals, in the review's unit.
  double played_value = 0, best_value = 0, loss = 0;
  int samples = 0;            // deals solved for this decision (fewer than asked where the time cap struck)
  int rows = 0;               // the values averaged: deals solved, or the bot's independent runs
  double se = 0;              // the standard error of `loss` (paired over the deals or the bot's runs)
  Grade grade = Grade::Best;  // by max(0, loss - 2 se): only a loss clearly above the noise counts
  // Some sampled deal valued the played move by a bound (more than 20 points
  // below that deal's best): the loss is then at least `loss`.
  bool bound = false;
  std::vector<std::pair<std::string, double>> values;  // every legal move, best first
  // Face up (every hand known, the hand's real deal): not the grade.
  bool face_up = false;  // computed (line games and Texas 42, within the time allowed)
  std::string face_up_best, face_up_best_words;
  double face_up_loss = 0;     // what face_up_best would have won more than the played move
  bool face_up_bound = false;  // face_up_loss is "at least"
};

struct HandReview {
  std::string game;
  int hand = 1;  // 1-based
  int seat = 0;
  bool hands_known = false;  // true: the grade used every hand (never now: grades are fair)
  std::string method;        // "sampled solver" or the bot's name
  int samples = 0;           // deals sampled per decision (0: the bot's values)
  int runs = 0;              // the bot's independent runs per decision (0: sampled deals)
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
  int samples = 16;             // deals sampled per decision (line games, Texas 42)
  // Time caps on the sampled solves (a three-player line hand's first lead
  // can take seconds a deal): past either, a decision keeps the deals solved
  // so far (none: not graded). Tests use budgets that never reach them.
  double fair_ms = 2000;       // per decision
  double fair_hand_ms = 8000;  // all of one review's decisions
  bool face_up = true;         // add the every-hand-known line
  double think_ms = 0;         // > 0: the bot-valued games' bot thinks this long instead of `iterations`
};

// The coach's options for a bot budget (`--iterations`, `--think-ms`, the
// protocol's fields): iterations are the deals sampled (line games, Texas 42)
// or the bot's iterations (the others), with no clock (reproducible); a time
// caps the sampled solves of the decision or is the bot's time; neither: the
// review's defaults (16 deals, at most 2 s).
ReviewOptions coach_options(const BotOptions& budget);

// The seed of the review's values for the decision at `event` of a record
// of seed `game_seed`.
uint64_t review_seed(uint64_t game_seed, size_t event);

// Each legal move's expected value for `seat` from what the seat can know,
// in the review's unit: the numbers of the review, of hints and of the
// protocol's `values` (docs/bots.md, "Hints"). Line games and Texas 42: the
// mean over o.samples deals consistent with the seat's view, each solved
// (sampled_values); Mexican Train and Dice & Dominoes: the mean of
// kBotRuns independent runs of the strongest fair bot at o.iterations (or
// o.think_ms), turned into pips or chips. The same state, seat, seed and options give the same numbers.
struct ExpectedValues {
  std::string method;  // "sampled solver" or the bot's name
  std::string unit;    // as HandReview::unit
  int samples = 0;     // deals solved (fewer than asked where the time cap struck; 0 for the bot)
  int rows = 0;        // the values averaged: deals solved, or the bot's independent runs
  std::vector<std::pair<std::string, double>> moves;  // every legal move, best first (empty: none in time)
  // Per move (as `moves`): the standard error of its gap to the first move,
  // paired over the rows (0 for the first, and for all with one row). A
  // gap within kNoiseSe of them is too close to call.
  std::vector<double> se;
};
ExpectedValues expected_values(const AnyState& st, int seat, uint64_t seed, const ReviewOptions& o = {});

// How many standard errors a loss must clear before it counts.
constexpr double kNoiseSe = 2;
// Mexican Train and Dice & Dominoes: independent runs of the bot (other
// seeds) per decision, each at the budget's iterations, so that their values
// have a standard error.
constexpr int kBotRuns = 4;
// The loss a grade counts: max(0, loss - kNoiseSe se).
double graded_loss(double loss, double se);
inline double graded_loss(const ReviewedMove& m) { return graded_loss(m.loss, m.se); }
// The grade of a loss with standard error `se`.
Grade fair_grade(double loss, double se, const GradeThresholds& t);

// Each legal move's expected value for `seat` from `st` over `samples` deals
// consistent with what the seat knows (line games and Texas 42), solved
// exactly: out[k][i] is move i's value in deal k, in the game's unit (the
// solver's: points, wins or marks). Uses only st's observation for `seat`,
// so it cannot depend on the hidden tiles. Names are the moves' texts.
// Returns false for a game without an exact solver.
// Past `deadline` (line games) the deal being solved is dropped and no more
// are sampled: out then has fewer rows.
bool sampled_values(const AnyState& st, int seat, uint64_t seed, int samples, std::vector<std::string>& names,
                    std::vector<std::vector<double>>& out,
                    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

// Reviews `seat`'s decisions in hand `hand` (1-based) of a record; throws
// Error naming the problem (no such seat, the hand is not finished, ...).
HandReview review_hand(const nlohmann::json& record, int seat, int hand, const ReviewOptions& o = {});

nlohmann::json review_json(const HandReview& r);
// For a person: one line per decision, and what the grades mean.
std::string review_text(const HandReview& r);

}  // namespace boneyard
