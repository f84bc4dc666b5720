// Launches of the batched-small kernel (batched_small_transpose.cuh): a chunk of whole
// matrices a block, as the KernelChoice sizes it.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "batched_small_transpose.cuh"
#include "ptx.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <int E>
cudaError_t launch_batched_small_of(const TransposePlan& plan, const KernelChoice& choice,
                                    const void* in, void* out, cudaStream_t stream) {
  const BatchedSmallParams params = batched_small_params(plan, choice.chunk_bytes, in, out);
  const dim3 grid(static_cast<unsigned>(choice.blocks));
  if (choice.rows_apart) {
    batched_small_transpose_kernel<true, typename Bytes<E>::type>
        <<<grid, kBatchedSmallThreads, choice.shared_bytes, stream>>>(params);
  } else {
    batched_small_transpose_kernel<false, typename Bytes<E>::type>
        <<<grid, kBatchedSmallThreads, choice.shared_bytes, stream>>>(params);
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_batched_small(const TransposePlan& plan, const KernelChoice& choice,
                                 const void* in, void* out, cudaStream_t stream) {
  switch (choice.element_size) {
    case 1:
      return launch_batched_small_of<1>(plan, choice, in, out, stream);
    case 2:
      return launch_batched_small_of<2>(plan, choice, in, out, stream);
    case 4:
      return launch_batched_small_of<4>(plan, choice, in, out, stream);
    case 8:
      return launch_batched_small_of<8>(plan, choice, in, out, stream);
    case 16:
      return launch_batched_small_of<16>(plan, choice, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
