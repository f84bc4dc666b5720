#include "layout_plan.h"

#include <algorithm>

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
    case TransposePath::WideElements:
      return "wide_elements";
    case TransposePath::AtenFallback:
      return "aten_fallback";
  }
  return "unknown";
}

int64_t pointer_alignment(uintptr_t address) {
  int64_t alignment = 256;
  while (alignment > 1 && address % alignment != 0) alignment /= 2;
  return alignment;
}

namespace {

TransposePlan fallback(const char* reason) {
  TransposePlan plan;
  plan.path = TransposePath::AtenFallback;
  plan.reason = reason;
  return plan;
}

// Whether x with dims a and b swapped (a == b: x itself) is contiguous, as ATen
// judges it (size-1 dims have any stride), without making the view.
bool swapped_is_contiguous(const StridedLayout& x, int64_t a, int64_t b) {
  int64_t expected = 1;
  bool contiguous = true;
  for (int64_t d = x.ndim - 1; d >= 0; --d) {
    const int64_t from = d == a ? b : d == b ? a : d;
    const int64_t size = x.sizes[from];
    if (size == 0) return true;
    if (size != 1 && x.strides[from] != expected) contiguous = false;
    expected *= size;
  }
  return contiguous;
}

bool rows_aligned_16(uintptr_t address, int64_t row_pitch_bytes, int64_t batch,
                     int64_t batch_pitch_bytes) {
  return address % 16 == 0 && row_pitch_bytes % 16 == 0 &&
         (batch == 1 || batch_pitch_bytes % 16 == 0);
}

}  // namespace

TransposePlan plan_transpose(const StridedLayout& x, const TransposeDims& dims,
                             int64_t out_alignment) {
  int64_t numel = 1;
  for (int64_t d = 0; d < x.ndim; ++d) numel *= x.sizes[d];
  if (numel == 0) {
    TransposePlan plan;
    plan.path = TransposePath::Empty;
    plan.reason = "zero-size tensor: nothing to move";
    return plan;
  }
  const int64_t es = x.itemsize;
  if (es == 0) {
    return fallback("the dtype is not moved by the kernels");
  }
  const bool in_result_order = dims.copy_only ? swapped_is_contiguous(x, 0, 0)
                                              : swapped_is_contiguous(x, dims.dim0, dims.dim1);
  if (in_result_order) {
    TransposePlan plan;
    plan.path = TransposePath::Memcpy;
    plan.reason = "the input is already laid out in the result's order";
    plan.bytes = numel * es;
    plan.element_size = es;
    return plan;
  }
  const int64_t ndim = x.ndim;
  if (dims.copy_only || ndim < 2) {
    return fallback("a 0-D or 1-D input that is not contiguous");
  }
  // The result's dims in its own (contiguous) order, each with the input's stride, size-1
  // dims dropped and neighbours fused where they lie back to back in the input too (a
  // transposed view's dims, a permuted batch, the dims after the swapped pair). A batch of
  // matrix transposes is left where the result's last fused dim is the element (unit
  // stride), the one before it the input's rows, and the one before that the input's
  // columns, one element apart: (batch, cols, rows, element).
  constexpr int kMaxDims = 64;
  if (ndim > kMaxDims) {
    return fallback("more than 64 dims");
  }
  int64_t fused_sizes[kMaxDims];
  int64_t fused_strides[kMaxDims];
  int64_t fused = 0;
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = i == dims.dim0 ? dims.dim1 : i == dims.dim1 ? dims.dim0 : i;
    if (x.sizes[d] == 1) continue;
    if (fused > 0 && fused_strides[fused - 1] == x.strides[d] * x.sizes[d]) {
      fused_sizes[fused - 1] *= x.sizes[d];
      fused_strides[fused - 1] = x.strides[d];
    } else {
      fused_sizes[fused] = x.sizes[d];
      fused_strides[fused] = x.strides[d];
      ++fused;
    }
  }
  int64_t element_numel = 1;
  if (fused > 0 && fused_strides[fused - 1] == 1) {
    element_numel = fused_sizes[fused - 1];
    --fused;
  }
  if (fused < 2 || fused_strides[fused - 2] != element_numel) {
    return fallback(
        "no batch of matrix transposes: the result's dims do not fuse into (batch, cols, rows, "
        "element) with the input's rows contiguous (a permutation of three or more dims, or "
        "strided elements)");
  }
  if (fused > 3) {
    return fallback("the batch dims cannot be folded into one stride");
  }
  const int64_t element_size = es * element_numel;
  const bool wide = element_size > 16;
  if (wide ? element_size % 16 != 0 : (element_size & (element_size - 1)) != 0) {
    return fallback(
        "the element (the trailing dims that keep their order) is neither 1, 2, 4, 8 or 16 bytes "
        "nor a multiple of 16");
  }

  TransposePlan plan;
  plan.bytes = numel * es;
  plan.element_size = element_size;
  plan.out_alignment = out_alignment;
  plan.rows = fused_sizes[fused - 1];
  plan.cols = fused_sizes[fused - 2];
  if (fused_strides[fused - 1] % element_numel != 0) {
    return fallback("rows overlap, or lie a part of an element apart");
  }
  plan.row_stride = fused_strides[fused - 1] / element_numel;
  if (plan.row_stride == 0) {
    return fallback("expanded rows (stride 0)");
  }
  if (plan.row_stride < plan.cols) {
    return fallback("rows overlap, or lie a part of an element apart");
  }
  plan.batch = 1;
  plan.batch_stride = plan.rows * plan.row_stride;
  if (fused == 3) {
    if (fused_strides[0] == 0) {
      return fallback("expanded batch dim (stride 0)");
    }
    if (fused_strides[0] % element_numel != 0) {
      return fallback("the batch dims cannot be folded into one stride");
    }
    plan.batch = fused_sizes[0];
    plan.batch_stride = fused_strides[0] / element_numel;
  }
  const bool contiguous = plan.row_stride == plan.cols &&
                          (plan.batch == 1 || plan.batch_stride == plan.rows * plan.cols);
  // The kernels read whole elements, 16-byte units of wide ones.
  const int64_t access = std::min<int64_t>(element_size, 16);
  if (x.address % access != 0 || out_alignment % access != 0) {
    return fallback("data pointer not aligned to the element size");
  }
  if (wide) {
    // The kernel's unit and row indices are 32-bit (FastDivider).
    constexpr int64_t k2G = int64_t{1} << 31;
    if (plan.rows * (element_size / 16) >= k2G || plan.batch * plan.cols >= k2G) {
      return fallback(
          "elements wider than 16 bytes, an output row of 2^31 16-byte units or more, or 2^31 "
          "rows");
    }
    plan.path = TransposePath::WideElements;
    plan.reason = "elements wider than 16 bytes (the trailing dims that keep their order)";
    plan.load_bytes = 16;
    plan.store_bytes = 16;
    return plan;
  }
  plan.path = contiguous ? TransposePath::TiledContiguous : TransposePath::TiledRowStrided;
  plan.reason = contiguous ? "a batch of contiguous matrices, transposed"
                           : "strided rows with unit stride inside each row";
  plan.load_bytes = rows_aligned_16(x.address, plan.row_stride * element_size, plan.batch,
                                    plan.batch_stride * element_size)
                        ? 16
                        : 4;
  plan.store_bytes = rows_aligned_16(static_cast<uintptr_t>(out_alignment),
                                     plan.rows * element_size, plan.batch,
                                     plan.rows * plan.cols * element_size)
                         ? 16
                         : 4;
  return plan;
}

}  // namespace gputranspose
