// The CUDA kernels of gputranspose's ops (transpose, permute, contiguous): allocation,
// device guard and stream for the core, which plans, chooses and launches; ATen's copy
// where the plan falls back.

#include "../../core/kernel_choice.h"
#include "../../core/launch.h"
#include "../kernels.h"
#include "../out_contract.h"
#include "../tensor_layout.h"

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/EmptyTensor.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/util/SmallVector.h>

#include <utility>

namespace gputranspose {

DeviceFacts cuda_device_facts(int device) {
  DeviceFacts facts;
  C10_CUDA_CHECK(query_device_facts(device, &facts));
  return facts;
}

namespace {

// Runs `plan` of x into `out_data` (dense in the result's dim order, on x's device, which
// is current), or, where the plan or the kernel choice falls back, `aten_copy()`.
template <class AtenCopy>
void run_plan(const at::Tensor& x, const TransposePlan& plan, void* out_data,
              AtenCopy&& aten_copy, const Tuning* tuning, const char* op) {
  if (plan.path == TransposePath::Empty) {
    return;
  }
  const int device = x.device().index();
  const KernelChoice choice = choose_kernel(plan, cuda_device_facts(device), tuning);
  TORCH_CHECK(choice.unsupported == nullptr, op, ": ", choice.unsupported);
  // The plan's fallbacks, and the tiled plans the choice sends to the framework's copy.
  if (choice.path == TransposePath::AtenFallback) {
    aten_copy();
    return;
  }
  C10_CUDA_CHECK(launch_transpose(plan, choice, x.const_data_ptr(), out_data, device,
                                  at::cuda::getCurrentCUDAStream(device)));
}

int64_t alignment_of(const at::Tensor& out) {
  return pointer_alignment(reinterpret_cast<uintptr_t>(out.const_data_ptr()));
}

// Writes x.transpose(dim0, dim1) into the contiguous `out` (already checked).
void transpose_into(const at::Tensor& x, const TransposeDims& dims, at::Tensor& out,
                    const Tuning* tuning = nullptr) {
  run_plan(
      x, plan_transpose(x, dims, alignment_of(out)), out.data_ptr(),
      [&] { out.copy_(transposed_view(x, dims)); }, tuning, "gputranspose.transpose");
}

// Writes x.permute(order) into the contiguous `out` (already checked).
void permute_into(const at::Tensor& x, at::IntArrayRef order, at::Tensor& out,
                  const Tuning* tuning = nullptr) {
  run_plan(
      x, plan_permute(x, order, alignment_of(out)), out.data_ptr(),
      [&] { out.copy_(x.permute(order)); }, tuning, "gputranspose.permute");
}

// Small tensors are bound by the host's work per call, so the common path makes no
// intermediate tensors (no transposed or permuted view: the sizes are reordered in place)
// and allocates its output directly, as ATen's structured CUDA kernels do (not through
// at::empty's dispatch; every byte of it is written by the kernel).
at::Tensor empty_result(const at::Tensor& x, const TransposeDims& dims) {
  c10::SmallVector<int64_t, 8> sizes(x.sizes().begin(), x.sizes().end());
  if (!dims.copy_only) {
    std::swap(sizes[dims.dim0], sizes[dims.dim1]);
  }
  return at::detail::empty_cuda(sizes, x.scalar_type(), x.device(), at::MemoryFormat::Contiguous);
}

at::Tensor empty_result(const at::Tensor& x, at::IntArrayRef order) {
  c10::SmallVector<int64_t, 8> sizes;
  for (const int64_t d : order) sizes.push_back(x.size(d));
  return at::detail::empty_cuda(sizes, x.scalar_type(), x.device(), at::MemoryFormat::Contiguous);
}

}  // namespace

at::Tensor transpose_cuda(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor out = empty_result(x, dims);
  transpose_into(x, dims, out);
  return out;
}

void transpose_out_cuda(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  check_and_prepare_out(x, transposed_view(x, dims), out);
  const c10::cuda::CUDAGuard device_guard(x.device());
  transpose_into(x, dims, out);
}

at::Tensor permute_cuda(const at::Tensor& x, at::IntArrayRef dims) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute");
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor out = empty_result(x, order);
  permute_into(x, order, out);
  return out;
}

void permute_out_cuda(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute.out");
  check_and_prepare_out(x, x.permute(order), out, "gputranspose.permute.out");
  const c10::cuda::CUDAGuard device_guard(x.device());
  permute_into(x, order, out);
}

at::Tensor contiguous_cuda(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format) {
  const DimOrder order = memory_format_order(x, memory_format, "gputranspose.contiguous");
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor out = at::detail::empty_cuda(
      x.sizes(), x.scalar_type(), x.device(), memory_format.value_or(at::MemoryFormat::Contiguous));
  // The result in its format's dim order is dense: x permuted into that order fills it.
  run_plan(
      x, plan_permute(x, order, alignment_of(out)), out.data_ptr(), [&] { out.copy_(x); },
      nullptr, "gputranspose.contiguous");
  return out;
}

#ifdef GPUTRANSPOSE_DEVELOPMENT
at::Tensor permute_cuda_tuned(const at::Tensor& x, at::IntArrayRef dims, const Tuning& tuning) {
  TORCH_CHECK(x.is_cuda(), "gputranspose: the tuned kernel takes CUDA tensors");
  check_supported_layout(x, "gputranspose.permute");
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute");
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor out = empty_result(x, order);
  permute_into(x, order, out, &tuning);
  return out;
}

at::Tensor transpose_cuda_tuned(const at::Tensor& x, int64_t dim0, int64_t dim1,
                                const Tuning& tuning) {
  TORCH_CHECK(x.is_cuda(), "gputranspose: the tuned kernel takes CUDA tensors");
  check_supported_layout(x, "gputranspose.transpose");
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor out = empty_result(x, dims);
  transpose_into(x, dims, out, &tuning);
  return out;
}
#endif

}  // namespace gputranspose
