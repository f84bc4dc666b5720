// Launches of the tiles over several dims on each side (nd_tile_transpose.cuh).
#include "../nd_tiles.h"
#include "nd_tile_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <typename T>
cudaError_t launch_nd(const NdTilePlan& plan, const void* in, void* out, cudaStream_t stream) {
  static_assert(sizeof(NdTileParams) <= 4096, "kernel parameters over 4 KiB");
  nd_tile_transpose_kernel<T><<<static_cast<unsigned>(plan.tiles), kNdTileThreads,
                                static_cast<size_t>(plan.shared_bytes), stream>>>(
      nd_tile_params(plan, in, out));
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_nd_tiles(const NdTilePlan& plan, const void* in, void* out,
                            cudaStream_t stream) {
  if (!plan.applies || plan.shared_bytes > 48 * 1024) return cudaErrorNotSupported;
  switch (plan.element_size) {
    case 1:
      return launch_nd<uint8_t>(plan, in, out, stream);
    case 2:
      return launch_nd<uint16_t>(plan, in, out, stream);
    case 4:
      return launch_nd<uint32_t>(plan, in, out, stream);
    case 8:
      return launch_nd<uint2>(plan, in, out, stream);
    case 16:
      return launch_nd<uint4>(plan, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
