// boneyard play NAME: a terminal game for a person (or bots, with --watch).
#include "cli/play.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <future>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>

#include "cli/common.h"
#include "core/text.h"
#include "record/review.h"
#include "record/session.h"
#include "record/words.h"

namespace boneyard::cli {

namespace {

// "Score: team 0 (seats 0+2): 35   team 1 ...", wrapped to `width` between
// sides, never inside one ("seat 5:" and its score stay on one row).
std::string scores_text(const AnyState& st, const GameEntry& g, int width, const std::string& lead = "") {
  const auto sc = st.scores();
  std::vector<std::string> items;
  for (int sd = 0; sd < st.num_sides(); ++sd)
    items.push_back(fmt::format("{}: {}", st.side_name(sd), sc[static_cast<size_t>(sd)]));
  return wrap_items(items, lead + (g.score_heading ? g.score_heading(st) : "Score:") + " ", "  ", width, "   ") + "\n";
}

const char* kHelp =
    "Type the number of a move in the list (or #number), or the move itself. Other commands: board (the table "
    "again), hint (every move's expected value, from what you can see), help, quit.\n";

// While bidding in Texas 42 a bare number is a bid amount only (30..42,
// or a multiple of 42 for marks); "#N" picks by list number. Returns the
// move text; throws Error for a number that is no bid.
std::string bare_bid(const std::string& line, size_t listed) {
  const auto x = parse_whole<int>(line);
  if (x && *x >= 30 && *x <= 42) return fmt::format("bid:{}", *x);
  if (x && *x >= 84 && *x % 42 == 0 && *x / 42 <= 100) return fmt::format("bid:{}marks", *x / 42);
  // "#29" only where the list has a 29th move.
  const bool in_list = x && *x >= 1 && static_cast<size_t>(*x) <= listed;
  throw Error(fmt::format("{} is no bid: bid 30 to 42 points, or marks as 84, 126, ... (42 points a mark){}", line,
                          in_list ? fmt::format("; #{} picks move {} of the list", line, line) : ""));
}

bool starts_any(const std::vector<std::string>& legal, const char* prefix) {
  for (const auto& m : legal)
    if (m.rfind(prefix, 0) == 0) return true;
  return false;
}

bool is_bidding(const std::vector<std::string>& legal) { return starts_any(legal, "bid:"); }

// A bid of 42 or of marks (a plunge, a splash): the team must take every
// trick. Decided on the move's canonical text, after the game parsed it, so
// that every spelling ("1 mark", "bid:1m", "bid:84", "2marks") asks.
bool big_bid(const std::string& canonical) {
  if (canonical == "bid:42") return true;
  return (canonical.rfind("bid:", 0) == 0 || canonical.rfind("plunge", 0) == 0 || canonical.rfind("splash", 0) == 0) &&
         canonical.find("mark") != std::string::npos;
}

// "'6' could be ..." while naming trumps: a bare 0..6 reads as a number of
// the dominoes as easily as a list number, so it is asked back.
std::string trump_digit_question(const std::string& line, const AnyState& st, int seat,
                                 const std::vector<std::string>& legal) {
  static const char* kNames[] = {"blanks", "ones", "twos", "threes", "fours", "fives", "sixes"};
  const int d = line[0] - '0';
  if (d >= 1 && static_cast<size_t>(d) <= legal.size())
    return fmt::format("'{}' could mean move {} of the list ({}) or {} as trumps: type #{} for the move, or {}", line,
                       d, st.move_words(seat, legal[static_cast<size_t>(d) - 1]), kNames[d], d, kNames[d]);
  return fmt::format("'{}': type {} to make {} trumps, or #N for move N of the list", line, kNames[d], kNames[d]);
}

// A refused input in one sentence for a person: the engine's message
// without the list of legal moves (the numbered list follows) and without
// the protocol's move text, and text that is no move at all said as such
// rather than as a bad tile.
std::string one_reason(std::string why, const std::string& line, const std::vector<std::string>& legal) {
  if (const auto p = why.find("; legal now:"); p != std::string::npos) why.resize(p);
  if (why.find("bad tile") != std::string::npos || why.find("no move in it") != std::string::npos) {
    if (is_bidding(legal))
      return fmt::format(
          "'{}' is not a move: type a bid (30 to 42, or 84 for 2 marks), pass, or #N for move N "
          "of the list",
          line);
    return fmt::format("'{}' is not a move: type a number from the list (help shows other ways)", line);
  }
  // "illegal move 'bid:31' for seat 0: ..." names the protocol's text: say what was typed.
  // (Plain string work, not <regex>: GCC 12 warns falsely inside it.)
  const std::string_view kIllegal = "illegal move '";
  if (!why.starts_with(kIllegal)) return why;
  size_t end = why.find('\'', kIllegal.size());
  if (end == std::string::npos) return why;
  ++end;
  const std::string_view kSeat = " for seat ";
  if (std::string_view(why).substr(end).starts_with(kSeat)) {
    size_t d = end + kSeat.size();
    while (d < why.size() && std::isdigit(static_cast<unsigned char>(why[d]))) ++d;
    if (d > end + kSeat.size()) end = d;
  }
  return fmt::format("'{}' is not allowed now", line) + why.substr(end);
}

// The digits of "bid:31" (suffix "") or "bid:2marks" (suffix "marks"), or "".
std::string bid_digits(const std::string& move, std::string_view suffix) {
  const std::string_view kBid = "bid:";
  if (!move.starts_with(kBid) || !move.ends_with(suffix) || move.size() <= kBid.size() + suffix.size()) return "";
  const std::string d = move.substr(kBid.size(), move.size() - kBid.size() - suffix.size());
  return std::all_of(d.begin(), d.end(), [](unsigned char c) { return std::isdigit(c); }) ? d : "";
}

// The line of a finished game's table that gives the verdict ("Game over:
// team 1 wins", "Session over: ..."), with its newline; empty if none.
std::string verdict_line(const std::string& table) {
  for (const char* head : {"\nGame over", "\nSession over"}) {
    const size_t at = table.find(head);
    if (at == std::string::npos) continue;
    const size_t end = table.find('\n', at + 1);
    return table.substr(at + 1, end == std::string::npos ? std::string::npos : end - at);
  }
  return "";
}

// " (nothing on 3 or 5)" for a pass in a line game: the ends that were open.
std::string pass_ends(const AnyState& st) {
  const nlohmann::json v = st.view(-1);
  if (!v.contains("ends") || !v["ends"].is_array()) return "";
  const int l = v["ends"][0].get<int>(), r = v["ends"][1].get<int>();
  return l == r ? fmt::format(" (nothing on {})", l) : fmt::format(" (nothing on {} or {})", l, r);
}

// The number of finished tricks (Texas 42), to show the watcher each one.
size_t tricks_done(const AnyState& st) {
  const nlohmann::json v = st.view(-1);
  return v.contains("tricks") && v["tricks"].is_array() ? v["tricks"].size() : 0;
}

// One game at the terminal: what is printed goes through say(), wrapped to
// the width and handed to the test hook at each step.
class Game {
 public:
  Game(const PlayConfig& c, Session& s, std::vector<std::unique_ptr<AnyBot>>& bots, RecordFile* record, Terminal& io)
      : c_(c),
        s_(s),
        bots_(bots),
        record_(record),
        io_(io),
        g_(s.entry()),
        viewer_(c.watch ? (c.seat_given ? c.seat : -1) : c.seat) {}
  void run();

