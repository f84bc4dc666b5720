#pragma once
// Batches of small matrices whose result is contiguous and whose rows start anywhere, so
// that the tiled kernel can neither fold several into a tile nor fill its own tiles: 34 x 35
// bytes, 113 x 10 bytes, 5 x 2 doubles at an odd offset, 3 x 1024 bytes of rows 1031 apart.
// A block moves a chunk of whole matrices, one run of bytes of the output. It reads the
// chunk into shared memory with aligned 16-byte loads (the words that a run only partly
// covers byte by byte, so nothing outside it is read): one run where the input's matrices
// lie back to back too, else row by row, each row at the same place mod 16 in shared memory
// as in global memory (rows a pitch apart, ROWS_APART). Then it writes the output run as
// aligned 16-byte words, each gathered element by element from shared memory. The phases
// are host-callable so that tests/cpp runs them as a block would.

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
  int64_t chunk_bytes;          // a block's run of the output: whole matrices
  FastDivider matrix_elements;  // R x C
  FastDivider rows;             // R: an output row's elements
  uint32_t cols;                // C: an input row's elements
  // ROWS_APART: the input's matrices and rows a pitch apart (bytes), and each input row's
  // place in shared memory: row_pitch bytes apart (a multiple of 16), in words_per_row
  // 16-byte words (the most a row of C elements touches).
  int64_t batch_stride;
  int64_t row_stride;
  uint32_t row_pitch;
  FastDivider words_per_row;
};

// The kernel's parameters for a plan of small matrices (TiledContiguous, TiledRowStrided,
// or pitched rows as pitched_rows_as_matrices gives them), a block's run of `chunk_bytes`.
inline BatchedSmallParams batched_small_params(const TransposePlan& plan, int64_t chunk_bytes,
                                               const void* in, void* out) {
  const int64_t e = plan.element_size;
  BatchedSmallParams p;
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  p.bytes = plan.bytes;
  p.chunk_bytes = chunk_bytes;
  p.matrix_elements = FastDivider(static_cast<uint32_t>(plan.rows * plan.cols));
  p.rows = FastDivider(static_cast<uint32_t>(plan.rows));
  p.cols = static_cast<uint32_t>(plan.cols);
  p.batch_stride = plan.batch_stride * e;
  p.row_stride = plan.row_stride * e;
  const int64_t words_per_row = batched_small_words_per_row(plan.cols * e);
  p.row_pitch = static_cast<uint32_t>(16 * words_per_row);
  p.words_per_row = FastDivider(static_cast<uint32_t>(words_per_row));
  return p;
}

// A chunk's input: its first matrix and the bytes its rows start at mod 16 (ROWS_APART:
// row r of the chunk starts at (first + r's matrix x batch_stride + r's row x row_stride)).
struct BatchedSmallChunk {
  int64_t begin;    // the chunk's first output byte (and, back to back, input byte)
  int64_t n;        // its bytes
  int64_t matrix;   // its first matrix
  int shift;        // back to back: the input run's start mod 16
};

