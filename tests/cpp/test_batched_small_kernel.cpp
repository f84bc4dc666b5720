// The batched-small kernel's two phases (cuda/batched_small_transpose.cuh), run on the host
// as one block of 256 threads runs them (every thread's staging, the barrier, every thread's
// stores), over random batches of small matrices, back to back or with rows and matrices a
// pitch apart, at every alignment of both data pointers, and chunks of several matrices with
// a short last one: the result equals the transpose byte for byte, and no byte outside the
// output is written. No GPU needed.
#include "core/cuda/batched_small_transpose.cuh"
#include "core/kernel_choice.h"
#include "core/layout_plan.h"
#include "h100_facts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

namespace gputranspose {
namespace {

struct alignas(16) Vec16 {
  uint32_t w[4];
};


template <bool ROWS_APART, class Element>
void run_blocks(const cuda::BatchedSmallParams& p, int64_t shared_bytes) {
  const int64_t blocks = (p.bytes + p.chunk_bytes - 1) / p.chunk_bytes;
  std::vector<Vec16> shared(shared_bytes / 16);
  for (int64_t b = 0; b < blocks; ++b) {
    const cuda::BatchedSmallChunk c = cuda::batched_small_chunk(p, b, sizeof(Element));
    if (!ROWS_APART) ASSERT_LE(c.shift + c.n, shared_bytes);
    if (ROWS_APART) {
      ASSERT_LE(c.n / (int64_t{p.cols} * sizeof(Element)) * p.row_pitch, shared_bytes);
    }
    for (int t = 0; t < cuda::kBatchedSmallThreads; ++t) {
      cuda::batched_small_stage<ROWS_APART>(p, c, shared.data(), sizeof(Element), t,
                                            cuda::kBatchedSmallThreads);
    }
    for (int t = 0; t < cuda::kBatchedSmallThreads; ++t) {
      cuda::batched_small_store<ROWS_APART, Vec16, Element>(p, c, shared.data(), t,
                                                            cuda::kBatchedSmallThreads);
    }
  }
}

template <class Element>
void run_blocks(const cuda::BatchedSmallParams& p, bool rows_apart, int64_t shared_bytes) {
  if (rows_apart) return run_blocks<true, Element>(p, shared_bytes);
  return run_blocks<false, Element>(p, shared_bytes);
}

void run(const cuda::BatchedSmallParams& p, int64_t e, bool rows_apart, int64_t shared_bytes) {
  switch (e) {
    case 1:
      return run_blocks<uint8_t>(p, rows_apart, shared_bytes);
    case 2:
      return run_blocks<uint16_t>(p, rows_apart, shared_bytes);
    case 4:
      return run_blocks<uint32_t>(p, rows_apart, shared_bytes);
    case 8:
      return run_blocks<uint64_t>(p, rows_apart, shared_bytes);
    case 16:
      return run_blocks<Vec16>(p, rows_apart, shared_bytes);
  }
  FAIL() << "element size " << e;
}

TEST(BatchedSmallKernel, MovesEveryBatchOfSmallMatricesExactly) {
  std::mt19937_64 rng(20261128);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int chosen = 0, run_cases = 0, apart = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    static const int64_t kSizes[] = {1, 2, 4, 8, 16};
    const int64_t e = kSizes[pick(0, 4)];
    const int64_t batch = pick(1, 120), rows = pick(1, 40), cols = pick(1, 40);
    const int64_t bytes = batch * rows * cols * e;
    // Rows and matrices back to back, or a few elements apart.
    const bool pitched = pick(0, 1) == 1;
    const int64_t row_stride = cols + (pitched ? pick(0, 9) : 0);
    const int64_t batch_stride = rows * row_stride + (pitched ? pick(0, 9) : 0);
    const int64_t in_bytes = ((batch - 1) * batch_stride + (rows - 1) * row_stride + cols) * e;
    // Both data pointers at any multiple of the element within 16 bytes (and 256 apart).
    std::vector<Vec16> in_buffer((in_bytes + 255) / 16 + 2), out_buffer((bytes + 255) / 16 + 2);
    char* in = reinterpret_cast<char*>(in_buffer.data()) + 16 * pick(0, 1) + e * pick(0, 16 / e - 1);
    char* out = reinterpret_cast<char*>(out_buffer.data()) + 16 * pick(0, 1) + e * pick(0, 16 / e - 1);
    for (auto& v : in_buffer) for (auto& w : v.w) w = static_cast<uint32_t>(rng());
    std::memset(out_buffer.data(), 0xA5, out_buffer.size() * 16);
    // The kernel choice's chunk where it picks the kernel; otherwise 1-5 matrices a chunk.
    std::vector<int64_t> sizes{batch, rows, cols};
    std::vector<int64_t> strides{batch_stride, row_stride, 1};
    StridedLayout x{3, sizes.data(), strides.data(), e, reinterpret_cast<uintptr_t>(in)};
    const TransposePlan plan = plan_transpose(x, {1, 2, false}, pointer_alignment(reinterpret_cast<uintptr_t>(out)));
    if (plan.path != TransposePath::TiledContiguous && plan.path != TransposePath::TiledRowStrided) {
      continue;  // 1 x N, N x 1: a copy
    }
    const bool rows_apart = plan.path == TransposePath::TiledRowStrided;
    if (rows_apart && (plan.outer_dims != 0 || plan.out_row_stride != plan.rows)) continue;
    const KernelChoice choice = choose_kernel(plan, h100());
    const int64_t matrix_bytes = plan.rows * plan.cols * e;
    const int64_t row_pitch = 16 * batched_small_words_per_row(plan.cols * e);
    int64_t per_chunk = pick(1, 5);
    if (choice.path == TransposePath::BatchedSmall) {
      ASSERT_EQ(choice.rows_apart, rows_apart);
      per_chunk = choice.chunk_bytes / matrix_bytes;
      ++chosen;
    }
    const int64_t chunk = per_chunk * matrix_bytes;
    const cuda::BatchedSmallParams p = cuda::batched_small_params(plan, chunk, in, out);
    run(p, e, rows_apart, rows_apart ? per_chunk * plan.rows * row_pitch : (chunk + 31) / 16 * 16);
    ++run_cases;
    apart += rows_apart;
    // The transpose of each matrix, byte for byte; the bytes around the output untouched.
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          const char* want = in + (b * batch_stride + i * row_stride + j) * e;
          const char* got = out + ((b * cols + j) * rows + i) * e;
          ASSERT_EQ(std::memcmp(want, got, e), 0)
              << "trial " << trial << ": e " << e << ", " << batch << " x " << rows << " x "
              << cols << ", chunk " << chunk << ", matrix " << b << " (" << i << ", " << j << ")";
        }
    const char* start = reinterpret_cast<const char*>(out_buffer.data());
    for (const char* c = start; c < start + out_buffer.size() * 16; ++c) {
      if (c < out || c >= out + bytes) ASSERT_EQ(static_cast<uint8_t>(*c), 0xA5) << "trial " << trial;
    }
  }
  EXPECT_GT(run_cases, 900);
  EXPECT_GT(apart, 300);
  EXPECT_GT(chosen, 50);  // the kernel choice's own chunks, not only the test's
}

