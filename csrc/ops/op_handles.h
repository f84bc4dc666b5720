#pragma once
// The dispatcher's handles of the ops (transpose.cpp, permute.cpp), for the kernels that
// call them again: the C++ API calls them from the top, the autograd kernels redispatch
// below autograd.

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/MemoryFormat.h>

#include <optional>

namespace gputranspose {

using TransposeOp = c10::TypedOperatorHandle<at::Tensor(const at::Tensor&, int64_t, int64_t)>;
const TransposeOp& transpose_op();

using PermuteOp = c10::TypedOperatorHandle<at::Tensor(const at::Tensor&, at::IntArrayRef)>;
const PermuteOp& permute_op();

using ContiguousOp =
    c10::TypedOperatorHandle<at::Tensor(const at::Tensor&, std::optional<at::MemoryFormat>)>;
const ContiguousOp& contiguous_op();

}  // namespace gputranspose
