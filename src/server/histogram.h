#pragma once
// A latency histogram of fixed size (serve-bench): buckets 1/16 of a power
// of two wide (about 4.4%), so millions of samples cost a few KiB, not the
// hundreds of MiB their values would (that memory was the server's RSS).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace boneyard::server {

class Histogram {
 public:
  void add(double us) {
    const int i = us < 1 ? 0 : std::min(kBuckets - 1, static_cast<int>(std::log2(us) * 16) + 1);
    ++counts_[static_cast<size_t>(i)];
    ++n_;
    max_ = std::max(max_, us);
  }
  uint64_t count() const { return n_; }
  double max() const { return max_; }
  // The q-quantile (0..1), as its bucket's upper edge, in the unit added.
  double quantile(double q) const {
    if (n_ == 0) return 0;
    const auto want = static_cast<uint64_t>(std::ceil(q * static_cast<double>(n_)));
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
      seen += counts_[static_cast<size_t>(i)];
      if (seen >= std::max<uint64_t>(want, 1)) return std::min(max_, i == 0 ? 1.0 : std::exp2(i / 16.0));
    }
    return max_;
  }

 private:
  static constexpr int kBuckets = 16 * 40;
  std::array<uint64_t, kBuckets> counts_{};
  uint64_t n_ = 0;
  double max_ = 0;
};

}  // namespace boneyard::server
