// The tiles over several dims on each side (core/nd_tiles.h) and their kernel
// (cuda/nd_tile_transpose.cuh) run on the host as the kernel does: every block's setup (its
// group of tiles), its load phase by all 256 threads, then its store phase, 2-D or flattened
// (short sides, groups of small tiles). Over random permutations of ranks 2-16 (reversals of
// all-2 and all-3 dims, 3-D reversals with a short side, any permutation of short dims),
// elements of 1-16 bytes (kept trailing dims among them), contiguous inputs, permuted views,
// row slices and storage offsets, the result equals x.permute(order).contiguous() byte for
// byte, computed from x's own strides, and no byte outside the output is written; and the
// kernel choice takes them where ATen's copy would run. No GPU.
#include <cuda_runtime.h>  // uint2, uint4

#include "core/cuda/nd_tile_transpose.cuh"
#include "core/kernel_choice.h"
#include "core/nd_tiles.h"
#include "h100_facts.h"
#include "host_buffers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace gputranspose {
namespace {

// A block's shared memory, its exact size (so that AddressSanitizer sees a byte past it),
// 16-byte aligned as the kernel's.
struct SharedMemory {
  explicit SharedMemory(int64_t bytes)
      : bytes(bytes), data(static_cast<char*>(::operator new(bytes, std::align_val_t{16}))) {}
  ~SharedMemory() { ::operator delete(data, std::align_val_t{16}); }
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;
  int64_t bytes;
  char* data;
};

// As nd_tile_transpose_kernel, block by block: a tile a block through the 2-D phases where
// neither runs flattened, else the group's setup, every thread's loads, every thread's stores.
template <typename T>
void run_tiles(const NdTilePlan& plan, int64_t tiles_per_block, const char* in, char* out) {
  const cuda::NdTileParams p = cuda::nd_tile_params(plan, tiles_per_block, in, out);
  const NdGroupLayout layout = nd_group_layout(plan, tiles_per_block);
  SharedMemory shared(layout.shared_bytes);
  T* tile = reinterpret_cast<T*>(shared.data);
  const int64_t blocks = (plan.tiles + tiles_per_block - 1) / tiles_per_block;
  for (int64_t block = 0; block < blocks; ++block) {
    std::memset(shared.data, 0x5A, shared.bytes);
    if (!p.load_flat && !p.store_flat) {
      const cuda::NdTile t = cuda::nd_tile(p, static_cast<uint32_t>(block));
      ASSERT_GE(t.in_here, 1);
      ASSERT_GE(t.out_here, 1);
      for (int thread = 0; thread < cuda::kNdTileThreads; ++thread) {
        cuda::nd_tile_load<T>(p, t, tile, thread / 32, thread % 32);
      }
      for (int thread = 0; thread < cuda::kNdTileThreads; ++thread) {
        cuda::nd_tile_store<T>(p, t, tile, thread / 32, thread % 32);
      }
      continue;
    }
    const cuda::NdGroup s = cuda::nd_group(p, shared.data, static_cast<uint32_t>(block));
    ASSERT_GE(s.count, 1u);
    ASSERT_LE(s.count, static_cast<uint32_t>(tiles_per_block));
    for (int thread = 0; thread < cuda::kNdTileThreads; ++thread) {
      cuda::nd_group_setup(p, s, thread);
    }
    for (uint32_t g = 0; g < s.count; ++g) {
      ASSERT_GE(s.load_spans[g].in_here, 1);
      ASSERT_GE(s.load_spans[g].out_here, 1);
    }
    for (int thread = 0; thread < cuda::kNdTileThreads; ++thread) {
      cuda::nd_group_load<T>(p, s, thread);
    }
    for (int thread = 0; thread < cuda::kNdTileThreads; ++thread) {
      cuda::nd_group_store<T>(p, s, thread);
    }
  }
}

void run_plan(const NdTilePlan& plan, int64_t tiles_per_block, const char* in, char* out) {
  switch (plan.element_size) {
    case 1:
      return run_tiles<uint8_t>(plan, tiles_per_block, in, out);
    case 2:
      return run_tiles<uint16_t>(plan, tiles_per_block, in, out);
    case 4:
      return run_tiles<uint32_t>(plan, tiles_per_block, in, out);
    case 8:
      return run_tiles<uint2>(plan, tiles_per_block, in, out);
    case 16:
      return run_tiles<uint4>(plan, tiles_per_block, in, out);
  }
  FAIL() << "element of " << plan.element_size << " bytes";
}

struct Counts {
  int cases = 0, several_in = 0, several_out = 0, chunked = 0, batched = 0;
  // The kernel's modes: both phases 2-D; only the load or only the store flattened (a
  // tile a block); both flattened, a tile a block or a group; flattened partial tiles.
  int two_d = 0, flat_load = 0, flat_store = 0, flat_both = 0, grouped = 0, flat_partial = 0;
};

// Plans and runs x.permute(order) where the tiles apply, at the plan's tiles a block (or
// `tiles_per_block` where it is lower); checks the bytes.
void check(std::mt19937_64& rng, const std::vector<int64_t>& sizes,
           const std::vector<int64_t>& strides, int64_t itemsize, int64_t offset,
           const std::vector<int64_t>& order, Counts& counts, const std::string& what,
           int64_t tiles_per_block = kMaxNdTilesPerBlock) {
  int64_t extent = offset + 1, count = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    extent += (sizes[d] - 1) * strides[d];
    count *= sizes[d];
  }
  const int64_t out_bytes = count * itemsize;
  const HostBuffers memory(rng, extent * itemsize, offset * itemsize, out_bytes, 0);
  // The input in a heap block of its exact size, so that AddressSanitizer sees a read past it
  // (a partial tile's indices beyond the tensor).
  const std::vector<char> input(memory.in - offset * itemsize,
                                memory.in + (extent - offset) * itemsize);
  const char* in = input.data() + offset * itemsize;
  char* out = memory.out;
  StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                  reinterpret_cast<uintptr_t>(in)};
  const NdTilePlan plan = plan_nd_tiles(x, order.data());
  if (!plan.applies) return;
  ASSERT_LE(plan.shared_bytes, 48 * 1024) << what;
  ASSERT_LE(plan.in_side.extent, kMaxNdSide) << what;
  ASSERT_LE(plan.out_side.extent, kMaxNdSide) << what;
  ASSERT_GE(plan.tiles_per_block, 1) << what;
  ASSERT_LE(plan.tiles_per_block, kMaxNdTilesPerBlock) << what;
  const int64_t group = std::min(tiles_per_block, plan.tiles_per_block);
  const NdGroupLayout layout = nd_group_layout(plan, group);
  ASSERT_LE(layout.shared_bytes, 48 * 1024) << what;
  run_plan(plan, group, in, out);
  const std::vector<char> want = permute_reference(in, sizes, strides, itemsize, order);
  EXPECT_EQ(std::memcmp(out, want.data(), out_bytes), 0)
      << what << ": element " << plan.element_size << ", sides " << plan.in_side.extent << " x "
      << plan.out_side.extent << ", batch dims " << plan.batch_dims << ", tiles a block "
      << group << ", flat load " << layout.load_flat << ", flat store " << layout.store_flat;
  EXPECT_TRUE(memory.nothing_written_outside()) << what << ": wrote outside the output";
  ++counts.cases;
  counts.several_in += plan.in_side.dims > 1;
  counts.several_out += plan.out_side.dims > 1;
  counts.chunked += plan.in_side.chunked || plan.out_side.chunked;
  counts.batched += plan.batch_dims > 0;
  counts.two_d += !layout.load_flat && !layout.store_flat;
  counts.flat_load += layout.load_flat && !layout.store_flat;
  counts.flat_store += !layout.load_flat && layout.store_flat;
  counts.flat_both += layout.load_flat && layout.store_flat && group == 1;
  counts.grouped += group > 1;
  auto partial = [](const NdTileSide& side) {
    return side.chunked && side.sizes[side.dims - 1] % side.chunk != 0;
  };
  counts.flat_partial += (layout.load_flat || layout.store_flat) &&
                         (partial(plan.in_side) || partial(plan.out_side));
}

