#include "tensor_layout.h"

#include "errors.h"
#include "../ops/element_size.h"

#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/headeronly/core/DeviceType.h>
#include <torch/headeronly/core/ScalarType.h>

#include <array>

namespace gputranspose::stable {

namespace {

using torch::headeronly::DeviceType;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;
using torch::stable::detail::from;
using torch::stable::detail::to;

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* name) {
  // Like ATen, a 0-D tensor accepts dims in [-1, 0].
  const int64_t extent = ndim > 0 ? ndim : 1;
  check_index(dim >= -extent && dim < extent, "gputranspose.transpose: ", name, "=", dim,
              " is out of range for a ", ndim, "-D tensor (expected to be in range of [",
              -extent, ", ", extent - 1, "])");
  return dim < 0 ? dim + extent : dim;
}

// Calls an ATen op that the stable ops.h does not wrap, through the dispatcher.
template <size_t N>
Tensor call_aten(const char* name, const char* overload, std::array<StableIValue, N> stack) {
  TORCH_ERROR_CODE_CHECK(torch_call_dispatcher(name, overload, stack.data(), TORCH_ABI_VERSION));
  return to<Tensor>(stack[0]);
}

}  // namespace

TransposeDims wrap_transpose_dims(const Tensor& x, int64_t dim0, int64_t dim1) {
  const int64_t ndim = x.dim();
  if (ndim < 2 && dim0 == -2 && dim1 == -1) {
    return {0, 0, /*copy_only=*/true};  // x.t() of a 0-D or 1-D tensor is itself
  }
  return {wrap_dim(dim0, ndim, "dim0"), wrap_dim(dim1, ndim, "dim1"), ndim < 2};
}

DimOrder wrap_permutation(const Tensor& x, const std::vector<int64_t>& dims, const char* op) {
  const int64_t ndim = x.dim();
  check(static_cast<int64_t>(dims.size()) == ndim, op,
        ": dims must name each of x's dims once, but x has ", ndim, " dims and dims ",
        list_text(dims), " has ", dims.size());
  DimOrder order(dims);
  std::vector<bool> seen(ndim, false);
  for (int64_t& d : order) {
    check_index(d >= -ndim && d < ndim, op, ": dim ", d, " is out of range for a ", ndim,
                "-D tensor (expected to be in range of [", -ndim, ", ", ndim - 1, "])");
    if (d < 0) d += ndim;
    check(!seen[d], op, ": dims ", list_text(dims), " repeat dim ", d);
    seen[d] = true;
  }
  return order;
}

DimOrder memory_format_order(const Tensor& x, std::optional<MemoryFormat> memory_format,
                             const char* op) {
  const int64_t ndim = x.dim();
  switch (memory_format.value_or(MemoryFormat::Contiguous)) {
    case MemoryFormat::Contiguous: {
      DimOrder order;
      for (int64_t d = 0; d < ndim; ++d) order.push_back(d);
      return order;
    }
    case MemoryFormat::ChannelsLast:
      check(ndim == 4, op, ": channels_last needs a 4-D tensor, but x is ", ndim, "-D");
      return {0, 2, 3, 1};
    case MemoryFormat::ChannelsLast3d:
      check(ndim == 5, op, ": channels_last_3d needs a 5-D tensor, but x is ", ndim, "-D");
      return {0, 2, 3, 4, 1};
    default:
      check(false, op, ": memory_format must be contiguous_format, channels_last or "
            "channels_last_3d (preserve_format would keep x's own layout, which a copy "
            "into a dense result cannot promise)");
      return {};
  }
}

std::vector<int64_t> sizes_in_order(const Tensor& x, const DimOrder& order) {
  std::vector<int64_t> sizes;
  sizes.reserve(order.size());
  for (int64_t d : order) sizes.push_back(x.size(d));
  return sizes;
}

int64_t kernel_element_size(const Tensor& x) {
  ScalarType dtype;
  try {
    dtype = x.scalar_type();
  } catch (const std::exception&) {
    // A dtype newer than the targeted stable ABI (float8_e8m0fnu under 2.10): its values
    // are moved as bytes like every other dtype's, by their size.
    const int64_t size = static_cast<int64_t>(x.element_size());
    return size == 1 || size == 2 || size == 4 || size == 8 || size == 16 ? size : 0;
  }
  return gputranspose::kernel_element_size(dtype);
}

bool is_meta(const Tensor& x) {
  return x.device().type() == DeviceType::Meta;
}

std::string device_text(const Tensor& x) {
  const auto device = x.device();
  std::string text;
  switch (device.type()) {
    case DeviceType::CPU:
      text = "cpu";
      break;
    case DeviceType::CUDA:
      text = "cuda";
      break;
    case DeviceType::Meta:
      text = "meta";
      break;
    default:
      text = message("device type ", static_cast<int>(device.type()));
  }
  return device.index() >= 0 ? message(text, ":", static_cast<int>(device.index())) : text;
}

namespace {

StridedLayout strided_layout(const Tensor& x, const std::vector<int64_t>& sizes,
                             const std::vector<int64_t>& strides) {
  StridedLayout layout;
  layout.ndim = x.dim();
  layout.sizes = sizes.data();
  layout.strides = strides.data();
  layout.itemsize = kernel_element_size(x);
  // Meta tensors have no memory: judge their alignment as a fresh allocation's.
  layout.address = is_meta(x)
      ? static_cast<uintptr_t>(x.storage_offset() * static_cast<int64_t>(x.element_size()))
      : reinterpret_cast<uintptr_t>(x.const_data_ptr());
  return layout;
}

std::vector<int64_t> to_vector(torch::headeronly::IntHeaderOnlyArrayRef values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

}  // namespace

TransposePlan plan_transpose(const Tensor& x, const TransposeDims& dims, int64_t out_alignment) {
  const std::vector<int64_t> sizes = to_vector(x.sizes()), strides = to_vector(x.strides());
  return gputranspose::plan_transpose(strided_layout(x, sizes, strides), dims, out_alignment);
}

TransposePlan plan_permute(const Tensor& x, const DimOrder& order, int64_t out_alignment) {
  const std::vector<int64_t> sizes = to_vector(x.sizes()), strides = to_vector(x.strides());
  return gputranspose::plan_permute(strided_layout(x, sizes, strides), order.data(), out_alignment);
}

Tensor transposed_view(const Tensor& x, const TransposeDims& dims) {
  return dims.copy_only ? x : torch::stable::transpose(x, dims.dim0, dims.dim1);
}

Tensor permuted_view(const Tensor& x, const DimOrder& order) {
  return call_aten<2>("aten::permute", "", {from(x), from(order)});
}

Tensor clone_as(const Tensor& x, MemoryFormat memory_format) {
  return call_aten<2>("aten::clone", "",
                      {from(x), from(std::optional<MemoryFormat>(memory_format))});
}

}  // namespace gputranspose::stable
