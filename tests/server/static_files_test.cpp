// The app's files (issue 34, 10): the gzip copy beside a file to a client
// that takes gzip, a hashed name kept a year, the rest asked again (no-cache)
// and answered 304 by its ETag while unchanged.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "routes_world.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;

std::string header(const server::HttpResponse& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return "";
}

struct StaticFiles : ::testing::Test {
  RoutesWorld w;
  fs::path dir = fs::temp_directory_path() / (std::string("boneyard-static-") + std::to_string(::getpid()) + "-" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override {
    fs::create_directories(dir);
    std::ofstream(dir / "index.html") << "<p>plain</p>";
    std::ofstream(dir / "index.html.gz") << "GZIPPED-INDEX";
    std::ofstream(dir / "app.0123456789ab.js") << "let x = 1;";
    std::ofstream(dir / "app.0123456789ab.js.gz") << "GZIPPED-APP";
    std::ofstream(dir / "favicon.svg") << "<svg/>";
  }
  void TearDown() override { fs::remove_all(dir); }
  server::HttpResponse get(const std::string& path, std::string_view ae = {}, std::string_view inm = {}) {
    server::Request rq{"GET", path, "", "", "", nullptr};
    rq.accept_encoding = ae;
    rq.if_none_match = inm;
    return server::handle_request(*w.hub, dir.string(), rq);
  }
};

// A mistyped page address gets the app, answered 404 (the app says there is
// no such page, with the way to the lobby); a missing file stays a plain 404.
TEST_F(StaticFiles, AMissingPageIsTheAppAnswered404AMissingFileIsNot) {
  const auto page = get("/nonexistent/page", {}, "*");
  EXPECT_EQ(page.status, 404);
  EXPECT_EQ(page.body, "<p>plain</p>");
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  const auto file = get("/app.ffffffffffff.js");
  EXPECT_EQ(file.status, 404);
  EXPECT_EQ(file.content_type, "application/json");
  EXPECT_EQ(get("/").status, 200);
}

TEST_F(StaticFiles, TheGzipCopyGoesOnlyToAClientThatTakesGzip) {
  for (const char* ae : {"gzip", "gzip, deflate, br", "br;q=1.0, GZIP;q=0.5", " deflate , gzip "}) {
    const auto r = get("/", ae);
    EXPECT_EQ(r.body, "GZIPPED-INDEX") << ae;
    EXPECT_EQ(header(r, "Content-Encoding"), "gzip") << ae;
    EXPECT_EQ(header(r, "Vary"), "Accept-Encoding") << ae;
    EXPECT_EQ(r.content_type, "text/html; charset=utf-8") << ae;  // the file's type, not the .gz's
  }
  for (const char* ae : {"", "identity", "deflate, br", "gzip;q=0", "gzip; q=0.000, identity", "x-gzip2"}) {
    const auto r = get("/", ae);
    EXPECT_EQ(r.body, "<p>plain</p>") << ae;
    EXPECT_EQ(header(r, "Content-Encoding"), "") << ae;
    EXPECT_EQ(header(r, "Vary"), "Accept-Encoding") << ae;
  }
  // No copy beside it: the file as it is, whatever is accepted.
  const auto svg = get("/favicon.svg", "gzip");
  EXPECT_EQ(svg.body, "<svg/>");
  EXPECT_EQ(header(svg, "Content-Encoding"), "");
  EXPECT_EQ(header(svg, "Vary"), "");
}

TEST_F(StaticFiles, AHashedNameIsKeptAYearTheRestIsAskedAgain) {
  for (const char* ae : {"", "gzip"}) {
    EXPECT_EQ(header(get("/app.0123456789ab.js", ae), "Cache-Control"), "public, max-age=31536000, immutable") << ae;
    EXPECT_EQ(header(get("/", ae), "Cache-Control"), "no-cache") << ae;
    EXPECT_EQ(header(get("/index.html", ae), "Cache-Control"), "no-cache") << ae;
  }
  EXPECT_EQ(header(get("/favicon.svg"), "Cache-Control"), "no-cache");
}

TEST_F(StaticFiles, AnUnchangedFileIsAnswered304ByItsETag) {
  const auto plain = get("/"), zipped = get("/", "gzip");
  const std::string etag = header(plain, "ETag");
  ASSERT_FALSE(etag.empty());
  EXPECT_NE(etag, header(zipped, "ETag"));  // two encodings, two representations
  const auto again = get("/", "", etag);
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(again.body, "");
  EXPECT_EQ(get("/", "gzip", header(zipped, "ETag")).status, 304);
  EXPECT_EQ(get("/", "", "\"other\"").status, 200);
  // Changed since: the old tag no longer matches.
  std::ofstream(dir / "index.html") << "<p>a new build, longer</p>";
  const auto changed = get("/", "", etag);
  EXPECT_EQ(changed.status, 200);
  EXPECT_EQ(changed.body, "<p>a new build, longer</p>");
}

}  // namespace
}  // namespace boneyard::test
