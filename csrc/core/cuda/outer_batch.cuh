#pragma once
// A permutation's batch dims beyond the kernels' first (TransposePlan's outer dims): the
// grid's y and z dims count the outer batches, and each block adds its batch's offsets to
// its input and output pointers once, so that the kernels' walk and per-element index math
// stay those of a plain batch of transposes.

#include "../layout_plan.h"
#include "fast_divider.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace gputranspose {
namespace cuda {

struct OuterBatch {
  int dims;  // 0: none (a plain batch of transposes)
  FastDivider sizes[kMaxOuterDims];
  int64_t in_strides[kMaxOuterDims];   // bytes
  int64_t out_strides[kMaxOuterDims];  // bytes
};

// `in_unit_bytes`, `out_unit_bytes`: the bytes one unit of the plan's input and output
// strides spans (the element, or a value for strided elements' input strides).
inline OuterBatch outer_batch(const TransposePlan& plan, int64_t in_unit_bytes,
                              int64_t out_unit_bytes) {
  OuterBatch o;
  o.dims = plan.outer_dims;
  for (int d = 0; d < kMaxOuterDims; ++d) {
    const bool used = d < plan.outer_dims;
    o.sizes[d] = FastDivider(used ? static_cast<uint32_t>(plan.outer_sizes[d]) : 1u);
    o.in_strides[d] = used ? plan.outer_strides[d] * in_unit_bytes : 0;
    o.out_strides[d] = used ? plan.outer_out_strides[d] * out_unit_bytes : 0;
  }
  return o;
}

// The grid: `blocks` along x for each outer batch, the batches along y (and z past 65535).
inline dim3 outer_grid(int64_t blocks, int64_t outer_count) {
  constexpr int64_t kMaxY = 65535;
  const int64_t y = std::min(outer_count, kMaxY);
  return dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(y),
              static_cast<unsigned>((outer_count + y - 1) / y));
}

#if defined(__CUDACC__)
#define GPUTRANSPOSE_OUTER_FN __host__ __device__ __forceinline__
#else
#define GPUTRANSPOSE_OUTER_FN inline
#endif

// Adds outer batch `index`'s offsets to `in` and `out`; false where `index` lies past the
// last batch. Host-callable, so that the host kernel tests run the device's arithmetic.
template <class In, class Out>
GPUTRANSPOSE_OUTER_FN bool add_outer_offsets_of(const OuterBatch& o, uint32_t index, In& in,
                                                Out& out) {
  int64_t in_bytes = 0;
  int64_t out_bytes = 0;
#pragma unroll
  for (int d = 0; d < kMaxOuterDims; ++d) {
    if (d < o.dims) {
      const uint32_t next = o.sizes[d].div(index);
      const uint32_t i = index - next * o.sizes[d].divisor;
      in_bytes += int64_t{i} * o.in_strides[d];
      out_bytes += int64_t{i} * o.out_strides[d];
      index = next;
    }
  }
  in = reinterpret_cast<In>(reinterpret_cast<const char*>(in) + in_bytes);
  out = reinterpret_cast<Out>(reinterpret_cast<char*>(out) + out_bytes);
  return index == 0;
}

#undef GPUTRANSPOSE_OUTER_FN

#if defined(__CUDACC__)
// Adds this block's outer batch offsets to `in` and `out`; false for the blocks of the
// last grid z-slice that lie past the last batch.
template <class In, class Out>
__device__ __forceinline__ bool add_outer_offsets(const OuterBatch& o, In& in, Out& out) {
  if (o.dims == 0) return true;
  return add_outer_offsets_of(o, blockIdx.y + gridDim.y * blockIdx.z, in, out);
}
#endif

}  // namespace cuda
}  // namespace gputranspose