// x's memory for a random case: contiguous in some order of its dims (a permuted view),
// its innermost dim sliced by a pad (in values), at a storage offset (in values).
struct RandomView {
  std::vector<int64_t> strides;
  int64_t offset;
};

RandomView random_view(std::mt19937_64& rng, const std::vector<int64_t>& sizes) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const int full = static_cast<int>(sizes.size());
  std::vector<int64_t> memory_order(full);
  std::iota(memory_order.begin(), memory_order.end(), 0);
  if (pick(0, 2) == 0) std::shuffle(memory_order.begin(), memory_order.end(), rng);
  const int64_t pad = pick(0, 3) == 0 ? pick(1, 3) : 0;
  RandomView x{std::vector<int64_t>(full), 0};
  int64_t stride = 1;
  for (int i = full - 1; i >= 0; --i) {
    const int d = static_cast<int>(memory_order[i]);
    x.strides[d] = stride;
    stride *= sizes[d] + (i == full - 1 ? pad : 0);
  }
  x.offset = pick(0, 2) == 0 ? pick(1, 5) : 0;
  return x;
}

TEST(NdTileKernel, MovesEveryPermutationExactly) {
  std::mt19937_64 rng(20261206);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Counts counts;
  for (int trial = 0; trial < 600; ++trial) {
    const int kind = static_cast<int>(pick(0, 3));
    std::vector<int64_t> sizes;
    std::vector<int64_t> order;
    if (kind == 0) {  // a reversal of all-2 or all-3 dims
      const int64_t side = pick(2, 3);
      const int rank = static_cast<int>(side == 2 ? pick(6, 14) : pick(4, 9));
      sizes.assign(rank, side);
      order.resize(rank);
      for (int i = 0; i < rank; ++i) order[i] = rank - 1 - i;
    } else if (kind == 1) {  // a 3-D reversal with a short side
      sizes = {pick(2, 5), pick(20, 700), pick(20, 900)};
      std::shuffle(sizes.begin(), sizes.end(), rng);
      order = {2, 1, 0};
    } else {  // any permutation of short dims
      const int rank = static_cast<int>(pick(2, 7));
      for (int i = 0; i < rank; ++i) sizes.push_back(pick(1, rank <= 3 ? 60 : 9));
      order.resize(rank);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), rng);
    }
    const int rank = static_cast<int>(sizes.size());
    // A trailing dim kept last joins the element; the values of 1-16 bytes.
    const int64_t itemsize = int64_t{1} << pick(0, 4);
    if (kind == 2 && pick(0, 3) == 0 && itemsize <= 4) {
      sizes.push_back(int64_t{16} / itemsize >> pick(0, 2));
      order.push_back(rank);
    }
    const RandomView x = random_view(rng, sizes);
    check(rng, sizes, x.strides, itemsize, x.offset, order, counts,
          "trial " + std::to_string(trial) + " kind " + std::to_string(kind));
  }
  // Every kind of tile ran.
  EXPECT_GE(counts.cases, 250);
  EXPECT_GE(counts.several_in, 80);
  EXPECT_GE(counts.several_out, 80);
  EXPECT_GE(counts.chunked, 80);
  EXPECT_GE(counts.batched, 150);
}

