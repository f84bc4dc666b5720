#include "out_contract.h"

#include "errors.h"

#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/ScalarType.h>

#include <array>

namespace gputranspose::stable {

namespace {

int32_t raw_dtype(const Tensor& t) {
  int32_t dtype = 0;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(t.get(), &dtype));
  return dtype;
}

std::string dtype_text(const Tensor& t) {
  try {
    return torch::headeronly::toString(t.scalar_type());
  } catch (const std::exception&) {
    return message("dtype ", raw_dtype(t));
  }
}

// The bytes [first, last) that a tensor's elements span (no negative strides in torch).
std::pair<uintptr_t, uintptr_t> byte_span(const Tensor& t) {
  int64_t last = 0;
  for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
  const auto first = reinterpret_cast<uintptr_t>(t.const_data_ptr());
  return {first, first + static_cast<uintptr_t>((last + 1) * static_cast<int64_t>(t.element_size()))};
}

// Without storages to compare (the stable ABI has none), two tensors overlap where the
// bytes they span meet: separate allocations never do; within one, this is ATen's
// "too hard to tell counts as overlapping" for interleaved views that share no element.
bool spans_meet(const Tensor& a, const Tensor& b) {
  if (a.numel() == 0 || b.numel() == 0) return false;
  const auto [a0, a1] = byte_span(a);
  const auto [b0, b1] = byte_span(b);
  return a0 < b1 && b0 < a1;
}

}  // namespace

void check_and_prepare_out(const Tensor& x, const std::vector<int64_t>& result_sizes, Tensor& out,
                           const char* op) {
  check(out.device() == x.device(), op, ": out is on ", device_text(out), " but x is on ",
        device_text(x), "; they must be on the same device");
  check(raw_dtype(out) == raw_dtype(x), op, ": out has dtype ", dtype_text(out),
        " but x has dtype ", dtype_text(x), "; it casts nothing");
  check(out.layout() == torch::headeronly::Layout::Strided, op,
        ": out must be a strided (dense) tensor");
  const auto out_sizes = out.sizes();
  const std::vector<int64_t> current(out_sizes.begin(), out_sizes.end());
  if (current != result_sizes) {
    check(out.numel() == 0, op, ": out has shape ", list_text(current),
          " but the result has shape ", list_text(result_sizes), "; only an empty out is resized");
    std::array<StableIValue, 3> stack{
        torch::stable::detail::from(out), torch::stable::detail::from(result_sizes),
        torch::stable::detail::from(std::nullopt)};
    TORCH_ERROR_CODE_CHECK(
        torch_call_dispatcher("aten::resize_", "", stack.data(), TORCH_ABI_VERSION));
    // resize_ returns `out` itself: drop the second handle it gave back.
    (void)torch::stable::detail::to<Tensor>(stack[0]);
  }
  check(out.is_contiguous(), op, ": out must be contiguous");
  // Meta tensors have no memory to overlap (and symbolic shapes never reach this kernel).
  const bool overlaps = !is_meta(x) && spans_meet(out, x);
  check(!overlaps, op, ": out overlaps x; the result must go to separate memory");
}

}  // namespace gputranspose::stable
