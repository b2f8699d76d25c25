// The table of routes (http_routes.cpp): each route is declared once, with
// whether it thinks for a while; the network layer's slow pool and the
// routing read the same table, and a path's methods come from it too.
#include <gtest/gtest.h>

#include "routes_world.h"
#include "server/http_routes.h"

namespace boneyard::test {
namespace {

TEST(Routes, TheSlowPoolTakesTheRoutesThatThinkAndNothingElse) {
  for (const char* t : {"/api/tables/abc/hint?token=x", "/api/tables/abc/review?hand=1", "/api/tables/abc/replay"})
    EXPECT_TRUE(server::runs_slow("GET", t)) << t;
  EXPECT_TRUE(server::runs_slow("HEAD", "/api/tables/abc/hint"));
  EXPECT_TRUE(server::runs_slow("POST", "/api/replay?from=0"));
  for (const char* t : {"/api/tables/abc", "/api/health", "/api/lobby", "/", "/replay", "/api/tables/abc/moves"})
    EXPECT_FALSE(server::runs_slow("GET", t)) << t;
  EXPECT_FALSE(server::runs_slow("POST", "/api/tables/abc/hint")) << "a wrong method is answered at once (405)";
  EXPECT_FALSE(server::runs_slow("GET", "/api/tables/%zz/hint")) << "a malformed target is answered at once (400)";
}

TEST(Routes, APathsMethodsComeFromItsRoutes) {
  RoutesWorld w;
  auto [s1, j1] = w.get("/api/tables/abc/moves");
  EXPECT_EQ(s1, 405);
  EXPECT_EQ(j1["error"], "method not allowed: use POST");
  auto r = server::handle_request(*w.hub, "", "PUT", "/api/quickmatch", "");
  EXPECT_EQ(r.status, 405);
  EXPECT_NE(r.body.find("use POST, GET or DELETE"), std::string::npos) << r.body;
  // The Allow header says the same to a program (HEAD wherever GET is).
  auto allow = [](const server::HttpResponse& x) {
    for (const auto& [k, v] : x.headers)
      if (k == "Allow") return v;
    return std::string("(none)");
  };
  EXPECT_EQ(allow(r), "POST, GET, HEAD, DELETE");
  EXPECT_EQ(allow(server::handle_request(*w.hub, "", "POST", "/index.html", "")), "GET, HEAD");
  // A literal segment wins over a player's id: login is POST only.
  auto [s2, j2] = w.get("/api/players/login");
  EXPECT_EQ(s2, 405) << j2.dump();
  auto [s3, j3] = w.get("/api/tables/abc/nothing");
  EXPECT_EQ(s3, 404);
  EXPECT_EQ(j3["error"], "no such API route: GET /api/tables/abc/nothing");
}

}  // namespace
}  // namespace boneyard::test
