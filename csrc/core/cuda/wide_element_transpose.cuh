#pragma once
// The transpose of elements wider than 16 bytes: the dims after an adjacent swapped
// pair, a multiple of 16 bytes together (x.transpose(1, 2) of a (B, S, H, D) tensor
// moves rows of D values). Each element is a contiguous run on both sides, so no shared
// memory is needed: a thread copies 16-byte units straight from input to output (one,
// as a copy does; two where that keeps a tile's part of each output row at 256 bytes).
// A tile (WideElementTile, ../tile_config.h) is 2^rows_log2 output rows by a span of
// units of each, so that each input row's part of it is a run of up to 1 KiB: with one
// output row a block, narrow elements of rows far apart are read a few bytes at a time
// by different blocks.
// Blocks walk the tiles along the output rows, or, where input rows lie 128 KiB or more
// apart, in patches of 16 tile-rows, across a patch's tile-rows first: the blocks in
// flight then read a window of 16 KiB or more of each input row they touch, not all the
// same few KiB of every row, which the memory serves slowly at such pitches.
// Inputs larger than L2 are read at L2 evict_last and released by the last blocks, as
// the tiled kernel's are.

#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "../tile_config.h"
#include "fast_divider.h"
#include "outer_batch.cuh"
#include "ptx.cuh"

#include <cstdint>

