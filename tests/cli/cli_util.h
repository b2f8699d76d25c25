#pragma once
// Helpers for the CLI tests that run the executable and read its records.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "record/session.h"
#include "test_paths.h"  // BONEYARD_EXE, BONEYARD_SOURCE_DIR

namespace cli_util {

using nlohmann::json;
namespace fs = std::filesystem;
using namespace boneyard;

// Runs the boneyard executable with args; stdout and stderr together.
inline std::string run(const std::string& args, int* rc = nullptr) {
  std::string out;
  FILE* p = popen((std::string(BONEYARD_EXE) + " " + args + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  if (rc) *rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

inline std::string fresh_dir(const std::string& name) {
  const std::string dir = fs::temp_directory_path() / ("boneyard-hardening-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  return dir;
}

inline std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

inline json read_json(const std::string& path) {
  std::ifstream f(path);
  std::stringstream b;
  b << f.rdbuf();
  return parse_record_text(b.str());
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
}

// Plays a whole game through a Session: `bot` in the odd seats, random in
// the others.
inline Session bot_game(const std::string& game, uint64_t seed, const std::string& bot = "random") {
  Session s(game, {}, seed);
  std::vector<std::unique_ptr<AnyBot>> bots;
  for (int k = 0; k < s.state().num_seats(); ++k)
    bots.push_back(make_bot(s.entry(), k % 2 ? bot : "random", seed + static_cast<uint64_t>(k)));
  while (!s.state().terminal()) {
    const Actor a = s.state().actor();
    if (a.kind == Actor::Chance) {
      s.chance();
      continue;
    }
    for (int k = 0; k < s.state().num_seats(); ++k)
      if (a.acts(k)) {
        s.bot_move(k, *bots[static_cast<size_t>(k)]);
        if (a.kind == Actor::Seat) break;
      }
  }
  return s;
}

}  // namespace cli_util
