// The permute and contiguous ops' C++ API (registration.cpp registers them; explain.cpp
// says what runs; the kernels live beside them: kernels.h). Both move x's values into a
// dense result in another dim order, through the one layout plan (core/layout_plan.h).

#include <gputranspose/transpose.h>

#include "op_handles.h"

#include <ATen/core/dispatch/Dispatcher.h>

namespace gputranspose {

const PermuteOp& permute_op() {
  static const PermuteOp op = c10::Dispatcher::singleton()
                                  .findSchemaOrThrow("gputranspose::permute", "")
                                  .typed<at::Tensor(const at::Tensor&, at::IntArrayRef)>();
  return op;
}

const ContiguousOp& contiguous_op() {
  static const ContiguousOp op =
      c10::Dispatcher::singleton()
          .findSchemaOrThrow("gputranspose::contiguous", "")
          .typed<at::Tensor(const at::Tensor&, std::optional<at::MemoryFormat>)>();
  return op;
}

at::Tensor permute(const at::Tensor& x, at::IntArrayRef dims) {
  return permute_op().call(x, dims);
}

void permute_out(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("gputranspose::permute", "out")
                       .typed<void(const at::Tensor&, at::IntArrayRef, at::Tensor&)>();
  op.call(x, dims, out);
}

at::Tensor contiguous(const at::Tensor& x, std::optional<at::MemoryFormat> memory_format) {
  return contiguous_op().call(x, memory_format);
}

}  // namespace gputranspose
