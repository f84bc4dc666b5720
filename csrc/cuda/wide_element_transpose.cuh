#pragma once
// The transpose of elements wider than 16 bytes: the dims after an adjacent swapped
// pair, a multiple of 16 bytes together (x.transpose(1, 2) of a (B, S, H, D) tensor
// moves rows of D values). Each element is a contiguous run on both sides, so no tile
// is needed: blocks copy 16-byte units in the output's order, a warp writing one
// contiguous span and reading whole elements (runs of 32 bytes or more), each thread
// issuing all its loads before its stores.

#include "fast_divider.h"

#include <cstdint>

namespace gputranspose {
namespace cuda {

struct WideElementParams {
  const uint4* __restrict__ in;
  uint4* __restrict__ out;
  int64_t batch_stride;        // input, in 16-byte units
  int64_t row_stride;          // input, in 16-byte units
  uint32_t out_row_units;      // 16-byte units per output row: rows x element_units (< 2^31)
  uint32_t out_rows;           // batch x cols (< 2^31)
  FastDivider element_units;   // 16-byte units per element
  FastDivider cols;            // output rows per matrix
};

struct WideElementTile {
  static constexpr int THREADS = 256;
  static constexpr int UNITS_PER_THREAD = 4;
  static constexpr int UNITS = THREADS * UNITS_PER_THREAD;  // of one output row, per block
};

// blockIdx.x: which UNITS of an output row; blockIdx.y (striding by gridDim.y): the row.
__global__ void __launch_bounds__(WideElementTile::THREADS)
    wide_element_transpose_kernel(WideElementParams p) {
  constexpr int THREADS = WideElementTile::THREADS;
  constexpr int K = WideElementTile::UNITS_PER_THREAD;
  const uint32_t first = blockIdx.x * WideElementTile::UNITS + threadIdx.x;
  for (uint32_t out_row = blockIdx.y; out_row < p.out_rows; out_row += gridDim.y) {
    const uint32_t b = p.cols.div(out_row);
    const uint32_t col = out_row - b * p.cols.divisor;
    const uint4* in = p.in + b * p.batch_stride + int64_t{col} * p.element_units.divisor;
    uint4* out = p.out + int64_t{out_row} * p.out_row_units;
    uint4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const uint32_t u = first + k * THREADS;
      if (u < p.out_row_units) {
        const uint32_t row = p.element_units.div(u);
        v[k] = in[int64_t{row} * p.row_stride + (u - row * p.element_units.divisor)];
      }
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const uint32_t u = first + k * THREADS;
      if (u < p.out_row_units) out[u] = v[k];
    }
  }
}

}  // namespace cuda
}  // namespace gputranspose
