// The kernel choice as a specification: which kernel a layout gets on a device with given
// facts. Pure host code (csrc/core), so it runs without a GPU.
#include "core/kernel_choice.h"
#include "core/layout_plan.h"
#include "h100_facts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gputranspose {
namespace {

// An H100 SXM as the CUDA launcher reads it.

DeviceFacts faster_memory() {
  DeviceFacts facts = h100();
  facts.memory_bytes_per_s = 4.8e12;
  return facts;
}

struct Input {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;  // empty: contiguous
  int64_t itemsize;
  int64_t offset = 0;  // values from a 256-byte aligned allocation
};

// The plan of transposing dims d0 and d1 of a 256-byte aligned layout.
TransposePlan plan_of(std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t itemsize,
                      int64_t d0, int64_t d1) {
  StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                  0x7f0000000000};
  return plan_transpose(x, {d0, d1, false});
}

KernelChoice choose(Input x, const DeviceFacts& facts, int64_t dim0 = -2, int64_t dim1 = -1,
                    const ChoiceOverrides& overrides = {}) {
  const int64_t ndim = static_cast<int64_t>(x.sizes.size());
  if (x.strides.empty()) {
    x.strides.assign(ndim, 1);
    for (int64_t d = ndim - 2; d >= 0; --d) x.strides[d] = x.strides[d + 1] * x.sizes[d + 1];
  }
  StridedLayout layout;
  layout.ndim = ndim;
  layout.sizes = x.sizes.data();
  layout.strides = x.strides.data();
  layout.itemsize = x.itemsize;
  layout.address = static_cast<uintptr_t>(0x7f0000000000 + x.offset * x.itemsize);
  const TransposeDims dims{(dim0 + ndim) % ndim, (dim1 + ndim) % ndim, false};
  const KernelChoice choice = choose_kernel(plan_transpose(layout, dims), facts, overrides);
  if (choice.path == TransposePath::TiledContiguous ||
      choice.path == TransposePath::TiledRowStrided) {
    EXPECT_TRUE(tiled_kernel_exists(static_cast<int>(choice.element_size), choice.load,
                                    choice.store, choice.tiling, choice.input_l2))
        << kernel_name(choice);
  }
  return choice;
}

TEST(KernelChoice, AlignedMatricesPastL2ReadTheirInputAtEvictLast) {
  const KernelChoice c = choose({{8192, 8192}, {}, 4}, h100());
  EXPECT_EQ(c.path, TransposePath::TiledContiguous);
  EXPECT_EQ(c.load, Access::Aligned16);
  EXPECT_EQ(c.store, Access::Aligned16);
  EXPECT_EQ(c.tiling, Tiling::Wide);
  EXPECT_EQ(c.input_l2, InputL2::EvictLast);
  EXPECT_GT(c.release_from, 0);
  EXPECT_LT(c.release_from, c.blocks);
  EXPECT_EQ(c.blocks, (8192 / c.tile_rows) * (8192 / c.tile_cols));
}

TEST(KernelChoice, InputsThatFitInL2ReadPlainly) {
  const KernelChoice c = choose({{1024, 1024}, {}, 4}, h100());
  EXPECT_EQ(c.input_l2, InputL2::Normal);
  EXPECT_EQ(c.release_from, 0);
}

TEST(KernelChoice, UnalignedOneByteRowsAreStagedAndOddOutputRowsSkewed) {
  const KernelChoice c = choose({{8191, 8193}, {}, 1}, h100());
  EXPECT_EQ(c.load, Access::Staged);
  EXPECT_EQ(c.store, Access::Words);
  EXPECT_EQ(c.input_l2, InputL2::Normal);  // staged loads never read at evict_last
}

TEST(KernelChoice, UnalignedTwoByteRowsPastL2AreStagedOnlyOnSlowerMemory) {
  const Input x{{8191, 8193}, {}, 2};
  EXPECT_EQ(choose(x, h100()).load, Access::Staged);
  EXPECT_EQ(choose(x, faster_memory()).load, Access::Words);
  const Input small{{1001, 1003}, {}, 2};  // 2 MB: inside L2
  EXPECT_EQ(choose(small, h100()).load, Access::Words);
}

TEST(KernelChoice, LongOutputRowsOfUnalignedRowsTakeTallTiles) {
  // The tiled kernel's tiles (1-byte rows this short take one-unit tiles by the rule).
  ChoiceOverrides tiled;
  tiled.one_unit_tiles = 0;
  for (const int64_t itemsize : {1, 4, 8}) {
    const KernelChoice tall = choose({{16384, 35}, {301, 1}, itemsize}, h100(), -2, -1, tiled);
    EXPECT_EQ(tall.tiling, Tiling::Tall) << itemsize;
    EXPECT_EQ(tall.store, Access::Aligned16);
    const KernelChoice wide = choose({{8192, 35}, {301, 1}, itemsize}, h100());
    EXPECT_EQ(wide.tiling, Tiling::Wide) << itemsize;
  }
  // 2-byte word loads (inside L2 here) lose by them.
  const KernelChoice words = choose({{16384, 35}, {301, 1}, 2}, h100(), -2, -1, tiled);
  EXPECT_EQ(words.load, Access::Words);
  EXPECT_EQ(words.tiling, Tiling::Wide);
}

TEST(KernelChoice, TallUnalignedMatricesWalkEightTileRowsAtATime) {
  EXPECT_EQ(choose({{65536, 2049}, {}, 1}, h100()).group_rows, 8);
  const KernelChoice aligned = choose({{32768, 4096}, {}, 4}, h100());
  EXPECT_EQ(aligned.group_rows, (32768 + aligned.tile_rows - 1) / aligned.tile_rows);
}

TEST(KernelChoice, RowsAnOddMultipleOf128KiBApartInterleaveTileColumns) {
  EXPECT_TRUE(choose({{37, 32768}, {}, 4}, h100()).interleave);
  EXPECT_FALSE(choose({{37, 65536}, {}, 4}, h100()).interleave);
  EXPECT_FALSE(choose({{37, 32000}, {}, 4}, h100()).interleave);
}

TEST(KernelChoice, BatchesOfSmallMatricesFoldSeveralIntoATile) {
  const KernelChoice c = choose({{4096, 64, 64}, {}, 1}, h100());
  EXPECT_EQ(c.tiling, Tiling::Folded);
  EXPECT_GT(c.fold_rows_log2, 0);
  EXPECT_LT(c.blocks, 4096);  // several matrices a block
}

TEST(KernelChoice, SmallTilesWhereTheyAllFitOnTheDevice) {
  EXPECT_EQ(choose({{1024, 1024}, {}, 1}, h100()).tiling, Tiling::Small);
  DeviceFacts tiny = h100();
  tiny.small_tile_blocks_1 = 8;
  EXPECT_EQ(choose({{1024, 1024}, {}, 1}, tiny).tiling, Tiling::Wide);
  EXPECT_EQ(choose({{1024, 1024}, {}, 4}, h100()).tiling, Tiling::Wide);  // 1 and 16 bytes only
}

TEST(KernelChoice, OutputRowsMidSectorAcrossTilesTakeSkewedStores) {
  // 8208 one-byte rows: 16-byte aligned, but every other row starts mid-sector.
  EXPECT_EQ(choose({{8208, 8192}, {}, 1}, h100()).store, Access::Words);
  EXPECT_EQ(choose({{8192, 8192}, {}, 1}, h100()).store, Access::Aligned16);
  // 16-byte elements are never skewed.
  EXPECT_EQ(choose({{8194, 1024}, {}, 16}, h100()).store, Access::Aligned16);
}

TEST(KernelChoice, ElementsWiderThan16BytesTakeTheWideElementKernel) {
  const KernelChoice c = choose({{2, 64, 8, 32}, {}, 4}, h100(), 1, 2);
  EXPECT_EQ(c.path, TransposePath::WideElements);
  EXPECT_EQ(c.element_size, 32 * 4);  // the dims after the swapped pair
  EXPECT_GT(c.blocks, 0);
  EXPECT_GT(c.threads, 0);
}

TEST(KernelChoice, TileUtilizationSaysHowMuchOfTheLaunchedTilesTheTensorFills) {
  EXPECT_DOUBLE_EQ(choose({{8192, 8192}, {}, 4}, h100()).tile_utilization, 1.0);
  // 5 x 2 matrices of float64 11 apart, the tiled kernel kept (a development build's
  // override): one 64 x 64 tile each, 10 of 4096 filled.
  std::vector<int64_t> sizes{100000, 5, 2}, strides{11, 2, 1};
  StridedLayout layout{3, sizes.data(), strides.data(), 8, 0x7f0000000000};
  ChoiceOverrides tiled;
  tiled.fallback = 0;
  const KernelChoice tiny = choose_kernel(plan_transpose(layout, {1, 2, false}), h100(), tiled);
  EXPECT_EQ(tiny.path, TransposePath::TiledRowStrided);
  EXPECT_EQ(tiny.tiling, Tiling::Wide);
  EXPECT_NEAR(tiny.tile_utilization, 10.0 / (tiny.tile_rows * tiny.tile_cols), 1e-12);
  EXPECT_LT(choose({{1000, 11, 5903}, {}, 1}, h100()).tile_utilization, 0.1);
  const KernelChoice heads = choose({{2, 64, 8, 32}, {}, 4}, h100(), 1, 2);
  EXPECT_GT(heads.tile_utilization, 0.9);
}

