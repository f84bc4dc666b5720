// The unit-tiled kernel (cuda/unit_tiled_transpose.cuh) compiled for the host and run as the
// GPU runs it: each block's 256 threads are threads of their own, __syncthreads() a barrier
// across them, shared memory one buffer; the parameters the launcher's (unit_tiled_params)
// from the kernel choice. Over random layouts of odd elements (3-46 bytes, 1-, 2-, 4-
// and 8-byte units, words and units a lane), row slices, storage offsets, strided elements,
// batches and both pointers at any byte, in tiles of the rule's shape, square ones (8 x 8
// to 32 x 32) and tiles of any size (1-128 elements a side), the result equals the
// transpose byte for byte and no byte outside the output, or past the launch's shared
// memory, is written; and so for 1- and 2-byte elements moved as elements of one unit. No
// GPU needed.
#include <cuda_runtime.h>  // dim3, uint2, uint4 and the CUDA keywords, before they are mapped

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace {

// The block's barrier: __syncthreads() for kUnitTiledThreads host threads.
class BlockBarrier {
 public:
  explicit BlockBarrier(int threads) : threads_(threads) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const int64_t phase = phase_;
    if (++waiting_ == threads_) {
      waiting_ = 0;
      ++phase_;
      all_arrived_.notify_all();
    } else {
      all_arrived_.wait(lock, [&] { return phase_ != phase; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable all_arrived_;
  int threads_;
  int waiting_ = 0;
  int64_t phase_ = 0;
};

struct HostIndex {
  unsigned x = 0, y = 0, z = 0;
};
thread_local HostIndex host_thread_index;
HostIndex host_block_index;
BlockBarrier* host_barrier = nullptr;

}  // namespace

// The kernel's CUDA built-ins, as the host block provides them.
#undef __global__
#define __global__
#undef __launch_bounds__
#define __launch_bounds__(...)
#define threadIdx host_thread_index
#define blockIdx host_block_index
#define __syncthreads() host_barrier->arrive_and_wait()
inline unsigned __cvta_generic_to_shared(const void*) { return 0; }  // ptx.cuh's cp.async only

#include "core/kernel_choice.h"
#include "core/layout_plan.h"

namespace gputranspose {
namespace cuda {
alignas(16) char smem_bytes[64 * 1024];  // the kernel's extern __shared__ buffer
// No outer batch dims here (the cases are 3-D with the element last).
struct OuterBatch;
template <class In, class Out>
inline bool add_outer_offsets(const OuterBatch&, In&, Out&) {
  return true;
}
}  // namespace cuda
}  // namespace gputranspose

#include "core/cuda/unit_tiled_transpose.cuh"
#include "h100_facts.h"
#include "host_buffers.h"
#include "transposed_elements.h"

#include <gtest/gtest.h>

namespace gputranspose {
namespace {

using cuda::FastDivider;
using cuda::kUnitTiledThreads;
using cuda::UnitTiledParams;


// The launcher's parameters and grid, every block in turn.
template <int U, bool WORDS, bool ONE_UNIT = false>
void run_kernel(const TransposePlan& plan, const KernelChoice& choice, const char* in, char* out) {
  const UnitTiledParams p = cuda::unit_tiled_params(plan, choice, in, out);
  const int64_t tiles_r = (plan.rows + choice.tile_rows - 1) / choice.tile_rows;
  const int64_t tiles_c = (plan.cols + choice.tile_cols - 1) / choice.tile_cols;
  ASSERT_LE(choice.shared_bytes, kUnitTiledSharedBytes);
  ASSERT_EQ(choice.blocks, plan.batch * tiles_r * tiles_c);
  // The block's threads live for the whole grid: thread 0 sets up each block (its index,
  // shared memory poisoned) between two barriers, then all run the kernel.
  BlockBarrier barrier(kUnitTiledThreads);
  host_barrier = &barrier;
  std::vector<std::thread> threads;
  for (int t = 0; t < kUnitTiledThreads; ++t) {
    threads.emplace_back([&p, &barrier, &choice, t] {
      host_thread_index.x = static_cast<unsigned>(t);
      for (int64_t block = 0; block < choice.blocks; ++block) {
        if (t == 0) {
          host_block_index.x = static_cast<unsigned>(block);
          std::memset(cuda::smem_bytes, 0x5A, sizeof(cuda::smem_bytes));
        }
        barrier.arrive_and_wait();
        cuda::unit_tiled_transpose_kernel<U, WORDS, ONE_UNIT>(p);
        barrier.arrive_and_wait();
        // Nothing written past the shared memory the launch allocates.
        if (t == 0) {
          for (size_t i = choice.shared_bytes; i < sizeof(cuda::smem_bytes); ++i) {
            if (cuda::smem_bytes[i] != 0x5A) {
              ADD_FAILURE() << "block " << block << " wrote shared byte " << i << " past "
                            << choice.shared_bytes;
              break;
            }
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
}

// The instance the launcher takes (launch_unit_tiled.cu).
void run_choice(const TransposePlan& plan, const KernelChoice& c, const char* in, char* out) {
  const bool one_unit = cuda::one_unit_words(c);
  switch (c.unit_size) {
    case 1:
      if (one_unit) return run_kernel<1, true, true>(plan, c, in, out);
      return c.unit_words ? run_kernel<1, true>(plan, c, in, out) : run_kernel<1, false>(plan, c, in, out);
    case 2:
      if (one_unit) return run_kernel<2, true, true>(plan, c, in, out);
      return run_kernel<2, true>(plan, c, in, out);
    case 4:
      return run_kernel<4, false>(plan, c, in, out);
    case 8:
      return run_kernel<8, false>(plan, c, in, out);
  }
  FAIL() << "unit " << c.unit_size;
}

int64_t e_of(const TransposePlan& plan) { return plan.element_size; }

TEST(UnitTiledKernel, MovesEveryOddElementLayoutExactly) {
  std::mt19937_64 rng(20261128);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int run_cases = 0, words = 0, units = 0, strided = 0, tall_tiles = 0, small_tiles = 0;
  int batched = 0, out_off = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // x: (batch, rows, cols, k) values of `es` bytes, dims 1 and 2 swapped: elements of k
    // values, or (strided elements) of `keep` of them where the last dim is sliced; the
    // output at any byte past 256.
    static const int64_t kValueBytes[] = {1, 2, 4};
    static const int64_t kValues[] = {3, 5, 6, 7, 9, 10, 11, 12, 23, 31, 47, 100, 181};
    const int64_t es = kValueBytes[pick(0, 2)];
    const int64_t k = kValues[pick(0, 12)];
    const int64_t batch = pick(0, 3) == 0 ? pick(2, 3) : 1;
    const int64_t out_shift = pick(0, 3) == 0 ? pick(1, 15) : 0;
    const int64_t keep = pick(0, 4) == 0 ? pick(1, k - 1) : k;  // a sliced last dim
    // Long elements (smaller tiles, more of them) in smaller matrices.
    const int64_t most = k >= 31 ? 40 : 130;
    const int64_t rows = pick(0, 1) ? pick(1, std::min<int64_t>(70, most)) : pick(33, most);
    const int64_t cols = pick(0, 1) ? pick(1, std::min<int64_t>(70, most)) : pick(33, most);
    const int64_t pad = pick(0, 2) == 0 ? pick(1, 5) : 0;  // a row slice, in values
    const int64_t offset = pick(0, 3) == 0 ? pick(1, 7) : 0;  // a storage offset, in values
    const int64_t byte_shift = pick(0, 5) == 0 ? pick(1, es * 16 - 1) : 0;  // off the value
    const int64_t row = cols * k + pad;
    std::vector<int64_t> sizes{batch, rows, cols, keep}, strides{rows * row, row, k, 1};
    const int64_t in_bytes =
        (offset + (batch - 1) * strides[0] + (rows - 1) * row + (cols - 1) * k + keep) * es;
    const int64_t out_bytes = batch * rows * cols * keep * es;
    const HostBuffers memory(rng, in_bytes, byte_shift + offset * es, out_bytes, out_shift);
    const char* in = memory.in;
    char* out = memory.out;
    StridedLayout x{4, sizes.data(), strides.data(), es, reinterpret_cast<uintptr_t>(in)};
    const TransposePlan plan = plan_transpose(x, {1, 2, false},
                                              pointer_alignment(reinterpret_cast<uintptr_t>(out)));
    // The kernel wherever the plan takes it, whatever the choice's fallback rules say, in
    // tiles of the rule's shape, square tiles, or tiles of a random size.
    ChoiceOverrides kernels_always;
    kernels_always.fallback = 0;
    kernels_always.element_runs = 0;
    const int tiles = static_cast<int>(pick(0, 2));
    kernels_always.unit_tile_bytes = tiles == 0 ? -1 : tiles == 1 ? 0 : pick(1, 65536);
    const KernelChoice c = choose_kernel(plan, h100(), kernels_always);
    if (c.path != TransposePath::TiledUnits) continue;
    ++run_cases;
    (c.unit_words ? words : units) += 1;
    strided += keep < k;
    tall_tiles += c.unit_words && (c.tile_rows > 40 || c.tile_cols > 40);
    small_tiles += c.unit_words && c.tile_rows <= 16 && c.tile_rows == c.tile_cols && e_of(plan) > 45;
    batched += batch > 1;
    out_off += out_shift % 4 != 0;
    run_choice(plan, c, in, out);
    if (testing::Test::HasFatalFailure()) return;
    const int64_t e = keep * es;
    const int64_t in_strides[3] = {strides[0] * es, row * es, k * es};
    ASSERT_EQ(first_wrong_element(in, out, batch, rows, cols, in_strides, e), "")
        << "trial " << trial << ": " << batch << " x " << rows << " x " << cols
        << " elements of " << keep << " x " << es << " bytes (" << k << " apart), pad " << pad
        << ", offset " << offset << ", byte shift " << byte_shift << ", out shift " << out_shift
        << ", unit " << c.unit_size << ", tile " << c.tile_rows << " x " << c.tile_cols
        << (c.unit_words ? ", words" : "");
    ASSERT_TRUE(memory.nothing_written_outside()) << "trial " << trial;
  }
  EXPECT_GT(run_cases, 180);
  EXPECT_GT(words, 50);
  EXPECT_GT(units, 30);
  EXPECT_GT(strided, 16);
  EXPECT_GT(tall_tiles, 15);   // more rows a warp than one pass of its edges moves
  EXPECT_GT(small_tiles, 10);  // words in 16 x 16 and 8 x 8 tiles (elements over 45 bytes)
  EXPECT_GT(batched, 30);
  EXPECT_GT(out_off, 30);      // output rows off 4 bytes (units no wider than it allows)
}

// 1- and 2-byte elements as elements of one unit (one_unit_tiles): matrices with a side of
// 1-200 and the other up to 400, contiguous, row-sliced or at a storage offset, batched,
// the output at any byte of the element's alignment, in the rule's tiles or random ones.
TEST(UnitTiledKernel, MovesOneUnitElementsExactly) {
  std::mt19937_64 rng(20261206);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int run_cases = 0, bytes_1 = 0, sliced = 0, short_runs = 0, out_off = 0, grown = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const int64_t es = pick(1, 2);
    const int64_t batch = pick(0, 3) == 0 ? pick(2, 3) : 1;
    const int64_t side_kind = pick(0, 7);
    const int64_t short_side = side_kind < 2 ? pick(2, 5) : side_kind == 2 ? pick(6, 16) : pick(17, 200);
    const int64_t long_side = pick(1, 400);
    const bool tall = pick(0, 1) == 1;
    const int64_t rows = tall ? long_side : short_side;
    const int64_t cols = tall ? short_side : long_side;
    const int64_t pad = pick(0, 2) == 0 ? pick(1, 9) : 0;       // a row slice, in values
    const int64_t offset = pick(0, 3) == 0 ? pick(1, 7) : 0;    // a storage offset, in values
    const int64_t out_shift = pick(0, 2) == 0 ? es * pick(1, 7) : 0;
    const int64_t row = cols + pad;
    std::vector<int64_t> sizes{batch, rows, cols}, strides{rows * row, row, 1};
    const int64_t in_bytes = (offset + (batch - 1) * strides[0] + (rows - 1) * row + cols) * es;
    const int64_t out_bytes = batch * rows * cols * es;
    const HostBuffers memory(rng, in_bytes, offset * es, out_bytes, out_shift);
    const char* in = memory.in;
    char* out = memory.out;
    StridedLayout x{3, sizes.data(), strides.data(), es, reinterpret_cast<uintptr_t>(in)};
    const TransposePlan plan = plan_transpose(x, {1, 2, false},
                                              pointer_alignment(reinterpret_cast<uintptr_t>(out)));
    ChoiceOverrides one_unit;
    one_unit.one_unit_tiles = 2;
    one_unit.fallback = 0;
    const int tiles = static_cast<int>(pick(0, 2));
    one_unit.unit_tile_bytes = tiles == 0 ? -1 : tiles == 1 ? 0 : pick(1, 65536);
    const KernelChoice c = choose_kernel(plan, h100(), one_unit);
    if (c.path != TransposePath::TiledUnits) continue;  // a side of 1: a copy
    ASSERT_EQ(c.unit_size, es);
    ASSERT_TRUE(c.unit_words);
    ++run_cases;
    bytes_1 += es == 1;
    sliced += pad > 0;
    // Tile rows on either side shorter than a word's lead (3 bytes).
    const int64_t last_r = (rows - 1) % c.tile_rows + 1, last_c = (cols - 1) % c.tile_cols + 1;
    short_runs += std::min(last_r, last_c) * es < 4;
    out_off += out_shift % 4 != 0;
    grown += c.tile_rows > 32 || c.tile_cols > 32;
    run_choice(plan, c, in, out);
    if (testing::Test::HasFatalFailure()) return;
    const int64_t in_strides[3] = {strides[0] * es, row * es, es};
    ASSERT_EQ(first_wrong_element(in, out, batch, rows, cols, in_strides, es), "")
        << "trial " << trial << ": " << batch << " x " << rows << " x " << cols
        << " elements of " << es << " bytes, pad " << pad << ", offset " << offset
        << ", out shift " << out_shift << ", tile " << c.tile_rows << " x " << c.tile_cols;
    ASSERT_TRUE(memory.nothing_written_outside()) << "trial " << trial;
  }
  EXPECT_GT(run_cases, 100);
  EXPECT_GT(bytes_1, 50);
  EXPECT_GT(sliced, 25);
  EXPECT_GT(short_runs, 10);
  EXPECT_GT(out_off, 15);
  EXPECT_GT(grown, 25);
}

}  // namespace
}  // namespace gputranspose
