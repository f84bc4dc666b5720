// The CPU kernels: ATen's transpose/permute views and copies, called through the stable
// ABI's dispatcher (the reference the CUDA kernels are tested against).

#include "kernels.h"
#include "out_contract.h"

#include <torch/csrc/stable/ops.h>

namespace gputranspose::stable {

Tensor transpose_cpu(const Tensor& x, int64_t dim0, int64_t dim1) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  return clone_as(transposed_view(x, dims), MemoryFormat::Contiguous);
}

void transpose_out_cpu(const Tensor& x, int64_t dim0, int64_t dim1, Tensor out) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  const Tensor view = transposed_view(x, dims);
  const auto sizes = view.sizes();
  check_and_prepare_out(x, {sizes.begin(), sizes.end()}, out, "gputranspose.transpose.out");
  torch::stable::copy_(out, view);
}

Tensor permute_cpu(const Tensor& x, std::vector<int64_t> dims) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute");
  return clone_as(permuted_view(x, order), MemoryFormat::Contiguous);
}

void permute_out_cpu(const Tensor& x, std::vector<int64_t> dims, Tensor out) {
  const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute.out");
  check_and_prepare_out(x, sizes_in_order(x, order), out, "gputranspose.permute.out");
  torch::stable::copy_(out, permuted_view(x, order));
}

Tensor contiguous_cpu(const Tensor& x, std::optional<MemoryFormat> memory_format) {
  memory_format_order(x, memory_format, "gputranspose.contiguous");  // checks the format
  return clone_as(x, memory_format.value_or(MemoryFormat::Contiguous));
}

}  // namespace gputranspose::stable
