#include "texas42/auction.h"

#include <algorithm>
#include <cmath>

#include "texas42/bots.h"

namespace boneyard::texas42 {

namespace {
// log sigmoid(x), stable for large |x|.
double log_sigmoid(double x) { return x >= 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x)); }
}  // namespace

int bid_reach(uint32_t dealt, bool dealer_opening) {
  // As GreedyBot::value bids (bots.cpp): the estimate is cautious, so up to
  // 4 over it; 42 only on a near-sweep; 2 marks on a sure one.
  const HandEstimate e = estimate_hand(dealt);
  int r = e.tricks >= 6.9 ? 84 : e.tricks >= 6.8 ? 42 : std::min(e.points + 4, 41);
  if (dealer_opening && e.points >= 20) r = std::max(r, 30);
  return r;
}

int least_bid_over(int high) {
  if (high < 30) return 30;
  if (high < 42) return high + 1;
  const int k = high / 42 + 1;  // spec: one mark above the highest bid
  return k <= kMaxMarks ? 42 * k : 0;
}

double auction_log_likelihood(const State& s, int observer, const uint32_t* dealt) {
  double ll = 0;
  int high = 0, high_seat = -1;
  const int dealer = s.dealer();
  for (int i = 1; i <= kSeats; ++i) {
    const int k = (dealer + i) & 3;  // spec: from the seat after the dealer to the dealer
    const int b = s.bid_of(k);
    if (b < 0) break;  // not yet
    const bool partner_high = high_seat >= 0 && high_seat == State::partner(k);
    const bool opening = k == dealer && high_seat < 0;
    const bool forced = opening && s.rules().forced_bid;
    const BidKind kind = s.bid_kind_of(k);
    if (k != observer && !partner_high && kind != BidKind::Plunge && kind != BidKind::Splash) {
      const int r = bid_reach(dealt[k], opening);
      if (b == 0) {
        const int m = least_bid_over(high);
        if (m > 0) ll += log_sigmoid((m - 0.5 - r) / kAuctionSoftness);
      } else if (!(forced && b == 30)) {
        ll += log_sigmoid((r - b + 0.5) / kAuctionSoftness);
      }
    }
    if (b > 0) high = b, high_seat = k;
  }
  return ll;
}

}  // namespace boneyard::texas42
