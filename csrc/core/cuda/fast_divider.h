#pragma once
// n / d for 0 <= n < 2^31 by a multiply-high, an add and a shift (Granlund and
// Montgomery, as ATen's IntDivider): a block's tile coordinates would take three
// 64-bit divisions, tens of instructions per thread, against the 200-700 that a
// 1-byte tile's thread issues in all. Host code divides the same way, so that
// tests/cpp can check it without a GPU.

#include <cstdint>

#if defined(__CUDACC__)
#define GPUTRANSPOSE_HOST_DEVICE __host__ __device__
#else
#define GPUTRANSPOSE_HOST_DEVICE
#endif

namespace gputranspose {
namespace cuda {

struct FastDivider {
  uint32_t divisor;
  uint32_t magic;
  uint32_t shift;

  FastDivider() = default;
  // d >= 1; shift = ceil(log2 d), magic = 2^32 (2^shift - d) / d + 1 (< 2^32).
  explicit FastDivider(uint32_t d) : divisor(d), shift(0) {
    while (shift < 32 && (uint64_t{1} << shift) < d) ++shift;
    magic = static_cast<uint32_t>(((uint64_t{1} << 32) * ((uint64_t{1} << shift) - d)) / d + 1);
  }

  // Exact for n < 2^31, where the sum cannot overflow.
  GPUTRANSPOSE_HOST_DEVICE uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const uint32_t high = __umulhi(n, magic);
#else
    const uint32_t high = static_cast<uint32_t>((uint64_t{n} * magic) >> 32);
#endif
    return (high + n) >> shift;
  }
};

}  // namespace cuda
}  // namespace gputranspose

#undef GPUTRANSPOSE_HOST_DEVICE