TEST(KernelChoice, ASideOfTwoToSixteenElementsTakesTheSmallDimKernel) {
  // Short input rows: (20000000, 3) -> (3, 20000000), output rows on 16 bytes.
  KernelChoice c = choose({{20000000, 3}, {}, 2}, h100());
  EXPECT_EQ(c.path, TransposePath::SmallDim);
  EXPECT_EQ(kernel_name(c), "small_dim<e=2, short=3, short_rows=input, long_rows=aligned16>");
  EXPECT_EQ(c.blocks, (20000000 / 8 + 127) / 128);
  // Short output rows: (4, 3, 65536) -> (4, 65536, 3), input rows on 16 bytes.
  c = choose({{4, 3, 65536}, {}, 1}, h100());
  EXPECT_EQ(kernel_name(c), "small_dim<e=1, short=3, short_rows=output, long_rows=aligned16>");
  EXPECT_EQ(c.blocks, (4 * 65536 / 16 + 127) / 128);
  // Every side from 2 to 16, every element of up to 8 bytes.
  for (int64_t e : {1, 2, 4, 8}) {
    for (int64_t s = 2; s <= kMaxSmallDim; ++s) {
      EXPECT_EQ(choose({{4096, s}, {}, e}, h100()).short_side, s);
      EXPECT_EQ(choose({{s, 4096}, {}, e}, h100()).short_side, s);
    }
  }
  // Long rows off 16 bytes: one matrix, or long rows of 8 KiB or more.
  c = choose({{4095, 3}, {}, 4}, h100());
  EXPECT_EQ(kernel_name(c), "small_dim<e=4, short=3, short_rows=input, long_rows=any>");
  EXPECT_FALSE(choose({{3, 4095}, {}, 4}, h100()).long_rows_aligned);
  EXPECT_EQ(choose({{3, 4, 2049}, {}, 4}, h100()).path, TransposePath::SmallDim);
  EXPECT_NE(choose({{3, 4, 2047}, {}, 4}, h100()).path, TransposePath::SmallDim);
  // Short rows' runs off 16 bytes (a storage offset, batch strides off 16 bytes): one
  // matrix, or long rows of 8 KiB or more, whose warps stage them in units (the instances
  // for long rows anywhere: the aligned ones take neither).
  c = choose({{4096, 3}, {}, 4, 1}, h100());
  EXPECT_EQ(kernel_name(c), "small_dim<e=4, short=3, short_rows=input, long_rows=any, packed=any>");
  c = choose({{5, 4096, 3}, {4096 * 3 + 1, 3, 1}, 4}, h100());
  EXPECT_EQ(c.path, TransposePath::SmallDim);
  EXPECT_FALSE(c.packed_aligned);
  EXPECT_NE(choose({{5, 1000, 3}, {3001, 3, 1}, 4}, h100()).path, TransposePath::SmallDim);
  // float8 (7, 180462, 12) in a buffer of 2165544 bytes a matrix (8 mod 16).
  c = choose({{7, 180462, 12}, {2165544, 12, 1}, 1}, h100(), 1, 2);
  EXPECT_EQ(kernel_name(c), "small_dim<e=1, short=12, short_rows=input, long_rows=any, packed=any>");
  // Short input rows a pitch apart, not dense (float8 rows of 7 of 107): staged element by
  // element, by warps whose groups are of one matrix.
  c = choose({{10004325, 7}, {107, 1}, 1}, h100());
  EXPECT_EQ(kernel_name(c), "small_dim<e=1, short=7, short_rows=input, long_rows=any, packed=pitched>");
  EXPECT_EQ(choose({{3, 9000, 7}, {9000 * 20, 20, 1}, 1}, h100()).path, TransposePath::SmallDim);
  EXPECT_NE(choose({{3, 4000, 7}, {4000 * 20, 20, 1}, 1}, h100()).path, TransposePath::SmallDim);
  // Not: both sides short (the tiled kernel folds such matrices), 17 or more, 16-byte
  // elements.
  EXPECT_NE(choose({{1000, 6, 6}, {}, 8}, h100()).path, TransposePath::SmallDim);
  EXPECT_NE(choose({{4096, 17}, {}, 1}, h100()).path, TransposePath::SmallDim);
  EXPECT_NE(choose({{4096, 3}, {}, 16}, h100()).path, TransposePath::SmallDim);
  // Long sides of 2^32 elements or more: the tiled kernel (the kernel counts in 32 bits).
  EXPECT_NE(choose({{(int64_t{1} << 32) + 16, 3}, {}, 1}, h100()).path, TransposePath::SmallDim);
  EXPECT_NE(choose({{3, (int64_t{1} << 32) + 16}, {}, 1}, h100()).path, TransposePath::SmallDim);
  EXPECT_EQ(choose({{(int64_t{1} << 31) + 16, 3}, {}, 1}, h100()).path, TransposePath::SmallDim);
  // Short output rows need the output's rows back to back; an input sliced along the long
  // side is fine (the last group is cut short).
  EXPECT_EQ(choose({{3, 4001}, {4004, 1}, 4}, h100()).path, TransposePath::SmallDim);
  // A development build may keep the tiled kernel.
  std::vector<int64_t> sizes{20000000, 3}, strides{3, 1};
  StridedLayout layout{2, sizes.data(), strides.data(), 2, 0x7f0000000000};
  ChoiceOverrides tiled;
  tiled.small_dim = 0;
  EXPECT_EQ(choose_kernel(plan_transpose(layout, {0, 1, false}), h100(), tiled).path,
            TransposePath::AtenFallback);  // the tiled kernel, under a tenth filled
}

// Small matrices back to back on both sides that the tiles would barely fill (rows
// anywhere, so no tile folds several): a run of whole matrices a block, about 8 KiB.
TEST(KernelChoice, BatchesOfSmallMatricesBackToBackTakeTheBatchedSmallKernel) {
  for (const KernelChoice& c : {choose({{1000, 3, 1001}, {}, 1}, h100()),
                                choose({{1000, 1001, 3}, {}, 2}, h100()),
                                choose({{1000000, 3, 3}, {}, 1}, h100()),
                                choose({{87383, 34, 35}, {}, 1}, h100()),
                                choose({{100000, 5, 2}, {}, 8, 1}, h100())}) {
    EXPECT_EQ(c.path, TransposePath::BatchedSmall);
    EXPECT_EQ(c.chunk_bytes % c.element_size, 0);
    EXPECT_LE(c.chunk_bytes, 8192);
    EXPECT_GE(c.chunk_bytes, 8192 - 3003);
    EXPECT_LE(c.shared_bytes, 48 * 1024);
  }
  KernelChoice c = choose({{1000, 3, 1001}, {}, 1}, h100());
  EXPECT_EQ(c.chunk_bytes, 2 * 3003);
  EXPECT_EQ(c.blocks, 500);
  EXPECT_EQ(kernel_name(c), "batched_small<e=1, chunk=6006>");
  // Rows or matrices a pitch apart, the result contiguous, elements wider than their values:
  // read row by row, each row at its place mod 16 (uint8 3 x 1024 of 2-byte elements, rows
  // 2062 bytes apart). Elements no wider than their values (float8 3 x 1024 of rows 1031
  // apart, int32 4 x 196 of rows 203 apart): ATen's strided copy is faster.
  c = choose({{1317, 3, 1024, 2}, {6186, 2062, 2, 1}, 1}, h100(), 1, 2);
  EXPECT_EQ(kernel_name(c), "batched_small<e=2, chunk=6144, rows=apart>");
  EXPECT_EQ(c.shared_bytes, 3 * 16 * 129);
  EXPECT_EQ(choose({{1317, 3, 1024}, {3093, 1031, 1}, 1}, h100()).path, TransposePath::AtenFallback);
  EXPECT_EQ(choose({{279721, 4, 196}, {812, 203, 1}, 4}, h100()).path, TransposePath::AtenFallback);
  // A matrix of up to 8 KiB a block; larger ones (one int8 242 x 120 of 29 KiB), ATen's copy.
  EXPECT_EQ(choose({{1017, 3630, 8}, {}, 1}, h100()).path, TransposePath::AtenFallback);
  EXPECT_EQ(choose({{100, 4097, 9}, {}, 1}, h100()).path, TransposePath::AtenFallback);
}

