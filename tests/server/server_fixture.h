#pragma once
// A real server on a free port with a database of its own, for the tests
// that talk to it over sockets (lobby, quick match, ratings): the config
// they start from, starting and restarting it, and the tidy end.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "client.h"
#include "core/game.h"
#include "server/net.h"
#include "test_store.h"

namespace boneyard::test {

class ServerFixture : public ::testing::Test {
 protected:
  explicit ServerFixture(std::string tag) : tag_(std::move(tag)) {}
  static void SetUpTestSuite() { register_all_games(); }
  void SetUp() override { dir_ = temp_dir("boneyard-" + tag_, "t"); }
  void TearDown() override {
    srv_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  // Port 0 (a free one), the test's database without fsync, two bot
  // threads, and room for every request: they all come from one address.
  server::ServerConfig config() const {
    server::ServerConfig c;
    c.port = 0;
    c.db = test_db((dir_ / "test.db").string());
    c.full_sync = false;
    c.hub.bot_threads = 2;
    c.limits.player.burst = 100;
    c.limits.new_player.burst = 1000;
    c.hub.max_tables_per_client = 0;  // every request comes from one address
    c.limits.create.burst = 1000;
    return c;
  }
  void serve(const server::ServerConfig& c) {
    srv_.reset();  // one server per database
    srv_ = std::make_unique<server::Server>(c);
    srv_->start();
    port_ = srv_->port();
  }
  std::filesystem::path dir_;
  std::unique_ptr<server::Server> srv_;
  unsigned short port_ = 0;

 private:
  std::string tag_;
};

}  // namespace boneyard::test
