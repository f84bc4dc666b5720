#pragma once
// The transpose of elements over 682 bytes whose size, input strides or pointers lie off 16
// bytes (a storage offset, a pitch that cuts them, an odd size): the wide-element kernel
// would move them in the units they share (8 bytes down to one), at up to 16 times the
// instructions and memory transactions of a copy, and the framework's strided copy a value
// at a time. (Strided elements of 16 bytes or more take it by the development override
// only: the framework's copy moves those as fast; kernel_choice.cpp.) This kernel moves
// each element in 16-byte granules of the output
// instead: a thread a granule, each written by one aligned 16-byte store and read by one or
// two aligned 16-byte loads of the input whose bytes it shifts into place in registers (the
// shift is the same for every granule of an element: the input and output runs' offsets
// mod 16 differ by a constant). Only the element's head and tail granules, which the
// neighbouring elements' runs share, move part by part, in the widest unit (8 bytes down to
// one) on which the part and its input lie, and only the element's own bytes. The second
// load of a granule is the first of the next thread's, so L1 serves it: the memory moves
// what a copy moves. Consecutive threads take consecutive granules of an element, then the
// next element's, which follows it in the output: each warp stores 512 contiguous bytes. No
// shared memory; the input is read plainly (no L2 policy).

#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "fast_divider.h"
#include "outer_batch.cuh"
#include "realign.cuh"

#include <cassert>
#include <cstdint>

