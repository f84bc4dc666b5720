// The small-dim kernel's instances for 4-byte elements.
#include "launch_small_dim.cuh"

namespace gputranspose {
namespace cuda {

GPUTRANSPOSE_INSTANTIATE_LAUNCH_SMALL_DIM(4)

}  // namespace cuda
}  // namespace gputranspose
