#pragma once
// The transpose of elements whose size is no power of two and no multiple of 16 (3, 6,
// 12, 24, 40 ... bytes: odd trailing blocks), moved as k units of U bytes, U the largest
// power of two (up to 8) that divides the element and both data pointers' addresses (the
// kernel choice's unit_size). A tile of T x T elements goes through
// shared memory: each input row's part of the tile is T x k contiguous units (or T runs of
// k units, for strided elements), each output row's part too, so both sides are read and
// written in consecutive units by consecutive lanes. Shared memory rows are (T + 1) x k units long: unit j of tile row r then sits in
// bank (r k + j) mod 32 (for 4-byte units), so the gather of an output row (r = j' / k,
// unit j' mod k) meets no bank twice. 64-bit offsets throughout; outer batch dims as in
// the other kernels (outer_batch.cuh).

#include "fast_divider.h"
#include "outer_batch.cuh"
#include "ptx.cuh"

#include <cstdint>

namespace gputranspose {
namespace cuda {

struct UnitTiledParams {
  const char* in;
  char* out;
  int64_t rows;              // of each input matrix, in elements
  int64_t cols;
  int64_t batch_stride;      // input, in units
  int64_t row_stride;        // input, in units
  int64_t col_stride;        // input, in units: k where the elements lie back to back
  int64_t out_batch_stride;  // output, in elements
  int64_t out_row_stride;    // output, in elements
  int tile;                  // T: a tile's rows and columns, in elements
  FastDivider units;         // k: units per element
  FastDivider matrix_tiles;  // tiles per matrix
  FastDivider tiles_c;       // tiles along a matrix's columns
  OuterBatch outer;
};

constexpr int kUnitTiledThreads = 256;

template <int U>
__global__ void __launch_bounds__(kUnitTiledThreads) unit_tiled_transpose_kernel(UnitTiledParams p) {
  using T = typename Bytes<U>::type;
  extern __shared__ __align__(16) char smem_bytes[];
  T* smem = reinterpret_cast<T*>(smem_bytes);
  if (!add_outer_offsets(p.outer, p.in, p.out)) return;
  const uint32_t block = blockIdx.x;
  const uint32_t b = p.matrix_tiles.div(block);
  const uint32_t t = block - b * p.matrix_tiles.divisor;
  const uint32_t tr = p.tiles_c.div(t);
  const uint32_t tc = t - tr * p.tiles_c.divisor;
  const int k = static_cast<int>(p.units.divisor);
  const int64_t r0 = int64_t{tr} * p.tile;
  const int64_t c0 = int64_t{tc} * p.tile;
  const int rows_here = static_cast<int>(p.rows - r0 < p.tile ? p.rows - r0 : p.tile);
  const int cols_here = static_cast<int>(p.cols - c0 < p.tile ? p.cols - c0 : p.tile);
  const int pitch = (p.tile + 1) * k;  // units of a shared-memory row
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  constexpr int WARPS = kUnitTiledThreads / 32;

  // Input rows: a warp a row, its lanes along the row's cols_here x k units (element
  // j / k's unit j mod k where the elements are strided).
  const T* in = reinterpret_cast<const T*>(p.in) + b * p.batch_stride + r0 * p.row_stride +
                c0 * p.col_stride;
  const int row_units = cols_here * k;
  if (p.col_stride == k) {
    for (int r = warp; r < rows_here; r += WARPS) {
      const T* row = in + r * p.row_stride;
      for (int j = lane; j < row_units; j += 32) smem[r * pitch + j] = row[j];
    }
  } else {
    // Lane l starts at element l / k, unit l mod k, and steps 32 units: 32 / k elements
    // and 32 mod k units (carrying one element past k).
    const int first_c = static_cast<int>(p.units.div(static_cast<uint32_t>(lane)));
    const int first_u = lane - first_c * k;
    const int step_c = static_cast<int>(p.units.div(32u));
    const int step_u = 32 - step_c * k;
    for (int r = warp; r < rows_here; r += WARPS) {
      const T* row = in + r * p.row_stride;
      int c = first_c;
      int u = first_u;
      for (int j = lane; j < row_units; j += 32) {
        smem[r * pitch + j] = row[c * p.col_stride + u];
        c += step_c;
        u += step_u;
        if (u >= k) {
          u -= k;
          ++c;
        }
      }
    }
  }
  __syncthreads();
  // Output rows (input columns): a warp a row, its lanes along rows_here x k units; unit
  // j' is unit j' mod k of input row j' / k's element in this column.
  T* out = reinterpret_cast<T*>(p.out) + (b * p.out_batch_stride + c0 * p.out_row_stride + r0) * k;
  const int out_units = rows_here * k;
  for (int c = warp; c < cols_here; c += WARPS) {
    T* row = out + c * p.out_row_stride * k;
    for (int j = lane; j < out_units; j += 32) {
      const uint32_t r = p.units.div(static_cast<uint32_t>(j));
      const int u = j - static_cast<int>(r) * k;
      row[j] = smem[static_cast<int>(r) * pitch + c * k + u];
    }
  }
}

}  // namespace cuda
}  // namespace gputranspose
