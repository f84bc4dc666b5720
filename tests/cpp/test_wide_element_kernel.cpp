// The wide-element kernel (cuda/wide_element_transpose.cuh) compiled for the host and run as
// the GPU runs it, every thread of every block of the launcher's grid (outer batches on y
// and z included), from the launcher's parameters (wide_element_params) and the kernel
// choice. Over random layouts - elements of 16 bytes (complex128, or four 4-byte values that
// keep their order) forced through it (wide_16), elements of 32-1024 bytes in 16-byte units,
// elements over 682 bytes off 16 bytes in 1- to 8-byte units; row slices, transposed views,
// storage offsets, batches, and permutations with outer batch dims - the result equals
// x.permute(order).contiguous() byte for byte, computed from x's own sizes and strides, and
// no byte outside the output is written. The L2 policy (evict_last) does not change what
// is written: the host runs the plain-read instances. No GPU needed.
#include <cuda_runtime.h>  // dim3, uint2, uint4 and the CUDA keywords, before they are mapped

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {
struct HostIndex {
  unsigned x = 0, y = 0, z = 0;
};
HostIndex host_thread_index;
HostIndex host_block_index;
HostIndex host_grid_dim;
inline int host_ffs(int v) { return __builtin_ffs(v); }
}  // namespace
// CUDA's device built-ins the kernel and its headers call, on the host.
inline uint32_t min(uint32_t a, uint32_t b) { return a < b ? a : b; }
inline unsigned __cvta_generic_to_shared(const void*) { return 0; }  // ptx.cuh's cp.async only

#undef __global__
#define __global__
#undef __launch_bounds__
#define __launch_bounds__(...)
#define threadIdx host_thread_index
#define blockIdx host_block_index
#define gridDim host_grid_dim
#define __ffs host_ffs

#include "core/cuda/outer_batch.cuh"

namespace gputranspose {
namespace cuda {
// The device's add_outer_offsets (outer_batch.cuh), on the host block index (a template of
// its own, apart from the unit-tiled test's stand-in, which may share the binary).
template <class In, class Out, int = 0>
bool add_outer_offsets(const OuterBatch& o, In& in, Out& out) {
  if (o.dims == 0) return true;
  return add_outer_offsets_of(o, blockIdx.y + gridDim.y * blockIdx.z, in, out);
}
}  // namespace cuda
}  // namespace gputranspose

#include "core/cuda/wide_element_transpose.cuh"
#include "core/kernel_choice.h"
#include "core/layout_plan.h"
#include "h100_facts.h"
#include "host_buffers.h"

#include <gtest/gtest.h>