namespace gputranspose {
namespace cuda {

struct RealignedWideParams {
  const char* __restrict__ in;
  char* __restrict__ out;
  int64_t batch_stride;      // input, bytes
  int64_t row_stride;        // input, bytes
  int64_t col_stride;        // input, bytes (elements of an output row: any stride)
  int64_t out_batch_stride;  // output, bytes
  int64_t out_row_stride;    // output, bytes (between output rows' first elements)
  uintptr_t in_end;          // one past the input's last byte (its first: `in` at launch)
  uint32_t element_size;     // bytes (E)
  uint32_t threads_total;    // elements x granules, of one outer batch (< 2^31)
  FastDivider granules;      // granules an element (G: the most an E-byte run can touch)
  FastDivider rows;          // elements an output row (the plan's rows)
  FastDivider cols;          // output rows a matrix (the plan's cols)
  OuterBatch outer;          // a permutation's further batch dims (outer_batch.cuh)
};

// The launch's parameters, from the plan: the launcher's (launch_wide.cu) and the host
// test's.
inline RealignedWideParams realigned_wide_params(const TransposePlan& plan, const void* in,
                                                 void* out) {
  const int64_t e = plan.element_size;
  RealignedWideParams p;
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  p.batch_stride = plan.batch_stride * plan.stride_unit;
  p.row_stride = plan.row_stride * plan.stride_unit;
  p.col_stride = plan.col_stride * plan.stride_unit;
  p.out_batch_stride = plan.out_batch_stride * e;
  p.out_row_stride = plan.out_row_stride * e;
  p.element_size = static_cast<uint32_t>(e);
  const int64_t g = realigned_granules(e);
  p.threads_total = static_cast<uint32_t>(plan.batch * plan.cols * plan.rows * g);
  p.granules = FastDivider(static_cast<uint32_t>(g));
  p.rows = FastDivider(static_cast<uint32_t>(plan.rows));
  p.cols = FastDivider(static_cast<uint32_t>(plan.cols));
  p.outer = outer_batch(plan, plan.stride_unit, e);
  // The input's strides are positive: its first byte is `in`, its last the last element's.
  int64_t last = (plan.batch - 1) * p.batch_stride + (plan.cols - 1) * p.col_stride +
                 (plan.rows - 1) * p.row_stride + e;
  for (int d = 0; d < plan.outer_dims; ++d) {
    last += (plan.outer_sizes[d] - 1) * plan.outer_strides[d] * plan.stride_unit;
  }
  p.in_end = reinterpret_cast<uintptr_t>(in) + static_cast<uintptr_t>(last);
  return p;
}

// The device's 16-byte accesses (the host test substitutes its own, which check them).
struct GranuleAccess {
  static __device__ __forceinline__ uint4 load(const uint4* p) { return *p; }
  static __device__ __forceinline__ void store(uint4* p, uint4 v) { *p = v; }
};

// Bytes [at, last) of the output from `from` on, in units of U (at, last and from on U).
template <typename U>
__device__ __forceinline__ void copy_part(uintptr_t at, uintptr_t last, uintptr_t from) {
#if !defined(__CUDA_ARCH__)
  // The host test's check of what the device would fault on.
  assert(at % sizeof(U) == 0 && last % sizeof(U) == 0 && from % sizeof(U) == 0);
#endif
  for (; at < last; at += sizeof(U), from += sizeof(U)) {
    *reinterpret_cast<U*>(at) = *reinterpret_cast<const U*>(from);
  }
}

// One thread an output granule: thread t of an outer batch moves granule t mod G of element
// t / G (elements in output order: (batch, col) output rows of `rows` elements).
//
// Reads stay within the input's bytes, from its first to its last (an allocation of exactly
// those holds them): a granule wholly inside the element's output run [o, o + E) takes its
// 16 input bytes [a, a + 16), a = i + (O - o), all inside the element's input run
// [i, i + E); it loads the granule at a & ~15, which holds byte a, and, where a is off 16,
// the next one, which holds byte a + 15 (a + 15 >= (a & ~15) + 16), where both lie within
// the input's first and last byte; else (at most the first and last granules of the
// tensor), and for head and tail granules, it reads only bytes of the run, in units that
// lie within it.
template <int THREADS, class Access = GranuleAccess>
__global__ void __launch_bounds__(THREADS) realigned_wide_kernel(RealignedWideParams p) {
  const uintptr_t in_begin = reinterpret_cast<uintptr_t>(p.in);
  if (!add_outer_offsets(p.outer, p.in, p.out)) return;
  const uint32_t t = blockIdx.x * THREADS + threadIdx.x;
  if (t >= p.threads_total) return;
  const uint32_t s = p.granules.div(t);
  const uint32_t g = t - s * p.granules.divisor;
  const uint32_t out_row = p.rows.div(s);
  const uint32_t row = s - out_row * p.rows.divisor;
  const uint32_t b = p.cols.div(out_row);
  const uint32_t col = out_row - b * p.cols.divisor;
  const uintptr_t o = reinterpret_cast<uintptr_t>(p.out) + b * p.out_batch_stride +
                      int64_t{col} * p.out_row_stride + uint64_t{row} * p.element_size;
  const uintptr_t i = reinterpret_cast<uintptr_t>(p.in) + b * p.batch_stride +
                      int64_t{col} * p.col_stride + int64_t{row} * p.row_stride;
  const uintptr_t end = o + p.element_size;
  const uintptr_t granule = (o & ~uintptr_t{15}) + 16 * uintptr_t{g};
  if (granule >= end) return;  // G counts the most granules a run touches; this one fewer
  const uintptr_t a = i + (granule - o);
  const uint32_t shift = static_cast<uint32_t>(a & 15);
  const uintptr_t loaded_end = a - shift + (shift != 0 ? 32 : 16);
  if (granule >= o && granule + 16 <= end && a - shift >= in_begin && loaded_end <= p.in_end) {
    const uint4* from = reinterpret_cast<const uint4*>(a - shift);
    const uint4 lo = Access::load(from);
    const uint4 hi = shift != 0 ? Access::load(from + 1) : lo;
    Access::store(reinterpret_cast<uint4*>(granule), realign(lo, hi, shift));
    return;
  }
  // The head or tail: the element's own bytes of a granule it shares, in the widest unit
  // on which both ends and the input lie (8 bytes for elements of 8-byte values).
  const uintptr_t first = granule > o ? granule : o;
  const uintptr_t last = granule + 16 < end ? granule + 16 : end;
  const uintptr_t from = i + (first - o);
  const uint32_t low = static_cast<uint32_t>((first | last | from | 8) & 15);
  switch (low & (0u - low)) {
    case 8:
      return copy_part<uint64_t>(first, last, from);
    case 4:
      return copy_part<uint32_t>(first, last, from);
    case 2:
      return copy_part<uint16_t>(first, last, from);
    default:
      return copy_part<uint8_t>(first, last, from);
  }
}

}  // namespace cuda
}  // namespace gputranspose
