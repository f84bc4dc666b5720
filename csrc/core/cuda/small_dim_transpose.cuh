#pragma once
// The transpose of matrices with one side of 2 to 16 elements (NCHW -> NHWC with 3
// channels, (10000000, 3) -> (3, 10000000)): a tile of the tiled kernel would hold a few
// rows of mostly nothing. Here a thread takes a group of V = 16 / E elements along the
// long side and all S along the short one, as 16-byte vectors on both sides, and
// reorders the S x V block in its registers (byte permutes, no shared memory and no
// barrier between a load and its use):
//  - short input rows (S = cols): the group's V input rows are one contiguous run of S
//    vectors; it becomes one vector in each of the S output rows, which lie far apart and
//    so are written by the warp as S coalesced runs.
//  - short output rows (S = rows): one vector from each of the S input rows becomes a
//    contiguous run of S vectors of the output.
// The warp's 32 runs on the packed side make one contiguous span, which it reads or writes
// through shared memory as coalesced 512-byte rows: a thread's own run, S vectors apart
// from its neighbours', would make each 16-byte access of the warp touch 32 lines (a span
// off 16 bytes, of a matrix that starts off them, moves as aligned vectors realigned in
// registers, realign.cuh). A warp
// whose groups cross a matrix or the tensor's end accesses its own runs instead (element by
// element where they lie off 16 bytes), and a group that the long side's end cuts short is
// moved element by element.

#include "../kernel_choice.h"
#include "fast_divider.h"
#include "outer_batch.cuh"
#include "ptx.cuh"
#include "realign.cuh"

#include <cstdint>