// Small matrices whose rows lie off 16 bytes on either side take the batched-small kernel
// however full the tiled kernel's tiles (its staged or word rows, and the one-unit tiles
// after it, lose to whole matrices a block); rows on 16 bytes on both sides keep the tiled
// kernel's folded tiles; the override takes the kernel never or wherever it can.
TEST(KernelChoice, SmallMatricesWithRowsOffSixteenBytesTakeTheBatchedSmallKernel) {
  const KernelChoice offset_rows = choose({{30126, 27, 128}, {}, 2, 9}, h100(), 1, 2);
  EXPECT_EQ(offset_rows.path, TransposePath::BatchedSmall);
  EXPECT_EQ(choose({{1821, 449, 15}, {}, 1}, h100(), 1, 2).path, TransposePath::BatchedSmall);
  EXPECT_EQ(choose({{67008, 49, 128}, {}, 1}, h100(), 1, 2).path, TransposePath::BatchedSmall);
  const KernelChoice folded = choose({{4096, 64, 64}, {}, 1}, h100(), 1, 2);
  EXPECT_EQ(folded.path, TransposePath::TiledContiguous);
  EXPECT_EQ(folded.tiling, Tiling::Folded);
  ChoiceOverrides never, always;
  never.batched_small = 0;
  never.nd_tiles = 0;  // the tiled kernel, not the nd tiles that take its sparse tiles past L2
  always.batched_small = 1;
  const KernelChoice tiled = choose({{30126, 27, 128}, {}, 2, 9}, h100(), 1, 2, never);
  EXPECT_EQ(tiled.path, TransposePath::TiledContiguous);
  EXPECT_GE(tiled.tile_utilization, 0.1);  // the rule's own limit does not take it
  EXPECT_EQ(choose({{4096, 64, 64}, {}, 1}, h100(), 1, 2, always).path, TransposePath::BatchedSmall);
  // Matrices over 8 KiB stay with the tiles.
  EXPECT_NE(choose({{1000, 100, 100}, {}, 1, 3}, h100(), 1, 2).path, TransposePath::BatchedSmall);
}

TEST(KernelChoice, TilesTheTensorBarelyFillsTakeTheFrameworksCopy) {
  // 3 x 6 and 4 x 2 matrices under permuted batch dims (their results far apart): under a
  // tenth of the launched tiles filled.
  for (const KernelChoice& c : {choose({{81, 2000, 6, 3}, {36000, 18, 1, 6}, 2}, h100(), 0, 1),
                                choose({{2, 100, 341, 2, 4}, {272800, 2728, 8, 1, 2}, 2}, h100(), 1, 2)}) {
    EXPECT_EQ(c.path, TransposePath::AtenFallback);
    EXPECT_LT(c.tile_utilization, 0.1);
    EXPECT_NE(c.fallback_reason, nullptr);
    EXPECT_EQ(kernel_name(c), "");
  }
  // The suite's shapes keep their kernels: large dims, 64-wide ones, folded small matrices.
  for (const Input& x : std::vector<Input>{{{8192, 8192}, {}, 1},
                                           {{65536, 64}, {}, 1},
                                           {{64, 65536}, {}, 1},
                                           {{4096, 64, 64}, {}, 1},
                                           {{65536, 64}, {}, 16},
                                           {{8192, 8192}, {8209, 1}, 1}}) {
    const KernelChoice c = choose(x, h100());
    EXPECT_EQ(c.fallback_reason, nullptr);
    EXPECT_NE(c.path, TransposePath::AtenFallback);
  }
  // A development build may keep the tiled kernel there.
  std::vector<int64_t> sizes{3, 20000001}, strides{20000001, 1};
  StridedLayout layout{2, sizes.data(), strides.data(), 1, 0x7f0000000000};
  ChoiceOverrides tiled;
  tiled.fallback = 0;
  tiled.small_dim = 0;
  EXPECT_EQ(choose_kernel(plan_transpose(layout, {0, 1, false}), h100(), tiled).path,
            TransposePath::TiledContiguous);
}

TEST(LayoutPlan, DimsBackToBackOnBothSidesFuseIntoOneBatchOfMatrices) {
  auto plan = [](std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t d0,
                 int64_t d1) { return plan_of(sizes, strides, 4, d0, d1); };
  // A transposed view of (8, 65, 64), its dims 0 and 1 swapped: (64, 8 x 65) from (520, 64).
  TransposePlan p = plan({8, 64, 65}, {4160, 1, 64}, 0, 1);
  EXPECT_EQ(p.path, TransposePath::TiledContiguous);
  EXPECT_EQ(p.batch, 1);
  EXPECT_EQ(p.rows, 520);
  EXPECT_EQ(p.cols, 64);
  // A permuted batch (75, 4, 200) of a (4, 75, 200) tensor: one 4 x 15000 matrix.
  p = plan({75, 4, 200}, {200, 15000, 1}, 1, 2);
  EXPECT_EQ(p.path, TransposePath::TiledContiguous);
  EXPECT_EQ(p.rows, 4);
  EXPECT_EQ(p.cols, 15000);
  // Non-adjacent dims around size-1 dims: adjacent once those are dropped.
  p = plan({5, 1, 7, 1, 8}, {56, 56, 8, 8, 1}, 0, 2);
  EXPECT_EQ(p.path, TransposePath::WideElements);
  EXPECT_EQ(p.element_size, 32);
  // A 3-D reversal: the middle dim a batch whose matrices land rows x batch apart.
  p = plan({4, 5, 6}, {30, 6, 1}, 0, 2);
  EXPECT_EQ(p.path, TransposePath::TiledRowStrided);
  EXPECT_EQ(p.batch, 5);
  EXPECT_EQ(p.rows, 4);
  EXPECT_EQ(p.cols, 6);
  EXPECT_EQ(p.batch_stride, 6);
  EXPECT_EQ(p.row_stride, 30);
  EXPECT_EQ(p.out_batch_stride, 4);
  EXPECT_EQ(p.out_row_stride, 20);
  // Two batch dims that do not fold into one stride: the larger the batch, the other outer.
  p = plan({4, 3, 64, 64}, {24576, 4096, 64, 1}, 2, 3);
  EXPECT_EQ(p.path, TransposePath::TiledRowStrided);
  EXPECT_EQ(p.batch, 4);
  EXPECT_EQ(p.batch_stride, 24576);
  EXPECT_EQ(p.outer_dims, 1);
  EXPECT_EQ(p.outer_count, 3);
  EXPECT_EQ(p.outer_strides[0], 4096);
  EXPECT_EQ(p.outer_out_strides[0], 4096);
  EXPECT_EQ(p.out_batch_stride, 3 * 4096);
  // Strided elements (no dim one element apart in the input): the unit-tiled kernel reads
  // each element on its own, the columns the dim nearest in the input.
  p = plan({64, 64, 4}, {512, 8, 2}, 0, 1);
  EXPECT_EQ(p.path, TransposePath::TiledUnits);
  EXPECT_EQ(p.element_size, 4);
  EXPECT_EQ(p.stride_unit, 4);
  EXPECT_EQ(p.rows, 4);
  EXPECT_EQ(p.row_stride, 2);
  EXPECT_EQ(p.cols, 64);
  EXPECT_EQ(p.col_stride, 8);
  // A strided 1-D run is rows a pitch apart: a 2-D copy; a repeated one has no rows to
  // copy: ATen's copy.
  p = plan({64}, {2}, 0, 0);
  EXPECT_EQ(p.path, TransposePath::Memcpy);
  EXPECT_EQ(p.rows, 64);
  EXPECT_EQ(p.row_stride, 2);
  EXPECT_EQ(p.element_size, 4);
  EXPECT_EQ(plan({64}, {0}, 0, 0).path, TransposePath::AtenFallback);
}

