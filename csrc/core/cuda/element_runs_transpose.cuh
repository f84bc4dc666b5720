#pragma once
// The transpose of long elements that lie on no 4-byte boundary (odd trailing blocks of 1- and
// 2-byte values: 100, 200, 255 bytes ... at any address and stride), element by element: each
// element is a run of E bytes in the input and in the output, and an output row (input
// column) is its elements' runs back to back. A block moves a chunk of one output row: its
// threads store the chunk's whole 4-byte words, each built from the two aligned input words
// that hold its 4 bytes (a funnel shift by the run's offset mod 4), and its first and last
// bytes one by one. No shared memory and no barrier: the tiles of the unit-tiled kernel would
// gather such elements byte by byte. Words whose bytes span two elements, or whose aligned
// input words reach past their element (the last word of a run), are read byte by byte, so
// that no load reaches past an element's last byte (the first aligned word of a run may hold
// up to 3 bytes before it). 64-bit offsets; outer batch dims as in the other kernels
// (outer_batch.cuh). A thread's work is host-callable so that tests/cpp runs every thread of
// every block as the GPU would.

#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "fast_divider.h"
#include "outer_batch.cuh"

#include <cstdint>

#if defined(__CUDACC__)
#define GPUTRANSPOSE_ELEMENT_RUNS_FN __host__ __device__ inline
#else
#define GPUTRANSPOSE_ELEMENT_RUNS_FN inline
#endif

namespace gputranspose {
namespace cuda {

constexpr int kElementRunsThreads = kElementRunsThreadsPerBlock;

struct ElementRunsParams {
  const char* in;
  char* out;
  int64_t rows;              // elements of an output row (input rows)
  int64_t batch_stride;      // input, bytes
  int64_t row_stride;        // input, bytes
  int64_t col_stride;        // input, bytes
  int64_t out_batch_stride;  // output, bytes
  int64_t out_row_stride;    // output, bytes
  int chunk;                 // elements a block (of one output row)
  FastDivider element;       // E, bytes
  FastDivider chunks;        // blocks an output row
  FastDivider cols;          // output rows a matrix
  OuterBatch outer;
};

// The kernel's parameters for a plan and its KernelChoice.
inline ElementRunsParams element_runs_params(const TransposePlan& plan, const KernelChoice& choice,
                                             const void* in, void* out) {
  const int64_t e = plan.element_size;
  const int64_t unit = plan.stride_unit;
  ElementRunsParams p;
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  p.rows = plan.rows;
  p.batch_stride = plan.batch_stride * unit;
  p.row_stride = plan.row_stride * unit;
  p.col_stride = plan.col_stride * unit;
  p.out_batch_stride = plan.out_batch_stride * e;
  p.out_row_stride = plan.out_row_stride * e;
  p.chunk = static_cast<int>(choice.chunk_elements);
  p.element = FastDivider(static_cast<uint32_t>(e));
  p.chunks = FastDivider(static_cast<uint32_t>((plan.rows + p.chunk - 1) / p.chunk));
  p.cols = FastDivider(static_cast<uint32_t>(plan.cols));
  p.outer = outer_batch(plan, unit, e);
  return p;
}

// One block's chunk: the output row it belongs to, its first element's input run and its
// output bytes (`head` before the first whole word, then `words` words and the rest).
struct ElementRunsChunk {
  const char* run;  // the chunk's first element in the input
  char* dst;        // its first output byte
  uint32_t len;     // output bytes
  uint32_t head;
  uint32_t words;
};

GPUTRANSPOSE_ELEMENT_RUNS_FN ElementRunsChunk element_runs_chunk(const ElementRunsParams& p,
                                                                 const char* in, char* out,
                                                                 uint32_t block) {
  const uint32_t row = p.chunks.div(block);  // output row of the batch: b x cols + c
  const uint32_t chunk = block - row * p.chunks.divisor;
  const uint32_t b = p.cols.div(row);
  const uint32_t c = row - b * p.cols.divisor;
  const int64_t r0 = int64_t{chunk} * p.chunk;
  const int64_t n = p.rows - r0 < p.chunk ? p.rows - r0 : p.chunk;
  const uint32_t e = p.element.divisor;
  ElementRunsChunk k;
  k.run = in + b * p.batch_stride + c * p.col_stride + r0 * p.row_stride;
  k.dst = out + b * p.out_batch_stride + c * p.out_row_stride + r0 * e;
  k.len = static_cast<uint32_t>(n) * e;
  const uint32_t lead = (0u - static_cast<uint32_t>(reinterpret_cast<uintptr_t>(k.dst))) & 3u;
  k.head = lead < k.len ? lead : k.len;
  k.words = (k.len - k.head) / 4;
  return k;
}

// The input's loads (the host test checks each one's bytes: GPUTRANSPOSE_ELEMENT_RUNS_CHECK).
GPUTRANSPOSE_ELEMENT_RUNS_FN uint32_t element_runs_load(const char* at) {
#if defined(__CUDA_ARCH__)
  return __ldg(reinterpret_cast<const uint32_t*>(at));
#else
#if defined(GPUTRANSPOSE_ELEMENT_RUNS_CHECK)
  GPUTRANSPOSE_ELEMENT_RUNS_CHECK(at, 4);
#endif
  return *reinterpret_cast<const uint32_t*>(at);
#endif
}

GPUTRANSPOSE_ELEMENT_RUNS_FN uint8_t element_runs_load_byte(const char* at) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint8_t>(__ldg(at));
#else
#if defined(GPUTRANSPOSE_ELEMENT_RUNS_CHECK)
  GPUTRANSPOSE_ELEMENT_RUNS_CHECK(at, 1);
#endif
  return static_cast<uint8_t>(*at);
#endif
}

// Output byte `at` of the chunk (its elements a row_stride apart from `run`).
GPUTRANSPOSE_ELEMENT_RUNS_FN uint8_t element_runs_byte(const ElementRunsParams& p,
                                                       const char* run, uint32_t at) {
  const uint32_t j = p.element.div(at);
  return element_runs_load_byte(run + j * p.row_stride + (at - j * p.element.divisor));
}

// The chunk's output word w (bytes head + 4w on): the two aligned input words that hold its
// bytes, shifted, where they lie in one element; else byte by byte.
GPUTRANSPOSE_ELEMENT_RUNS_FN uint32_t element_runs_word(const ElementRunsParams& p,
                                                        const ElementRunsChunk& k, uint32_t w) {
  const uint32_t e = p.element.divisor;
  const uint32_t at = k.head + 4 * w;
  const uint32_t j = p.element.div(at);
  const uint32_t offset = at - j * e;
  const char* element = k.run + j * p.row_stride;
  const uintptr_t src = reinterpret_cast<uintptr_t>(element + offset);
  const uintptr_t end = reinterpret_cast<uintptr_t>(element + e);
  const uintptr_t aligned = src & ~uintptr_t{3};
  const uint32_t shift = static_cast<uint32_t>(src & 3) * 8;
  if (offset + 4 <= e && aligned + (shift != 0 ? 8 : 4) <= end) {
    const uint32_t lo = element_runs_load(reinterpret_cast<const char*>(aligned));
    if (shift == 0) return lo;
    const uint32_t hi = element_runs_load(reinterpret_cast<const char*>(aligned + 4));
    return (lo >> shift) | (hi << (32 - shift));
  }
  uint32_t word = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    word |= static_cast<uint32_t>(element_runs_byte(p, k.run, at + i)) << (8 * i);
  }
  return word;
}

