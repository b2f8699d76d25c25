// boneyard engine: the JSON-lines protocol on stdin/stdout (docs/protocol.md).
#include <iostream>

#include "cli/common.h"
#include "record/protocol.h"

namespace boneyard::cli {

void add_engine(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "engine", "JSON-lines protocol on stdin/stdout for GUIs and scripts; send {\"cmd\":\"help\"} (docs/protocol.md)");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    Protocol p;
    std::string line;
    while (!p.quit() && std::getline(std::cin, line)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      std::cout << p.handle(line) << "\n" << std::flush;
    }
  });
}

}  // namespace boneyard::cli