// Short sides and small tiles: a phase along a side under 16 elements runs flattened, and
// a block moves a group of tiles under 2 KiB, both phases flattened. The cases named are
// permutations that the tiled kernels leave to ATen's copy (short output rows among batch
// dims, short input rows, transposed views of 16 x 24 bytes); the random ones permute a few
// short dims and one or two long ones (chunked sides, partial tiles), as contiguous inputs,
// permuted views, row slices and storage offsets, elements of 1-16 bytes; some run at fewer
// tiles a block than the plan's, as a kernel choice may lower them.
TEST(NdTileKernel, FlattenedPhasesAndGroupsOfTilesMoveEveryPermutationExactly) {
  std::mt19937_64 rng(20261207);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  auto contiguous = [](const std::vector<int64_t>& sizes) {
    std::vector<int64_t> strides(sizes.size(), 1);
    for (size_t d = sizes.size() - 1; d-- > 0;) strides[d] = strides[d + 1] * sizes[d + 1];
    return strides;
  };
  Counts counts;
  struct Named {
    std::vector<int64_t> sizes, strides, order;
    int64_t itemsize, offset;
  };
  // Their long dims shortened for the host (sides and chunks as at full size).
  const std::vector<Named> named = {
      {{7, 6, 13, 55, 5, 9}, {}, {2, 1, 3, 5, 4, 0}, 1, 3},  // (7, 63, 13, 550, 5, 9): rows of 7
      {{4, 301, 3, 23, 3}, {}, {3, 1, 0, 4, 2}, 2, 0},       // (4, 18861, 3, 23, 3)
      {{65, 729, 3, 2}, {}, {1, 0, 3, 2}, 2, 0},             // bf16 (65, 72916, 3, 2)
      {{3, 3, 4, 33, 23, 2}, {}, {2, 5, 0, 3, 1, 4}, 8, 0},  // int64 (3, 3, 4, 3359, 239, 2)
      // Transposed views: tiles of 16 x 24 bytes, 14 x 14 halves.
      {{5, 7, 9, 16, 24}, {7 * 3456, 3456, 384, 1, 16}, {0, 2, 1, 3, 4}, 1, 0},  // (319, 580, ...)
      {{3, 32, 32, 14, 14}, {200704, 6272, 196, 1, 14}, {0, 2, 1, 3, 4}, 2, 0},    // (64, ...)
  };
  for (size_t i = 0; i < named.size(); ++i) {
    const Named& c = named[i];
    const std::vector<int64_t> strides = c.strides.empty() ? contiguous(c.sizes) : c.strides;
    for (int64_t itemsize : {c.itemsize, int64_t{16} / c.itemsize}) {
      check(rng, c.sizes, strides, itemsize, c.offset, c.order, counts,
            "named case " + std::to_string(i) + ", " + std::to_string(itemsize) + "-byte values");
    }
  }
  EXPECT_EQ(counts.cases, 2 * static_cast<int>(named.size())) << "every named case planned";
  for (int trial = 0; trial < 800; ++trial) {
    const int rank = static_cast<int>(pick(2, 6));
    std::vector<int64_t> sizes;
    for (int i = 0; i < rank; ++i) sizes.push_back(pick(2, 9));
    // One or two long dims (sides chunked, tiles partial).
    for (int long_dims = static_cast<int>(pick(1, 2)); long_dims > 0; --long_dims) {
      sizes[pick(0, rank - 1)] = pick(10, 300);
    }
    std::vector<int64_t> order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    const int64_t itemsize = int64_t{1} << pick(0, 4);
    if (pick(0, 3) == 0 && itemsize <= 4) {  // a trailing dim kept last joins the element
      sizes.push_back(int64_t{16} / itemsize >> pick(0, 2));
      order.push_back(rank);
    }
    int64_t numel = 1;
    for (int64_t size : sizes) numel *= size;
    if (numel > (int64_t{1} << 20)) continue;
    const RandomView x = random_view(rng, sizes);
    // A third at a tile a block (short sides' phases flattened alone), a sixth at a few.
    const int64_t lowered = pick(0, 5);
    const int64_t tiles_per_block =
        lowered < 2 ? 1 : lowered == 2 ? pick(2, 8) : kMaxNdTilesPerBlock;
    check(rng, sizes, x.strides, itemsize, x.offset, order, counts,
          "trial " + std::to_string(trial), tiles_per_block);
  }
  std::printf("nd tiles: %d cases: 2-D %d, flat load %d, flat store %d, flat both (a tile a "
              "block) %d, grouped %d, flattened partial tiles %d\n",
              counts.cases, counts.two_d, counts.flat_load, counts.flat_store, counts.flat_both,
              counts.grouped, counts.flat_partial);
  EXPECT_GE(counts.flat_load, 20);
  EXPECT_GE(counts.flat_store, 20);
  EXPECT_GE(counts.flat_both, 5);
  EXPECT_GE(counts.grouped, 50);
  EXPECT_GE(counts.flat_partial, 50);
}

