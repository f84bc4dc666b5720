// The small-dim kernel's instances for 8-byte elements.
#include "launch_small_dim.cuh"

namespace gputranspose {
namespace cuda {

GPUTRANSPOSE_INSTANTIATE_LAUNCH_SMALL_DIM(8)

}  // namespace cuda
}  // namespace gputranspose
