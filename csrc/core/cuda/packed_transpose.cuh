#pragma once
// The transpose of elements of any width, and of matrices with a swapped dim far smaller
// than the tiled kernel's tile. A tile (PackedTile, ../tile_config.h) is whole matrices or
// one matrix's rows x cols elements; it is staged in shared memory as the input's runs
// (a tile-row's elements, or whole rows or matrices where they lie back to back), each
// copied with aligned 16-byte loads and stores at its own skew (its address mod 16), and
// written as the output's runs (a tile's part of an output row, or whole rows and matrices
// where the tile spans them), each 16 aligned output bytes gathered from the staged units
// (the widest power of two dividing the element and both pointers) and stored at once.
// Both sides move whole aligned 16-byte chunks but at a run's two ends, whatever the
// element's width, the rows' alignment or the tile's shape.

#include "../tile_config.h"
#include "fast_divider.h"

#include <cstdint>

namespace gputranspose {
namespace cuda {

struct PackedParams {
  const unsigned char* in;
  unsigned char* out;
  int64_t batch, rows, cols;               // the plan's matrices, in elements
  int64_t batch_pitch, row_pitch;          // input, in bytes
  int64_t tiles_c, tiles_rc, tiles;        // along the cols; a batch-tile's; all
  uint32_t element_bytes;                  // W
  uint32_t tb, tr, tc;                     // the tile: matrices, rows, cols
  PackedRuns load_runs, store_runs;        // how the tile's elements make runs
  uint32_t pitch;                          // staged bytes between input runs
  uint32_t load_slots, store_slots;        // 16-byte chunks a run spans, at most
  FastDivider load_slot, store_slot;       // load_slots, store_slots
  FastDivider tile_r, tile_c, element;     // tr, tc, W
};

template <typename Unit>
__device__ __forceinline__ void copy_units(unsigned char* to, const unsigned char* from,
                                           uint32_t bytes) {
  for (uint32_t b = 0; b < bytes; b += sizeof(Unit)) {
    *reinterpret_cast<Unit*>(to + b) = *reinterpret_cast<const Unit*>(from + b);
  }
}

// One block a tile at a time; blocks stride over the tiles along the input's rows first.
template <typename Unit>
__global__ void __launch_bounds__(PackedTile::THREADS) packed_transpose_kernel(PackedParams p) {
  constexpr uint32_t T = PackedTile::THREADS;
  constexpr int U = PackedTile::UNROLL;
  constexpr int G = sizeof(Unit);
  constexpr int PER_CHUNK = 16 / G;
  extern __shared__ __align__(16) unsigned char staged[];
  const uint32_t W = p.element_bytes;
  const uint32_t in_lo = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p.in));
  for (int64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
    const int64_t bt = t / p.tiles_rc;
    const int64_t rt = (t - bt * p.tiles_rc) / p.tiles_c;
    const int64_t ct = t - bt * p.tiles_rc - rt * p.tiles_c;
    const int64_t b0 = bt * p.tb, r0 = rt * p.tr, c0 = ct * p.tc;
    const uint32_t nb = static_cast<uint32_t>(min(int64_t{p.tb}, p.batch - b0));
    const uint32_t nr = static_cast<uint32_t>(min(int64_t{p.tr}, p.rows - r0));
    const uint32_t nc = static_cast<uint32_t>(min(int64_t{p.tc}, p.cols - c0));
    const unsigned char* tile_in = p.in + b0 * p.batch_pitch + r0 * p.row_pitch + c0 * W;
    const uint32_t tile_in_lo = in_lo + static_cast<uint32_t>(b0 * p.batch_pitch) +
                                static_cast<uint32_t>(r0 * p.row_pitch) +
                                static_cast<uint32_t>(c0) * W;
    // Input run i: its first staged row (m, r) and its bytes.
    const uint32_t load_run_bytes = p.load_runs == PackedRuns::TileRow ? nc * W
                                    : p.load_runs == PackedRuns::Rows  ? nr * p.tc * W
                                                                       : nb * p.tr * p.tc * W;
    const uint32_t load_run_count = p.load_runs == PackedRuns::TileRow ? p.tb * p.tr
                                    : p.load_runs == PackedRuns::Rows  ? p.tb
                                                                       : 1;
    // Where input run i lies: its skew is its address mod 16 (the low bits of tile_in_lo
    // plus its offset).
    auto load_run_offset = [&](uint32_t m, uint32_t r) {
      return static_cast<int64_t>(m) * p.batch_pitch + static_cast<int64_t>(r) * p.row_pitch;
    };
    auto load_run_skew = [&](uint32_t m, uint32_t r) {
      return (tile_in_lo + m * static_cast<uint32_t>(p.batch_pitch) +
              r * static_cast<uint32_t>(p.row_pitch)) & 15u;
    };
    const uint32_t load_units = load_run_count * p.load_slots;
    for (uint32_t f0 = threadIdx.x; f0 < load_units; f0 += T * U) {
      uint4 v[U];
      unsigned char* to[U];
      bool whole[U];
#pragma unroll
      for (int j = 0; j < U; ++j) {
        const uint32_t f = f0 + j * T;
        whole[j] = false;
        to[j] = nullptr;
        if (f >= load_units) continue;
        const uint32_t i = p.load_slot.div(f);
        const uint32_t slot = f - i * p.load_slots;
        uint32_t m = 0, r = 0;
        if (p.load_runs == PackedRuns::TileRow) {
          m = p.tile_r.div(i);
          r = i - m * p.tr;
          if (m >= nb || r >= nr) continue;
        } else if (p.load_runs == PackedRuns::Rows) {
          m = i;
          if (m >= nb) continue;
        }
        const unsigned char* run = tile_in + load_run_offset(m, r);
        const uint32_t skew = load_run_skew(m, r);
        // Chunk `slot` of the run: bytes [start, end) of it, counted from its aligned base.
        const uint32_t start = slot * 16;
        if (start >= skew + load_run_bytes) continue;
        const unsigned char* base = run - skew;
        to[j] = staged + i * p.pitch + start;
        if (start >= skew && start + 16 <= skew + load_run_bytes) {
          whole[j] = true;
          v[j] = *reinterpret_cast<const uint4*>(base + start);
        } else {
          const uint32_t lo = max(start, skew), hi = min(start + 16, skew + load_run_bytes);
          copy_units<Unit>(to[j] + (lo - start), base + lo, hi - lo);
        }
      }
#pragma unroll
      for (int j = 0; j < U; ++j) {
        if (whole[j]) *reinterpret_cast<uint4*>(to[j]) = v[j];
      }
    }
    __syncthreads();
    // Output run o: the output rows (m, c) it holds, r from 0 (runs start at a row).
    const int64_t out_row_pitch = p.rows * W;
    // Rows and Tile runs hold whole output rows: rows == tr there.
    const uint32_t store_run_bytes = p.store_runs == PackedRuns::TileRow ? nr * W
                                     : p.store_runs == PackedRuns::Rows  ? nc * p.tr * W
                                                                         : nb * p.tc * p.tr * W;
    const uint32_t store_run_count = p.store_runs == PackedRuns::TileRow ? p.tb * p.tc
                                     : p.store_runs == PackedRuns::Rows  ? p.tb
                                                                         : 1;
    unsigned char* tile_out =
        p.out + ((b0 * p.cols + c0) * p.rows + r0) * W;
    const uint32_t store_units = store_run_count * p.store_slots;
    for (uint32_t f = threadIdx.x; f < store_units; f += T) {
      const uint32_t o = p.store_slot.div(f);
      const uint32_t slot = f - o * p.store_slots;
      uint32_t m = 0, c = 0;
      if (p.store_runs == PackedRuns::TileRow) {
        m = p.tile_c.div(o);
        c = o - m * p.tc;
        if (m >= nb || c >= nc) continue;
      } else if (p.store_runs == PackedRuns::Rows) {
        m = o;
        if (m >= nb) continue;
      }
      unsigned char* run = tile_out + (static_cast<int64_t>(m) * p.cols + c) * out_row_pitch;
      const uint32_t skew = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(run)) & 15u;
      const uint32_t start = slot * 16;
      if (start >= skew + store_run_bytes) continue;
      const uint32_t lo = max(start, skew), hi = min(start + 16, skew + store_run_bytes);
      // The first unit's element: e elements into the run, `within` bytes into it; the
      // run's elements go along r, then c, then m.
      const uint32_t d = lo - skew;
      const uint32_t e = p.element.div(d);
      uint32_t within = d - e * W;
      uint32_t r = e, step_c = 0;
      if (p.store_runs != PackedRuns::TileRow) {
        step_c = p.tile_r.div(e);
        r = e - step_c * p.tr;
      }
      c += step_c;
      if (p.store_runs == PackedRuns::Tile) {
        const uint32_t step_m = p.tile_c.div(c);
        m += step_m;
        c -= step_m * p.tc;
      }
      // The staged byte of (m, c, r) + within.
      auto staged_row = [&](uint32_t mm, uint32_t rr) -> const unsigned char* {
        const uint32_t s = mm * p.tr + rr;
        if (p.load_runs == PackedRuns::TileRow) {
          return staged + s * p.pitch + load_run_skew(mm, rr);
        }
        if (p.load_runs == PackedRuns::Rows) {
          return staged + mm * p.pitch + load_run_skew(mm, 0) + rr * p.tc * W;
        }
        return staged + load_run_skew(0, 0) + s * p.tc * W;
      };
      const unsigned char* row = staged_row(m, r);
      auto next_unit = [&]() {
        within += G;
        if (within == W) {
          within = 0;
          if (++r == p.tr) {
            r = 0;
            if (++c == p.tc) {
              c = 0;
              ++m;
            }
          }
          row = staged_row(m, r);
        }
      };
      unsigned char* to = run - skew;
      if (lo == start && hi == start + 16) {
        Unit units[PER_CHUNK];
#pragma unroll
        for (int u = 0; u < PER_CHUNK; ++u) {
          units[u] = *reinterpret_cast<const Unit*>(row + c * W + within);
          if (u + 1 < PER_CHUNK) next_unit();
        }
        uint4 chunk;
        memcpy(&chunk, units, 16);
        *reinterpret_cast<uint4*>(to + start) = chunk;
      } else {
        for (uint32_t b = lo; b < hi; b += G) {
          *reinterpret_cast<Unit*>(to + b) = *reinterpret_cast<const Unit*>(row + c * W + within);
          next_unit();
        }
      }
    }
    __syncthreads();
  }
}

}  // namespace cuda
}  // namespace gputranspose
