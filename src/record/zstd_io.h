#pragma once
// zstd-compressed JSON-lines files (self-play shards), by libzstd's
// streaming API. Each line is its own zstd frame, so a file cut short by a
// crash loses at most the line being written: the frames before it read
// back whole, and the file can be truncated to them and appended to.
#include <cstdio>
#include <string>
#include <vector>

namespace boneyard {

class ZstdLineWriter {
 public:
  // Opens path for appending (creating it); throws Error.
  explicit ZstdLineWriter(const std::string& path, int level = 3);
  ~ZstdLineWriter();
  ZstdLineWriter(const ZstdLineWriter&) = delete;
  ZstdLineWriter& operator=(const ZstdLineWriter&) = delete;
  // Writes one line (a '\n' is added) as a whole frame and flushes it to
  // the file; throws Error.
  void write_line(const std::string& line);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  FILE* f_ = nullptr;
  void* cctx_ = nullptr;
  std::vector<char> out_;
};

struct ZstdLines {
  std::vector<std::string> lines;  // without their '\n'
  size_t valid_bytes = 0;          // the whole frames at the start of the file
  size_t file_bytes = 0;
};
// Reads every whole frame of a file (decompressing with the streaming API);
// a cut-off last frame is left out (valid_bytes < file_bytes). Throws Error
// when the file cannot be read or a whole frame is corrupt.
ZstdLines read_zstd_lines(const std::string& path);

}  // namespace boneyard
