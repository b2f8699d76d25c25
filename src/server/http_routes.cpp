#include "server/http_routes.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/replay.h"

namespace boneyard::server {

using nlohmann::json;

HttpResponse error_response(int status, const std::string& message) {
  return {status, "application/json", json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace)};
}

namespace {
std::string decode(std::string_view s, bool plus_space) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%') {
      auto hex = [](char h) -> int {
        if (h >= '0' && h <= '9') return h - '0';
        if (h >= 'a' && h <= 'f') return h - 'a' + 10;
        if (h >= 'A' && h <= 'F') return h - 'A' + 10;
        return -1;
      };
      if (i + 2 >= s.size()) throw ApiError(400, "bad percent-encoding in the URL");
      const int a = hex(s[i + 1]), b = hex(s[i + 2]);
      if (a < 0 || b < 0) throw ApiError(400, "bad percent-encoding in the URL");
      out += static_cast<char>(a * 16 + b);
      i += 2;
    } else if (c == '+' && plus_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

json parse_body(std::string_view body) {
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) throw ApiError(400, "the body is not valid JSON");
  if (!j.is_object()) throw ApiError(400, "the body must be a JSON object");
  return j;
}

std::string str_field(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string()) throw ApiError(400, fmt::format("'{}' must be a string", key));
  return j[key].get<std::string>();
}

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

const char* mime(const std::string& ext) {
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".wasm") return "application/wasm";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

HttpResponse serve_static(const std::string& dir, const std::string& path) {
  if (dir.empty()) return error_response(404, "not found");
  // Refuse anything that could leave the folder: "..", backslashes, NULs, hidden files.
  for (const auto& seg : segments(path))
    if (seg == ".." || seg == "." || seg[0] == '.' || seg.find('\\') != std::string::npos || seg.find('\0') != std::string::npos)
      return error_response(403, "forbidden path");
  std::filesystem::path p = std::filesystem::path(dir);
  for (const auto& seg : segments(path)) p /= seg;
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec)) p /= "index.html";
  const auto canon = std::filesystem::weakly_canonical(p, ec);
  const auto root = std::filesystem::weakly_canonical(dir, ec);
  const std::string cs = canon.string(), rs = root.string();
  if (ec || cs.compare(0, rs.size(), rs) != 0) return error_response(403, "forbidden path");
  if (!std::filesystem::is_regular_file(canon, ec)) return error_response(404, "not found");
  if (std::filesystem::file_size(canon, ec) > 64u << 20) return error_response(403, "file too large");
  std::ifstream f(canon, std::ios::binary);
  if (!f) return error_response(404, "not found");
  std::stringstream buf;
  buf << f.rdbuf();
  return {200, mime(canon.extension().string()), buf.str()};
}

HttpResponse ok(const json& j, int status = 200) {
  return {status, "application/json", j.dump(-1, ' ', false, json::error_handler_t::replace)};
}
}  // namespace

Target parse_target(std::string_view target) {
  if (target.empty() || target[0] != '/') throw ApiError(400, "the request target must start with '/'");
  Target t;
  const size_t q = target.find('?');
  t.path = decode(target.substr(0, q), false);
  if (q != std::string_view::npos) {
    std::string_view qs = target.substr(q + 1);
    while (!qs.empty()) {
      const size_t amp = qs.find('&');
      std::string_view kv = qs.substr(0, amp);
      const size_t eq = kv.find('=');
      if (!kv.empty()) {
        if (t.query.size() >= 32) throw ApiError(400, "too many query parameters");
        t.query[decode(kv.substr(0, eq), true)] = eq == std::string_view::npos ? "" : decode(kv.substr(eq + 1), true);
      }
      if (amp == std::string_view::npos) break;
      qs.remove_prefix(amp + 1);
    }
  }
  return t;
}

