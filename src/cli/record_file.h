// A record file as replay and analyze read it (docs/records.md): a game's
// record, or one game of a JSON-lines self-play shard (zstd-compressed when
// it ends in .zst), named by --game K or FILE:K. Every error names the file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace boneyard::cli {

// The record's JSON, checked for form (parse_record_text); throws Error.
nlohmann::json read_record(const std::string& path, int game = -1);

}  // namespace boneyard::cli
