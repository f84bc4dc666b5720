// The element-runs kernel (cuda/element_runs_transpose.cuh) run on the host: every thread of
// every block runs the kernel's own body (element_runs_thread), from the launcher's
// parameters and the kernel choice. Over random layouts of elements of 1-682 bytes in 1- and
// 2-byte values, row slices, strided elements, batches and pointers at any byte, the result
// equals the transpose byte for byte, no byte outside the output is written, every 4-byte
// load and store lies on 4 bytes, and no load reaches past the input's last byte or before
// the 4-byte word of its first. No GPU needed.
#include <cstdint>

namespace {
// The input's bytes that loads may touch: from the word of its first byte to its last.
const char* loads_from = nullptr;
const char* loads_to = nullptr;
int64_t loads_outside = 0;
int64_t loads_misaligned = 0;
void check_load(const char* at, int bytes) {
  loads_outside += at < loads_from || at + bytes > loads_to;
  loads_misaligned += reinterpret_cast<uintptr_t>(at) % bytes != 0;
}
}  // namespace
#define GPUTRANSPOSE_ELEMENT_RUNS_CHECK(at, bytes) check_load(at, bytes)

#include "core/cuda/element_runs_transpose.cuh"
#include "core/kernel_choice.h"
#include "core/layout_plan.h"
#include "h100_facts.h"
#include "transposed_elements.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace gputranspose {
namespace {

TEST(ElementRunsKernel, MovesEveryOddElementLayoutExactly) {
  std::mt19937_64 rng(20261206);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int run_cases = 0, strided = 0, batched = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // x: (batch, rows, cols, k) values of `es` bytes, dims 1 and 2 swapped: elements of k
    // values, or (strided elements) of `keep` of them where the last dim is sliced.
    const int64_t es = pick(1, 2);
    const int64_t k = pick(0, 3) == 0 ? pick(1, 40) : pick(32, 682 / es);
    const int64_t keep = pick(0, 4) == 0 ? pick(1, k) : k;
    const int64_t batch = pick(0, 2) == 0 ? pick(2, 3) : 1;
    const int64_t rows = pick(1, 70);
    const int64_t cols = pick(1, 40);
    const int64_t pad = pick(0, 2) == 0 ? pick(1, 5) : 0;  // a row slice, in values
    const int64_t byte_shift = pick(0, 7);                  // the data pointer, past 8 bytes
    const int64_t row = cols * k + pad;
    std::vector<int64_t> sizes{batch, rows, cols, keep}, strides{rows * row, row, k, 1};
    const int64_t in_bytes =
        ((batch - 1) * strides[0] + (rows - 1) * row + (cols - 1) * k + keep) * es;
    const int64_t e = keep * es;
    const int64_t out_bytes = batch * rows * cols * e;
    std::vector<char> in_buffer(in_bytes + 32);
    for (char& v : in_buffer) v = static_cast<char>(rng());
    char* in = in_buffer.data() + 8 + byte_shift;
    loads_from = in - (reinterpret_cast<uintptr_t>(in) & 3);
    loads_to = in + in_bytes;
    loads_outside = 0;
    loads_misaligned = 0;
    std::vector<char> out_buffer(out_bytes + 64, static_cast<char>(0xA5));
    char* out = out_buffer.data() + 16 + pick(0, 15);
    StridedLayout x{4, sizes.data(), strides.data(), es, reinterpret_cast<uintptr_t>(in)};
    const TransposePlan plan =
        plan_transpose(x, {1, 2, false}, pointer_alignment(reinterpret_cast<uintptr_t>(out)));
    ChoiceOverrides runs_always;
    runs_always.element_runs = 1;
    runs_always.fallback = 0;
    const KernelChoice c = choose_kernel(plan, h100(), runs_always);
    if (plan.path != TransposePath::TiledUnits) continue;
    ASSERT_EQ(c.path, TransposePath::ElementRuns) << trial;
    ASSERT_EQ(plan.outer_dims, 0);
    ++run_cases;
    strided += keep < k;
    batched += batch > 1 && rows > 1 && cols > 1;
    const cuda::ElementRunsParams p = cuda::element_runs_params(plan, c, in, out);
    for (int64_t block = 0; block < c.blocks; ++block) {
      const cuda::ElementRunsChunk chunk =
          cuda::element_runs_chunk(p, in, out, static_cast<uint32_t>(block));
      ASSERT_TRUE(chunk.words == 0 ||
                  reinterpret_cast<uintptr_t>(chunk.dst + chunk.head) % 4 == 0) << trial;
      for (uint32_t t = 0; t < cuda::kElementRunsThreads; ++t) {
        cuda::element_runs_thread(p, in, out, static_cast<uint32_t>(block), t);
      }
    }
    ASSERT_EQ(loads_outside, 0) << "trial " << trial;
    ASSERT_EQ(loads_misaligned, 0) << "trial " << trial;
    const int64_t in_strides[3] = {strides[0] * es, row * es, k * es};
    ASSERT_EQ(first_wrong_element(in, out, batch, rows, cols, in_strides, e), "")
        << "trial " << trial << ": " << batch << " x " << rows << " x " << cols
        << " elements of " << keep << " x " << es << " bytes (" << k << " apart), pad " << pad
        << ", byte shift " << byte_shift;
    for (const char* q = out_buffer.data(); q < out_buffer.data() + out_buffer.size(); ++q) {
      if (q < out || q >= out + out_bytes) {
        ASSERT_EQ(static_cast<uint8_t>(*q), 0xA5) << trial;
      }
    }
  }
  EXPECT_GT(run_cases, 200);
  EXPECT_GT(strided, 30);
  EXPECT_GT(batched, 30);
}

