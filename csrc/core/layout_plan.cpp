#include "layout_plan.h"

#include "nd_tiles.h"

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
    case TransposePath::TiledUnits:
      return "tiled_units";
    case TransposePath::WideElements:
      return "wide_elements";
    case TransposePath::SmallDim:
      return "small_dim";
    case TransposePath::BatchedSmall:
      return "batched_small";
    case TransposePath::ElementRuns:
      return "element_runs";
    case TransposePath::NdTiles:
      return "nd_tiles";
    case TransposePath::AtenFallback:
      return "aten_fallback";
  }
  return "unknown";
}

int64_t unit_bytes(int64_t element_size) {
  int64_t unit = 8;
  while (element_size % unit != 0) unit /= 2;
  return unit;
}

int64_t pointer_alignment(uintptr_t address) {
  int64_t alignment = 256;
  while (alignment > 1 && address % alignment != 0) alignment /= 2;
  return alignment;
}

bool batches_aligned_16(uintptr_t address, const TransposePlan& plan, int64_t batch_stride,
                        const int64_t* outer_strides) {
  const int64_t e = plan.element_size;
  bool aligned = address % 16 == 0 && (plan.batch == 1 || (batch_stride * e) % 16 == 0);
  for (int i = 0; i < plan.outer_dims; ++i) aligned = aligned && (outer_strides[i] * e) % 16 == 0;
  return aligned;
}

namespace {

TransposePlan fallback(const char* reason) {
  TransposePlan plan;
  plan.path = TransposePath::AtenFallback;
  plan.reason = reason;
  return plan;
}

}  // namespace

int fuse_result_dims(const StridedLayout& x, const int64_t* order, int64_t* sizes,
                     int64_t* strides) {
  int n = 0;
  for (int64_t i = 0; i < x.ndim; ++i) {
    const int64_t d = order[i];
    if (x.sizes[d] == 1) continue;
    if (n > 0 && strides[n - 1] == x.strides[d] * x.sizes[d]) {
      sizes[n - 1] *= x.sizes[d];
      strides[n - 1] = x.strides[d];
    } else {
      sizes[n] = x.sizes[d];
      strides[n] = x.strides[d];
      ++n;
    }
  }
  return n;
}

TransposePlan plan_transpose(const StridedLayout& x, const TransposeDims& dims,
                             int64_t out_alignment) {
  if (x.ndim > kMaxDims) {
    return fallback("more than 64 dims");
  }
  int64_t order[kMaxDims];
  for (int64_t i = 0; i < x.ndim; ++i) {
    order[i] = dims.copy_only ? i : i == dims.dim0 ? dims.dim1 : i == dims.dim1 ? dims.dim0 : i;
  }
  return plan_permute(x, order, out_alignment);
}