// The planner declines what its kernel cannot move: an output off the element (an out=
// buffer at a lower alignment), elements of other sizes, 2^31 tiles or more.
TEST(NdTilePlan, DeclinesWhatItsKernelCannotMove) {
  auto plan = [](std::vector<int64_t> sizes, std::vector<int64_t> order, int64_t itemsize,
                 int64_t out_alignment) {
    std::vector<int64_t> strides(sizes.size(), 1);
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; --d) {
      strides[d] = strides[d + 1] * sizes[d + 1];
    }
    StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                    0x7f0000000000};
    return plan_nd_tiles(x, order.data(), out_alignment);
  };
  EXPECT_TRUE(plan({3, 400, 165}, {2, 1, 0}, 4, 4).applies);
  EXPECT_FALSE(plan({3, 400, 165}, {2, 1, 0}, 4, 2).applies);
  EXPECT_FALSE(plan({3, 400, 165, 3}, {2, 1, 0, 3}, 1, 256).applies);  // 3-byte elements
  std::vector<int64_t> reversal(45);
  for (int i = 0; i < 45; ++i) reversal[i] = 44 - i;
  const NdTilePlan huge = plan(std::vector<int64_t>(45, 2), reversal, 1, 256);
  EXPECT_FALSE(huge.applies);
  EXPECT_STREQ(huge.reason, "2^31 tiles or more");
  reversal.resize(44);
  for (int i = 0; i < 44; ++i) reversal[i] = 43 - i;
  EXPECT_TRUE(plan(std::vector<int64_t>(44, 2), reversal, 1, 256).applies);
}

