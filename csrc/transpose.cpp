// The op: its schema and its C++ API, in one file (as torchvision's csrc/ops do).
// Kernels live beside it: cpu/ (ATen reference, also the Meta kernel),
// cuda/ (tiled kernels, cuBLAS peer), autograd/.

#include <gputranspose/transpose.h>

#include "layout.h"
#include "transpose_op.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#ifndef GPUTRANSPOSE_VERSION
#define GPUTRANSPOSE_VERSION "unknown"
#endif

TORCH_LIBRARY(gputranspose, m) {
  m.def("transpose(Tensor x, int dim0=-2, int dim1=-1) -> Tensor",
        {at::Tag::pt2_compliant_tag});
  // The out variant mutates `out` and returns nothing. A custom op may not
  // return an alias of an input under torch.compile: functionalization
  // (auto_functionalized) only handles mutable custom ops whose outputs are
  // fresh tensors, so `-> Tensor(a!)` would break compiled graphs. The Python
  // and C++ wrappers hand `out` back to the caller themselves.
  m.def("transpose.out(Tensor x, int dim0=-2, int dim1=-1, *, Tensor(a!) out) -> ()",
        {at::Tag::pt2_compliant_tag});
  m.def("transpose_cublas(Tensor x) -> Tensor");
}

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

at::Tensor transpose_cublas(const at::Tensor& x) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("gputranspose::transpose_cublas", "")
                       .typed<at::Tensor(const at::Tensor&)>();
  return op.call(x);
}

Explanation explain(const at::Tensor& x, int64_t dim0, int64_t dim1) {
  const TransposePlan plan = plan_transpose(x, dim0, dim1);
  return {path_name(plan.path), plan.reason, plan.load_bytes, plan.store_bytes};
}

const char* version() {
  return GPUTRANSPOSE_VERSION;
}

#ifndef GPUTRANSPOSE_WITH_CUDA
bool has_cuda_kernels() {
  return false;
}
const char* cuda_arch_list() {
  return "";
}
#endif

}  // namespace gputranspose
