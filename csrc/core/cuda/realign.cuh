#pragma once
// Realigning 16-byte vectors in registers: bytes at any offset moved as aligned vectors, each
// built from two (the realigned wide elements; the small-dim kernel's long rows off 4 bytes
// and packed spans off 16).

#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <cassert>
#endif

namespace gputranspose {
namespace cuda {

// The low word of hi:lo shifted right by `bits` mod 32 (__funnelshift_r; the host's the same
// arithmetic, for the host test).
__host__ __device__ __forceinline__ uint32_t funnel_right(uint32_t lo, uint32_t hi, uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(lo, hi, bits);
#else
  return static_cast<uint32_t>(((uint64_t{hi} << 32) | lo) >> (bits & 31));
#endif
}

// Bytes [shift, shift + 16) of the 32 bytes lo:hi (little-endian), shift 0-15 (best alike
// across a warp): word selects by the shift's bits (predicated moves, no indexing of
// a register array, so nothing goes to local memory), then a funnel shift of each word.
__device__ __forceinline__ uint4 realign(const uint4& lo, const uint4& hi, uint32_t shift) {
  uint32_t w0 = lo.x, w1 = lo.y, w2 = lo.z, w3 = lo.w, w4 = hi.x, w5 = hi.y, w6 = hi.z;
  const uint32_t w7 = hi.w;
  if (shift & 8) {
    w0 = w2, w1 = w3, w2 = w4, w3 = w5, w4 = w6, w5 = w7;
  }
  if (shift & 4) {
    w0 = w1, w1 = w2, w2 = w3, w3 = w4, w4 = w5;
  }
  const uint32_t bits = (shift & 3) * 8;
  return make_uint4(funnel_right(w0, w1, bits), funnel_right(w1, w2, bits),
                    funnel_right(w2, w3, bits), funnel_right(w3, w4, bits));
}

// A warp's N 16-byte vectors between shared memory (vector q in slot `slot(q)`) and global
// memory at `global`, 1-15 bytes past 16 (TO_GLOBAL: shared to global). The aligned vectors
// wholly inside the range move as vectors, each realigned from two (two shared vectors to
// store one, two global ones to load one), a vector a lane; the bytes they leave (16 at the
// ends to store; to load, those of the first and last shared vector) move a byte a lane.
// So a warp instruction moves 512 bytes where 1-byte units would move 32, and every global
// access stays inside [global, global + 16 N). The callers never pass a range on 16 bytes
// (they move those as vectors as they are): `s` = 0 would store each vector one place on.
template <bool TO_GLOBAL, int N, class Slot>
__device__ __forceinline__ void copy_realigned(uint4* shared, char* global, int lane, Slot slot) {
  static_assert(N >= 2, "a first and a last vector");
  const uint32_t s = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(global) % 16);
  uint4* const aligned = reinterpret_cast<uint4*>(global - s);  // aligned[1 .. N-1] in range
  char* const shared_bytes = reinterpret_cast<char*>(shared);
  auto shared_byte = [&](int at) -> char& { return shared_bytes[slot(at / 16) * 16 + at % 16]; };
#if !defined(__CUDA_ARCH__)
  assert(s != 0);
#endif
  if constexpr (TO_GLOBAL) {
    // Aligned vector i holds range bytes [16 i - s, 16 i - s + 16): shared vectors i - 1, i.
    for (int i = 1 + lane; i < N; i += 32) {
#if !defined(__CUDA_ARCH__)
      assert(reinterpret_cast<char*>(aligned + i) >= global &&
             reinterpret_cast<char*>(aligned + i + 1) <= global + 16 * N);
#endif
      aligned[i] = realign(shared[slot(i - 1)], shared[slot(i)], 16 - s);
    }
    if (lane < 16) {  // range bytes [0, 16 - s) and [16 N - s, 16 N)
      const int at = lane < static_cast<int>(16 - s) ? lane : 16 * N - 16 + lane;
      global[at] = shared_byte(at);
    }
  } else {
    // Shared vector j holds range bytes [16 j, 16 j + 16): aligned vectors j, j + 1.
    for (int j = 1 + lane; j < N - 1; j += 32) {
#if !defined(__CUDA_ARCH__)
      assert(reinterpret_cast<char*>(aligned + j) >= global &&
             reinterpret_cast<char*>(aligned + j + 2) <= global + 16 * N);
#endif
      shared[slot(j)] = realign(aligned[j], aligned[j + 1], s);
    }
    const int at = lane < 16 ? lane : 16 * N - 32 + lane;  // shared vectors 0 and N - 1
    shared_byte(at) = global[at];
  }
}

}  // namespace cuda
}  // namespace gputranspose
