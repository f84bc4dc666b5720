#pragma once
// L2 priority hints shared by the kernels that read their input at evict_last and
// release it after use (InputL2 in tiled_transpose.cuh says why and where).

#include <cstdint>

namespace gputranspose {
namespace cuda {

__device__ __forceinline__ uint64_t evict_last_policy() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// The L2 line (128 bytes) at `line` (128-byte aligned) back to evict_normal.
__device__ __forceinline__ void release_line(const char* line) {
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(line) : "memory");
}

}  // namespace cuda
}  // namespace gputranspose
