#include "server/http_routes.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>

#include "core/text.h"
#include "server/chat.h"
#include "server/players.h"
#include "server/replay.h"
#include "server/static_files.h"

namespace boneyard::server {

using nlohmann::json;

std::string error_code(int status) {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "no_token";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 405:
      return "bad_method";
    case 409:
      return "conflict";
    case 413:
      return "too_large";
    case 415:
      return "json_only";
    case 421:
      return "elsewhere";  // another node plays the table (shards.h)
    case 429:
      return "rate_limited";
    case 503:
      return "busy";
    default:
      return status >= 500 ? "server_error" : "bad_request";
  }
}

HttpResponse error_response(int status, const std::string& message) {
  return {status,
          "application/json",
          json{{"error", message}, {"code", error_code(status)}}.dump(-1, ' ', false, json::error_handler_t::replace),
          {}};
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

json parse_body(std::string_view body) { return parse_json_object(body, "the body"); }

std::string str_field(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string()) throw ApiError(400, fmt::format("'{}' must be a string", key));
  return j[key].get<std::string>();
}

// A body's "token": missing is 401 (no credential), as GET without ?token=.
std::string token_field(const json& j) {
  if (!j.contains("token")) throw ApiError(401, "'token' is missing: a seat's token (or the table's watching token)");
  return str_field(j, "token");
}

// A body holds only the fields its route takes: a mistyped one ("verison")
// is refused by name, not dropped with what it asked for.
void only_fields(const json& j, std::initializer_list<const char*> known) {
  for (const auto& [k, v] : j.items())
    if (std::none_of(known.begin(), known.end(), [&](const char* x) { return k == x; }))
      throw ApiError(
          400, fmt::format("'{}' is not a field of this request; it takes: {}", shown_text(k), fmt::join(known, ", ")));
}

// A move's optional "version": the table's version the move was decided at.
std::optional<int64_t> move_version(const json& j) {
  if (!j.contains("version")) return std::nullopt;
  if (!j["version"].is_number_integer() || j["version"].get<int64_t>() < 0)
    throw ApiError(400, "'version' must be the table's version the move was decided at (a whole number from 0)");
  return j["version"].get<int64_t>();
}

HttpResponse ok(const json& j, int status = 200) {
  return {status, "application/json", j.dump(-1, ' ', false, json::error_handler_t::replace), {}};
}

// The media type of a Content-Type header, lower case, without parameters.
std::string media_type(std::string_view ct) {
  std::string out;
  for (char c : ct.substr(0, ct.find(';'))) {
    if (c == ' ' || c == '\t') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

HttpResponse too_many(int retry_after, const char* what, const std::string& limit) {
  HttpResponse r = error_response(
      429, fmt::format("too many {} from your address ({}): try again in {} s", what, limit, retry_after));
  r.headers.emplace_back("Retry-After", std::to_string(retry_after));
  return r;
}
}  // namespace

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

json parse_json_object(std::string_view text, const char* what) {
  try {
    check_json_depth(text);
  } catch (const Error& e) {
    throw ApiError(400, fmt::format("{} is refused: {}", what, e.what()));
  }
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) throw ApiError(400, fmt::format("{} is not valid JSON", what));
  if (!j.is_object()) throw ApiError(400, fmt::format("{} must be a JSON object", what));
  return j;
}

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed) {
  if (origin.empty()) return true;  // not a browser: nothing to forge
  for (const auto& a : allowed)
    if (a == origin) return true;
  if (host.empty()) return false;
  return origin == fmt::format("http://{}", host) || origin == fmt::format("https://{}", host);
}

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

