// The core's CUDA entry points (../launch.h): device facts, and the launch of a choice.
#include "../launch.h"

#include <cuda_runtime.h>

#include <mutex>

namespace gputranspose {
namespace cuda {

template <int E>
cudaError_t launch_tiled(const TransposePlan& plan, const KernelChoice& choice, const void* in,
                         void* out, int device, cudaStream_t stream);
template <int E>
cudaError_t small_tile_blocks_per_sm(int* blocks);
cudaError_t launch_wide_elements(const TransposePlan& plan, const KernelChoice& choice,
                                 const void* in, void* out, cudaStream_t stream);
cudaError_t launch_unit_tiled(const TransposePlan& plan, const KernelChoice& choice,
                              const void* in, void* out, cudaStream_t stream);
cudaError_t launch_batched_small(const TransposePlan& plan, const KernelChoice& choice,
                                 const void* in, void* out, cudaStream_t stream);
cudaError_t launch_element_runs(const TransposePlan& plan, const KernelChoice& choice,
                                const void* in, void* out, cudaStream_t stream);
cudaError_t launch_nd_tiles(const NdTilePlan& plan, const KernelChoice& choice, const void* in,
                            void* out, cudaStream_t stream);
template <int E>
cudaError_t launch_small_dim(const TransposePlan& plan, const KernelChoice& choice,
                             const void* in, void* out, cudaStream_t stream);

namespace {

cudaError_t read_device_facts(int device, DeviceFacts* facts) {
  cudaError_t error = cudaSuccess;
  auto attribute = [&](cudaDeviceAttr what) {
    int value = 0;
    if (error == cudaSuccess) error = cudaDeviceGetAttribute(&value, what, device);
    return value;
  };
  facts->sm_count = attribute(cudaDevAttrMultiProcessorCount);
  facts->l2_bytes = attribute(cudaDevAttrL2CacheSize);
  const int clock_khz = attribute(cudaDevAttrMemoryClockRate);
  const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  facts->memory_bytes_per_s = 2.0 * 1e3 * clock_khz * (bus_bits / 8);  // double data rate
  int per_sm = 0;
  if (error == cudaSuccess) error = small_tile_blocks_per_sm<1>(&per_sm);
  facts->small_tile_blocks_1 = int64_t{per_sm} * facts->sm_count;
  if (error == cudaSuccess) error = small_tile_blocks_per_sm<16>(&per_sm);
  facts->small_tile_blocks_16 = int64_t{per_sm} * facts->sm_count;
  return error;
}

}  // namespace
}  // namespace cuda

cudaError_t query_device_facts(int device, DeviceFacts* facts) {
  if (device < 0 || device >= kMaxCudaDevices) return cudaErrorInvalidDevice;
  static std::once_flag once[kMaxCudaDevices];
  static DeviceFacts cached[kMaxCudaDevices];
  static cudaError_t errors[kMaxCudaDevices];
  std::call_once(once[device], [device] {
    // The occupancy queries ask about the current device: make it `device` for them.
    int current = 0;
    errors[device] = cudaGetDevice(&current);
    if (errors[device] == cudaSuccess && current != device) errors[device] = cudaSetDevice(device);
    if (errors[device] == cudaSuccess) errors[device] = cuda::read_device_facts(device, &cached[device]);
    if (current != device) cudaSetDevice(current);
  });
  *facts = cached[device];
  return errors[device];
}

cudaError_t launch_transpose(const TransposePlan& plan, const KernelChoice& choice,
                             const void* in, void* out, int device, cudaStream_t stream) {
  if (choice.unsupported != nullptr) return cudaErrorNotSupported;
  // The choice's path: it may send a plan the kernels take to the framework's copy.
  switch (choice.path) {
    case TransposePath::Empty:
      return cudaSuccess;
    case TransposePath::Memcpy:
      if (choice.pitched_rows) {
        const size_t width = static_cast<size_t>(plan.element_size);
        return cudaMemcpy2DAsync(out, width, in, static_cast<size_t>(plan.row_stride * plan.stride_unit),
                                 width, static_cast<size_t>(plan.rows), cudaMemcpyDeviceToDevice,
                                 stream);
      }
      return cudaMemcpyAsync(out, in, plan.bytes, cudaMemcpyDeviceToDevice, stream);
    case TransposePath::TiledContiguous:
    case TransposePath::TiledRowStrided:
      switch (choice.element_size) {
        case 1:
          return cuda::launch_tiled<1>(plan, choice, in, out, device, stream);
        case 2:
          return cuda::launch_tiled<2>(plan, choice, in, out, device, stream);
        case 4:
          return cuda::launch_tiled<4>(plan, choice, in, out, device, stream);
        case 8:
          return cuda::launch_tiled<8>(plan, choice, in, out, device, stream);
        case 16:
          return cuda::launch_tiled<16>(plan, choice, in, out, device, stream);
      }
      return cudaErrorNotSupported;
    case TransposePath::WideElements:
      return cuda::launch_wide_elements(plan, choice, in, out, stream);
    case TransposePath::TiledUnits:
      return cuda::launch_unit_tiled(plan, choice, in, out, stream);
    case TransposePath::BatchedSmall:
      return cuda::launch_batched_small(
          plan.path == TransposePath::Memcpy ? pitched_rows_as_matrices(plan, choice.element_size)
                                              : plan,
          choice, in, out, stream);
    case TransposePath::ElementRuns:
      return cuda::launch_element_runs(plan, choice, in, out, stream);
    case TransposePath::NdTiles:
      return cuda::launch_nd_tiles(plan.nd, choice, in, out, stream);
    case TransposePath::SmallDim:
      switch (choice.element_size) {
        case 1:
          return cuda::launch_small_dim<1>(plan, choice, in, out, stream);
        case 2:
          return cuda::launch_small_dim<2>(plan, choice, in, out, stream);
        case 4:
          return cuda::launch_small_dim<4>(plan, choice, in, out, stream);
        case 8:
          return cuda::launch_small_dim<8>(plan, choice, in, out, stream);
      }
      return cudaErrorNotSupported;
    case TransposePath::AtenFallback:
      break;
  }
  return cudaErrorNotSupported;
}

#define GPUTRANSPOSE_STRINGIFY_(...) #__VA_ARGS__
#define GPUTRANSPOSE_STRINGIFY(...) GPUTRANSPOSE_STRINGIFY_(__VA_ARGS__)
const char* compiled_architectures() {
  return GPUTRANSPOSE_STRINGIFY(__CUDA_ARCH_LIST__);
}

}  // namespace gputranspose
