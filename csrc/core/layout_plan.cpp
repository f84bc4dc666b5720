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
  const int64_t lo = std::min(dims.dim0, dims.dim1);
  const int64_t hi = std::max(dims.dim0, dims.dim1);
  if (hi == lo) {
    return fallback("dim0 == dim1: a copy of a non-contiguous input");
  }
  if (hi != lo + 1) {
    return fallback("the swapped dims are not adjacent");
  }
  // The dims after the swapped pair move together: one element of the transpose
  // (x.transpose(1, 2) of a (B, S, H, D) tensor moves rows of D values), so it is a
  // batch of matrices of wider elements, which the kernels take by their size alone.
  int64_t element_numel = 1;
  for (int64_t d = ndim - 1; d > hi; --d) {
    if (x.sizes[d] == 1) {
      continue;
    }
    if (x.strides[d] != element_numel) {
      return fallback("the dims after the swapped pair are not contiguous");
    }
    element_numel *= x.sizes[d];
  }
  const int64_t element_size = es * element_numel;
  const bool wide = element_size > 16;
  if (wide ? element_size % 16 != 0 : (element_size & (element_size - 1)) != 0) {
    return fallback(
        "the dims after the swapped pair make elements of neither 1, 2, 4 or 8 bytes nor a "
        "multiple of 16");
  }
  // A stride in elements, or -1 where it is not a whole number of them.
  auto in_elements = [element_numel](int64_t stride) {
    return stride % element_numel == 0 ? stride / element_numel : -1;
  };

  TransposePlan plan;
  plan.bytes = numel * es;
  plan.element_size = element_size;
  plan.out_alignment = out_alignment;
  plan.rows = x.sizes[lo];
  plan.cols = x.sizes[hi];
  if (plan.cols > 1 && x.strides[hi] != element_numel) {
    return fallback("no unit stride inside a row");
  }
  plan.row_stride = plan.rows > 1 ? in_elements(x.strides[lo]) : plan.cols;
  if (plan.rows > 1 && plan.row_stride == 0) {
    return fallback("expanded rows (stride 0)");
  }
  if (plan.rows > 1 && plan.row_stride < plan.cols) {
    return fallback("rows overlap, or lie a part of an element apart");
  }
  // Fold the batch dims into one (batch, batch_stride) pair.
  plan.batch = 1;
  plan.batch_stride = plan.rows * plan.row_stride;
  bool have_batch_stride = false;
  for (int64_t d = lo - 1; d >= 0; --d) {
    const int64_t size = x.sizes[d];
    if (size == 1) {
      continue;
    }
    const int64_t stride = in_elements(x.strides[d]);
    if (stride == 0) {
      return fallback("expanded batch dim (stride 0)");
    }
    if (!have_batch_stride) {
      if (stride < 0) {
        return fallback("the batch dims cannot be folded into one stride");
      }
      plan.batch_stride = stride;
      have_batch_stride = true;
    } else if (stride != plan.batch * plan.batch_stride) {
      return fallback("the batch dims cannot be folded into one stride");
    }
    plan.batch *= size;
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
    plan.reason = "elements wider than 16 bytes (the dims after the swapped pair)";
    plan.load_bytes = 16;
    plan.store_bytes = 16;
    return plan;
  }
  plan.path = contiguous ? TransposePath::TiledContiguous : TransposePath::TiledRowStrided;
  plan.reason = contiguous ? "contiguous matrices, adjacent dims swapped"
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
