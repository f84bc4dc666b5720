#pragma once
// The one place that says which dtypes the byte-moving kernels take, and how wide
// each element is. A transpose never looks inside an element, so the kernels are
// templated on the element's size alone: five instantiations serve every dtype. Header-only
// torch (no ATen, no c10 library), so both front ends share it: the ATen one (csrc/ops) and
// the stable-ABI one (csrc/stable).

#include <torch/headeronly/core/ScalarType.h>

#include <cstdint>

namespace gputranspose {

// Element size in bytes (1, 2, 4, 8 or 16) for a dtype the kernels move,
// or 0 for one they do not (those take the ATen fallback).
inline int64_t kernel_element_size(torch::headeronly::ScalarType dtype) {
  using torch::headeronly::ScalarType;
  switch (dtype) {
    case ScalarType::Bool:
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fnuz:
    case ScalarType::Float8_e5m2fnuz:
    case ScalarType::Float8_e8m0fnu:
    case ScalarType::Float4_e2m1fn_x2:
      return 1;
    case ScalarType::Short:
    case ScalarType::UInt16:
    case ScalarType::Half:
    case ScalarType::BFloat16:
      return 2;
    case ScalarType::Int:
    case ScalarType::UInt32:
    case ScalarType::Float:
    case ScalarType::ComplexHalf:
      return 4;
    case ScalarType::Long:
    case ScalarType::UInt64:
    case ScalarType::Double:
    case ScalarType::ComplexFloat:
      return 8;
    case ScalarType::ComplexDouble:
      return 16;
    default:
      return 0;
  }
}

}  // namespace gputranspose
