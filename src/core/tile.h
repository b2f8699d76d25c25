#pragma once
// Tiles, the five standard sets, and a bitset of tiles.
//
// A tile (a, b) with a >= b has the index a(a+1)/2 + b, so the double-N set
// is exactly the indices 0 .. (N+1)(N+2)/2 - 1 and every set up to
// double-eighteen (190 tiles) fits in a byte and in three 64-bit words.
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace boneyard {

inline constexpr int kMaxPip = 18;
inline constexpr int kMaxTiles = (kMaxPip + 1) * (kMaxPip + 2) / 2;  // 190

constexpr int set_size(int max_pip) { return (max_pip + 1) * (max_pip + 2) / 2; }

struct Tile {
  uint8_t index = 0;

  static constexpr Tile of(int a, int b) {
    if (a < b) std::swap(a, b);
    return Tile{static_cast<uint8_t>(a * (a + 1) / 2 + b)};
  }
  constexpr int high() const { return kHigh[index]; }
  constexpr int low() const { return index - kHigh[index] * (kHigh[index] + 1) / 2; }
  constexpr int pips() const { return high() + low(); }
  constexpr bool is_double() const { return high() == low(); }
  constexpr bool shows(int n) const { return (high() == n) | (low() == n); }  // no branch
  // The number at the other end when `n` is matched (n must show).
  // Arithmetic, not a branch: playouts call this on every placement.
  constexpr int other(int n) const { return pips() - n; }
  constexpr bool operator==(const Tile&) const = default;
  constexpr auto operator<=>(const Tile&) const = default;

 private:
  static constexpr std::array<uint8_t, kMaxTiles> kHigh = [] {
    std::array<uint8_t, kMaxTiles> h{};
    for (int a = 0, i = 0; a <= kMaxPip; ++a)
      for (int b = 0; b <= a; ++b) h[i++] = static_cast<uint8_t>(a);
    return h;
  }();
};

// Canonical text: higher number first, "6-4".
std::string to_string(Tile t);

// Strict parse of "6-4", "4-6", "6|4" or "[6|4]" (surrounding blanks
// allowed). Throws Error naming the text and the expected forms; numbers must
// lie in 0..max_pip.
Tile parse_tile(std::string_view text, int max_pip = kMaxPip);

// A set of tiles as a bitset of W 64-bit words (W = 1 holds double-nine).
template <int W>
struct TileBits {
  std::array<uint64_t, W> w{};

  static constexpr TileBits single(Tile t) {
    TileBits s;
    s.w[t.index >> 6] = uint64_t{1} << (t.index & 63);
    return s;
  }
  static constexpr TileBits first_n(int n) {  // indices 0..n-1
    TileBits s;
    for (int i = 0; i < W; ++i) {
      const int lo = i * 64;
      if (n >= lo + 64)
        s.w[i] = ~uint64_t{0};
      else if (n > lo)
        s.w[i] = (uint64_t{1} << (n - lo)) - 1;
    }
    return s;
  }
  constexpr bool has(Tile t) const { return (w[t.index >> 6] >> (t.index & 63)) & 1; }
  constexpr void add(Tile t) { w[t.index >> 6] |= uint64_t{1} << (t.index & 63); }
  constexpr void remove(Tile t) { w[t.index >> 6] &= ~(uint64_t{1} << (t.index & 63)); }
  constexpr int size() const {
    int n = 0;
    for (auto x : w) n += std::popcount(x);
    return n;
  }
  constexpr bool empty() const {
    for (auto x : w)
      if (x) return false;
    return true;
  }
  constexpr TileBits operator|(const TileBits& o) const {
    TileBits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  constexpr TileBits operator&(const TileBits& o) const {
    TileBits r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  constexpr TileBits operator~() const {
    TileBits r;
    for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
    return r;
  }
  constexpr TileBits& operator|=(const TileBits& o) {
    for (int i = 0; i < W; ++i) w[i] |= o.w[i];
    return *this;
  }
  constexpr TileBits& operator&=(const TileBits& o) {
    for (int i = 0; i < W; ++i) w[i] &= o.w[i];
    return *this;
  }
  constexpr TileBits minus(const TileBits& o) const { return *this & ~o; }
  constexpr bool operator==(const TileBits&) const = default;

  // The k-th tile (0-based) in index order; k < size().
  Tile nth(int k) const {
    for (int i = 0; i < W; ++i) {
      const int c = std::popcount(w[i]);
      if (k < c) {
        uint64_t x = w[i];
        for (int j = 0; j < k; ++j) x &= x - 1;
        return Tile{static_cast<uint8_t>(i * 64 + std::countr_zero(x))};
      }
      k -= c;
    }
    return Tile{};
  }
  int pips() const {
    int p = 0;
    for_each([&](Tile t) { p += t.pips(); });
    return p;
  }
  template <class F>
  constexpr void for_each(F&& f) const {
    for (int i = 0; i < W; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(Tile{static_cast<uint8_t>(i * 64 + std::countr_zero(x))});
  }
};

using TileSet = TileBits<3>;   // any set up to double-eighteen
using SmallSet = TileBits<1>;  // sets up to double-nine

// All tiles showing n, within the double-max set.
template <int W>
constexpr TileBits<W> suit(int n, int max_pip) {
  TileBits<W> s;
  for (int x = 0; x <= max_pip; ++x) s.add(Tile::of(n, x));
  return s;
}
template <int W>
constexpr TileBits<W> doubles(int max_pip) {
  TileBits<W> s;
  for (int x = 0; x <= max_pip; ++x) s.add(Tile::of(x, x));
  return s;
}

// "6-6 5-4 0-0" in index order, highest first.
template <int W>
std::string to_string(const TileBits<W>& s) {
  std::string out;
  for (int i = W * 64 - 1; i >= 0; --i) {
    if (i >= kMaxTiles) continue;
    const Tile t{static_cast<uint8_t>(i)};
    if (s.has(t)) {
      if (!out.empty()) out += ' ';
      out += to_string(t);
    }
  }
  return out;
}

}  // namespace boneyard
