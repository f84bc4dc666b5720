#pragma once
// The stable front end's kernels, which module.cpp registers with the dispatcher through
// the stable ABI (TORCH_BOX). Schemas: torch_transpose/_registration.py, the same as
// csrc/ops/registration.cpp's.

#include "tensor_layout.h"

#include <optional>
#include <vector>

namespace gputranspose::stable {

using torch::headeronly::MemoryFormat;

// CPU: ATen's ops through the stable dispatcher calls (the reference).
Tensor transpose_cpu(const Tensor& x, int64_t dim0, int64_t dim1);
void transpose_out_cpu(const Tensor& x, int64_t dim0, int64_t dim1, Tensor out);
Tensor permute_cpu(const Tensor& x, std::vector<int64_t> dims);
void permute_out_cpu(const Tensor& x, std::vector<int64_t> dims, Tensor out);
Tensor contiguous_cpu(const Tensor& x, std::optional<MemoryFormat> memory_format);

// gputranspose::_explain: the plan and the kernel choice as text (explain.cpp).
Tensor explain_op(const Tensor& x, std::vector<int64_t> dims, bool permute, int64_t device,
                  std::vector<int64_t> tuning, double memory_bytes_per_s);

#ifdef GPUTRANSPOSE_WITH_CUDA
// CUDA: the core's kernels, or ATen's copy where the plan says (explain() tells).
Tensor transpose_cuda(const Tensor& x, int64_t dim0, int64_t dim1);
void transpose_out_cuda(const Tensor& x, int64_t dim0, int64_t dim1, Tensor out);
Tensor permute_cuda(const Tensor& x, std::vector<int64_t> dims);
void permute_out_cuda(const Tensor& x, std::vector<int64_t> dims, Tensor out);
Tensor contiguous_cuda(const Tensor& x, std::optional<MemoryFormat> memory_format);
#ifdef GPUTRANSPOSE_DEVELOPMENT
Tensor transpose_tuned_cuda(const Tensor& x, int64_t dim0, int64_t dim1,
                            std::vector<int64_t> tuning, double memory_bytes_per_s);
Tensor permute_tuned_cuda(const Tensor& x, std::vector<int64_t> dims,
                          std::vector<int64_t> tuning, double memory_bytes_per_s);
#endif
#endif

}  // namespace gputranspose::stable