namespace {
// What a route's handler is given: the request, its path's segments
// ("api", ...) and query, and the Hub.
struct Call {
  Hub& hub;
  const Request& req;
  const Target& target;
  const std::vector<std::string>& seg;
  std::string query(const char* k) const {
    auto it = target.query.find(k);
    return it == target.query.end() ? std::string() : it->second;
  }
  // The body, holding only the fields its route takes (only_fields).
  json body(std::initializer_list<const char*> fields) const {
    json b = parse_body(req.body);
    only_fields(b, fields);
    return b;
  }
  const std::string& id() const { return seg[2]; }  // /api/tables/{id}/..., /api/players/{id}
  // The costly requests are counted per address (fair shares).
  std::optional<HttpResponse> spend(Cost c, double cost = 1) const {
    if (!req.limits) return std::nullopt;
    if (const int wait = req.limits->take(req.client, c, cost))
      return too_many(wait,
                      c == Cost::create   ? "new tables"
                      : c == Cost::player ? "new players or logins"
                                          : "hints, reviews or replays",
                      req.limits->limit_text(c));
    return std::nullopt;
  }
};

// One route: its method, its path under /api ("{}" matches any one
// segment), whether it thinks for a while (then the network layer runs it
// on the slow pool, off the network threads), its handler, and whether it
// hashes a password (then it runs on the bounded password pool).
struct Route {
  std::string_view method;
  std::vector<std::string_view> path;
  bool slow;
  HttpResponse (*handle)(const Call&);
  bool hashes = false;
};

std::optional<int> number_query(const Call& c, const char* k, int lo, int hi) {
  const std::string v = c.query(k);
  if (v.empty()) return std::nullopt;
  int x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi)
    throw ApiError(400, fmt::format("'{}' must be a whole number from {} to {}, not '{}'", k, lo, hi, v.substr(0, 40)));
  return x;
}

// POST .../join and .../entropy: a seat joins, with its entropy if any.
HttpResponse join_route(const Call& c) {
  const json b = c.body({"token", "entropy", "key", "name"});
  std::optional<std::string> entropy;
  if (b.contains("entropy")) entropy = str_field(b, "entropy");
  return ok(c.hub.join(c.id(), token_field(b), entropy, b, c.req.client));
}