// x.permute(order)'s kernel, x contiguous of `itemsize`-byte values (or at `strides`).
KernelChoice choose_permute(std::vector<int64_t> sizes, std::vector<int64_t> order,
                            int64_t itemsize, std::vector<int64_t> strides = {},
                            const ChoiceOverrides& overrides = {}) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (strides.empty()) {
    strides.assign(ndim, 1);
    for (int64_t d = ndim - 2; d >= 0; --d) strides[d] = strides[d + 1] * sizes[d + 1];
  }
  StridedLayout x{ndim, sizes.data(), strides.data(), itemsize, 0x7f0000000000};
  return choose_kernel(plan_permute(x, order.data()), h100(), overrides);
}

// Short sides and small tiles take nd tiles where ATen's gathers miss the L2 (output
// neighbours a sector apart in the input, input neighbours a twelfth of the L2 apart in the
// output), but for 1- and 2-byte output runs under 8 elements.
TEST(KernelChoice, ShortSidesTakeNdTilesWhereTheFrameworksGathersMissTheL2) {
  // float32 (2, 3, 355957, 23) reversed: tiles 46 x 6 (1104 bytes), input neighbours 8.5 MB
  // apart in the output.
  const KernelChoice far = choose_permute({2, 3, 355957, 23}, {3, 2, 1, 0}, 4);
  EXPECT_EQ(kernel_name(far),
            "nd_tiles<e=4, tile=46x6, in_dims=2, out_dims=2, batch_dims=0, tiles_per_block=4, "
            "flat=both>");
  // float16 (988, 4102, 5) reversed: input rows of 5 values, output rows of 128.
  EXPECT_EQ(choose_permute({988, 4102, 5}, {2, 1, 0}, 2).path, TransposePath::NdTiles);
  // Output runs of 4 bytes: int8 (4, 1107353, 4) reversed stays with ATen's copy.
  EXPECT_EQ(choose_permute({4, 1107353, 4}, {2, 1, 0}, 1).path, TransposePath::AtenFallback);
  // Input neighbours 36 bytes apart in the output: ATen's copy finds their sectors in the L2
  // (float32 (56, 3, 3, 919, 136, 1) to [5, 3, 0, 4, 2, 1]: 1.35x a copy, forced tiles 2.33x).
  EXPECT_EQ(choose_permute({56, 3, 3, 919, 136, 1}, {5, 3, 0, 4, 2, 1}, 4).path,
            TransposePath::AtenFallback);
  ChoiceOverrides forced;
  forced.nd_tiles = 1;
  EXPECT_EQ(choose_permute({56, 3, 3, 919, 136, 1}, {5, 3, 0, 4, 2, 1}, 4, {}, forced).path,
            TransposePath::NdTiles);
}

