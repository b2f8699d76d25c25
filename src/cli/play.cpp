// boneyard play NAME: a terminal game for a person (or bots, with --watch).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common.h"
#include "core/text.h"
#include "record/session.h"

namespace boneyard::cli {

namespace {

struct PlayConfig {
  std::string name;
  std::vector<std::string> options;
  uint64_t seed = 0;
  std::string seed_text;
  int seat = 0;
  std::string bots = "greedy";
  bool watch = false;
  std::string record_dir;
  std::vector<std::string> deal;
  BotOptions budget;
};

void print_scores(const AnyState& st) {
  const auto sc = st.scores();
  // Mexican Train counts penalty pips: say which way is good.
  std::string line = st.game().find("mexican") != std::string::npos ? "Penalty (lower is better):" : "Score:";
  for (int sd = 0; sd < st.num_sides(); ++sd) line += fmt::format("{}{}: {}", sd ? "   " : " ", st.side_name(sd), sc[static_cast<size_t>(sd)]);
  std::cout << line << "\n";
}

const char* kHelp =
    "Type the number of a move in the list, or the move itself. Other commands: board (the table again), "
    "hint (every move's value by the strongest fair bot), help, quit.\n";

// What each family's moves look like and mean, one paragraph a line (the
// rules: ../shared/rules/).
std::string family_help(const std::string& family) {
  if (family == "line")
    return "Tiles: 6-4, 4-6, 6|4 or [6|4]; add :L or :R (or ' left' / ' right') when a tile fits both ends.\n"
           "pass and draw are played for you when they are your only move. leader:2 names who leads for your "
           "team when the winning team chooses; redeal or keep after a deal with five doubles.\n";
  if (family == "mexican-train")
    return "A move is a tile and a train: 12-4:T2 lays 12-4 on seat 2's train, 12-4:T0 on seat 0's, 12-4:M on "
           "the Mexican train (laying there while it is empty starts it). A bare tile works when it fits one "
           "train only.\n"
           "You may lay on your own train, the Mexican train, or a train with a MARKER (open to all). A double "
           "must be covered at once; if you cannot, it stays open and the next seats must cover it first.\n"
           "draw when nothing fits (once a turn; only the drawn tile may then be laid); pass when the boneyard "
           "is empty (your marker goes on); end_opening stops laying on your first turn. The pips left in hand "
           "are penalties: the lowest total wins.\n";
  if (family == "texas-42")
    return "Bidding: bid:30 .. bid:42 (points your team will take of the 42), bid:2marks and up (every trick; "
           "after someone bid 42), or pass.\n"
           "Shortcut: while bidding, a bare number that is a bid amount is that bid: 30 means bid:30, 84 means "
           "bid:2marks (42 points a mark). Any other bare number picks a move by its number in the list; "
           "so while naming trumps 5 is the fifth move (trump:4): type trump:5 or fives for fives.\n"
           "Trumps: the declarer names a number (trump:0 .. trump:6, or trump:fives), trump:doubles or "
           "trump:follow-me (no trumps). A trump leads trumps, a double its number, any other tile its higher "
           "number; follow the suit led if you can. '*' marks the tiles you may play.\n"
           "Count: 5-5 and 6-4 10 points each, 5-0, 4-1 and 3-2 5 each, 1 a trick: 42 in all. A made bid scores "
           "1 mark (a marks bid its marks); a set gives them to the other team.\n";
  if (family == "dice-and-dominoes")
    return "Each round the dice give two match points. Everyone lays two tiles face down at once, in order of "
           "preference: 6-2,3-1 (one tile when you hold one).\n"
           "A tile showing a match point is turned up and discarded, one tile per die; the others stay face down "
           "and go back to your hand. Then everyone still in draws 1 tile.\n"
           "Wild: 0-0 always goes and uses no die. Perfect: one tile showing both match points (with 2 and 6: "
           "6-2), using both dice. W-perfect: two doubles, one for each match point (2-2 and 6-6); its player "
           "then chooses reroll (new match points) or keep (the same again). A W-perfect beats a perfect, which "
           "beats a wild: everyone else's revealed tiles, and the lower special, go back to their hands.\n"
           "The first player out takes the pot; several out at once: the best special discarded this hand takes "
           "it, else they split it.\n";
  return "";
}

// Help text wrapped to the terminal, paragraph by paragraph.
std::string wrapped(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += wrap_items(split(text.substr(start, end - start), ' '), "", "  ", terminal_width(), " ") + "\n";
    start = end + 1;
  }
  return out;
}

// While bidding in Texas 42 a bare number that is a bid amount (30..42, or
// a multiple of 42 for marks) is that bid; any other number is a list
// number. Bids start at 30 and a list is shorter than 30, so both readings
// never meet. Returns the move text, or "" when it is no bid.
std::string bare_bid(const std::vector<std::string>& legal, const std::string& line) {
  bool bidding = false;
  for (const auto& m : legal) bidding |= m.rfind("bid:", 0) == 0;
  if (!bidding || line.size() > 4) return "";
  const int x = std::stoi(line);
  if (x >= 30 && x <= 42) return fmt::format("bid:{}", x);
  if (x >= 84 && x % 42 == 0) return fmt::format("bid:{}marks", x / 42);
  return "";
}

// The tiles of `seat` from the game's view, for "you drew 5-1".
std::vector<std::string> hand_tiles(const AnyState& st, int seat) {
  const nlohmann::json v = st.view(seat);
  std::vector<std::string> out;
  if (!v.contains("hands")) return out;
  for (const auto& h : v["hands"])
    if (h.value("seat", -1) == seat && h.contains("tiles") && h["tiles"].is_array())
      for (const auto& t : h["tiles"]) out.push_back(t.get<std::string>());
  return out;
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

// One decision by the person at `seat`; false when they quit or the input
// ends. `brief`: they just drew and the table is as they saw it, so only
// the new tile and the moves are shown.
bool human_turn(Session& s, int seat, const GameEntry& g, const BotOptions& budget, bool& brief) {
  AnyState& st = s.state();
  if (!brief) std::cout << "\n" << st.render(seat);
  brief = false;
  for (;;) {
    const auto legal = st.legal_moves(seat);
    if (legal.size() == 1 && (legal[0] == "pass" || legal[0] == "draw")) {
      const std::string ends = pass_ends(st);
      std::cout << fmt::format("You have no playable tile{}: {}.\n", ends, legal[0]);
      const auto before = hand_tiles(st, seat);
      s.apply(seat, legal[0]);
      if (legal[0] == "draw") {
        std::vector<std::string> drawn;
        for (const auto& t : hand_tiles(st, seat))
          if (std::find(before.begin(), before.end(), t) == before.end()) drawn.push_back(t);
        if (!drawn.empty()) std::cout << fmt::format("You drew {}.\n", fmt::join(drawn, " "));
        brief = st.actor().acts(seat);
      }
      return true;
    }
    std::vector<std::string> items;
    for (size_t i = 0; i < legal.size(); ++i) items.push_back(fmt::format("{}) {}", i + 1, legal[i]));
    std::cout << wrap_items(items, "Your moves:  ", "  ", terminal_width(), "  ");
    std::cout << fmt::format("\nseat {}> ", seat) << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) {
      std::cout << "\ninput ended: leaving the game.\n";
      return false;
    }
    const auto b = line.find_first_not_of(" \t\r");
    line = b == std::string::npos ? "" : line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
    if (line.empty()) continue;
    if (line == "quit" || line == "q" || line == "exit") return false;
    if (line == "help" || line == "?") {
      std::cout << wrapped(kHelp + family_help(g.family));
      continue;
    }
    if (line == "board") {
      std::cout << st.render(seat);
      continue;
    }
    if (line == "hint") {
      std::cout << move_values_text(st, seat, g, budget);
      continue;
    }
    try {
      if (line.find_first_not_of("0123456789") == std::string::npos) {
        if (const std::string bid = bare_bid(legal, line); !bid.empty()) {
          s.apply(seat, bid);
          return true;
        }
        // 20+ digits do not fit any integer: no such move either.
        const size_t k = parse_whole<size_t>(line).value_or(0);
        if (k < 1 || k > legal.size()) throw Error(fmt::format("no move numbered {}; choose 1..{}", line, legal.size()));
        s.apply(seat, legal[k - 1]);
      } else {
        s.apply(seat, line);
      }
      return true;
    } catch (const Error& e) {
      std::cout << e.what() << "\n";
    }
  }
}

// The bots of the seats that are not the person's (none there).
std::vector<std::unique_ptr<AnyBot>> seat_bots(const PlayConfig& c, Session& s) {
  const int n = s.state().num_seats();
  if (!c.watch && (c.seat < 0 || c.seat >= n))
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

void play_game(const PlayConfig& c, Session& s, std::vector<std::unique_ptr<AnyBot>>& bots, RecordFile* record);

void run_play(const PlayConfig& c) {
  Session s(c.name, parse_options(c.options), c.seed);
  auto bots = seat_bots(c, s);  // a bad --seat or bot fails before any record
  // The record: its folder checked and its name claimed before the game
  // starts, rewritten after every hand, and written whatever ends the game:
  // its end, quit, end of input, Ctrl-C (SIGINT), SIGTERM or an error.
  std::unique_ptr<RecordFile> record;
  if (!c.record_dir.empty()) {
    check_record_dir(c.record_dir);
    record = std::make_unique<RecordFile>(c.record_dir);
    record->write(s);
  }
  install_stop_handlers();
  try {
    play_game(c, s, bots, record.get());
  } catch (...) {
    if (record) {
      try {
        record->write(s);
        std::cerr << "Record written to " << record->path() << "\n";
      } catch (const Error& e) {
        std::cerr << "boneyard: " << e.what() << "\n";
      }
    }
    throw;
  }
  if (record) std::cout << "Record written to " << record->write(s) << "\n";
  if (stop_signal()) die_of_stop_signal();
}

void play_game(const PlayConfig& c, Session& s, std::vector<std::unique_ptr<AnyBot>>& bots, RecordFile* record) {
  const GameEntry& g = s.entry();
  AnyState& st = s.state();
  const int n = st.num_seats();
  std::cout << fmt::format("{}: {} (seed {}).\n{}\n", g.name, g.summary, c.seed,
                           c.watch ? "Watching the bots." : fmt::format("You are seat {}. Type help for commands.", c.seat));
  for (int k = 0; k < n; ++k)
    if (bots[static_cast<size_t>(k)] && bots[static_cast<size_t>(k)]->omniscient())
      std::cout << fmt::format("Warning: seat {} is played by 'omniscient', which sees every hand (it cheats).\n", k);
  size_t deal_i = 0, hands = 0, record_hands = 0, tricks = 0;
  bool quit = false, brief = false;
  int bot_draws = 0;  // draws by the seat to act, not yet shown
  while (!st.terminal() && !quit && !stop_signal()) {
    const Actor a = st.actor();
    if (a.kind == Actor::Chance) {
      if (deal_i < c.deal.size()) s.chance(c.deal[deal_i++]);
      else s.chance();
    } else {
      for (int k = 0; k < n && !quit; ++k) {
        if (!a.acts(k)) continue;
        if (bots[static_cast<size_t>(k)]) {
          const std::string ends = pass_ends(st);
          const std::string m = s.bot_move(k, *bots[static_cast<size_t>(k)]);
          // A run of draws by one seat is one line: "draws 3 tiles".
          if (m == "draw" && st.actor().acts(k) && st.legal_moves(k) == std::vector<std::string>{"draw"}) {
            ++bot_draws;
            break;
          }
          const std::string what = m == "draw" ? fmt::format("draws {}", count_of(bot_draws + 1, "tile", "tiles")) : m;
          bot_draws = 0;
          std::cout << fmt::format("  seat {} ({}): {}{}\n", k, s.players()[static_cast<size_t>(k)], what,
                                   m == "pass" || m == "draw" ? ends : "");
          brief = false;
        } else {
          quit = !human_turn(s, k, g, c.budget, brief);
        }
        if (a.kind == Actor::Seat) break;
      }
      // A simultaneous round resolves once everyone has chosen: show the
      // watcher what was revealed, what stood and what went back.
      if (c.watch && a.kind == Actor::Simultaneous && !quit) std::cout << "\n" << st.render(-1) << "\n";
    }
    // The watcher sees the table after each trick.
    const size_t t = tricks_done(st);
    const bool trick_ended = t > tricks;
    if (c.watch && trick_ended && hands == st.hands().size()) std::cout << "\n" << st.render(-1);
    tricks = t;
    while (hands < st.hands().size()) {
      const std::string& text = st.hands()[hands++].text;
      // The trick that ended a hand: the table, which ends with the result.
      const std::string table = c.watch && trick_ended && !st.terminal() ? st.render(-1) : "";
      std::cout << "\n" << (table.find(text) != std::string::npos ? table : text + "\n");
      print_scores(st);
      brief = false;
    }
    if (record && hands > record_hands) {
      record->write(s);  // a crash or kill now loses at most the next hand
      record_hands = hands;
    }
  }
  if (stop_signal()) std::cout << "\nInterrupted (signal " << stop_signal() << ").\n";
  if (st.terminal()) {
    std::cout << "\n" << st.render(c.watch ? -1 : c.seat);
    print_scores(st);
  }
}

}  // namespace

void add_play(CLI::App& app) {
  auto* cmd = app.add_subcommand("play", "Play a game in the terminal against bots (or watch bots play)");
  auto c = std::make_shared<PlayConfig>();
  cmd->add_option("name", c->name, "Game or preset, e.g. latin, dominican-patio, jamaica (see `boneyard rules`)")->required();
  cmd->add_option("--option,-o", c->options, "Rule option key=value over the preset (repeatable)");
  add_seed_option(cmd, c->seed_text, "Seed of the game's random generator, 0 to 2^64-1 (default: from the clock)");
  cmd->add_option("--seat", c->seat, "Your seat (default 0)");
  cmd->add_option("--bots", c->bots, "Bots for the other seats, comma list cycled over them (default greedy)");
  cmd->add_flag("--watch", c->watch, "Bots play every seat; you watch");
  cmd->add_option("--record", c->record_dir, "Write the game record (JSON) into this folder");
  add_bot_budget(cmd, c->budget);
  cmd->add_option("--deal", c->deal, "Explicit chance outcome(s) for the first chance events, e.g. a deal (repeatable)");
  cmd->callback([c, cmd] {
    c->seed = cmd->count("--seed") == 0 ? default_seed() : parse_seed(c->seed_text);
    run_play(*c);
  });
}

}  // namespace boneyard::cli
