#pragma once
// The ops' kernels, one per dispatch key, which registration.cpp registers (once per
// process: see there). Each backend's file defines its own.

#include <gputranspose/transpose.h>

#include "../core/device_facts.h"
#include "../core/kernel_choice.h"

#include <ATen/core/Tensor.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/MemoryFormat.h>

#include <optional>

namespace gputranspose {

// CPU and Meta: the ATen reference (the Meta kernel gives fake tensors and
// torch.compile the result's shape; it runs on SymInts unchanged).
at::Tensor transpose_reference(const at::Tensor& x, int64_t dim0, int64_t dim1);
void transpose_out_reference(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out);
at::Tensor permute_reference(const at::Tensor& x, at::IntArrayRef dims);
void permute_out_reference(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out);
at::Tensor contiguous_reference(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format);

// Autograd (reverse and forward mode), in C++ so that LibTorch apps get gradients.
at::Tensor transpose_autograd(c10::DispatchKeySet keys, const at::Tensor& x, int64_t dim0,
                              int64_t dim1);
void transpose_out_autograd(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out);
at::Tensor permute_autograd(c10::DispatchKeySet keys, const at::Tensor& x, at::IntArrayRef dims);
void permute_out_autograd(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out);
at::Tensor contiguous_autograd(c10::DispatchKeySet keys, const at::Tensor& x,
                               std::optional<at::MemoryFormat> memory_format);

// Layouts the op refuses (sparse, quantized, nested, mkldnn): a short error that says
// what to do, rather than the dispatcher's list of missing kernels.
at::Tensor transpose_unsupported(const at::Tensor& x, int64_t dim0, int64_t dim1);
void transpose_out_unsupported(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out);
at::Tensor permute_unsupported(const at::Tensor& x, at::IntArrayRef dims);
void permute_out_unsupported(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out);
at::Tensor contiguous_unsupported(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format);

#ifdef GPUTRANSPOSE_WITH_CUDA
// CUDA: the core's kernels, or ATen's copy where the plan says (explain() tells).
at::Tensor transpose_cuda(const at::Tensor& x, int64_t dim0, int64_t dim1);
void transpose_out_cuda(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out);
at::Tensor permute_cuda(const at::Tensor& x, at::IntArrayRef dims);
void permute_out_cuda(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out);
at::Tensor contiguous_cuda(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format);
// The facts of a CUDA device, as the CUDA kernel reads them (raises on a CUDA error).
DeviceFacts cuda_device_facts(int device);
#endif

// Development builds: the CUDA kernel with other device facts and choice overrides
// (Tuning, kernel_choice.h: tests and tuning experiments; never reached from the registered op).
#if defined(GPUTRANSPOSE_WITH_CUDA) && defined(GPUTRANSPOSE_DEVELOPMENT)
at::Tensor transpose_cuda_tuned(const at::Tensor& x, int64_t dim0, int64_t dim1,
                                const Tuning& tuning);
at::Tensor permute_cuda_tuned(const at::Tensor& x, at::IntArrayRef dims, const Tuning& tuning);
#endif
#ifdef GPUTRANSPOSE_DEVELOPMENT
Explanation explain_tuned(const at::Tensor& x, int64_t dim0, int64_t dim1, int device,
                          const Tuning& tuning);
Explanation explain_permute_tuned(const at::Tensor& x, at::IntArrayRef dims, int device,
                                  const Tuning& tuning);
#endif

}  // namespace gputranspose
