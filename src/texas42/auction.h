#pragma once
// The bidding model (docs/texas-42.md, "The auction as evidence"): how far a
// seat bids with a given hand, by the greedy bot's own evaluation. The
// sampler turns it into a likelihood (a bid of b says the hand reaches about
// b; a pass says it does not reach the least bid open). Only public facts
// (the bids made, who deals, the rules) and a hypothesised hand go in.
#include <cstdint>

#include "texas42/state.h"

namespace boneyard::texas42 {

// How soft the model is, in points: a seat whose hand reaches r bids b with
// probability sigmoid((r - b + 0.5) / kAuctionSoftness), and passes when b
// is the least bid open with the rest. Other players (pimc, people) do not
// bid exactly as greedy, so the evidence is weighed, not trusted.
inline constexpr double kAuctionSoftness = 3.0;

// The highest bid, in points (84 for 2 marks), a seat would make holding
// `dealt` (greedy's estimate: up to its estimated points + 4, 42 on a
// near-sweep, 2 marks on a sure one; the dealer after three passes takes a
// fair hand at 30). `dealer_opening`: the seat deals and nobody has bid.
int bid_reach(uint32_t dealt, bool dealer_opening);

// The least bid open over a high bid of `high` points (0: none): 30, then
// one point more, then one mark more; 0 when none is (4 marks bid).
int least_bid_over(int high);

// The log-likelihood, under the model, of the bids and passes made so far by
// every seat except `observer`, were the seats dealt `dealt` (seat order).
// Plunge and splash say nothing more here (the sampler requires their
// doubles); a pass while the partner holds the high bid says nothing; the
// dealer forced to bid (forced_bid) says nothing by bidding 30.
double auction_log_likelihood(const State& s, int observer, const uint32_t* dealt);

}  // namespace boneyard::texas42
