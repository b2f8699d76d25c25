#include "cli/common.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bots/levels.h"
#include "core/error.h"
#include "core/text.h"
#include "record/review.h"
#include "texas42/solver.h"

namespace boneyard::cli {

OptionList parse_options(const std::vector<std::string>& kv) {
  OptionList out;
  for (const auto& s : kv) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(fmt::format("bad --option '{}': expected key=value, e.g. --option target=100", s));
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

uint64_t mix_seed(uint64_t base, uint64_t k) {
  uint64_t z = base + 0x9e3779b97f4a7c15ULL * (k + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) & ((uint64_t{1} << 53) - 1);  // stays exact in JSON readers
}

uint64_t default_seed() {
  return mix_seed(static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()), 0) % 1000000000;
}

void add_seed_option(CLI::App* cmd, std::string& text, const std::string& help) {
  cmd->add_option("--seed", text, help)->check([](const std::string& v) {
    try {
      parse_seed(v);
      return std::string();
    } catch (const Error& e) {
      return std::string(e.what());
    }
  });
}

uint64_t parse_seed(const std::string& text) {
  if (const auto v = parse_whole<uint64_t>(text)) return *v;
  throw Error(fmt::format("'{}' is not a seed; expected a whole number from 0 to {}", text, UINT64_MAX));
}

namespace {
volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop_signal(int sig) {
  if (g_stop) {  // a second Ctrl-C: stop now (the last hand's record is on disk)
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_stop = sig;
}
}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a person's prompt (getline) returns
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal() { return g_stop; }

void die_of_stop_signal() {
  const int sig = g_stop ? g_stop : SIGTERM;
  std::cout << std::flush;
  std::cerr << std::flush;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
  std::_Exit(128 + sig);
}

namespace {
constexpr double kMaxThinkMs = 3600000, kMaxIterations = 100000000, kMaxBotThreads = 256;
}

std::string bots_help() {
  return fmt::format("a level ({}) or one of the game's bots (`boneyard rules GAME` lists them)",
                     fmt::join(bot_levels(), ", "));
}

void add_bot_budget(CLI::App* cmd, BotOptions& o) {
  cmd->add_option("--think-ms", o.think_ms, "Search bots: milliseconds per decision (default: their own budget)")
      ->check(CLI::Range(0.0, kMaxThinkMs));
  cmd->add_option("--iterations", o.iterations,
                  "Search bots: samples (pimc) or iterations (ismcts) per decision, reproducible (default: their own)")
      ->check(CLI::Range(1, static_cast<int>(kMaxIterations)));  // 0 is "not given": never typed
  cmd->add_option("--bot-threads", o.threads, fmt::format("Search bots: threads per decision (default {})", o.threads))
      ->check(CLI::Range(1, static_cast<int>(kMaxBotThreads)));
}

void check_setting(const std::string& name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) throw Error(fmt::format("{} must be from {} to {}, not {}", name, lo, hi, value));
}

void check_bot_budget(const BotOptions& o) {
  check_setting("think_ms", o.think_ms, 0, kMaxThinkMs);
  check_setting("iterations", o.iterations, 0, kMaxIterations);
  check_setting("bot_threads", o.threads, 1, kMaxBotThreads);
}

std::string value_unit(const GameEntry& g, const std::string& bot, const AnyState& st) {
  // ismcts maximises the game's reward (core/game.h); pimc and omniscient
  // average the exact solver's values, in the game's own unit.
  if (bot == "ismcts")
    return fmt::format("how good it looks for {}, from -1 (a sure loss) to +1 (a sure win)", your_side(st));
  return g.value_unit ? g.value_unit(st) : fmt::format("points for {} this hand", your_side(st));
}

std::string move_values_text(const AnyState& st, int seat, const GameEntry& g, const BotOptions& budget,
                             const std::string& bot_name, uint64_t seed) {
  const std::string name = bot_name.empty() ? strongest_fair_bot(g) : bot_name;
  auto bot = make_bot(g, name, seed, budget);
  const auto values = st.bot_values(seat, *bot);
  if (values.empty()) {
    const std::string m = st.ask_bot(seat, *bot);
    return fmt::format("{} would play: {} ({} gives no values)\n", name, st.move_words(seat, m), name);
  }
  const auto legal = st.legal_moves(seat);
  std::string out = fmt::format("Move values by {}, in {}; larger is better:\n", name, value_unit(g, name, st));
  // Each move by its number in the list and in words, the values in a column.
  std::vector<std::string> words;
  size_t w = 0;
  for (const auto& [move, v] : values) w = std::max(w, (words.emplace_back(st.move_words(seat, move))).size());
  for (size_t i = 0; i < values.size(); ++i) {
    const auto at = std::find(legal.begin(), legal.end(), values[i].first);
    out += fmt::format("  {:>4}  {:<{}}  {:+.3f}\n", fmt::format("{})", at - legal.begin() + 1), words[i], w,
                       values[i].second);
  }
  return out;
}

std::string hint_text(const AnyState& st, int seat, const GameEntry& g, const BotOptions& budget, uint64_t seed) {
  const ExpectedValues ev = expected_values(st, seat, seed, coach_options(budget));
  if (ev.moves.empty()) return "No values: the time allowed ran out before the first deal was solved.\n";
  // In the game's own unit, as a solver's values are (value_unit).
  // Mexican Train calls its hands rounds (GameEntry::rounds).
  const std::string unit = ev.unit == "pips"
                               ? fmt::format("pips for {} this {} (the other players' penalty pips less yours)",
                                             your_side(st), g.rounds ? "round" : "hand")
                               : value_unit(g, "pimc", st);
  std::string out =
      ev.samples > 0
          ? fmt::format(
                "Expected values over {} deals consistent with what you can see, each solved, in {}; larger is "
                "better.",
                ev.samples, unit)
          : fmt::format(
                "Expected values by {} from what you can see ({} independent runs, averaged), in {}; larger "
                "is better.",
                ev.method, ev.rows, unit);
  // The numbers are estimates: a move is said to be worse than the first
  // only when its gap clears kNoiseSe standard errors (issue 36, 2).
  static_assert(kNoiseSe == 2, "the words below say \"two such errors\"");
  const bool one_row = ev.rows < 2;
  // The numbers are the moves' own (what `play` takes), not their ranks: say so.
  out += " Best first; a move's number is the one that plays it, not its rank.";
  out += one_row ? " One estimate only, so no margin of error: the order may not hold.\n"
                 : " After each move, how far below the first it is, give or take one standard error; "
                   "\"too close\" where the gap is within two such errors, so the numbers cannot tell the "
                   "two apart.\n";
  const auto legal = st.legal_moves(seat);
  // Each move by its number in the list and in words, the values in a column.
  std::vector<std::string> words, notes;
  size_t w = 0, wn = 0;
  for (size_t i = 0; i < ev.moves.size(); ++i) {
    w = std::max(w, (words.emplace_back(st.move_words(seat, ev.moves[i].first))).size());
    const double gap = ev.moves[0].second - ev.moves[i].second, se = i < ev.se.size() ? ev.se[i] : 0;
    std::string note;
    if (i > 0 && !one_row)
      // The gap and its error either way, so a close call shows why it is one.
      note = gap <= kNoiseSe * se ? fmt::format("too close ({:.2g} \u00b1 {:.2g})", gap, se)
                                  : fmt::format("{:.3g} \u00b1 {:.2g} below", gap, se);
    wn = std::max(wn, note.size());
    notes.push_back(note);
  }
  for (size_t i = 0; i < ev.moves.size(); ++i) {
    const auto at = std::find(legal.begin(), legal.end(), ev.moves[i].first);
    out += fmt::format("  {:>4}  {:<{}}  {:<{}}  {:+.3f}\n", fmt::format("{})", at - legal.begin() + 1), words[i], w,
                       notes[i], wn, ev.moves[i].second);
  }
  // Where the first moves cannot be told apart, say so in one line.
  size_t tied = 1;
  while (!one_row && tied < ev.moves.size() && notes[tied].starts_with("too close (")) ++tied;
  if (tied > 1)
    out += fmt::format("The first {} moves are too close to call at this budget (more with --iterations).\n", tied);
  return out;
}

double elo(double p) {
  p = std::clamp(p, 1e-9, 1 - 1e-9);  // a share of 0 or 1 has no finite Elo: the clamp says it
  return std::clamp(-400 * std::log10(1 / p - 1), -kEloClamp, kEloClamp) + 0.0;  // + 0.0: no "-0" for even
}

MeanCI mean_ci(double sum, double sum_sq, double n) {
  if (n <= 0) return {};
  const double mean = sum / n;
  const double var = n > 1 ? std::max(0.0, (sum_sq - n * mean * mean) / (n - 1)) : 0.0;
  return {mean, 1.96 * std::sqrt(var / n)};
}

static double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string eta_text(uint64_t done, uint64_t total, double elapsed, bool at_most) {
  // Nothing finished yet: no rate to go by.
  if (done == 0 || elapsed <= 0) return "estimating...";
  const double left = elapsed / static_cast<double>(done) * static_cast<double>(total - std::min(done, total));
  const char* most = at_most ? "at most " : "";
  if (left >= 3600)
    return fmt::format("{}{:.0f}h{:02.0f}m left", most, std::floor(left / 3600),
                       std::floor(std::fmod(left, 3600) / 60));
  if (left >= 60) return fmt::format("{}{:.0f}m{:02.0f}s left", most, std::floor(left / 60), std::fmod(left, 60));
  return fmt::format("{}{:.0f}s left", most, left);
}

static bool stderr_is_a_file() {
  struct stat st {};
  return fstat(STDERR_FILENO, &st) == 0 && S_ISREG(st.st_mode);
}

Progress::Progress(std::string label, uint64_t total, double log_every)
    : label_(std::move(label)),
      total_(total),
      tty_(isatty(STDERR_FILENO)),
      log_(!tty_ && stderr_is_a_file()),
      log_every_(log_every),
      start_(now_s()),
      last_log_(start_) {}

std::string progress_line(const std::string& label_in, uint64_t done, uint64_t total, double elapsed, int cols,
                          const std::string& note, bool at_most) {
  // One line that fits the terminal (issue 36, 6): the bar takes what the
  // label, counts and time leave (10 to 30 columns), a long label is cut,
  // and the rest of the line is cleared, so a shorter time leaves nothing
  // of a longer one behind ("estimating..." then "12s left").
  const double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 0;
  cols = std::max(40, cols) - 1;  // the last column stays free: no wrap on any terminal
  std::string tail = fmt::format("{}/{}  {}", done, total, eta_text(done, total, elapsed, at_most));
  // The note only where the bar and a few letters of the label still fit.
  if (!note.empty() && static_cast<int>(tail.size() + note.size()) + 2 + 10 + 4 + 8 <= cols) tail += "  " + note;
  const int width = std::clamp(cols - static_cast<int>(label_in.size() + tail.size()) - 4, 10, 30);
  std::string label = label_in;
  const int room = cols - width - static_cast<int>(tail.size()) - 4;
  if (static_cast<int>(label.size()) > room) label = label.substr(0, static_cast<size_t>(std::max(0, room - 1))) + "~";
  const int fill = std::clamp(static_cast<int>(frac * width), 0, width);
  return fmt::format("\r{} [{}{}] {}\033[K", label, std::string(static_cast<size_t>(fill), '#'),
                     std::string(static_cast<size_t>(width - fill), '.'), tail);
}

std::string progress_log_line(const std::string& label, uint64_t done, uint64_t total, double elapsed,
                              const std::string& note, bool at_most) {
  return fmt::format("{}: {} of {} done, {}{}\n", label, done, total, eta_text(done, total, elapsed, at_most),
                     note.empty() ? "" : "; " + note);
}

void Progress::update(uint64_t done, const std::string& note) {
  if (total_ == 0) return;
  const double now = now_s();
  if (tty_) {
    std::fputs(progress_line(label_, done, total_, now - start_, terminal_width(), note, at_most_).c_str(), stderr);
  } else if (log_ && now - last_log_ >= log_every_) {
    last_log_ = now;
    std::fputs(progress_log_line(label_, done, total_, now - start_, note, at_most_).c_str(), stderr);
  } else {
    return;
  }
  std::fflush(stderr);
}

void Progress::finish() {
  if (tty_) std::fprintf(stderr, "\r\033[K");
}

std::string stop_words(int sig) {
  if (sig == SIGINT) return "Interrupted (Ctrl-C)";
  if (sig == SIGTERM) return "Stopped (the program was asked to end)";
  return sig ? fmt::format("Stopped (signal {})", sig) : "Stopped";
}

std::vector<std::string> own_tiles(const AnyState& st, int seat) {
  const nlohmann::json v = st.view(seat);
  std::vector<std::string> out;
  for (const char* key : {"hands", "players"}) {
    if (!v.contains(key) || !v[key].is_array()) continue;
    for (const auto& h : v[key])
      if (h.value("seat", -1) == seat && h.contains("tiles") && h["tiles"].is_array())
        for (const auto& t : h["tiles"]) out.push_back(t.get<std::string>());
  }
  return out;
}

}  // namespace boneyard::cli