// A transpose with a size-1 dim, or a copy of sliced rows, moves rows a pitch apart into
// the result back to back: the batched-small kernel, 1 x n matrices in the unit that the
// rows' width, pitch and addresses share; rows too wide for its shared memory, one
// cudaMemcpy2DAsync; wide rows on 16 bytes, the wide kernel.
TEST(KernelChoice, RowsAPitchApartInTheResultsOrderTakeA2DCopy) {
  // uint8 rows of 100 bytes 102 apart: 2-byte units, wider than the values.
  KernelChoice c = choose({{1000, 100}, {102, 1}, 1}, h100(), 0, 0);
  EXPECT_EQ(c.path, TransposePath::BatchedSmall);
  EXPECT_TRUE(c.rows_apart);
  EXPECT_EQ(c.element_size, 2);
  EXPECT_EQ(c.chunk_bytes % 100, 0);
  EXPECT_EQ(kernel_name(c).rfind("batched_small<e=2, chunk=", 0), 0u);
  // 1000-byte rows 1003 apart: bytes; 4096-byte rows 4100 apart: 4-byte units.
  EXPECT_EQ(choose({{300, 1000}, {1003, 1}, 1}, h100(), 0, 0).element_size, 1);
  EXPECT_EQ(choose({{300, 4096}, {4100, 1}, 1}, h100(), 0, 0).element_size, 4);
  // Units no wider than the values, or short rows: ATen's strided copy. bfloat16 (226, 2771,
  // 1, 50) rows of 51 with dims 1 and 2 swapped; a float32 column slice; 50-byte rows.
  EXPECT_EQ(choose({{226, 2771, 1, 50}, {141321, 51, 51, 1}, 2}, h100(), 1, 2).path,
            TransposePath::AtenFallback);
  EXPECT_EQ(choose({{1000, 67}, {70, 1}, 4}, h100(), 0, 0).path, TransposePath::AtenFallback);
  EXPECT_EQ(choose({{1000, 50}, {51, 1}, 1}, h100(), 0, 0).path, TransposePath::AtenFallback);
  EXPECT_EQ(choose({{1000, 7}, {107, 1}, 1}, h100(), 0, 0).path, TransposePath::AtenFallback);
  // ... but never where a data pointer lies off its value: ATen's copy faults there.
  std::vector<int64_t> sizes{1000, 3}, strides{5, 1};
  const StridedLayout odd{2, sizes.data(), strides.data(), 2, 0x7f0000000001};
  c = choose_kernel(plan_transpose(odd, {0, 0, false}, 256), h100());
  EXPECT_EQ(c.path, TransposePath::BatchedSmall);
  EXPECT_EQ(c.element_size, 1);
  // uint8 rows of 40,000 bytes 40,001 apart, too wide for the kernel: one 2-D copy.
  c = choose({{300, 40000}, {40001, 1}, 1}, h100(), 0, 0);
  EXPECT_EQ(c.path, TransposePath::Memcpy);
  EXPECT_TRUE(c.pitched_rows);
  EXPECT_EQ(kernel_name(c), "memcpy2d");
  // 4096-byte rows 4112 apart lie on 16 bytes: the wide kernel.
  EXPECT_EQ(choose({{300, 1024}, {1028, 1}, 4}, h100(), 0, 0).path, TransposePath::WideElements);
  EXPECT_FALSE(choose({{64, 32}, {}, 4}, h100(), 0, 0).pitched_rows);  // x.t() of a (1, N)
}

TEST(LayoutPlan, ElementsAPartOfAnElementApartCountStridesInValues) {
  auto plan = [](std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t d0,
                 int64_t d1) { return plan_of(sizes, strides, 1, d0, d1); };
  // float8 (128, 512, 224, 14) rows padded to 30: 14-byte elements 30 bytes apart.
  TransposePlan p = plan({128, 512, 224, 14}, {3440640, 6720, 30, 1}, 1, 2);
  EXPECT_EQ(p.path, TransposePath::TiledUnits);
  EXPECT_EQ(p.element_size, 14);
  EXPECT_EQ(p.stride_unit, 1);
  EXPECT_EQ(p.cols, 224);
  EXPECT_EQ(p.col_stride, 30);
  EXPECT_EQ(p.rows, 512);
  EXPECT_EQ(p.row_stride, 6720);
  EXPECT_EQ(p.batch, 128);
  EXPECT_EQ(p.batch_stride, 3440640);
  EXPECT_EQ(p.out_row_stride, 512);
  // The unit: 2 bytes, the largest power of two that every stride and the element share.
  KernelChoice c = choose({{128, 512, 224, 14}, {3440640, 6720, 30, 1}, 1}, h100(), 1, 2);
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.unit_size, 2);
  // int32 (180492, 96, 2) rows of 19 values: 8-byte elements 76 bytes apart, 4-byte units.
  c = choose({{180492, 96, 2}, {1824, 19, 1}, 4}, h100(), 0, 1);
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.unit_size, 4);
  // Strided elements in tiles filled under half (4-element output rows) take ATen's copy.
  c = choose({{64, 64, 4}, {512, 8, 2}, 4}, h100(), 0, 1);
  EXPECT_EQ(c.path, TransposePath::AtenFallback);
  EXPECT_NE(std::string(c.fallback_reason).find("strided elements"), std::string::npos);
  // Strided elements wider than 682 bytes (more than the unit-tiled tile holds) are wide
  // elements, moved in realigned 16-byte granules (int8 at pitches of 702 and 701); without
  // them (wide_realigned 0), in the units they share: 2 bytes at a pitch of 702; in 1-byte
  // units of 1-byte values (a pitch of 701), ATen's copy, as wide, is faster.
  ChoiceOverrides units;
  units.wide_realigned = 0;
  for (int64_t pitch : {702, 701}) {
    KernelChoice wide = choose({{8, 64, 700}, {64 * pitch, pitch, 1}, 1}, h100(), 0, 1);
    EXPECT_EQ(wide.path, TransposePath::WideElements);
    EXPECT_TRUE(wide.realigned);
    EXPECT_EQ(kernel_name(wide),
            "wide_elements<unit=16, realigned, threads=256, granules=45, l2=normal>");
  }
  KernelChoice wide = choose({{8, 64, 700}, {64 * 702, 702, 1}, 1}, h100(), 0, 1, units);
  EXPECT_EQ(wide.path, TransposePath::WideElements);
  EXPECT_FALSE(wide.realigned);
  EXPECT_EQ(wide.unit_size, 2);
  wide = choose({{8, 64, 700}, {64 * 701, 701, 1}, 1}, h100(), 0, 1, units);
  EXPECT_EQ(wide.path, TransposePath::AtenFallback);
  EXPECT_NE(std::string(wide.fallback_reason).find("no wider than their values"), std::string::npos);
}

// The unit-tiled kernel, moving units of `unit` bytes.
void expect_units(const KernelChoice& c, int unit) {
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.unit_size, unit);
}

// Rows or batches a pitch apart that cuts an element (as_strided, a padded pitch that is no
// multiple of the element) count their strides in values: wide elements keep their kernel
// where every stride lies on its 16-byte units; elsewhere the elements move as units.
TEST(LayoutPlan, PitchesCuttingAnElementCountStridesInValues) {
  // complex128 (512, 224, 224) rows padded to 288: 3584-byte elements 4608 bytes apart.
  TransposePlan p = plan_of({512, 224, 224}, {64512, 288, 1}, 16, 0, 1);
  EXPECT_EQ(p.path, TransposePath::WideElements);
  EXPECT_EQ(p.element_size, 3584);
  EXPECT_EQ(p.stride_unit, 16);
  EXPECT_EQ(p.cols, 224);
  EXPECT_EQ(p.col_stride, 288);
  EXPECT_EQ(p.rows, 512);
  EXPECT_EQ(p.row_stride, 64512);
  EXPECT_EQ(choose({{512, 224, 224}, {64512, 288, 1}, 16}, h100(), 0, 1).path,
            TransposePath::WideElements);
  // int64 (256, 300, 14, 14) with 14 x 14 blocks of pitch 21: 112-byte elements 168 bytes
  // apart, off 16 bytes: 8-byte units.
  p = plan_of({256, 300, 14, 14}, {88200, 294, 21, 1}, 8, 0, 1);
  EXPECT_EQ(p.path, TransposePath::TiledUnits);
  EXPECT_EQ(p.stride_unit, 8);
  EXPECT_EQ(p.row_stride, 21);
  // 8-byte values in 8-byte units under such strides: ATen's strided copy, as wide, is faster
  // (the realigned kernel only by the override); int16 ones move as 8-byte units.
  EXPECT_EQ(choose({{256, 300, 14, 14}, {88200, 294, 21, 1}, 8}, h100(), 0, 1).path,
            TransposePath::AtenFallback);
  ChoiceOverrides realigned;
  realigned.wide_realigned = 1;
  EXPECT_TRUE(choose({{256, 300, 14, 14}, {88200, 294, 21, 1}, 8}, h100(), 0, 1, realigned).realigned);
  expect_units(choose({{256, 300, 14, 56}, {352800, 1176, 84, 1}, 2}, h100(), 0, 1), 8);
  // float32 rows 161 values apart holding 40 x 4 blocks: 16-byte elements, 4-byte units.
  expect_units(choose({{64, 40, 4}, {161, 4, 1}, 4}, h100(), 0, 1), 4);
}

