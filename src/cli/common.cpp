#include "cli/common.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace boneyard::cli {

OptionList parse_options(const std::vector<std::string>& kv) {
  OptionList out;
  for (const auto& s : kv) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(fmt::format("bad --option '{}': expected key=value, e.g. --option target=100", s));
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

uint64_t mix_seed(uint64_t base, uint64_t k) {
  uint64_t z = base + 0x9e3779b97f4a7c15ULL * (k + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) & ((uint64_t{1} << 53) - 1);  // stays exact in JSON readers
}

uint64_t default_seed() {
  return mix_seed(static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()), 0) % 1000000000;
}

MeanCI mean_ci(double sum, double sum_sq, double n) {
  if (n <= 0) return {};
  const double mean = sum / n;
  const double var = n > 1 ? std::max(0.0, (sum_sq - n * mean * mean) / (n - 1)) : 0.0;
  return {mean, 1.96 * std::sqrt(var / n)};
}

static double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Progress::Progress(std::string label, uint64_t total)
    : label_(std::move(label)), total_(total), tty_(isatty(STDERR_FILENO)), start_(now_s()) {}

void Progress::update(uint64_t done) {
  if (!tty_ || total_ == 0) return;
  const double frac = static_cast<double>(done) / static_cast<double>(total_);
  const int width = 30;
  const int fill = static_cast<int>(frac * width);
  const double el = now_s() - start_;
  const double eta = done ? el / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
  std::fprintf(stderr, "\r%s [%s%s] %llu/%llu  %.0fs left ", label_.c_str(), std::string(static_cast<size_t>(fill), '#').c_str(),
               std::string(static_cast<size_t>(width - fill), '.').c_str(), static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(total_), eta);
  std::fflush(stderr);
}

void Progress::finish() {
  if (tty_) std::fprintf(stderr, "\r%*s\r", 80, "");
}

}  // namespace boneyard::cli
