#include "cli/record_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "record/session.h"
#include "record/zstd_io.h"

namespace boneyard::cli {

namespace {
// A record's text: a whole file, or one line of a JSON-lines shard (zstd
// compressed when it ends in .zst), named by --game K or FILE:K.
std::string record_text(std::string path, int game) {
  namespace fs = std::filesystem;
  if (game < 0 && !fs::exists(path)) {
    const size_t colon = path.rfind(':');
    if (colon != std::string::npos && colon + 1 < path.size() &&
        path.find_first_not_of("0123456789", colon + 1) == std::string::npos && path.size() - colon < 11 &&
        fs::exists(path.substr(0, colon))) {
      game = std::stoi(path.substr(colon + 1));
      path.resize(colon);
    }
  }
  const bool zst = path.size() > 4 && path.substr(path.size() - 4) == ".zst";
  std::string whole;
  if (!zst) {
    if (fs::is_directory(path)) throw Error(fmt::format("cannot read record '{}': it is a folder, not a file", path));
    std::ifstream f(path);
    if (!f) throw Error(fmt::format("cannot read record '{}': {}", path, std::strerror(errno)));
    std::stringstream buf;
    buf << f.rdbuf();
    whole = buf.str();
    if (game < 0) return whole;
  }
  std::vector<std::string> lines;
  if (zst) {
    const ZstdLines z = read_zstd_lines(path);
    lines = z.lines;
    if (z.valid_bytes < z.file_bytes)
      std::cerr << fmt::format("{}: the last game is cut off at byte {}; it is left out\n", path, z.valid_bytes);
  } else {
    // One game's record (JSON over many lines) is not a shard: its lines
    // are no games ("--game 3" said "not valid JSON" of a good record).
    if (whole.find('\n') < whole.find_last_not_of(" \n\r\t") && nlohmann::json::accept(whole)) {
      if (game == 0) return whole;
      throw Error(
          fmt::format("'{}' is one game's record, not a self-play shard: --game K (and FILE:K) pick a game "
                      "of a shard; leave it out for this file",
                      path));
    }
    std::istringstream f(whole);
    for (std::string line; std::getline(f, line);)
      if (!line.empty()) lines.push_back(line);
  }
  if (game < 0) {
    if (lines.size() == 1) return lines[0];
    throw Error(
        fmt::format("'{}' holds {} games: pick one with --game K or {}:K (K from 0)", path, lines.size(), path));
  }
  if (static_cast<size_t>(game) >= lines.size())
    throw Error(fmt::format("'{}' holds {} games (0 to {}); there is no game {}", path, lines.size(),
                            static_cast<int>(lines.size()) - 1, game));
  return lines[static_cast<size_t>(game)];
}
}  // namespace

nlohmann::json read_record(const std::string& path, int game) {
  const std::string text = record_text(path, game);
  try {
    return parse_record_text(text);
  } catch (const Error& e) {  // "bad record: not valid JSON" said which record
    const std::string why = e.what();
    const std::string head = "bad record: ";
    throw Error(
        fmt::format("bad record '{}': {}", shown_text(path), why.rfind(head, 0) == 0 ? why.substr(head.size()) : why));
  }
}

}  // namespace boneyard::cli
