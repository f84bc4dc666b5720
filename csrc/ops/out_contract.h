#pragma once
// The out= contract of transpose.out, shared by every backend
// (PyTorch's docs/source/notes/out.md): `out` must match x's dtype and device,
// must not overlap x, and must be contiguous; a zero-element `out` is resized to
// the result's shape, any other wrong shape is an error.

#include "tensor_layout.h"

#include <ATen/core/Tensor.h>

namespace gputranspose {

// Checks `out` against the contract and resizes an empty one.
void check_and_prepare_out(const at::Tensor& x, const at::Tensor& view, const at::Tensor& out);

}  // namespace gputranspose
