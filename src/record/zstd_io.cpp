#include "record/zstd_io.h"

#include <fmt/format.h>
#include <zstd.h>

#include <fstream>
#include <sstream>

#include "core/error.h"

namespace boneyard {

ZstdLineWriter::ZstdLineWriter(const std::string& path, int level) : path_(path) {
  f_ = std::fopen(path.c_str(), "ab");
  if (!f_) throw Error(fmt::format("cannot write '{}'", path));
  auto* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
  cctx_ = c;
  out_.resize(ZSTD_CStreamOutSize());
}

ZstdLineWriter::~ZstdLineWriter() {
  ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
  if (f_) std::fclose(f_);
}

void ZstdLineWriter::write_line(const std::string& line) {
  const std::string text = line + "\n";
  ZSTD_inBuffer in{text.data(), text.size(), 0};
  auto* c = static_cast<ZSTD_CCtx*>(cctx_);
  for (;;) {
    ZSTD_outBuffer out{out_.data(), out_.size(), 0};
    const size_t left = ZSTD_compressStream2(c, &out, &in, ZSTD_e_end);  // one whole frame per line
    if (ZSTD_isError(left)) throw Error(fmt::format("zstd: {} writing '{}'", ZSTD_getErrorName(left), path_));
    if (out.pos && std::fwrite(out_.data(), 1, out.pos, f_) != out.pos)
      throw Error(fmt::format("cannot write '{}'", path_));
    if (left == 0) break;
  }
  if (std::fflush(f_) != 0) throw Error(fmt::format("cannot write '{}'", path_));
}

ZstdLines read_zstd_lines(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(fmt::format("cannot read '{}'", path));
  std::stringstream buf;
  buf << f.rdbuf();
  const std::string data = buf.str();
  ZstdLines r;
  r.file_bytes = data.size();
  ZSTD_DCtx* d = ZSTD_createDCtx();
  std::vector<char> out(ZSTD_DStreamOutSize());
  std::string text;
  size_t pos = 0;
  while (pos < data.size()) {
    const size_t frame = ZSTD_findFrameCompressedSize(data.data() + pos, data.size() - pos);
    if (ZSTD_isError(frame)) break;  // cut short: the frames so far are what counts
    ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    ZSTD_inBuffer in{data.data() + pos, frame, 0};
    std::string got;
    for (;;) {
      ZSTD_outBuffer o{out.data(), out.size(), 0};
      const size_t rc = ZSTD_decompressStream(d, &o, &in);
      if (ZSTD_isError(rc) || (rc != 0 && in.pos == in.size && o.pos < o.size)) {
        ZSTD_freeDCtx(d);
        throw Error(fmt::format("'{}' is corrupt at byte {}: {}", path, pos,
                                ZSTD_isError(rc) ? ZSTD_getErrorName(rc) : "frame ends early"));
      }
      got.append(out.data(), o.pos);
      if (rc == 0) break;
    }
    text += got;
    pos += frame;
  }
  ZSTD_freeDCtx(d);
  r.valid_bytes = pos;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      r.lines.push_back(text.substr(start));
      break;
    }
    r.lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return r;
}

}  // namespace boneyard
