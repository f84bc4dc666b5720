// A warp's copy of 16-byte vectors between shared memory and global memory off 16 bytes
// (cuda/realign.cuh's copy_realigned, which the small-dim kernel's long rows and packed
// spans take), compiled for the host and run lane by lane as the warp runs it: for every
// offset 1-15, spans of 2 to 512 vectors and shared slots in order or permuted, the bytes
// arrive in order, nothing outside the destination is written, and (the function's own
// host asserts) every 16-byte global access lies inside the range. No GPU needed.
#include <cuda_runtime.h>  // uint4, make_uint4 and the CUDA keywords

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/cuda/realign.cuh"

#include <gtest/gtest.h>

namespace gputranspose::cuda {
namespace {

// Shared vector q's slot: in order, or each aligned 8 rotated by XOR (the small-dim kernel's
// staged spans of 6 vectors a lane).
int in_order(int q) { return q; }
int rotated(int q) { return q ^ ((q / 6) & 7); }

template <int N>
void check_both_ways(int (*slot)(int), std::mt19937& random) {
  for (int s = 1; s < 16; ++s) {
    std::vector<uint4> far_vectors(N + 4);  // the range from byte 16 + s, guards either side
    std::vector<uint4> shared(N);
    char* far = reinterpret_cast<char*>(far_vectors.data());
    char* range = far + 16 + s;
    auto fill = [&random](void* at, size_t bytes) {
      for (size_t i = 0; i < bytes; ++i) static_cast<uint8_t*>(at)[i] = static_cast<uint8_t>(random());
    };
    auto shared_byte = [&](int at) {
      return reinterpret_cast<const char*>(shared.data())[slot(at / 16) * 16 + at % 16];
    };

    // Shared to global: the range holds the shared bytes in order; the guards are untouched.
    fill(shared.data(), 16 * N);
    fill(far, 16 * (N + 4));
    const std::vector<char> before(far, far + 16 * (N + 4));
    for (int lane = 0; lane < 32; ++lane) copy_realigned<true, N>(shared.data(), range, lane, slot);
    for (int at = 0; at < 16 * (N + 4); ++at) {
      const int r = at - (16 + s);
      const char expected = r >= 0 && r < 16 * N ? shared_byte(r) : before[at];
      ASSERT_EQ(far[at], expected) << "N " << N << " offset " << s << " byte " << r;
    }

    // Global to shared: every shared slot holds the range's bytes in order.
    fill(shared.data(), 16 * N);
    for (int lane = 0; lane < 32; ++lane) copy_realigned<false, N>(shared.data(), range, lane, slot);
    for (int r = 0; r < 16 * N; ++r) {
      ASSERT_EQ(shared_byte(r), range[r]) << "N " << N << " offset " << s << " byte " << r;
    }
  }
}

TEST(RealignedCopy, MovesEveryByteOfARangeOff16BytesInOrder) {
  std::mt19937 random(7);
  check_both_ways<2>(in_order, random);
  check_both_ways<3>(in_order, random);
  check_both_ways<32>(in_order, random);
  check_both_ways<33>(in_order, random);
  check_both_ways<32 * 6>(rotated, random);
  check_both_ways<32 * 16>(in_order, random);
}

}  // namespace
}  // namespace gputranspose::cuda
