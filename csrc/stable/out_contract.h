#pragma once
// The out= contract of the ops' out variants (csrc/ops/out_contract.h, the same messages):
// `out` must match x's dtype and device, be strided and contiguous and not overlap x; a
// zero-element `out` is resized to the result's shape, any other wrong shape is an error.

#include "tensor_layout.h"

namespace gputranspose::stable {

// `result_sizes`: the result's shape; `op` names the op in errors.
void check_and_prepare_out(const Tensor& x, const std::vector<int64_t>& result_sizes, Tensor& out,
                           const char* op);

}  // namespace gputranspose::stable