namespace gputranspose {
namespace cuda {

// Unit: the type moved, 16 bytes (uint4) where the pointers, the element and the input's
// strides lie on 16 bytes; 8, 4, 2 or 1 byte where they lie only on that (elements over
// 682 bytes at a storage offset or a pitch that cuts them, which the unit-tiled kernel's
// tile cannot hold).
template <typename Unit>
struct WideElementParams {
  const Unit* __restrict__ in;
  Unit* __restrict__ out;
  int64_t batch_stride;       // input, in units
  int64_t row_stride;         // input, in units
  int64_t col_stride;         // input, in units (elements of a row: any stride)
  int64_t out_batch_stride;   // output, in units
  int64_t out_row_stride;     // output, in units (between rows' first units)
  uint32_t out_row_units;     // units per output row: rows x element_units (< 2^31)
  uint32_t out_rows;          // batch x cols (< 2^31), of one outer batch
  uint32_t row_groups;        // tiles along the output rows: out_rows / 2^rows_log2, rounded up
  int rows_log2;              // output rows a tile (WideElementTile::rows_log2)
  FastDivider element_units;  // units per element
  FastDivider cols;           // output rows per matrix
  uint32_t patch_groups;      // tile-rows a patch of the walk
  FastDivider patch_blocks;   // blocks (tiles) a patch of the walk: patch_groups x spans
  uint32_t release_from;      // EVICT_LAST: the first block that releases its input lines
                              // (the kernel choice's release_from)
  OuterBatch outer;           // a permutation's further batch dims (outer_batch.cuh)
};

// The launch's parameters for a tile of `tile_units` units (THREADS x K), from the plan and
// the kernel choice: the launcher's (launch_wide.cu) and the host test's.
template <typename Unit>
inline WideElementParams<Unit> wide_element_params(const TransposePlan& plan,
                                                   const KernelChoice& choice, int tile_units,
                                                   const void* in, void* out) {
  constexpr int64_t U = sizeof(Unit);
  const int64_t element_units = plan.element_size / U;
  WideElementParams<Unit> params;
  params.in = static_cast<const Unit*>(in);
  params.out = static_cast<Unit*>(out);
  // The input's strides count elements or values (plan.stride_unit), each on the unit.
  params.batch_stride = plan.batch_stride * plan.stride_unit / U;
  params.row_stride = plan.row_stride * plan.stride_unit / U;
  params.col_stride = plan.col_stride * plan.stride_unit / U;
  params.out_batch_stride = plan.out_batch_stride * element_units;
  params.out_row_stride = plan.out_row_stride * element_units;
  params.outer = outer_batch(plan, plan.stride_unit, plan.element_size);
  params.out_row_units = static_cast<uint32_t>(plan.rows * element_units);
  params.out_rows = static_cast<uint32_t>(plan.batch * plan.cols);
  params.rows_log2 = choice.wide_rows_log2;
  params.row_groups = static_cast<uint32_t>(
      (int64_t{params.out_rows} + (int64_t{1} << params.rows_log2) - 1) >> params.rows_log2);
  params.element_units = FastDivider(static_cast<uint32_t>(element_units));
  params.cols = FastDivider(static_cast<uint32_t>(plan.cols));
  const int64_t span = tile_units >> params.rows_log2;
  const int64_t spans = (params.out_row_units + span - 1) / span;
  params.patch_groups = static_cast<uint32_t>(choice.patch_groups);
  params.patch_blocks = FastDivider(static_cast<uint32_t>(spans * params.patch_groups));
  params.release_from = static_cast<uint32_t>(choice.release_from);
  return params;
}

template <bool EVICT_LAST, typename Unit>
__device__ __forceinline__ Unit load_unit(const Unit* p) {
  if constexpr (EVICT_LAST) {
    static_assert(sizeof(Unit) == 16, "evict_last reads move 16-byte units");
    uint4 v;
    asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(p), "l"(evict_last_policy()));
    return v;
  } else {
    return *p;
  }
}

// One block a tile of THREADS x K units; blockIdx.x walks them in patches (above).
// EVICT_LAST: input read at L2 evict_last; blocks from release_from on release the
// lines they read once their stores are issued, by the thread whose unit starts a line
// or, for a line that starts before its input row (in a gap between rows, or in the
// row before), whose unit starts the row. A line whose first unit an earlier,
// non-releasing block read stays at evict_last: where the releases begin, about one a
// row where a tile's run does not end on a line (none on the suite's shapes; about
// 6 MiB of a 25 MiB window for 272-byte elements). It is harmless: after such elements a
// 24 MB sum runs as after a copy (later evict_last lines displace them), and releasing
// them too costs more than it gains.
template <typename Unit, int THREADS, int K, bool EVICT_LAST>
__global__ void __launch_bounds__(THREADS)
    wide_element_transpose_kernel(WideElementParams<Unit> p) {
  constexpr int UNITS = THREADS * K;
  if (!add_outer_offsets(p.outer, p.in, p.out)) return;
  const uint32_t patch = p.patch_blocks.div(blockIdx.x);
  const uint32_t within = blockIdx.x - patch * p.patch_blocks.divisor;
  const uint32_t first_group = patch * p.patch_groups;
  const uint32_t groups_here = min(p.patch_groups, p.row_groups - first_group);  // the last: fewer
  const uint32_t span = within / groups_here;
  const uint32_t group = first_group + (within - span * groups_here);
  const int span_log2 = __ffs(UNITS) - 1 - p.rows_log2;  // units of a row a tile
  const uint32_t span_mask = (1u << span_log2) - 1;
  const uint32_t first_unit = span << span_log2;
  const uint32_t first_row = group << p.rows_log2;
  Unit v[K];
  const Unit* from[K];  // where each unit was read (nullptr: none)
  bool starts_row[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const uint32_t i = threadIdx.x + k * THREADS;
    const uint32_t out_row = first_row + (i >> span_log2);
    const uint32_t u = first_unit + (i & span_mask);
    from[k] = nullptr;
    starts_row[k] = false;
    if (out_row < p.out_rows && u < p.out_row_units) {
      const uint32_t b = p.cols.div(out_row);
      const uint32_t col = out_row - b * p.cols.divisor;
      const uint32_t row = p.element_units.div(u);
      const uint32_t unit_in_element = u - row * p.element_units.divisor;
      from[k] = p.in + (b * p.batch_stride + int64_t{col} * p.col_stride +
                        int64_t{row} * p.row_stride + unit_in_element);
      starts_row[k] = col == 0 && unit_in_element == 0;
      v[k] = load_unit<EVICT_LAST>(from[k]);
    }
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const uint32_t i = threadIdx.x + k * THREADS;
    const uint32_t out_row = first_row + (i >> span_log2);
    const uint32_t u = first_unit + (i & span_mask);
    if (out_row < p.out_rows && u < p.out_row_units) {
      const uint32_t b = p.cols.div(out_row);
      const uint32_t col = out_row - b * p.cols.divisor;
      p.out[b * p.out_batch_stride + int64_t{col} * p.out_row_stride + u] = v[k];
    }
  }
  if constexpr (EVICT_LAST) {
    if (blockIdx.x >= p.release_from) {
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const auto at = reinterpret_cast<uintptr_t>(from[k]);
        if (from[k] != nullptr && ((at & 127) == 0 || starts_row[k])) {
          release_line(reinterpret_cast<const char*>(at & ~uintptr_t{127}));
        }
      }
    }
  }
}

}  // namespace cuda
}  // namespace gputranspose