// Every route of the API, each declared once (docs/server.md).
const std::vector<Route>& routes() {
  static const std::vector<Route> all{
      {"GET",
       {"health"},
       false,
       [](const Call& c) {
         json h = c.hub.health();  // 503 while the storage fails: a load balancer's signal
         if (c.req.limits) h["connections"] = c.req.limits->connections();
         if (c.req.passwords)
           h["password_checks"] = {{"running", c.req.passwords->in_flight.load()},
                                   {"limit", c.req.passwords->capacity}};
         return ok(h, h.value("ok", false) ? 200 : 503);
       }},
      // Every registered game and preset with its options (the values the
      // preset sets) and each option's catalogue of values: the lobby's menu.
      {"GET",
       {"games"},
       false,
       [](const Call&) {
         static const json cached = [] {
           json all = json::array();
           for (const auto& g : games()) {
             const json d = g.describe();
             all.push_back({{"name", g.name},
                            {"family", g.family},
                            {"summary", g.summary},
                            {"sources", g.sources},
                            {"options", d.value("options", json::object())},
                            {"catalogue", d.value("catalogue", json::object())},
                            {"seats", g.make({}, 0)->num_seats()}});
           }
           return json{{"games", all}, {"bot_levels", {"beginner", "casual", "strong", "expert"}}};
         }();
         return ok(cached);
       }},
      // Quick match: POST to wait, GET ?key=K to see, DELETE to leave.
      {"POST",
       {"quickmatch"},
       false,
       [](const Call& c) {
         const json b = c.body({"key", "game", "options", "level", "rated", "with"});
         if (auto r = c.spend(Cost::create)) return *r;
         return ok(c.hub.quickmatch_join(b, c.req.client));
       }},
      {"GET",
       {"quickmatch"},
       false,
       [](const Call& c) {
         return ok(c.hub.quickmatch_status(json{{"key", c.query("key")}}));
       }},
      {"DELETE",
       {"quickmatch"},
       false,
       [](const Call& c) {
         return ok(c.hub.quickmatch_leave(json{{"key", c.query("key")}}));
       }},
      {"GET", {"leaderboard"}, false, [](const Call& c) { return ok(c.hub.leaderboard(c.query("game"))); }},
      // local=1: this node's own tables (what the other nodes poll: peer_lobby.h).
      {"GET", {"lobby"}, false, [](const Call& c) { return ok(c.hub.lobby(c.query("local") == "1")); }},
      {"GET", {"watch"}, false, [](const Call& c) { return ok(c.hub.watch()); }},
      // Social (social.h): follows, blocks, reports, challenges; every one
      // with the player's key.
      {"GET", {"social"}, false, [](const Call& c) { return ok(c.hub.social_mine(c.query("key"))); }},
      {"POST",
       {"social", "follow"},
       false,
       [](const Call& c) {
         return ok(c.hub.social().follow(c.body({"key", "player", "on"})));
       }},
      {"POST",
       {"social", "block"},
       false,
       [](const Call& c) {
         return ok(c.hub.social().block(c.body({"key", "player", "on"})));
       }},
      {"POST",
       {"reports"},
       false,
       [](const Call& c) {
         return ok(c.hub.social().report(c.body({"key", "player", "reason", "text", "table"}), c.req.client), 201);
       }},
      {"POST",
       {"operator", "reports"},
       false,
       [](const Call& c) { return ok(c.hub.social().reports(c.body({"token"}))); }},
      {"POST",
       {"challenges"},
       false,
       [](const Call& c) {
         return ok(c.hub.social().challenge(c.body({"key", "player", "kind", "game", "options", "level", "rated"})),
                   201);
       }},
      // Accepting a game's challenge makes a table: counted as one.
      {"POST",
       {"challenges", "{}", "accept"},
       false,
       [](const Call& c) {
         const json b = c.body({"key"});
         if (auto r = c.spend(Cost::create)) return *r;
         return ok(c.hub.social().accept(c.seg[2], b, c.req.client));
       }},
      {"POST",
       {"challenges", "{}", "decline"},
       false,
       [](const Call& c) { return ok(c.hub.social().decline(c.seg[2], c.body({"key"}))); }},
      // A record file the app was given (dropped on the lobby): its steps.
      // A replay's later pages cost a tenth: the app fetches every page of a game.
      {"POST",
       {"replay"},
       true,
       [](const Call& c) {
         const size_t from = replay_page_from(c.query("from"));
         if (auto r = c.spend(Cost::think, from == 0 ? 1 : 0.1)) return *r;
         return ok(replay_steps(parse_record_text(c.req.body), from));
       }},
      // Players (docs/server.md, "Players"): made and logged into at a
      // per-address rate; anyone may look one up by id.
      {"POST",
       {"players"},
       false,
       [](const Call& c) {
         const json b = c.body({"name", "password"});
         if (auto r = c.spend(Cost::player)) return *r;
         // New players per address over hours, not seconds (fair play).
         if (c.req.limits)
           if (const int wait = c.req.limits->take(c.req.client, Cost::new_player))
             throw RateLimited(wait, fmt::format("too many new players from your address ({}): try again in {} min, "
                                                 "or keep playing as the player you have",
                                                 c.req.limits->limit_text(Cost::new_player), (wait + 59) / 60));
         return ok(c.hub.create_player(b), 201);
       },
       true},
      {"POST",
       {"players", "login"},
       false,
       [](const Call& c) {
         const json b = c.body({"name", "password"});
         if (auto r = c.spend(Cost::player)) return *r;
         // Guesses at one name are counted across every address too (its
         // compared form: "Ann" and "ANN" are one name).
         if (c.req.limits && b.contains("name") && b["name"].is_string()) {
           const std::string name = b["name"].get<std::string>().substr(0, 256);
           std::string key;
           try {
             key = name_key(check_name(name));
           } catch (const ApiError&) {
             key = name;  // not a name anybody has: counted all the same
           }
           if (const int wait = c.req.limits->take(login_name_key(key), Cost::login_name))
             throw RateLimited(wait, fmt::format("too many password attempts for this name ({}): try again in {} s "
                                                 "(a device where this player is signed in still works)",
                                                 c.req.limits->limit_text(Cost::login_name), wait));
         }
         return ok(c.hub.login(b));
       },
       true},
      {"GET", {"players", "{}"}, false, [](const Call& c) { return ok(c.hub.player(c.seg[2])); }},
      // Sign out everywhere: every key of the player ends; a new one for this device.
      {"POST",
       {"players", "{}", "signout"},
       false,
       [](const Call& c) {
         const json b = c.body({"key"});
         return ok(c.hub.sign_out_everywhere(c.seg[2], b));
       }},
      // Counted as a login: both hash a password.
      {"POST",
       {"players", "{}", "password"},
       false,
       [](const Call& c) {
         const json b = c.body({"key", "password", "sign_out_others"});
         if (auto r = c.spend(Cost::player)) return *r;
         return ok(c.hub.set_password(c.seg[2], b));
       },
       true},
      {"POST",
       {"tables"},
       false,
       [](const Call& c) {
         const json b =
             c.body({"game", "options", "seats", "public", "key", "key_seat", "bot_delay_ms", "drop_delay_ms",
                     "expire_s", "takeover_level", "seed", "rated", "listed", "clock_s", "bank_s"});
         if (auto r = c.spend(Cost::create)) return *r;
         return ok(c.hub.create(b, c.req.client), 201);
       }},
      {"GET", {"tables", "{}"}, false, [](const Call& c) { return ok(c.hub.get(c.id(), c.query("token"))); }},
      {"POST",
       {"tables", "{}", "moves"},
       false,
       [](const Call& c) {
         const json b = c.body({"token", "move", "version"});
         return ok(c.hub.move(c.id(), token_field(b), str_field(b, "move"), move_version(b)));
       }},
      // A free seat of a public table, from the lobby: counted as a new
      // table is, so one address cannot take every seat in sight. A player
      // key is counted on its own too: one person cannot take seats faster
      // from many addresses.
      {"POST",
       {"tables", "{}", "sit"},
       false,
       [](const Call& c) {
         const json b = c.body({"seat", "key", "name"});
         if (auto r = c.spend(Cost::create)) return *r;
         if (c.req.limits && b.contains("key") && b["key"].is_string())
           if (const int wait =
                   c.req.limits->take(player_limit_key(b["key"].get<std::string>().substr(0, 128)), Cost::sit_player))
             throw RateLimited(wait, fmt::format("too many seats taken by this player ({}): try again in {} s",
                                                 c.req.limits->limit_text(Cost::sit_player), wait));
         return ok(c.hub.sit(c.id(), b, c.req.client), 201);
       }},
      // An invitation link opened: a new token for its seat (Hub::claim),
      // counted as a new table is (each one is a write).
      {"POST",
       {"tables", "{}", "claim"},
       false,
       [](const Call& c) {
         const json b = c.body({"token"});
         if (auto r = c.spend(Cost::create)) return *r;
         return ok(c.hub.claim(c.id(), token_field(b)));
       }},
      {"POST", {"tables", "{}", "join"}, false, [](const Call& c) { return join_route(c); }},
      {"POST", {"tables", "{}", "entropy"}, false, [](const Call& c) { return join_route(c); }},
      {"POST",
       {"tables", "{}", "rematch"},
       false,
       [](const Call& c) {
         const json b = c.body({"token", "accept"});
         const std::string token = token_field(b);
         bool accept = true;
         if (b.contains("accept")) {
           if (!b["accept"].is_boolean()) throw ApiError(400, "'accept' must be true (accept) or false (decline)");
           accept = b["accept"].get<bool>();
         }
         if (auto r = c.spend(Cost::create)) return *r;
         return ok(c.hub.rematch(c.id(), token, c.req.client, accept));
       }},
      {"POST",
       {"tables", "{}", "abort"},
       false,
       [](const Call& c) {
         const json b = c.body({"token"});
         return ok(c.hub.abort(c.id(), token_field(b)));
       }},
      // Checked first (a bad line costs nothing), then counted per address
      // and per token (docs/server.md, "Chat").
      {"POST",
       {"tables", "{}", "chat"},
       false,
       [](const Call& c) {
         const json b = c.body({"token", "text", "phrase", "emote"});
         return ok(say_chat(c.hub, c.id(), token_field(b), b, c.req.limits, c.req.client));
       }},
      {"GET", {"tables", "{}", "record"}, false, [](const Call& c) { return ok(c.hub.record(c.id())); }},
      // A hint thinks for a bot's budget; a review solves each decision; a
      // replay builds every step's view: the slow pool's.
      {"GET",
       {"tables", "{}", "hint"},
       true,
       [](const Call& c) {
         if (auto r = c.spend(Cost::think)) return *r;
         return ok(c.hub.hint(c.id(), c.query("token")));
       }},
      {"GET",
       {"tables", "{}", "review"},
       true,
       [](const Call& c) {
         const int hand = number_query(c, "hand", 1, 1000000).value_or(0);
         const auto seat = number_query(c, "seat", 0, 255);
         if (auto r = c.spend(Cost::think)) return *r;
         return ok(c.hub.review(c.id(), c.query("token"), hand, seat));
       }},
      {"GET",
       {"tables", "{}", "replay"},
       true,
       [](const Call& c) {
         const size_t from = replay_page_from(c.query("from"));
         if (auto r = c.spend(Cost::think, from == 0 ? 1 : 0.1)) return *r;
         return ok(c.hub.replay(c.id(), from));
       }},
      {"GET", {"tables", "{}", "fairness"}, false, [](const Call& c) { return ok(c.hub.fairness(c.id())); }},
  };
  return all;
}