// Past the L2, nd tiles take the tiled kernel's plans whose tiles run under a quarter full
// (2-D nd tiles only in place of its word stores or with their input side flattened), its
// folded tiles of 4-byte or wider matrices with a side under a sector, the small-dim
// kernel's short input rows a pitch apart where the nd tiles' input side spans 32 elements,
// and one-unit tiles where that side spans 32 elements and more than the tiles' rows.
TEST(KernelChoice, PlansPastTheL2TakeNdTilesWhereTheirKernelsMoveShortPieces) {
  // Folded 2 x 4 matrices of complex64 (rows of 16 bytes in the output), 128 MB.
  const KernelChoice folded = choose_permute({2, 2, 117324, 9, 4}, {2, 4, 0, 3, 1}, 8);
  EXPECT_EQ(folded.path, TransposePath::NdTiles) << kernel_name(folded);
  // int64 tiles 23% filled (217 matrices of 396 x 17), 156 MB.
  const KernelChoice sparse = choose_permute({396, 7, 217, 2, 17}, {4, 1, 3, 2, 0}, 8);
  EXPECT_EQ(sparse.path, TransposePath::NdTiles) << kernel_name(sparse);
  // The same under the L2 (12 MB, 18 MB) keep the tiled kernel.
  EXPECT_EQ(choose_permute({2, 2, 11732, 9, 4}, {2, 4, 0, 3, 1}, 8).path,
            TransposePath::TiledRowStrided);
  EXPECT_EQ(choose_permute({396, 7, 25, 2, 17}, {4, 1, 3, 2, 0}, 8).path,
            TransposePath::TiledRowStrided);
  // 2-D tiles under a quarter full (a dim a side, the input side not flattened) move the
  // same pieces as the tiled kernel's: nd tiles take them where it stores words (float32
  // output rows of 21 values, 84 bytes, 280 MB), not where it stores 16-byte vectors
  // (float8 rows of 32 bytes, 64 MB; float16 rows of 24 values, 73 MB).
  EXPECT_EQ(kernel_name(choose_permute({2, 1, 21, 1750499}, {0, 1, 3, 2}, 4)),
            "nd_tiles<e=4, tile=64x21, in_dims=1, out_dims=1, batch_dims=1>");
  EXPECT_EQ(choose_permute({4, 524288, 32}, {0, 2, 1}, 1).path, TransposePath::TiledContiguous);
  EXPECT_EQ(choose_permute({2048, 784, 24}, {0, 2, 1}, 2).path, TransposePath::TiledContiguous);
  // Tiles 40% filled (int32 181589 x 27, 78 MB when 4x taller) keep the tiled kernel.
  EXPECT_EQ(choose_permute({726356, 27}, {1, 0}, 4).path, TransposePath::TiledContiguous);
  // Folded matrices of 2-byte elements keep it too (bfloat16 40 x 4 with rows of 4 values
  // 32 bytes apart: rows of 8 bytes).
  const KernelChoice halves = choose_permute({20, 2, 32, 18576, 4}, {2, 4, 3, 0, 1}, 2,
                                             {19021824, 9510912, 297216, 16, 1});
  EXPECT_EQ(halves.path, TransposePath::TiledRowStrided) << kernel_name(halves);
  EXPECT_EQ(halves.tiling, Tiling::Folded);
  // float8 rows of 4 bytes 140 apart (the small-dim kernel's pitched rows), 249 MB: nd tiles
  // of 128 input elements (35 x 4 bytes, whole).
  const KernelChoice pitched = choose_permute({61, 1, 30695, 35, 4}, {4, 0, 3, 1, 2}, 1);
  EXPECT_EQ(kernel_name(pitched), "nd_tiles<e=1, tile=128x128, in_dims=2, out_dims=1, batch_dims=1>");
  // Rows of 3 bytes 16 apart (a row slice), 122 MB: the nd tiles' input side would be the
  // 3 bytes alone (flattened), so the small-dim kernel keeps them.
  EXPECT_EQ(choose_permute({40779571, 3}, {1, 0}, 1, {16, 1}).path, TransposePath::SmallDim);
  // One-unit tiles (int16 input rows of 30 values) of a permuted view, 324 MB: nd tiles whose
  // input side takes the 3 dims packed after the rows too (90 values); 32 MB keeps the tiles.
  const std::vector<int64_t> view = {270, 90, 1, 3954690, 30};
  const KernelChoice one_unit = choose_permute({14647, 3, 30, 43, 3}, {4, 0, 1, 2, 3}, 2, view);
  EXPECT_EQ(kernel_name(one_unit), "nd_tiles<e=2, tile=90x43, in_dims=2, out_dims=1, batch_dims=1>");
  const std::vector<int64_t> small_view = {270, 90, 1, 395370, 30};
  const KernelChoice small = choose_permute({1464, 3, 30, 43, 3}, {4, 0, 1, 2, 3}, 2, small_view);
  EXPECT_EQ(small.path, TransposePath::TiledUnits) << kernel_name(small);
  // Where the input side is the tiles' rows alone (bool rows of 32 of a transposed view,
  // 64 MB, the same 32 as the nd side), one-unit tiles stay.
  const KernelChoice rows_alone = choose_permute({1, 17677, 32, 113}, {0, 2, 1, 3}, 1,
                                                 {63920032, 3616, 1, 32});
  EXPECT_EQ(kernel_name(rows_alone), "tiled_units<unit=1, units=1, tile=128x32, access=words>");
  // nd_tiles = 2: only in place of the framework's copy.
  ChoiceOverrides aten_only;
  aten_only.nd_tiles = 2;
  EXPECT_EQ(choose_permute({14647, 3, 30, 43, 3}, {4, 0, 1, 2, 3}, 2, view, aten_only).path,
            TransposePath::TiledUnits);
  EXPECT_EQ(choose_permute({2, 2, 117324, 9, 4}, {2, 4, 0, 3, 1}, 8, {}, aten_only).path,
            TransposePath::TiledRowStrided);
  EXPECT_EQ(choose_permute({61, 1, 30695, 35, 4}, {4, 0, 3, 1, 2}, 1, {}, aten_only).path,
            TransposePath::SmallDim);
  EXPECT_EQ(choose_permute({988, 4102, 5}, {2, 1, 0}, 2, {}, aten_only).path,
            TransposePath::NdTiles);
}

