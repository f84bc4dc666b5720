// Launches of the tiles over several dims on each side (nd_tile_transpose.cuh).
#include "../nd_tiles.h"
#include "nd_tile_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <typename T>
cudaError_t launch_nd(const NdTilePlan& plan, int64_t tiles_per_block, const void* in, void* out,
                      cudaStream_t stream) {
  static_assert(sizeof(NdTileParams) <= 4096, "kernel parameters over 4 KiB");
  const int64_t blocks = (plan.tiles + tiles_per_block - 1) / tiles_per_block;
  const int64_t shared_bytes = nd_group_layout(plan, tiles_per_block).shared_bytes;
  nd_tile_transpose_kernel<T><<<static_cast<unsigned>(blocks), kNdTileThreads,
                                static_cast<size_t>(shared_bytes), stream>>>(
      nd_tile_params(plan, tiles_per_block, in, out));
  return cudaGetLastError();
}

}  // namespace

// The choice's tiles a block: the plan's, or fewer where the choice lowers them.
cudaError_t launch_nd_tiles(const NdTilePlan& plan, const KernelChoice& choice, const void* in,
                            void* out, cudaStream_t stream) {
  const int64_t tiles_per_block = choice.nd_tiles_per_block;
  if (!plan.applies || tiles_per_block < 1 || tiles_per_block > kMaxNdTilesPerBlock ||
      nd_group_layout(plan, tiles_per_block).shared_bytes > 48 * 1024) {
    return cudaErrorNotSupported;
  }
  switch (plan.element_size) {
    case 1:
      return launch_nd<uint8_t>(plan, tiles_per_block, in, out, stream);
    case 2:
      return launch_nd<uint16_t>(plan, tiles_per_block, in, out, stream);
    case 4:
      return launch_nd<uint32_t>(plan, tiles_per_block, in, out, stream);
    case 8:
      return launch_nd<uint2>(plan, tiles_per_block, in, out, stream);
    case 16:
      return launch_nd<uint4>(plan, tiles_per_block, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