// Phase 1, thread `thread` of `threads`. Back to back: input bytes [begin, begin + n) ->
// shared[shift + k], shift the run's start mod 16, so that the input's aligned 16-byte words
// (Vec) land on shared memory's. ROWS_APART: input row r of the chunk -> shared[r x
// row_pitch + its start mod 16 + k], likewise.
template <bool ROWS_APART, class Vec>
GPUTRANSPOSE_BATCHED_SMALL_FN void batched_small_stage(const BatchedSmallParams& p,
                                                       const BatchedSmallChunk& c, Vec* staged,
                                                       int element_size, int thread,
                                                       int threads) {
  static_assert(sizeof(Vec) == 16, "16-byte words");
  char* shared = reinterpret_cast<char*>(staged);
  if constexpr (!ROWS_APART) {
    const char* src = p.in + c.begin;
    const int64_t words = (c.shift + c.n + 15) / 16;
    for (int64_t w = thread; w < words; w += threads) {
      const int64_t lo = 16 * w - c.shift;  // the word's first byte, from src
      if (lo >= 0 && lo + 16 <= c.n) {
        staged[w] = *reinterpret_cast<const Vec*>(src + lo);
      } else {
        for (int64_t k = lo < 0 ? 0 : lo; k < lo + 16 && k < c.n; ++k) shared[c.shift + k] = src[k];
      }
    }
  } else {
    const int64_t row_bytes = int64_t{p.cols} * element_size;
    const uint32_t rows = static_cast<uint32_t>(c.n / row_bytes);
    const uint32_t words = rows * p.words_per_row.divisor;
    for (uint32_t f = thread; f < words; f += threads) {
      const uint32_t r = p.words_per_row.div(f);
      const uint32_t w = f - r * p.words_per_row.divisor;
      const uint32_t m = p.rows.div(r);
      const char* src = p.in + (c.matrix + m) * p.batch_stride +
                        int64_t{r - m * p.rows.divisor} * p.row_stride;
      const int shift = static_cast<int>(reinterpret_cast<uintptr_t>(src) % 16);
      char* row = shared + int64_t{r} * p.row_pitch;
      const int64_t lo = 16 * int64_t{w} - shift;
      if (lo >= 0 && lo + 16 <= row_bytes) {
        reinterpret_cast<Vec*>(row)[w] = *reinterpret_cast<const Vec*>(src + lo);
      } else {
        for (int64_t k = lo < 0 ? 0 : lo; k < lo + 16 && k < row_bytes; ++k) row[shift + k] = src[k];
      }
    }
  }
}

// Phase 2: output bytes [begin, begin + n) as aligned 16-byte words (whole elements: the
// output lies on its element, and E divides 16), each element gathered from shared memory;
// the words the run only partly covers, element by element. A word's elements follow one
// another along the output: the first one's place takes two divisions, each next one a
// step of the walk (the next input row, at the column's end the next column, at the
// matrix's end the next matrix), so that a 1-byte word's 16 gathers issue no division.
struct BatchedSmallWalk {
  uint32_t matrix;  // of the chunk
  uint32_t row;     // i: of the matrix's input rows (the output row's element)
  uint32_t col;     // j: of the input's columns (the output row)
};
GPUTRANSPOSE_BATCHED_SMALL_FN BatchedSmallWalk batched_small_walk(uint32_t k,
                                                                  const BatchedSmallParams& p) {
  const uint32_t m = p.matrix_elements.div(k);
  const uint32_t t = k - m * p.matrix_elements.divisor;
  const uint32_t j = p.rows.div(t);
  return {m, t - j * p.rows.divisor, j};
}
GPUTRANSPOSE_BATCHED_SMALL_FN void batched_small_step(BatchedSmallWalk& w,
                                                      const BatchedSmallParams& p) {
  if (++w.row == p.rows.divisor) {
    w.row = 0;
    if (++w.col == p.cols) {
      w.col = 0;
      ++w.matrix;
    }
  }
}

template <bool ROWS_APART, class Element>
GPUTRANSPOSE_BATCHED_SMALL_FN Element batched_small_element(const BatchedSmallParams& p,
                                                            const BatchedSmallChunk& c,
                                                            const char* shared,
                                                            const BatchedSmallWalk& w) {
  const uint32_t row = w.matrix * p.rows.divisor + w.row;  // of the chunk
  if constexpr (!ROWS_APART) {
    return reinterpret_cast<const Element*>(shared + c.shift)[row * p.cols + w.col];
  } else {
    const uintptr_t start = reinterpret_cast<uintptr_t>(p.in) + (c.matrix + w.matrix) * p.batch_stride +
                            int64_t{w.row} * p.row_stride;
    return reinterpret_cast<const Element*>(shared + int64_t{row} * p.row_pitch + start % 16)[w.col];
  }
}

