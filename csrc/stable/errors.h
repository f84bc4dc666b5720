#pragma once
// Errors of the stable front end. A stable kernel raises C++ standard exceptions, which
// PyTorch's Python bindings turn into Python's: std::out_of_range -> IndexError,
// std::invalid_argument -> ValueError, std::runtime_error -> RuntimeError. The messages
// are the ATen front end's (csrc/ops), word for word; unlike STD_TORCH_CHECK they carry
// no function/file/line prefix.

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputranspose::stable {

template <class... Parts>
std::string message(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

// "[0, 2, 1]", as c10 prints an int list.
inline std::string list_text(const std::vector<int64_t>& values) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  out << "]";
  return out.str();
}

template <class... Parts>
void check(bool condition, const Parts&... parts) {
  if (!condition) throw std::runtime_error(message(parts...));
}

template <class... Parts>
void check_index(bool condition, const Parts&... parts) {
  if (!condition) throw std::out_of_range(message(parts...));
}

template <class... Parts>
void check_value(bool condition, const Parts&... parts) {
  if (!condition) throw std::invalid_argument(message(parts...));
}

}  // namespace gputranspose::stable