// The routes whose path matches `seg` (["api", ...]), the most literal ones
// only: /api/players/login is never taken for a player's id.
std::vector<const Route*> routes_for(const std::vector<std::string>& seg) {
  std::vector<const Route*> best;
  int best_literal = -1;
  for (const Route& r : routes()) {
    if (r.path.size() + 1 != seg.size()) continue;
    int literal = 0;
    bool match = true;
    for (size_t i = 0; i < r.path.size() && match; ++i) {
      if (r.path[i] == "{}") continue;
      match = r.path[i] == seg[i + 1];
      ++literal;
    }
    if (!match || literal < best_literal) continue;
    if (literal > best_literal) best.clear();
    best_literal = literal;
    best.push_back(&r);
  }
  return best;
}

// A 405, with the methods the path takes for the Allow header.
struct NotAllowed : ApiError {
  std::string allow;
  NotAllowed(const std::string& words, std::string a)
      : ApiError(405, "method not allowed: use " + words), allow(std::move(a)) {}
};

// The route for a method on a path, or a 405 naming the methods it takes.
const Route* route_for(std::string_view method, const std::vector<std::string>& seg) {
  const auto found = routes_for(seg);
  if (found.empty()) return nullptr;
  std::string methods, allow;
  for (size_t i = 0; i < found.size(); ++i) {
    if (found[i]->method == method) return found[i];
    methods += (i == 0 ? "" : i + 1 == found.size() ? " or " : ", ") + std::string(found[i]->method);
    allow +=
        (i == 0 ? "" : ", ") + std::string(found[i]->method) + (found[i]->method == std::string("GET") ? ", HEAD" : "");
  }
  throw NotAllowed(methods, allow);
}
}  // namespace

