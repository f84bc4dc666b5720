#pragma once
// Batches of small matrices back to back on both sides (a batch of contiguous R x C
// matrices, its result contiguous too) whose rows start anywhere, so that the tiled
// kernel can neither fold several into a tile nor fill its own tiles: 34 x 35 bytes,
// 113 x 10 bytes, 5 x 2 doubles at an odd offset. A block moves a chunk of whole
// matrices, which is one run of bytes on each side, the same bytes from the start of
// either: it reads the run into shared memory with aligned 16-byte loads (the words that
// the run only partly covers byte by byte, so nothing outside it is read), and writes the
// output run as aligned 16-byte words, each gathered element by element from shared
// memory. The two phases are host-callable so that tests/cpp runs them as a block would.

#include "../kernel_choice.h"
#include "fast_divider.h"

#include <cstdint>

#if defined(__CUDACC__)
#define GPUTRANSPOSE_BATCHED_SMALL_FN __host__ __device__ inline
#else
#define GPUTRANSPOSE_BATCHED_SMALL_FN inline
#endif

namespace gputranspose {
namespace cuda {

constexpr int kBatchedSmallThreads = kBatchedSmallThreadsPerBlock;

struct BatchedSmallParams {
  const char* __restrict__ in;
  char* __restrict__ out;
  int64_t bytes;                // of the whole tensor
  int64_t chunk_bytes;          // a block's run: whole matrices
  FastDivider matrix_elements;  // R x C
  FastDivider rows;             // R: an output row's elements
  uint32_t cols;                // C: an input row's elements
};

// The input element, counted from the chunk's start, that output element `k` of the chunk
// holds: matrix m's output element j x R + i is its input element i x C + j.
GPUTRANSPOSE_BATCHED_SMALL_FN uint32_t batched_small_source(uint32_t k,
                                                               const BatchedSmallParams& p) {
  const uint32_t m = p.matrix_elements.div(k);
  const uint32_t t = k - m * p.matrix_elements.divisor;
  const uint32_t j = p.rows.div(t);
  const uint32_t i = t - j * p.rows.divisor;
  return m * p.matrix_elements.divisor + i * p.cols + j;
}

// Phase 1, thread `thread` of `threads`: input bytes [begin, begin + n) -> shared[shift +
// k], shift the run's start mod 16, so that the input's aligned 16-byte words (Vec) land on
// shared memory's.
template <class Vec>
GPUTRANSPOSE_BATCHED_SMALL_FN void batched_small_stage(const BatchedSmallParams& p,
                                                         int64_t begin, int64_t n, Vec* staged,
                                                         int shift, int thread, int threads) {
  static_assert(sizeof(Vec) == 16, "16-byte words");
  char* shared = reinterpret_cast<char*>(staged);
  const char* src = p.in + begin;
  const int64_t words = (shift + n + 15) / 16;
  for (int64_t w = thread; w < words; w += threads) {
    const int64_t lo = 16 * w - shift;  // the word's first byte, from src
    if (lo >= 0 && lo + 16 <= n) {
      staged[w] = *reinterpret_cast<const Vec*>(src + lo);
    } else {
      for (int64_t k = lo < 0 ? 0 : lo; k < lo + 16 && k < n; ++k) shared[shift + k] = src[k];
    }
  }
}

// Phase 2: output bytes [begin, begin + n) as aligned 16-byte words (whole elements: the
// output lies on its element, and E divides 16), each element gathered from shared memory;
// the words the run only partly covers, element by element.
template <class Vec, class Element>
GPUTRANSPOSE_BATCHED_SMALL_FN void batched_small_store(const BatchedSmallParams& p,
                                                         int64_t begin, int64_t n,
                                                         const Vec* staged, int shift,
                                                         int thread, int threads) {
  constexpr int E = sizeof(Element);
  char* dst = p.out + begin;
  const int out_shift = static_cast<int>(reinterpret_cast<uintptr_t>(dst) % 16);
  const int64_t words = (out_shift + n + 15) / 16;
  const Element* from = reinterpret_cast<const Element*>(reinterpret_cast<const char*>(staged) + shift);
  for (int64_t w = thread; w < words; w += threads) {
    const int64_t lo = 16 * w - out_shift;
    if (lo >= 0 && lo + 16 <= n) {
      Vec v;
      Element* e = reinterpret_cast<Element*>(&v);
      const uint32_t first = static_cast<uint32_t>(lo / E);
#pragma unroll
      for (int q = 0; q < 16 / E; ++q) e[q] = from[batched_small_source(first + q, p)];
      *reinterpret_cast<Vec*>(dst + lo) = v;
    } else {
      for (int64_t k = lo < 0 ? 0 : lo; k < lo + 16 && k < n; k += E) {
        reinterpret_cast<Element*>(dst)[k / E] =
            from[batched_small_source(static_cast<uint32_t>(k / E), p)];
      }
    }
  }
}

#if defined(__CUDACC__)
template <class Element>
__global__ void __launch_bounds__(kBatchedSmallThreads)
    batched_small_transpose_kernel(BatchedSmallParams p) {
  extern __shared__ uint4 staged[];
  const int64_t begin = int64_t{blockIdx.x} * p.chunk_bytes;
  const int64_t n = min(p.chunk_bytes, p.bytes - begin);
  const int shift = static_cast<int>(reinterpret_cast<uintptr_t>(p.in + begin) % 16);
  batched_small_stage(p, begin, n, staged, shift, threadIdx.x, kBatchedSmallThreads);
  __syncthreads();
  batched_small_store<uint4, Element>(p, begin, n, staged, shift, threadIdx.x,
                                      kBatchedSmallThreads);
}
#endif

}  // namespace cuda
}  // namespace gputranspose

#undef GPUTRANSPOSE_BATCHED_SMALL_FN
