// Launches of the unit-tiled kernel: its parameters worked out from the plan and the
// tile that the KernelChoice names.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "unit_tiled_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <int U, bool WORDS, bool ONE_UNIT = false>
cudaError_t launch_units_of(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                            void* out, cudaStream_t stream) {
  const UnitTiledParams params = unit_tiled_params(plan, choice, in, out);
  // Tiles stay within the 48 KiB every kernel may take (kernel_choice.cpp).
  unit_tiled_transpose_kernel<U, WORDS, ONE_UNIT><<<outer_grid(choice.blocks / plan.outer_count, plan.outer_count),
                                          kUnitTiledThreads, choice.shared_bytes, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_unit_tiled(const TransposePlan& plan, const KernelChoice& choice,
                              const void* in, void* out, cudaStream_t stream) {
  const bool one_unit = one_unit_words(choice);
  switch (choice.unit_size) {
    case 1:
      if (one_unit) return launch_units_of<1, true, true>(plan, choice, in, out, stream);
      return choice.unit_words ? launch_units_of<1, true>(plan, choice, in, out, stream)
                               : launch_units_of<1, false>(plan, choice, in, out, stream);
    case 2:  // always words (kernel_choice.cpp)
      if (one_unit) return launch_units_of<2, true, true>(plan, choice, in, out, stream);
      return launch_units_of<2, true>(plan, choice, in, out, stream);
    case 4:
      return launch_units_of<4, false>(plan, choice, in, out, stream);
    case 8:
      return launch_units_of<8, false>(plan, choice, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
