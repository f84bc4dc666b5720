// The transpose op's C++ API and the build's facts (registration.cpp registers every op;
// explain.cpp says what runs; the kernels live beside them: kernels.h).

#include <gputranspose/transpose.h>

#include "op_handles.h"

#ifdef GPUTRANSPOSE_WITH_CUDA
#include "../core/launch.h"
#endif

#include <ATen/core/dispatch/Dispatcher.h>

#ifndef GPUTRANSPOSE_VERSION
#define GPUTRANSPOSE_VERSION "unknown"
#endif

namespace gputranspose {

const TransposeOp& transpose_op() {
  static const TransposeOp op = c10::Dispatcher::singleton()
                                    .findSchemaOrThrow("gputranspose::transpose", "")
                                    .typed<at::Tensor(const at::Tensor&, int64_t, int64_t)>();
  return op;
}

at::Tensor transpose(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  return transpose_op().call(x, dim0, dim1);
}

void transpose_out(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("gputranspose::transpose", "out")
                       .typed<void(const at::Tensor&, int64_t, int64_t, at::Tensor&)>();
  op.call(x, dim0, dim1, out);
}

const char* version() {
  return GPUTRANSPOSE_VERSION;
}

bool has_cuda_kernels() {
#ifdef GPUTRANSPOSE_WITH_CUDA
  return true;
#else
  return false;
#endif
}

const char* cuda_arch_list() {
#ifdef GPUTRANSPOSE_WITH_CUDA
  return compiled_architectures();
#else
  return "";
#endif
}

bool development_build() {
#ifdef GPUTRANSPOSE_DEVELOPMENT
  return true;
#else
  return false;
#endif
}

}  // namespace gputranspose
