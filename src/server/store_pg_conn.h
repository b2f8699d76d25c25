#pragma once
// Inside the PostgreSQL store (store_pg.h), shared by its files: a
// statement's result, the pooled read, parameters as text.
#include <fmt/format.h>
#include <libpq-fe.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.h"
#include "server/store_pg.h"

namespace boneyard::server {

inline std::string pg_num(double v) { return fmt::format("{}", v); }
inline std::string pg_num(int64_t v) { return std::to_string(v); }
// A text[] parameter: each element quoted, its quotes and backslashes escaped.
inline std::string pg_text_array(const std::vector<std::string>& items) {
  std::string out = "{";
  for (const auto& item : items) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char ch : item) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    out += '"';
  }
  return out + "}";
}

class PgStore::Result {
 public:
  explicit Result(PGresult* r = nullptr) : r_(r) {}
  Result(Result&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  Result& operator=(Result&& o) noexcept {
    std::swap(r_, o.r_);
    return *this;
  }
  ~Result() { PQclear(r_); }
  PGresult* r() const { return r_; }
  int rows() const { return PQntuples(r_); }
  std::string text(int row, int col) const {
    return std::string(PQgetvalue(r_, row, col), static_cast<size_t>(PQgetlength(r_, row, col)));
  }
  int64_t i64(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }
  double f64(int row, int col) const { return std::strtod(PQgetvalue(r_, row, col), nullptr); }

 private:
  PGresult* r_;
};

// A read on a pooled connection; once more on a fresh one when the
// connection was broken (PostgreSQL restarted since its last use).
template <class F>
auto PgStore::read(F&& f) {
  for (int attempt = 0;; ++attempt) {
    auto c = take();
    try {
      auto out = f(*c);
      give(std::move(c));
      return out;
    } catch (const Error&) {
      if (PQstatus(c->pg) == CONNECTION_OK) {
        give(std::move(c));
        throw;
      }
      // PostgreSQL went away since this connection's last use: so did its
      // idle siblings'. Once more, on a fresh connection.
      {
        std::lock_guard lk(pool_m_);
        idle_.clear();
      }
      give(nullptr);
      if (attempt > 0) throw;
    }
  }
}

}  // namespace boneyard::server
