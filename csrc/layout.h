#pragma once
// Layout dispatch: which path a transpose of a given tensor takes.
// plan_transpose() is the single place that decides it; the CUDA kernel,
// the explainer (torch_transpose.explain) and the tests all read its answer.

#include <ATen/core/Tensor.h>

namespace gputranspose {

enum class TransposePath {
  Empty,            // nothing to move: a zero-size tensor
  Memcpy,           // the input is already laid out in the result's order: one copy
  TiledContiguous,  // (batch of) contiguous row-major matrices, adjacent dims swapped
  TiledRowStrided,  // rows strided (slices, padded pitch), unit stride inside a row
  WideElements,     // elements wider than 16 bytes (the dims after the swapped pair): a
                    // copy of whole elements into the result's order
  AtenFallback,     // anything else: at::transpose(...).clone(), correct but not fast
};

const char* path_name(TransposePath path);

// dim0/dim1 after wrapping; `copy_only` for 0-D/1-D inputs with the default
// dims, which return a copy as x.t() does. Raises IndexError for bad dims.
struct TransposeDims {
  int64_t dim0;
  int64_t dim1;
  bool copy_only;
};
TransposeDims wrap_transpose_dims(const at::Tensor& x, int64_t dim0, int64_t dim1);

// The input seen as `batch` matrices of rows x cols elements, row i of matrix b
// starting at element b * batch_stride + i * row_stride; the result is the
// contiguous batch x cols x rows tensor. The swapped dims are adjacent (rows and
// cols); the dims before them are the batch, and those after them make the element
// (element_size bytes: the dtype's size times their sizes), which the kernels move
// whole, never looking inside it.
struct TransposePlan {
  TransposePath path = TransposePath::AtenFallback;
  // A static string: planning runs on every call and allocates nothing.
  const char* reason = "";
  int64_t element_size = 0;  // bytes; 0 where the path does not move elements itself
  int64_t batch = 0;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t batch_stride = 0;  // elements
  int64_t row_stride = 0;    // elements
  // How the tiled kernels touch each side: 16 where every row starts 16-byte
  // aligned (128-bit accesses), 4 where rows start anywhere (aligned words or
  // staged chunks shifted into place, skewed tiles for stores: the launcher in
  // csrc/cuda/transpose_cuda.cu picks the variant, and gives skewed tiles to
  // 16-byte-aligned output rows too where they start mid-sector and span several
  // tiles); 0 off the tiled paths.
  int64_t load_bytes = 0;
  int64_t store_bytes = 0;
};

// `out_ptr_alignment`: the alignment in bytes of the output's data pointer
// (a fresh allocation is 256-byte aligned; an out= buffer may be less).
TransposePlan plan_transpose(
    const at::Tensor& x,
    int64_t dim0,
    int64_t dim1,
    int64_t out_ptr_alignment = 256);

}  // namespace gputranspose
