// Launches of the element-runs kernel (element_runs_transpose.cuh): a chunk of an output row
// a block, as the KernelChoice sizes it.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "element_runs_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

cudaError_t launch_element_runs(const TransposePlan& plan, const KernelChoice& choice,
                                const void* in, void* out, cudaStream_t stream) {
  const ElementRunsParams params = element_runs_params(plan, choice, in, out);
  element_runs_transpose_kernel<<<outer_grid(choice.blocks / plan.outer_count, plan.outer_count),
                                  kElementRunsThreads, 0, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace gputranspose
