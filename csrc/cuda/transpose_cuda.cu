// The CUDA kernel of gputranspose.transpose: follows plan_transpose()'s path,
// and picks the tiled kernel's instance (the one place that maps a plan to a
// kernel).

#include <gputranspose/transpose.h>

#include "../layout.h"
#include "../out_contract.h"
#include "tiled_transpose.cuh"
#include "wide_element_transpose.cuh"

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/EmptyTensor.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/util/SmallVector.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <utility>

namespace gputranspose {
namespace cuda {
namespace {

// A tuning knob from the environment (benchmarks/README.md), `unset` where it is
// not set; its callers read it once per process.
int64_t tuning_knob(const char* name, int64_t unset) {
  const char* env = std::getenv(name);
  return env ? std::atoll(env) : unset;
}

// GPUTRANSPOSE_TILE_GROUP: tile-rows walked together, overriding tile_group_rows for
// tuning experiments (benchmarks/README.md); 0 where unset.
int64_t forced_tile_group_rows() {
  static const int64_t group = tuning_knob("GPUTRANSPOSE_TILE_GROUP", 0);
  return group;
}

// Tile-rows that the blocks walk together, down a group and then across
// (TiledTransposeParams): by default a whole column of tiles (v30: 32768x4096 float64 and
// complex64 1.5% faster, complex128 0.9%, than in groups of 256 tile-rows; groups of 16
// to 64 lost up to 8%, v14-v18). But rows that start anywhere share 128-byte lines with
// the tile on their right, which down a whole column comes a column later; in matrices of
// 32768 rows or more those tiles walk 8 tile-rows at a time (session af, H100: uint8
// 65536x2049 1.36 -> 1.08x the copy, 131072x1025 1.78 -> 1.08x, float32 32768x4097 1.15
// -> 1.06x, bfloat16 0.7% faster; at 16384 rows 0.3-3% slower, at 8192 0.4-15%).
// GPUTRANSPOSE_TILE_GROUP overrides it for tuning experiments (benchmarks/README.md).
template <Access LOAD>
int64_t tile_group_rows(const TransposePlan& plan, int64_t tiles_r) {
  constexpr int64_t kUnalignedGroupRows = 8;
  constexpr int64_t kUnalignedGroupsFromRows = 32768;
  if (const int64_t forced = forced_tile_group_rows(); forced > 0) {
    return std::min(forced, tiles_r);
  }
  if (LOAD != Access::Aligned16 && plan.rows >= kUnalignedGroupsFromRows) {
    return std::min(kUnalignedGroupRows, tiles_r);
  }
  return tiles_r;
}

// Whether blocks walk the tile columns interleaved (TiledTransposeParams): where
// input rows lie an odd multiple of 128 KiB apart, the neighbouring columns in flight
// read the same part of every row, which the memory serves slowly (v34: float64
// 16384^2 1.051x the copy, 1.007x as a view of rows 1 KiB longer). Interleaved
// columns: 3-5% faster there, -0.4 to +1.4% on rows 256 or 512 KiB apart, and 1-4%
// slower on shorter rows. GPUTRANSPOSE_INTERLEAVE=0 or 1 overrides it for tuning
// experiments (benchmarks/README.md).
bool interleave_tile_columns(const TransposePlan& plan) {
  static const int64_t forced = tuning_knob("GPUTRANSPOSE_INTERLEAVE", -1);
  if (forced >= 0) return forced > 0;
  constexpr int64_t k128KiB = int64_t{128} << 10;
  return plan.rows > 1 && (plan.row_stride * plan.element_size) % (2 * k128KiB) == k128KiB;
}

// Whole matrices per tile where a tile holds several (a batch of small
// matrices): log2 of the smallest power-of-two sub-tile, of whole micro-blocks,
// that holds one matrix. {0, 0} where a tile holds at most one.
struct Fold {
  int sub_rows_log2 = 0;
  int sub_cols_log2 = 0;
  explicit operator bool() const { return sub_rows_log2 > 0; }
};

template <class Kernel>
Fold fold_small_matrices(const TransposePlan& plan) {
  if (plan.batch == 1 || plan.rows > Kernel::TR || plan.cols > Kernel::TC) {
    return {};
  }
  auto log2_fit = [](int64_t extent) {
    int log2 = 0;
    while ((int64_t{1} << log2) < std::max<int64_t>(extent, Kernel::M)) ++log2;
    return log2;
  };
  const Fold fold{log2_fit(plan.rows), log2_fit(plan.cols)};
  const bool several = (Kernel::TR >> fold.sub_rows_log2) * (Kernel::TC >> fold.sub_cols_log2) > 1;
  return several ? fold : Fold{};
}

// compute(device), worked out once per device (each caller's lambda, a type of
// its own, keeps its own values). `device` is the input's, which the caller's
// device guard has made current: asking the runtime again costs host time.
template <class Compute>
int64_t once_per_device(c10::DeviceIndex device, Compute compute) {
  static std::once_flag once[C10_COMPILE_TIME_MAX_GPUS];
  static int64_t values[C10_COMPILE_TIME_MAX_GPUS];
  std::call_once(once[device], [&] { values[device] = compute(device); });
  return values[device];
}

// Shared memory beyond the 48 KiB that every kernel may take must be opted into,
// once per device (a function attribute of the device's copy of the kernel).
template <class Kernel, class KernelFn>
void allow_shared_memory(KernelFn kernel, c10::DeviceIndex device) {
  if constexpr (Kernel::SMEM_TOTAL_BYTES > 48 * 1024) {
    once_per_device(device, [&](c10::DeviceIndex) {
      C10_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          Kernel::SMEM_TOTAL_BYTES));
      return int64_t{0};
    });
  }
}

// Blocks of `kernel` that the device holds at once (occupancy x SMs).
template <class Kernel, class KernelFn>
int64_t resident_blocks(KernelFn kernel, c10::DeviceIndex device) {
  return once_per_device(device, [&](c10::DeviceIndex device) {
    int per_sm = 0;
    C10_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernel, Kernel::THREADS, Kernel::SMEM_TOTAL_BYTES));
    return int64_t{per_sm} * at::cuda::getDeviceProperties(device)->multiProcessorCount;
  });
}

