// boneyard: one executable, one file per subcommand.
#include <fmt/format.h>

#include <iostream>

#include "cli/cluster.h"
#include "cli/common.h"
#include "core/error.h"

int main(int argc, char** argv) {
  namespace cluster = boneyard::cli::cluster;
  cluster::init(&argc, &argv);  // only under mpirun
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
  boneyard::cli::add_lobby_bench(app);
  boneyard::cli::add_selfplay(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (cluster::rank() != 0) {  // the same words from every rank once is enough
      cluster::finalize();
      return e.get_exit_code();
    }
    const int rc = app.exit(e);
    cluster::finalize();
    return rc;
  } catch (const boneyard::Error& e) {
    if (cluster::size() > 1) {  // one rank failing ends them all
      std::cerr << fmt::format("boneyard (rank {} of {}): {}\n", cluster::rank(), cluster::size(), e.what());
      cluster::abort(2);
    }
    std::cerr << "boneyard: " << e.what() << "\n";
    cluster::finalize();
    return 2;
  }
  cluster::finalize();
  return 0;
}
