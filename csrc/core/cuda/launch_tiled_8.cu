// The tiled kernel's instances for 8-byte elements.
#include "launch_tiled.cuh"

namespace gputranspose {
namespace cuda {

GPUTRANSPOSE_INSTANTIATE_LAUNCH_TILED(8)


}  // namespace cuda
}  // namespace gputranspose
