// The tiled kernel's instances for 4-byte elements.
#include "launch_tiled.cuh"

namespace gputranspose {
namespace cuda {

GPUTRANSPOSE_INSTANTIATE_LAUNCH_TILED(4)


}  // namespace cuda
}  // namespace gputranspose
