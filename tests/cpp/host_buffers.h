#pragma once
// The host kernel tests' memory and reference: a case's input and poisoned output buffers,
// and x.permute(order).contiguous() computed from x's own strides.

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace gputranspose {

// A case's memory: random input bytes and a poisoned output, each from a 256-byte aligned
// start (as the framework allocates), `in_shift` and `out_shift` bytes into it.
struct HostBuffers {
  HostBuffers(std::mt19937_64& rng, int64_t in_bytes, int64_t in_shift, int64_t out_bytes,
              int64_t out_shift)
      : in_buffer(in_bytes + 512), out_buffer(out_bytes + 512), out_size(out_bytes) {
    for (char& c : in_buffer) c = static_cast<char>(rng());
    std::memset(out_buffer.data(), 0xA5, out_buffer.size());
    in = aligned(in_buffer.data()) + in_shift;
    out = aligned(out_buffer.data()) + out_shift;
  }
  // Whether every byte around the output is still the poison.
  bool nothing_written_outside() const {
    for (const char* b = out_buffer.data(); b < out_buffer.data() + out_buffer.size(); ++b) {
      if ((b < out || b >= out + out_size) && static_cast<uint8_t>(*b) != 0xA5) return false;
    }
    return true;
  }
  static char* aligned(char* p) { return p + (256 - reinterpret_cast<uintptr_t>(p) % 256) % 256; }

  std::vector<char> in_buffer, out_buffer;
  int64_t out_size;
  const char* in = nullptr;
  char* out = nullptr;
};

// x.permute(order).contiguous() of values of `itemsize` bytes at `in`, by x's own strides.
inline std::vector<char> permute_reference(const char* in, const std::vector<int64_t>& sizes,
                                           const std::vector<int64_t>& strides,
                                           int64_t itemsize, const std::vector<int64_t>& order) {
  const size_t n = sizes.size();
  int64_t count = 1;
  for (int64_t s : sizes) count *= s;
  std::vector<char> out(count * itemsize);
  std::vector<int64_t> index(n, 0);  // result dims
  for (int64_t i = 0; i < count; ++i) {
    int64_t at = 0;
    for (size_t d = 0; d < n; ++d) at += index[d] * strides[order[d]];
    std::memcpy(out.data() + i * itemsize, in + at * itemsize, itemsize);
    for (size_t d = n; d-- > 0;) {
      if (++index[d] < sizes[order[d]]) break;
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace gputranspose
