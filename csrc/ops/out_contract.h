#pragma once
// The out= contract of the ops' out variants, shared by every backend
// (PyTorch's docs/source/notes/out.md): `out` must match x's dtype and device,
// must not overlap x, and must be contiguous; a zero-element `out` is resized to
// the result's shape, any other wrong shape is an error.

#include "tensor_layout.h"

#include <ATen/core/Tensor.h>

namespace gputranspose {

// Checks `out` against the contract and resizes an empty one.
// `view`: x in the result's shape; `op` names the op in errors.
void check_and_prepare_out(const at::Tensor& x, const at::Tensor& view, const at::Tensor& out,
                           const char* op = "gputranspose.transpose.out");

}  // namespace gputranspose
