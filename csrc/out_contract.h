#pragma once
// The out= contract of transpose.out, shared by every backend
// (PyTorch's docs/source/notes/out.md): `out` must match x's dtype and device,
// must not overlap x, and must be contiguous; a zero-element `out` is resized to
// the result's shape, any other wrong shape is an error.

#include "layout.h"

#include <ATen/core/Tensor.h>

namespace gputranspose {

// x.transpose(dim0, dim1) as a view (x itself for the 0-D/1-D copy case):
// the tensor whose contiguous copy is the result.
at::Tensor transposed_view(const at::Tensor& x, const TransposeDims& dims);

// Checks `out` against the contract and resizes an empty one.
void check_and_prepare_out(const at::Tensor& x, const at::Tensor& view, const at::Tensor& out);

}  // namespace gputranspose
