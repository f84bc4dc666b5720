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

DimOrder wrap_permutation(const at::Tensor& x, at::IntArrayRef dims, const char* op) {
  const int64_t ndim = x.dim();
  TORCH_CHECK(static_cast<int64_t>(dims.size()) == ndim, op,
              ": dims must name each of x's dims once, but x has ", ndim, " dims and dims ",
              dims, " has ", dims.size());
  DimOrder order(dims.begin(), dims.end());
  c10::SmallVector<bool, 8> seen(ndim, false);
  for (int64_t& d : order) {
    TORCH_CHECK_INDEX(d >= -ndim && d < ndim, op, ": dim ", d,
                      " is out of range for a ", ndim, "-D tensor (expected to be in range of [",
                      -ndim, ", ", ndim - 1, "])");
    if (d < 0) d += ndim;
    TORCH_CHECK(!seen[d], op, ": dims ", dims, " repeat dim ", d);
    seen[d] = true;
  }
  return order;
}

DimOrder memory_format_order(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format,
                             const char* op) {
  const int64_t ndim = x.dim();
  DimOrder order;
  switch (memory_format.value_or(at::MemoryFormat::Contiguous)) {
    case at::MemoryFormat::Contiguous:
      for (int64_t d = 0; d < ndim; ++d) order.push_back(d);
      return order;
    case at::MemoryFormat::ChannelsLast:
      TORCH_CHECK(ndim == 4, op, ": channels_last needs a 4-D tensor, but x is ", ndim, "-D");
      return {0, 2, 3, 1};
    case at::MemoryFormat::ChannelsLast3d:
      TORCH_CHECK(ndim == 5, op, ": channels_last_3d needs a 5-D tensor, but x is ", ndim, "-D");
      return {0, 2, 3, 4, 1};
    default:
      TORCH_CHECK(false, op, ": memory_format must be contiguous_format, channels_last or "
                  "channels_last_3d (preserve_format would keep x's own layout, which a copy "
                  "into a dense result cannot promise)");
  }
}

namespace {

StridedLayout strided_layout(const at::Tensor& x) {
  StridedLayout layout;
  layout.ndim = x.dim();
  layout.sizes = x.sizes().data();
  layout.strides = x.strides().data();
  layout.itemsize = kernel_element_size(x.scalar_type());
  // Meta tensors have no memory: judge their alignment as a fresh allocation's.
  layout.address = x.is_meta() ? static_cast<uintptr_t>(x.storage_offset() * x.itemsize())
                               : reinterpret_cast<uintptr_t>(x.const_data_ptr());
  return layout;
}

}  // namespace

TransposePlan plan_transpose(const at::Tensor& x, const TransposeDims& dims,
                             int64_t out_alignment) {
  return gputranspose::plan_transpose(strided_layout(x), dims, out_alignment);
}

TransposePlan plan_permute(const at::Tensor& x, at::IntArrayRef order, int64_t out_alignment) {
  return gputranspose::plan_permute(strided_layout(x), order.data(), out_alignment);
}

at::Tensor transposed_view(const at::Tensor& x, const TransposeDims& dims) {
  return dims.copy_only ? x : x.transpose(dims.dim0, dims.dim1);
}

}  // namespace gputranspose