namespace {
const Route* route_of(std::string_view method, std::string_view target) {
  try {
    const auto seg = segments(parse_target(target).path);
    if (seg.empty() || seg[0] != "api") return nullptr;
    return route_for(method == "HEAD" ? std::string_view("GET") : method, seg);
  } catch (const std::exception&) {
    return nullptr;  // a malformed request is answered at once
  }
}
}  // namespace

bool runs_slow(std::string_view method, std::string_view target) {
  const Route* r = route_of(method, target);
  return r && r->slow;
}

bool hashes_password(std::string_view method, std::string_view target) {
  const Route* r = route_of(method, target);
  return r && r->hashes;
}

HttpResponse handle_request(Hub& hub, const std::string& static_dir, const Request& req) {
  // HEAD is GET without the body (which the network layer drops).
  const std::string_view method = req.method == "HEAD" ? std::string_view("GET") : req.method;
  try {
    const Target t = parse_target(req.target);
    const auto seg = segments(t.path);
    if (seg.empty() || seg[0] != "api") {
      if (method != "GET") {
        HttpResponse r = error_response(405, "method not allowed: the app's files are read with GET");
        r.headers.emplace_back("Allow", "GET, HEAD");
        return r;
      }
      return serve_static(static_dir, t.path, req);
    }
    // A POST from another site's form or a text/plain fetch carries no
    // JSON content type: refused, so only same-origin scripts (or programs)
    // can act, and a browser must ask (CORS preflight) before sending it.
    if (method == "POST" && media_type(req.content_type) != "application/json")
      throw ApiError(415, "send the body as JSON with the header Content-Type: application/json");
    if (const Route* r = route_for(method, seg)) return r->handle(Call{hub, req, t, seg});
    return error_response(404, fmt::format("no such API route: {} {}", method, t.path.substr(0, 200)));
  } catch (const RateLimited& e) {
    HttpResponse r = error_response(429, e.what());
    r.headers.emplace_back("Retry-After", std::to_string(e.retry_after));
    return r;
  } catch (const NotAllowed& e) {
    HttpResponse r = error_response(405, e.what());
    r.headers.emplace_back("Allow", e.allow);
    return r;
  } catch (const ApiError& e) {
    return error_response(e.status, e.what());
  } catch (const Error& e) {
    return error_response(400, e.what());
  } catch (const std::exception& e) {
    return error_response(500, fmt::format("internal error: {}", e.what()));
  }
}