namespace gputranspose {
namespace {

// The launcher's grid (launch_wide.cu), every block and thread in turn.
template <typename Unit, int THREADS, int K>
void run_tile(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  const cuda::WideElementParams<Unit> p =
      cuda::wide_element_params<Unit>(plan, c, THREADS * K, in, out);
  const dim3 grid = cuda::outer_grid(c.blocks / plan.outer_count, plan.outer_count);
  host_grid_dim = {grid.x, grid.y, grid.z};
  for (unsigned z = 0; z < grid.z; ++z) {
    for (unsigned y = 0; y < grid.y; ++y) {
      for (unsigned x = 0; x < grid.x; ++x) {
        host_block_index = {x, y, z};
        for (int t = 0; t < THREADS; ++t) {
          host_thread_index.x = static_cast<unsigned>(t);
          cuda::wide_element_transpose_kernel<Unit, THREADS, K, false>(p);
        }
      }
    }
  }
}

template <int UNITS>
void run_units(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  constexpr int THREADS = WideElementTile::threads(UNITS);
  run_tile<uint4, THREADS, UNITS / THREADS>(plan, c, in, out);
}

template <typename Unit>
void run_narrow(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  constexpr int UNITS = WideElementTile::MIN_UNITS * 16 / sizeof(Unit);
  constexpr int THREADS = WideElementTile::threads(UNITS);
  ASSERT_EQ(c.tile_rows * c.tile_cols, UNITS);
  ASSERT_EQ(c.input_l2, InputL2::Normal);
  run_tile<Unit, THREADS, UNITS / THREADS>(plan, c, in, out);
}

// The instance the launcher takes (launch_wide_elements).
void run_choice(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  switch (c.unit_size) {
    case 16:
      switch (c.tile_rows * c.tile_cols) {
        case 128:
          return run_units<128>(plan, c, in, out);
        case 256:
          return run_units<256>(plan, c, in, out);
        case 512:
          return run_units<512>(plan, c, in, out);
      }
      FAIL() << "tile of " << c.tile_rows * c.tile_cols << " units";
    case 8:
      return run_narrow<uint2>(plan, c, in, out);
    case 4:
      return run_narrow<uint32_t>(plan, c, in, out);
    case 2:
      return run_narrow<uint16_t>(plan, c, in, out);
    case 1:
      return run_narrow<uint8_t>(plan, c, in, out);
  }
  FAIL() << "unit " << c.unit_size;
}

struct Counts {
  int cases = 0, sixteen = 0, narrow = 0, outer = 0;
};

// Runs x.permute(order) through the plan, the choice (with `overrides`) and the kernel where
// the choice is the wide-element kernel; checks the bytes. False where another kernel runs.
bool check_layout(std::mt19937_64& rng, const std::vector<int64_t>& sizes,
                  const std::vector<int64_t>& strides, int64_t itemsize, int64_t offset,
                  const std::vector<int64_t>& order, const ChoiceOverrides& overrides,
                  Counts& counts, const std::string& what) {
  int64_t extent = offset + 1;
  for (size_t d = 0; d < sizes.size(); ++d) extent += (sizes[d] - 1) * strides[d];
  int64_t count = 1;
  for (int64_t s : sizes) count *= s;
  const int64_t out_bytes = count * itemsize;
  // The allocation on 256 bytes, as the framework's; the view `offset` values in.
  const HostBuffers memory(rng, extent * itemsize, offset * itemsize, out_bytes, 0);
  const char* in = memory.in;
  char* out = memory.out;
  StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                  reinterpret_cast<uintptr_t>(in)};
  const TransposePlan plan = plan_permute(x, order.data());
  const KernelChoice c = choose_kernel(plan, h100(), overrides);
  if (c.path != TransposePath::WideElements) return false;
  run_choice(plan, c, in, out);
  const std::vector<char> want = permute_reference(in, sizes, strides, itemsize, order);
  EXPECT_EQ(std::memcmp(out, want.data(), out_bytes), 0)
      << what << " " << kernel_name(c) << ", element " << plan.element_size;
  EXPECT_TRUE(memory.nothing_written_outside()) << what << ": wrote outside the output";
  ++counts.cases;
  counts.sixteen += plan.element_size == 16;
  counts.narrow += c.unit_size < 16;
  counts.outer += plan.outer_dims > 0;
  return true;
}

TEST(WideElementKernel, MovesEveryWideLayoutExactly) {
  std::mt19937_64 rng(20261206);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  ChoiceOverrides wide;
  wide.wide_16 = 1;
  wide.fallback = 0;
  Counts counts;
  for (int trial = 0; trial < 400; ++trial) {
    // x: (batch, rows, cols, k) values of `itemsize` bytes; its dims 1 and 2 swapped, or,
    // with an outer dim, a permutation of a 5-D x that moves dim 0 too.
    const int kind = static_cast<int>(pick(0, 3));
    const int64_t itemsize = int64_t{1} << pick(0, 4);  // 1 to 16 bytes
    int64_t element_bytes;
    if (kind == 0) {
      element_bytes = 16;
    } else if (kind == 1) {
      element_bytes = 16 * pick(2, 64);
    } else if (kind == 2) {
      element_bytes = std::max<int64_t>(itemsize, pick(683, 1200) / itemsize * itemsize);
    } else {
      element_bytes = pick(0, 1) ? 16 : 16 * pick(2, 8);
    }
    const int64_t k = element_bytes / itemsize;
    const int64_t batch = pick(1, 3);
    const int64_t rows = pick(0, 3) == 0 ? pick(1, 4) : pick(1, 90);
    const int64_t cols = pick(0, 3) == 0 ? pick(1, 4) : pick(1, 90);
    // Storage offsets and row pitches in whole 16-byte units (16-byte elements stay on
    // them), but for the narrow units' elements, which take any.
    const int64_t grain = kind == 2 ? 1 : std::max<int64_t>(1, 16 / itemsize);
    const int64_t pad = pick(0, 2) == 0 ? grain * pick(1, 3) : 0;
    const int64_t offset = pick(0, 2) == 0 ? grain * pick(1, 5) : 0;
    std::vector<int64_t> sizes, strides, order;
    std::string what;
    if (kind == 3) {
      // (outer, batch, rows, cols, k), result (cols, batch, outer, rows, k) or a transposed
      // view's (batch, rows) first: outer batch dims on the kernel's grid.
      const int64_t outer = pick(2, 5);
      const int64_t row = cols * k + pad;
      sizes = {outer, batch, rows, cols, k};
      strides = {batch * rows * row, rows * row, row, k, 1};
      if (pick(0, 1)) std::swap(strides[0], strides[1]), std::swap(sizes[0], sizes[1]);
      order = pick(0, 1) ? std::vector<int64_t>{3, 1, 0, 2, 4} : std::vector<int64_t>{2, 0, 3, 1, 4};
      what = "permutation";
    } else {
      const int64_t row = cols * k + pad;
      sizes = {batch, rows, cols, k};
      strides = {rows * row, row, k, 1};
      order = {0, 2, 1, 3};
      if (pick(0, 3) == 0) {  // x is a transposed view: its rows and cols swapped in memory
        strides = {rows * (cols * k + pad), k, rows * k + pad, 1};
        strides[0] = cols * (rows * k + pad);
      }
      what = "transpose";
    }
    what += " trial " + std::to_string(trial);
    check_layout(rng, sizes, strides, itemsize, offset, order, wide, counts, what);
  }
  // Every kind of layout ran the kernel.
  EXPECT_GE(counts.cases, 250);
  EXPECT_GE(counts.sixteen, 60);
  EXPECT_GE(counts.narrow, 30);
  EXPECT_GE(counts.outer, 40);
}

// 16-byte elements in matrices long enough that the kernel walks its tiles in patches (input
// rows 128 KiB or more apart) with a short last patch, by the rule (sides of 9-18 against
// 8192-20000) and forced (sides of 2-24), at storage offsets.
TEST(WideElementKernel, MovesLongSixteenByteMatricesInPatches) {
  std::mt19937_64 rng(20261207);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  ChoiceOverrides forced;
  forced.wide_16 = 1;
  Counts counts;
  for (int trial = 0; trial < 24; ++trial) {
    const bool by_rule = trial % 2 == 0;
    const int64_t rows = by_rule ? pick(9, 18) : pick(2, 24);
    const int64_t cols = pick(8192, 20000);
    const int64_t batch = pick(1, 2);
    const int64_t offset = pick(0, 1) * pick(1, 4);
    const std::vector<int64_t> sizes{batch, rows, cols}, strides{rows * cols, cols, 1};
    const std::string what = "long trial " + std::to_string(trial);
    EXPECT_TRUE(check_layout(rng, sizes, strides, 16, offset, {0, 2, 1},
                             by_rule ? ChoiceOverrides{} : forced, counts, what))
        << what << ": not the wide-element kernel";
  }
  EXPECT_EQ(counts.cases, 24);
}

}  // namespace
}  // namespace gputranspose
