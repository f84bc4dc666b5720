// The kernels' tile coordinates come from FastDivider (csrc/cuda/fast_divider.h):
// exact for every dividend below 2^31 and every divisor the launcher passes
// (1 to 2^31), checked here on the host, which divides the same way.
#include "core/cuda/fast_divider.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using gputranspose::cuda::FastDivider;

constexpr uint32_t kMaxDividend = (uint32_t{1} << 31) - 1;

// Dividends where an error would show first: around multiples of d and the ends.
std::vector<uint32_t> edge_dividends(uint32_t d, std::mt19937& rng) {
  std::vector<uint32_t> n = {0, 1, kMaxDividend, kMaxDividend - 1};
  const uint32_t top = kMaxDividend / d;
  for (uint32_t q : {uint32_t{1}, uint32_t{2}, uint32_t{3}, top / 2, top - 1, top}) {
    const uint64_t m = uint64_t{q} * d;
    for (int64_t delta : {-1, 0, 1}) {
      const int64_t v = static_cast<int64_t>(m) + delta;
      if (v >= 0 && v <= kMaxDividend) n.push_back(static_cast<uint32_t>(v));
    }
  }
  std::uniform_int_distribution<uint32_t> any(0, kMaxDividend);
  for (int i = 0; i < 64; ++i) n.push_back(any(rng));
  return n;
}

void expect_exact(uint32_t d, std::mt19937& rng) {
  const FastDivider divider(d);
  for (const uint32_t n : edge_dividends(d, rng)) {
    ASSERT_EQ(divider.div(n), n / d) << "n = " << n << ", d = " << d;
  }
}

TEST(FastDivider, ExactForSmallDivisors) {
  std::mt19937 rng(1);
  for (uint32_t d = 1; d <= 4096; ++d) expect_exact(d, rng);
}

TEST(FastDivider, ExactForPowersOfTwoAndTheirNeighbours) {
  std::mt19937 rng(2);
  for (int k = 1; k <= 31; ++k) {
    const uint32_t p = uint32_t{1} << k;
    for (uint32_t d : {p - 1, p, p + 1}) {
      if (d >= 1 && d <= (uint32_t{1} << 31)) expect_exact(d, rng);
    }
  }
}

TEST(FastDivider, ExactForRandomLargeDivisors) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> divisor(4097, uint32_t{1} << 31);
  for (int i = 0; i < 2000; ++i) expect_exact(divisor(rng), rng);
}

TEST(FastDivider, EveryDividendBelowALimitForSomeDivisors) {
  for (uint32_t d : {3u, 7u, 133u, 257u, 34181u}) {
    const FastDivider divider(d);
    for (uint32_t n = 0; n < (1u << 20); ++n) ASSERT_EQ(divider.div(n), n / d) << n << " / " << d;
  }
}

}  // namespace
