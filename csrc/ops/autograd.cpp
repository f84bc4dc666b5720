// Autograd, registered in C++ so that LibTorch apps get gradients without Python.
// The gradient of a transpose is the transpose of the gradient, through the op
// itself, so double backward works too; so is a forward-mode tangent (dual tensors,
// torch.func.jvp).

#include <gputranspose/transpose.h>

#include "kernels.h"
#include "tensor_layout.h"
#include "transpose_op.h"

#include <torch/autograd.h>

namespace gputranspose {
namespace {

class TransposeFunction : public torch::autograd::Function<TransposeFunction> {
 public:
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                            int64_t dim0, int64_t dim1) {
    ctx->saved_data["dim0"] = dim0;
    ctx->saved_data["dim1"] = dim1;
    at::AutoDispatchBelowADInplaceOrView guard;
    return gputranspose::transpose(x, dim0, dim1);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const int64_t dim0 = ctx->saved_data["dim0"].toInt();
    const int64_t dim1 = ctx->saved_data["dim1"].toInt();
    return {gputranspose::transpose(grads[0], dim0, dim1), at::Tensor(), at::Tensor()};
  }
};

// Forward-mode AD has one level (0), as ATen's own autograd kernels assume.
constexpr uint64_t kForwardLevel = 0;

}  // namespace

at::Tensor transpose_autograd(c10::DispatchKeySet keys, const at::Tensor& x, int64_t dim0,
                              int64_t dim1) {
  // Unsupported layouts (nested, sparse, quantized) reach this kernel first: say so
  // plainly rather than fail inside autograd's bookkeeping.
  check_supported_layout(x, "gputranspose.transpose");
  const at::Tensor tangent = x._fw_grad(kForwardLevel);
  at::Tensor result;
  if (!(at::GradMode::is_enabled() && x.requires_grad())) {
    // Nothing to record: no graph node, and on to the backend's kernel with the
    // keys already worked out, as ATen's own autograd kernels go (small tensors
    // are bound by the host's work per call).
    at::AutoDispatchBelowADInplaceOrView guard;
    result = transpose_op().redispatch(keys & c10::after_autograd_keyset, x, dim0, dim1);
  } else {
    // A C++ custom Function has no forward-mode formula and refuses inputs that carry
    // a tangent: it gets the primal (a view that keeps the graph), the tangent is set below.
    result = TransposeFunction::apply(tangent.defined() ? x._fw_primal(kForwardLevel) : x,
                                      dim0, dim1);
  }
  if (tangent.defined()) {
    result._set_fw_grad(gputranspose::transpose(tangent, dim0, dim1), kForwardLevel,
                        /*is_inplace_op=*/false);
  }
  return result;
}

void transpose_out_autograd(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out) {
  check_supported_layout(x, "gputranspose.transpose.out");
  TORCH_CHECK(!(at::GradMode::is_enabled() && (x.requires_grad() || out.requires_grad())),
              "gputranspose.transpose.out: out= does not support automatic differentiation, "
              "but an argument requires grad; call transpose(x) instead");
  TORCH_CHECK(!x._fw_grad(kForwardLevel).defined() && !out._fw_grad(kForwardLevel).defined(),
              "gputranspose.transpose.out: out= does not support forward-mode automatic "
              "differentiation, but an argument has a tangent; call transpose(x) instead");
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    gputranspose::transpose_out(x, dim0, dim1, out);
  }
  torch::autograd::impl::bump_version(out);
}

}  // namespace gputranspose
