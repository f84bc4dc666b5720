// Launches of the tiles over several dims on each side (nd_tile_transpose.cuh).
#include "../nd_tiles.h"
#include "nd_tile_transpose.cuh"

#include <cuda_runtime.h>

namespace gputranspose {
namespace cuda {

namespace {

template <typename T>
cudaError_t launch_nd(const NdTilePlan& plan, const KernelChoice& choice, const void* in,
                      void* out, cudaStream_t stream) {
  static_assert(sizeof(NdTileParams) <= 4096, "kernel parameters over 4 KiB");
  nd_tile_transpose_kernel<T><<<static_cast<unsigned>(choice.blocks), kNdTileThreads,
                                static_cast<size_t>(choice.shared_bytes), stream>>>(
      nd_tile_params(plan, choice.nd_tiles_per_block, in, out));
  return cudaGetLastError();
}

}  // namespace

// The choice's tiles a block (the plan's, or fewer where the choice lowers them), its blocks
// and shared memory (choose_nd_tiles: nd_group_layout at that many).
cudaError_t launch_nd_tiles(const NdTilePlan& plan, const KernelChoice& choice, const void* in,
                            void* out, cudaStream_t stream) {
  if (!plan.applies || choice.nd_tiles_per_block < 1 ||
      choice.nd_tiles_per_block > kMaxNdTilesPerBlock || choice.shared_bytes > 48 * 1024) {
    return cudaErrorNotSupported;
  }
  switch (plan.element_size) {
    case 1:
      return launch_nd<uint8_t>(plan, choice, in, out, stream);
    case 2:
      return launch_nd<uint16_t>(plan, choice, in, out, stream);
    case 4:
      return launch_nd<uint32_t>(plan, choice, in, out, stream);
    case 8:
      return launch_nd<uint2>(plan, choice, in, out, stream);
    case 16:
      return launch_nd<uint4>(plan, choice, in, out, stream);
  }
  return cudaErrorNotSupported;
}

}  // namespace cuda
}  // namespace gputranspose
