#pragma once
// A tensor as the framework-free core sees it: dims wrapped as ATen wraps them, the
// layouts the op refuses (with a message that says what to do), and the plan.

#include "../core/layout_plan.h"

#include <ATen/core/Tensor.h>

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

// x.transpose(dim0, dim1) as a view (x itself for the 0-D/1-D copy case): the tensor
// whose contiguous copy is the result.
at::Tensor transposed_view(const at::Tensor& x, const TransposeDims& dims);

}  // namespace gputranspose
