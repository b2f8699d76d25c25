#include "server/static_files.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

namespace boneyard::server {

namespace {

const char* mime(const std::string& ext) {
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".webmanifest") return "application/manifest+json";  // the installable app's manifest
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".wasm") return "application/wasm";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// True when `p` is `root` or lies under it, component by component (a
// string prefix would let "www" reach "www-secret").
bool within(const std::filesystem::path& root, const std::filesystem::path& p) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q)
    if (q == p.end() || *r != *q) return false;
  return true;
}

// Whether an Accept-Encoding header takes gzip (named, and not with q=0).
bool takes_gzip(std::string_view ae) {
  auto trim = [](std::string_view x) {
    while (!x.empty() && (x.front() == ' ' || x.front() == '\t')) x.remove_prefix(1);
    while (!x.empty() && (x.back() == ' ' || x.back() == '\t')) x.remove_suffix(1);
    return x;
  };
  while (!ae.empty()) {
    const size_t comma = ae.find(',');
    std::string_view part = ae.substr(0, comma);
    ae = comma == std::string_view::npos ? std::string_view() : ae.substr(comma + 1);
    const size_t semi = part.find(';');
    std::string name(trim(part.substr(0, semi)));
    for (auto& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (name != "gzip") continue;
    if (semi == std::string_view::npos) return true;
    std::string_view q = trim(part.substr(semi + 1));
    if (q.size() < 2 || (q[0] != 'q' && q[0] != 'Q') || q[1] != '=') return true;
    q.remove_prefix(2);
    // q=0, q=0.0, q=0.000: refused; any other weight takes it.
    return q.find_first_not_of("0.") != std::string_view::npos;
  }
  return false;
}

// A name with its content's hash before the extension: app.1f2e3d4c5b6a.js.
bool hashed_name(const std::filesystem::path& p) {
  const std::string hash = p.stem().extension().string();  // ".1f2e3d4c5b6a"
  return hash.size() >= 9 && hash.find_first_not_of("0123456789abcdef", 1) == std::string::npos;
}

HttpResponse serve_file(const std::string& dir, const std::string& path, const Request& req) {
  if (dir.empty()) return error_response(404, "not found");
  // Refuse anything that could leave the folder: "..", backslashes, NULs, hidden files.
  for (const auto& seg : segments(path))
    if (seg == ".." || seg == "." || seg[0] == '.' || seg.find('\\') != std::string::npos ||
        seg.find('\0') != std::string::npos)
      return error_response(403, "forbidden path");
  std::error_code ec;
  // Containment by the resolved real path: a symbolic link out of the
  // folder is refused like "..".
  const auto root = std::filesystem::canonical(dir, ec);
  if (ec) return error_response(404, "not found");
  std::filesystem::path p = root;
  for (const auto& seg : segments(path)) p /= seg;
  auto real = std::filesystem::canonical(p, ec);
  if (ec) return error_response(404, "not found");
  if (!within(root, real)) return error_response(403, "forbidden path");
  if (std::filesystem::is_directory(real, ec)) {
    real = std::filesystem::canonical(real / "index.html", ec);
    if (ec) return error_response(404, "not found");
    if (!within(root, real)) return error_response(403, "forbidden path");
  }
  if (!std::filesystem::is_regular_file(real, ec)) return error_response(404, "not found");
  // The precompressed copy beside it (web/build.mjs writes name.gz), when
  // the client takes gzip: the same file, a fifth of the bytes.
  std::vector<std::pair<std::string, std::string>> headers;
  const std::string type = mime(real.extension().string());
  const bool immutable = hashed_name(real);
  std::filesystem::path gz = real;
  gz += ".gz";
  gz = std::filesystem::canonical(gz, ec);
  const bool has_gz = !ec && within(root, gz) && std::filesystem::is_regular_file(gz, ec);
  if (has_gz) {
    headers.emplace_back("Vary", "Accept-Encoding");
    if (takes_gzip(req.accept_encoding)) {
      real = gz;
      headers.emplace_back("Content-Encoding", "gzip");
    }
  }
  const auto size = std::filesystem::file_size(real, ec);
  if (ec || size > 64u << 20) return error_response(403, "file too large");
  // A bundle named by its content's hash (app.<hash>.js) never changes: kept
  // a year. Anything else (index.html above all, which names the bundle)
  // is asked again each time, answered 304 while unchanged.
  headers.emplace_back("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
  const auto mtime = std::filesystem::last_write_time(real, ec).time_since_epoch().count();
  const std::string etag = fmt::format("\"{:x}-{:x}{}\"", size, mtime, real == gz ? "-gz" : "");
  headers.emplace_back("ETag", etag);
  if (!req.if_none_match.empty() &&
      (req.if_none_match == "*" || req.if_none_match.find(etag) != std::string_view::npos))
    return {304, type, "", headers};
  std::ifstream f(real, std::ios::binary);
  if (!f) return error_response(404, "not found");
  std::stringstream buf;
  buf << f.rdbuf();
  return {200, type, buf.str(), headers};
}

}  // namespace

// The address of a page that is not there (no extension: not one of the
// app's files) is answered 404 with the app itself, which says so in the
// player's language with the way to the lobby: a bare JSON error said
// nothing to a person who mistyped an address.
HttpResponse serve_static(const std::string& dir, const std::string& path, const Request& req) {
  HttpResponse r = serve_file(dir, path, req);
  if (r.status != 404) return r;
  const auto seg = segments(path);
  if (!seg.empty() && seg.back().find('.') != std::string::npos) return r;
  Request plain = req;
  plain.if_none_match = {};  // the page itself, never "unchanged"
  HttpResponse page = serve_file(dir, "/index.html", plain);
  if (page.status != 200) return r;
  page.status = 404;
  return page;
}

}  // namespace boneyard::server
