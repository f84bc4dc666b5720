#pragma once
// gputranspose: a matrix transpose for PyTorch tensors that runs at copy speed on NVIDIA
// GPUs. This header is the C++ API for LibTorch apps; it needs no Python. Link the target
// gputranspose::gputranspose (find_package(gputranspose)).

#include <ATen/core/Tensor.h>
#include <c10/core/MemoryFormat.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gputranspose {

// A new contiguous tensor equal to x.transpose(dim0, dim1).contiguous(); never aliases
// x. The defaults swap the last two dims (a batch of matrices); other adjacent dims take
// the dims after them as the element (transpose(q, 1, 2) of a (B, S, H, D) tensor moves
// rows of D values); a 0-D or 1-D input gives a copy, as x.t() does. Differentiable.
at::Tensor transpose(const at::Tensor& x, int64_t dim0 = -2, int64_t dim1 = -1);

// The same, written into `out` (see README: the out= contract).
void transpose_out(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out);

// A new contiguous tensor equal to x.permute(dims).contiguous(); never aliases x. Any
// permutation of any rank: the dims that stay together are fused and the result moved as
// a batch of matrix transposes where it is one (see explain_permute). Differentiable.
at::Tensor permute(const at::Tensor& x, at::IntArrayRef dims);
void permute_out(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out);

// x's values in a new dense tensor of `memory_format` (contiguous by default;
// channels_last for 4-D, channels_last_3d for 5-D), from any strided x: equal to
// x.contiguous(memory_format), but always a copy. Differentiable.
at::Tensor contiguous(const at::Tensor& x,
                      std::optional<at::MemoryFormat> memory_format = std::nullopt);

// What a transpose (or permute) of `x` runs, and why.
struct Explanation {
  // "empty", "memcpy", "tiled_contiguous", "tiled_row_strided", "tiled_units",
  // "small_dim", "batched_small", "element_runs", "wide_elements", "nd_tiles",
  // "aten_fallback", or "unsupported" (a layout the op raises for: sparse, quantized,
  // nested, mkldnn). Where a device's kernel choice was made, the path it takes (the choice
  // sends tiled layouts whose tiles the tensor barely fills to "aten_fallback", say).
  std::string path;
  // Why: the plan's reason, or the choice's where it falls back to ATen's copy or takes
  // tiles over several dims.
  std::string reason;
  // The layout's own path and reason (the plan, known without a device). `path` differs
  // where a device's kernel choice runs the layout elsewhere (a batch of small matrices as
  // "batched_small", a 2-D copy of short rows as "aten_fallback"); `reason` too where the
  // choice gives one (above).
  std::string plan_path;
  std::string plan_reason;
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
  int64_t col_stride = 0;  // 1 but for wide and strided elements, whose columns may lie anywhere
  // The bytes one unit of the input strides spans: element_size, but a value's size where
  // strided elements lie a part of an element apart (path tiled_units).
  int64_t stride_unit = 0;
  // Where each matrix's transpose lands in the result (elements): matrix b's output row j
  // (input column j) at b * out_batch_stride + j * out_row_stride.
  int64_t out_batch_stride = 0;
  int64_t out_row_stride = 0;
  // A permutation's further batch dims (none for a batch of transposes): the kernels run
  // every batch of matrices once for each index into them; dim k has size outer_sizes[k]
  // and moves the input by outer_strides[k], the output by outer_out_strides[k] elements.
  std::vector<int64_t> outer_sizes;
  std::vector<int64_t> outer_strides;
  std::vector<int64_t> outer_out_strides;
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
// What permute(x, dims) runs, and why; contiguous(x, memory_format) runs the permute of x
// into the format's dim order (contiguous: 0, 1, ..., channels_last: 0, 2, 3, 1).
Explanation explain_permute(const at::Tensor& x, at::IntArrayRef dims, int device = -1);

// Build facts.
const char* version();
bool has_cuda_kernels();
const char* cuda_arch_list();  // the architectures the kernels were compiled for
bool development_build();      // whether tuning overrides are compiled in

}  // namespace gputranspose
