#pragma once
// The one random generator every game owns. xoshiro256** seeded through
// splitmix64, with our own bounded draw (Lemire's method with rejection), so
// a seed gives the same game with every compiler and standard library.
#include <cstdint>

namespace boneyard {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }

  void reseed(uint64_t seed) {
    for (auto& w : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      w = z ^ (z >> 31);
    }
  }

  // Always inlined: in the whole program's link-time optimisation GCC kept
  // below() out of line in the playout loop, 9% of a random latin hand
  // (docs/bots.md, "Speed").
  [[gnu::always_inline]] uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n >= 1.
  [[gnu::always_inline]] uint32_t below(uint32_t n) {
    uint64_t m = (next() >> 32) * n;
    auto low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = (0u - n) % n;
      while (low < threshold) {
        m = (next() >> 32) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  template <class T>
  void shuffle(T* first, int n) {
    for (int i = n - 1; i > 0; --i) {
      const int j = static_cast<int>(below(static_cast<uint32_t>(i + 1)));
      T tmp = first[i];
      first[i] = first[j];
      first[j] = tmp;
    }
  }

  bool operator==(const Rng&) const = default;

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4]{};
};

}  // namespace boneyard
