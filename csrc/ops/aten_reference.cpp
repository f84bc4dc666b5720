// The ATen reference: the CPU kernel, and the Meta kernel that gives fake tensors and
// torch.compile the result's shape (it runs on SymInts unchanged).

#include "kernels.h"
#include "out_contract.h"
#include "tensor_layout.h"

#include <ATen/ATen.h>

namespace gputranspose {

at::Tensor transpose_reference(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  return transposed_view(x, dims).clone(at::MemoryFormat::Contiguous);
}

void transpose_out_reference(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  const at::Tensor view = transposed_view(x, dims);
  check_and_prepare_out(x, view, out);
  out.copy_(view);
}

at::Tensor transpose_unsupported(const at::Tensor& x, int64_t, int64_t) {
  check_supported_layout(x, "gputranspose.transpose");
  TORCH_CHECK(false, "gputranspose.transpose: no kernel for this tensor");
}

void transpose_out_unsupported(const at::Tensor& x, int64_t, int64_t, at::Tensor&) {
  check_supported_layout(x, "gputranspose.transpose.out");
  TORCH_CHECK(false, "gputranspose.transpose.out: no kernel for this tensor");
}

at::Tensor permute_reference(const at::Tensor& x, at::IntArrayRef dims) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute");
  return x.permute(order).clone(at::MemoryFormat::Contiguous);
}

void permute_out_reference(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out) {
  const at::Tensor view = x.permute(wrap_permutation(x, dims, "gputranspose.permute.out"));
  check_and_prepare_out(x, view, out, "gputranspose.permute.out");
  out.copy_(view);
}

at::Tensor contiguous_reference(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format) {
  memory_format_order(x, memory_format, "gputranspose.contiguous");  // checks the format
  return x.clone(memory_format.value_or(at::MemoryFormat::Contiguous));
}

at::Tensor permute_unsupported(const at::Tensor& x, at::IntArrayRef) {
  check_supported_layout(x, "gputranspose.permute");
  TORCH_CHECK(false, "gputranspose.permute: no kernel for this tensor");
}

void permute_out_unsupported(const at::Tensor& x, at::IntArrayRef, at::Tensor&) {
  check_supported_layout(x, "gputranspose.permute.out");
  TORCH_CHECK(false, "gputranspose.permute.out: no kernel for this tensor");
}

at::Tensor contiguous_unsupported(const at::Tensor& x, std::optional<at::MemoryFormat>) {
  check_supported_layout(x, "gputranspose.contiguous");
  TORCH_CHECK(false, "gputranspose.contiguous: no kernel for this tensor");
}

}  // namespace gputranspose
