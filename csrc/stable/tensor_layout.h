#pragma once
// A stable-ABI tensor as the framework-free core sees it: dims wrapped as ATen wraps them
// (the messages of csrc/ops/tensor_layout.cpp), the element size of its dtype, and the
// plan. Only metadata that the stable C shim hands out (sizes, strides, dtype, data
// pointer) is read; shapes are concrete here (the fake kernels for symbolic shapes are
// Python's: torch_transpose/_registration.py).

#include "../core/layout_plan.h"

#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/MemoryFormat.h>

#include <optional>
#include <vector>

namespace gputranspose::stable {

using torch::stable::Tensor;
using DimOrder = std::vector<int64_t>;

// IndexError for dims out of range, as x.transpose(dim0, dim1) raises it.
TransposeDims wrap_transpose_dims(const Tensor& x, int64_t dim0, int64_t dim1);

// The result's dims as x's dims, checked as x.permute(dims) checks them.
DimOrder wrap_permutation(const Tensor& x, const std::vector<int64_t>& dims, const char* op);

// The order in which a tensor of `memory_format` lays out x's dims, outermost first.
DimOrder memory_format_order(const Tensor& x,
                             std::optional<torch::headeronly::MemoryFormat> memory_format,
                             const char* op);

// x's dims in `order` (the result's order).
std::vector<int64_t> sizes_in_order(const Tensor& x, const DimOrder& order);

// The bytes the kernels move as one element of x's dtype (1, 2, 4, 8, 16), or 0 for a
// dtype they do not take (those take ATen's copy).
int64_t kernel_element_size(const Tensor& x);

// `out_alignment`: of the output's data pointer (a fresh allocation: 256).
TransposePlan plan_transpose(const Tensor& x, const TransposeDims& dims, int64_t out_alignment = 256);
TransposePlan plan_permute(const Tensor& x, const DimOrder& order, int64_t out_alignment = 256);

// x.transpose(dim0, dim1) as a view (x itself for the 0-D/1-D copy case).
Tensor transposed_view(const Tensor& x, const TransposeDims& dims);
// x.permute(order) as a view (aten::permute through the dispatcher).
Tensor permuted_view(const Tensor& x, const DimOrder& order);
// A dense copy of x in `memory_format` (aten::clone through the dispatcher).
Tensor clone_as(const Tensor& x, torch::headeronly::MemoryFormat memory_format);

bool is_meta(const Tensor& x);
// "cpu", "cuda:0", "meta", as c10 prints a device.
std::string device_text(const Tensor& x);

}  // namespace gputranspose::stable