// A data pointer off the element (a view at a byte offset, an out= buffer at one) moves the
// elements as units of what both pointers share, not through ATen's copy.
TEST(LayoutPlan, DataPointersOffTheElementMoveAsUnitsOfTheirAlignment) {
  auto choose_at = [](std::vector<int64_t> sizes, int64_t itemsize, uintptr_t offset,
                      int64_t out_alignment, const ChoiceOverrides& overrides = {}) {
    std::vector<int64_t> strides(sizes.size(), 1);
    for (size_t d = sizes.size() - 1; d-- > 0;) strides[d] = strides[d + 1] * sizes[d + 1];
    StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                    0x7f0000000000 + offset};
    return choose_kernel(plan_transpose(x, {0, 1, false}, out_alignment), h100(), overrides);
  };
  expect_units(choose_at({512, 512}, 2, 1, 256), 1);     // bfloat16 at an odd address
  expect_units(choose_at({512, 512}, 4, 0, 2), 2);       // float32 into an out= 2 bytes past 4
  expect_units(choose_at({256, 64, 32}, 4, 8, 256), 8);  // 128-byte elements 8 bytes past 16
  // Tiles a bfloat16 (3, 512) at an odd address barely fills: still the kernel (ATen's copy
  // faults on it).
  expect_units(choose_at({3, 512}, 2, 1, 256), 1);
  // Wider than the unit-tiled kernel's tile holds (682 bytes): the wide kernel in realigned
  // 16-byte granules, a thread each, read plainly.
  KernelChoice c = choose_at({64, 64, 512}, 2, 4, 256);  // bfloat16, 1024 bytes 4 past 16
  EXPECT_EQ(c.path, TransposePath::WideElements);
  EXPECT_TRUE(c.realigned);
  EXPECT_EQ(c.unit_size, 16);
  EXPECT_EQ(c.input_l2, InputL2::Normal);
  EXPECT_EQ(c.blocks, (64 * 64 * 65 + 255) / 256);
  EXPECT_EQ(kernel_name(c),
            "wide_elements<unit=16, realigned, threads=256, granules=65, l2=normal>");
  // Without them (wide_realigned 0), in the units the pointers share, one 2 KiB output run a
  // block.
  ChoiceOverrides units;
  units.wide_realigned = 0;
  c = choose_at({64, 64, 512}, 2, 4, 256, units);
  EXPECT_EQ(c.path, TransposePath::WideElements);
  EXPECT_FALSE(c.realigned);
  EXPECT_EQ(c.unit_size, 4);
  EXPECT_EQ(c.tile_rows * c.tile_cols * c.unit_size, 2048);
  EXPECT_EQ(c.input_l2, InputL2::Normal);
  EXPECT_EQ(kernel_name(c), "wide_elements<unit=4, threads=256, units=512, l2=normal>");
  // 700-byte bfloat16 elements, a size of no multiple of 16: realigned; without, 4-byte
  // units, and float32 ones (units as wide as the values) ATen's copy.
  EXPECT_TRUE(choose_at({64, 64, 350}, 2, 0, 256).realigned);
  EXPECT_TRUE(choose_at({64, 64, 175}, 4, 0, 256).realigned);
  EXPECT_EQ(choose_at({64, 64, 350}, 2, 0, 256, units).unit_size, 4);
  EXPECT_EQ(choose_at({64, 64, 350}, 2, 0, 256, units).path, TransposePath::WideElements);
  EXPECT_EQ(choose_at({64, 64, 175}, 4, 0, 256, units).path, TransposePath::AtenFallback);
}

// The permute of a layout at `offset` values from a 256-byte aligned address.
KernelChoice choose_permute(std::vector<int64_t> sizes, std::vector<int64_t> strides,
                            int64_t itemsize, int64_t offset, std::vector<int64_t> order,
                            const ChoiceOverrides& overrides = {}) {
  StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                  static_cast<uintptr_t>(0x7f0000000000 + offset * itemsize)};
  return choose_kernel(plan_permute(x, order.data()), h100(), overrides);
}

// Tiles of 2-byte or wider elements filled under a quarter, on an input the L2 holds, run the
// framework's strided copy where the input's rows lie at most 256 bytes apart in the output,
// or 8 KiB under word stores (H100, same process: 0.42-0.95x the tiled kernel's time in all
// 18 such cases); rows megabytes apart, inputs past the L2, 1-byte elements and the override
// keep the tiles.
TEST(KernelChoice, SparseTilesOnInputsTheL2HoldsTakeTheFrameworksCopyWhereRowsLieClose) {
  const char* from_l2 = "tiles filled under a quarter whose input fits the L2";
  auto framework = [&](const KernelChoice& c) {
    return c.path == TransposePath::AtenFallback && c.fallback_reason != nullptr &&
           std::string(c.fallback_reason).rfind(from_l2, 0) == 0;
  };
  // bfloat16 44 matrices of 13 x 2810 from a transposed view, 3 MB: output rows of 26 bytes.
  const std::vector<int64_t> view = {401830, 36530, 2810, 2810, 1};
  const KernelChoice rows13 = choose_permute({4, 11, 1, 13, 2810}, view, 2, 0, {0, 1, 2, 4, 3});
  EXPECT_TRUE(framework(rows13)) << kernel_name(rows13);
  // float64 (1, 29, 7290, 2, 15) to [3, 0, 2, 4, 1], 48 MB: input rows 232 bytes apart.
  const KernelChoice doubles = choose_permute({1, 29, 7290, 2, 15}, {6342300, 218700, 30, 15, 1},
                                              8, 0, {3, 0, 2, 4, 1});
  EXPECT_TRUE(framework(doubles)) << kernel_name(doubles);
  // 16-byte stores 48 bytes apart (int16 (106, 13, 3, 24, 109) sliced, dims 3, 4, 20 MB).
  const KernelChoice aligned = choose_permute({106, 13, 3, 24, 109}, {117000, 9000, 3000, 125, 1},
                                              2, 0, {0, 1, 2, 4, 3});
  EXPECT_TRUE(framework(aligned)) << kernel_name(aligned);
  EXPECT_EQ(aligned.store, Access::Aligned16);
  // Word stores 680 bytes apart (float64 (17, 5, 1, 49460) to [3, 1, 0, 2], 32 MB).
  const KernelChoice words = choose_permute({17, 5, 1, 49460}, {247300, 49460, 49460, 1}, 8, 0,
                                            {3, 1, 0, 2});
  EXPECT_TRUE(framework(words)) << kernel_name(words);
  // Rows megabytes apart keep the tiles: int32 (22, 3, 5250, 29) to [3, 2, 0, 1], 38 MB, and
  // complex64 284778 x 17, 36 MB.
  const KernelChoice far = choose_permute({22, 3, 5250, 29}, {456750, 152250, 29, 1}, 4, 0,
                                          {3, 2, 0, 1});
  EXPECT_EQ(far.path, TransposePath::TiledRowStrided) << kernel_name(far);
  EXPECT_EQ(choose_permute({284778, 17}, {17, 1}, 8, 0, {1, 0}).path,
            TransposePath::TiledContiguous);
  // Past the L2 (the 13-row matrices 20 times longer, 64 MB; a row slice below), 1-byte
  // elements (uint8 (35, 487, 326) to [1, 2, 0]) and the override keep them too.
  const KernelChoice past = choose_permute({4, 11, 1, 13, 56200}, {8036600, 730600, 56200, 56200, 1},
                                           2, 0, {0, 1, 2, 4, 3});
  EXPECT_FALSE(framework(past)) << kernel_name(past);
  // float16 (32, 32, 57892) sliced, dims 1, 2, 113 MB: tiles a quarter full, rows 64 bytes apart
  // (the tiled kernel 0.88x ATen's time).
  const KernelChoice sliced = choose_permute({32, 32, 57892}, {1854592, 57956, 1}, 2, 0, {0, 2, 1});
  EXPECT_LT(sliced.tile_utilization, 0.25);
  EXPECT_EQ(sliced.path, TransposePath::TiledRowStrided) << kernel_name(sliced);
  const KernelChoice bytes = choose_permute({35, 487, 326}, {158762, 326, 1}, 1, 0, {1, 2, 0});
  EXPECT_FALSE(framework(bytes)) << kernel_name(bytes);
  ChoiceOverrides tiles;
  tiles.fallback = 0;
  EXPECT_EQ(choose_permute({4, 11, 1, 13, 2810}, view, 2, 0, {0, 1, 2, 4, 3}, tiles).path,
            TransposePath::TiledContiguous);
}

