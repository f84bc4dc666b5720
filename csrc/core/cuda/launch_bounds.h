#pragma once
// The blocks an SM that a kernel's __launch_bounds__ asks ptxas for. The SMs of sm_86,
// sm_87, sm_89 and sm_120 hold 1536 threads: a request past that is out of their range
// (ptxas warns and ignores it). There a kernel asks for `blocks_on_1536`, or, without one,
// for one block where `blocks` would not fit: the freedom ptxas took when it ignored them.

namespace gputranspose {
namespace cuda {

constexpr bool sm_of_1536_threads() {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 1200 || __CUDA_ARCH__ == 860 || \
                               __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
  return true;
#else
  return false;
#endif
}

constexpr int min_blocks_per_sm(int threads, int blocks) {
  return sm_of_1536_threads() && threads * blocks > 1536 ? 1 : blocks;
}

constexpr int min_blocks_per_sm(int threads, int blocks, int blocks_on_1536) {
  return sm_of_1536_threads() ? blocks_on_1536 : min_blocks_per_sm(threads, blocks);
}

}  // namespace cuda
}  // namespace gputranspose
