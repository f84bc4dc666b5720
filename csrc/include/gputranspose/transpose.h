#pragma once
// gputranspose: a matrix transpose for PyTorch tensors that runs at copy speed
// on NVIDIA GPUs. This header is the C++ API for LibTorch apps; it needs no
// Python. Link the target gputranspose::gputranspose (find_package(gputranspose)).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace gputranspose {

// A new contiguous tensor equal to x.transpose(dim0, dim1).contiguous(); never
// aliases x. The defaults swap the last two dims (a batch of matrices); other
// adjacent dims take the dims after them as the element (transpose(q, 1, 2) of a
// (B, S, H, D) tensor moves rows of D values); a 0-D or 1-D input gives a copy, as
// x.t() does. Differentiable.
at::Tensor transpose(const at::Tensor& x, int64_t dim0 = -2, int64_t dim1 = -1);

// The same, written into `out` (see README: the out= contract).
void transpose_out(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out);

// cuBLAS geam's transpose of a 2-D float32/float64/complex64/complex128 CUDA
// tensor: the peer the benchmarks compare against.
at::Tensor transpose_cublas(const at::Tensor& x);

// Which path a transpose of `x` takes on CUDA ("empty", "memcpy",
// "tiled_contiguous", "tiled_row_strided", "wide_elements" or "aten_fallback"),
// and why.
struct Explanation {
  std::string path;
  std::string reason;
  int64_t load_bytes;   // bytes per access of the tiled kernels: 16 (128-bit) or 4
  int64_t store_bytes;  // (aligned words, for rows that start anywhere); 0 off them
};
Explanation explain(const at::Tensor& x, int64_t dim0 = -2, int64_t dim1 = -1);

// Build facts.
const char* version();
bool has_cuda_kernels();
const char* cuda_arch_list();  // the architectures the kernels were compiled for

}  // namespace gputranspose
