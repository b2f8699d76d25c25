#pragma once
// SQLite storage (docs/server.md, "Storage"): a table is its record. One row
// per table (its spec, fixed at creation, and its meta: who joined, the
// entropies, whether it started and its derived seed) and one row per event,
// in order. WAL journal; every write is its own transaction, committed
// before the server acknowledges or broadcasts anything.
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/session.h"

struct sqlite3;

namespace boneyard::server {

struct StoredTable {
  std::string id;
  nlohmann::json spec;
  nlohmann::json meta;
  std::vector<RecordEvent> events;
};

class Storage {
 public:
  // full_sync: synchronous=FULL (survives power loss); otherwise NORMAL
  // (with WAL: survives any crash of the process, SIGKILL included).
  explicit Storage(const std::string& path, bool full_sync = true);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void create_table(const std::string& id, const nlohmann::json& spec, const nlohmann::json& meta);
  void update_meta(const std::string& id, const nlohmann::json& meta);
  // Event number idx of table id; a duplicate idx is refused (throws).
  void append_event(const std::string& id, size_t idx, const RecordEvent& e);
  std::vector<StoredTable> load_all();
  std::vector<RecordEvent> load_events(const std::string& id);

 private:
  void exec(const char* sql);
  std::mutex m_;
  sqlite3* db_ = nullptr;
};

}  // namespace boneyard::server
