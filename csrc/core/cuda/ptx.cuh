#pragma once
// PTX and cache-hint helpers that the kernels share: the register types of their
// accesses, L2 priority hints, prefetch-hinted and asynchronous loads.

#include <cstdint>
#include <cstring>

namespace gputranspose {
namespace cuda {

template <int N>
struct Bytes;
template <>
struct Bytes<1> {
  using type = uint8_t;
};
template <>
struct Bytes<2> {
  using type = uint16_t;
};
template <>
struct Bytes<4> {
  using type = uint32_t;
};
template <>
struct Bytes<8> {
  using type = uint2;
};
template <>
struct Bytes<16> {
  using type = uint4;
};

// N 32-bit words of one row (a piece), aligned to their size.
template <int N>
struct alignas(4 * N) Words {
  uint32_t w[N];
};
using Segment = Words<4>;  // 16 bytes

// blockIdx.x read anew, a value the compiler cannot take for an earlier read's: what is
// worked out from it again after a tile's stores is not held in registers through them.
__device__ __forceinline__ uint32_t block_index() {
  uint32_t block;
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(block));
  return block;
}

__device__ __forceinline__ uint64_t evict_last_policy() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// The L2 line (128 bytes) at `line` (128-byte aligned) back to evict_normal.
__device__ __forceinline__ void release_line(const char* line) {
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(line) : "memory");
}

template <int W>
__device__ __forceinline__ Words<W> load_evict_last(const char* p, uint64_t policy) {
  Words<W> v;
  if constexpr (W == 1) {
    asm("ld.global.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(v.w[0]) : "l"(p), "l"(policy));
  } else {
    static_assert(W == 4, "a 4- or 16-byte piece");
    asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(v.w[0]), "=r"(v.w[1]), "=r"(v.w[2]), "=r"(v.w[3])
        : "l"(p), "l"(policy));
  }
  return v;
}

// Unaligned rows are read with an L2 prefetch-size hint of 256 bytes: their requests
// cover parts of lines, and the hint has L2 fetch whole 256-byte blocks from DRAM at
// once. Aligned loads cover whole lines and are left plain, and so are 2-byte word
// loads, which the hint slows (docs/DESIGN.md, "The tiled kernel": "Rows that start anywhere").
#define GPUTRANSPOSE_LD_UNALIGNED "ld.global.L2::256B"
// The aligned 4 or 8 bytes at `p`, a word of an unaligned row of 4- to 16-byte
// elements; 8-byte words at L2 evict_last where EVICT_LAST (InputL2).
template <class T, bool EVICT_LAST = false>
__device__ __forceinline__ T load_unaligned_row(const void* p, uint64_t policy) {
  T value;
  if constexpr (sizeof(T) == 4) {
    static_assert(!EVICT_LAST, "evict_last word loads: 8-byte words");
    uint32_t v;
    asm(GPUTRANSPOSE_LD_UNALIGNED ".u32 %0, [%1];" : "=r"(v) : "l"(p));
    memcpy(&value, &v, 4);
  } else {
    static_assert(sizeof(T) == 8, "4- or 8-byte words");
    uint2 v;
    if constexpr (EVICT_LAST) {
      asm("ld.global.L2::cache_hint.L2::256B.v2.u32 {%0, %1}, [%2], %3;"
          : "=r"(v.x), "=r"(v.y)
          : "l"(p), "l"(policy));
    } else {
      asm(GPUTRANSPOSE_LD_UNALIGNED ".v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
    }
    memcpy(&value, &v, 8);
  }
  return value;
}

// Asynchronous copy of the aligned 16 bytes at `src` to shared memory (cp.async,
// sm_80+), a part of an unaligned row (L2 prefetch hint as above).
__device__ __forceinline__ void copy_async_16(unsigned smem_dst, const char* src) {
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(smem_dst), "l"(src)
               : "memory");
}

// Asynchronous copy of the aligned N (4, 8 or 16) bytes at `src` to shared memory.
template <int N>
__device__ __forceinline__ void copy_async(unsigned smem_dst, const char* src) {
  static_assert(N == 4 || N == 8 || N == 16, "cp.async copies 4, 8 or 16 bytes");
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(smem_dst), "l"(src), "n"(N)
               : "memory");
}

// A shared-memory pointer as the 32-bit address that cp.async takes.
__device__ __forceinline__ unsigned shared_address(const char* smem) {
  return static_cast<unsigned>(__cvta_generic_to_shared(smem));
}

__device__ __forceinline__ void wait_async_copies() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

}  // namespace cuda
}  // namespace gputranspose
