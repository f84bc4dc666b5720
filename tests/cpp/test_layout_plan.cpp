// The layout plan as a specification: whatever plan the planner returns for a layout, the
// batch of matrix transposes it describes moves exactly x.permute(order).contiguous().
// The plan is executed here on the host, element by element, as its comment in
// layout_plan.h defines it, over random layouts (sizes with size-1 and tiny dims, padded,
// sliced, permuted, expanded and overlapping strides, every element width, offsets, data
// pointers and out= buffers off their alignment); every byte of the result must be
// written once, with the reference's value, and every read must lie in the input.
// Pure host code (csrc/core), so it runs without a GPU.
#include "core/layout_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace gputranspose {
namespace {

struct Layout {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;  // values
  std::vector<int64_t> order;    // result dim i is input dim order[i]
  int64_t itemsize = 1;
  int64_t offset_bytes = 0;      // of the first value from a 256-byte aligned allocation
  int64_t out_alignment = 256;
};

int64_t numel(const Layout& x) {
  int64_t n = 1;
  for (int64_t s : x.sizes) n *= s;
  return n;
}

// Bytes the input spans from its allocation's start.
int64_t input_extent(const Layout& x) {
  int64_t last = 0;
  for (size_t d = 0; d < x.sizes.size(); ++d) last += (x.sizes[d] - 1) * x.strides[d];
  return x.offset_bytes + (last + 1) * x.itemsize;
}

// x.permute(order).contiguous(), value by value.
std::vector<uint8_t> reference(const Layout& x, const std::vector<uint8_t>& in) {
  const size_t nd = x.sizes.size();
  std::vector<uint8_t> out(numel(x) * x.itemsize);
  std::vector<int64_t> index(nd, 0);  // over the result's dims
  for (int64_t k = 0; k < numel(x); ++k) {
    int64_t at = 0;
    for (size_t i = 0; i < nd; ++i) at += index[i] * x.strides[x.order[i]];
    std::memcpy(&out[k * x.itemsize], &in[x.offset_bytes + at * x.itemsize], x.itemsize);
    for (size_t i = nd; i-- > 0;) {
      if (++index[i] < x.sizes[x.order[i]]) break;
      index[i] = 0;
    }
  }
  return out;
}

TransposePlan plan(const Layout& x) {
  StridedLayout layout{static_cast<int64_t>(x.sizes.size()), x.sizes.data(), x.strides.data(),
                       x.itemsize, static_cast<uintptr_t>(0x7f0000000000 + x.offset_bytes)};
  return plan_permute(layout, x.order.data(), x.out_alignment);
}

// Runs `p` as layout_plan.h defines it: a memcpy of the whole tensor copies its bytes;
// otherwise (a 2-D memcpy being a matrix of one column) element j of input row i of matrix
// (b, outer) lies at (b * batch_stride + outer offsets + i * row_stride + j * col_stride)
// stride units from the data pointer, and lands at element b * out_batch_stride + outer
// offsets + j * out_row_stride + i of the result. Returns "" or what went wrong.
std::string execute(const TransposePlan& p, const Layout& x, const std::vector<uint8_t>& in,
                    std::vector<uint8_t>& out) {
  const int64_t out_bytes = static_cast<int64_t>(out.size());
  const int64_t in_bytes = static_cast<int64_t>(in.size());
  std::vector<uint8_t> written(out.size(), 0);
  auto move = [&](int64_t from, int64_t to, int64_t bytes) -> std::string {
    if (from < 0 || from + bytes > in_bytes) return "a read outside the input";
    if (to < 0 || to + bytes > out_bytes) return "a write outside the result";
    for (int64_t k = 0; k < bytes; ++k) {
      if (written[to + k]++) return "a result byte written twice";
      out[to + k] = in[from + k];
    }
    return "";
  };
  if (p.bytes != numel(x) * x.itemsize) return "plan.bytes is not the tensor's bytes";
  if (p.path == TransposePath::Memcpy && p.rows == 0) {
    if (std::string e = move(x.offset_bytes, 0, p.bytes); !e.empty()) return e;
  } else {
    const int64_t e = p.element_size, u = p.stride_unit;
    if (e <= 0 || u <= 0) return "no element size or stride unit";
    if (p.batch * p.outer_count * p.rows * p.cols * e != p.bytes) return "the matrices miss bytes";
    std::vector<int64_t> outer(std::max(p.outer_dims, 1), 0);
    for (int64_t o = 0; o < p.outer_count; ++o) {
      int64_t in_outer = 0, out_outer = 0;
      for (int d = 0; d < p.outer_dims; ++d) {
        in_outer += outer[d] * p.outer_strides[d];
        out_outer += outer[d] * p.outer_out_strides[d];
      }
      for (int64_t b = 0; b < p.batch; ++b)
        for (int64_t i = 0; i < p.rows; ++i)
          for (int64_t j = 0; j < p.cols; ++j) {
            const int64_t from = x.offset_bytes + (b * p.batch_stride + in_outer +
                                                   i * p.row_stride + j * p.col_stride) * u;
            const int64_t to = (b * p.out_batch_stride + out_outer + j * p.out_row_stride + i) * e;
            if (std::string err = move(from, to, e); !err.empty()) return err;
          }
      for (int d = 0; d < p.outer_dims; ++d) {
        if (++outer[d] < p.outer_sizes[d]) break;
        outer[d] = 0;
      }
    }
  }
  if (std::count(written.begin(), written.end(), 0) != 0) return "result bytes never written";
  return "";
}

// Layouts as users make them: a dense tensor in some dim order (a permuted or transposed
// view), with padded pitches, a slice or a step along some dims, now and then an expanded
// (stride 0) dim, size-1 and tiny dims, an offset.
Layout random_layout(std::mt19937_64& rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  Layout x;
  const int64_t nd = pick(1, 6);
  static const int64_t kItemsizes[] = {1, 2, 4, 8, 16};
  x.itemsize = kItemsizes[pick(0, 4)];
  for (int64_t d = 0; d < nd; ++d) {
    x.sizes.push_back(chance(0.15) ? 1 : chance(0.5) ? pick(2, 5) : pick(6, 40));
  }
  // Strides: dims laid out densely in a random memory order, each pitch padded now and then,
  // then some dims stepped (a slice with a step) or expanded.
  std::vector<int64_t> memory_order(nd);
  std::iota(memory_order.begin(), memory_order.end(), 0);
  std::shuffle(memory_order.begin(), memory_order.end(), rng);
  x.strides.assign(nd, 0);
  int64_t pitch = chance(0.2) ? pick(2, 3) : 1;  // strided values (a last-dim step)
  for (int64_t k = nd; k-- > 0;) {
    const int64_t d = memory_order[k];
    x.strides[d] = pitch;
    pitch *= x.sizes[d];
    if (chance(0.25)) pitch += pick(1, 9);  // padding after this dim
  }
  for (int64_t d = 0; d < nd; ++d) {
    if (chance(0.05)) x.strides[d] = 0;  // expanded
    else if (chance(0.08)) x.strides[d] *= pick(2, 3);  // overlapping or stepped
  }
  x.order.resize(nd);
  std::iota(x.order.begin(), x.order.end(), 0);
  if (chance(0.5) && nd >= 2) {
    const int64_t a = pick(0, nd - 1), b = pick(0, nd - 1);
    std::swap(x.order[a], x.order[b]);  // a transpose
  } else {
    std::shuffle(x.order.begin(), x.order.end(), rng);
  }
  x.offset_bytes = chance(0.5) ? 0 : pick(1, 40) * x.itemsize;
  if (chance(0.05)) x.offset_bytes += pick(1, 15);  // off the element (a byte view's slice)
  // An out= buffer at an offset; now and then off its element (a byte view's slice).
  static const int64_t kOutAlignments[] = {256, 256, 256, 128, 64, 32, 16};
  x.out_alignment = chance(0.05) ? int64_t{1} << pick(0, 3) : kOutAlignments[pick(0, 6)];
  return x;
}

// A strided tensor may overlap itself; its result is still defined (values repeat).
TEST(LayoutPlan, EveryPlanMovesThePermutedTensorExactly) {
  std::mt19937_64 rng(20261128);
  std::map<std::string, int> paths, fallbacks;
  int executed = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Layout x = random_layout(rng);
    if (numel(x) > 4096) continue;
    const TransposePlan p = plan(x);
    ++paths[path_name(p.path)];
    if (p.path == TransposePath::AtenFallback) ++fallbacks[p.reason];
    if (p.path == TransposePath::AtenFallback || p.path == TransposePath::Empty) continue;
    std::vector<uint8_t> in(input_extent(x));
    for (auto& byte : in) byte = static_cast<uint8_t>(rng());
    std::vector<uint8_t> out(numel(x) * x.itemsize, 0xA5);
    const std::string error = execute(p, x, in, out);
    ASSERT_EQ(error, "") << "trial " << trial << ", path " << path_name(p.path) << " ("
                         << p.reason << ")";
    ASSERT_TRUE(out == reference(x, in)) << "trial " << trial << ", path " << path_name(p.path);
    ++executed;
  }
  // The generator reaches every path the planner has (it would pass vacuously otherwise).
  for (const char* name : {"memcpy", "tiled_contiguous", "tiled_row_strided", "tiled_units",
                           "wide_elements", "aten_fallback"}) {
    EXPECT_GT(paths[name], 50) << name;
  }
  EXPECT_GT(executed, 8000);
  for (const auto& [name, count] : paths) std::printf("  %-18s %d\n", name.c_str(), count);
  for (const auto& [why, count] : fallbacks) std::printf("  %6d  %s\n", count, why.c_str());
}

}  // namespace
}  // namespace gputranspose
