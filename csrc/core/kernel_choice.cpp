#include "kernel_choice.h"
#include "nd_tiles.h"

#include <algorithm>
#include <limits>

namespace gputranspose {

const char* tiling_name(Tiling tiling) {
  switch (tiling) {
    case Tiling::Wide:
      return "wide";
    case Tiling::Small:
      return "small";
    case Tiling::Folded:
      return "folded";
    case Tiling::Tall:
      return "tall";
  }
  return "unknown";
}

const char* access_name(Access access) {
  switch (access) {
    case Access::Aligned16:
      return "aligned16";
    case Access::Words:
      return "words";
    case Access::Staged:
      return "staged";
  }
  return "unknown";
}

const char* input_l2_name(InputL2 l2) {
  return l2 == InputL2::EvictLast ? "evict_last" : "normal";
}

namespace {

// Rows that start anywhere, in matrices of this many rows or more, walk their tiles
// this many tile-rows at a time: such a tile shares 128-byte lines with the tile on its
// right, which down a whole column of tiles comes a column later. Other matrices walk
// a whole column of tiles at a time. ("Tile walk")
constexpr int64_t kUnalignedGroupsFromRows = 32768;
constexpr int64_t kUnalignedGroupRows = 8;
// Rows that start anywhere, under aligned stores, take tall tiles (longer output runs)
// where the output's rows are this long or longer; shorter ones lose a little by them.
constexpr int64_t kTallTilesFromRows = 16384;
// 2-byte rows that start anywhere and outgrow L2 are staged where the memory is slower
// than this: the staging copies' 256-byte prefetch then pays; on faster memory the link
// between L2's halves bounds a copy and the extra sectors it sends cost more.
constexpr double kStaged2ByteBelowBytesPerS = 4e12;

// Tiled plans whose launched tiles the tensor fills less than this share of (a swapped dim
// far smaller than a tile) run as the framework's strided copy: the tiled kernel's time
// grows with the tiles it launches, the copy's with the bytes. On the random-shape sweep's
// 38 such cases (H200, seed 0) the copy takes 2.2x the copy-kernel's time against 10.1x, and
// is faster in 37; from 0.1 to 0.25 filled the two are even (docs/DESIGN.md, "What bounds
// each class of shape").
constexpr double kFallbackBelowTileUtilization = 0.1;
// Strided elements (each read as its own run) in tiles filled less than half (short output
// rows: a strided dim of 2-16 last) run as the framework's copy too: on the sweep's 29 such
// cases (H200, seed 0) the unit-tiled kernel beat ATen's copy in all 14 cases filled above
// half (0.57-0.98x its time) and lost in 7 of the 8 below (1.09-4.0x; docs/DESIGN.md).
constexpr double kStridedFallbackBelowTileUtilization = 0.5;
// 16-byte values in folded tiles (several small matrices a tile) run as the framework's
// strided copy where it reads each 32-byte sector's two values close together: where the
// input's rows (its unit-stride dim) lie at most this many output bytes apart, or input and
// output fit the L2 together. It then moves a copy's traffic in whole 16-byte accesses, while
// the folded tiles move part-filled tiles. Same-process H100 timings of the folded tiles and
// ATen's copy (every sweep and A/B in the history, a case's median; experiments/same-process-
// fallbacks in 0960e70): in all 21 such cases ATen's copy took 0.66-0.96x the folded tiles'
// time (geomean 0.77; complex128 (2298, 8, 8, 7, 7) viewed, dims 1, 2: 1.49x -> 1.05x a copy),
// rows 80 B - 12 KB apart past the L2 and up to 2.3 MB apart within half of it; a 52 MB input
// whose rows lie megabytes apart took 1.72x in it (complex128 (5, 4, 27281, 6) to [3, 2, 0,
// 1]: 1.34x -> 2.30x), as did the three folded cases past the L2 whose rows lie 14 MB and more
// apart (1.5-2.7x).
constexpr int64_t kFoldedValuesFallbackWithinBytes = 64 * 1024;
// The nd tiles do not replace it: forced in the permute A/Bs they were slower than ATen's
// copy on 13 of the 14 such cases measured (complex128 (10, 4, 403, 75, 3) to [1, 2, 4, 3,
// 0]: 1.41x against 1.02x a copy).
constexpr const char* kFoldedValuesFallbackReason =
    "16-byte values in tiles of several small matrices whose input rows lie close in the output "
    "(or that fit the L2 with their result): the framework's strided copy reads their sectors "
    "whole and is faster";
// Tiles of 2-byte or wider elements filled under a quarter, whose input fits the L2, run as
// the framework's strided copy where the input's rows lie close in the output: at most 256
// bytes apart, or 8 KiB where the tiled kernel stores words (output rows off 16 bytes). Its
// gathers then read lines the L2 holds anyway while the tiles launch four times the threads
// they fill. Same-process H100 timings where the kernel measured is the one chosen now (every
// sweep and A/B in the history, a case's median; experiments/same-process-fallbacks in
// 0960e70): in all 18 such cases ATen's copy took 0.42-0.95x the tiled kernel's time (geomean
// 0.67; bfloat16 44 matrices of 13 x 2810 from a transposed view: 2.41x -> 0.99x a copy;
// float64 (1, 29, 7290, 2, 15) to [3, 0, 2, 4, 1], 48 MB: 2.88x -> 1.30x); the cases left out
// lost in it where the rows lie megabytes apart (int32 (22, 3, 5250, 29) to [3, 2, 0, 1]:
// 1.48x against 4.69x), and split with 16-byte stores from 288 bytes apart on. The nd tiles do
// not replace it: forced in the permute A/Bs they took 1.00-2.03x a copy where ATen's took
// 0.71-1.32x, slower on all 13 such cases.
constexpr double kInL2FallbackBelowTileUtilization = 0.25;
constexpr int64_t kInL2FallbackWithinBytes = 256;
constexpr int64_t kInL2WordsFallbackWithinBytes = 8192;
constexpr const char* kSparseTilesInL2FallbackReason =
    "tiles filled under a quarter whose input fits the L2 and whose input rows lie close in the "
    "output: the framework's strided copy is faster";

// Whether the input's columns lie one element apart (the input's rows are contiguous).
bool adjacent_columns(const TransposePlan& plan) {
  return plan.col_stride * plan.stride_unit == plan.element_size;
}

// Whether a unit-tiled plan's elements are strided: no dim lies one element apart.
// A data pointer off its value's alignment (a view of a byte buffer at an odd offset).
bool off_value(const TransposePlan& plan) {
  return plan.value_size > 0 &&
         (plan.in_alignment % plan.value_size != 0 || plan.out_alignment % plan.value_size != 0);
}

bool strided_elements(const TransposePlan& plan) {
  return plan.path == TransposePath::TiledUnits && !adjacent_columns(plan);
}

// The bytes the kernels move: the plan's matrices' elements.
int64_t moved_bytes(const TransposePlan& plan) {
  return plan.outer_count * plan.batch * plan.rows * plan.cols * plan.element_size;
}

bool input_past_l2(const TransposePlan& plan, const DeviceFacts& facts) {
  return moved_bytes(plan) > facts.l2_bytes;
}

// Whether the framework's strided copy beats the tiled choice `c` on an input the L2 holds
// (kInL2FallbackBelowTileUtilization): tiles of 2-byte or wider elements filled under a
// quarter whose input rows lie close in the output.
bool framework_gathers_sparse_tiles_from_l2(const KernelChoice& c, const TransposePlan& plan,
                                            const DeviceFacts& facts) {
  if (input_past_l2(plan, facts) || plan.element_size < 2 || plan.col_stride != 1 ||
      c.tile_utilization >= kInL2FallbackBelowTileUtilization) {
    return false;
  }
  const int64_t apart = plan.out_row_stride * plan.element_size;
  return apart <= kInL2FallbackWithinBytes ||
         (c.store == Access::Words && apart <= kInL2WordsFallbackWithinBytes);
}

// Whether the framework's strided copy reads folded 16-byte values' sectors whole
// (kFoldedValuesFallbackWithinBytes): the tiled choice `c` folds tiles of 16-byte values
// whose input rows lie close in the output, or that fit the L2 with their result.
bool framework_reads_folded_values_whole(const KernelChoice& c, const TransposePlan& plan,
                                         const DeviceFacts& facts) {
  constexpr int64_t kSixteenByteValues = 16;
  return c.tiling == Tiling::Folded && plan.value_size == kSixteenByteValues &&
         plan.element_size == kSixteenByteValues && plan.col_stride == 1 &&
         (2 * moved_bytes(plan) <= facts.l2_bytes ||
          plan.out_row_stride * plan.element_size <= kFoldedValuesFallbackWithinBytes);
}

// Evict-last reads release their lines from a block index on, in launch order along the
// grid's x: with outer batch dims (the grid's y and z) there is no one such order.
// Wide elements whose columns lie apart (or repeat) leave lines that no release rule knows.
bool evict_last_input(const TransposePlan& plan, const DeviceFacts& facts) {
  return plan.outer_dims == 0 && adjacent_columns(plan) && input_past_l2(plan, facts);
}

// Whether the output's rows take aligned stores. An aligned tile writes its part of each
// output row as whole 16-byte chunks from the part's first byte, so where rows start 16
// bytes into a 32-byte sector and run across several tiles, the tiles on either side of
// each boundary write half a sector each, which L2 takes slowly: skewed tiles, whose
// write windows start on sectors, are faster there. 16-byte elements (never skewed) and
// rows inside one tile (written whole by one block) keep aligned stores.
bool aligned_stores(const TransposePlan& plan) {
  if (plan.store_bytes != 16) return false;
  const int e = static_cast<int>(plan.element_size);
  int aligned_tile_rows = 0;
  visit_tiled_config(e, Access::Aligned16, Access::Aligned16, Tiling::Wide, InputL2::Normal,
                     [&](auto config) { aligned_tile_rows = decltype(config)::TR; });
  if (e == 16 || plan.rows <= aligned_tile_rows) return true;
  return plan.out_alignment % 32 == 0 && (plan.out_row_stride * e) % 32 == 0;
}

// Whole small matrices per tile where a tile holds several (a batch of small matrices):
// log2 of the smallest power-of-two sub-tile, of whole micro-blocks, that holds one
// matrix. {0, 0} where a tile holds at most one.
struct Fold {
  int rows_log2 = 0;
  int cols_log2 = 0;
};

Fold fold_small_matrices(const TransposePlan& plan) {
  Fold fold;
  visit_tiled_config(static_cast<int>(plan.element_size), Access::Aligned16, Access::Aligned16,
                     Tiling::Folded, InputL2::Normal, [&](auto config) {
                       using Config = decltype(config);
                       if (plan.batch == 1 || plan.rows > Config::TR || plan.cols > Config::TC) {
                         return;
                       }
                       auto log2_fit = [](int64_t extent) {
                         int log2 = 0;
                         while ((int64_t{1} << log2) < std::max<int64_t>(extent, Config::M)) ++log2;
                         return log2;
                       };
                       const Fold fit{log2_fit(plan.rows), log2_fit(plan.cols)};
                       if ((Config::TR >> fit.rows_log2) * (Config::TC >> fit.cols_log2) > 1) {
                         fold = fit;
                       }
                     });
  return fold;
}

// Whether the small tiles of a batch of aligned 1- or 16-byte matrices all fit on the
// device at once: one tile's latency then bounds the transpose, which smaller tiles (or
// more blocks a SM) shorten.
bool small_tiles_fit(const TransposePlan& plan, const DeviceFacts& facts) {
  const int e = static_cast<int>(plan.element_size);
  if (e != 1 && e != 16) return false;
  int64_t tiles = 0;
  visit_tiled_config(e, Access::Aligned16, Access::Aligned16, Tiling::Small, InputL2::Normal,
                     [&](auto config) {
                       tiles = plan.outer_count *
                               decltype(config)::tiles_of(plan.batch, plan.rows, plan.cols);
                     });
  return tiles <= (e == 1 ? facts.small_tile_blocks_1 : facts.small_tile_blocks_16);
}

// One-matrix tiles, their input read at evict_last where it is larger than L2 and the
// kernel is one of reads_evict_last's. A smaller input's transpose is bound by its
// blocks' latency, which the releases lengthen.
void one_matrix(KernelChoice& c, Access load, Access store, bool past_l2) {
  c.load = load;
  c.store = store;
  c.tiling = Tiling::Wide;
  c.input_l2 = past_l2 && reads_evict_last(static_cast<int>(c.element_size), load, store)
                   ? InputL2::EvictLast
                   : InputL2::Normal;
}

// Rows that start anywhere, read as `load`, under aligned or skewed stores.
void unaligned_loads(KernelChoice& c, const TransposePlan& plan, Access load, bool store16,
                     bool past_l2) {
  if (store16 && has_tall_tile(static_cast<int>(c.element_size), load) &&
      plan.rows >= kTallTilesFromRows) {
    c.load = load;
    c.store = Access::Aligned16;
    c.tiling = Tiling::Tall;
    c.input_l2 = InputL2::Normal;
    return;
  }
  one_matrix(c, load, store16 ? Access::Aligned16 : Access::Words, past_l2);
}

// The tiled kernel's instance: element size x how each side's rows are aligned x which
// tile x, for one-matrix tiles, the L2 priority of the input's lines.
void choose_tiled_instance(KernelChoice& c, const TransposePlan& plan, const DeviceFacts& facts) {
  const int e = static_cast<int>(plan.element_size);
  const bool load16 = plan.load_bytes == 16;
  const bool store16 = aligned_stores(plan);
  const bool past_l2 = evict_last_input(plan, facts);
  if (load16 && store16) {
    const Fold fold = fold_small_matrices(plan);
    if (fold.rows_log2 > 0) {
      c.load = c.store = Access::Aligned16;
      c.tiling = Tiling::Folded;
      c.fold_rows_log2 = fold.rows_log2;
      c.fold_cols_log2 = fold.cols_log2;
      return;
    }
    if (small_tiles_fit(plan, facts)) {
      c.load = c.store = Access::Aligned16;
      c.tiling = Tiling::Small;
      return;
    }
    return one_matrix(c, Access::Aligned16, Access::Aligned16, past_l2);
  }
  if (load16) return one_matrix(c, Access::Aligned16, Access::Words, past_l2);
  if (e == 2 && past_l2 && facts.memory_bytes_per_s > 0 &&
      facts.memory_bytes_per_s < kStaged2ByteBelowBytesPerS) {
    return unaligned_loads(c, plan, Access::Staged, store16, past_l2);
  }
  return unaligned_loads(c, plan, unaligned_load(e), store16, past_l2);
}

// InputL2::EvictLast: the first block (in launch order) that releases its input lines.
// Lines at evict_last outlast plain ones in L2 but give way to later evict_last lines:
// releases by the blocks that read the input's last half an L2 leave L2 as a copy leaves
// it; earlier blocks' releases only cost time.
int64_t first_releasing_tile(int64_t tiles, int64_t tile_bytes, const DeviceFacts& facts) {
  const int64_t window = facts.l2_bytes / 2;
  return std::max<int64_t>(0, tiles - (window + tile_bytes - 1) / tile_bytes);
}

// Tile-rows that the blocks walk together (tile_walk.cuh).
int64_t tile_group_rows(const KernelChoice& c, const TransposePlan& plan, int64_t tiles_r,
                        const ChoiceOverrides& overrides) {
  if (overrides.tile_group_rows > 0) return std::min(overrides.tile_group_rows, tiles_r);
  if (c.load != Access::Aligned16 && plan.rows >= kUnalignedGroupsFromRows) {
    return std::min(kUnalignedGroupRows, tiles_r);
  }
  return tiles_r;
}

// Interleaved tile columns where input rows lie an odd multiple of 128 KiB apart: the
// neighbouring columns in flight would read the same part of every row, which the
// memory serves slowly. On shorter rows interleaving costs a little.
bool interleave_tile_columns(const TransposePlan& plan, const ChoiceOverrides& overrides) {
  if (overrides.interleave >= 0) return overrides.interleave > 0;
  constexpr int64_t k128KiB = int64_t{128} << 10;
  return plan.rows > 1 && (plan.row_stride * plan.element_size) % (2 * k128KiB) == k128KiB;
}

void choose_tiled(KernelChoice& c, const TransposePlan& plan, const DeviceFacts& facts,
                  const ChoiceOverrides& overrides) {
  choose_tiled_instance(c, plan, facts);
  int64_t blocks_x = 0;  // for each outer batch
  const bool found = visit_tiled_config(
      static_cast<int>(c.element_size), c.load, c.store, c.tiling, c.input_l2, [&](auto config) {
        using Config = decltype(config);
        c.tile_rows = Config::TR;
        c.tile_cols = Config::TC;
        c.threads = Config::THREADS;
        c.shared_bytes = Config::SMEM_TOTAL_BYTES;
        const int64_t tiles_r = Config::tiles_along_rows(plan.rows);
        c.blocks = Config::tiles_of(plan.batch, plan.rows, plan.cols);
        if (c.tiling == Tiling::Folded) {
          const int64_t per_tile =
              (Config::TR >> c.fold_rows_log2) * (Config::TC >> c.fold_cols_log2);
          c.blocks = (plan.batch + per_tile - 1) / per_tile;
        }
        blocks_x = c.blocks;
        c.blocks *= plan.outer_count;
        c.group_rows = tile_group_rows(c, plan, tiles_r, overrides);
        c.interleave = interleave_tile_columns(plan, overrides);
        c.release_from = c.input_l2 == InputL2::EvictLast
                             ? first_releasing_tile(c.blocks, int64_t{Config::TR} * Config::TC *
                                                                  Config::ELEMENT_SIZE,
                                                    facts)
                             : 0;
      });
  c.tile_utilization =
      c.blocks > 0 ? static_cast<double>(plan.outer_count * plan.batch * plan.rows * plan.cols) /
                         (static_cast<double>(c.blocks) * c.tile_rows * c.tile_cols)
                   : 0;
  if (!found) {
    c.unsupported = "no tiled kernel instance for this choice";
  } else if (blocks_x > std::numeric_limits<int32_t>::max()) {
    c.unsupported = "tensor too large for one launch (2^31 tiles or more)";
  }
}

// The largest power of two up to `unit` on which the element, both data pointers and
// every input stride lie.
int64_t shared_unit(const TransposePlan& plan, int64_t unit) {
  unit = std::min({unit, plan.in_alignment, plan.out_alignment});
  auto fits = [&](int64_t stride) { return (stride * plan.stride_unit) % unit == 0; };
  while (unit > 1 && !(plan.element_size % unit == 0 && fits(plan.batch_stride) &&
                       fits(plan.row_stride) && fits(plan.col_stride) &&
                       std::all_of(plan.outer_strides, plan.outer_strides + plan.outer_dims, fits))) {
    unit /= 2;
  }
  return unit;
}

void choose_wide(KernelChoice& c, const TransposePlan& plan, const DeviceFacts& facts) {
  // 16-byte units; elements over 682 bytes off 16 bytes (a storage offset, a pitch cutting
  // them, a size of no multiple of 16) in units of what they share, one output row a tile
  // of the same 2 KiB, read plainly.
  c.unit_size = static_cast<int>(shared_unit(plan, 16));
  const int64_t element_units = plan.element_size / c.unit_size;
  const bool narrow = c.unit_size < 16;
  c.input_l2 = !narrow && evict_last_input(plan, facts) ? InputL2::EvictLast : InputL2::Normal;
  c.wide_rows_log2 = WideElementTile::rows_log2(plan.element_size);
  const int units = WideElementTile::units(c.wide_rows_log2) * (16 / c.unit_size);
  c.threads = WideElementTile::threads(units);
  c.tile_rows = 1 << c.wide_rows_log2;
  c.tile_cols = units >> c.wide_rows_log2;
  const int64_t out_row_units = plan.rows * element_units;
  const int64_t out_rows = plan.batch * plan.cols;
  const int64_t row_groups = (out_rows + c.tile_rows - 1) >> c.wide_rows_log2;
  const int64_t spans = (out_row_units + c.tile_cols - 1) / c.tile_cols;
  const int64_t blocks_x = spans * row_groups;  // for each outer batch
  c.blocks = blocks_x * plan.outer_count;
  // Input rows far apart are walked in patches (wide_element_transpose.cuh).
  const bool patches = plan.row_stride * plan.stride_unit >= WideElementTile::PATCH_PITCH_BYTES;
  c.patch_groups = std::min<int64_t>(patches ? WideElementTile::PATCH_GROUPS : 1, row_groups);
  c.release_from = c.input_l2 == InputL2::EvictLast
                       ? first_releasing_tile(c.blocks, int64_t{units} * c.unit_size, facts)
                       : 0;
  c.tile_utilization =
      c.blocks > 0 ? static_cast<double>(plan.outer_count * out_rows * out_row_units) /
                         (static_cast<double>(c.blocks) * units)
                   : 0;
  // The kernel's walk and unit indices are 32-bit.
  if (blocks_x >= (int64_t{1} << 31)) {
    c.unsupported = "tensor too large for one launch (2^31 tiles of wide elements or more)";
  } else if (out_row_units >= (int64_t{1} << 31)) {
    c.path = TransposePath::AtenFallback;
    c.fallback_reason = "elements off 16 bytes in an output row of 2^31 units or more";
  }
}

// Wide elements (over 682 bytes) off 16 bytes move in 16-byte granules realigned in
// registers (realigned_wide_transpose.cuh) rather than in the narrow units they share or the
// framework's copy: a granule costs two aligned 16-byte loads (the second an L1 hit), one
// aligned store and about 20 ALU instructions, where 1-byte units cost 16 loads and 16
// stores. A/B on the sweep's distribution (seeds 101-103, H100): the wide elements it takes
// 0.32-1.0x the old choice's time (uint8 (1, 300, 256, 28, 28) at an offset 3.23x -> 1.04x a
// copy; float32 1020-byte elements 1.18x -> 1.02x). Strided elements of 16 bytes or more
// take it only by the override: against the framework's copy of strided 8-byte values it
// lost where elements span under 10 granules (int64 (51, 154301, 3, 2) sliced 4.49x ->
// 6.10x; complex64 (455, 8, 8, 7, 7) 1.22x -> 1.77x) and ties from there (0.99-1.01x).
constexpr int64_t kMinRealignedElementBytes = kMaxUnitElementBytes + 1;
constexpr int64_t kMinRealignedStridedElementBytes = 16;

// Whether the elements take the realigned kernel (the wide-element or unit-tiled choice `c`
// made), and its launch in `c`: by the rule, wide elements whose units are under 16 bytes;
// the override 1 takes every wide-element plan and every unit-tiled plan of 16-byte or wider
// elements whose thread count fits.
bool choose_realigned(KernelChoice& c, const TransposePlan& plan,
                      const ChoiceOverrides& overrides) {
  if (overrides.wide_realigned == 0) return false;
  const bool wide = plan.path == TransposePath::WideElements && c.unsupported == nullptr;
  const bool units = plan.path == TransposePath::TiledUnits &&
                     plan.element_size >= kMinRealignedStridedElementBytes;
  if (!wide && !units) return false;
  if (overrides.wide_realigned < 0 &&
      !(wide && c.unit_size < 16 && plan.element_size >= kMinRealignedElementBytes)) {
    return false;
  }
  // A thread a granule, its index and the element's bytes 32-bit (FastDivider, the kernel's
  // parameters): past 2^31 the choice stands.
  const int64_t elements = plan.batch * plan.cols * plan.rows;
  const int64_t threads = elements * realigned_granules(plan.element_size);
  if (threads >= (int64_t{1} << 31) || plan.element_size >= (int64_t{1} << 31)) return false;
  KernelChoice r;
  r.path = TransposePath::WideElements;
  r.element_size = plan.element_size;
  r.realigned = true;
  r.unit_size = 16;
  r.input_l2 = InputL2::Normal;
  r.threads = kRealignedWideThreadsPerBlock;
  const int64_t blocks_x = (threads + r.threads - 1) / r.threads;
  r.blocks = blocks_x * plan.outer_count;
  // The share of the launched threads' granules that hold the tensor's bytes.
  r.tile_utilization = r.blocks > 0 ? static_cast<double>(elements) * plan.element_size /
                                          (static_cast<double>(blocks_x) * r.threads * 16)
                                    : 0;
  c = r;
  return true;
}

// The unit-tiled kernel's shared-memory rows (unit_tiled_transpose.cuh), for tile rows of
// `cols` elements of E bytes. Words (units of 1 and 2 bytes): at least cols x E bytes apart,
// and E apart mod 128. A warp gathers the bytes of consecutive output words, 4 apart in the
// output, from consecutive elements of one column, a row apart: with rows E apart mod 128
// they lie 4 apart mod 128 in shared memory too, so each gather meets 32 distinct banks.
// (Rows as far apart mod 4 as the input's rows would keep every input word whole in shared
// memory, but in 3 of the 4 residues they cost each gather 1.5-1.9 ways on average: the
// host emulation of the kernel.)
int64_t unit_words_pitch(int64_t cols, int64_t e) {
  const int64_t least = cols * e;
  return least + ((e - least) % 128 + 128) % 128;
}

// A unit a lane (units of 4 and 8 bytes): rows k units apart mod 32 (k units an element).
// Unit u of element c of row r then lies r k + c k + u units from the start mod 32, so the
// lanes of an output row's gather (r k + u consecutive) meet 32 distinct banks (16 distinct
// pairs a half-warp for 8-byte units).
int64_t unit_lanes_pitch(int64_t cols, int64_t e, int64_t unit) {
  const int64_t k = e / unit;
  const int64_t least = cols * k;
  return (least + ((k - least) % 32 + 32) % 32) * unit;
}

// The longest tile side of the unit-tiled kernel: a warp moves the head and tail units of its
// tile rows' runs (an eighth of the side) in passes of 5 rows (1-byte units).
constexpr int64_t kMaxUnitTileSide = 128;
// Elements of up to 32 bytes that move as words (1- and 2-byte units) and lie back to back
// take tiles of about 16 KiB where the matrix has them: a tile of 32 x 32 elements of 3-14
// bytes is 3-14 KiB, and the words' gathers and the tile's loads, which wait on each other a
// tile at a time, bound the kernel. On the sweep's cases of 16 MiB or more (seed 0, H100)
// such tiles take 0.47-0.77x the time of square ones of 32 (float16 45 x 584693 x 3 in 45 x 64
// tiles: 1.39x a copy against 2.94x). Other elements keep square tiles of up to 32, fitted to
// the matrix (shared memory for the elements there are, so more blocks an SM): larger tiles
// of units a lane lose (float32 17280 x 1024 x 3 in 64 x 32 tiles: 1.14x the time), and so do
// those of wider elements (bool 97 x 32 x 255 x 255 in 8 x 16: 1.07x; seeds 101 and 102). For
// strided elements (each read as its own run) the tile's shape changes nothing (0.97x).
constexpr int64_t kUnitTileBytes = 16384;
constexpr int64_t kMaxGrownUnitElementBytes = 32;
// The tiles grow only while the tensor keeps this many blocks an SM: a small tensor in large
// tiles leaves SMs idle (bfloat16 4 x 124 x 415 x 3, 1 MiB: 1.30x a copy in 32 x 32 tiles,
// 2.52x in 62 x 60).
constexpr int64_t kMinUnitTileBlocksPerSm = 4;
// Elements back to back whose tile's output rows are shorter than kMinUnitTileRunBytes (a
// warp an output row, most of its lanes idle), or whose matrix holds less than this in a
// tile (both sides short), run as the framework's strided copy (sweep distribution, seeds 101
// and 102, H100): float16 8 x 2481247 x 3 (8 x 128 tiles of 6-byte elements, 48-byte output
// rows) 2.75x a copy against 1.78x, float8 4 x 14 x 300753 x 3 (42 bytes) 3.51x against 3.11x
// (but int8 4 x 13 x 204913 x 3 x 3, 117 bytes: 1.53x against 2.87x); uint8 7416 x 5 x 32 x 2
// x 2 (tiles of 640 bytes) 4.26x against 1.80x, float16 3422 x 3 x 14 x 14 (1176 bytes) 1.33x
// against 1.06x, where float8 21568 x 4 x 8 x 7 x 7 (1568 bytes) takes 2.40x against 2.89x.
constexpr int64_t kMinUnitTileBytes = 1536;
constexpr int64_t kMinUnitTileRunBytes = 64;

int64_t unit_row_pitch(int64_t tile_cols, int64_t e, int64_t unit, bool words) {
  return words ? unit_words_pitch(tile_cols, e) : unit_lanes_pitch(tile_cols, e, unit);
}

int64_t unit_tile_shared_bytes(int64_t tile_rows, int64_t tile_cols, int64_t e, int64_t unit,
                               bool words) {
  return tile_rows * unit_row_pitch(tile_cols, e, unit, words) +
         (words ? kUnitTiledSharedSlack : 0);
}

struct UnitTile {
  int64_t rows = 32;
  int64_t cols = 32;
};

// The unit-tiled kernel's tiles: square (T x T, T the largest of 32, 16 and 8 that fits 48
// KiB with the rows' padding: 32 up to 45-byte elements in words, 44 in units a lane; 16 up
// to about 180), fitted (T x T cut to the matrix's sides), or grown to about `bytes`.
enum class UnitTiles { Square, Fitted, Grown };

// Grown tiles: each side starts at 32 elements (or the matrix's side, where shorter) and the
// shorter one doubles, up to the matrix's side and kMaxUnitTileSide, until a tile holds
// `bytes` or would leave fewer than `min_blocks` blocks; then the longer side halves while the
// tile (with its rows' padding) outgrows the 48 KiB every kernel may take; then each side is
// evened out over the tiles it takes (130 rows: two tiles of 65).
UnitTile unit_tile(const TransposePlan& plan, int64_t unit, bool words, UnitTiles kind,
                   int64_t bytes, int64_t min_blocks) {
  const int64_t e = plan.element_size;
  auto fits = [&](const UnitTile& t) {
    return unit_tile_shared_bytes(t.rows, t.cols, e, unit, words) <= kUnitTiledSharedBytes;
  };
  UnitTile t;
  if (kind != UnitTiles::Grown) {
    while (!fits(t)) t.rows = t.cols = t.rows / 2;
    if (kind == UnitTiles::Fitted) {
      t.rows = std::min(t.rows, plan.rows);
      t.cols = std::min(t.cols, plan.cols);
    }
    return t;
  }
  auto blocks = [&](const UnitTile& s) {
    return plan.outer_count * plan.batch * ((plan.rows + s.rows - 1) / s.rows) *
           ((plan.cols + s.cols - 1) / s.cols);
  };
  t.rows = std::min(t.rows, plan.rows);
  t.cols = std::min(t.cols, plan.cols);
  const int64_t max_r = std::min(plan.rows, kMaxUnitTileSide);
  const int64_t max_c = std::min(plan.cols, kMaxUnitTileSide);
  while (t.rows * t.cols * e < bytes && (t.rows < max_r || t.cols < max_c)) {
    UnitTile next = t;
    if (t.rows < max_r && (t.rows <= t.cols || t.cols == max_c)) {
      next.rows = std::min(2 * t.rows, max_r);
    } else {
      next.cols = std::min(2 * t.cols, max_c);
    }
    if (blocks(next) < min_blocks) break;
    t = next;
  }
  while (!fits(t)) {
    int64_t& longer = t.rows >= t.cols ? t.rows : t.cols;
    longer = std::max<int64_t>(1, longer / 2);
  }
  auto even = [](int64_t extent, int64_t side) {
    const int64_t tiles = (extent + side - 1) / side;
    return (extent + tiles - 1) / tiles;
  };
  t.rows = even(plan.rows, t.rows);
  t.cols = even(plan.cols, t.cols);
  return t;
}

// The unit: the element's largest power-of-two divisor (up to 8 bytes), or less where a data
// pointer is less aligned (a view at a storage offset) or an input stride is (strided elements
// a part of an element apart): every unit then lies on its own size. Units of 1 and 2 bytes
// move as 4-byte words, each gathered from at most two elements or from elements of one unit
// (so not 2-byte elements in 1-byte units, nor strided 1-byte elements: a unit a lane).
int64_t unit_of(const TransposePlan& plan) {
  return shared_unit(plan, unit_bytes(plan.element_size));
}
bool unit_words(const TransposePlan& plan, int64_t unit) {
  return unit == 2 || (unit == 1 && (plan.element_size >= 3 ||
                                     (plan.element_size == 1 && adjacent_columns(plan))));
}

// Which tiles, and the bytes of grown ones.
UnitTiles unit_tiles(const TransposePlan& plan, bool words, const ChoiceOverrides& overrides,
                     int64_t& bytes) {
  bytes = overrides.unit_tile_bytes > 0 ? overrides.unit_tile_bytes : kUnitTileBytes;
  if (overrides.unit_tile_bytes == 0 || strided_elements(plan)) return UnitTiles::Square;
  if (overrides.unit_tile_bytes > 0) return UnitTiles::Grown;
  return words && plan.element_size <= kMaxGrownUnitElementBytes ? UnitTiles::Grown
                                                                 : UnitTiles::Fitted;
}

// Strided elements (each its own run in the input) of kMinElementRunBytes or more in 1-byte
// units: the element-runs kernel moves each element as a run of 4-byte words shifted into
// place, a chunk of an output row of about kElementRunsChunkBytes a block, where the unit-tiled
// kernel would read them a byte a lane. On the 16 such cases of the sweep's distribution
// (seeds 0, 101 and 102; H100) it takes 0.50-0.94x the unit-tiled kernel's time (geomean 0.74)
// and 0.65x ATen's (int8 129 x 25091 x 120 sliced: 2.08x a copy against 2.81x and 3.30x).
// Elsewhere it loses to the tiles: elements back to back 1.2-2.9x their time (the index
// arithmetic of each word bounds it), strided ones in 2-byte units 0.7-1.3x.
constexpr int64_t kMinElementRunBytes = 64;
constexpr int64_t kElementRunsChunkBytes = 8192;

bool choose_element_runs(KernelChoice& c, const TransposePlan& plan,
                         const ChoiceOverrides& overrides) {
  // fallback 1 takes the framework's copy wherever the unit-tiled kernel would run.
  if (overrides.element_runs == 0 || overrides.fallback == 1 ||
      plan.element_size > kMaxUnitElementBytes) {
    return false;
  }
  if (overrides.element_runs < 0 && (!strided_elements(plan) || unit_of(plan) != 1 ||
                                     plan.element_size < kMinElementRunBytes)) {
    return false;
  }
  const int64_t chunk = std::min(
      plan.rows, std::max<int64_t>(1, kElementRunsChunkBytes / plan.element_size));
  const int64_t chunks = (plan.rows + chunk - 1) / chunk;
  const int64_t out_rows = plan.batch * plan.cols;
  // The kernel divides block indices and output rows in 32 bits (FastDivider: under 2^31).
  if (chunks * out_rows >= (int64_t{1} << 31)) return false;
  KernelChoice r;
  r.path = TransposePath::ElementRuns;
  r.element_size = plan.element_size;
  r.chunk_elements = chunk;
  r.threads = kElementRunsThreadsPerBlock;
  r.blocks = chunks * out_rows * plan.outer_count;
  r.tile_utilization = static_cast<double>(plan.rows) / static_cast<double>(chunks * chunk);
  c = r;
  return true;
}

// The unit-tiled kernel's choice. Returns whether the elements lie back to back in tiles too
// small for the kernel to beat the framework's copy (kMinUnitTileBytes, kMinUnitTileRunBytes):
// the tile their matrix allows, whatever the tensor's size.
bool choose_units(KernelChoice& c, const TransposePlan& plan, const DeviceFacts& facts,
                  const ChoiceOverrides& overrides) {
  const int64_t e = plan.element_size;
  const int64_t unit = unit_of(plan);
  c.unit_size = static_cast<int>(unit);
  c.threads = 256;
  c.unit_words = unit_words(plan, unit);
  int64_t bytes = 0;
  const UnitTiles kind = unit_tiles(plan, c.unit_words, overrides, bytes);
  // A tile size on request (experiments, tests) is taken whatever the blocks it leaves.
  const int64_t min_blocks =
      overrides.unit_tile_bytes > 0 ? 0 : kMinUnitTileBlocksPerSm * facts.sm_count;
  const UnitTile t = unit_tile(plan, unit, c.unit_words, kind, bytes, min_blocks);
  c.tile_rows = static_cast<int>(t.rows);
  c.tile_cols = static_cast<int>(t.cols);
  c.unit_pitch = static_cast<int>(unit_row_pitch(t.cols, e, unit, c.unit_words));
  c.shared_bytes = static_cast<int>(unit_tile_shared_bytes(t.rows, t.cols, e, unit, c.unit_words));
  const int64_t blocks_x =
      plan.batch * ((plan.rows + t.rows - 1) / t.rows) * ((plan.cols + t.cols - 1) / t.cols);
  c.blocks = blocks_x * plan.outer_count;
  c.tile_utilization = static_cast<double>(plan.outer_count * plan.batch * plan.rows * plan.cols) /
                       (static_cast<double>(c.blocks) * t.rows * t.cols);
  if (blocks_x > std::numeric_limits<int32_t>::max()) {
    c.unsupported = "tensor too large for one launch (2^31 tiles or more)";
  }
  if (kind == UnitTiles::Square) return false;
  const UnitTile most = kind == UnitTiles::Grown && min_blocks > 0
                            ? unit_tile(plan, unit, c.unit_words, kind, bytes, 0)
                            : t;
  return most.rows * most.cols * e < kMinUnitTileBytes || most.rows * e < kMinUnitTileRunBytes;
}

// 1- and 2-byte elements whose matrix fills the tiled kernel's tiles less than this share of
// them (a side of under about a fifth of a tile, which is 256 or 128 elements wide) move
// through the unit-tiled kernel as elements of one unit, where its tiles are not too small
// (kMinUnitTileBytes, kMinUnitTileRunBytes): tiles of up to 128 elements a side, 4-byte
// words on both sides wherever rows start, several short input rows a warp's pass. They do
// so where the tiled kernel's input rows start anywhere (staged or word loads) or the
// framework's copy would run (under a tenth filled); rows on 16 bytes keep the tiled kernel.
// A/B on the sweep's distribution (seeds 101 and 102, H100), where the tiled kernel fills
// 0.09-0.21 of its tiles: rows anywhere 0.65-0.98x the time (float16 59643 x 11 x 26 x 12 as
// a view 2.63x a copy against 4.04x; 6 cases), the framework's copy 0.41x (int8 32 x 161670
// x 32: 2.21x against 5.35x); rows on 16 bytes 1.18-1.41x (float16 2048 x 784 x 24 1.97x
// against 1.39x; 3 cases). From a quarter filled on it mostly loses (1.07-2.6x): the words'
// instructions bound it (float16 768 x 4928: 1.83x a copy against the tiled kernel's 1.05x).
constexpr double kOneUnitTilesBelowTileUtilization = 0.22;

// Whether the tiled kernel's choice `c` for `plan` gives way to the unit-tiled kernel, and
// that kernel's choice (in `units`) where its tiles are not too small to pay.
bool choose_one_unit_tiles(KernelChoice& units, const KernelChoice& c, const TransposePlan& plan,
                           const DeviceFacts& facts, const ChoiceOverrides& overrides) {
  if (overrides.one_unit_tiles == 0 || plan.element_size > 2 ||
      unit_of(plan) != plan.element_size) {
    return false;
  }
  if (overrides.one_unit_tiles < 0 &&
      (c.path == TransposePath::SmallDim || c.tile_utilization >= kOneUnitTilesBelowTileUtilization ||
       (c.load == Access::Aligned16 && c.tile_utilization >= kFallbackBelowTileUtilization))) {
    return false;
  }
  if (overrides.one_unit_tiles == 1 && c.path == TransposePath::SmallDim) return false;
  units = KernelChoice{};
  units.path = TransposePath::TiledUnits;
  units.element_size = plan.element_size;
  const bool small = choose_units(units, plan, facts, overrides);
  return units.unsupported == nullptr && (!small || overrides.one_unit_tiles > 0);
}

// 16-byte elements: a warp of the wide-element kernel (32 output rows a tile) reads pairs of
// neighbouring elements of 16 input rows (whole 32-byte sectors) and writes 2 runs of 256
// bytes, from registers, whatever the matrix's sides; the tiled kernel's square tiles are
// mostly empty where a side is short. H100, against the tiled kernel in one process (the
// sweep's distribution, seeds 101-103): its tiles filled 0.11-0.25 took the wide kernel
// 0.58-0.90x the time, the wide kernel's own tiles filled 0.44-1.0 (complex128 8 x 2812592:
// 1.63x -> 0.98x a copy); from 0.3 filled the tiled kernel's output rows reach 160 bytes and
// more, and the wide kernel won on some (0.88-0.94x) but not where they reach 384 (complex128
// 13160 x 24 x 196: the tiled kernel at 1.00x a copy), full tiles 1.00-1.09x.
constexpr double kWide16BelowTileUtilization = 0.3;
// Its own tiles (32 output rows of 16 elements) must be filled about a third: output rows
// of 3 elements (0.09-0.19 filled) took it 1.29-1.36x ATen's time.
constexpr double kWide16MinTileUtilization = 0.3;

// Whether the tiled kernel's choice `c` for `plan` gives way to the wide-element kernel, and
// that kernel's choice (in `wide`).
bool choose_wide_16(KernelChoice& wide, const KernelChoice& c, const TransposePlan& plan,
                    const DeviceFacts& facts, const ChoiceOverrides& overrides) {
  if (overrides.wide_16 == 0 || overrides.fallback == 1 || plan.element_size != 16 ||
      c.unsupported != nullptr ||
      (c.path != TransposePath::TiledContiguous && c.path != TransposePath::TiledRowStrided)) {
    return false;
  }
  // By the rule, only where the tiled kernel would run: under a tenth filled the batched-small
  // kernel or the framework's copy runs (the wide kernel took 1.29-1.36x the framework's time
  // on the two such cases of seeds 101-103, output rows of 3 elements; H100).
  if (overrides.wide_16 < 0 && (c.tile_utilization >= kWide16BelowTileUtilization ||
                                c.tile_utilization < kFallbackBelowTileUtilization)) {
    return false;
  }
  // The kernel counts output rows (batch x cols) in 32 bits.
  if (plan.batch * plan.cols >= (int64_t{1} << 31)) return false;
  wide = KernelChoice{};
  wide.path = TransposePath::WideElements;
  wide.element_size = plan.element_size;
  choose_wide(wide, plan, facts);
  return wide.path == TransposePath::WideElements && wide.unsupported == nullptr &&
         wide.unit_size == 16 &&
         (overrides.wide_16 > 0 || wide.tile_utilization >= kWide16MinTileUtilization);
}

// A matrix side of 2-16 elements leaves a tile of the tiled kernel mostly empty; the
// small-dim kernel moves such matrices as 16-byte vectors on both sides instead. It needs
// the short side's runs dense (V consecutive short rows one run of S vectors). Long rows
// that start anywhere pass through shared memory in units of their alignment, a warp's 512
// bytes at a time, and so does the short side's span where a matrix starts off 16 bytes (a
// storage offset, batch strides off 16 bytes): a warp whose groups cross a matrix moves
// them element by element, so matrices must be long (8 KiB a long row) or one.
constexpr int64_t kUnalignedSmallDimFromRowBytes = 8192;

bool choose_small_dim(KernelChoice& c, const TransposePlan& plan) {
  const int64_t e = plan.element_size;
  if (e > 8) return false;
  auto fits = [](int64_t side) { return side >= 2 && side <= kMaxSmallDim; };
  // Matrices small on both sides fold into the tiled kernel's tiles, a dozen and more a tile.
  if (fits(plan.rows) == fits(plan.cols)) return false;
  // Short input rows: V input rows are one run (or, a pitch apart, staged); each output row
  // takes a vector.
  const bool short_input_rows = fits(plan.cols) && plan.row_stride >= plan.cols;
  const bool pitched = short_input_rows && plan.row_stride != plan.cols;
  // Short output rows: a vector of each input row makes one output run.
  const bool short_output_rows = fits(plan.rows) && plan.out_row_stride == plan.rows;
  if (!short_input_rows && !short_output_rows) return false;
  // The packed side (the short rows' runs) on 16 bytes: its data pointer and batch strides.
  const bool packed_aligned =
      short_input_rows
          ? batches_aligned_16(plan.in_alignment, plan, plan.batch_stride, plan.outer_strides)
          : batches_aligned_16(plan.out_alignment, plan, plan.out_batch_stride,
                               plan.outer_out_strides);
  const int64_t long_len = short_input_rows ? plan.rows : plan.cols;
  const bool long_rows_aligned = (short_input_rows ? plan.store_bytes : plan.load_bytes) == 16;
  // Off 16 bytes (or a pitch apart), only warps whose groups are of one matrix move vectors.
  if ((!long_rows_aligned || !packed_aligned || pitched) && plan.batch * plan.outer_count > 1 &&
      long_len * e < kUnalignedSmallDimFromRowBytes) {
    return false;
  }
  const int64_t groups = plan.batch * ((long_len + 16 / e - 1) / (16 / e));
  // The kernel counts groups (FastDivider) and long-side elements in 32 bits.
  if (groups >= (int64_t{1} << 31) - kSmallDimThreadsPerBlock ||
      long_len >= (int64_t{1} << 32) - 16) {
    return false;
  }
  c.path = TransposePath::SmallDim;
  c.short_input_rows = short_input_rows;
  // The aligned instances take only aligned, dense short rows' runs (fewer registers).
  c.long_rows_aligned = long_rows_aligned && packed_aligned && !pitched;
  c.packed_aligned = packed_aligned && !pitched;
  c.short_rows_pitched = pitched;
  c.short_side = static_cast<int>(short_input_rows ? plan.cols : plan.rows);
  c.threads = kSmallDimThreadsPerBlock;
  c.blocks = (groups + c.threads - 1) / c.threads * plan.outer_count;
  c.tile_utilization = 1.0;
  return true;
}

// A batch of small matrices whose result is contiguous and whose rows start anywhere (so
// that no tile folds several) fills few of the tiled kernel's tiles; a block of the
// batched-small kernel moves a chunk of whole matrices instead, about 8 KiB of shared memory
// (one matrix of up to 8 KiB), read as aligned 16-byte words (one run where the matrices
// lie back to back, row by row where rows lie a pitch apart) and written as such. On the
// H200 sweep it beats the framework's strided copy on matrices back to back (bool 34 x 35:
// 2.26x a copy against 3.97x) but not on rows a pitch apart in elements no wider than their
// values (uint8 49 x 24 rows: 3.15x against 2.34x; int16, int32 1.05-1.22x ATen's time),
// nor on one matrix of 29 KiB a block (int8 242 x 120: 6.44x against 3.17x).
constexpr int64_t kBatchedSmallChunkBytes = 8192;
constexpr int64_t kMaxBatchedSmallMatrixBytes = 8192;

bool choose_batched_small(KernelChoice& c, const TransposePlan& plan) {
  const bool back_to_back = plan.path == TransposePath::TiledContiguous;
  const bool rows_apart =
      plan.path == TransposePath::TiledRowStrided && plan.outer_dims == 0 &&
      plan.out_row_stride == plan.rows &&
      (plan.batch == 1 || plan.out_batch_stride == plan.rows * plan.cols);
  if (!back_to_back && !rows_apart) return false;
  const int64_t matrix_bytes = plan.rows * plan.cols * plan.element_size;
  // Shared memory a matrix takes: its bytes, or its rows at their places mod 16.
  const int64_t footprint =
      back_to_back ? matrix_bytes
                   : plan.rows * 16 * batched_small_words_per_row(plan.cols * plan.element_size);
  if (footprint > kMaxBatchedSmallMatrixBytes) return false;
  const int64_t per_chunk = std::max<int64_t>(1, kBatchedSmallChunkBytes / footprint);
  const int64_t chunk = per_chunk * matrix_bytes;
  const int64_t blocks = (plan.bytes + chunk - 1) / chunk;
  if (blocks > std::numeric_limits<int32_t>::max()) return false;
  KernelChoice b;
  b.path = TransposePath::BatchedSmall;
  b.element_size = plan.element_size;
  b.chunk_bytes = chunk;
  b.rows_apart = rows_apart;
  b.threads = kBatchedSmallThreadsPerBlock;
  b.blocks = blocks;
  // Back to back, the run and its start mod 16.
  b.shared_bytes = static_cast<int>(back_to_back ? (chunk + 16 + 15) / 16 * 16 : per_chunk * footprint);
  b.tile_utilization = static_cast<double>(plan.bytes) / (static_cast<double>(blocks) * chunk);
  c = b;
  return true;
}

// Small matrices (up to 8 KiB) take the batched-small kernel in place of the tiled kernel's
// tiles where those are barely filled, and where either side's rows lie off 16 bytes: the
// tiled kernel's staged or word rows, and the unit-tiled kernel's one-unit tiles after it,
// gather short rows from tiles mostly empty. H100 A/B (sweep distribution, seeds 101-103,
// one process): int16 30126 x 27 x 128 at an offset 3.32x a copy -> 1.15x, bool 1821 x 449
// x 15 in one-unit tiles 3.64x -> 1.31x, float16 (59643, 11, 26, 12) viewed 2.37x -> 1.05x.
// Rows on 16 bytes on both sides keep the tiled kernel's folded and small tiles.
bool batched_small_replaces_tiles(const KernelChoice& c, const ChoiceOverrides& overrides) {
  if (overrides.batched_small >= 0) return overrides.batched_small > 0;
  if (overrides.fallback >= 0) return false;
  return c.tile_utilization < kFallbackBelowTileUtilization ||
         !(c.load == Access::Aligned16 && c.store == Access::Aligned16);
}

// Rows a pitch apart move through the batched-small kernel as 1 x n matrices, in the
// largest unit (up to 16 bytes) that their width, their pitch and both data pointers share,
// where that beats the framework's strided copy, whose speed follows the value's size
// (H200, a same-size copy 1x: about 4.2x on 1-byte values, 2.1x on bfloat16): units wider
// than the values (uint8 rows of 100 bytes in 2-byte units 2.9x, of 4096 bytes in 4-byte
// units 1.6x), 1-byte units of rows of 512 bytes or more (1000 bytes: 3.5x); not units no
// wider than the values (bfloat16 rows of 100 bytes: 2.6x against 2.1x) nor short rows,
// which stage mostly padding (uint8 rows of 50 bytes: 4.5x). cudaMemcpy2DAsync takes 11-630x
// a copy on rows of 2-100 bytes and 2.4x on rows of 40,000: 1-byte values' rows too wide
// for the kernel. Pointers off their value never go to the framework (it faults on them).
constexpr int64_t kMinPitchedRowBytes = 64;
constexpr int64_t kMinPitchedByteRowBytes = 512;

// Rows a pitch apart in elements no wider than their values lose to the framework's copy.
bool batched_small_wins(const TransposePlan& plan) {
  return plan.path == TransposePath::TiledContiguous || plan.element_size > plan.value_size ||
         off_value(plan);
}

void choose_pitched_rows(KernelChoice& c, const TransposePlan& plan) {
  const int64_t pitch = plan.row_stride * plan.stride_unit;
  int64_t unit = 16;
  while (unit > 1 && (plan.element_size % unit != 0 || pitch % unit != 0 ||
                      plan.in_alignment % unit != 0 || plan.out_alignment % unit != 0)) {
    unit /= 2;
  }
  const bool wins = plan.element_size >= kMinPitchedRowBytes &&
                    (unit > plan.value_size ||
                     (plan.value_size == 1 && plan.element_size >= kMinPitchedByteRowBytes));
  if ((wins || off_value(plan)) && choose_batched_small(c, pitched_rows_as_matrices(plan, unit))) {
    return;
  }
  if ((plan.value_size == 1 && plan.element_size >= kMinPitchedByteRowBytes) || off_value(plan)) {
    c.pitched_rows = true;
    return;
  }
  c.path = TransposePath::AtenFallback;
  c.fallback_reason =
      "rows a pitch apart whose 2-D copy is no faster than the framework's strided copy "
      "(rows under 64 bytes, or units no wider than the values)";
}

// Units no wider than the values where the framework's copy moves the values themselves:
// its strided copy is then as wide and faster (H200 sweep): wide elements off 16 bytes in
// units of their values (float32 1020-byte elements in 4-byte units 1.58x a copy against
// 1.38x, float64 2040 bytes 1.25x against 1.14x), strided or pitch-cut 8-byte values in
// 8-byte units (the input's strides no whole number of elements, or no dim of elements one
// element apart: int64 (129, 16055, 15) sliced 1.95x against 1.37x, complex64 1.3x ATen's
// time). Narrower values in such units, and odd element sizes, stay with the kernels.
const char* units_no_wider_than_values(const KernelChoice& c, const TransposePlan& plan) {
  if (off_value(plan) || c.unit_size > plan.value_size) return nullptr;
  if (c.path == TransposePath::WideElements && c.unit_size < 16) {
    return "wide elements off 16 bytes, moved in units no wider than their values: the "
           "framework's copy is faster";
  }
  const bool value_strides = strided_elements(plan) || plan.stride_unit < plan.element_size;
  if (c.path == TransposePath::TiledUnits && c.unit_size >= 8 && value_strides) {
    return "strided or pitch-cut 8-byte values moved as 8-byte units: the framework's strided "
           "copy is faster";
  }
  return nullptr;
}

}  // namespace

TransposePlan pitched_rows_as_matrices(const TransposePlan& plan, int64_t unit) {
  TransposePlan m = plan;
  m.path = TransposePath::TiledRowStrided;
  m.element_size = unit;
  m.batch = plan.rows;
  m.rows = 1;
  m.cols = plan.element_size / unit;
  m.batch_stride = plan.row_stride * plan.stride_unit / unit;
  m.row_stride = m.cols;
  m.stride_unit = unit;
  m.out_batch_stride = m.cols;
  m.out_row_stride = 1;
  return m;
}

namespace {

// Tiles over several dims on each side take what the framework's copy would run where
// each side holds 16 bytes or more and a tile 2 KiB or more (a block's work), with two
// exceptions where the framework's copy is faster (permute sweep, H100, 2026-12-06):
// - values of 4 bytes or more into output rows under a 128-byte line: the framework's copy
//   moves a value a thread, its gathers hit cache, and its stores fill whole lines
//   (int64 (17191, 3, 2, 329) to [0, 3, 1, 2]: tiles 64 x 6, 1.89x the copy against its
//   1.08x; float32 (3, 3, 2, 3, 271743) to [0, 4, 3, 2, 1]: 64 x 18, 1.78x against 1.41x);
// - fewer tiles than SMs: idle SMs (complex64 (16, 926, 8, 3) viewed, 86 tiles of 32 KiB:
//   1.64x against 0.97x).
// Shorter sides and smaller tiles (flattened phases, several tiles a block) take it where
// the framework's gathers miss the L2: consecutive output elements a sector or more apart in
// the input, and consecutive input elements a twelfth of the L2 or more apart in the output
// (the framework's copy then reads a sector an element from memory), but for 1- and 2-byte
// output runs under 8 elements, whose flattened stores are slower still. A/B of them forced
// (permute sweep's distribution, seeds 101-103, H100, evidence aef0264): the 19 large cases
// this takes run at 0.54x the framework's time (geomean), none slower (float16 (988, 4102, 5)
// sliced 12.6x -> 3.7x a copy, float32 (2, 3, 355957, 23) 8.6x -> 1.85x); the ones it leaves
// to the framework lose there (int8 (4, 1107353, 4) to [2, 1, 0]: 2.75x -> 4.30x).
constexpr int64_t kMinNdSideBytes = 16;
constexpr int64_t kMinNdTileBytes = 2048;
constexpr int64_t kMinNdWideValueOutputBytes = 128;
constexpr int64_t kSectorBytes = 32;
constexpr int64_t kL2PartsForNdGathers = 12;
constexpr int64_t kMinNdFlatByteRun = 8;

// Whether the framework's copy of the nd plan's permutation reads a sector an element from
// memory: output neighbours a sector apart in the input, input neighbours far enough apart
// in the output that their sector has left the L2 when the copy comes back for it.
bool framework_gathers_miss_l2(const NdTilePlan& nd, const DeviceFacts& facts) {
  const int64_t e = nd.element_size;
  return nd.out_side.in_strides[0] * e >= kSectorBytes &&
         nd.in_side.out_strides[0] * e >= facts.l2_bytes / kL2PartsForNdGathers &&
         !(e <= 2 && nd.out_side.extent < kMinNdFlatByteRun);
}

bool choose_nd_tiles(KernelChoice& c, const TransposePlan& plan, const DeviceFacts& facts,
                     bool by_rule) {
  const NdTilePlan& nd = plan.nd;
  if (!nd.applies) return false;
  const int64_t e = nd.element_size;
  const int64_t in_bytes = nd.in_side.extent * e;
  const int64_t out_bytes = nd.out_side.extent * e;
  const int64_t blocks = (nd.tiles + nd.tiles_per_block - 1) / nd.tiles_per_block;
  const bool whole_tiles = in_bytes >= kMinNdSideBytes && out_bytes >= kMinNdSideBytes &&
                           in_bytes * nd.out_side.extent >= kMinNdTileBytes &&
                           !(nd.value_size >= 4 && out_bytes < kMinNdWideValueOutputBytes);
  if (by_rule && (blocks < facts.sm_count ||
                  !(whole_tiles || framework_gathers_miss_l2(nd, facts)))) {
    return false;
  }
  KernelChoice t;
  t.path = TransposePath::NdTiles;
  t.element_size = e;
  t.tile_rows = static_cast<int>(nd.out_side.extent);
  t.tile_cols = static_cast<int>(nd.in_side.extent);
  t.nd_in_dims = nd.in_side.dims;
  t.nd_out_dims = nd.out_side.dims;
  t.nd_batch_dims = nd.batch_dims;
  const NdGroupLayout group = nd_group_layout(nd, nd.tiles_per_block);
  t.nd_tiles_per_block = group.tiles_per_block;
  t.nd_load_flat = group.load_flat;
  t.nd_store_flat = group.store_flat;
  t.blocks = (nd.tiles + group.tiles_per_block - 1) / group.tiles_per_block;
  t.threads = kNdTileThreadsPerBlock;
  t.shared_bytes = static_cast<int>(group.shared_bytes);
  t.tile_utilization = static_cast<double>(nd.bytes / e) /
                       (static_cast<double>(nd.tiles) * nd.in_side.extent * nd.out_side.extent);
  c = t;
  return true;
}

// Past the L2, tiles over several dims take plans whose kernel moves short pieces that
// share their sectors with pieces other blocks move later, by which time those sectors have
// left the L2, while the nd tiles span further dims on both sides and move whole runs:
// - the tiled kernel's tiles filled under a quarter (a tile's rows of a few elements), where
//   the nd tiles span several dims on a side, flatten their input side, or replace the
//   tiled kernel's word stores (output rows off 16 bytes); 2-D nd tiles otherwise move the
//   same pieces as the tiled tile, element by element where it stores 16-byte vectors;
// - its folded tiles of 4-byte or wider matrices with a side under a sector (rows scattered
//   16 or 24 bytes at a time);
// - the small-dim kernel's short input rows a pitch apart, where the nd tiles' input side
//   spans 32 elements or more (the rows and the pitch between them);
// - one-unit tiles (input rows of 1- and 2-byte elements a few columns wide), where the nd
//   tiles' input side spans 32 elements or more and is longer than the tiles' rows (it
//   takes the dims packed after them too).
// A/B of nd tiles forced (permute sweep's distribution, seeds 101-103, H100, evidence
// aef0264): the 14 large tiled cases this takes ran at 0.58x the tiled kernel's time
// (geomean), none slower (complex64 (2, 2, 117324, 9, 4) to [2, 4, 0, 3, 1]: folded 2 x 4
// matrices 6.75x -> 1.84x a copy; int64 (1, 15, 7, 11, 8, 1006) to [2, 4, 1, 3, 0, 5]: tiles
// 11% filled 2.98x -> 1.29x); the 11 small-dim ones 0.42x (float8 (61, 1, 30695, 35, 4) to
// [4, 0, 3, 1, 2]: rows of 4 bytes 140 apart, 9.67x -> 2.13x). Under the L2, tiles a
// quarter filled or more, 2-byte folded tiles and the nd tiles' flattened input sides split
// between wins and losses (int32 (22, 3, 5250, 29), 38 MB, 23% filled: 1.48x -> 1.80x;
// bfloat16 (20, 2, 32, 4644, 4) folded 3.18x -> 3.92x; bool (40779571, 3) sliced, small-dim
// rows of 3 bytes, input side flattened: 2.36x -> 4.70x). One-unit tiles, the same A/B:
// the 3 large cases this takes 0.57-0.96x their time (int16 (69, 49890, 3, 21, 1) at an
// offset to [3, 2, 1, 4, 0], input rows of 21 values: 3.55x -> 2.03x a copy; float16 (16,
// 2339, 7, 35, 27) 1.82x -> 1.74x); where the input side would be under 32 elements they
// lost 15 of 18 (float8 (266, 59361, 30) to [0, 2, 1], 30 values: 2.45x -> 4.42x). A side
// no longer than the tiles' rows reads the same short pieces (untimed; kept). 2-D nd
// tiles for tiles under a quarter full, A/B on the transpose sweep's distribution (seeds
// 101-103, H100, evidence 49a8a29): where the tiled kernel stores 16-byte vectors they took
// 0.80-1.90x its time (geomean 1.46x, 4 of 5 slower: float8 (4, 524288, 32) dims 1, 2:
// 1.82x -> 3.46x a copy), where it stores words 0.50-1.43x (geomean 0.78x: float32
// (2, 1, 21, 1750499) dims 2, 3: 2.69x -> 1.73x); with the input side flattened 0.47x and
// 0.88x (float64 (7314, 512, 7) at an offset: 2.91x -> 1.37x), on permutes 0.60-0.99x.
constexpr double kNdReplacesTilesBelowUtilization = 0.25;
constexpr int64_t kNdReplacesFoldedFromElementBytes = 4;
constexpr int64_t kNdReplacesFromInputSide = 32;

bool nd_tiles_replace_short_pieces(const KernelChoice& c, const TransposePlan& plan,
                                   const DeviceFacts& facts) {
  if (!plan.nd.applies || !input_past_l2(plan, facts)) return false;
  switch (c.path) {
    case TransposePath::TiledContiguous:
    case TransposePath::TiledRowStrided:
      if (c.tile_utilization < kNdReplacesTilesBelowUtilization &&
          (plan.nd.in_side.dims + plan.nd.out_side.dims > 2 ||
           nd_group_layout(plan.nd, plan.nd.tiles_per_block).load_flat ||
           c.store == Access::Words)) {
        return true;
      }
      return c.tiling == Tiling::Folded &&
             plan.element_size >= kNdReplacesFoldedFromElementBytes &&
             std::min(plan.rows, plan.cols) * plan.element_size < kSectorBytes;
    case TransposePath::SmallDim:
      return c.short_input_rows && c.short_rows_pitched &&
             plan.nd.in_side.extent >= kNdReplacesFromInputSide;
    case TransposePath::TiledUnits:  // one-unit tiles: the plan's own path is the tiled one
      return plan.path != TransposePath::TiledUnits &&
             plan.nd.in_side.extent >= kNdReplacesFromInputSide &&
             plan.nd.in_side.extent > c.tile_cols;
    default:
      return false;
  }
}

KernelChoice choose_matrix_kernel(const TransposePlan& plan, const DeviceFacts& facts,
                                  const ChoiceOverrides& overrides);

}  // namespace

KernelChoice choose_kernel(const TransposePlan& plan, const DeviceFacts& facts,
                           const ChoiceOverrides& overrides) {
  KernelChoice c = choose_matrix_kernel(plan, facts, overrides);
  if (c.unsupported != nullptr || overrides.nd_tiles == 0) return c;
  if (overrides.nd_tiles == 1) {
    choose_nd_tiles(c, plan, facts, /*by_rule=*/false);
    return c;
  }
  // The framework's CUDA copy faults on a pointer off its value: never ATen there anyway.
  // Where ATen's copy measured faster than the tiles in the same process, the nd tiles measured
  // slower than it too (the two rules' comments), so they do not replace it.
  const bool measured_faster = c.fallback_reason == kFoldedValuesFallbackReason ||
                               c.fallback_reason == kSparseTilesInL2FallbackReason;
  if (c.path == TransposePath::AtenFallback && overrides.fallback != 1 && !measured_faster) {
    choose_nd_tiles(c, plan, facts, /*by_rule=*/true);
  } else if (overrides.nd_tiles != 2 && overrides.fallback != 0 &&
             nd_tiles_replace_short_pieces(c, plan, facts)) {
    choose_nd_tiles(c, plan, facts, /*by_rule=*/false);
  }
  return c;
}

namespace {

KernelChoice choose_matrix_kernel(const TransposePlan& plan, const DeviceFacts& facts,
                                  const ChoiceOverrides& overrides) {
  KernelChoice c;
  bool small_unit_tiles = false;  // TiledUnits: tiles too small to beat the framework
  c.path = plan.path;
  c.element_size = plan.element_size;
  switch (plan.path) {
    case TransposePath::TiledContiguous:
    case TransposePath::TiledRowStrided:
      if (overrides.small_dim != 0 && choose_small_dim(c, plan)) break;
      choose_tiled(c, plan, facts, overrides);
      break;
    case TransposePath::TiledUnits:
      if (!choose_element_runs(c, plan, overrides)) {
        small_unit_tiles = choose_units(c, plan, facts, overrides);
      }
      break;
    case TransposePath::WideElements:
      choose_wide(c, plan, facts);
      break;
    case TransposePath::Memcpy:
      if (plan.rows > 0) choose_pitched_rows(c, plan);
      break;
    case TransposePath::Empty:
    case TransposePath::SmallDim:  // choices, never a plan's path
    case TransposePath::BatchedSmall:
    case TransposePath::ElementRuns:
    case TransposePath::NdTiles:
    case TransposePath::AtenFallback:
      break;
  }
  if (choose_realigned(c, plan, overrides)) return c;
  const bool tiled = c.path == TransposePath::TiledContiguous ||
                     c.path == TransposePath::TiledRowStrided ||
                     c.path == TransposePath::TiledUnits;
  const bool strided = strided_elements(plan);
  KernelChoice wide;
  if (choose_wide_16(wide, c, plan, facts, overrides)) return wide;
  if ((c.path == TransposePath::TiledContiguous || c.path == TransposePath::TiledRowStrided) &&
      c.unsupported == nullptr && batched_small_replaces_tiles(c, overrides) &&
      batched_small_wins(plan) && choose_batched_small(c, plan)) {
    return c;
  }
  KernelChoice units;
  if ((plan.path == TransposePath::TiledContiguous || plan.path == TransposePath::TiledRowStrided) &&
      c.unsupported == nullptr && choose_one_unit_tiles(units, c, plan, facts, overrides)) {
    c = units;
  }
  if (c.unsupported == nullptr && overrides.fallback < 0) {
    if (const char* why = units_no_wider_than_values(c, plan)) {
      c.path = TransposePath::AtenFallback;
      c.fallback_reason = why;
      return c;
    }
  }
  if (c.path == TransposePath::TiledUnits && !strided && c.unsupported == nullptr &&
      overrides.fallback < 0 && !off_value(plan) && small_unit_tiles) {
    c.path = TransposePath::AtenFallback;
    c.fallback_reason =
        "elements of odd sizes whose matrix fills tiles of under 1.5 KiB, or tiles whose output "
        "rows are under 64 bytes: the framework's strided copy is faster";
    return c;
  }
  const double fallback_below =
      strided ? kStridedFallbackBelowTileUtilization : kFallbackBelowTileUtilization;
  // The framework's CUDA copy faults on a pointer off its value (misaligned address).
  if (tiled && c.unsupported == nullptr && !off_value(plan) &&
      (overrides.fallback == 1 ||
       (overrides.fallback < 0 && c.tile_utilization < fallback_below))) {
    c.path = TransposePath::AtenFallback;
    c.fallback_reason =
        strided ? "strided elements whose tiles the tensor fills under half (a short strided "
                  "dim last): the framework's strided copy is faster"
                : "a swapped dim far smaller than the tiled kernel's tile (under a tenth of its "
                  "tiles filled): the framework's strided copy is faster";
    return c;
  }
  // The tiled kernel's tiles where ATen's copy measured faster in the same process.
  const bool matrix_tiles =
      c.path == TransposePath::TiledContiguous || c.path == TransposePath::TiledRowStrided;
  if (matrix_tiles && c.unsupported == nullptr && !off_value(plan) && overrides.fallback < 0) {
    const char* why = framework_gathers_sparse_tiles_from_l2(c, plan, facts)
                          ? kSparseTilesInL2FallbackReason
                      : framework_reads_folded_values_whole(c, plan, facts)
                          ? kFoldedValuesFallbackReason
                          : nullptr;
    if (why != nullptr) {
      c.path = TransposePath::AtenFallback;
      c.fallback_reason = why;
    }
  }
  return c;
}

}  // namespace

std::string kernel_name(const KernelChoice& c) {
  switch (c.path) {
    case TransposePath::TiledContiguous:
    case TransposePath::TiledRowStrided:
      return "tiled<e=" + std::to_string(c.element_size) + ", load=" + access_name(c.load) +
             ", store=" + access_name(c.store) + ", tiling=" + tiling_name(c.tiling) +
             ", l2=" + input_l2_name(c.input_l2) + ">";
    case TransposePath::WideElements:
      if (c.realigned) {
        return "wide_elements<unit=16, realigned, threads=" + std::to_string(c.threads) +
               ", granules=" + std::to_string(realigned_granules(c.element_size)) +
               ", l2=" + input_l2_name(c.input_l2) + ">";
      }
      return "wide_elements<unit=" + std::to_string(c.unit_size) +
             ", threads=" + std::to_string(c.threads) +
             ", units=" + std::to_string(c.tile_rows * c.tile_cols) +
             ", l2=" + input_l2_name(c.input_l2) + ">";
    case TransposePath::TiledUnits:
      return "tiled_units<unit=" + std::to_string(c.unit_size) +
             ", units=" + std::to_string(c.element_size / c.unit_size) +
             ", tile=" + std::to_string(c.tile_rows) + "x" + std::to_string(c.tile_cols) +
             (c.unit_words ? ", access=words>" : ", access=units>");
    case TransposePath::SmallDim:
      return "small_dim<e=" + std::to_string(c.element_size) +
             ", short=" + std::to_string(c.short_side) +
             (c.short_input_rows ? ", short_rows=input" : ", short_rows=output") +
             (c.long_rows_aligned ? ", long_rows=aligned16" : ", long_rows=any") +
             (c.short_rows_pitched ? ", packed=pitched>" : c.packed_aligned ? ">" : ", packed=any>");
    case TransposePath::BatchedSmall:
      return "batched_small<e=" + std::to_string(c.element_size) +
             ", chunk=" + std::to_string(c.chunk_bytes) +
             (c.rows_apart ? ", rows=apart>" : ">");
    case TransposePath::ElementRuns:
      return "element_runs<e=" + std::to_string(c.element_size) +
             ", chunk=" + std::to_string(c.chunk_elements) + ">";
    case TransposePath::NdTiles:
      return "nd_tiles<e=" + std::to_string(c.element_size) + ", tile=" +
             std::to_string(c.tile_cols) + "x" + std::to_string(c.tile_rows) +
             ", in_dims=" + std::to_string(c.nd_in_dims) + ", out_dims=" +
             std::to_string(c.nd_out_dims) + ", batch_dims=" + std::to_string(c.nd_batch_dims) +
             (c.nd_tiles_per_block > 1 ? ", tiles_per_block=" + std::to_string(c.nd_tiles_per_block)
                                       : std::string()) +
             (c.nd_load_flat && c.nd_store_flat ? ", flat=both"
              : c.nd_load_flat                  ? ", flat=load"
              : c.nd_store_flat                 ? ", flat=store"
                                                : "") +
             ">";
    case TransposePath::Memcpy:
      return c.pitched_rows ? "memcpy2d" : "memcpy";
    case TransposePath::Empty:
    case TransposePath::AtenFallback:
      break;
  }
  return "";
}

}  // namespace gputranspose
