// boneyard: one executable, one file per subcommand.
#include <fmt/format.h>

#include <iostream>

#include "cli/common.h"
#include "core/error.h"

int main(int argc, char** argv) {
  boneyard::register_all_games();
  CLI::App app{
      "Boneyard: an engine and toolkit for domino games.\n"
      "Games: the line games (latin and the Caribbean presets), mexican-train, texas-42, dice-and-dominoes.\n"
      "Start with `boneyard rules` to list them, then `boneyard play latin`."};
  app.require_subcommand(1);
  boneyard::cli::add_rules(app);
  boneyard::cli::add_play(app);
  boneyard::cli::add_arena(app);
  boneyard::cli::add_engine(app);
  boneyard::cli::add_replay(app);
  boneyard::cli::add_bench(app);
  boneyard::cli::add_analyze(app);
  boneyard::cli::add_serve(app);
  boneyard::cli::add_verify(app);
  boneyard::cli::add_serve_bench(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const boneyard::Error& e) {
    std::cerr << "boneyard: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