// Rows a pitch apart in the result's order (a copy of a column slice, a transpose with a
// size-1 dim) as the kernel choice sends them to this kernel: 1 x n matrices in the unit the
// rows' width, pitch and both data pointers share, the choice's own chunks.
TEST(BatchedSmallKernel, MovesRowsAPitchApartExactly) {
  std::mt19937_64 rng(20261129);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int run_cases = 0;
  int64_t units[17] = {};
  for (int trial = 0; trial < 1500; ++trial) {
    static const int64_t kSizes[] = {1, 2, 4, 8, 16};
    const int64_t e = kSizes[pick(0, 4)];
    const int64_t rows = pick(1, 300);
    const int64_t width = pick(0, 3) == 0 ? pick(1, 24) : pick((64 + e - 1) / e, 2048 / e);
    const int64_t pitch = width + pick(1, 20);
    const int64_t bytes = rows * width * e, in_bytes = ((rows - 1) * pitch + width) * e;
    std::vector<Vec16> in_buffer((in_bytes + 255) / 16 + 2), out_buffer((bytes + 255) / 16 + 2);
    // Pointers on the element, or now and then at any byte (a view of a byte buffer).
    char* in = reinterpret_cast<char*>(in_buffer.data()) + 16 * pick(0, 1) +
               (pick(0, 4) == 0 ? pick(0, 15) : e * pick(0, 16 / e - 1));
    char* out = reinterpret_cast<char*>(out_buffer.data()) + 16 * pick(0, 1) + e * pick(0, 16 / e - 1);
    for (auto& v : in_buffer) for (auto& w : v.w) w = static_cast<uint32_t>(rng());
    std::memset(out_buffer.data(), 0xA5, out_buffer.size() * 16);
    std::vector<int64_t> sizes{rows, width};
    std::vector<int64_t> strides{pitch, 1};
    StridedLayout x{2, sizes.data(), strides.data(), e, reinterpret_cast<uintptr_t>(in)};
    const TransposePlan plan = plan_transpose(x, {0, 0, false}, pointer_alignment(reinterpret_cast<uintptr_t>(out)));
    if (rows == 1) {
      ASSERT_EQ(plan.rows, 0);  // one run: a plain copy
      continue;
    }
    if (plan.path == TransposePath::WideElements) {
      ASSERT_EQ(width * e % 16, 0);  // wide rows on 16 bytes: the wide kernel's
      continue;
    }
    ASSERT_EQ(plan.path, TransposePath::Memcpy);
    // The kernel choice's unit and chunk where it picks the kernel; where it picks ATen's
    // copy (short rows, units no wider than the values), the kernel still runs: the unit the
    // rows share, chunks of 8 KiB of shared memory.
    const KernelChoice choice = choose_kernel(plan, h100());
    int64_t unit = 16, chunk = 0, shared = 0;
    if (choice.path == TransposePath::AtenFallback) {
      ASSERT_EQ(reinterpret_cast<uintptr_t>(in) % e, 0u);  // ATen's copy: only on the values
      while (unit > 1 && ((width * e) % unit != 0 || (pitch * e) % unit != 0 ||
                          reinterpret_cast<uintptr_t>(in) % unit != 0 ||
                          reinterpret_cast<uintptr_t>(out) % unit != 0)) {
        unit /= 2;
      }
      const int64_t footprint = 16 * batched_small_words_per_row(width * e);
      const int64_t per_chunk = std::max<int64_t>(1, 8192 / footprint);
      chunk = per_chunk * width * e;
      shared = per_chunk * footprint;
    } else {
      ASSERT_EQ(choice.path, TransposePath::BatchedSmall) << width * e << " bytes " << pitch * e << " apart";
      ASSERT_TRUE(choice.rows_apart);
      unit = choice.element_size;
      chunk = choice.chunk_bytes;
      shared = choice.shared_bytes;
    }
    const TransposePlan m = pitched_rows_as_matrices(plan, unit);
    const cuda::BatchedSmallParams p = cuda::batched_small_params(m, chunk, in, out);
    run(p, unit, true, shared);
    ++run_cases;
    ++units[unit];
    for (int64_t r = 0; r < rows; ++r) {
      ASSERT_EQ(std::memcmp(in + r * pitch * e, out + r * width * e, width * e), 0)
          << "trial " << trial << ": " << rows << " rows of " << width * e << " bytes, "
          << pitch * e << " apart, unit " << unit << ", row " << r;
    }
    const char* start = reinterpret_cast<const char*>(out_buffer.data());
    for (const char* c = start; c < start + out_buffer.size() * 16; ++c) {
      if (c < out || c >= out + bytes) ASSERT_EQ(static_cast<uint8_t>(*c), 0xA5) << "trial " << trial;
    }
  }
  EXPECT_GT(run_cases, 900);
  for (int64_t u : {1, 2, 4, 8}) EXPECT_GT(units[u], 5) << "unit " << u;
}

}  // namespace
}  // namespace gputranspose
