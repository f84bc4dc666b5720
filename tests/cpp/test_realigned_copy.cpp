// A warp's copy of 16-byte vectors between shared memory and global memory off 16 bytes
// (cuda/realign.cuh's copy_realigned, which the small-dim kernel's long rows and packed
// spans take), compiled for the host and run lane by lane as the warp runs it: for every
// offset 1-15, spans of 2 to 512 vectors and shared slots in order or rotated as the kernel
// stages them, each destination byte is written exactly once (by one lane) with its own
// value, nothing outside the destination is written, and (the function's own host asserts)
// every 16-byte global access lies inside the range. No GPU needed.
#include <cuda_runtime.h>  // uint4, make_uint4 and the CUDA keywords

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "core/cuda/realign.cuh"

#include <gtest/gtest.h>

namespace gputranspose::cuda {
namespace {

// Shared vector q's slot: in order, or (the small-dim kernel's staged spans of 32 x S
// vectors, S even) each aligned 8 rotated by XOR with (q / S) mod 8.
struct InOrder {
  int operator()(int q) const { return q; }
};
template <int S>
struct Rotated {
  int operator()(int q) const { return q ^ ((q / S) & 7); }
};

// Each lane runs alone on a destination that holds the complement of the expected bytes
// (outside the range: random guards), so every byte it writes shows; across the lanes each
// destination byte must be written exactly once, with its own value, and nothing else.
template <int N, class Slot>
void check_both_ways(Slot slot, std::mt19937& random) {
  auto fill = [&random](void* at, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) static_cast<uint8_t*>(at)[i] = static_cast<uint8_t>(random());
  };
  for (int s = 1; s < 16; ++s) {
    std::vector<uint4> shared(N), far_vectors(N + 4);  // the range from byte 16 + s of far
    char* far = reinterpret_cast<char*>(far_vectors.data());
    char* range = far + 16 + s;
    auto shared_at = [&](int r) { return slot(r / 16) * 16 + r % 16; };
    char* shared_bytes = reinterpret_cast<char*>(shared.data());

    // Shared to global.
    fill(shared_bytes, 16 * N);
    const std::vector<char> from(shared_bytes, shared_bytes + 16 * N);
    std::vector<int> writes(16 * N, 0);
    for (int lane = 0; lane < 32; ++lane) {
      fill(far, 16 * (N + 4));
      for (int r = 0; r < 16 * N; ++r) range[r] = static_cast<char>(~from[shared_at(r)]);
      const std::vector<char> before(far, far + 16 * (N + 4));
      copy_realigned<true, N>(shared.data(), range, lane, slot);
      for (int at = 0; at < 16 * (N + 4); ++at) {
        if (far[at] == before[at]) continue;
        const int r = at - (16 + s);
        ASSERT_TRUE(r >= 0 && r < 16 * N) << "N " << N << " offset " << s << " lane " << lane << " wrote byte " << r;
        ASSERT_EQ(far[at], from[shared_at(r)]) << "N " << N << " offset " << s << " byte " << r;
        ++writes[r];
      }
      ASSERT_TRUE(std::equal(from.begin(), from.end(), shared_bytes)) << "the source changed";
    }
    for (int r = 0; r < 16 * N; ++r) {
      ASSERT_EQ(writes[r], 1) << "N " << N << " offset " << s << " byte " << r << " written";
    }

    // Global to shared.
    fill(far, 16 * (N + 4));
    std::fill(writes.begin(), writes.end(), 0);
    for (int lane = 0; lane < 32; ++lane) {
      for (int r = 0; r < 16 * N; ++r) shared_bytes[shared_at(r)] = static_cast<char>(~range[r]);
      const std::vector<char> before(shared_bytes, shared_bytes + 16 * N);
      copy_realigned<false, N>(shared.data(), range, lane, slot);
      for (int r = 0; r < 16 * N; ++r) {
        if (shared_bytes[shared_at(r)] == before[shared_at(r)]) continue;
        ASSERT_EQ(shared_bytes[shared_at(r)], range[r]) << "N " << N << " offset " << s << " byte " << r;
        ++writes[r];
      }
    }
    for (int r = 0; r < 16 * N; ++r) {
      ASSERT_EQ(writes[r], 1) << "N " << N << " offset " << s << " shared byte " << r << " written";
    }
  }
}

TEST(RealignedCopy, MovesEveryByteOfARangeOff16BytesOnceInOrder) {
  std::mt19937 random(7);
  check_both_ways<2>(InOrder{}, random);
  check_both_ways<3>(InOrder{}, random);
  check_both_ways<32>(InOrder{}, random);  // a long row's 512 bytes
  check_both_ways<33>(InOrder{}, random);
  check_both_ways<32 * 3>(InOrder{}, random);  // packed spans: odd S in order, even S rotated
  check_both_ways<32 * 2>(Rotated<2>{}, random);
  check_both_ways<32 * 6>(Rotated<6>{}, random);
  check_both_ways<32 * 16>(Rotated<16>{}, random);
}

}  // namespace
}  // namespace gputranspose::cuda
