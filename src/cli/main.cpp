// boneyard: one executable, one file per subcommand.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cluster.h"
#include "cli/common.h"
#include "core/error.h"

namespace {

// A usage error (no subcommand, an unknown one, a bad option or value):
// "boneyard:", what was wrong and where its help is, exit status 2 as other
// command-line tools (not CLI11's 105 to 109).
int usage_error(CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  std::vector<std::string> all;
  for (const auto* s : app.get_subcommands([](CLI::App*) { return true; })) all.push_back(s->get_name());
  std::string where = "boneyard";
  for (const auto* s : app.get_subcommands()) where += " " + s->get_name();
  std::string what = e.what();
  if (where == "boneyard") {
    const std::string first = argc > 1 ? argv[1] : "";
    if (first.empty())
      what = fmt::format("say what to do, one of: {}", fmt::join(all, ", "));
    else if (first[0] != '-' && std::find(all.begin(), all.end(), first) == all.end())
      what = fmt::format("'{}' is not a subcommand; they are: {}", first, fmt::join(all, ", "));
  }
  std::cerr << fmt::format("boneyard: {}\nRun `{} --help` to see what it takes.\n", what, where);
  return 2;
}

}  // namespace

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
      return e.get_exit_code() == 0 ? 0 : 2;
    }
    const int rc = e.get_exit_code() == 0 ? app.exit(e) : usage_error(app, e, argc, argv);  // 0: --help
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
