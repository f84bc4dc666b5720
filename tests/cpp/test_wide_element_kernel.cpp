// The wide-element kernel (cuda/wide_element_transpose.cuh) compiled for the host and run as
// the GPU runs it, every thread of every block of the launcher's grid (outer batches on y
// and z included), from the launcher's parameters (wide_element_params) and the kernel
// choice. Over random layouts - elements of 16 bytes (complex128, or four 4-byte values that
// keep their order) forced through it (wide_16), elements of 32-1024 bytes in 16-byte units,
// elements over 682 bytes off 16 bytes in 1- to 8-byte units; row slices, transposed views,
// storage offsets, batches, and permutations with outer batch dims - the result equals
// x.permute(order).contiguous() byte for byte, computed from x's own sizes and strides, and
// no byte outside the output is written. The L2 policy (evict_last) does not change what
// is written: the host runs the plain-read instances. The realigned instance
// (realigned_wide_transpose.cuh) runs the same way, with 16-byte accesses that check
// themselves: every load on 16 bytes and of a granule that holds a byte of the tensor,
// every store on 16 bytes and inside the output. No GPU needed.
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
#include "core/cuda/realigned_wide_transpose.cuh"
#include "core/kernel_choice.h"
#include "core/layout_plan.h"
#include "h100_facts.h"
#include "host_buffers.h"

#include <gtest/gtest.h>

