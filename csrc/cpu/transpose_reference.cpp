// The ATen reference: the CPU kernel, and the Meta kernel that gives fake
// tensors and torch.compile the result's shape (it runs on SymInts unchanged).

#include "../layout.h"
#include "../out_contract.h"

#include <ATen/ATen.h>
#include <torch/library.h>

namespace gputranspose {
namespace {

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

}  // namespace

TORCH_LIBRARY_IMPL(gputranspose, CPU, m) {
  m.impl("transpose", &transpose_reference);
  m.impl("transpose.out", &transpose_out_reference);
}

TORCH_LIBRARY_IMPL(gputranspose, Meta, m) {
  m.impl("transpose", &transpose_reference);
  m.impl("transpose.out", &transpose_out_reference);
}

}  // namespace gputranspose
