#include "tensor_layout.h"

#include "element_size.h"

#include <c10/util/Exception.h>

namespace gputranspose {

namespace {

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* name) {
  // Like ATen, a 0-D tensor accepts dims in [-1, 0].
  const int64_t extent = ndim > 0 ? ndim : 1;
  TORCH_CHECK_INDEX(dim >= -extent && dim < extent, "gputranspose.transpose: ", name, "=", dim,
                    " is out of range for a ", ndim, "-D tensor (expected to be in range of [",
                    -extent, ", ", extent - 1, "])");
  return dim < 0 ? dim + extent : dim;
}

}  // namespace

TransposeDims wrap_transpose_dims(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  const int64_t ndim = x.dim();
  if (ndim < 2 && dim0 == -2 && dim1 == -1) {
    return {0, 0, /*copy_only=*/true};  // x.t() of a 0-D or 1-D tensor is itself
  }
  return {wrap_dim(dim0, ndim, "dim0"), wrap_dim(dim1, ndim, "dim1"), ndim < 2};
}

const char* unsupported_layout(const at::Tensor& x) {
  if (x.is_nested()) {
    return "nested tensors are not supported; transpose each component";
  }
  if (x.is_quantized()) {
    return "quantized tensors are not supported; transpose x.dequantize(), or x.int_repr() "
           "for the raw integers";
  }
  switch (x.layout()) {
    case c10::kStrided:
      return nullptr;
    case c10::kSparse:
      return "sparse COO tensors are not supported; use x.transpose(dim0, dim1) for a sparse "
             "result, or transpose x.to_dense()";
    case c10::kSparseCsr:
    case c10::kSparseCsc:
    case c10::kSparseBsr:
    case c10::kSparseBsc:
      return "sparse compressed (CSR, CSC, BSR, BSC) tensors are not supported; transpose "
             "x.to_dense()";
    case c10::kMkldnn:
      return "mkldnn tensors are not supported; transpose x.to_dense()";
    default:
      return "only strided (dense) tensors are supported; transpose x.to_dense()";
  }
}

void check_supported_layout(const at::Tensor& x, const char* op) {
  const char* message = unsupported_layout(x);
  TORCH_CHECK_NOT_IMPLEMENTED(message == nullptr, op, ": ", message);
}

TransposePlan plan_transpose(const at::Tensor& x, const TransposeDims& dims,
                             int64_t out_alignment) {
  StridedLayout layout;
  layout.ndim = x.dim();
  layout.sizes = x.sizes().data();
  layout.strides = x.strides().data();
  layout.itemsize = kernel_element_size(x.scalar_type());
  // Meta tensors have no memory: judge their alignment as a fresh allocation's.
  layout.address = x.is_meta() ? static_cast<uintptr_t>(x.storage_offset() * x.itemsize())
                               : reinterpret_cast<uintptr_t>(x.const_data_ptr());
  return gputranspose::plan_transpose(layout, dims, out_alignment);
}

at::Tensor transposed_view(const at::Tensor& x, const TransposeDims& dims) {
  return dims.copy_only ? x : x.transpose(dims.dim0, dims.dim1);
}

}  // namespace gputranspose