namespace {

// The result as a batch of matrix transposes (or a copy), without the tiles over several dims.
TransposePlan plan_matrices(const StridedLayout& x, const int64_t* order, int64_t out_alignment) {
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
  if (x.ndim > kMaxDims) {
    return fallback("more than 64 dims");
  }
  // The result's dims in its own (contiguous) order, each with the input's stride, size-1
  // dims dropped and neighbours fused where they lie back to back in the input too (a
  // transposed view's dims, a permuted batch, the dims after the swapped pair).
  int64_t sizes[kMaxDims];
  int64_t strides[kMaxDims];
  int n = fuse_result_dims(x, order, sizes, strides);
  if (n == 0 || (n == 1 && strides[0] == 1)) {
    TransposePlan plan;
    plan.path = TransposePath::Memcpy;
    plan.reason = "the input is already laid out in the result's order";
    plan.bytes = numel * es;
    plan.element_size = es;
    return plan;
  }
  // The trailing run that keeps its order is the element; of the rest, the result's last
  // dim is the input's rows, the dim one element apart in the input its columns, and every
  // other dim a batch dim: (..., cols, ..., rows, element).
  int64_t element_numel = 1;
  if (strides[n - 1] == 1) {
    element_numel = sizes[n - 1];
    --n;
  }
  const int64_t element_size = es * element_numel;
  // Elements of other sizes move as units: the largest power of two, up to 8, dividing them.
  const bool odd_size = element_size > 16 ? element_size % 16 != 0
                                          : (element_size & (element_size - 1)) != 0;
  // The tiled kernels move whole elements and the wide kernel 16-byte units, so both data
  // pointers must lie on them; where one does not (a view at a byte offset, an out= buffer
  // at one), the unit-tiled kernel moves units of what the pointers share.
  const int64_t whole_access = std::min<int64_t>(element_size, 16);
  const bool off_alignment =
      !odd_size && (x.address % whole_access != 0 || out_alignment % whole_access != 0);
  // Elements over 682 bytes (more than the unit-tiled kernel's tile holds) take the wide
  // kernel at any size and address, in units of what they share (kernel_choice.cpp).
  const bool big = element_size > kMaxUnitElementBytes;
  const bool wide_elements = element_size > 16 && (big || (!odd_size && !off_alignment));
  // One dim left whose rows lie a pitch apart in the result's order (a copy of a slice, a
  // transpose with a size-1 dim): the result is those rows back to back, a 2-D copy (the
  // batched-small kernel's, or cudaMemcpy2DAsync's: kernel_choice.cpp). Wide rows that lie
  // on 16 bytes stay with the wide kernel, a 16-byte unit a lane.
  constexpr int64_t kMaxPitchBytes = (int64_t{1} << 31) - 1;  // cudaMemcpy2D's pitch limit
  const bool rows_on_16 = element_size % 16 == 0 && n == 1 && (strides[0] * es) % 16 == 0 &&
                          x.address % 16 == 0 && out_alignment % 16 == 0;
  if (n == 1 && strides[0] > 0 && strides[0] * es >= element_size &&
      strides[0] * es <= kMaxPitchBytes && !(wide_elements && rows_on_16)) {
    TransposePlan plan;
    plan.path = TransposePath::Memcpy;
    plan.reason = "rows in the result's order, a pitch apart: a 2-D copy";
    plan.bytes = numel * es;
    plan.element_size = element_size;
    plan.batch = 1;
    plan.rows = sizes[0];
    plan.cols = 1;
    plan.row_stride = strides[0];
    plan.stride_unit = es;
    plan.out_row_stride = 1;
    plan.value_size = es;
    plan.in_alignment = pointer_alignment(x.address);
    plan.out_alignment = out_alignment;
    return plan;
  }
  // One dim left besides wide elements (strided or repeated ones, in the result's order):
  // a matrix of one column, whose rows are those elements.
  if (wide_elements && n == 1) {
    sizes[1] = sizes[0], strides[1] = strides[0];
    sizes[0] = 1, strides[0] = element_numel;
    n = 2;
  }
  int cols_dim = -1;
  for (int i = 0; i + 1 < n; ++i) {
    if (strides[i] == element_numel) cols_dim = i;
  }
  // Wide elements are moved unit by unit, each a contiguous run on both sides: any dim
  // before the rows can be the columns, at any stride (q of a packed qkv, expanded heads).
  if (cols_dim < 0 && wide_elements && n >= 2) cols_dim = n - 2;
  // Strided elements (no dim one element apart: a row slice that cuts the dims after the
  // swapped pair, a strided last dim): the unit-tiled kernel reads each element as its own
  // run of units, so its columns may lie at any positive stride; the columns are the dim
  // nearest in the input, whose tile rows then read the fewest lines.
  bool strided_elements = false;
  if (cols_dim < 0 && n >= 2 && element_size <= kMaxUnitElementBytes && strides[n - 1] > 0) {
    for (int i = 0; i + 1 < n; ++i) {
      if (strides[i] > 0 && (cols_dim < 0 || strides[i] < strides[cols_dim])) cols_dim = i;
    }
    strided_elements = cols_dim >= 0;
  }
  if (cols_dim < 0) {
    return fallback(
        "no batch of matrix transposes: no dim of the result but its last lies one element "
        "apart in the input (strided elements, or strided rows that overlap or repeat)");
  }
  // Strides that are no whole number of elements (rows or batches a part of an element
  // apart: a pitch cutting mid-element) are counted in values: the unit-tiled kernel takes
  // them so, and the wide kernel where each lies on its 16-byte units.
  bool whole_strides = true, strides_on_16 = true;
  for (int i = 0; i < n; ++i) {
    whole_strides = whole_strides && strides[i] % element_numel == 0;
    strides_on_16 = strides_on_16 && (strides[i] * es) % 16 == 0;
  }
  const bool value_strides = strided_elements || !whole_strides;
  const bool units = !big && (odd_size || off_alignment || strided_elements ||
                              (!whole_strides && !(wide_elements && strides_on_16)));
  const bool wide = wide_elements && !units;
  if (n - 3 > kMaxOuterDims) {
    return fallback("the result's dims fuse into more than 9 batch dims");
  }
  const int64_t stride_numel = value_strides ? 1 : element_numel;
  for (int i = 0; i < n; ++i) {
    if (strides[i] == 0 && !wide) {
      return fallback(i == n - 1 ? "expanded rows (stride 0)" : "expanded batch dim (stride 0)");
    }
  }

  TransposePlan plan;
  plan.bytes = numel * es;
  plan.element_size = element_size;
  plan.value_size = es;
  plan.in_alignment = pointer_alignment(x.address);
  plan.out_alignment = out_alignment;
  plan.stride_unit = stride_numel * es;
  plan.rows = sizes[n - 1];
  plan.cols = sizes[cols_dim];
  plan.row_stride = strides[n - 1] / stride_numel;
  plan.col_stride = strides[cols_dim] / stride_numel;
  // The tiled kernels read rows as runs that must not overlap.
  if (!wide && !units && plan.row_stride < plan.cols) {
    return fallback("rows overlap");
  }
  plan.out_row_stride = 1;
  for (int i = cols_dim + 1; i < n; ++i) plan.out_row_stride *= sizes[i];
  // The largest batch dim is the kernels' batch (small matrices fold into tiles along it);
  // the others are outer dims.
  int batch_dim = -1;
  for (int i = 0; i + 1 < n; ++i) {
    if (i != cols_dim && (batch_dim < 0 || sizes[i] > sizes[batch_dim])) batch_dim = i;
  }
  plan.batch = 1;
  plan.batch_stride = plan.rows * plan.row_stride;
  plan.out_batch_stride = plan.rows * plan.cols;
  int64_t out_stride = 1;  // of result dim i, in elements
  for (int i = n - 1; i >= 0; --i) {
    const int64_t in_stride = strides[i] / stride_numel;
    if (i == batch_dim) {
      plan.batch = sizes[i];
      plan.batch_stride = in_stride;
      plan.out_batch_stride = out_stride;
    } else if (i != cols_dim && i != n - 1) {
      plan.outer_sizes[plan.outer_dims] = sizes[i];
      plan.outer_strides[plan.outer_dims] = in_stride;
      plan.outer_out_strides[plan.outer_dims] = out_stride;
      plan.outer_count *= sizes[i];
      ++plan.outer_dims;
    }
    out_stride *= sizes[i];
  }
  // The outer batches are counted in 32 bits (FastDivider) by the grid's y and z dims.
  if (plan.outer_count >= (int64_t{1} << 30)) {
    return fallback("2^30 outer batches or more");
  }
  const bool contiguous = plan.outer_dims == 0 && plan.row_stride == plan.cols &&
                          plan.out_row_stride == plan.rows &&
                          (plan.batch == 1 || plan.batch_stride == plan.rows * plan.cols);
  if (wide) {
    // The kernel's unit and row indices are 32-bit (FastDivider).
    constexpr int64_t k2G = int64_t{1} << 31;
    if (plan.rows * (element_size / 16) >= k2G || plan.batch * plan.cols >= k2G) {
      return fallback(
          "elements wider than 16 bytes, an output row of 2^31 16-byte units or more, or 2^31 "
          "rows");
    }
    plan.path = TransposePath::WideElements;
    plan.reason = !big || (!odd_size && !off_alignment && (whole_strides || strides_on_16))
                      ? "elements wider than 16 bytes (the trailing dims that keep their order)"
                      : "elements wider than 16 bytes (the trailing dims that keep their order), "
                        "off 16 bytes: moved in units of what they share";
    plan.load_bytes = 16;
    plan.store_bytes = 16;
    return plan;
  }
  if (units) {
    plan.path = TransposePath::TiledUnits;
    plan.reason = strided_elements
                      ? "strided elements (no dim lies one element apart), each read as its own "
                        "run of units"
                  : odd_size ? "elements of no power-of-two size (odd trailing blocks), moved as units"
                  : off_alignment
                      ? "a data pointer off the element's alignment (16 bytes for wide elements), "
                        "moved as units of what the pointers share"
                      : "rows or batches a part of an element apart, moved as units";
    return plan;
  }
  plan.path = contiguous ? TransposePath::TiledContiguous : TransposePath::TiledRowStrided;
  const bool permutation = plan.outer_dims > 0 || plan.out_row_stride != plan.rows ||
                           (plan.batch > 1 && plan.out_batch_stride != plan.rows * plan.cols);
  plan.reason = contiguous    ? "a batch of contiguous matrices, transposed"
                : permutation ? "a permutation: strided matrices transposed over batch dims"
                              : "strided rows with unit stride inside each row";
  // Every row of every matrix starts 16-byte aligned where the data pointer and each
  // stride between rows (the row, batch and outer strides) are multiples of 16 bytes.
  auto rows_aligned_16 = [&](uintptr_t address, int64_t row, int64_t batch, const int64_t* outer) {
    return (row * element_size) % 16 == 0 && batches_aligned_16(address, plan, batch, outer);
  };
  plan.load_bytes =
      rows_aligned_16(x.address, plan.row_stride, plan.batch_stride, plan.outer_strides) ? 16 : 4;
  plan.store_bytes = rows_aligned_16(static_cast<uintptr_t>(out_alignment), plan.out_row_stride,
                                     plan.out_batch_stride, plan.outer_out_strides)
                         ? 16
                         : 4;
  return plan;
}

}  // namespace

// Tiled plans whose matrices have a side this short or shorter may fill the tiled kernel's
// tiles so little that the kernel choice would run the framework's copy (under a tenth of a
// tile of 64-256 elements a side): they carry the tiles over several dims too. Others skip
// that planning (host time per call): nd tiles forced onto them elsewhere lost (nd_tiles=1,
// permute sweep's distribution, H100: 7 wins in 154 cases; docs/DESIGN.md).
constexpr int64_t kMaxShortSideForNdTiles = 32;

TransposePlan plan_permute(const StridedLayout& x, const int64_t* order, int64_t out_alignment) {
  TransposePlan plan = plan_matrices(x, order, out_alignment);
  const bool tiled = plan.path == TransposePath::TiledContiguous ||
                     plan.path == TransposePath::TiledRowStrided;
  if (plan.path == TransposePath::AtenFallback ||
      (tiled && std::min(plan.rows, plan.cols) <= kMaxShortSideForNdTiles)) {
    plan.nd = plan_nd_tiles(x, order, out_alignment);
  }
  return plan;
}

}  // namespace gputranspose