template <bool ROWS_APART, class Vec, class Element>
GPUTRANSPOSE_BATCHED_SMALL_FN void batched_small_store(const BatchedSmallParams& p,
                                                       const BatchedSmallChunk& c,
                                                       const Vec* staged, int thread,
                                                       int threads) {
  constexpr int E = sizeof(Element);
  const char* shared = reinterpret_cast<const char*>(staged);
  char* dst = p.out + c.begin;
  const int out_shift = static_cast<int>(reinterpret_cast<uintptr_t>(dst) % 16);
  const int64_t words = (out_shift + c.n + 15) / 16;
  for (int64_t w = thread; w < words; w += threads) {
    const int64_t lo = 16 * w - out_shift;
    const int64_t first = (lo < 0 ? 0 : lo) / E;
    BatchedSmallWalk walk = batched_small_walk(static_cast<uint32_t>(first), p);
    if (lo >= 0 && lo + 16 <= c.n) {
      Vec v;
      Element* e = reinterpret_cast<Element*>(&v);
      if (!ROWS_APART && p.rows.divisor >= 16 / E) {
        // Output rows of a word's elements or more: the word lies in two output rows at
        // most, the first one's elements C apart from its first, the next one's C apart
        // from its start (column col + 1, or the next matrix's first).
        const uint32_t R = p.rows.divisor, C = p.cols;
        const uint32_t matrix_start = walk.matrix * R * C;
        const uint32_t first_row = matrix_start + walk.row * C + walk.col;
        const uint32_t split = R - walk.row;  // the word's elements in the first output row
        const uint32_t next_row = walk.col + 1 == C ? matrix_start + R * C : matrix_start + walk.col + 1;
        const uint32_t next_from = next_row - split * C;  // mod 2^32: element q >= split
        const Element* source = reinterpret_cast<const Element*>(shared + c.shift);
#pragma unroll
        for (uint32_t q = 0; q < 16 / E; ++q) e[q] = source[q * C + (q < split ? first_row : next_from)];
      } else {
#pragma unroll
        for (int q = 0; q < 16 / E; ++q) {
          e[q] = batched_small_element<ROWS_APART, Element>(p, c, shared, walk);
          batched_small_step(walk, p);
        }
      }
      *reinterpret_cast<Vec*>(dst + lo) = v;
    } else {
      for (int64_t k = first * E; k < lo + 16 && k < c.n; k += E) {
        reinterpret_cast<Element*>(dst)[k / E] =
            batched_small_element<ROWS_APART, Element>(p, c, shared, walk);
        batched_small_step(walk, p);
      }
    }
  }
}

// Block `block`'s chunk.
GPUTRANSPOSE_BATCHED_SMALL_FN BatchedSmallChunk batched_small_chunk(const BatchedSmallParams& p,
                                                                    int64_t block,
                                                                    int element_size) {
  BatchedSmallChunk c;
  c.begin = block * p.chunk_bytes;
  c.n = p.bytes - c.begin < p.chunk_bytes ? p.bytes - c.begin : p.chunk_bytes;
  c.matrix = c.begin / (int64_t{p.matrix_elements.divisor} * element_size);
  c.shift = static_cast<int>(reinterpret_cast<uintptr_t>(p.in + c.begin) % 16);
  return c;
}

#if defined(__CUDACC__)
template <bool ROWS_APART, class Element>
__global__ void __launch_bounds__(kBatchedSmallThreads)
    batched_small_transpose_kernel(BatchedSmallParams p) {
  extern __shared__ uint4 staged[];
  const BatchedSmallChunk c = batched_small_chunk(p, blockIdx.x, sizeof(Element));
  batched_small_stage<ROWS_APART>(p, c, staged, sizeof(Element), threadIdx.x,
                                  kBatchedSmallThreads);
  __syncthreads();
  batched_small_store<ROWS_APART, uint4, Element>(p, c, staged, threadIdx.x,
                                                  kBatchedSmallThreads);
}
#endif

}  // namespace cuda
}  // namespace gputranspose

#undef GPUTRANSPOSE_BATCHED_SMALL_FN