HttpResponse handle_request(Hub& hub, const std::string& static_dir, std::string_view method, std::string_view target,
                            std::string_view body) {
  try {
    const Target t = parse_target(target);
    const auto seg = segments(t.path);
    auto query = [&](const char* k) {
      auto it = t.query.find(k);
      return it == t.query.end() ? std::string() : it->second;
    };
    if (seg.empty() || seg[0] != "api") {
      if (method != "GET" && method != "HEAD") return error_response(405, "method not allowed");
      return serve_static(static_dir, t.path);
    }
    auto need = [&](const char* m) {
      if (method != m) throw ApiError(405, fmt::format("method not allowed: use {}", m));
    };
    if (seg.size() == 2 && seg[1] == "health") {
      need("GET");
      const json h = hub.health();  // 503 while the storage fails: a load balancer's signal
      return ok(h, h.value("ok", false) ? 200 : 503);
    }
    if (seg.size() == 2 && seg[1] == "games") {
      // Every registered game and preset with its options (the values the
      // preset sets) and each option's catalogue of values: the lobby's menu.
      need("GET");
      static const json cached = [] {
      json all = json::array();
      for (const auto& g : games()) {
        const json d = g.describe();
        all.push_back({{"name", g.name}, {"family", g.family}, {"summary", g.summary}, {"sources", g.sources},
                       {"options", d.value("options", json::object())}, {"catalogue", d.value("catalogue", json::object())},
                       {"seats", g.make({}, 0)->num_seats()}});
      }
      return json{{"games", all}, {"bot_levels", {"beginner", "casual", "strong", "expert"}}};
      }();
      return ok(cached);
    }
    if (seg.size() == 2 && seg[1] == "replay") {
      // A record file the app was given (dropped on the lobby): its steps.
      need("POST");
      return ok(replay_steps(parse_record_text(body), replay_page_from(query("from"))));
    }
    if (seg.size() >= 2 && seg[1] == "tables") {
      if (seg.size() == 2) {
        need("POST");
        return ok(hub.create(parse_body(body)), 201);
      }
      const std::string& id = seg[2];
      if (seg.size() == 3) {
        need("GET");
        return ok(hub.get(id, query("token")));
      }
      if (seg.size() == 4) {
        const std::string& what = seg[3];
        if (what == "moves") {
          need("POST");
          const json b = parse_body(body);
          return ok(hub.move(id, str_field(b, "token"), str_field(b, "move")));
        }
        if (what == "join" || what == "entropy") {
          need("POST");
          const json b = parse_body(body);
          std::optional<std::string> entropy;
          if (b.contains("entropy")) entropy = str_field(b, "entropy");
          return ok(hub.join(id, str_field(b, "token"), entropy));
        }
        if (what == "record") {
          need("GET");
          return ok(hub.record(id));
        }
        if (what == "hint") {
          need("GET");
          return ok(hub.hint(id, query("token")));
        }
        if (what == "review") {
          need("GET");
          auto num = [&](const char* k, int lo, int hi) -> std::optional<int> {
            const std::string v = query(k);
            if (v.empty()) return std::nullopt;
            int x = 0;
            auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
            if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi)
              throw ApiError(400, fmt::format("'{}' must be a whole number from {} to {}, not '{}'", k, lo, hi, v.substr(0, 40)));
            return x;
          };
          return ok(hub.review(id, query("token"), num("hand", 1, 1000000).value_or(0), num("seat", 0, 255)));
        }
        if (what == "replay") {
          need("GET");
          return ok(hub.replay(id, replay_page_from(query("from"))));
        }
        if (what == "fairness") {
          need("GET");
          return ok(hub.fairness(id));
        }
      }
    }
    return error_response(404, fmt::format("no such API route: {} {}", method, t.path.substr(0, 200)));
  } catch (const ApiError& e) {
    return error_response(e.status, e.what());
  } catch (const Error& e) {
    return error_response(400, e.what());
  } catch (const std::exception& e) {
    return error_response(500, fmt::format("internal error: {}", e.what()));
  }
}

}  // namespace boneyard::server