 private:
  int width() const {
    if (io_.measure) io_.width = io_.measure();
    return io_.width;
  }
  void say(const std::string& text) {
    const std::string w = wrap_text(text, width());
    io_.out << w;
    printed_ += w;
  }
  void step() {
    io_.out << std::flush;
    if (io_.on_step) io_.on_step(s_, printed_);
    printed_.clear();
  }
  bool human_turn(int seat);
  void bot_turn(int k, const Actor& a);
  std::string move_list(int seat, const std::vector<std::string>& legal) const;
  std::string passes_text();

  const PlayConfig& c_;
  Session& s_;
  std::vector<std::unique_ptr<AnyBot>>& bots_;
  RecordFile* record_;
  Terminal& io_;
  const GameEntry& g_;
  const int viewer_;  // whose view is shown: the person's seat, or -1 for a watcher of every hand
  std::string printed_;
  bool brief_ = false, quit_ = false;
  int bot_draws_ = 0;                                  // draws by the seat to act, not yet shown
  std::vector<int> passes_ = std::vector<int>(16, 0);  // passes per seat this hand (line games' summary)
};

// "Passes this hand: seat 1 twice, seat 3 once" (or none), then a new count.
std::string Game::passes_text() {
  std::vector<std::string> who;
  for (int k = 0; k < s_.state().num_seats(); ++k) {
    const int n = passes_[static_cast<size_t>(k)];
    if (n) who.push_back(fmt::format("seat {} {}", k, n == 1 ? "once" : n == 2 ? "twice" : fmt::format("{} times", n)));
  }
  std::fill(passes_.begin(), passes_.end(), 0);
  return fmt::format("  Passes this hand: {}\n", who.empty() ? "none" : fmt::format("{}", fmt::join(who, ", ")));
}

std::string Game::move_list(int seat, const std::vector<std::string>& legal) const {
  std::vector<std::string> items;
  // While bidding a bare number is a bid (bare_bid): the list shows what to
  // type ("30", "84 (2 marks)"), not list numbers that would read as bids.
  if (is_bidding(legal)) {
    for (size_t i = 0; i < legal.size(); ++i) {
      if (legal[i] == "pass")
        items.push_back("pass");
      else if (const std::string points = bid_digits(legal[i], ""); !points.empty())
        items.push_back(points);
      else if (const std::string marks = bid_digits(legal[i], "marks"); !marks.empty())
        items.push_back(fmt::format("{} ({} marks)", 42 * std::stoi(marks), marks));
      else
        items.push_back(fmt::format("#{} {}", i + 1, s_.state().move_words(seat, legal[i])));
    }
    return wrap_items(items, "Your bids (type one):  ", "  ", width(), "  ");
  }
  for (size_t i = 0; i < legal.size(); ++i)
    items.push_back(fmt::format("{}) {}", i + 1, s_.state().move_words(seat, legal[i])));
  return wrap_items(items, "Your moves:  ", "  ", width(), "  ");
}

// One decision by the person at `seat`; false when they quit or the input
// ends. brief_: they just drew and the table is as they saw it, so only
// the new tile and the moves are shown.
bool Game::human_turn(int seat) {
  AnyState& st = s_.state();
  if (!brief_) say("\n" + st.render(seat));
  brief_ = false;
  for (;;) {
    const auto legal = st.legal_moves(seat);
    if (legal.size() == 1 && (legal[0] == "pass" || legal[0] == "draw")) {
      const std::string ends = pass_ends(st);
      // The game's words: "pass (your marker goes on)", or a draw's reason.
      say(fmt::format("You have no playable tile{}: {}.\n", ends, st.move_words(seat, legal[0])));
      if (legal[0] == "pass") ++passes_[static_cast<size_t>(seat)];
      const auto before = own_tiles(st, seat);
      s_.apply(seat, legal[0]);
      if (legal[0] == "draw") {
        std::vector<std::string> drawn;
        for (const auto& t : own_tiles(st, seat))
          if (std::find(before.begin(), before.end(), t) == before.end()) drawn.push_back(t);
        const bool ended = !st.actor().acts(seat);
        const std::string after = ended && g_.draw_ends_turn ? " (" + g_.draw_ends_turn(true) + ")" : "";
        if (!drawn.empty()) say(fmt::format("You drew {}{}.\n", fmt::join(drawn, " "), after));
        brief_ = !ended;
      }
      return true;
    }
    say(move_list(seat, legal));
    io_.out << fmt::format("\nseat {}> ", seat) << std::flush;
    printed_ += fmt::format("\nseat {}> ", seat);
    step();
    std::string line;
    if (!std::getline(io_.in, line)) {
      // Ctrl-C interrupts the read too: the signal is said below, not as an end of input.
      if (!stop_signal()) say("\ninput ended: leaving the game.\n");
      return false;
    }
    const auto b = line.find_first_not_of(" \t\r");
    line = b == std::string::npos ? "" : line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
    if (line.empty()) continue;
    if (line == "quit" || line == "q" || line == "exit") return false;
    if (line == "help" || line == "?") {
      say(help_text(g_));
      continue;
    }
    if (line == "board") {
      say(st.render(seat));
      continue;
    }
    if (line == "hint") {
      // The review's seed for this decision: the hint's numbers are then the
      // review's, and the move it ranks first is never graded below Best.
      say(hint_text(st, seat, g_, c_.budget, review_seed(s_.seed(), s_.events().size())));
      continue;
    }
    // "hint 2" is not a tile to parse: the word takes nothing after it.
    const std::string first = line.substr(0, line.find(' '));
    if (first != line && (first == "hint" || first == "board" || first == "help")) {
      say(fmt::format("'{}': {} takes nothing after it; type {} alone.\n", line, first, first));
      continue;
    }
    try {
      std::string move = line;
      // The list's own words ("lead 6-3", "6-4 on the left") name their move;
      // a verb copied before a tile ("play 6-6") leaves the tile, so that a
      // tile that may not be played gets the tile's own reason.
      const std::string typed = lower_trim(line);
      bool named = false;
      for (const auto& m : legal)
        if (lower_trim(st.move_words(seat, m)) == typed) {
          move = m;
          named = true;
          break;
        }
      for (const std::string verb : {"play ", "lead "})
        if (!named && typed.starts_with(verb)) move = typed.substr(verb.size());
      const bool hash = line[0] == '#';
      const std::string digits = hash ? line.substr(1) : line;
      if (!named && !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos) {
        if (!hash && is_bidding(legal)) {
          move = bare_bid(line, legal.size());
        } else if (!hash && digits.size() == 1 && digits[0] <= '6' && starts_any(legal, "trump:")) {
          say(trump_digit_question(line, st, seat, legal) + "\n");
          continue;
        } else {
          // 20+ digits do not fit any integer: no such move either.
          const size_t k = parse_whole<size_t>(digits).value_or(0);
          if (k < 1 || k > legal.size())
            throw Error(legal.size() == 1 ? fmt::format("no move numbered {}: the list has one move, 1", digits)
                                          : fmt::format("no move numbered {}: choose 1 to {}", digits, legal.size()));
          move = legal[k - 1];
        }
      }
      const std::string words = st.move_words(seat, move);  // an illegal move fails here, before any question
      if (big_bid(st.clone()->apply(seat, move))) {
        say(fmt::format("{}: your team must then take every trick. Sure? (y/n) ", words));
        std::string yes;
        // Asked again until the answer is yes or no ("maybe" is neither).
        for (;;) {
          step();
          if (!std::getline(io_.in, yes)) {
            if (!stop_signal()) say("\ninput ended: leaving the game.\n");
            return false;
          }
          yes = lower_trim(yes);
          if (yes == "y" || yes == "yes" || yes == "n" || yes == "no") break;
          say("Type y to bid it, or n not to: ");
        }
        if (yes != "y" && yes != "yes") {
          say("Not bid.\n");
          continue;
        }
      }
      s_.apply(seat, move);
      say(fmt::format("  seat {} (you): {}\n", seat, words));  // what "2" meant, in the log with the others'
      return true;
    } catch (const Error& e) {
      say(one_reason(e.what(), line, legal) + "\n");
    }
  }
}

void Game::bot_turn(int k, const Actor& a) {
  AnyState& st = s_.state();
  AnyBot& bot = *bots_[static_cast<size_t>(k)];
  const std::string ends = pass_ends(st);
  const auto before = st.clone();
  // A bot that thinks longer than half a second says so.
  auto choice = std::async(std::launch::async, [&] { return s_.bot_move(k, bot); });
  if (choice.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready) {
    io_.out << fmt::format("  seat {} ({}) is thinking…\n", k, s_.players()[static_cast<size_t>(k)]) << std::flush;
  }
  const std::string m = choice.get();
  // A run of draws by one seat is one line: "draws 3 tiles".
  if (m == "draw" && st.actor().acts(k) && st.legal_moves(k) == std::vector<std::string>{"draw"}) {
    ++bot_draws_;
    return;
  }
  std::string what = m == "draw" ? fmt::format("draws {}", count_of(bot_draws_ + 1, "tile", "tiles"))
                                 : move_words_heard(*before, k, m, c_.watch ? -1 : viewer_);  // a watcher is no "you"
  if (m == "draw" && !st.actor().acts(k) && g_.draw_ends_turn) what += " (" + g_.draw_ends_turn(false) + ")";
  // Tiles laid face down stay hidden from the other seats: only their number shows.
  if (a.kind == Actor::Simultaneous && viewer_ >= 0 && viewer_ != k) {
    const int n = 1 + static_cast<int>(std::count(m.begin(), m.end(), ','));
    what = g_.face_down ? fmt::format("lays {} face down", count_of(n, "tile", "tiles")) : "has chosen";
  }
  bot_draws_ = 0;
  if (m == "pass") ++passes_[static_cast<size_t>(k)];
  say(fmt::format("  seat {} ({}): {}{}\n", k, s_.players()[static_cast<size_t>(k)], what,
                  m == "pass" || m == "draw" ? ends : ""));
  brief_ = false;
  // --step waits for Enter instead: no pace on top of it.
  if (c_.watch && !c_.step && c_.pace > 0 && io_.pause) io_.pause(c_.pace);
  if (c_.watch && c_.step) {
    io_.out << "(Enter: next move, q: stop) " << std::flush;
    std::string line;
    if (!std::getline(io_.in, line) || lower_trim(line) == "q") quit_ = true;
  }
}

void Game::run() {
  AnyState& st = s_.state();
  const int n = st.num_seats();
  say(fmt::format("{}: {} ({}).\n{}\n", g_.name, g_.summary,
                  c_.seed_secret ? "its seed is said at the end" : fmt::format("seed {}", c_.seed),
                  !c_.watch      ? fmt::format("You are seat {}. Type help for commands.", c_.seat)
                  : viewer_ >= 0 ? fmt::format("Watching the bots as seat {} sees the table.", viewer_)
                                 : "Watching the bots."));
  for (int k = 0; k < n; ++k)
    if (bots_[static_cast<size_t>(k)] && bots_[static_cast<size_t>(k)]->omniscient())
      say(fmt::format("Warning: seat {} is played by 'omniscient', which sees every hand (it cheats).\n", k));
  size_t deal_i = 0, hands = 0, record_hands = 0, tricks = 0, hands_shown = 0;
  int deal_shown = -1;
  bool last_hand_said = false;  // the game's last hand was said, with the score
  while (!st.terminal() && !quit_ && !stop_signal()) {
    step();
    const Actor a = st.actor();
    if (a.kind == Actor::Chance) {
      if (deal_i < c_.deal.size())
        s_.chance(c_.deal[deal_i++]);
      else
        s_.chance();
      // Each deal is said as it starts, before anyone's move in it (a deal
      // thrown in is "dealt again"); the watcher sees the table too.
      if (st.actor().kind != Actor::Chance && !st.terminal() && deal_shown != st.deals()) {
        const bool again = deal_shown >= 0 && st.hands().size() == hands_shown;
        deal_shown = st.deals();
        hands_shown = st.hands().size();
        const std::string head =
            fmt::format("\n{} {} is dealt{}", g_.rounds ? "Round" : "Hand", hands_shown + 1, again ? " again" : "");
        say(c_.watch ? head + ":\n" + st.render(viewer_) : head + ".\n");  // a player's table comes on their turn
      }
    } else {
      for (int k = 0; k < n && !quit_; ++k) {
        if (!a.acts(k)) continue;
        if (bots_[static_cast<size_t>(k)])
          bot_turn(k, a);
        else
          quit_ = !human_turn(k);
        if (a.kind == Actor::Seat || bot_draws_) break;
      }
      // A simultaneous round resolves once everyone has chosen: show the
      // watcher what was revealed, what stood and what went back.
      // The round that ended a hand comes with the hand's result below.
      if (c_.watch && a.kind == Actor::Simultaneous && !quit_ && hands == st.hands().size())
        say("\n" + st.render(viewer_) + "\n");
    }
    // The watcher sees the table after each trick.
    const size_t t = tricks_done(st);
    const bool trick_ended = t > tricks;
    if (c_.watch && trick_ended && hands == st.hands().size()) say("\n" + st.render(viewer_));
    tricks = t;
    while (hands < st.hands().size()) {
      const std::string& text = st.hands()[hands++].text;
      // The trick that ended a hand: the table, with who took it, which ends
      // with the result.
      const std::string table = trick_ended && !st.terminal() ? st.render(viewer_) : "";
      say("\n" + (table.find(text) != std::string::npos ? table : text + "\n"));
      if (g_.count_passes) say(passes_text());
      say(scores_text(st, g_, width()));
      brief_ = false;
      last_hand_said = st.terminal();
    }
    if (record_ && hands > record_hands) {
      record_->write(s_);  // a crash or kill now loses at most the next hand
      record_hands = hands;
    }
  }
  if (stop_signal()) say(fmt::format("\n{}.\n", stop_words(stop_signal())));
  // A person who quits leaves with the standing, not with a bare prompt.
  if (quit_ && !st.terminal()) say("\n" + scores_text(st, g_, width(), "The game was left before its end. "));
  if (st.terminal()) {
    // The last hand's result and the score were just said: only the verdict
    // is new ("Game over: ..."), not the table and the score again.
    const std::string table = st.render(viewer_);
    const std::string verdict = verdict_line(table);
    if (last_hand_said && !verdict.empty()) {
      say(verdict);
    } else {
      say("\n" + table);
      say(scores_text(st, g_, width()));
    }
  }
  if (c_.seed_secret)
    say(fmt::format("This game's seed was {}: `boneyard play {} --seed {}` deals it again.\n", c_.seed, c_.name,
                    c_.seed));
  step();
}

void run_play(PlayConfig& c) {
  Session s(c.name, parse_options(c.options), c.seed);
  auto bots = seat_bots(c, s);  // a bad --seat or bot fails before any record
  if (c.pace < 0) c.pace = c.watch && isatty(STDOUT_FILENO) ? kWatchPace : 0;
  // The record: its folder checked and its name claimed before the game
  // starts, rewritten after every hand, and written whatever ends the game:
  // its end, quit, end of input, Ctrl-C (SIGINT), SIGTERM or an error.
  std::unique_ptr<RecordFile> record;
  if (!c.record_dir.empty()) {
    check_record_dir(c.record_dir);
    record = std::make_unique<RecordFile>(c.record_dir);
    if (c.seed_secret) record->hide_seed_until_end();
    record->write(s);
  }
  install_stop_handlers();
  Terminal io{std::cin,
              std::cout,
              [](double seconds) {
                // In small steps, so that Ctrl-C stops a slow pace at once.
                for (double left = seconds; left > 0 && !stop_signal(); left -= 0.05)
                  std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.05)));
              },
              terminal_width(),
              nullptr,
              terminal_width};
  try {
    play_game(c, s, bots, record.get(), io);
  } catch (...) {
    if (record) {
      try {
        record->write(s, true);
        std::cerr << "Record written to " << record->path() << "\n";
      } catch (const Error& e) {
        std::cerr << "boneyard: " << e.what() << "\n";
      }
    }
    throw;
  }
  if (record) std::cout << "Record written to " << record->write(s, true) << "\n";
  if (stop_signal()) die_of_stop_signal();
}

}  // namespace