// The device's L2 cache, in bytes. GPUTRANSPOSE_L2_BYTES overrides it, so that
// tests and scripts/sanitize run the evict_last kernels and their releases
// (InputL2) on small inputs.
int64_t l2_cache_bytes(c10::DeviceIndex device) {
  static const int64_t forced = tuning_knob("GPUTRANSPOSE_L2_BYTES", 0);
  if (forced > 0) return forced;
  return once_per_device(device, [](c10::DeviceIndex device) {
    return int64_t{at::cuda::getDeviceProperties(device)->l2CacheSize};
  });
}

// Whether the input outgrows L2: the kernels that gain from it then read it at
// evict_last and release it at the end (InputL2 in tiled_transpose.cuh).
bool input_past_l2(const TransposePlan& plan, const at::Tensor& x) {
  return plan.batch * plan.rows * plan.cols * plan.element_size >
         l2_cache_bytes(x.device().index());
}

// Whether 2-byte rows that start anywhere and outgrow L2 are staged, as 1-byte
// rows are, rather than read as shifted words: where the memory is under 4 TB/s.
// On an H100 (3.35 TB/s) staging them is 2-8% faster from 64 MiB up under skewed
// stores (v58: bfloat16 8191x8193 1.070 -> 1.048x the copy, 16383x16385 1.160 ->
// 1.075x), 1.3% under aligned stores (v63: the 8192x8209[:, :-17] slices), and
// 2-10% slower where the input fits in L2 (v56). The gain is the staging
// copies' 256-byte L2 prefetch, which sends 26% more sectors across the link
// between L2's halves, the link that bounds a copy on faster memory (v16, H200:
// 4.8 TB/s); there staged 2-byte rows lost 5% (v9, v13, v15; earlier staging rows) and
// so did the prefetch on 2-byte word loads (v18), so faster memory keeps the words.
// GPUTRANSPOSE_STAGED_2_BYTE=0 or 1 overrides the rule for tests and tuning.
bool stages_2_byte_rows(c10::DeviceIndex device) {
  static const int64_t forced = tuning_knob("GPUTRANSPOSE_STAGED_2_BYTE", -1);
  if (forced >= 0) return forced > 0;
  return once_per_device(device, [](c10::DeviceIndex device) {
    int clock_khz = 0, bus_bits = 0;
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    const double bytes_per_s = 2.0 * 1e3 * clock_khz * (bus_bits / 8);  // double data rate
    return int64_t{bytes_per_s > 0 && bytes_per_s < 4e12};
  });
}

