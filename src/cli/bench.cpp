// boneyard bench [NAME]: random-playout throughput of the engine.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/common.h"

namespace boneyard::cli {

void add_bench(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Random-playout throughput (hands per second, one thread per --threads)");
  auto name = std::make_shared<std::string>();
  auto seconds = std::make_shared<double>(2.0);
  auto threads = std::make_shared<int>(1);
  auto json_out = std::make_shared<bool>(false);
  auto opts = std::make_shared<std::vector<std::string>>();
  cmd->add_option("name", *name, "Game or preset (default: latin and one of each other game)");
  cmd->add_option("--seconds", *seconds, fmt::format("Seconds per game (default {})", *seconds))
      ->check(CLI::Range(0.05, 600.0));
  cmd->add_option("--threads", *threads, fmt::format("Threads playing at once (default {})", *threads))
      ->check(CLI::Range(1, 64));
  cmd->add_option("--option,-o", *opts, "Rule option key=value (repeatable)");
  cmd->add_flag("--json", *json_out, "Machine-readable output");
  cmd->callback([=] {
    std::vector<std::string> names;  // NAME, or the first name of each family
    if (!name->empty())
      names.push_back(find_game(*name).name);
    else
      for (const auto& g : games())
        if (names.empty() || find_game(names.back()).family != g.family) names.push_back(g.name);
    const OptionList o = parse_options(*opts);
    nlohmann::json out = nlohmann::json::array();
    for (const auto& n : names) {
      const GameEntry& g = find_game(n);
      g.make(o, 0);  // bad options are reported here, not thrown inside a playing thread
      std::vector<BenchResult> res(static_cast<size_t>(*threads));
      std::vector<std::thread> pool;
      for (int t = 0; t < *threads; ++t)
        pool.emplace_back(
            [&, t] { res[static_cast<size_t>(t)] = g.bench(o, mix_seed(42, static_cast<uint64_t>(t)), *seconds); });
      for (auto& th : pool) th.join();
      BenchResult total = res[0];
      for (size_t t = 1; t < res.size(); ++t) {
        total.hands += res[t].hands;
        total.moves += res[t].moves;
        total.seconds = std::max(total.seconds, res[t].seconds);
        total.cpu_seconds += res[t].cpu_seconds;
      }
      const double hps = static_cast<double>(total.hands) / total.seconds;
      const double mps = static_cast<double>(total.moves) / total.seconds;
      // Per second of one thread's own time: what the engine does on a core
      // of its own, even when other work shares the machine.
      const double per_cpu = static_cast<double>(total.hands) / total.cpu_seconds * *threads;
      if (*json_out)
        out.push_back({{"game", n},
                       {"threads", *threads},
                       {"seconds", total.seconds},
                       {"cpu_seconds", total.cpu_seconds},
                       {"hands", total.hands},
                       {"unit", total.unit},
                       {"hands_per_second", hps},
                       {"hands_per_second_cpu", per_cpu},
                       {"moves_per_second", mps},
                       {"state_bytes", total.state_bytes}});
      else
        std::cout << fmt::format(
            "{:18} {:>12.0f} {}/s  {:>12.0f} moves/s  ({} thread{}, state {} bytes; {:.0f} {}/s in CPU time)\n", n, hps,
            total.unit, mps, *threads, *threads > 1 ? "s" : "", total.state_bytes, per_cpu, total.unit);
    }
    if (*json_out) std::cout << out.dump(2) << "\n";
  });
}

}  // namespace boneyard::cli