std::vector<std::unique_ptr<AnyBot>> seat_bots(const PlayConfig& c, Session& s) {
  const int n = s.state().num_seats();
  if ((!c.watch || c.seat_given) && (c.seat < 0 || c.seat >= n))
    throw Error(fmt::format("--seat {} does not exist; {} has seats 0..{}", c.seat, c.name, n - 1));
  const auto names = split(c.bots, ',');
  std::vector<std::unique_ptr<AnyBot>> bots(static_cast<size_t>(n));
  for (int k = 0, b = 0; k < n; ++k) {
    if (!c.watch && k == c.seat) {
      s.players()[static_cast<size_t>(k)] = "human";
      continue;
    }
    const std::string& bn = names[static_cast<size_t>(b++) % names.size()];
    bots[static_cast<size_t>(k)] = make_bot(s.entry(), bn, mix_seed(c.seed, static_cast<uint64_t>(k) + 100), c.budget);
    s.players()[static_cast<size_t>(k)] = bn;
  }
  return bots;
}

std::string help_text(const GameEntry& g) { return std::string(kHelp) + g.help; }

void play_game(const PlayConfig& c, Session& s, std::vector<std::unique_ptr<AnyBot>>& bots, RecordFile* record,
               Terminal& io) {
  Game(c, s, bots, record, io).run();
}

