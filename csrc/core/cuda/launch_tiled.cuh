#pragma once
// Launches of the tiled kernel: the instance a KernelChoice names, its parameters worked
// out from the plan (geometry only: every decision is in the choice). Each element size
// is compiled in a .cu file of its own (launch_tiled_<E>.cu), so the instances build in
// parallel.

#include "../kernel_choice.h"
#include "../launch.h"
#include "../layout_plan.h"
#include "tiled_transpose.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>

namespace gputranspose {
namespace cuda {

// Shared memory beyond the 48 KiB that every kernel may take must be opted into, once
// per device (a function attribute of the device's copy of the kernel).
template <class Config, class KernelFn>
cudaError_t allow_shared_memory(KernelFn kernel, int device) {
  if constexpr (Config::SMEM_TOTAL_BYTES > 48 * 1024) {
    static std::once_flag once[kMaxCudaDevices];
    static cudaError_t result[kMaxCudaDevices];
    std::call_once(once[device], [&] {
      result[device] = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            Config::SMEM_TOTAL_BYTES);
    });
    return result[device];
  } else {
    return cudaSuccess;
  }
}

// The first matrix whose last row ends within 16 bytes of the input's end, where an
// unaligned row's last chunk (staged), or word, could reach past it: matrix b's last row
// ends (batch - 1 - b) x batch_stride bytes before the input's, so only the last one
// unless batches overlap, lying under 16 bytes apart. With outer batch dims any matrix
// may hold the input's last row: all of them.
inline int64_t first_matrix_near_end(const TransposePlan& plan) {
  if (plan.outer_dims > 0) return 0;
  const int64_t apart = plan.batch_stride * plan.element_size;  // > 0 where batch > 1
  const int64_t near_end =
      plan.batch == 1 || apart >= 16 ? 1 : std::min(plan.batch, 15 / apart + 1);
  return plan.batch - near_end;
}

// One past the input's last element, in elements from its first.
inline int64_t input_extent(const TransposePlan& plan) {
  int64_t last = (plan.batch - 1) * plan.batch_stride + (plan.rows - 1) * plan.row_stride;
  for (int d = 0; d < plan.outer_dims; ++d) {
    last += (plan.outer_sizes[d] - 1) * plan.outer_strides[d];
  }
  return last + plan.cols;
}

template <class Config>
cudaError_t launch_tiled_instance(const TransposePlan& plan, const KernelChoice& choice,
                                  const void* in, void* out, int device, cudaStream_t stream) {
  TiledTransposeParams params;
  params.in = static_cast<const char*>(in);
  params.in_end = params.in + input_extent(plan) * plan.element_size;
  params.out = static_cast<char*>(out);
  params.batch = plan.batch;
  params.rows = plan.rows;
  params.cols = plan.cols;
  params.batch_stride = plan.batch_stride;
  params.row_stride = plan.row_stride;
  params.out_batch_stride = plan.out_batch_stride;
  params.out_row_stride = plan.out_row_stride;
  params.outer = outer_batch(plan, plan.element_size, plan.element_size);
  params.tiles_r = Config::tiles_along_rows(plan.rows);
  const int64_t tiles_c = Config::tiles_along_cols(plan.cols);
  const int64_t group = choice.group_rows;
  params.sub_rows_log2 = choice.fold_rows_log2;
  params.sub_cols_log2 = choice.fold_cols_log2;
  // Each divisor is at most the tiles (< 2^31) and at least 1.
  const int64_t groups = (params.tiles_r + group - 1) / group;
  params.matrix_tiles = FastDivider(static_cast<uint32_t>(params.tiles_r * tiles_c));
  params.group_tiles = FastDivider(static_cast<uint32_t>(group * tiles_c));
  params.group_rows = FastDivider(static_cast<uint32_t>(group));
  params.last_group_rows =
      FastDivider(static_cast<uint32_t>(params.tiles_r - (groups - 1) * group));
  params.interleave_shift = choice.interleave ? 1 : 0;
  params.interleave_half = choice.interleave ? static_cast<uint32_t>((tiles_c + 1) / 2) : 0;
  params.release_from = static_cast<uint32_t>(choice.release_from);
  params.first_matrix_near_end = static_cast<uint32_t>(first_matrix_near_end(plan));
  const auto kernel =
      tiled_transpose_kernel<Config::ELEMENT_SIZE, Config::LOAD_ACCESS, Config::STORE_ACCESS,
                             Config::TILING_KIND, Config::INPUT_L2>;
  if (const cudaError_t error = allow_shared_memory<Config>(kernel, device); error != cudaSuccess) {
    return error;
  }
  kernel<<<outer_grid(choice.blocks / plan.outer_count, plan.outer_count), Config::THREADS,
           Config::SMEM_TOTAL_BYTES, stream>>>(params);
  return cudaGetLastError();
}

template <int E>
cudaError_t launch_tiled(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                         void* out, int device, cudaStream_t stream) {
  cudaError_t error = cudaErrorNotSupported;
  visit_tiled_config<E>(choice.load, choice.store, choice.tiling, choice.input_l2,
                        [&](auto config) {
                          error = launch_tiled_instance<decltype(config)>(plan, choice, in, out,
                                                                          device, stream);
                        });
  return error;
}

// Blocks per SM of the small-tile kernel of E-byte elements (1 and 16 only).
template <int E>
cudaError_t small_tile_blocks_per_sm(int* blocks) {
  using Config = TiledConfig<E, Access::Aligned16, Access::Aligned16, Tiling::Small>;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      blocks,
      tiled_transpose_kernel<E, Access::Aligned16, Access::Aligned16, Tiling::Small,
                             InputL2::Normal>,
      Config::THREADS, Config::SMEM_TOTAL_BYTES);
}

#define GPUTRANSPOSE_INSTANTIATE_LAUNCH_TILED(E)                                           \
  template cudaError_t launch_tiled<E>(const TransposePlan&, const KernelChoice&,          \
                                       const void*, void*, int, cudaStream_t);

}  // namespace cuda
}  // namespace gputranspose