// Folded tiles of 16-byte values run the framework's strided copy where it reads both values
// of each sector close together: the input's rows 64 KiB of output apart or less, or input
// and output that fit the L2 together (H100, same process: 0.66-0.96x the folded tiles'
// time). Folded tiles whose input rows lie megabytes apart elsewhere stay (ATen 1.5-2.7x),
// as do folded tiles of 8-byte values and the nd tiles, which do not replace the fallback.
TEST(KernelChoice, FoldedSixteenByteValuesTakeTheFrameworksCopyWhereItReadsWholeSectors) {
  const char* whole_sectors = "16-byte values in tiles of several small matrices";
  // complex128 (2298, 8, 8, 7, 7) with its last two dims a transposed view, dims 1, 2: 109 MB,
  // input rows 784 bytes of output apart.
  const KernelChoice viewed = choose_permute({2298, 8, 8, 7, 7}, {3136, 1, 56, 8, 448}, 16, 0,
                                             {0, 2, 1, 3, 4});
  EXPECT_EQ(viewed.path, TransposePath::AtenFallback) << kernel_name(viewed);
  ASSERT_NE(viewed.fallback_reason, nullptr);
  EXPECT_EQ(std::string(viewed.fallback_reason).rfind(whole_sectors, 0), 0u);
  // (10, 4, 403, 75, 3) to [1, 2, 4, 3, 0]: 58 MB, rows 12000 bytes apart; the nd tiles
  // would take it by their own rule and do not.
  const KernelChoice close = choose_permute({10, 4, 403, 75, 3}, {362700, 90675, 225, 3, 1},
                                            16, 0, {1, 2, 4, 3, 0});
  EXPECT_EQ(close.path, TransposePath::AtenFallback) << kernel_name(close);
  // Under the L2 at any distance: (5, 5, 4, 3, 23, 19) to [4, 2, 0, 5, 1, 3], 2 MB, rows 240
  // bytes apart; (3, 20, 2400, 4) to [3, 1, 2, 0], 9 MB, rows 2.3 MB apart.
  const KernelChoice small = choose_permute({5, 5, 4, 3, 23, 19}, {26220, 5244, 1311, 437, 19, 1},
                                            16, 0, {4, 2, 0, 5, 1, 3});
  EXPECT_EQ(small.path, TransposePath::AtenFallback) << kernel_name(small);
  const KernelChoice apart = choose_permute({3, 20, 2400, 4}, {192000, 9600, 4, 1}, 16, 0,
                                            {3, 1, 2, 0});
  EXPECT_EQ(apart.path, TransposePath::AtenFallback) << kernel_name(apart);
  // An input under the L2 that does not fit it with its result, rows 8.7 MB apart: (5, 4,
  // 27281, 6) to [3, 2, 0, 1], 52 MB (ATen 1.72x the folded tiles' time): folded tiles.
  const KernelChoice most = choose_permute({5, 4, 27281, 6}, {654744, 163686, 6, 1}, 16, 0,
                                           {3, 2, 0, 1});
  EXPECT_EQ(most.tiling, Tiling::Folded) << kernel_name(most);
  EXPECT_NE(most.path, TransposePath::AtenFallback);
  // Past the L2 with rows 14.7 MB apart, (3, 4, 76540, 4) to [3, 0, 2, 1]: folded tiles.
  const KernelChoice far = choose_permute({3, 4, 76540, 4}, {1224640, 306160, 4, 1}, 16, 0,
                                          {3, 0, 2, 1});
  EXPECT_EQ(far.tiling, Tiling::Folded) << kernel_name(far);
  EXPECT_NE(far.path, TransposePath::AtenFallback);
  // 8-byte values in 16-byte elements (complex64 pairs), 1 MB: folded tiles.
  const KernelChoice pairs = choose_permute({1305, 3, 8, 3, 1, 2}, {144, 48, 6, 2, 2, 1}, 8, 0,
                                            {0, 3, 2, 4, 1, 5});
  EXPECT_EQ(pairs.tiling, Tiling::Folded) << kernel_name(pairs);
  EXPECT_NE(pairs.path, TransposePath::AtenFallback);
  // The override keeps the tiles.
  ChoiceOverrides tiles;
  tiles.fallback = 0;
  EXPECT_EQ(choose_permute({2298, 8, 8, 7, 7}, {3136, 1, 56, 8, 448}, 16, 0, {0, 2, 1, 3, 4},
                           tiles).tiling, Tiling::Folded);
}

// Wide elements off 16 bytes (over 682 bytes: a storage offset, an odd size, a pitch that
// cuts them) move in realigned 16-byte granules by the rule, in place of ATen's copy (units
// no wider than the values: H100 3.68x, 2.91x, 1.29x and 1.15x a copy) and of 2-byte units
// (1.97x); the override 0 restores those choices, 1 takes 16-byte units' plans too.
TEST(KernelChoice, WideElementsOffSixteenBytesTakeRealignedGranules) {
  struct Case {
    const char* what;
    KernelChoice rule, old;
  };
  ChoiceOverrides old;
  old.wide_realigned = 0;
  auto both = [&](const char* what, auto choose_with) {
    return Case{what, choose_with(ChoiceOverrides{}), choose_with(old)};
  };
  const Case cases[] = {
      both("float8 (2, 3705, 2, 26909) a permuted view, permuted [2, 1, 0, 3]",
           [](const ChoiceOverrides& o) {
             return choose_permute({2, 3705, 2, 26909}, {99697845, 26909, 199395690, 1}, 1, 0,
                                   {2, 1, 0, 3}, o);
           }),
      both("int8 (2, 1, 22131, 1195) permuted [1, 2, 0, 3]",
           [](const ChoiceOverrides& o) {
             return choose_permute({2, 1, 22131, 1195}, {26446545, 26446545, 1195, 1}, 1, 0,
                                   {1, 2, 0, 3}, o);
           }),
      both("float32 (2432, 4, 4, 56, 56) at +1 transpose(1, 2)",
           [](const ChoiceOverrides& o) {
             return choose({{2432, 4, 4, 56, 56}, {}, 4, 1}, h100(), 1, 2, o);
           }),
      both("float32 (38, 3, 255, 255) transpose(1, 2)",
           [](const ChoiceOverrides& o) {
             return choose({{38, 3, 255, 255}, {}, 4}, h100(), 1, 2, o);
           }),
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.rule.path, TransposePath::WideElements) << c.what;
    EXPECT_TRUE(c.rule.realigned) << c.what;
    EXPECT_EQ(c.rule.unsupported, nullptr) << c.what;
    EXPECT_EQ(kernel_name(c.rule).rfind("wide_elements<unit=16, realigned, threads=256,", 0), 0)
        << kernel_name(c.rule);
    EXPECT_EQ(c.old.path, TransposePath::AtenFallback) << c.what;
    EXPECT_NE(std::string(c.old.fallback_reason).find("no wider than their values"),
              std::string::npos);
  }
  // bool (285, 1, 4, 47998, 1, 2) at +10 permuted [2, 1, 0, 3, 5, 4]: 95996-byte elements
  // off 16 bytes; without the rule, the wide kernel's 2-byte units.
  const std::vector<int64_t> sizes{285, 1, 4, 47998, 1, 2};
  const std::vector<int64_t> strides{383984, 383984, 95996, 2, 2, 1};
  const std::vector<int64_t> order{2, 1, 0, 3, 5, 4};
  const KernelChoice rule = choose_permute(sizes, strides, 1, 10, order);
  EXPECT_TRUE(rule.realigned);
  EXPECT_EQ(kernel_name(rule),
            "wide_elements<unit=16, realigned, threads=256, granules=6001, l2=normal>");
  const KernelChoice units = choose_permute(sizes, strides, 1, 10, order, old);
  EXPECT_EQ(units.path, TransposePath::WideElements);
  EXPECT_FALSE(units.realigned);
  EXPECT_EQ(units.unit_size, 2);
  // Elements on 16 bytes keep the wide kernel's 16-byte units by the rule; the override 1
  // realigns them too (nothing to shift).
  EXPECT_FALSE(choose({{8, 64, 64, 256}, {}, 4}, h100(), 1, 2).realigned);
  ChoiceOverrides always;
  always.wide_realigned = 1;
  EXPECT_TRUE(choose({{8, 64, 64, 256}, {}, 4}, h100(), 1, 2, always).realigned);
  // Past 2^31 granules (32 GiB of elements a launch), the wide kernel's units stay.
  const KernelChoice huge = choose({{2, 65536, 4096, 1022}, {}, 1, 2}, h100(), 1, 2);
  EXPECT_EQ(huge.path, TransposePath::WideElements);
  EXPECT_FALSE(huge.realigned);
  EXPECT_EQ(huge.unit_size, 2);
  // Elements of 2^31 bytes or more (the kernel's element size is 32-bit) keep the old choice
  // too, however few granules the launch has (4 elements of 2 GiB and 5 bytes).
  const KernelChoice long_elements = choose({{2, 2, (int64_t{1} << 31) + 5}, {}, 1}, h100(), 0, 1);
  EXPECT_FALSE(long_elements.realigned);
  EXPECT_TRUE(choose({{2, 2, (int64_t{1} << 31) - 5}, {}, 1}, h100(), 0, 1).realigned);
}