// The chunk's byte that thread t stores (t < head + tail): the first `head` bytes and the
// last (len - head) mod 4.
GPUTRANSPOSE_ELEMENT_RUNS_FN uint32_t element_runs_edge_byte(const ElementRunsChunk& k,
                                                             uint32_t t) {
  return t < k.head ? t : k.head + 4 * k.words + (t - k.head);
}

GPUTRANSPOSE_ELEMENT_RUNS_FN uint32_t element_runs_edges(const ElementRunsChunk& k) {
  return k.len - 4 * k.words;
}

// Thread `thread` of block `block` (in and out after the block's outer batch offsets): its
// whole words of the chunk, kElementRunsThreads apart, then its edge byte if it has one.
GPUTRANSPOSE_ELEMENT_RUNS_FN void element_runs_thread(const ElementRunsParams& p, const char* in,
                                                      char* out, uint32_t block, uint32_t thread) {
  const ElementRunsChunk k = element_runs_chunk(p, in, out, block);
  uint32_t* dst_words = reinterpret_cast<uint32_t*>(k.dst + k.head);
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
  for (uint32_t w = thread; w < k.words; w += kElementRunsThreads) {
    dst_words[w] = element_runs_word(p, k, w);
  }
  if (thread < element_runs_edges(k)) {
    const uint32_t at = element_runs_edge_byte(k, thread);
    k.dst[at] = static_cast<char>(element_runs_byte(p, k.run, at));
  }
}

#if defined(__CUDACC__)
__global__ void __launch_bounds__(kElementRunsThreads)
    element_runs_transpose_kernel(ElementRunsParams p) {
  const char* in = p.in;
  char* out = p.out;
  if (!add_outer_offsets(p.outer, in, out)) return;
  element_runs_thread(p, in, out, blockIdx.x, threadIdx.x);
}
#endif

}  // namespace cuda
}  // namespace gputranspose
