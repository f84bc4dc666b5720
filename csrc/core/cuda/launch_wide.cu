// Launches of the wide-element kernel: the tile a KernelChoice names, or its realigned
// 16-byte granules, the parameters worked out from the plan.
#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "realigned_wide_transpose.cuh"
#include "wide_element_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <typename Unit, int THREADS, int K, bool EVICT_LAST>
cudaError_t launch_wide_tile(const TransposePlan& plan, const KernelChoice& choice,
                             const void* in, void* out, cudaStream_t stream) {
  const WideElementParams<Unit> params =
      wide_element_params<Unit>(plan, choice, THREADS * K, in, out);
  wide_element_transpose_kernel<Unit, THREADS, K, EVICT_LAST>
      <<<outer_grid(choice.blocks / plan.outer_count, plan.outer_count), THREADS, 0, stream>>>(
          params);
  return cudaGetLastError();
}

template <int UNITS, bool EVICT_LAST>
cudaError_t launch_units(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                         void* out, cudaStream_t stream) {
  constexpr int THREADS = WideElementTile::threads(UNITS);
  return launch_wide_tile<uint4, THREADS, UNITS / THREADS, EVICT_LAST>(plan, choice, in, out,
                                                                       stream);
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

// Units under 16 bytes: elements over 682 bytes (one output row a tile, of 2 KiB), read
// plainly.
template <typename Unit>
cudaError_t launch_narrow_units(const TransposePlan& plan, const KernelChoice& choice,
                                const void* in, void* out, cudaStream_t stream) {
  constexpr int UNITS = WideElementTile::MIN_UNITS * 16 / sizeof(Unit);
  constexpr int THREADS = WideElementTile::threads(UNITS);
  if (choice.tile_rows * choice.tile_cols != UNITS || choice.input_l2 != InputL2::Normal) {
    return cudaErrorNotSupported;
  }
  return launch_wide_tile<Unit, THREADS, UNITS / THREADS, false>(plan, choice, in, out, stream);
}

// Elements in 16-byte output granules realigned from the input, a thread a granule.
cudaError_t launch_realigned(const TransposePlan& plan, const KernelChoice& choice,
                             const void* in, void* out, cudaStream_t stream) {
  constexpr int THREADS = kRealignedWideThreadsPerBlock;
  if (choice.threads != THREADS || choice.input_l2 != InputL2::Normal) {
    return cudaErrorNotSupported;
  }
  const RealignedWideParams params = realigned_wide_params(plan, in, out);
  realigned_wide_kernel<THREADS>
      <<<outer_grid(choice.blocks / plan.outer_count, plan.outer_count), THREADS, 0, stream>>>(
          params);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_wide_elements(const TransposePlan& plan, const KernelChoice& choice,
                                 const void* in, void* out, cudaStream_t stream) {
  if (choice.realigned) return launch_realigned(plan, choice, in, out, stream);
  switch (choice.unit_size) {
    case 16:
      break;
    case 8:
      return launch_narrow_units<uint2>(plan, choice, in, out, stream);
    case 4:
      return launch_narrow_units<uint32_t>(plan, choice, in, out, stream);
    case 2:
      return launch_narrow_units<uint16_t>(plan, choice, in, out, stream);
    case 1:
      return launch_narrow_units<uint8_t>(plan, choice, in, out, stream);
    default:
      return cudaErrorNotSupported;
  }
  if (choice.input_l2 == InputL2::EvictLast) {
    return launch_for_l2<true>(plan, choice, in, out, stream);
  }
  return launch_for_l2<false>(plan, choice, in, out, stream);
}

}  // namespace cuda
}  // namespace gputranspose
