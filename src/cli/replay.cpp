// boneyard replay FILE: print or step through a recorded game, checking that
// it reproduces exactly.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/common.h"
#include "record/session.h"

namespace boneyard::cli {

void add_replay(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "Print or step through a recorded game (records: docs/records.md)");
  auto file = std::make_shared<std::string>();
  auto step = std::make_shared<bool>(false);
  auto seat = std::make_shared<int>(-1);
  auto json_out = std::make_shared<bool>(false);
  auto quiet = std::make_shared<bool>(false);
  cmd->add_option("file", *file, "Record file (JSON)")->required();
  cmd->add_flag("--step", *step, "Show the table before each event and wait for Enter (q quits)");
  cmd->add_option("--seat", *seat, "Show the table as this seat sees it (default: everything)");
  cmd->add_flag("--json", *json_out, "Print only a JSON summary of the verified replay");
  cmd->add_flag("--quiet,-q", *quiet, "Print only hand results and the outcome");
  cmd->callback([=] {
    std::ifstream f(*file);
    if (!f) throw Error(fmt::format("cannot read record '{}'", *file));
    std::stringstream buf;
    buf << f.rdbuf();
    const nlohmann::json rec = parse_record_text(buf.str());
    const Session verified = Session::from_record(rec);  // throws on any mismatch
    if (*json_out) {
      std::cout << nlohmann::json{{"file", *file}, {"game", verified.entry().name}, {"events", verified.events().size()},
                                  {"hands", verified.state().hands().size()}, {"scores", verified.state().scores()},
                                  {"over", verified.state().terminal()}, {"verified", true}}
                       .dump(2)
                << "\n";
      return;
    }
    Session s = Session::start_of_record(rec);
    const auto events = Session::record_events(rec);
    if (*seat < -1 || *seat >= s.state().num_seats())  // the views index their seats
      throw Error(fmt::format("--seat {} does not exist; seats are 0..{} (omit --seat to see every hand)", *seat,
                              s.state().num_seats() - 1));
    std::cout << fmt::format("{} (seed {}), {} events\n", s.entry().name, s.seed(), events.size());
    size_t hands = 0;
    for (size_t i = 0; i < events.size(); ++i) {
      const auto& e = events[i];
      if (*step) {
        std::cout << "\n" << s.state().render(*seat) << fmt::format("[event {}/{}] Enter to go on, q to quit: ", i + 1, events.size())
                  << std::flush;
        std::string line;
        if (!std::getline(std::cin, line) || line == "q") return;
      }
      s.apply_event(e);
      if (!*quiet) {
        if (e.chance) std::cout << "  chance: " << e.text << "\n";
        else std::cout << fmt::format("  seat {}{}: {}\n", e.seat,
                                      s.players()[static_cast<size_t>(e.seat)].empty() ? "" : " (" + s.players()[static_cast<size_t>(e.seat)] + ")",
                                      e.text);
      }
      while (hands < s.state().hands().size()) {
        std::cout << s.state().hands()[hands++].text << "\n";
        std::string sc = "  score:";
        const auto scores = s.state().scores();
        for (int sd = 0; sd < s.state().num_sides(); ++sd) sc += fmt::format(" {} {}", s.state().side_name(sd), scores[static_cast<size_t>(sd)]);
        std::cout << sc << "\n";
      }
    }
    std::cout << "\n" << s.state().render(*seat);
    std::cout << "Replay verified: every move legal; every hand's winner, points and detail, and the scores and "
                 "result, as recorded (docs/records.md).\n";
  });
}

}  // namespace boneyard::cli