// The rule: strided elements of 64 bytes and more in 1-byte units take the kernel; shorter
// ones, wider units and elements back to back the unit-tiled kernel.
TEST(ElementRunsKernel, TheRuleTakesLongStridedElementsInBytes) {
  // sizes (rows, cols, k), the last dim sliced to `keep` of k values.
  auto choose_for = [](std::vector<int64_t> sizes, int64_t itemsize, uintptr_t offset,
                       int64_t keep) {
    std::vector<int64_t> strides{sizes[1] * sizes[2], sizes[2], 1};
    sizes[2] = keep;
    StridedLayout x{static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), itemsize,
                    0x7f0000000000 + offset};
    return choose_kernel(plan_transpose(x, {0, 1, false}), h100());
  };
  KernelChoice c = choose_for({129, 939, 256}, 1, 0, 201);  // uint8, 201 of 256 bytes
  EXPECT_EQ(c.path, TransposePath::ElementRuns);
  EXPECT_EQ(c.chunk_elements, 40);
  EXPECT_EQ(c.blocks, 939 * ((129 + 39) / 40));
  EXPECT_EQ(kernel_name(c), "element_runs<e=201, chunk=40>");
  EXPECT_EQ(choose_for({129, 939, 255}, 1, 0, 255).path, TransposePath::TiledUnits);  // back to back
  EXPECT_EQ(choose_for({129, 939, 201}, 1, 0, 201).path, TransposePath::TiledUnits);
  EXPECT_EQ(choose_for({129, 939, 128}, 2, 0, 101).path, TransposePath::TiledUnits);  // 2-byte units
  EXPECT_EQ(choose_for({129, 939, 128}, 2, 1, 101).path, TransposePath::ElementRuns);  // odd address
  EXPECT_EQ(choose_for({129, 939, 64}, 1, 0, 41).path, TransposePath::TiledUnits);    // 41 bytes
  // fallback 1 (development builds) takes ATen's copy there too.
  ChoiceOverrides aten;
  aten.fallback = 1;
  std::vector<int64_t> sizes{129, 939, 201}, strides{939 * 256, 256, 1};
  StridedLayout x{3, sizes.data(), strides.data(), 1, 0x7f0000000000};
  EXPECT_EQ(choose_kernel(plan_transpose(x, {0, 1, false}), h100(), aten).path,
            TransposePath::AtenFallback);
}

}  // namespace
}  // namespace gputranspose
