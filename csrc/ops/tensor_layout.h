#pragma once
// A tensor as the framework-free core sees it: dims wrapped as ATen wraps them, the
// layouts the op refuses (with a message that says what to do), and the plan.

#include "../core/layout_plan.h"

#include <ATen/core/Tensor.h>
#include <c10/core/MemoryFormat.h>
#include <c10/util/SmallVector.h>

#include <optional>

namespace gputranspose {

// Raises IndexError for dims out of range, as x.transpose(dim0, dim1) does.
TransposeDims wrap_transpose_dims(const at::Tensor& x, int64_t dim0, int64_t dim1);

// nullptr for a strided (dense) tensor; for a layout the op does not take (sparse,
// quantized, nested, mkldnn), a message naming it and what to do instead.
const char* unsupported_layout(const at::Tensor& x);
// Raises NotImplementedError with that message.
void check_supported_layout(const at::Tensor& x, const char* op);

// `out_alignment`: of the output's data pointer (a fresh allocation: 256).
TransposePlan plan_transpose(const at::Tensor& x, const TransposeDims& dims,
                             int64_t out_alignment = 256);

// The result's dims as x's dims: `dims` wrapped, checked as x.permute(dims) checks them
// (IndexError out of range, RuntimeError for a wrong count or a repeated dim).
using DimOrder = c10::SmallVector<int64_t, 8>;
DimOrder wrap_permutation(const at::Tensor& x, at::IntArrayRef dims, const char* op);

// The order in which a tensor of `memory_format` lays out x's dims, outermost first
// (contiguous: 0, 1, ..., n-1; channels_last: 0, 2, 3, 1; channels_last_3d: 0, 2, 3, 4, 1);
// raises for preserve_format and for a format that does not fit x's rank, as ATen does.
DimOrder memory_format_order(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format,
                             const char* op);

// `out_alignment`: of the output's data pointer (a fresh allocation: 256).
TransposePlan plan_permute(const at::Tensor& x, at::IntArrayRef order,
                           int64_t out_alignment = 256);

// x.transpose(dim0, dim1) as a view (x itself for the 0-D/1-D copy case): the tensor
// whose contiguous copy is the result.
at::Tensor transposed_view(const at::Tensor& x, const TransposeDims& dims);

}  // namespace gputranspose
