// Autograd, registered in C++ so that LibTorch apps get gradients without Python.
// The gradient of a transpose is the transpose of the gradient, of a permute the inverse
// permute of the gradient, through the ops themselves, so double backward works too; so
// is a forward-mode tangent (dual tensors, torch.func.jvp). contiguous() is the identity
// on values: its gradient passes through.

#include <gputranspose/transpose.h>

#include "kernels.h"
#include "tensor_layout.h"
#include "op_handles.h"

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

class PermuteFunction : public torch::autograd::Function<PermuteFunction> {
 public:
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                            at::IntArrayRef dims) {
    const DimOrder order = wrap_permutation(x, dims, "gputranspose.permute");
    std::vector<int64_t> inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int64_t>(i);
    ctx->saved_data["inverse"] = inverse;
    at::AutoDispatchBelowADInplaceOrView guard;
    return gputranspose::permute(x, dims);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const std::vector<int64_t> inverse = ctx->saved_data["inverse"].toIntVector();
    return {gputranspose::permute(grads[0], inverse), at::Tensor()};
  }
};

class ContiguousFunction : public torch::autograd::Function<ContiguousFunction> {
 public:
  static at::Tensor forward(torch::autograd::AutogradContext*, const at::Tensor& x,
                            std::optional<at::MemoryFormat> memory_format) {
    at::AutoDispatchBelowADInplaceOrView guard;
    return gputranspose::contiguous(x, memory_format);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext*,
                                                 torch::autograd::variable_list grads) {
    return {grads[0], at::Tensor()};
  }
};

// Forward-mode AD has one level (0), as ATen's own autograd kernels assume.
constexpr uint64_t kForwardLevel = 0;

// The autograd kernel of an op whose result is a linear map `op` of x (a new tensor):
// below autograd with nothing to record, through `Function` where x requires grad, and
// the tangent (forward mode) through `op` too.
template <class Function, class Redispatch, class Op, class... Args>
at::Tensor linear_op_autograd(const at::Tensor& x, const char* name, Redispatch&& redispatch,
                              Op&& op, const Args&... args) {
  // Unsupported layouts (nested, sparse, quantized) reach this kernel first: say so
  // plainly rather than fail inside autograd's bookkeeping.
  check_supported_layout(x, name);
  const at::Tensor tangent = x._fw_grad(kForwardLevel);
  at::Tensor result;
  if (!(at::GradMode::is_enabled() && x.requires_grad())) {
    // Nothing to record: no graph node, and on to the backend's kernel with the keys
    // already worked out, as ATen's own autograd kernels go (small tensors are bound by
    // the host's work per call).
    at::AutoDispatchBelowADInplaceOrView guard;
    result = redispatch();
  } else {
    // A C++ custom Function has no forward-mode formula and refuses inputs that carry
    // a tangent: it gets the primal (a view that keeps the graph), the tangent is set below.
    result = Function::apply(tangent.defined() ? x._fw_primal(kForwardLevel) : x, args...);
  }
  if (tangent.defined()) {
    result._set_fw_grad(op(tangent), kForwardLevel, /*is_inplace_op=*/false);
  }
  return result;
}

// out= variants record nothing: they refuse arguments that need a gradient or carry a
// tangent, and bump out's version.
template <class Call>
void out_variant_autograd(const at::Tensor& x, const at::Tensor& out, const char* name,
                          const char* instead, Call&& call) {
  check_supported_layout(x, name);
  TORCH_CHECK(!(at::GradMode::is_enabled() && (x.requires_grad() || out.requires_grad())),
              name, ": out= does not support automatic differentiation, but an argument "
              "requires grad; call ", instead, " instead");
  TORCH_CHECK(!x._fw_grad(kForwardLevel).defined() && !out._fw_grad(kForwardLevel).defined(),
              name, ": out= does not support forward-mode automatic differentiation, but an "
              "argument has a tangent; call ", instead, " instead");
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    call();
  }
  torch::autograd::impl::bump_version(out);
}

}  // namespace

at::Tensor transpose_autograd(c10::DispatchKeySet keys, const at::Tensor& x, int64_t dim0,
                              int64_t dim1) {
  return linear_op_autograd<TransposeFunction>(
      x, "gputranspose.transpose",
      [&] { return transpose_op().redispatch(keys & c10::after_autograd_keyset, x, dim0, dim1); },
      [&](const at::Tensor& t) { return gputranspose::transpose(t, dim0, dim1); }, dim0, dim1);
}

void transpose_out_autograd(const at::Tensor& x, int64_t dim0, int64_t dim1, at::Tensor& out) {
  out_variant_autograd(x, out, "gputranspose.transpose.out", "transpose(x)",
                       [&] { gputranspose::transpose_out(x, dim0, dim1, out); });
}

at::Tensor permute_autograd(c10::DispatchKeySet keys, const at::Tensor& x, at::IntArrayRef dims) {
  return linear_op_autograd<PermuteFunction>(
      x, "gputranspose.permute",
      [&] { return permute_op().redispatch(keys & c10::after_autograd_keyset, x, dims); },
      [&](const at::Tensor& t) { return gputranspose::permute(t, dims); }, dims);
}

void permute_out_autograd(const at::Tensor& x, at::IntArrayRef dims, at::Tensor& out) {
  out_variant_autograd(x, out, "gputranspose.permute.out", "permute(x, dims)",
                       [&] { gputranspose::permute_out(x, dims, out); });
}

at::Tensor contiguous_autograd(c10::DispatchKeySet keys, const at::Tensor& x,
                               std::optional<at::MemoryFormat> memory_format) {
  return linear_op_autograd<ContiguousFunction>(
      x, "gputranspose.contiguous",
      [&] {
        return contiguous_op().redispatch(keys & c10::after_autograd_keyset, x, memory_format);
      },
      [&](const at::Tensor& t) { return gputranspose::contiguous(t, memory_format); },
      memory_format);
}

}  // namespace gputranspose