namespace gputranspose {
namespace cuda {

constexpr int kSmallDimThreads = kSmallDimThreadsPerBlock;

struct SmallDimParams {
  const char* __restrict__ in;
  char* __restrict__ out;
  int64_t batch_stride;      // bytes, input
  int64_t row_stride;        // bytes, input (short output rows: between the S input rows)
  int64_t out_batch_stride;  // bytes
  int64_t out_row_stride;    // bytes (short input rows: between the S output rows)
  uint32_t long_len;         // elements along the long side
  uint32_t groups;           // batch x groups a matrix (< 2^31)
  FastDivider matrix_groups; // groups a matrix: long_len / V, rounded up
  OuterBatch outer;
};

// Output word w of the transpose of an R x C row-major block of E-byte elements, held as
// 32-bit words, into C x R row-major: every index is a constant once the callers' loops
// unroll, so this is 0 (E >= 4), 1 (E = 2) or 3 (E = 1) byte permutes.
template <int R, int C, int E>
__device__ __forceinline__ uint32_t transposed_word(const uint32_t* in, int w) {
  auto source_byte = [](int out_byte) {
    const int q = out_byte / E;  // output element: column q / R, row q % R
    return ((q % R) * C + q / R) * E + out_byte % E;
  };
  if constexpr (E >= 4) {
    return in[source_byte(4 * w) / 4];
  } else if constexpr (E == 2) {
    const int a = source_byte(4 * w);
    const int b = source_byte(4 * w + 2);
    return __byte_perm(in[a / 4], in[b / 4], (a % 4) | ((a % 4 + 1) << 4) | ((4 + b % 4) << 8) |
                                                  ((4 + b % 4 + 1) << 12));
  } else {
    const int a = source_byte(4 * w), b = source_byte(4 * w + 1);
    const int c = source_byte(4 * w + 2), d = source_byte(4 * w + 3);
    const uint32_t low = __byte_perm(in[a / 4], in[b / 4], (a % 4) | ((4 + b % 4) << 4));
    const uint32_t high = __byte_perm(in[c / 4], in[d / 4], (c % 4) | ((4 + d % 4) << 4));
    return __byte_perm(low, high, 0x5410);
  }
}

// Shared memory of a warp's staged span: 32 x S vectors. 16-byte accesses are served 8
// lanes at a time, so both patterns, a thread's S consecutive vectors (lane x S + k) and
// the warp's rows of 32 (32 k + lane), must fall on 8 distinct 16-byte bank groups in each
// 8 lanes: they do for odd S as they are, and for even S with each aligned 8 vectors
// rotated by XOR with (q / S) mod 8 (checked exhaustively for S = 2..16).
template <int S>
__host__ __device__ constexpr int staged_vectors_per_warp() {
  return 32 * S;
}
template <int S>
__device__ __forceinline__ int staged_slot(int q) {
  return S % 2 == 0 ? q ^ ((q / S) & 7) : q;
}

// A warp's 512 bytes of one long row between shared memory (`row`, 16-byte aligned) and a
// global address aligned only to the element: in 16-, 8- or 4-byte units where the address
// allows them, consecutive lanes on consecutive units, else as realigned vectors. Rows on 4
// or 8 bytes keep their units, which are as fast (realigned, such rows took 1.01-1.02x the
// time; rows off 4 bytes 0.99-1.00x: H100, DESIGN, evidence 08a5d62).
template <class Unit, bool TO_GLOBAL>
__device__ __forceinline__ void copy_row_units(uint4* row, char* global, int lane) {
  constexpr int N = 512 / sizeof(Unit);
  Unit* shared = reinterpret_cast<Unit*>(row);
  Unit* far = reinterpret_cast<Unit*>(global);
#pragma unroll
  for (int k = lane; k < N; k += 32) {
    if constexpr (TO_GLOBAL) {
      far[k] = shared[k];
    } else {
      shared[k] = far[k];
    }
  }
}

template <bool TO_GLOBAL>
__device__ __forceinline__ void copy_row(uint4* row, const char* global, int lane) {
  char* g = const_cast<char*>(global);
  const uintptr_t at = reinterpret_cast<uintptr_t>(global);
  if (at % 16 == 0) {
    copy_row_units<uint4, TO_GLOBAL>(row, g, lane);
  } else if (at % 8 == 0) {
    copy_row_units<uint2, TO_GLOBAL>(row, g, lane);
  } else if (at % 4 == 0) {
    copy_row_units<uint32_t, TO_GLOBAL>(row, g, lane);
  } else {
    copy_realigned<TO_GLOBAL, 32>(row, g, lane, [](int q) { return q; });
  }
}

// A warp's packed span, 32 x S vectors at a global address off 16 bytes, between shared
// memory (vector q in slot staged_slot(q)) and global memory, realigned: 0.86x and 0.89x
// the time of units of the address's alignment on 1- and 2-byte elements, 0.91-1.07x
// (5 cases, about even) on 4- and 8-byte ones (as above).
template <bool TO_GLOBAL, int S>
__device__ __noinline__ void copy_span(uint4* buffer, const char* global, int lane) {
  copy_realigned<TO_GLOBAL, 32 * S>(buffer, const_cast<char*>(global), lane,
                                    [](int q) { return staged_slot<S>(q); });
}

// A warp's 32 x V short input rows of S elements, `pitch` bytes apart (not dense), into
// shared memory as the dense span would lie there (vector q in slot staged_slot(q)):
// element by element, consecutive lanes on consecutive elements.
template <int E, int S>
__device__ __noinline__ void copy_pitched_rows(uint4* buffer, const char* first_row,
                                               int64_t pitch, int lane) {
  using Element = typename Bytes<E>::type;
  constexpr int N = 32 * (16 / E) * S;  // elements
  char* shared = reinterpret_cast<char*>(buffer);
#pragma unroll 4
  for (int u = lane; u < N; u += 32) {
    const int r = u / S;
    const int byte = u * E;  // in the dense span
    *reinterpret_cast<Element*>(shared + staged_slot<S>(byte / 16) * 16 + byte % 16) =
        *reinterpret_cast<const Element*>(first_row + r * pitch + (u - r * S) * E);
  }
}

// SHORT_INPUT_ROWS: S = cols (input rows of S elements, row_stride bytes apart: S x E where
// they are dense, more where not, then read only by warps that stage them);
// otherwise S = rows (output rows of S elements, out_row_stride == S).
// LONG_ALIGNED: every long row starts on 16 bytes, and so does every short rows' run, dense.
// Otherwise a warp whose groups are one span moves each long row's 512 bytes through shared
// memory as aligned vectors realigned in registers (and its short rows as above); any other warp
// moves its groups element by element.
// At least one block a SM is all the launch bounds ask: with more, ptxas spills a few
// bytes in some instances to stay under a register step, and registers do not bound the
// bytes this kernel keeps in flight (S 16-byte loads a thread).
template <int E, int S, bool SHORT_INPUT_ROWS, bool LONG_ALIGNED>
__global__ void __launch_bounds__(kSmallDimThreads, 1)
    small_dim_transpose_kernel(SmallDimParams p) {
  constexpr int V = 16 / E;        // elements of the long side a group
  constexpr int WORDS = 4 * S;     // the group's bytes, 16 S, in 32-bit words
  using Element = typename Bytes<E>::type;
  extern __shared__ uint4 staged[];
  if (!add_outer_offsets(p.outer, p.in, p.out)) return;
  const uint32_t group = blockIdx.x * kSmallDimThreads + threadIdx.x;
  const bool live = group < p.groups;
  const uint32_t b = p.matrix_groups.div(live ? group : 0);
  const uint32_t first = (live ? group : 0) - b * p.matrix_groups.divisor;
  const uint32_t start = first * V;  // along the long side
  const uint32_t count = live ? min(static_cast<uint32_t>(V), p.long_len - start) : 0;
  const char* in = p.in + b * p.batch_stride;
  char* out = p.out + b * p.out_batch_stride;
  const int lane = threadIdx.x % 32;

  // The warp's groups are one contiguous span of the packed side (the input's with short
  // input rows, the output's with short output rows) where they are all whole and of one
  // matrix (and of one outer batch: the block's).
  const uint32_t first_b = __shfl_sync(0xffffffffu, b, 0);
  const bool staged_span = __all_sync(0xffffffffu, count == V && b == first_b);
  uint4* buffer = staged + (threadIdx.x / 32) * staged_vectors_per_warp<S>();

  // The packed side's runs lie on 16 bytes where its matrix starts on them (each group's run
  // starts 16 x S bytes on from the matrix); off them, only a warp that stages its span
  // moves vectors, reading or writing the span as realigned vectors.
  // (LONG_ALIGNED instances have neither: the kernel choice sends both to the others.)
  const bool packed_aligned =
      LONG_ALIGNED ||
      reinterpret_cast<uintptr_t>(SHORT_INPUT_ROWS ? static_cast<const char*>(in) : out) % 16 == 0;
  // Short input rows a pitch apart (not one run): only a warp that stages them.
  const bool pitched = !LONG_ALIGNED && SHORT_INPUT_ROWS && p.row_stride != S * E;
  const int64_t short_row_stride = LONG_ALIGNED ? int64_t{S} * E : p.row_stride;
  // Groups that move as vectors: whole ones, and with long rows off 16 bytes (or the packed
  // side, or short rows a pitch apart) only those of a warp that stages them.
  const bool vectors = count == V && (LONG_ALIGNED || staged_span) &&
                       ((packed_aligned && !pitched) || staged_span);
  if constexpr (SHORT_INPUT_ROWS) {
    // V input rows of S elements: one run of S vectors; column j -> output row j.
    if (vectors) {
      uint32_t w[WORDS];
      const uint4* run = reinterpret_cast<const uint4*>(in + int64_t{start} * S * E);
      if (staged_span) {
        // The warp reads its span as coalesced 512-byte rows through shared memory.
        const char* span = in + int64_t{start - lane * V} * S * E;
        if (pitched) {
          copy_pitched_rows<E, S>(buffer, in + int64_t{start - lane * V} * short_row_stride,
                                  short_row_stride, lane);
        } else if (packed_aligned) {
#pragma unroll
          for (int k = 0; k < S; ++k) {
            buffer[staged_slot<S>(32 * k + lane)] = reinterpret_cast<const uint4*>(span)[32 * k + lane];
          }
        } else {
          copy_span<false, S>(buffer, span, lane);
        }
        __syncwarp();
      }
#pragma unroll
      for (int k = 0; k < S; ++k) {
        const uint4 v = staged_span ? buffer[staged_slot<S>(lane * S + k)] : run[k];
        w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
      }
      if (!LONG_ALIGNED) __syncwarp();  // the buffer is reused for the output rows below
#pragma unroll
      for (int j = 0; j < S; ++j) {
        uint4 v;
        v.x = transposed_word<V, S, E>(w, 4 * j);
        v.y = transposed_word<V, S, E>(w, 4 * j + 1);
        v.z = transposed_word<V, S, E>(w, 4 * j + 2);
        v.w = transposed_word<V, S, E>(w, 4 * j + 3);
        if constexpr (LONG_ALIGNED) {
          *reinterpret_cast<uint4*>(out + j * p.out_row_stride + int64_t{start} * E) = v;
        } else {
          buffer[32 * j + lane] = v;  // output row j's 512 bytes of the warp, in order
        }
      }
      if constexpr (!LONG_ALIGNED) {
        __syncwarp();
        const int64_t span_start = int64_t{start - lane * V} * E;
#pragma unroll 1
        for (int j = 0; j < S; ++j) {
          copy_row<true>(buffer + 32 * j, out + j * p.out_row_stride + span_start, lane);
        }
      }
    } else {
      for (uint32_t r = 0; r < count; ++r) {
        for (int j = 0; j < S; ++j) {
          *reinterpret_cast<Element*>(out + j * p.out_row_stride + int64_t{start + r} * E) =
              *reinterpret_cast<const Element*>(in + int64_t{start + r} * short_row_stride + j * E);
        }
      }
    }
  } else {
    // One vector of each of the S input rows -> S x V transposed: S vectors, contiguous.
    uint4 o[S];
    if (vectors) {
      uint32_t w[WORDS];
      if constexpr (!LONG_ALIGNED) {
        // Input row k's 512 bytes of the warp, in order, then each lane's vector of it.
        const int64_t span_start = int64_t{start - lane * V} * E;
#pragma unroll 1
        for (int k = 0; k < S; ++k) {
          copy_row<false>(buffer + 32 * k, in + k * p.row_stride + span_start, lane);
        }
        __syncwarp();
      }
#pragma unroll
      for (int k = 0; k < S; ++k) {
        const uint4 v =
            LONG_ALIGNED
                ? *reinterpret_cast<const uint4*>(in + k * p.row_stride + int64_t{start} * E)
                : buffer[32 * k + lane];
        w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
      }
      if (!LONG_ALIGNED) __syncwarp();  // the buffer is reused for the output span below
#pragma unroll
      for (int k = 0; k < S; ++k) {
        o[k].x = transposed_word<S, V, E>(w, 4 * k);
        o[k].y = transposed_word<S, V, E>(w, 4 * k + 1);
        o[k].z = transposed_word<S, V, E>(w, 4 * k + 2);
        o[k].w = transposed_word<S, V, E>(w, 4 * k + 3);
      }
    }
    if (staged_span) {
      // The warp writes its span as coalesced 512-byte rows through shared memory.
#pragma unroll
      for (int k = 0; k < S; ++k) buffer[staged_slot<S>(lane * S + k)] = o[k];
      __syncwarp();
      char* span = out + int64_t{start - lane * V} * S * E;
      if (packed_aligned) {
#pragma unroll
        for (int k = 0; k < S; ++k) {
          reinterpret_cast<uint4*>(span)[32 * k + lane] = buffer[staged_slot<S>(32 * k + lane)];
        }
      } else {
        copy_span<true, S>(buffer, span, lane);
      }
    } else if (vectors) {
      uint4* run = reinterpret_cast<uint4*>(out + int64_t{start} * S * E);
#pragma unroll
      for (int k = 0; k < S; ++k) run[k] = o[k];
    } else {
      for (uint32_t c = 0; c < count; ++c) {
        for (int i = 0; i < S; ++i) {
          *reinterpret_cast<Element*>(out + (int64_t{start + c} * S + i) * E) =
              *reinterpret_cast<const Element*>(in + i * p.row_stride + int64_t{start + c} * E);
        }
      }
    }
  }
}

}  // namespace cuda
}  // namespace gputranspose
