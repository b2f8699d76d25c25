// boneyard replay FILE: print or step through a recorded game, checking that
// it reproduces exactly.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/common.h"
#include "cli/record_file.h"
#include "core/text.h"
#include "record/session.h"
#include "record/words.h"

namespace boneyard::cli {

namespace {
// A chance outcome as `seat` saw it: its new hand (a deal, `fresh`) or the
// tiles it got (a draw), the rest hidden. `had`, `has`: its tiles before and after.
std::string seat_sees(const std::vector<std::string>& had, const std::vector<std::string>& has, int seat, bool fresh) {
  std::vector<std::string> got;
  for (const auto& t : has)
    if (fresh || std::find(had.begin(), had.end(), t) == had.end()) got.push_back(t);
  if (got.empty()) return fmt::format("(hidden from seat {})", seat);
  return fmt::format("seat {} {} {} (the rest hidden from seat {})", seat, fresh ? "is dealt" : "gets",
                     fmt::join(got, " "), seat);
}

}  // namespace

void add_replay(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "Print or step through a recorded game (records: docs/records.md)");
  auto file = std::make_shared<std::string>();
  auto step = std::make_shared<bool>(false);
  auto seat = std::make_shared<int>(-1);
  auto json_out = std::make_shared<bool>(false);
  auto quiet = std::make_shared<bool>(false);
  auto game = std::make_shared<int>(-1);
  cmd->add_option("file", *file,
                  "Record file (JSON), or a self-play shard (JSON lines, .zst compressed) with --game K or as FILE:K")
      ->required();
  cmd->add_option("--game", *game, "The K-th game (from 0) of a JSON-lines shard")->check(CLI::Range(0, 1000000000));
  auto* step_opt = cmd->add_flag("--step", *step, "Show the table before each event and wait for Enter (q quits)");
  auto* seat_opt = cmd->add_option("--seat", *seat, "Show the table as this seat sees it (default: everything)");
  auto* quiet_opt = cmd->add_flag("--quiet,-q", *quiet, "Print only hand results and the outcome");
  // The summary shows no table: the ways of showing one are refused beside it, not ignored.
  cmd->add_flag("--json", *json_out, "Print only a JSON summary of the verified replay")
      ->excludes(step_opt)
      ->excludes(seat_opt)
      ->excludes(quiet_opt);
  cmd->callback([=] {
    const nlohmann::json rec = read_record(*file, *game);
    const Session verified = Session::from_record(rec);  // throws on any mismatch
    if (*json_out) {
      std::cout << nlohmann::json{{"file", *file},
                                  {"game", verified.entry().name},
                                  {"events", verified.events().size()},
                                  {"hands", verified.state().hands().size()},
                                  {"scores", verified.state().scores()},
                                  {"over", verified.state().terminal()},
                                  {"verified", true}}
                       .dump(2)
                << "\n";
      return;
    }
    Session s = Session::start_of_record(rec);
    const auto events = Session::record_events(rec);
    if (*seat < -1 || *seat >= s.state().num_seats())  // the views index their seats
      throw Error(fmt::format("--seat {} does not exist; seats are 0..{} (omit --seat to see every hand)", *seat,
                              s.state().num_seats() - 1));
    // Every line wrapped to the terminal's width, between tiles and words.
    const int width = terminal_width();
    const auto say = [width](const std::string& text) { std::cout << wrap_text(text, width); };
    say(fmt::format("{} (seed {}), {} events\n", s.entry().name, s.seed(), events.size()));
    size_t hands = 0;
    int dealt = -1;  // the deals() whose deal was shown
    for (size_t i = 0; i < events.size(); ++i) {
      const auto& e = events[i];
      if (*step) {
        say("\n" + s.state().render(*seat));
        // Numbered from 0, as `analyze --event` and the review number them.
        std::cout << fmt::format("[event {} of 0..{}] Enter to go on, q to quit: ", i, events.size() - 1) << std::flush;
        std::string line;
        if (!std::getline(std::cin, line) || line == "q") return;
      }
      // The move in words, said before it is applied; with --seat, what
      // that seat could not see stays hidden: the chance outcomes (deals,
      // draws) and the tiles others lay face down.
      std::string said;
      if (!*quiet && !e.chance) {
        const Actor a = s.state().actor();
        said = *seat >= 0 && e.seat != *seat && a.kind == Actor::Simultaneous
                   ? "lays face down"
                   : move_words_heard(s.state(), e.seat, e.text, *seat);
      }
      // A seat's hand before a chance outcome it may not see: a deal, a
      // draw; not the dice (the game names its public ones).
      const auto& shown = s.entry().public_chance;
      const bool hidden = e.chance && *seat >= 0 && !(shown && shown(e.text));
      const std::vector<std::string> had = hidden ? own_tiles(s.state(), *seat) : std::vector<std::string>{};
      // The first chance of a deal (none since the last hand ended) deals it.
      const bool fresh = e.chance && s.state().deals() != dealt;
      if (fresh) dealt = s.state().deals();
      s.apply_event(e);
      if (!*quiet) {
        if (e.chance)
          say("  chance: " + (hidden ? seat_sees(had, own_tiles(s.state(), *seat), *seat, fresh) : e.text) + "\n");
        else
          say(fmt::format("  seat {}{}: {}\n", e.seat,
                          s.players()[static_cast<size_t>(e.seat)].empty()
                              ? ""
                              : " (" + s.players()[static_cast<size_t>(e.seat)] + ")",
                          said));
      }
      while (hands < s.state().hands().size()) {
        say(s.state().hands()[hands++].text + "\n");
        std::string sc = "  Score:";
        const auto scores = s.state().scores();
        for (int sd = 0; sd < s.state().num_sides(); ++sd)
          sc += fmt::format(" {}: {}", s.state().side_name(sd), scores[static_cast<size_t>(sd)]);
        say(sc + "\n");
      }
    }
    if (!*quiet) say("\n" + s.state().render(*seat));
    // A record written before the game ended (quit, Ctrl-C, a crash) says so.
    if (!s.state().terminal())
      say(fmt::format("The record ends before the game is over: {} played, the game stops after event {}.\n",
                      count_of(static_cast<int>(s.state().hands().size()), "hand", "hands"), events.size()));
    else if (*quiet) {
      std::string sc = "Game over. Final score:";
      const auto scores = s.state().scores();
      for (int sd = 0; sd < s.state().num_sides(); ++sd)
        sc += fmt::format(" {}: {}", s.state().side_name(sd), scores[static_cast<size_t>(sd)]);
      say(sc + "\n");
    }
    say("Replay verified: every move legal; every hand's winner, points and detail, and the scores and result, as "
        "recorded (docs/records.md).\n");
  });
}

}  // namespace boneyard::cli
