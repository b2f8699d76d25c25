// boneyard play NAME: a terminal game for a person (or bots, with --watch).
#include <fmt/format.h>

#include <iostream>

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
  std::string line = "Score:";
  for (int sd = 0; sd < st.num_sides(); ++sd) line += fmt::format("  {} {}", st.side_name(sd), sc[static_cast<size_t>(sd)]);
  std::cout << line << "\n";
}

const char* kHelp =
    "Type the number of a move, or the move itself (tile notation 6-4, 4-6, 6|4, [6|4]; add :L or :R for an end).\n"
    "Other commands: board (show the table again), hint (every move's value by the strongest fair bot),\n"
    "help, quit.\n";

// One decision by the person at `seat`; false when they quit.
bool human_turn(Session& s, int seat, const GameEntry& g, const BotOptions& budget) {
  AnyState& st = s.state();
  std::cout << "\n" << st.render(seat);
  for (;;) {
    const auto legal = st.legal_moves(seat);
    if (legal.size() == 1 && (legal[0] == "pass" || legal[0] == "draw")) {
      std::cout << fmt::format("You have no playable tile: {}.\n", legal[0]);
      s.apply(seat, legal[0]);
      return true;
    }
    std::cout << "Your moves:";
    for (size_t i = 0; i < legal.size(); ++i) std::cout << fmt::format("  {}) {}", i + 1, legal[i]);
    std::cout << fmt::format("\nseat {}> ", seat) << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) return false;
    const auto b = line.find_first_not_of(" \t\r");
    line = b == std::string::npos ? "" : line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
    if (line.empty()) continue;
    if (line == "quit" || line == "q" || line == "exit") return false;
    if (line == "help" || line == "?") {
      std::cout << kHelp;
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
  std::cout << fmt::format("{}: {} (seed {}). {}\n", g.name, g.summary, c.seed,
                           c.watch ? "Watching the bots." : fmt::format("You are seat {}. Type help for commands.", c.seat));
  size_t deal_i = 0, hands = 0, record_hands = 0;
  bool quit = false;
  while (!st.terminal() && !quit && !stop_signal()) {
    const Actor a = st.actor();
    if (a.kind == Actor::Chance) {
      if (deal_i < c.deal.size()) s.chance(c.deal[deal_i++]);
      else s.chance();
    } else {
      for (int k = 0; k < n && !quit; ++k) {
        if (!a.acts(k)) continue;
        if (bots[static_cast<size_t>(k)]) {
          const std::string m = s.bot_move(k, *bots[static_cast<size_t>(k)]);
          std::cout << fmt::format("  seat {} ({}): {}\n", k, s.players()[static_cast<size_t>(k)], m);
        } else {
          quit = !human_turn(s, k, g, c.budget);
        }
        if (a.kind == Actor::Seat) break;
      }
      // A simultaneous round resolves once everyone has chosen: show the
      // watcher what was revealed, what stood and what went back.
      if (c.watch && a.kind == Actor::Simultaneous && !quit) std::cout << "\n" << st.render(-1) << "\n";
    }
    while (hands < st.hands().size()) {
      std::cout << "\n" << st.hands()[hands++].text << "\n";
      print_scores(st);
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