namespace gputranspose {
namespace {

// The launchers' grid (launch_wide.cu): `kernel` run as every thread of every block in turn.
template <class Kernel>
void run_grid(const TransposePlan& plan, const KernelChoice& c, int threads, Kernel kernel) {
  const dim3 grid = cuda::outer_grid(c.blocks / plan.outer_count, plan.outer_count);
  host_grid_dim = {grid.x, grid.y, grid.z};
  for (unsigned z = 0; z < grid.z; ++z) {
    for (unsigned y = 0; y < grid.y; ++y) {
      for (unsigned x = 0; x < grid.x; ++x) {
        host_block_index = {x, y, z};
        for (int t = 0; t < threads; ++t) {
          host_thread_index.x = static_cast<unsigned>(t);
          kernel();
        }
      }
    }
  }
}

template <typename Unit, int THREADS, int K>
void run_tile(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  const cuda::WideElementParams<Unit> p =
      cuda::wide_element_params<Unit>(plan, c, THREADS * K, in, out);
  run_grid(plan, c, THREADS,
           [&] { cuda::wide_element_transpose_kernel<Unit, THREADS, K, false>(p); });
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

// The realigned kernel's 16-byte accesses, checked: what a case's input holds of the tensor
// (a byte a byte of the input buffer, nonzero where the tensor has one), where its output
// lies, and what broke the rules.
struct GranuleChecks {
  const char* buffer = nullptr;  // the input buffer's first byte
  std::vector<char> tensor;      // the input buffer's bytes: nonzero where the tensor's
  int64_t first = 0, last = -1;  // the tensor's first and last byte in the buffer
  const char* out = nullptr;
  int64_t out_bytes = 0;
  int64_t loads = 0, stores = 0, bad_loads = 0, bad_stores = 0;
};
GranuleChecks granule_checks;

struct CheckedGranuleAccess {
  static uint4 load(const uint4* p) {
    GranuleChecks& g = granule_checks;
    ++g.loads;
    const auto at = reinterpret_cast<uintptr_t>(p);
    const int64_t from = reinterpret_cast<const char*>(p) - g.buffer;
    // Within the tensor's first and last byte (an allocation of exactly those holds it).
    const bool inside = from >= g.first && from + 16 <= g.last + 1;
    if (at % 16 != 0 || !inside) {
      ++g.bad_loads;
      return uint4{};
    }
    return *p;
  }
  static void store(uint4* p, uint4 v) {
    GranuleChecks& g = granule_checks;
    ++g.stores;
    const char* at = reinterpret_cast<const char*>(p);
    if (reinterpret_cast<uintptr_t>(p) % 16 != 0 || at < g.out || at + 16 > g.out + g.out_bytes) {
      ++g.bad_stores;
      return;
    }
    *p = v;
  }
};

// The realigned launch (launch_wide.cu's launch_realigned).
void run_realigned(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  constexpr int THREADS = kRealignedWideThreadsPerBlock;
  ASSERT_EQ(c.threads, THREADS);
  ASSERT_EQ(c.input_l2, InputL2::Normal);
  const cuda::RealignedWideParams p = cuda::realigned_wide_params(plan, in, out);
  run_grid(plan, c, THREADS,
           [&] { cuda::realigned_wide_kernel<THREADS, CheckedGranuleAccess>(p); });
}

// The instance the launcher takes (launch_wide_elements).
void run_choice(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  if (c.realigned) return run_realigned(plan, c, in, out);
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

// A seeded generator, and picks from it uniform over [lo, hi].
struct Picker {
  explicit Picker(uint64_t seed) : rng(seed) {}
  int64_t operator()(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  std::mt19937_64 rng;
};

// x (outer, batch, rows, cols, k) with rows `row` values apart, or the view with its first
// two dims swapped; result (cols, batch, outer, rows, k) or (rows, outer, cols, batch, k):
// outer batch dims on the kernel's grid.
void outer_permutation(Picker& pick, int64_t outer, int64_t batch, int64_t rows, int64_t cols,
                       int64_t k, int64_t row, std::vector<int64_t>& sizes,
                       std::vector<int64_t>& strides, std::vector<int64_t>& order) {
  sizes = {outer, batch, rows, cols, k};
  strides = {batch * rows * row, rows * row, row, k, 1};
  if (pick(0, 1)) std::swap(strides[0], strides[1]), std::swap(sizes[0], sizes[1]);
  order = pick(0, 1) ? std::vector<int64_t>{3, 1, 0, 2, 4} : std::vector<int64_t>{2, 0, 3, 1, 4};
}

// x (batch, rows, cols, k) with rows of cols x k values and `pad` more, its dims 1 and 2
// swapped.
void padded_transpose(int64_t batch, int64_t rows, int64_t cols, int64_t k, int64_t pad,
                      std::vector<int64_t>& sizes, std::vector<int64_t>& strides,
                      std::vector<int64_t>& order) {
  const int64_t row = cols * k + pad;
  sizes = {batch, rows, cols, k};
  strides = {rows * row, row, k, 1};
  order = {0, 2, 1, 3};
}

struct Counts {
  int cases = 0, sixteen = 0, narrow = 0, outer = 0, realigned = 0;
};

// Nonzero where the bytes of `memory`'s input buffer hold a value of x (values of
// `itemsize` bytes at `in` by its sizes and strides).
std::vector<char> tensor_bytes(const HostBuffers& memory, const std::vector<int64_t>& sizes,
                               const std::vector<int64_t>& strides, int64_t itemsize) {
  std::vector<char> held(memory.in_buffer.size(), 0);
  const int64_t start = memory.in - memory.in_buffer.data();
  std::vector<int64_t> index(sizes.size(), 0);
  int64_t count = 1;
  for (int64_t n : sizes) count *= n;
  for (int64_t v = 0; v < count; ++v) {
    int64_t at = 0;
    for (size_t d = 0; d < sizes.size(); ++d) at += index[d] * strides[d];
    std::memset(held.data() + start + at * itemsize, 1, itemsize);
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
  return held;
}

// Runs x.permute(order) through the plan, the choice (with `overrides`) and the kernel where
// the choice is the wide-element kernel; checks the bytes. False where another kernel runs.
bool check_layout(std::mt19937_64& rng, const std::vector<int64_t>& sizes,
                  const std::vector<int64_t>& strides, int64_t itemsize, int64_t offset,
                  const std::vector<int64_t>& order, const ChoiceOverrides& overrides,
                  Counts& counts, const std::string& what, int64_t out_shift = 0) {
  int64_t extent = offset + 1;
  for (size_t d = 0; d < sizes.size(); ++d) extent += (sizes[d] - 1) * strides[d];
  int64_t count = 1;
  for (int64_t s : sizes) count *= s;
  const int64_t out_bytes = count * itemsize;
  // The allocation on 256 bytes, as the framework's; the view `offset` values in.
  // The output `out_shift` bytes past 256 (an out= buffer at an offset).
  const HostBuffers memory(rng, extent * itemsize, offset * itemsize, out_bytes, out_shift);
  const char* in = memory.in;
  char* out = memory.out;
  StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                  reinterpret_cast<uintptr_t>(in)};
  const int64_t out_alignment = out_shift == 0 ? 256 : out_shift & -out_shift;
  const TransposePlan plan = plan_permute(x, order.data(), out_alignment);
  const KernelChoice c = choose_kernel(plan, h100(), overrides);
  if (c.path != TransposePath::WideElements) {
    EXPECT_FALSE(overrides.wide_realigned == 1 && plan.element_size > kMaxUnitElementBytes)
        << what << ": " << kernel_name(c) << " " << (c.fallback_reason ? c.fallback_reason : "")
        << " plan " << static_cast<int>(plan.path);
    return false;
  }
  if (c.realigned) {
    granule_checks = GranuleChecks{};
    granule_checks.buffer = memory.in_buffer.data();
    granule_checks.tensor = tensor_bytes(memory, sizes, strides, itemsize);
    const auto& held = granule_checks.tensor;
    granule_checks.first = std::find(held.begin(), held.end(), 1) - held.begin();
    granule_checks.last = held.rend() - std::find(held.rbegin(), held.rend(), 1) - 1;
    granule_checks.out = out;
    granule_checks.out_bytes = out_bytes;
  }
  run_choice(plan, c, in, out);
  if (c.realigned) {
    EXPECT_EQ(granule_checks.bad_loads, 0)
        << what << ": 16-byte loads off 16 bytes or past the tensor's first or last byte";
    EXPECT_EQ(granule_checks.bad_stores, 0)
        << what << ": 16-byte stores off 16 bytes or outside the output";
    // Elements of 683 bytes or more: most of each moves in 16-byte granules.
    if (plan.element_size > kMaxUnitElementBytes) {
      EXPECT_GE(granule_checks.stores * 16 * 10, out_bytes * 9) << what;
    }
  }
  const std::vector<char> want = permute_reference(in, sizes, strides, itemsize, order);
  EXPECT_EQ(std::memcmp(out, want.data(), out_bytes), 0)
      << what << " " << kernel_name(c) << ", element " << plan.element_size;
  EXPECT_TRUE(memory.nothing_written_outside()) << what << ": wrote outside the output";
  ++counts.cases;
  counts.sixteen += plan.element_size == 16;
  counts.narrow += c.unit_size < 16;
  counts.outer += plan.outer_dims > 0;
  counts.realigned += c.realigned;
  return true;
}

TEST(WideElementKernel, MovesEveryWideLayoutExactly) {
  Picker pick(20261206);
  ChoiceOverrides wide;
  wide.wide_16 = 1;
  wide.fallback = 0;
  wide.wide_realigned = 0;  // narrow units (the realigned kernel's own test is below)
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
      outer_permutation(pick, pick(2, 5), batch, rows, cols, k, cols * k + pad, sizes, strides,
                        order);
      what = "permutation";
    } else {
      padded_transpose(batch, rows, cols, k, pad, sizes, strides, order);
      if (pick(0, 3) == 0) {  // x is a transposed view: its rows and cols swapped in memory
        strides = {rows * (cols * k + pad), k, rows * k + pad, 1};
        strides[0] = cols * (rows * k + pad);
      }
      what = "transpose";
    }
    what += " trial " + std::to_string(trial);
    check_layout(pick.rng, sizes, strides, itemsize, offset, order, wide, counts, what);
  }
  // Every kind of layout ran the kernel.
  EXPECT_GE(counts.cases, 250);
  EXPECT_GE(counts.sixteen, 60);
  EXPECT_GE(counts.narrow, 30);
  EXPECT_GE(counts.outer, 40);
  EXPECT_EQ(counts.realigned, 0);
}

// Elements of 683 to about 5000 bytes, odd and even, forced through the realigned kernel:
// input storage offsets of every residue mod 16 and outputs at every offset their values
// allow, row slices (input rows a pitch apart that cuts 16 bytes), transposed views and
// permutations with outer batch dims. Each case's bytes equal the permute's, nothing
// outside the output is written, and every 16-byte access checks itself
// (CheckedGranuleAccess); 16-byte elements' plans at 16 bytes take it too (no realigning).
TEST(WideElementKernel, RealignsElementsOffSixteenBytes) {
  Picker pick(20261208);
  ChoiceOverrides forced;
  forced.wide_realigned = 1;
  forced.fallback = 0;
  Counts counts;
  int in_residues = 0, out_residues = 0;  // bit r: a case at byte r mod 16 ran
  int64_t loads = 0, stores = 0;
  for (int trial = 0; trial < 160; ++trial) {
    const int in_residue = trial % 16;
    // Values that the input's residue allows (1 byte where it is odd), up to 16 bytes.
    const int64_t most = in_residue == 0 ? 16 : in_residue & -in_residue;
    const int64_t itemsize = int64_t{1} << pick(0, __builtin_ctzll(most));
    const int64_t element_bytes =
        trial % 20 == 19 ? 16 * pick(43, 100) : pick(683, 5000) / itemsize * itemsize;
    const int64_t k = element_bytes / itemsize;
    const int64_t offset = in_residue / itemsize + (16 / itemsize) * pick(0, 2);
    const int64_t out_shift = itemsize * pick(0, 16 / itemsize - 1) + 16 * pick(0, 1);
    const int64_t batch = pick(1, 3);
    const int64_t rows = pick(2, 6);  // a side of 1: a copy, no transpose
    const int64_t cols = pick(2, 6);
    const int64_t pad = pick(0, 1) ? pick(1, 40) : 0;  // values: a row slice
    std::vector<int64_t> sizes, strides, order;
    const char* kinds[] = {"permutation", "transpose", "transposed view"};
    const int kind = static_cast<int>(pick(0, 2));
    std::string what = kinds[kind];
    if (kind == 0) {
      outer_permutation(pick, pick(2, 3), batch, rows, cols, k, cols * k + pad, sizes, strides,
                        order);
    } else if (kind == 1) {
      padded_transpose(batch, rows, cols, k, pad, sizes, strides, order);
    } else {  // a view of (cols, batch + 1, rows, k) memory, its dims 0 and 2 swapped
      const int64_t pitch = k + pad;
      padded_transpose(batch + 1, rows, cols, k, pad, sizes, strides, order);
      strides = {rows * pitch, pitch, (batch + 1) * rows * pitch, 1};
    }
    what += " trial " + std::to_string(trial) + " (" + std::to_string(element_bytes) +
            "-byte elements at +" + std::to_string(offset * itemsize) + ", out at +" +
            std::to_string(out_shift) + ")";
    const bool ran = check_layout(pick.rng, sizes, strides, itemsize, offset, order, forced, counts,
                                  what, out_shift);
    EXPECT_TRUE(ran) << what << ": not the wide-element kernel";
    if (ran) {
      in_residues |= 1 << (offset * itemsize % 16);
      out_residues |= 1 << (out_shift % 16);
      loads += granule_checks.loads;
      stores += granule_checks.stores;
    }
  }
  EXPECT_EQ(counts.realigned, counts.cases);
  EXPECT_GE(counts.cases, 150);
  EXPECT_GE(counts.outer, 30);
  EXPECT_EQ(in_residues, 0xFFFF);
  EXPECT_EQ(out_residues, 0xFFFF);
  // Most granules realigned (two loads), some not (one).
  EXPECT_GT(loads, stores * 3 / 2);
  EXPECT_LT(loads, stores * 2);
}

// Large elements by the rule: the realigned kernel wherever units under 16 bytes would move
// them (here a float8 permuted view's odd elements, bool's at a storage offset, float32's
// of 1020 bytes), at output offsets.
TEST(WideElementKernel, RealignsTheRulesElements) {
  Picker pick(20261209);
  Counts counts;
  // float8 (2, 37, 2, 2691) a permuted view (order 1, 2, 0, 3), permuted [2, 1, 0, 3].
  check_layout(pick.rng, {2, 37, 2, 2691}, {37 * 2691, 2691, 2 * 37 * 2691, 1}, 1, 0,
               {2, 1, 0, 3}, {}, counts, "float8 permuted view");
  // bool (5, 1, 4, 479, 1, 2) at +10 values, permuted [2, 1, 0, 3, 5, 4].
  check_layout(pick.rng, {5, 1, 4, 479, 1, 2}, {3832, 3832, 958, 2, 2, 1}, 1, 10,
               {2, 1, 0, 3, 5, 4}, {}, counts, "bool at an offset");
  // float32 (3, 3, 7, 255) transpose(1, 2): 1020-byte elements, out at +4 bytes.
  check_layout(pick.rng, {3, 3, 7, 255}, {3 * 7 * 255, 7 * 255, 255, 1}, 4, 0, {0, 2, 1, 3}, {},
               counts, "float32 1020-byte elements", 4);
  EXPECT_EQ(counts.cases, 3);
  EXPECT_EQ(counts.realigned, 3);
}

// Strided elements of 8- and 16-byte values, 16 to 320 bytes (a sliced last dim, rows a
// pitch apart that cuts elements, outer batch dims), at storage and output offsets on the
// values: forced through the realigned kernel, each case's bytes equal the permute's and every
// 16-byte access checks itself. The rule leaves them to their kernels or the framework's copy
// (8-byte units of strided values among them), as wide_realigned=0 does.
TEST(WideElementKernel, RealignsStridedElementsOfEightByteValues) {
  Picker pick(20261206);
  ChoiceOverrides forced, before;
  forced.wide_realigned = 1;
  before.wide_realigned = 0;
  Counts counts;
  int by_rule = 0, sliced = 0, pitch_cut = 0;  // by_rule: the framework's copy for 8-byte units
  for (int trial = 0; trial < 150; ++trial) {
    const int64_t itemsize = trial % 5 == 4 ? 16 : 8;
    const int64_t k = itemsize == 16 ? pick(2, 20) : pick(2, 40);
    const int64_t offset = pick(0, 3);
    const int64_t out_shift = 8 * pick(0, 1) * (itemsize == 8) + 16 * pick(0, 1);
    const int64_t batch = pick(1, 3), rows = pick(2, 9), cols = pick(2, 9);
    std::vector<int64_t> sizes, strides, order;
    std::string what;
    const int kind = static_cast<int>(pick(0, 2));
    if (kind == 0) {  // the last dim sliced: each element its own run
      const int64_t pitch = k + pick(1, 5);
      sizes = {batch, rows, cols, k};
      strides = {rows * cols * pitch, cols * pitch, pitch, 1};
      order = {0, 2, 1, 3};
      what = "sliced elements";
      ++sliced;
    } else if (kind == 1) {  // rows a pitch apart that cuts elements
      padded_transpose(batch, rows, cols, k, pick(1, 2 * k - 1), sizes, strides, order);
      what = "pitch-cut rows";
      ++pitch_cut;
    } else {
      outer_permutation(pick, pick(2, 3), batch, rows, cols, k, cols * k + pick(1, 7), sizes,
                        strides, order);
      what = "outer dims";
    }
    what += " trial " + std::to_string(trial) + " (" + std::to_string(k) + " values of " +
            std::to_string(itemsize) + " bytes at +" + std::to_string(offset) + ", out at +" +
            std::to_string(out_shift) + ")";
    EXPECT_TRUE(check_layout(pick.rng, sizes, strides, itemsize, offset, order, forced, counts,
                             what, out_shift))
        << what << ": not the realigned kernel";
    // The rule: the realigned kernel where the framework's copy ran before it.
    int64_t extent = 1;
    for (size_t d = 0; d < sizes.size(); ++d) extent += (sizes[d] - 1) * strides[d];
    const HostBuffers memory(pick.rng, (offset + extent) * itemsize, offset * itemsize, 16, 0);
    StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                    reinterpret_cast<uintptr_t>(memory.in)};
    const TransposePlan plan = plan_permute(x, order.data());
    const KernelChoice rule = choose_kernel(plan, h100(), {});
    const KernelChoice old = choose_kernel(plan, h100(), before);
    const bool eight_byte_units = rule.path == TransposePath::AtenFallback &&
                                  rule.fallback_reason != nullptr &&
                                  std::string(rule.fallback_reason).find("8-byte values") !=
                                      std::string::npos;
    // (Wide elements, where the layout fuses into elements over 682 bytes, by the wide rule.)
    if (plan.path != TransposePath::WideElements) {
      EXPECT_FALSE(rule.realigned) << what << ": the rule " << kernel_name(rule);
      EXPECT_EQ(kernel_name(rule), kernel_name(old)) << what;
    }
    by_rule += eight_byte_units;
  }
  EXPECT_EQ(counts.realigned, counts.cases);
  EXPECT_GE(counts.cases, 150);
  EXPECT_GE(counts.outer, 20);
  EXPECT_GE(sliced, 25);
  EXPECT_GE(pitch_cut, 25);
  EXPECT_GE(by_rule, 50);
}

// 16-byte elements in matrices long enough that the kernel walks its tiles in patches (input
// rows 128 KiB or more apart) with a short last patch, by the rule (sides of 9-18 against
// 8192-20000) and forced (sides of 2-24), at storage offsets.
TEST(WideElementKernel, MovesLongSixteenByteMatricesInPatches) {
  Picker pick(20261207);
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
    EXPECT_TRUE(check_layout(pick.rng, sizes, strides, 16, offset, {0, 2, 1},
                             by_rule ? ChoiceOverrides{} : forced, counts, what))
        << what << ": not the wide-element kernel";
  }
  EXPECT_EQ(counts.cases, 24);
}

}  // namespace
}  // namespace gputranspose