TEST(KernelChoice, OddElementsMoveAsUnitsOfTheirLargestPowerOfTwo) {
  KernelChoice c = choose({{64, 64, 3}, {}, 1}, h100(), 0, 1);
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.unit_size, 1);
  EXPECT_EQ(c.tile_rows, 32);
  c = choose({{64, 64, 3}, {}, 4}, h100(), 0, 1);  // 12 bytes: 3 units of 4
  EXPECT_EQ(c.unit_size, 4);
  // A view at a storage offset: units as small as the data pointer's alignment.
  c = choose({{64, 64, 6}, {}, 1, 1}, h100(), 0, 1);
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.unit_size, 1);
  c = choose({{64, 64, 6}, {}, 2, 1}, h100(), 0, 1);  // 12 bytes at 2 bytes past 256
  EXPECT_EQ(c.unit_size, 2);
  c = choose({{64, 64, 3}, {}, 4}, h100(), 0, 1);
  EXPECT_EQ(c.unit_size, 4);
  EXPECT_EQ(c.shared_bytes, 32 * 33 * 12);
  // Wide elements off 16 bytes move as units too: 32-byte elements 8 bytes past 256.
  c = choose({{64, 64, 4}, {}, 8, 1}, h100(), 0, 1);
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.unit_size, 8);
  EXPECT_EQ(choose({{64, 64, 4}, {}, 8}, h100(), 0, 1).path, TransposePath::WideElements);
  c = choose({{64, 64, 75}, {}, 8}, h100(), 0, 1);  // 600 bytes: 8 x 8 tiles
  EXPECT_EQ(c.unit_size, 8);
  EXPECT_EQ(c.tile_rows, 8);
  EXPECT_LE(c.shared_bytes, 48 * 1024);
}

// Units of 1 and 2 bytes move as 4-byte words through shared-memory rows E bytes apart mod
// 128 (a warp's gather of output words then meets 32 distinct banks), within 48 KiB: square
// tiles halve where such rows would outgrow it (46-byte elements). 1- and 2-byte strided
// elements in 1-byte units move a unit a lane (a word would span more than two elements).
TEST(KernelChoice, OneAndTwoByteUnitsMoveAsWords) {
  KernelChoice c = choose({{64, 64, 3}, {}, 1}, h100(), 0, 1);
  EXPECT_TRUE(c.unit_words);
  EXPECT_EQ(c.tile_rows, 32);
  EXPECT_EQ(c.unit_pitch, 131);  // 96 bytes, and 3 mod 128
  EXPECT_EQ(c.shared_bytes, 32 * 131 + 4);
  EXPECT_EQ(kernel_name(c), "tiled_units<unit=1, units=3, tile=32x32, access=words>");
  c = choose({{64, 64, 6}, {}, 2, 1}, h100(), 0, 1);  // 12 bytes at 2 bytes past 256
  EXPECT_EQ(c.unit_size, 2);
  EXPECT_TRUE(c.unit_words);
  EXPECT_EQ(c.unit_pitch % 128, 12);
  c = choose({{64, 64, 3}, {}, 4}, h100(), 0, 1);  // 4-byte units: a unit a lane
  EXPECT_FALSE(c.unit_words);
  EXPECT_EQ(kernel_name(c), "tiled_units<unit=4, units=3, tile=32x32, access=units>");
  EXPECT_EQ(c.shared_bytes, 32 * 33 * 12);
  ChoiceOverrides square;
  square.unit_tile_bytes = 0;
  square.element_runs = 0;  // elements of 64 bytes and more would take the element-runs kernel
  c = choose_kernel(plan_of({64, 64, 46}, {64 * 46, 46, 1}, 1, 0, 1), h100(), square);
  EXPECT_TRUE(c.unit_words);
  EXPECT_EQ(c.tile_rows, 16);
  EXPECT_EQ(c.unit_pitch % 128, 46);
  // fp8 pairs 3 bytes apart: 2-byte strided elements in 1-byte units.
  c = choose_kernel(plan_of({64, 64, 2}, {192, 3, 1}, 1, 0, 1), h100());
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.unit_size, 1);
  EXPECT_FALSE(c.unit_words);
  // Every element size the kernel takes (no power of two up to 16 bytes), at an odd address
  // (1-byte units) and 2 bytes past 256, in square tiles as large as fit.
  for (int64_t e = 3; e <= kMaxUnitElementBytes; ++e) {
    if (e == 4 || e == 8 || e == 16) continue;
    for (int64_t offset : {1, 2}) {
      if (offset == 2 && e % 2 != 0) continue;
      std::vector<int64_t> sizes{40, 40, e}, strides{40 * e, e, 1};
      StridedLayout x{3, sizes.data(), strides.data(), 1, static_cast<uintptr_t>(0x7f0000000000 + offset)};
      c = choose_kernel(plan_transpose(x, {0, 1, false}), h100(), square);
      ASSERT_EQ(c.path, TransposePath::TiledUnits) << e;
      EXPECT_LE(c.shared_bytes, 48 * 1024) << e;
      EXPECT_EQ(c.unit_size, offset) << e;
      EXPECT_TRUE(c.unit_words) << e;
      EXPECT_EQ(c.unit_pitch % 128, e % 128) << e;
      EXPECT_GE(c.unit_pitch, c.tile_rows * e) << e;
      EXPECT_EQ(c.tile_rows, c.tile_cols) << e;
      const int64_t larger = 2 * c.tile_rows;
      const int64_t larger_pitch = larger * e + ((e - larger * e) % 128 + 128) % 128;
      EXPECT_TRUE(c.tile_rows == 32 || larger * larger_pitch + 4 > 48 * 1024) << e;
      EXPECT_EQ(c.tile_rows, e <= 45 ? 32 : e <= 187 ? 16 : e >= 196 ? 8 : c.tile_rows) << e;
    }
  }
}

// Elements of odd sizes that lie back to back: tiles of about 16 KiB where the matrix has
// them (a short side whole, long sides up to 128 and evened out), no larger than keeps 4
// blocks an SM; other elements square tiles of up to 32 cut to the matrix. Where the matrix
// allows only tiles under 1.5 KiB, or output rows under 64 bytes a tile, ATen's copy (never
// for a pointer off its value). Strided elements: square tiles.
TEST(KernelChoice, OddElementsTakeTilesOfAbout16KiB) {
  auto dense = [](std::vector<int64_t> sizes, int64_t itemsize, int64_t d0, int64_t d1) {
    std::vector<int64_t> strides(sizes.size(), 1);
    for (size_t d = sizes.size() - 1; d > 0; --d) strides[d - 1] = strides[d] * sizes[d];
    return plan_of(sizes, strides, itemsize, d0, d1);
  };
  auto tile_bytes = [](const KernelChoice& c) {
    return int64_t{c.tile_rows} * c.tile_cols * c.element_size;
  };
  // uint8 8 x 195 x 4096 x 3, dims 1 and 2: 3-byte elements, a 195 x 4096 matrix.
  KernelChoice c = choose_kernel(dense({8, 195, 4096, 3}, 1, 1, 2), h100());
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_GE(tile_bytes(c), 16384);
  EXPECT_LE(c.shared_bytes, 48 * 1024);
  EXPECT_LE(std::max(c.tile_rows, c.tile_cols), 128);
  EXPECT_EQ(c.tile_rows, 98);  // 195 rows: two tiles of 98
  EXPECT_EQ(kernel_name(c), "tiled_units<unit=1, units=3, tile=98x64, access=words>");
  // A short side whole: 24 x 1002621 elements of 3 bytes, every tile full.
  c = choose_kernel(dense({8, 24, 1002621, 3}, 1, 1, 2), h100());
  EXPECT_EQ(c.tile_rows, 24);
  EXPECT_EQ(c.tile_cols, 128);
  EXPECT_NEAR(c.tile_utilization, 1.0, 1e-3);
  // Tiles grow only while 4 blocks an SM are left: bfloat16 4 x 124 x 415 x 3 (1 MiB, 208
  // tiles of 32 x 32) stays in those; 16 times as many matrices take larger ones.
  c = choose_kernel(dense({4, 124, 415, 3}, 2, 1, 2), h100());
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_LE(std::max(c.tile_rows, c.tile_cols), 32);
  c = choose_kernel(dense({64, 124, 415, 3}, 2, 1, 2), h100());
  EXPECT_GE(c.blocks, 4 * 132);
  EXPECT_GT(std::max(c.tile_rows, c.tile_cols), 32);
  // Both sides short: float32 206016 x 3 x 7 x 7 (3 x 7 tiles of 28-byte elements).
  c = choose_kernel(dense({206016, 3, 7, 7}, 4, 1, 2), h100());
  ASSERT_EQ(c.path, TransposePath::AtenFallback);
  ASSERT_NE(c.fallback_reason, nullptr);
  EXPECT_NE(std::string(c.fallback_reason).find("under 1.5 KiB"), std::string::npos);
  // Output rows of 48 bytes a tile: float16 8 x 2481247 x 3, dims 0 and 1.
  EXPECT_EQ(choose_kernel(dense({8, 2481247, 3}, 2, 0, 1), h100()).path,
            TransposePath::AtenFallback);
  // ... but the kernel where ATen's copy would fault: the same at an odd address.
  std::vector<int64_t> sizes{8, 2481247, 3}, strides{2481247 * 3, 3, 1};
  StridedLayout odd{3, sizes.data(), strides.data(), 2, 0x7f0000000001};
  EXPECT_EQ(choose_kernel(plan_transpose(odd, {0, 1, false}), h100()).path,
            TransposePath::TiledUnits);
  // The kernel on request (fallback 0), in the rule's tiles.
  ChoiceOverrides kernels_always;
  kernels_always.fallback = 0;
  c = choose_kernel(dense({206016, 3, 7, 7}, 4, 1, 2), h100(), kernels_always);
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.tile_rows, 3);
  EXPECT_EQ(c.tile_cols, 7);
  // Strided elements (a sliced last dim): square tiles of 32.
  c = choose_kernel(plan_of({8, 195, 4096, 3}, {195 * 4096 * 4, 4096 * 4, 4, 1}, 1, 1, 2), h100());
  EXPECT_EQ(c.path, TransposePath::TiledUnits);
  EXPECT_EQ(c.tile_rows, 32);
  EXPECT_EQ(c.tile_cols, 32);
  // Square tiles on request (unit_tile_bytes 0).
  ChoiceOverrides square;
  square.unit_tile_bytes = 0;
  c = choose_kernel(dense({8, 195, 4096, 3}, 1, 1, 2), h100(), square);
  EXPECT_EQ(c.tile_rows, 32);
  EXPECT_EQ(c.tile_cols, 32);
}

