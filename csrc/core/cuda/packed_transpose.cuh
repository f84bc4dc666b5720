#pragma once
// The transpose of elements of any width, and of matrices with a swapped dim far smaller
// than the tiled kernel's tile: a tile (PackedTile, ../tile_config.h) of whole matrices,
// or of one matrix's rows x cols elements, moved as units (the widest power of two that
// divides the element and both data pointers, up to 16 bytes). Each tile-row of the input
// (a run of cols x k units) is read whole into shared memory; each of the tile's output
// rows (a run of rows x k units, or the whole tile where it spans the rows) is written
// whole from there. Threads walk both sides in the memory's order, so every warp reads
// and writes consecutive units whatever the element's width or the tile's shape.
// Elements of DIRECT_FROM_BYTES or more are runs long enough on both sides to be copied
// straight from input to output (STAGED false).

#include "../tile_config.h"
#include "fast_divider.h"

#include <cstdint>

namespace gputranspose {
namespace cuda {

struct PackedParams {
  const void* in;
  void* out;
  int64_t batch, rows, cols;          // the plan's matrices, in elements
  int64_t batch_stride, row_stride;   // input, in units
  int64_t tiles_c, tiles_rc, tiles;   // along the cols; a batch-tile's; all
  uint32_t k;                         // units an element
  uint32_t tb, tr, tc;                // the tile: matrices, rows, cols
  uint32_t pitch;                     // staged units between tile-rows
  FastDivider run_in;   // tc x k: units of a tile-row in the input
  FastDivider tile_r;   // tr
  FastDivider run_out;  // tr x k: units of a tile's part of an output row
  FastDivider tile_c;   // tc
  FastDivider unit_k;   // k
};

// Blocks stride over the tiles, along the input's rows first (the walk the copy takes).
template <typename Unit, bool STAGED>
__global__ void __launch_bounds__(PackedTile::THREADS) packed_transpose_kernel(PackedParams p) {
  constexpr uint32_t T = PackedTile::THREADS;
  constexpr int U = PackedTile::UNROLL;
  extern __shared__ __align__(16) unsigned char shared[];
  Unit* staged = reinterpret_cast<Unit*>(shared);
  const Unit* in = static_cast<const Unit*>(p.in);
  Unit* out = static_cast<Unit*>(p.out);
  const uint32_t tile_units = p.tb * p.tr * p.tc * p.k;
  const int64_t out_matrix_units = p.cols * p.rows * p.k;
  const int64_t out_row_units = p.rows * p.k;
  for (int64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
    const int64_t bt = t / p.tiles_rc;
    const int64_t rt = (t - bt * p.tiles_rc) / p.tiles_c;
    const int64_t ct = t - bt * p.tiles_rc - rt * p.tiles_c;
    const int64_t b0 = bt * p.tb, r0 = rt * p.tr, c0 = ct * p.tc;
    // The tile's extent here: the last along each dim may be cut short.
    const uint32_t nb = static_cast<uint32_t>(min(int64_t{p.tb}, p.batch - b0));
    const uint32_t nr = static_cast<uint32_t>(min(int64_t{p.tr}, p.rows - r0));
    const uint32_t nck = static_cast<uint32_t>(min(int64_t{p.tc}, p.cols - c0)) * p.k;
    const uint32_t nrk = nr * p.k;
    const Unit* tile_in = in + b0 * p.batch_stride + r0 * p.row_stride + c0 * p.k;
    Unit* tile_out = out + b0 * out_matrix_units + c0 * out_row_units + r0 * p.k;
    if constexpr (STAGED) {
      for (uint32_t f0 = threadIdx.x; f0 < tile_units; f0 += T * U) {
        Unit v[U];
        uint32_t at[U];
        bool here[U];
#pragma unroll
        for (int j = 0; j < U; ++j) {
          const uint32_t f = f0 + j * T;
          const uint32_t s = p.run_in.div(f);  // staged tile-row: m x tr + r
          const uint32_t x = f - s * p.run_in.divisor;
          const uint32_t m = p.tile_r.div(s);
          const uint32_t r = s - m * p.tr;
          here[j] = f < tile_units && m < nb && r < nr && x < nck;
          at[j] = s * p.pitch + x;
          if (here[j]) v[j] = tile_in[m * p.batch_stride + r * p.row_stride + x];
        }
#pragma unroll
        for (int j = 0; j < U; ++j) {
          if (here[j]) staged[at[j]] = v[j];
        }
      }
      __syncthreads();
    }
    for (uint32_t f0 = threadIdx.x; f0 < tile_units; f0 += T * U) {
      Unit v[U];
      int64_t to[U];
      bool here[U];
#pragma unroll
      for (int j = 0; j < U; ++j) {
        const uint32_t f = f0 + j * T;
        const uint32_t o = p.run_out.div(f);  // the tile's output row: m x tc + c
        const uint32_t y = f - o * p.run_out.divisor;
        const uint32_t m = p.tile_c.div(o);
        const uint32_t c = o - m * p.tc;
        const uint32_t r = p.unit_k.div(y);
        const uint32_t u = y - r * p.k;
        here[j] = f < tile_units && m < nb && c * p.k < nck && y < nrk;
        to[j] = m * out_matrix_units + c * out_row_units + y;
        if (here[j]) {
          if constexpr (STAGED) {
            v[j] = staged[(m * p.tr + r) * p.pitch + c * p.k + u];
          } else {
            v[j] = tile_in[m * p.batch_stride + r * p.row_stride + c * p.k + u];
          }
        }
      }
#pragma unroll
      for (int j = 0; j < U; ++j) {
        if (here[j]) tile_out[to[j]] = v[j];
      }
    }
    if constexpr (STAGED) __syncthreads();
  }
}

}  // namespace cuda
}  // namespace gputranspose
