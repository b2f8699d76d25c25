// boneyard engine: the JSON-lines protocol on stdin/stdout (docs/protocol.md).
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/common.h"
#include "record/protocol.h"

namespace boneyard::cli {

namespace {

// The longest request line read (a whole record fits many times over): past
// it the rest of the line is skipped, not kept (a 300 MB line took 1.2 GB).
constexpr size_t kMaxLine = 16u << 20;

// One line of `in` into `line`, at most kMaxLine bytes of it; `length` is
// the whole line's. False at the end of the input.
bool read_line(std::istream& in, std::string& line, size_t& length) {
  line.clear();
  length = 0;
  std::streambuf* sb = in.rdbuf();
  for (;;) {
    const int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) return length > 0;
    if (c == '\n') return true;
    if (++length <= kMaxLine) line.push_back(static_cast<char>(c));
  }
}

}  // namespace

void add_engine(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "engine", "JSON-lines protocol on stdin/stdout for GUIs and scripts; send {\"cmd\":\"help\"} (docs/protocol.md)");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    Protocol p;
    std::string line;
    size_t length = 0;
    while (!p.quit() && read_line(std::cin, line, length)) {
      if (length > kMaxLine) {
        std::cout << nlohmann::json{{"ok", false},
                                    {"error", fmt::format("the line is {} bytes long; a request may be at most {} "
                                                          "(16 MiB): it was skipped",
                                                          length, kMaxLine)}}
                         .dump()
                  << "\n"
                  << std::flush;
        continue;
      }
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      std::cout << p.handle(line) << "\n" << std::flush;
    }
  });
}

}  // namespace boneyard::cli