TEST(KernelChoice, LayoutsTheKernelsDoNotTakeFallBack) {
  EXPECT_EQ(choose({{64, 64}, {1, 64}, 4}, h100()).path, TransposePath::Memcpy);
  EXPECT_EQ(choose({{64, 32}, {0, 1}, 4}, h100()).path, TransposePath::AtenFallback);  // expanded
  EXPECT_EQ(kernel_name(choose({{64, 32}, {0, 1}, 4}, h100())), "");
  // A column step is strided elements: the unit-tiled kernel.
  EXPECT_EQ(choose({{64, 32}, {64, 2}, 4}, h100()).path, TransposePath::TiledUnits);
}

TEST(KernelChoice, OverridesChangeOnlyTheWalk) {
  Input x{{1000, 700}, {}, 4};
  const int64_t ndim = 2;
  std::vector<int64_t> strides{700, 1};
  StridedLayout layout{ndim, x.sizes.data(), strides.data(), 4, 0x7f0000000000};
  const TransposePlan plan = plan_transpose(layout, {0, 1, false});
  ChoiceOverrides overrides;
  overrides.tile_group_rows = 3;
  overrides.interleave = 1;
  const KernelChoice base = choose_kernel(plan, h100());
  const KernelChoice tuned = choose_kernel(plan, h100(), overrides);
  EXPECT_EQ(tuned.group_rows, 3);
  EXPECT_TRUE(tuned.interleave);
  EXPECT_EQ(kernel_name(tuned), kernel_name(base));
  EXPECT_EQ(tuned.blocks, base.blocks);
}

// 1- and 2-byte elements in matrices that fill the tiled kernel's tiles under about a fifth,
// whose rows start anywhere or which would run as ATen's copy, take the unit-tiled kernel as
// elements of one unit, in tiles of up to 128 a side; output rows under 64 bytes, sides of
// 2-16, rows on 16 bytes and matrices wide enough keep their kernels.
TEST(KernelChoice, NarrowOneAndTwoByteMatricesTakeOneUnitTiles) {
  const KernelChoice bytes = choose({{1997501, 32}, {}, 1}, h100(), 0, 1);
  EXPECT_EQ(bytes.path, TransposePath::TiledUnits);
  EXPECT_EQ(kernel_name(bytes), "tiled_units<unit=1, units=1, tile=128x32, access=words>");
  EXPECT_EQ(choose({{32, 161670, 32}, {}, 1}, h100(), 1, 2).path, TransposePath::TiledUnits);
  const KernelChoice halves = choose({{190102, 27}, {}, 2}, h100(), 0, 1);
  EXPECT_EQ(halves.path, TransposePath::TiledUnits);
  EXPECT_EQ(halves.unit_size, 2);
  EXPECT_TRUE(halves.unit_words);
  // Output rows of 35 bytes: a warp an output row, most lanes idle.
  EXPECT_NE(choose({{35, 321823}, {}, 1}, h100(), 0, 1).path, TransposePath::TiledUnits);
  EXPECT_EQ(choose({{64, 524288}, {}, 1}, h100(), 0, 1).path, TransposePath::TiledContiguous);
  // Rows on 16 bytes keep the tiled kernel where it fills a tenth of its tiles or more.
  const KernelChoice aligned = choose({{65536, 24}, {}, 2}, h100(), 0, 1);
  EXPECT_EQ(aligned.path, TransposePath::TiledContiguous);
  EXPECT_LT(aligned.tile_utilization, 0.22);
  EXPECT_EQ(choose({{1000000, 16}, {}, 1}, h100(), 0, 1).path, TransposePath::SmallDim);
  ChoiceOverrides never;
  never.one_unit_tiles = 0;
  EXPECT_NE(choose({{1997501, 32}, {}, 1}, h100(), 0, 1, never).path, TransposePath::TiledUnits);
}

TEST(KernelChoice, SixteenByteMatricesWithAShortSideTakeTheWideElementKernel) {
  const KernelChoice side = choose({{16, 16, 5888}, {}, 16}, h100(), 1, 2);
  EXPECT_EQ(side.path, TransposePath::WideElements);
  EXPECT_EQ(kernel_name(side), "wide_elements<unit=16, threads=256, units=512, l2=normal>");
  EXPECT_EQ(side.wide_rows_log2, 5);
  // Four float32 values that keep their order are one 16-byte element.
  EXPECT_EQ(choose({{8, 14, 47846, 4}, {}, 4}, h100(), 1, 2).path, TransposePath::WideElements);
  // Its own tiles half filled (output rows of 8 elements) are enough.
  EXPECT_EQ(choose({{8, 2812592}, {}, 16}, h100(), 0, 1).path, TransposePath::WideElements);
  // Full tiles, and tiles a third filled or more, keep the tiled kernel; so do output rows of a few
  // elements (the wide kernel's lanes idle) and pointers off 16 bytes (its 16-byte units).
  EXPECT_EQ(choose({{27766, 10}, {}, 16}, h100(), 0, 1).path, TransposePath::TiledContiguous);
  EXPECT_EQ(choose({{1000, 1666}, {}, 16}, h100(), 0, 1).path, TransposePath::TiledContiguous);
  EXPECT_NE(choose({{3, 3808111}, {}, 16}, h100(), 0, 1).path, TransposePath::WideElements);
  // Under a tenth filled, the batched-small kernel or ATen's copy keeps them (unmeasured
  // against the wide kernel there); so does the override for ATen's copy.
  EXPECT_NE(choose({{57, 98, 4, 2}, {784, 8, 1, 4}, 16}, h100(), 1, 2).path,
            TransposePath::WideElements);
  EXPECT_EQ(choose({{190, 89, 2}, {}, 16}, h100(), 1, 2).path, TransposePath::BatchedSmall);
  ChoiceOverrides aten;
  aten.fallback = 1;
  EXPECT_EQ(choose({{16, 16, 5888}, {}, 16}, h100(), 1, 2, aten).path,
            TransposePath::AtenFallback);
  EXPECT_NE(choose({{16, 16, 5888, 4}, {}, 4, 1}, h100(), 1, 2).path,
            TransposePath::WideElements);
  ChoiceOverrides never;
  never.wide_16 = 0;
  EXPECT_EQ(choose({{16, 16, 5888}, {}, 16}, h100(), 1, 2, never).path,
            TransposePath::TiledContiguous);
  ChoiceOverrides always;
  always.wide_16 = 1;
  EXPECT_EQ(choose({{1000, 1666}, {}, 16}, h100(), 0, 1, always).path,
            TransposePath::WideElements);
}

}  // namespace
}  // namespace gputranspose