TEST(KernelChoice, PermutationsTheTiledKernelsCannotBatchTakeTilesOverSeveralDims) {
  // An all-2 reversal past the plan's 9 batch dims: 7 dims a side of 128 bytes, 10 batch dims.
  std::vector<int64_t> reversal(24);
  for (int i = 0; i < 24; ++i) reversal[i] = 23 - i;
  const KernelChoice all2 = choose_permute(std::vector<int64_t>(24, 2), reversal, 1);
  EXPECT_EQ(kernel_name(all2), "nd_tiles<e=1, tile=128x128, in_dims=7, out_dims=7, batch_dims=10>");
  // A 3-D reversal of bytes with a side of 3: 128 input indices by 3 x 42 output ones.
  const KernelChoice side3 = choose_permute({3, 38864, 1651}, {2, 1, 0}, 1);
  EXPECT_EQ(kernel_name(side3), "nd_tiles<e=1, tile=128x126, in_dims=1, out_dims=2, batch_dims=0>");
  EXPECT_GT(side3.tile_utilization, 0.95);
  // Tiles under 2 KiB (a transposed view's 16 x 24 bytes) keep ATen's copy, and so does the
  // override for it; permutes the tiled kernels batch keep them.
  EXPECT_EQ(choose_permute({319, 580, 9, 16, 24}, {0, 2, 1, 3, 4}, 1,
                           {2004480, 3456, 384, 1, 16}).path,
            TransposePath::AtenFallback);
  // Values of 4 bytes or more into output rows under 128 bytes (int64: 6 x 8 bytes), and
  // fewer tiles than SMs (an all-2 reversal of 16 KiB: one tile), keep ATen's copy.
  EXPECT_EQ(choose_permute({17191, 3, 2, 329}, {0, 3, 1, 2}, 8).path, TransposePath::AtenFallback);
  EXPECT_EQ(choose_permute({3, 3, 2, 3, 271743}, {0, 4, 3, 2, 1}, 4).path,
            TransposePath::AtenFallback);
  std::vector<int64_t> rank14(14);
  for (int i = 0; i < 14; ++i) rank14[i] = 13 - i;
  EXPECT_EQ(choose_permute(std::vector<int64_t>(14, 2), rank14, 1).path,
            TransposePath::AtenFallback);
  // Forced (nd_tiles = 1), they take what the tiled kernel would run where the plan carries
  // them (a side of 32 or less: output rows of 29 bytes among batch dims); never (0), not
  // even where ATen's copy would run. Plans of longer sides carry none (sides 34 and 62).
  ChoiceOverrides forced;
  forced.nd_tiles = 1;
  EXPECT_EQ(choose_permute({21, 29, 3, 3, 15, 341}, {3, 5, 2, 0, 4, 1}, 1).path,
            TransposePath::TiledRowStrided);
  const KernelChoice six = choose_permute({21, 29, 3, 3, 15, 341}, {3, 5, 2, 0, 4, 1}, 1, {}, forced);
  EXPECT_EQ(six.path, TransposePath::NdTiles) << kernel_name(six);
  EXPECT_EQ(choose_permute({34, 268, 62}, {2, 1, 0}, 1).path, TransposePath::AtenFallback);
  EXPECT_EQ(choose_permute({34, 268, 62}, {2, 1, 0}, 1, {}, forced).path,
            TransposePath::AtenFallback);
  ChoiceOverrides never;
  never.nd_tiles = 0;
  EXPECT_EQ(choose_permute({3, 38864, 1651}, {2, 1, 0}, 1, {}, never).path,
            TransposePath::AtenFallback);
  ChoiceOverrides aten;
  aten.fallback = 1;
  EXPECT_EQ(choose_permute({3, 38864, 1651}, {2, 1, 0}, 1, {}, aten).path,
            TransposePath::AtenFallback);
  EXPECT_EQ(choose_permute({256, 256, 256}, {2, 1, 0}, 4).path, TransposePath::TiledRowStrided);
}

