// The tiled kernel's instances for 16-byte elements.
#include "launch_tiled.cuh"

namespace gputranspose {
namespace cuda {

GPUTRANSPOSE_INSTANTIATE_LAUNCH_TILED(16)
template cudaError_t small_tile_blocks_per_sm<16>(int*);

}  // namespace cuda
}  // namespace gputranspose