void add_play(CLI::App& app) {
  auto* cmd = app.add_subcommand("play", "Play a game in the terminal against bots (or watch bots play)");
  auto c = std::make_shared<PlayConfig>();
  cmd->add_option("name", c->name, "Game or preset, e.g. latin, dominican-patio, jamaica (see `boneyard rules`)")
      ->required();
  cmd->add_option("--option,-o", c->options, "Rule option key=value over the preset (repeatable)");
  add_seed_option(cmd, c->seed_text, "Seed of the game's random generator, 0 to 2^64-1 (default: from the clock)");
  cmd->add_option("--seat", c->seat, "Your seat (default 0); with --watch, watch as that seat sees the table");
  cmd->add_option("--bots", c->bots,
                  "Bots for the other seats, comma list cycled over them (default greedy); each is " + bots_help());
  auto* watch = cmd->add_flag("--watch", c->watch, "Bots play every seat; you watch");
  // A pace or a step means nothing to a person's own game: said, not ignored.
  cmd->add_option("--pace", c->pace,
                  fmt::format("--watch: seconds between moves (default {} on a terminal, 0 when the output is piped)",
                              kWatchPace))
      ->check(CLI::Range(0.0, 60.0))
      ->needs(watch);
  cmd->add_flag("--step", c->step, "--watch: wait for Enter after each move (q stops)")->needs(watch);
  cmd->add_option("--record", c->record_dir, "Write the game record (JSON) into this folder");
  add_bot_budget(cmd, c->budget);
  cmd->add_option("--deal", c->deal,
                  "Explicit chance outcome(s) for the first chance events, e.g. a deal (repeatable)");
  cmd->callback([c, cmd] {
    c->seed = cmd->count("--seed") == 0 ? default_seed() : parse_seed(c->seed_text);
    c->seat_given = cmd->count("--seat") > 0;
    c->seed_secret = cmd->count("--seed") == 0 && !c->watch;
    run_play(*c);
  });
}

}  // namespace boneyard::cli