json say_chat(Hub& hub, const std::string& id, const std::string& token, const json& body, Limits* limits,
              const std::string& client) {
  parse_chat(body);
  if (limits) {
    if (const int wait = limits->take(client, Cost::chat))
      throw RateLimited(wait, fmt::format("too many chat lines from your address ({}): try again in {} s",
                                          limits->limit_text(Cost::chat), wait));
    if (const int wait = limits->take(chat_key(token), Cost::chat_token))
      throw RateLimited(wait, fmt::format("too many chat lines from this seat ({}): try again in {} s",
                                          limits->limit_text(Cost::chat_token), wait));
  }
  return hub.chat(id, token, body);
}

std::string handle_ws_message(Hub& hub, const std::string& table, const std::string& token, bool subscribed,
                              std::string_view text, Limits* limits, const std::string& client) {
  // A message's "id" (a short string or a whole number) comes back on its answer, error or not.
  json id;
  auto dump = [&id](json j) {
    if (!id.is_null()) j["id"] = id;
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
  };
  try {
    const json j = parse_json_object(text, "a message");
    if (j.contains("id")) {
      if (!(j["id"].is_number_integer() || (j["id"].is_string() && j["id"].get<std::string>().size() <= 64)))
        throw ApiError(400, "'id' must be a whole number or a string of at most 64 characters");
      id = j["id"];
    }
    if (!subscribed) throw ApiError(403, "not connected to a table");
    if (!j.contains("type")) {
      // Named, not guessed from the other fields: a misspelled field is named first.
      only_fields(j, {"type", "id", "move", "version", "entropy", "text", "phrase", "emote"});
      throw ApiError(400, "a message needs a 'type': move, entropy, chat, get or ping");
    }
    if (!j["type"].is_string()) throw ApiError(400, "'type' must be a string: move, entropy, chat, get or ping");
    const std::string type = j["type"].get<std::string>();
    // Each message holds only its type's fields, as a POST's body does.
    if (type == "move") only_fields(j, {"type", "id", "move", "version"});
    if (type == "entropy") only_fields(j, {"type", "id", "entropy"});
    if (type == "get" || type == "ping") only_fields(j, {"type", "id"});
    if (type == "chat") only_fields(j, {"type", "id", "text", "phrase", "emote"});
    if (type == "move") {
      const json m = hub.move(table, token, str_field(j, "move"), move_version(j));
      return dump({{"type", "ack"}, {"move", m["move"]}, {"version", m["move_version"]}});
    }
    if (type == "entropy") {
      hub.join(table, token, str_field(j, "entropy"));
      return dump({{"type", "ack"}, {"entropy", true}});
    }
    if (type == "get") return dump(hub.get(table, token));
    if (type == "ping") return dump({{"type", "pong"}});
    if (type == "chat") {
      // {"type": "chat", "text": ...} or {..., "phrase": ID}: as POST .../chat, by this connection's token.
      const json said = say_chat(hub, table, token, j, limits, client);
      return dump({{"type", "ack"}, {"chat", said["line"]}});
    }
    throw ApiError(400, "unknown message type: expected move, entropy, chat, get or ping");
  } catch (const RateLimited& e) {
    return dump({{"type", "error"},
                 {"status", e.status},
                 {"error", e.what()},
                 {"code", error_code(e.status)},
                 {"retry_after", e.retry_after}});
  } catch (const ApiError& e) {
    return dump({{"type", "error"}, {"status", e.status}, {"error", e.what()}, {"code", error_code(e.status)}});
  } catch (const std::exception& e) {
    return dump({{"type", "error"}, {"status", 400}, {"error", e.what()}, {"code", error_code(400)}});
  }
}

}  // namespace boneyard::server
