#include "layout.h"

#include "element_size.h"

#include <ATen/TensorGeometry.h>
#include <c10/util/Exception.h>
#include <c10/util/SmallVector.h>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace gputranspose {

const char* path_name(TransposePath path) {
  switch (path) {
    case TransposePath::Empty:
      return "empty";
    case TransposePath::Memcpy:
      return "memcpy";
    case TransposePath::TiledContiguous:
      return "tiled_contiguous";
    case TransposePath::TiledRowStrided:
      return "tiled_row_strided";
    case TransposePath::AtenFallback:
      return "aten_fallback";
  }
  return "unknown";
}

static int64_t wrap_dim(int64_t dim, int64_t ndim, const char* name) {
  // Like ATen, a 0-D tensor accepts dims in [-1, 0].
  const int64_t extent = ndim > 0 ? ndim : 1;
  TORCH_CHECK_INDEX(
      dim >= -extent && dim < extent,
      "gputranspose.transpose: ", name, "=", dim, " is out of range for a ", ndim,
      "-D tensor (expected to be in range of [", -extent, ", ", extent - 1, "])");
  return dim < 0 ? dim + extent : dim;
}

TransposeDims wrap_transpose_dims(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  const int64_t ndim = x.dim();
  if (ndim < 2 && dim0 == -2 && dim1 == -1) {
    return {0, 0, /*copy_only=*/true};  // x.t() of a 0-D or 1-D tensor is itself
  }
  return {wrap_dim(dim0, ndim, "dim0"), wrap_dim(dim1, ndim, "dim1"), ndim < 2};
}

namespace {

TransposePlan fallback(const char* reason) {
  TransposePlan plan;
  plan.path = TransposePath::AtenFallback;
  plan.reason = reason;
  return plan;
}

// Whether x.transpose(dim0, dim1) is contiguous, without making the view (this
// runs on every call).
bool transposed_is_contiguous(const at::Tensor& x, const TransposeDims& dims) {
  c10::SmallVector<int64_t, 8> sizes(x.sizes().begin(), x.sizes().end());
  c10::SmallVector<int64_t, 8> strides(x.strides().begin(), x.strides().end());
  std::swap(sizes[dims.dim0], sizes[dims.dim1]);
  std::swap(strides[dims.dim0], strides[dims.dim1]);
  return at::geometry_is_contiguous(sizes, strides);
}

uintptr_t data_address(const at::Tensor& x) {
  // Meta tensors have no memory: judge their alignment as a fresh allocation's.
  if (x.is_meta()) {
    return static_cast<uintptr_t>(x.storage_offset() * x.itemsize());
  }
  return reinterpret_cast<uintptr_t>(x.const_data_ptr());
}

bool rows_aligned_16(uintptr_t address, int64_t row_pitch_bytes, int64_t batch,
                     int64_t batch_pitch_bytes) {
  return address % 16 == 0 && row_pitch_bytes % 16 == 0 &&
         (batch == 1 || batch_pitch_bytes % 16 == 0);
}

}  // namespace

TransposePlan plan_transpose(const at::Tensor& x, int64_t dim0, int64_t dim1,
                             int64_t out_ptr_alignment) {
  const TransposeDims dims = wrap_transpose_dims(x, dim0, dim1);
  if (x.layout() != c10::kStrided) {
    return fallback("only strided (dense) tensors are moved by the kernels");
  }
  if (x.numel() == 0) {
    TransposePlan plan;
    plan.path = TransposePath::Empty;
    plan.reason = "zero-size tensor: nothing to move";
    return plan;
  }
  const int64_t es = kernel_element_size(x.scalar_type());
  if (es == 0) {
    return fallback("the dtype is not moved by the kernels");
  }
  const bool in_result_order = dims.copy_only ? x.is_contiguous() : transposed_is_contiguous(x, dims);
  if (in_result_order) {
    TransposePlan plan;
    plan.path = TransposePath::Memcpy;
    plan.reason = "the input is already laid out in the result's order";
    plan.element_size = es;
    return plan;
  }
  const int64_t ndim = x.dim();
  if (dims.copy_only || ndim < 2) {
    return fallback("a 0-D or 1-D input that is not contiguous");
  }
  const int64_t lo = std::min(dims.dim0, dims.dim1);
  const int64_t hi = std::max(dims.dim0, dims.dim1);
  if (lo != ndim - 2 || hi != ndim - 1) {
    return fallback("the swapped dims are not the last two");
  }

  TransposePlan plan;
  plan.element_size = es;
  plan.rows = x.size(ndim - 2);
  plan.cols = x.size(ndim - 1);
  if (plan.cols > 1 && x.stride(ndim - 1) != 1) {
    return fallback("no unit stride inside a row");
  }
  plan.row_stride = plan.rows > 1 ? x.stride(ndim - 2) : plan.cols;
  if (plan.rows > 1 && plan.row_stride == 0) {
    return fallback("expanded rows (stride 0)");
  }
  if (plan.rows > 1 && plan.row_stride < plan.cols) {
    return fallback("rows overlap (row stride smaller than the row)");
  }
  // Fold the batch dims into one (batch, batch_stride) pair.
  plan.batch = 1;
  plan.batch_stride = plan.rows * plan.row_stride;
  bool have_batch_stride = false;
  for (int64_t d = ndim - 3; d >= 0; --d) {
    const int64_t size = x.size(d);
    if (size == 1) {
      continue;
    }
    const int64_t stride = x.stride(d);
    if (stride == 0) {
      return fallback("expanded batch dim (stride 0)");
    }
    if (!have_batch_stride) {
      plan.batch_stride = stride;
      have_batch_stride = true;
    } else if (stride != plan.batch * plan.batch_stride) {
      return fallback("the batch dims cannot be folded into one stride");
    }
    plan.batch *= size;
  }
  const bool contiguous = plan.row_stride == plan.cols &&
                          (plan.batch == 1 || plan.batch_stride == plan.rows * plan.cols);
  const uintptr_t address = data_address(x);
  if (address % es != 0 || out_ptr_alignment % std::min<int64_t>(es, 16) != 0) {
    return fallback("data pointer not aligned to the element size");
  }
  plan.path = contiguous ? TransposePath::TiledContiguous : TransposePath::TiledRowStrided;
  plan.reason = contiguous ? "contiguous matrices, last two dims swapped"
                           : "strided rows with unit stride inside each row";
  plan.load_bytes =
      rows_aligned_16(address, plan.row_stride * es, plan.batch, plan.batch_stride * es) ? 16 : 4;
  plan.store_bytes = rows_aligned_16(static_cast<uintptr_t>(out_ptr_alignment), plan.rows * es,
                                     plan.batch, plan.rows * plan.cols * es)
                         ? 16
                         : 4;
  return plan;
}

}  // namespace gputranspose
