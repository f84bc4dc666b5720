#pragma once
// The CUDA side of the core: reads a device's facts, and executes a KernelChoice on raw
// pointers and a stream. Framework-free: front ends (the LibTorch ops) allocate, guard
// the device, plan, choose and turn the returned cudaError_t into their own errors.

#include "device_facts.h"
#include "kernel_choice.h"
#include "layout_plan.h"

#include <cuda_runtime_api.h>

namespace gputranspose {

// Devices whose facts and kernel attributes are kept (indices 0 .. kMaxCudaDevices - 1).
constexpr int kMaxCudaDevices = 64;

// The facts of `device`, read from the runtime once per device and cached.
cudaError_t query_device_facts(int device, DeviceFacts* facts);

// Writes the transpose that `plan` describes of the tensor at `in` to the contiguous
// `out`, by the kernel `choice` names, on `stream` (of `device`, which is current).
// Empty plans do nothing; fallback plans and unsupported choices are refused with
// cudaErrorNotSupported (the front end runs its own copy, or raises).
cudaError_t launch_transpose(const TransposePlan& plan, const KernelChoice& choice,
                             const void* in, void* out, int device, cudaStream_t stream);

// The GPU architectures the kernels were compiled for, as nvcc lists them ("800,900").
const char* compiled_architectures();

}  // namespace gputranspose