// The name says which phases run flattened (a side under 16 elements) and how many tiles a
// block moves (tiles under 2 KiB, groups of 4 KiB); blocks and shared memory follow the group.
TEST(KernelChoice, NdTilesNameFlattenedPhasesAndGroupsOfTiles) {
  ChoiceOverrides forced;
  forced.nd_tiles = 1;
  // Output rows of 7 bytes: 630-byte tiles, 7 a block, both phases flattened.
  const KernelChoice rows7 =
      choose_permute({7, 63, 13, 550, 5, 9}, {2, 1, 3, 5, 4, 0}, 1, {}, forced);
  EXPECT_EQ(kernel_name(rows7),
            "nd_tiles<e=1, tile=90x7, in_dims=3, out_dims=1, batch_dims=2, tiles_per_block=7, "
            "flat=both>");
  EXPECT_EQ(rows7.blocks, (225225 + 6) / 7);
  // 7 tiles of 7 rows of 92 bytes (to 16 bytes), a load and a store span each, both sides' ranks.
  EXPECT_EQ(rows7.shared_bytes, 4512 + 2 * 7 * 16 + (7 + 90) * 16);
  // Input rows of 12 halves into 128: a 3 KiB tile a block, its loads flattened.
  EXPECT_EQ(kernel_name(choose_permute({500, 12}, {1, 0}, 2, {}, forced)),
            "nd_tiles<e=2, tile=12x128, in_dims=1, out_dims=1, batch_dims=0, flat=load>");
  // 16-byte elements into output rows of 8: 4 KiB tiles, stores flattened.
  EXPECT_EQ(kernel_name(choose_permute({8, 40000}, {1, 0}, 16, {}, forced)),
            "nd_tiles<e=16, tile=32x8, in_dims=1, out_dims=1, batch_dims=0, flat=store>");
  // Sides of 16 elements or more keep a warp a row: the 16-byte 3-D reversal's 32 x 30 tiles.
  EXPECT_EQ(kernel_name(choose_permute({3, 38864, 1651}, {2, 1, 0}, 16)),
            "nd_tiles<e=16, tile=32x30, in_dims=1, out_dims=2, batch_dims=0>");
}

}  // namespace
}  // namespace gputranspose
