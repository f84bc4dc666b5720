#pragma once
// The dispatcher's handle of gputranspose::transpose (defined beside its schema in
// transpose.cpp), for the kernels that call it again: the C++ API calls it from the
// top, the autograd kernel redispatches below autograd.

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>

namespace gputranspose {

using TransposeOp = c10::TypedOperatorHandle<at::Tensor(const at::Tensor&, int64_t, int64_t)>;
const TransposeOp& transpose_op();

}  // namespace gputranspose
