// The CUDA kernels: a device guard, the current stream and the output's allocation from
// the stable ABI; the core plans, chooses and launches; ATen's copy (through the stable
// dispatcher) where the plan or the kernel choice falls back.

#ifndef USE_CUDA
#define USE_CUDA  // the shim's CUDA entry points (aoti_torch_get_current_cuda_stream)
#endif

#include "../core/kernel_choice.h"
#include "../core/launch.h"
#include "errors.h"
#include "kernels.h"
#include "out_contract.h"
#include "tuning.h"

#include <cuda_runtime_api.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/ops.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace gputranspose::stable {

namespace {

using torch::stable::accelerator::DeviceGuard;

// The facts of a CUDA device, read once per device by the core.
DeviceFacts cuda_device_facts(int device) {
  DeviceFacts facts;
  STD_CUDA_CHECK(query_device_facts(device, &facts));
  return facts;
}

cudaStream_t current_stream(int device) {
  void* stream = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(device, &stream));
  return static_cast<cudaStream_t>(stream);
}

// Runs `plan` of x into `out` (dense in the result's dim order, on x's device, which is
// current), or, where the plan or the kernel choice falls back, `aten_copy()`.
template <class AtenCopy>
void run_plan(const Tensor& x, const TransposePlan& plan, const Tensor& out, AtenCopy&& aten_copy,
              const std::optional<Tuning>& tuning, const char* op) {
  if (plan.path == TransposePath::Empty) {
    return;
  }
  const int device = x.get_device_index();
  const KernelChoice choice =
      choose_kernel(plan, cuda_device_facts(device), tuning ? &*tuning : nullptr);
  check(choice.unsupported == nullptr, op, ": ", choice.unsupported);
  // The plan's fallbacks, and the tiled plans the choice sends to the framework's copy.
  if (choice.path == TransposePath::AtenFallback) {
    aten_copy();
    return;
  }
  STD_CUDA_CHECK(launch_transpose(plan, choice, x.const_data_ptr(), out.mutable_data_ptr(),
                                  device, current_stream(device)));
}

int64_t alignment_of(const Tensor& out) {
  return pointer_alignment(reinterpret_cast<uintptr_t>(out.const_data_ptr()));
}

// A new contiguous tensor of `sizes` with x's dtype, on x's device (every byte of it is
// written by the kernel). The allocator's out-of-memory error reaches a stable-ABI kernel as
// a bare failed call: an output larger than the device's free memory is reported as
// "CUDA out of memory", which the Python front end raises as torch.OutOfMemoryError.
Tensor empty_result(const Tensor& x, const std::vector<int64_t>& sizes) {
  try {
    return torch::stable::new_empty(x, sizes);
  } catch (const std::exception&) {
    double bytes = static_cast<double>(x.element_size());
    for (int64_t size : sizes) bytes *= static_cast<double>(size);
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess &&
        bytes > static_cast<double>(free_bytes)) {
      throw std::runtime_error(
          "CUDA out of memory. gputranspose tried to allocate its output, " +
          std::to_string(static_cast<long long>(bytes / (1 << 20))) + " MiB, on cuda:" +
          std::to_string(x.get_device_index()) + ", which has " +
          std::to_string(free_bytes >> 20) + " MiB free");
    }
    throw;
  }
}

std::vector<int64_t> transposed_sizes(const Tensor& x, const TransposeDims& dims) {
  const auto view = x.sizes();
  std::vector<int64_t> sizes(view.begin(), view.end());
  if (!dims.copy_only) std::swap(sizes[dims.dim0], sizes[dims.dim1]);
  return sizes;
}

// Writes x.transpose(dim0, dim1) into the contiguous `out` (already checked).
void transpose_into(const Tensor& x, const TransposeDims& dims, Tensor& out,
                    const std::optional<Tuning>& tuning = std::nullopt) {
  run_plan(
      x, plan_transpose(x, dims, alignment_of(out)), out,
      [&] { torch::stable::copy_(out, transposed_view(x, dims)); }, tuning,
      "gputranspose.transpose");
}

// Writes x.permute(order) into the contiguous `out` (already checked).
void permute_into(const Tensor& x, const DimOrder& order, Tensor& out,
                  const std::optional<Tuning>& tuning = std::nullopt) {
  run_plan(
      x, plan_permute(x, order, alignment_of(out)), out,
      [&] { torch::stable::copy_(out, permuted_view(x, order)); }, tuning,
      "gputranspose.permute");
}

}  // namespace

Tensor transpose_cuda(const Tensor& x, int64_t dim0, int64_t dim1) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  const DeviceGuard guard(x.get_device_index());
  Tensor out = empty_result(x, transposed_sizes(x, dims));
  transpose_into(x, dims, out);
  return out;
}

void transpose_out_cuda(const Tensor& x, int64_t dim0, int64_t dim1, Tensor out) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  check_and_prepare_out(x, transposed_sizes(x, dims), out, "gputranspose.transpose.out");
  const DeviceGuard guard(x.get_device_index());
  transpose_into(x, dims, out);
}

Tensor permute_cuda(const Tensor& x, std::vector<int64_t> dims) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute");
  const DeviceGuard guard(x.get_device_index());
  Tensor out = empty_result(x, sizes_in_order(x, order));
  permute_into(x, order, out);
  return out;
}

void permute_out_cuda(const Tensor& x, std::vector<int64_t> dims, Tensor out) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute.out");
  check_and_prepare_out(x, sizes_in_order(x, order), out, "gputranspose.permute.out");
  const DeviceGuard guard(x.get_device_index());
  permute_into(x, order, out);
}

Tensor contiguous_cuda(const Tensor& x, std::optional<MemoryFormat> memory_format) {
  const DimOrder order = memory_format_order(x, memory_format, "gputranspose.contiguous");
  const DeviceGuard guard(x.get_device_index());
  // The result in its format's dim order is a contiguous tensor: allocate that, write x
  // permuted into it, and hand back its view in x's dim order (the format's strides).
  Tensor dense = empty_result(x, sizes_in_order(x, order));
  permute_into(x, order, dense);
  DimOrder inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int64_t>(i);
  return permuted_view(dense, inverse);
}

#ifdef GPUTRANSPOSE_DEVELOPMENT
Tensor transpose_tuned_cuda(const Tensor& x, int64_t dim0, int64_t dim1,
                            std::vector<int64_t> tuning, double memory_bytes_per_s) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  const DeviceGuard guard(x.get_device_index());
  Tensor out = empty_result(x, transposed_sizes(x, dims));
  transpose_into(x, dims, out, tuning_from(tuning, memory_bytes_per_s));
  return out;
}

Tensor permute_tuned_cuda(const Tensor& x, std::vector<int64_t> dims,
                          std::vector<int64_t> tuning, double memory_bytes_per_s) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute");
  const DeviceGuard guard(x.get_device_index());
  Tensor out = empty_result(x, sizes_in_order(x, order));
  permute_into(x, order, out, tuning_from(tuning, memory_bytes_per_s));
  return out;
}
#endif

}  // namespace gputranspose::stable