// InputL2::EvictLast: the first block (in launch order) that releases its input
// lines. Lines at evict_last outlast plain ones in L2 (the last 1.5x L2 of input read
// plain instead left the next kernel 8-10% slower) but give way to later evict_last
// lines: releases by the blocks that read the input's last quarter of an L2 left L2
// as a copy leaves it for every dtype and shape measured (v39). These are the blocks
// of the last half, twice that; the earlier blocks' releases cost 0.3-1.1%.
int64_t first_releasing_tile(int64_t tiles, int64_t tile_bytes, const at::Tensor& x) {
  const int64_t window = l2_cache_bytes(x.device().index()) / 2;
  return std::max<int64_t>(0, tiles - (window + tile_bytes - 1) / tile_bytes);
}

// The first matrix whose last row ends within 16 bytes of the input's end, where an
// unaligned row's last chunk (staged), or word, could reach past it: matrix b's last row
// ends (batch - 1 - b) x batch_stride bytes before the input's, so only the last one
// unless batches overlap, lying under 16 bytes apart (TiledTransposeParams).
int64_t first_matrix_near_end(const TransposePlan& plan) {
  const int64_t apart = plan.batch_stride * plan.element_size;  // > 0 where batch > 1
  const int64_t near_end = plan.batch == 1 || apart >= 16 ? 1 : std::min(plan.batch, 15 / apart + 1);
  return plan.batch - near_end;
}

