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

}  // namespace gputranspose
