#pragma once
// gputranspose: a matrix transpose for PyTorch tensors that runs at copy speed on NVIDIA
// GPUs. This header is the C++ API for LibTorch apps; it needs no Python. Link the target
// gputranspose::gputranspose (find_package(gputranspose)).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace gputranspose {

// A new contiguous tensor equal to x.transpose(dim0, dim1).contiguous(); never aliases
// x. The defaults swap the last two dims (a batch of matrices); other adjacent dims take
// the dims after them as the element (transpose(q, 1, 2) of a (B, S, H, D) tensor moves
// rows of D values); a 0-D or 1-D input gives a copy, as x.t() does. Differentiable.
at::Tensor transpose(const at::Tensor& x, int64_t dim0 = -2, int64_t dim1 = -1);

// The same, written into `out` (see README: the out= contract).
void transpose_out(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out);

// What a transpose of `x` runs, and why.
struct Explanation {
  // "empty", "memcpy", "tiled_contiguous", "tiled_row_strided", "wide_elements",
  // "aten_fallback", or "unsupported" (a layout the op raises for: sparse, quantized,
  // nested, mkldnn). Where a device's kernel choice was made, the path it takes: the
  // choice sends tiled layouts whose tiles the tensor barely fills to "aten_fallback".
  std::string path;
  std::string reason;
  // The kernel a CUDA device runs for it (e.g. "tiled<e=1, load=staged, store=aligned16,
  // tiling=wide, l2=normal>", "memcpy"), or "" where none runs or none is known: then
  // `note` says why (no CUDA device to choose for, a build without CUDA kernels).
  std::string kernel;
  std::string note;
  int device = -1;  // the CUDA device whose facts chose `kernel`
  int64_t element_size = 0;  // bytes the kernels move as one element
  // The layout as the kernels see it (0 off the kernels' paths): `batch` matrices of
  // rows x cols elements, matrix b's row i at element b * batch_stride + i * row_stride.
  int64_t batch = 0;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t batch_stride = 0;
  int64_t row_stride = 0;
  // How each side's rows start (the layout's facts, known without a device): 16 where
  // every row starts 16-byte aligned, 4 where rows start anywhere; 0 off the tiled paths.
  int64_t load_bytes = 0;
  int64_t store_bytes = 0;
  // The tiled kernel's instance, and how it walks (empty / 0 off the tiled paths).
  std::string tiling;    // "wide", "small", "folded", "tall"
  std::string load;      // "aligned16", "words", "staged"
  std::string store;     // "aligned16", "words" (skewed tiles)
  std::string input_l2;  // "normal", "evict_last" (wide elements too)
  int64_t tile_rows = 0;
  int64_t tile_cols = 0;
  int64_t group_rows = 0;
  bool interleave = false;
  // Launch shape: one block a tile.
  int64_t blocks = 0;
  int64_t threads = 0;
  int64_t shared_bytes = 0;
  // The share of the launched tiles that the tensor fills (0 off the tiled and
  // wide-element paths): far under 1, most of the kernel's work moves nothing (a swapped
  // dim much smaller than a tile). Under 0.1 the choice takes the framework's copy instead
  // ("aten_fallback", with the share of the tiles the tiled kernel would launch).
  double tile_utilization = 0;
};
// `device`: the CUDA device to choose for when x is not on one (-1: x's device if it is
// a CUDA tensor, else the current CUDA device, if any).
Explanation explain(const at::Tensor& x, int64_t dim0 = -2, int64_t dim1 = -1, int device = -1);

// Build facts.
const char* version();
bool has_cuda_kernels();
const char* cuda_arch_list();  // the architectures the kernels were compiled for
bool development_build();      // whether tuning overrides are compiled in

}  // namespace gputranspose
