// The tiled kernel's instances for 2-byte elements.
#include "launch_tiled.cuh"

namespace gputranspose {
namespace cuda {

GPUTRANSPOSE_INSTANTIATE_LAUNCH_TILED(2)


}  // namespace cuda
}  // namespace gputranspose
