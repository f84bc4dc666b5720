#pragma once
// The one place that decides which kernel runs: a pure function from the layout plan and
// the device's facts to a KernelChoice, which the launcher (launch.h) only executes and
// explain() reports. docs/DESIGN.md ("Kernel choice") gives the measurements behind each
// rule.

#include "device_facts.h"
#include "layout_plan.h"
#include "tile_config.h"

#include <cstdint>
#include <string>

namespace gputranspose {

// Tuning overrides, for development builds' experiments and tests only (the release
// build's front ends never set them): 0 / -1 leave the rule in charge.
struct ChoiceOverrides {
  int64_t tile_group_rows = 0;  // tile-rows walked together (> 0)
  int interleave = -1;          // interleaved tile columns: 0 or 1
  int fallback = -1;  // tiles the tensor barely fills: 1 ATen's copy, 0 the tiled kernel (nor
                      // nd tiles in its place)
  int small_dim = -1;           // a side of 2-16 elements: 0 the tiled kernel, else the rule
  int element_runs = -1;        // odd elements: 0 never the element-runs kernel, 1 wherever it
                                // can (any element size and unit), -1 the rule
  // The unit-tiled kernel's tile for elements back to back (strided ones keep square tiles):
  // > 0 about this many bytes a tile (short sides whole, however few blocks are left), 0
  // square tiles of up to 32 elements a side, -1 the rule.
  int64_t unit_tile_bytes = -1;
  // 1- and 2-byte matrices of the tiled paths in the unit-tiled kernel (one unit an element):
  // 0 never, 1 wherever the tiled kernel would run, 2 there and where the small-dim kernel
  // would, -1 the rule.
  int one_unit_tiles = -1;
  // 16-byte elements of the tiled paths in the wide-element kernel: 0 never, 1 wherever it
  // takes them, -1 the rule.
  int wide_16 = -1;
  // Tiles over several dims on each side (plan.nd): 0 never (the framework's copy, the tiled
  // or small-dim kernel or one-unit tiles where the rule would take them), 1 wherever the
  // plan has them, in place of any other kernel, 2 only where the rule would run the
  // framework's copy (the tiled and small-dim kernels and one-unit tiles keep their plans),
  // -1 the rule.
  int nd_tiles = -1;
  // Wide elements in 16-byte granules realigned in registers (realigned_wide_transpose.cuh):
  // 0 never, 1 every wide-element plan (16-byte units too), -1 the rule (units under 16
  // bytes).
  int wide_realigned = -1;
  // Batches of small matrices through the batched-small kernel in place of the tiled
  // kernel's tiles (where the kernel takes them and beats the framework's copy): 0 never, 1
  // wherever it takes them, -1 the rule (tiles barely filled, or rows off 16 bytes).
  int batched_small = -1;
};

// The longest short side the small-dim kernel takes (one instance per length from 2).
constexpr int kMaxSmallDim = 16;
// The small-dim kernel's block (small_dim_transpose.cuh).
constexpr int kSmallDimThreadsPerBlock = 128;
// The element-runs kernel's block (element_runs_transpose.cuh).
constexpr int kElementRunsThreadsPerBlock = 256;
// The tiles over several dims' block (nd_tile_transpose.cuh).
constexpr int kNdTileThreadsPerBlock = 256;
// The realigned wide-element kernel's block (realigned_wide_transpose.cuh): a thread an
// output granule, so a block 4 KiB of the output; 8 blocks of it fill an SM's threads.
constexpr int kRealignedWideThreadsPerBlock = 256;
// The 16-byte granules a run of `element_size` bytes touches at most, at any start mod 16:
// the realigned wide-element kernel's threads an element.
constexpr int64_t realigned_granules(int64_t element_size) { return (element_size + 30) / 16; }
// The batched-small kernel's block (batched_small_transpose.cuh).
constexpr int kBatchedSmallThreadsPerBlock = 256;
// The 16-byte words an input row of `row_bytes` touches at most (at any start mod 16): the
// batched-small kernel's shared-memory rows, for rows a pitch apart.
constexpr int64_t batched_small_words_per_row(int64_t row_bytes) { return (row_bytes + 30) / 16; }
// The unit-tiled kernel's tile and its shared-memory rows stay within the 48 KiB that every
// kernel may take; with words, its rows start up to 3 bytes past their pitch, into a slack.
constexpr int64_t kUnitTiledSharedBytes = 48 * 1024;
constexpr int64_t kUnitTiledSharedSlack = 4;

struct KernelChoice {
  TransposePath path = TransposePath::AtenFallback;
  int64_t element_size = 0;  // bytes
  // The tiled kernel's instance (TiledConfig), on the tiled paths.
  Access load = Access::Aligned16;
  Access store = Access::Aligned16;
  Tiling tiling = Tiling::Wide;
  InputL2 input_l2 = InputL2::Normal;  // the wide-element kernel's too
  int tile_rows = 0;  // input elements (wide elements: output rows a tile, 2^rows_log2)
  int tile_cols = 0;  // input elements (wide elements: units of each row)
  int unit_size = 0;  // the unit moved, in bytes: unit-tiled (1, 2, 4 or 8), wide (1 to 16)
  // The unit-tiled kernel moves 4-byte words (units of 1 and 2 bytes), else a unit a lane,
  // through shared-memory rows `unit_pitch` bytes apart (a tile row's elements and padding).
  bool unit_words = false;
  int unit_pitch = 0;
  // The small-dim kernel's short side (2 .. kMaxSmallDim elements), and whether it is the
  // input's rows (cols of the plan) or the output's (rows of the plan).
  int short_side = 0;
  bool short_input_rows = false;
  bool long_rows_aligned = false;  // every long row on 16 bytes (else moved in the rows' units)
  bool packed_aligned = true;       // every short-row run on 16 bytes (else staged in units)
  bool short_rows_pitched = false;  // short input rows a pitch apart (staged element by element)
  // The tiled walk: tile-rows walked together, interleaved tile columns, and for folded
  // tiles log2 of the sub-tile that holds one small matrix.
  int64_t group_rows = 0;
  bool interleave = false;
  int fold_rows_log2 = 0;
  int fold_cols_log2 = 0;
  // The wide-element walk: log2 of a tile's output rows, tile-rows a patch.
  int wide_rows_log2 = 0;
  int64_t patch_groups = 0;
  // WideElements: 16-byte granules of the output realigned from the input in registers, a
  // thread a granule (realigned_wide_transpose.cuh), in place of the tile of units.
  bool realigned = false;
  // BatchedSmall: a block's run of whole matrices (output bytes), and whether the input's
  // rows lie a pitch apart (read row by row) rather than back to back.
  int64_t chunk_bytes = 0;
  bool rows_apart = false;
  // ElementRuns: the elements of an output row a block moves.
  int64_t chunk_elements = 0;
  // NdTiles: the dims of each tile side and the batch dims (plan.nd holds them).
  int nd_in_dims = 0;
  int nd_out_dims = 0;
  int nd_batch_dims = 0;
  // NdTiles: tiles a block (plan.nd.tiles_per_block, or fewer), and the phases that run
  // flattened at that many (nd_group_layout).
  int64_t nd_tiles_per_block = 1;
  bool nd_load_flat = false;
  bool nd_store_flat = false;
  // Memcpy: the plan's rows lie a pitch apart (one cudaMemcpy2DAsync, rows too wide for
  // the batched-small kernel).
  bool pitched_rows = false;
  // Launch shape: one block a tile.
  int64_t blocks = 0;
  int threads = 0;
  int shared_bytes = 0;
  int64_t release_from = 0;  // InputL2::EvictLast: the first block that releases its lines
  // The share of the launched tiles' elements that the tensor fills (1: every tile full).
  // Far under 1 the kernel moves mostly nothing: a swapped dim much smaller than the tile.
  double tile_utilization = 0;
  // Why no kernel can take the plan (a static string), or nullptr.
  const char* unsupported = nullptr;
  // Where the choice sends a plan the kernels take to the framework's copy instead
  // (path AtenFallback): why (a static string), or nullptr.
  const char* fallback_reason = nullptr;
};

KernelChoice choose_kernel(const TransposePlan& plan, const DeviceFacts& facts,
                           const ChoiceOverrides& overrides = {});

// Rows a pitch apart (a Memcpy plan with rows) as the batched-small kernel takes them: a
// batch of 1 x n matrices of `unit`-byte elements, one a row, the rows the batch.
TransposePlan pitched_rows_as_matrices(const TransposePlan& plan, int64_t unit);

// Development builds' other device facts and choice overrides, as both front ends' private
// entry points take them (tests and tuning experiments; never the registered ops).
struct Tuning {
  int64_t l2_bytes = 0;           // > 0: the L2 taken as this many bytes
  double memory_bytes_per_s = 0;  // > 0: the memory taken as this fast
  ChoiceOverrides choice;

  DeviceFacts apply(DeviceFacts facts) const {
    if (l2_bytes > 0) facts.l2_bytes = l2_bytes;
    if (memory_bytes_per_s > 0) facts.memory_bytes_per_s = memory_bytes_per_s;
    return facts;
  }
};

// The kernel choice for a device's facts, tuned where `tuning` is given.
inline KernelChoice choose_kernel(const TransposePlan& plan, const DeviceFacts& facts,
                                  const Tuning* tuning) {
  return tuning != nullptr ? choose_kernel(plan, tuning->apply(facts), tuning->choice)
                           : choose_kernel(plan, facts);
}

// A readable name of the kernel, e.g. "tiled<e=1, load=staged, store=aligned16,
// tiling=wide, l2=normal>", "wide_elements<...>", "memcpy", or "" off the kernels.
std::string kernel_name(const KernelChoice& choice);

}  // namespace gputranspose