template <int E, Access LOAD, Access STORE, Tiling TILING, InputL2 L2 = InputL2::Normal>
void launch_tiled(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out, Fold fold,
                  cudaStream_t stream) {
  using Kernel = TiledTranspose<E, LOAD, STORE, TILING, L2>;
  TiledTransposeParams params;
  params.in = static_cast<const char*>(x.const_data_ptr());
  params.in_end = params.in + ((plan.batch - 1) * plan.batch_stride +
                                (plan.rows - 1) * plan.row_stride + plan.cols) *
                                   plan.element_size;
  params.out = static_cast<char*>(out.data_ptr());
  params.batch = plan.batch;
  params.rows = plan.rows;
  params.cols = plan.cols;
  params.batch_stride = plan.batch_stride;
  params.row_stride = plan.row_stride;
  params.tiles_r = Kernel::tiles_along_rows(plan.rows);
  params.tiles_c = Kernel::tiles_along_cols(plan.cols);
  const int64_t group = tile_group_rows<LOAD>(plan, params.tiles_r);
  params.sub_rows_log2 = fold.sub_rows_log2;
  params.sub_cols_log2 = fold.sub_cols_log2;
  int64_t tiles = Kernel::tiles_of(plan.batch, plan.rows, plan.cols);
  if (TILING == Tiling::Folded) {
    const int64_t per_tile =
        (Kernel::TR >> fold.sub_rows_log2) * (Kernel::TC >> fold.sub_cols_log2);
    tiles = (plan.batch + per_tile - 1) / per_tile;
  }
  TORCH_CHECK(tiles <= std::numeric_limits<int32_t>::max(),
              "gputranspose.transpose: tensor too large for one launch (", tiles, " tiles)");
  // Each divisor is at most `tiles` (< 2^31) and at least 1.
  const int64_t groups = (params.tiles_r + group - 1) / group;
  params.matrix_tiles = FastDivider(static_cast<uint32_t>(params.tiles_r * params.tiles_c));
  params.group_tiles = FastDivider(static_cast<uint32_t>(group * params.tiles_c));
  params.group_rows = FastDivider(static_cast<uint32_t>(group));
  params.last_group_rows = FastDivider(static_cast<uint32_t>(params.tiles_r - (groups - 1) * group));
  const bool interleave = interleave_tile_columns(plan);  // Folded tiles never walk columns
  params.interleave_shift = interleave ? 1 : 0;
  params.interleave_half = interleave ? static_cast<uint32_t>((params.tiles_c + 1) / 2) : 0;
  params.release_from = static_cast<uint32_t>(
      L2 == InputL2::EvictLast ? first_releasing_tile(tiles, Kernel::TR * Kernel::TC * E, x) : 0);
  params.first_matrix_near_end = static_cast<uint32_t>(first_matrix_near_end(plan));
  const auto kernel = tiled_transpose_kernel<E, LOAD, STORE, TILING, L2>;
  allow_shared_memory<Kernel>(kernel, x.device().index());
  kernel<<<static_cast<unsigned>(tiles), Kernel::THREADS, Kernel::SMEM_TOTAL_BYTES, stream>>>(params);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// Whether the output's rows take aligned stores. An aligned tile writes its part
// of each output row as whole 16-byte chunks from the part's first byte, so where
// rows start 16 bytes into a 32-byte sector and run across several tiles, the
// tiles on either side of each boundary write half a sector each, which the L2
// takes slowly: uint8 8208x8192 1.31x the copy, against 1.07x through skewed
// tiles, whose write windows start on sectors (bfloat16 8200x8192 -3%, float32
// 8196x8192 -4%, float64 8194x8192 -1%; complex128 level, so 16-byte elements,
// whose stores are never skewed, keep aligned tiles). A row inside one tile
// (rows <= TR: one tile-row, or several matrices a tile) is written whole by one
// block and keeps them too.
template <int E>
bool aligned_stores(const TransposePlan& plan, const at::Tensor& out) {
  using Aligned = TiledTranspose<E, Access::Aligned16, Access::Aligned16, Tiling::Wide>;
  if (plan.store_bytes != 16) return false;
  if (E == 16 || plan.rows <= Aligned::TR) return true;
  const auto address = reinterpret_cast<uintptr_t>(out.const_data_ptr());
  return address % 32 == 0 && (plan.rows * E) % 32 == 0;
}

// One-matrix tiles (Tiling::Wide), their input read at evict_last where it is larger
// than L2 and the kernel is one of reads_evict_last's (InputL2).
template <int E, Access LOAD, Access STORE>
void launch_one_matrix(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out,
                       bool input_past_l2, cudaStream_t stream) {
  if constexpr (reads_evict_last<E, LOAD, STORE>()) {
    if (input_past_l2) {
      return launch_tiled<E, LOAD, STORE, Tiling::Wide, InputL2::EvictLast>(plan, x, out, {}, stream);
    }
  }
  return launch_tiled<E, LOAD, STORE, Tiling::Wide>(plan, x, out, {}, stream);
}

// Whether rows that start anywhere, under aligned stores, take tall tiles (Tiling::Tall,
// for the kernels of has_tall_tile): where the output's rows are 16384 elements or
// longer. Tall tiles write output runs twice as long: 0.3-4.7% faster from 16384 rows up
// (v78, v79: 16384x16401[:, :-17], 32768x4097, 65536x2049), 0.3-0.6% slower at 8192 rows
// and below (v78: the suite's slices, 4096x32769).
bool tall_tiles(const TransposePlan& plan) { return plan.rows >= 16384; }

// Rows that start anywhere, read as LOAD, under aligned (store16) or skewed stores.
template <int E, Access LOAD>
void launch_unaligned_loads(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out,
                            bool store16, bool past_l2, cudaStream_t stream) {
  if constexpr (has_tall_tile<E, LOAD>()) {
    if (store16 && tall_tiles(plan)) {
      return launch_tiled<E, LOAD, Access::Aligned16, Tiling::Tall>(plan, x, out, {}, stream);
    }
  }
  if (store16) return launch_one_matrix<E, LOAD, Access::Aligned16>(plan, x, out, past_l2, stream);
  return launch_one_matrix<E, LOAD, Access::Words>(plan, x, out, past_l2, stream);
}

// The one place that maps a plan to a kernel instance: element size x how each
// side's rows are aligned x which tile (several small matrices a tile, or for 1-
// and 16-byte elements small tiles where they all fit on the GPU at once, or for
// rows that start anywhere tall tiles where the output's rows are long
// (launch_unaligned_loads); Tiling in tiled_transpose.cuh) x, for one-matrix tiles,
// the L2 priority of the input's lines (InputL2, launch_one_matrix).
// Unaligned 1-byte rows are staged in shared memory (their word-shifted loads
// spread each warp request over four rows: 8191x8193 uint8 14% faster staged),
// wider ones are read as words (staging made them 3-28% slower: its barrier
// and shared memory cost more than the requests it saves; bf16 slices still 2%
// slower with v13's one-word pieces), but for 2-byte rows past L2 on memory
// under 4 TB/s (stages_2_byte_rows).
template <int E>
void launch_tiled_for_alignment(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out,
                                cudaStream_t stream) {
  const c10::DeviceIndex device = x.device().index();
  const bool load16 = plan.load_bytes == 16;
  const bool store16 = aligned_stores<E>(plan, out);
  const bool past_l2 = input_past_l2(plan, x);
  constexpr auto A16 = Access::Aligned16;
  constexpr auto W = Access::Words;
  constexpr auto UNALIGNED_LOAD = E == 1 ? Access::Staged : Access::Words;
  if (load16 && store16) {
    using Folded = TiledTranspose<E, A16, A16, Tiling::Folded>;
    if (const Fold fold = fold_small_matrices<Folded>(plan)) {
      return launch_tiled<E, A16, A16, Tiling::Folded>(plan, x, out, fold, stream);
    }
    if constexpr (E == 1 || E == 16) {
      constexpr auto SMALL = Tiling::Small;
      using Small = TiledTranspose<E, A16, A16, SMALL>;
      if (Small::tiles_of(plan.batch, plan.rows, plan.cols) <=
          resident_blocks<Small>(tiled_transpose_kernel<E, A16, A16, SMALL>, device)) {
        return launch_tiled<E, A16, A16, SMALL>(plan, x, out, {}, stream);
      }
    }
    return launch_one_matrix<E, A16, A16>(plan, x, out, past_l2, stream);
  }
  if (load16) return launch_one_matrix<E, A16, W>(plan, x, out, past_l2, stream);
  if constexpr (E == 2) {
    if (past_l2 && stages_2_byte_rows(device)) {
      return launch_unaligned_loads<E, Access::Staged>(plan, x, out, store16, past_l2, stream);
    }
  }
  return launch_unaligned_loads<E, UNALIGNED_LOAD>(plan, x, out, store16, past_l2, stream);
}

void launch_tiled_transpose(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out,
                            cudaStream_t stream) {
  switch (plan.element_size) {
    case 1:
      return launch_tiled_for_alignment<1>(plan, x, out, stream);
    case 2:
      return launch_tiled_for_alignment<2>(plan, x, out, stream);
    case 4:
      return launch_tiled_for_alignment<4>(plan, x, out, stream);
    case 8:
      return launch_tiled_for_alignment<8>(plan, x, out, stream);
    case 16:
      return launch_tiled_for_alignment<16>(plan, x, out, stream);
    default:
      TORCH_CHECK(false, "gputranspose.transpose: no kernel for ", plan.element_size,
                  "-byte elements");
  }
}

template <int THREADS, int K, bool EVICT_LAST>
void launch_wide_elements(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out,
                          int rows_log2, cudaStream_t stream) {
  using Tile = WideElementTile;
  const int64_t element_units = plan.element_size / 16;
  WideElementParams params;
  params.in = static_cast<const uint4*>(x.const_data_ptr());
  params.out = static_cast<uint4*>(out.data_ptr());
  params.batch_stride = plan.batch_stride * element_units;
  params.row_stride = plan.row_stride * element_units;
  params.out_row_units = static_cast<uint32_t>(plan.rows * element_units);
  params.out_rows = static_cast<uint32_t>(plan.batch * plan.cols);
  params.rows_log2 = rows_log2;
  params.row_groups = static_cast<uint32_t>(
      (int64_t{params.out_rows} + (int64_t{1} << params.rows_log2) - 1) >> params.rows_log2);
  params.element_units = FastDivider(static_cast<uint32_t>(element_units));
  params.cols = FastDivider(static_cast<uint32_t>(plan.cols));
  const int64_t span = (THREADS * K) >> params.rows_log2;
  const int64_t spans = (params.out_row_units + span - 1) / span;
  const int64_t tiles = spans * params.row_groups;
  // Past 2^31 tiles (4 TiB of elements or more: 2 to 8 KiB a tile) the 32-bit walk would
  // not reach them all.
  TORCH_CHECK(tiles < (int64_t{1} << 31), "gputranspose.transpose: ", tiles,
              " tiles of wide elements exceed the kernel's 2^31");
  const bool patches = plan.row_stride * plan.element_size >= Tile::PATCH_PITCH_BYTES;
  params.patch_groups =
      static_cast<uint32_t>(std::min<int64_t>(patches ? Tile::PATCH_GROUPS : 1, params.row_groups));
  params.patch_blocks = FastDivider(static_cast<uint32_t>(spans * params.patch_groups));
  params.release_from = static_cast<uint32_t>(
      EVICT_LAST ? first_releasing_tile(tiles, int64_t{THREADS} * K * 16, x) : 0);
  wide_element_transpose_kernel<THREADS, K, EVICT_LAST>
      <<<static_cast<unsigned>(tiles), THREADS, 0, stream>>>(params);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <int UNITS, bool EVICT_LAST>
void launch_wide_tile(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out,
                      int rows_log2, cudaStream_t stream) {
  constexpr int THREADS = WideElementTile::threads(UNITS);
  return launch_wide_elements<THREADS, UNITS / THREADS, EVICT_LAST>(plan, x, out, rows_log2, stream);
}

// The tile (WideElementTile::units) x, for inputs larger than L2, evict_last loads.
template <bool EVICT_LAST>
void launch_wide_for_l2(const TransposePlan& plan, const at::Tensor& x, at::Tensor& out,
                        cudaStream_t stream) {
  const int rows_log2 = WideElementTile::rows_log2(plan.element_size);
  switch (WideElementTile::units(rows_log2)) {
    case 128:
      return launch_wide_tile<128, EVICT_LAST>(plan, x, out, rows_log2, stream);
    case 256:
      return launch_wide_tile<256, EVICT_LAST>(plan, x, out, rows_log2, stream);
    case 512:
      return launch_wide_tile<512, EVICT_LAST>(plan, x, out, rows_log2, stream);
    default:
      TORCH_CHECK(false, "gputranspose.transpose: no wide-element tile for ", plan.element_size,
                  "-byte elements");
  }
}

void launch_wide_element_transpose(const TransposePlan& plan, const at::Tensor& x,
                                   at::Tensor& out, cudaStream_t stream) {
  if (input_past_l2(plan, x)) {
    return launch_wide_for_l2<true>(plan, x, out, stream);
  }
  return launch_wide_for_l2<false>(plan, x, out, stream);
}

int64_t pointer_alignment(const void* ptr) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  int64_t alignment = 256;
  while (alignment > 1 && address % alignment != 0) alignment /= 2;
  return alignment;
}

// Writes x.transpose(dim0, dim1) into the contiguous `out` (already checked).
void transpose_into(const at::Tensor& x, int64_t dim0, int64_t dim1, const TransposeDims& dims,
                    at::Tensor& out) {
  const TransposePlan plan =
      plan_transpose(x, dim0, dim1, pointer_alignment(out.const_data_ptr()));
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream(x.device().index());
  switch (plan.path) {
    case TransposePath::Empty:
      return;
    case TransposePath::Memcpy:
      C10_CUDA_CHECK(cudaMemcpyAsync(out.data_ptr(), x.const_data_ptr(),
                                     x.numel() * x.element_size(), cudaMemcpyDeviceToDevice,
                                     stream));
      return;
    case TransposePath::TiledContiguous:
    case TransposePath::TiledRowStrided:
      return launch_tiled_transpose(plan, x, out, stream);
    case TransposePath::WideElements:
      return launch_wide_element_transpose(plan, x, out, stream);
    case TransposePath::AtenFallback:
      out.copy_(transposed_view(x, dims));
      return;
  }
}

// Small tensors are bound by the host's work per call, so the common path makes
// no intermediate tensors (no transposed view: the sizes are swapped in place)
// and allocates its output directly, as ATen's structured CUDA kernels do (not
// through at::empty's dispatch; every byte of it is written below).
at::Tensor transpose_cuda(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  const c10::cuda::CUDAGuard device_guard(x.device());
  c10::SmallVector<int64_t, 8> sizes(x.sizes().begin(), x.sizes().end());
  if (!dims.copy_only) {
    std::swap(sizes[dims.dim0], sizes[dims.dim1]);
  }
  at::Tensor out =
      at::detail::empty_cuda(sizes, x.scalar_type(), x.device(), at::MemoryFormat::Contiguous);
  transpose_into(x, dim0, dim1, dims, out);
  return out;
}

void transpose_out_cuda(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  check_and_prepare_out(x, transposed_view(x, dims), out);
  const c10::cuda::CUDAGuard device_guard(x.device());
  transpose_into(x, dim0, dim1, dims, out);
}

}  // namespace
}  // namespace cuda

bool has_cuda_kernels() {
  return true;
}

#define GPUTRANSPOSE_STRINGIFY_(...) #__VA_ARGS__
#define GPUTRANSPOSE_STRINGIFY(...) GPUTRANSPOSE_STRINGIFY_(__VA_ARGS__)
const char* cuda_arch_list() {
  // nvcc lists the architectures of this compilation, e.g. "800,900".
  return GPUTRANSPOSE_STRINGIFY(__CUDA_ARCH_LIST__);
}

TORCH_LIBRARY_IMPL(gputranspose, CUDA, m) {
  m.impl("transpose", &cuda::transpose_cuda);
  m.impl("transpose.out", &cuda::transpose_out_cuda);
}

}  // namespace gputranspose
