#pragma once
// The host kernel tests' check of a result: x is (batch, rows, cols) elements of `element`
// bytes at byte strides in_strides; out holds x with rows and cols swapped, contiguous.

#include <cstdint>
#include <cstring>
#include <string>

namespace gputranspose {

// "(b, i, j)" of the first element of `out` that differs from x's, or "" where none does.
inline std::string first_wrong_element(const char* in, const char* out, int64_t batch,
                                       int64_t rows, int64_t cols, const int64_t in_strides[3],
                                       int64_t element) {
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const char* from = in + b * in_strides[0] + i * in_strides[1] + j * in_strides[2];
        if (std::memcmp(from, out + ((b * cols + j) * rows + i) * element, element) != 0) {
          return "(" + std::to_string(b) + ", " + std::to_string(i) + ", " + std::to_string(j) + ")";
        }
      }
    }
  }
  return "";
}

}  // namespace gputranspose
