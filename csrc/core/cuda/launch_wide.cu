// Launches of the wide-element kernel: the tile a KernelChoice names, its parameters
// worked out from the plan.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "wide_element_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <int THREADS, int K, bool EVICT_LAST>
cudaError_t launch_wide_tile(const TransposePlan& plan, const KernelChoice& choice,
                             const void* in, void* out, cudaStream_t stream) {
  const int64_t element_units = plan.element_size / 16;
  // The input's strides count elements or values (plan.stride_unit), each on 16 bytes.
  WideElementParams params;
  params.in = static_cast<const uint4*>(in);
  params.out = static_cast<uint4*>(out);
  params.batch_stride = plan.batch_stride * plan.stride_unit / 16;
  params.row_stride = plan.row_stride * plan.stride_unit / 16;
  params.col_stride = plan.col_stride * plan.stride_unit / 16;
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
  const int64_t span = (THREADS * K) >> params.rows_log2;
  const int64_t spans = (params.out_row_units + span - 1) / span;
  params.patch_groups = static_cast<uint32_t>(choice.patch_groups);
  params.patch_blocks = FastDivider(static_cast<uint32_t>(spans * params.patch_groups));
  params.release_from = static_cast<uint32_t>(choice.release_from);
  wide_element_transpose_kernel<THREADS, K, EVICT_LAST>
      <<<outer_grid(choice.blocks / plan.outer_count, plan.outer_count), THREADS, 0, stream>>>(
          params);
  return cudaGetLastError();
}

template <int UNITS, bool EVICT_LAST>
cudaError_t launch_units(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                         void* out, cudaStream_t stream) {
  constexpr int THREADS = WideElementTile::threads(UNITS);
  return launch_wide_tile<THREADS, UNITS / THREADS, EVICT_LAST>(plan, choice, in, out, stream);
}

template <bool EVICT_LAST>
cudaError_t launch_for_l2(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                          void* out, cudaStream_t stream) {
  switch (choice.tile_rows * choice.tile_cols) {
    case 128:
      return launch_units<128, EVICT_LAST>(plan, choice, in, out, stream);
    case 256:
      return launch_units<256, EVICT_LAST>(plan, choice, in, out, stream);
    case 512:
      return launch_units<512, EVICT_LAST>(plan, choice, in, out, stream);
    default:
      return cudaErrorNotSupported;
  }
}

}  // namespace

cudaError_t launch_wide_elements(const TransposePlan& plan, const KernelChoice& choice,
                                 const void* in, void* out, cudaStream_t stream) {
  if (choice.input_l2 == InputL2::EvictLast) {
    return launch_for_l2<true>(plan, choice, in, out, stream);
  }
  return launch_for_l2<false>(plan, choice, in, out, stream);
}

}  // namespace cuda
}  // namespace gputranspose
