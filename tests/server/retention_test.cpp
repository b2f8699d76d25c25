// Retention (docs/server.md, "Retention"): finished tables leave memory and
// load on demand, tables nobody joined expire, drop timers are released when
// the player returns, max_tables counts live tables, a replay answer is one
// page. Through the Hub and the routing, on a database file.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <thread>

#include "core/game.h"
#include "server/http_routes.h"
#include "server/replay.h"
#include "server/storage.h"
#include "server/tables.h"
#include "test_store.h"

namespace boneyard {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace std::chrono_literals;

struct Null : server::Subscriber {
  void push(std::shared_ptr<const std::string>) override {}
};

template <class F>
bool eventually(F f, std::chrono::seconds limit = 60s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (f()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return f();
}

class Retention : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { register_all_games(); }
  void SetUp() override {
    static int n = 0;
    dir_ = fs::temp_directory_path() / fmt::format("boneyard-retention-{}-{}", getpid(), n++);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    io_ = std::thread([this] { ioc_.run(); });
  }
  void TearDown() override {
    stop();
    work_.reset();
    ioc_.stop();
    io_.join();
    fs::remove_all(dir_);
  }
  void start(std::function<void(server::HubConfig&)> tweak = {}) {
    db_ = std::make_unique<server::Storage>(test::test_db((dir_ / "r.db").string()), false);
    server::HubConfig cfg;
    cfg.bot_threads = 2;
    if (tweak) tweak(cfg);
    hub_ = std::make_unique<server::Hub>(*db_, ioc_, cfg);
  }
  void stop() {
    hub_.reset();
    db_.reset();
  }
  json bots_table() {
    return hub_->create({{"game", "latin"},
                         {"seats", {"bot:casual", "bot:beginner", "bot:casual", "bot:beginner"}},
                         {"bot_delay_ms", 0}});
  }
  bool over(const json& t) { return hub_->get(t["id"], t["spectate"])["status"] == "over"; }
  std::pair<int, json> route(const std::string& method, const std::string& target, const std::string& body = "") {
    auto r = server::handle_request(*hub_, "", method, target, body);
    return {r.status, json::parse(r.body, nullptr, false)};
  }
  fs::path dir_;
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ = boost::asio::make_work_guard(ioc_);
  std::thread io_;
  std::unique_ptr<server::Storage> db_;
  std::unique_ptr<server::Hub> hub_;
};

TEST_F(Retention, FinishedTablesLeaveMemoryAndLoadOnDemand) {
  start([](server::HubConfig& c) {
    c.finished_cache = 0;
    c.max_tables = 2;
  });
  const size_t base = server::Table::alive();
  const json a = bots_table(), b = bots_table();
  ASSERT_TRUE(eventually([&] { return hub_->health()["tables"] == 0; })) << hub_->health().dump();
  // The last reference (a broadcast finishing on its pool) goes a moment after.
  EXPECT_TRUE(eventually([&] { return server::Table::alive() == base; }, 10s))
      << "a finished table stayed in memory: " << server::Table::alive() - base;
  // max_tables counts live tables: creation goes on.
  const json c = bots_table();
  ASSERT_TRUE(eventually([&] { return hub_->health()["tables"] == 0; }));
  // Loaded from the database for the state, the record, the fairness and the replay.
  for (const json& t : {a, b, c}) {
    const json st = hub_->get(t["id"], t["spectate"]);
    EXPECT_EQ(st["status"], "over");
    EXPECT_TRUE(st.contains("secret"));
    EXPECT_EQ(hub_->record(t["id"])["table"], t["id"]);
    EXPECT_EQ(hub_->fairness(t["id"])["over"], true);
    EXPECT_GT(hub_->replay(t["id"])["total_steps"].get<int>(), 1);
  }
  // A restart loads no finished table (they are in the database only).
  stop();
  start([](server::HubConfig& c) { c.finished_cache = 0; });
  EXPECT_EQ(hub_->health()["tables"], 0);
  EXPECT_EQ(hub_->get(a["id"], a["spectate"])["status"], "over");
  EXPECT_THROW(hub_->get("0123456789abcdef", "x"), server::ApiError);
}

TEST_F(Retention, TablesNobodyJoinedExpireFromMemoryAndTheDatabase) {
  start();
  const json t = hub_->create(
      {{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}, {"expire_s", 1}});
  const json keep = hub_->create({{"game", "latin"}, {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}}});
  EXPECT_EQ(hub_->health()["tables"], 2);
  auto [status, err] = route("POST", "/api/tables",
                             R"({"game": "latin", "seats": ["human", "human", "human", "human"], "expire_s": 0})");
  EXPECT_EQ(status, 400) << err.dump();
  ASSERT_TRUE(eventually([&] { return hub_->health()["tables"] == 1; }, 30s)) << "the unjoined table did not expire";
  EXPECT_THROW(hub_->get(t["id"], t["tokens"]["0"]), server::ApiError);
  EXPECT_EQ(hub_->get(keep["id"], keep["tokens"]["0"])["status"], "waiting");
  stop();
  start();
  EXPECT_EQ(hub_->health()["tables"], 1) << "the expired table came back after a restart";
}

