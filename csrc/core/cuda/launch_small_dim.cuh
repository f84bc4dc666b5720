#pragma once
// Launches of the small-dim kernel (small_dim_transpose.cuh): its parameters from the plan
// and the KernelChoice's short side. One translation unit per element size
// (launch_small_dim_<E>.cu) keeps the build parallel.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "small_dim_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

template <int E, int S, bool SHORT_INPUT_ROWS, bool LONG_ALIGNED>
cudaError_t launch_small_dim_instance(const SmallDimParams& params, int64_t blocks,
                                      int64_t outer_count, cudaStream_t stream) {
  const int shared = (kSmallDimThreads / 32) * staged_vectors_per_warp<S>() *
                     static_cast<int>(sizeof(uint4));
  small_dim_transpose_kernel<E, S, SHORT_INPUT_ROWS, LONG_ALIGNED>
      <<<outer_grid(blocks, outer_count), kSmallDimThreads, shared, stream>>>(params);
  return cudaGetLastError();
}

template <int E, int S>
cudaError_t launch_small_dim_of(const KernelChoice& choice, const SmallDimParams& params,
                                int64_t blocks, int64_t outer_count, cudaStream_t stream) {
  if constexpr (S > kMaxSmallDim) {
    return cudaErrorNotSupported;
  } else {
    if (choice.short_side != S) {
      return launch_small_dim_of<E, S + 1>(choice, params, blocks, outer_count, stream);
    }
    const bool aligned = choice.long_rows_aligned;
    if (choice.short_input_rows) {
      return aligned ? launch_small_dim_instance<E, S, true, true>(params, blocks, outer_count, stream)
                     : launch_small_dim_instance<E, S, true, false>(params, blocks, outer_count, stream);
    }
    return aligned ? launch_small_dim_instance<E, S, false, true>(params, blocks, outer_count, stream)
                   : launch_small_dim_instance<E, S, false, false>(params, blocks, outer_count, stream);
  }
}

template <int E>
cudaError_t launch_small_dim(const TransposePlan& plan, const KernelChoice& choice,
                             const void* in, void* out, cudaStream_t stream) {
  SmallDimParams params;
  params.in = static_cast<const char*>(in);
  params.out = static_cast<char*>(out);
  params.batch_stride = plan.batch_stride * E;
  params.row_stride = plan.row_stride * E;
  params.out_batch_stride = plan.out_batch_stride * E;
  params.out_row_stride = plan.out_row_stride * E;
  const int64_t long_len = choice.short_input_rows ? plan.rows : plan.cols;
  const int64_t matrix_groups = (long_len + 16 / E - 1) / (16 / E);
  params.long_len = static_cast<uint32_t>(long_len);
  params.groups = static_cast<uint32_t>(plan.batch * matrix_groups);
  params.matrix_groups = FastDivider(static_cast<uint32_t>(matrix_groups));
  params.outer = outer_batch(plan, E, E);
  return launch_small_dim_of<E, 2>(choice, params, choice.blocks / plan.outer_count,
                                   plan.outer_count, stream);
}

#define GPUTRANSPOSE_INSTANTIATE_LAUNCH_SMALL_DIM(E)                                      \
  template cudaError_t launch_small_dim<E>(const TransposePlan&, const KernelChoice&,      \
                                           const void*, void*, cudaStream_t);

}  // namespace cuda
}  // namespace gputranspose