TEST_F(Retention, ADropTimerIsReleasedWhenThePlayerReturns) {
  start([](server::HubConfig& c) { c.finished_cache = 0; });
  const size_t base = server::Table::alive();
  const json t = hub_->create({{"game", "latin"},
                               {"seats", {"human", "bot:casual", "bot:casual", "bot:casual"}},
                               {"bot_delay_ms", 0},
                               {"drop_delay_ms", 3600000}});
  const std::string id = t["id"], tok = t["tokens"]["0"];
  auto sub = std::make_shared<Null>();
  int seat = hub_->subscribe(id, tok, std::nullopt, sub);
  hub_->unsubscribe(id, seat, sub.get());              // an hour's timer holds the table ...
  seat = hub_->subscribe(id, tok, std::nullopt, sub);  // ... until the player is back
  // Play the game out as the person.
  ASSERT_TRUE(eventually([&] {
    const json v = hub_->get(id, tok);
    if (v["status"] == "over") return true;
    if (v["to_act"] == true) hub_->move(id, tok, v["legal"][0]);
    return false;
  }));
  hub_->unsubscribe(id, seat, sub.get());
  EXPECT_TRUE(eventually([&] { return server::Table::alive() == base; }, 10s))
      << "the finished table is still held: " << server::Table::alive() - base;
}

TEST_F(Retention, AReplayAnswerIsOnePage) {
  start();
  // A fixed seed and a long match: a random deal once ended a 300-point match
  // in 178 steps, under one page.
  const json t = hub_->create({{"game", "latin"},
                               {"options", {{"target", "1000"}}},
                               {"seed", 1},
                               {"seats", {"bot:beginner", "bot:beginner", "bot:beginner", "bot:beginner"}},
                               {"bot_delay_ms", 0}});
  ASSERT_TRUE(eventually([&] { return over(t); }));
  const std::string id = t["id"];
  auto [status, first] = route("GET", fmt::format("/api/tables/{}/replay", id));
  ASSERT_EQ(status, 200) << first.dump().substr(0, 300);
  const size_t total = first["total_steps"];
  ASSERT_GT(total, server::kReplayPage) << "the game is too short to need pages";
  EXPECT_EQ(first["steps"].size(), server::kReplayPage);
  // The pages, followed by "next", make the whole game once.
  size_t steps = first["steps"].size();
  json next = first["next"];
  int pages = 1;
  while (!next.is_null()) {
    auto [s, page] = route("GET", fmt::format("/api/tables/{}/replay?from={}", id, next.get<size_t>()));
    ASSERT_EQ(s, 200);
    EXPECT_LE(page["steps"].size(), server::kReplayPage);
    steps += page["steps"].size();
    next = page["next"];
    ASSERT_LT(++pages, 1000);
  }
  EXPECT_EQ(steps, total);
  EXPECT_EQ(route("GET", fmt::format("/api/tables/{}/replay?from=x", id)).first, 400);
  // A posted record is paged the same way.
  const json rec = hub_->record(id);
  auto [ps, posted] = route("POST", "/api/replay?from=0", rec.dump());
  ASSERT_EQ(ps, 200);
  EXPECT_EQ(posted["steps"].size(), server::kReplayPage);
  EXPECT_EQ(posted["total_steps"], total);
}

}  // namespace
}  // namespace boneyard
