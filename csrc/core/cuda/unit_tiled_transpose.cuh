#pragma once
// The transpose of elements whose size is no power of two and no multiple of 16 (3, 6,
// 12, 24, 40 ... bytes: odd trailing blocks), moved as k units of U bytes, U the largest
// power of two (up to 8) that divides the element and both data pointers' addresses (the
// kernel choice's unit_size). A tile of TR x TC elements goes through shared memory: each
// input row's part of the tile is TC x k contiguous units (or TC runs of k units, for strided
// elements), each output row's part TR x k. 64-bit offsets throughout; outer batch dims as in
// the other kernels (outer_batch.cuh).
//
// Units of 4 and 8 bytes (and 1-byte units of 2-byte elements and of strided 1-byte ones)
// move a unit a lane on both sides: consecutive lanes on consecutive units of a row. Shared memory rows lie
// k units apart mod 32 (at least TC x k): unit j of tile row r then sits in bank (r k + j)
// mod 32 (for 4-byte units), so the gather of an output row (r = j' / k, unit j' mod k)
// meets no bank twice.
//
// Units of 1 and 2 bytes (WORDS) would take a warp instruction for every 32 or 64 bytes, and
// the kernel would be bound by instructions rather than memory: there, both sides move
// 4-byte words in global memory. An input row's part (contiguous elements) is one run of
// bytes that starts anywhere: its whole aligned words are loaded as words, its head and tail
// (up to 3 bytes each) as units. An output row's part is one run too: a lane gathers each of
// its whole words unit by unit from shared memory (the units of element r = v / k from unit
// u = v mod k on, then those of element r + 1, `pitch - E` bytes past the end of element r)
// and stores it at once; its head and tail move as units. Shared-memory rows lie `pitch`
// bytes apart, E apart mod 128 (kernel_choice.cpp), so that each gather of a warp meets 32
// distinct banks; an input row's words then land in shared memory 0-3 bytes off a word
// (the same offset for the whole row), and are stored as a word, two halves, or a byte, a
// half and a byte. Strided elements are read unit by unit as before.
//
// Elements of one unit (ONE_UNIT: 1-byte elements with adjacent columns, 2-byte ones in
// 2-byte units, strided or not) move as words too: an output word's units are then
// consecutive rows of one column, `pitch` bytes apart in shared memory.

#include "../kernel_choice.h"
#include "../layout_plan.h"
#include "fast_divider.h"
#include "launch_bounds.h"
#include "outer_batch.cuh"
#include "ptx.cuh"

#include <cstdint>

namespace gputranspose {
namespace cuda {

struct UnitTiledParams {
  const char* in;
  char* out;
  int64_t rows;              // of each input matrix, in elements
  int64_t cols;
  int64_t batch_stride;      // input, in units
  int64_t row_stride;        // input, in units
  int64_t col_stride;        // input, in units: k where the elements lie back to back
  int64_t out_batch_stride;  // output, in elements
  int64_t out_row_stride;    // output, in elements
  int tile_rows;             // TR: a tile's rows, in elements
  int tile_cols;             // TC: a tile's columns, in elements
  int pitch;                 // bytes from a shared-memory row to the next (kernel_choice.cpp)
  FastDivider units;         // k: units per element
  FastDivider matrix_tiles;  // tiles per matrix
  FastDivider tiles_c;       // tiles along a matrix's columns
  OuterBatch outer;
};

// The kernel's parameters for a TiledUnits plan and its KernelChoice (unit U bytes).
inline UnitTiledParams unit_tiled_params(const TransposePlan& plan, const KernelChoice& choice,
                                         const void* in, void* out) {
  const int64_t u = choice.unit_size;
  UnitTiledParams params;
  params.in = static_cast<const char*>(in);
  params.out = static_cast<char*>(out);
  params.rows = plan.rows;
  params.cols = plan.cols;
  // The input's strides in units: every one is a whole number of them (kernel_choice.cpp),
  // though a unit may be wider than the strides' own (values of 1 byte, units of 2).
  params.batch_stride = plan.batch_stride * plan.stride_unit / u;
  params.row_stride = plan.row_stride * plan.stride_unit / u;
  params.col_stride = plan.col_stride * plan.stride_unit / u;
  params.out_batch_stride = plan.out_batch_stride;
  params.out_row_stride = plan.out_row_stride;
  params.tile_rows = choice.tile_rows;
  params.tile_cols = choice.tile_cols;
  params.pitch = choice.unit_pitch;
  params.units = FastDivider(static_cast<uint32_t>(plan.element_size / u));
  const int64_t tiles_r = (plan.rows + choice.tile_rows - 1) / choice.tile_rows;
  const int64_t tiles_c = (plan.cols + choice.tile_cols - 1) / choice.tile_cols;
  params.matrix_tiles = FastDivider(static_cast<uint32_t>(tiles_r * tiles_c));
  params.tiles_c = FastDivider(static_cast<uint32_t>(tiles_c));
  params.outer = outer_batch(plan, plan.stride_unit, plan.element_size);
  return params;
}

// Whether a choice runs the ONE_UNIT instance: elements of one unit in words (1-byte
// elements with adjacent columns, 2-byte ones in 2-byte units); strided 1-byte elements move
// a unit a lane.
inline bool one_unit_words(const KernelChoice& choice) {
  return choice.unit_words && choice.element_size == choice.unit_size;
}

constexpr int kUnitTiledThreads = 256;
constexpr int kUnitTiledWarps = kUnitTiledThreads / 32;
static_assert(kUnitTiledWarps % 4 == 0, "a warp's rows at the same address mod 4 (WORDS)");
// WORDS: the input words a lane loads before it stores them (its row's passes, then its
// next row), so that each lane has several loads in flight even where a tile row is one
// warp-wide pass (3-byte elements: 96 bytes).
constexpr int kUnitTiledBatch = 4;

// A run of `len` units of U bytes at `address` (U-aligned) as 4-byte words: `lead` units
// before the first whole word, `words` whole words, then the tail; `edges` = lead + tail
// units, numbered head first. A run too short to reach a whole word is all lead.
template <int U>
struct WordRun {
  int lead;
  int words;
  int edges;
};

template <int U>
__device__ __forceinline__ WordRun<U> word_run(uintptr_t address, int len) {
  constexpr int W = 4 / U;
  WordRun<U> run;
  const int lead = static_cast<int>((0u - static_cast<uint32_t>(address)) & 3u) / U;
  run.lead = lead < len ? lead : len;
  run.words = static_cast<int>(static_cast<uint32_t>(len - run.lead) / W);
  run.edges = len - run.words * W;
  return run;
}

// The unit of a run that edge e (0 <= e < edges) is: the head's, then the tail's.
template <int U>
__device__ __forceinline__ int edge_unit(const WordRun<U>& run, int e) {
  return e < run.lead ? e : e + run.words * (4 / U);
}

// A run's head and tail units, at most; a warp moves those of its rows a unit a lane,
// kEdgeRows rows a pass (5 for 1-byte units, 16 for 2-byte units).
template <int U>
constexpr int kMaxEdges = 2 * (4 / U - 1);
template <int U>
constexpr int kEdgeRows = 32 / kMaxEdges<U>;

// Units of 4 and 8 bytes: a unit a lane on both sides.
template <int U>
__device__ __forceinline__ void move_tile_in_units(const UnitTiledParams& p, char* smem_bytes,
                                                   const char* in_bytes, char* out_bytes,
                                                   int rows_here, int cols_here) {
  using T = typename Bytes<U>::type;
  T* smem = reinterpret_cast<T*>(smem_bytes);
  const int k = static_cast<int>(p.units.divisor);
  const int pitch = p.pitch / U;  // units of a shared-memory row
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;

  // Input rows: a warp a row, its lanes along the row's cols_here x k units (element
  // j / k's unit j mod k where the elements are strided).
  const T* in = reinterpret_cast<const T*>(in_bytes);
  const int row_units = cols_here * k;
  if (p.col_stride == k) {
    for (int r = warp; r < rows_here; r += kUnitTiledWarps) {
      const T* row = in + r * p.row_stride;
      for (int j = lane; j < row_units; j += 32) smem[r * pitch + j] = row[j];
    }
  } else {
    // Lane l starts at element l / k, unit l mod k, and steps 32 units: 32 / k elements
    // and 32 mod k units (carrying one element past k).
    const int first_c = static_cast<int>(p.units.div(static_cast<uint32_t>(lane)));
    const int first_u = lane - first_c * k;
    const int step_c = static_cast<int>(p.units.div(32u));
    const int step_u = 32 - step_c * k;
    for (int r = warp; r < rows_here; r += kUnitTiledWarps) {
      const T* row = in + r * p.row_stride;
      int c = first_c;
      int u = first_u;
      for (int j = lane; j < row_units; j += 32) {
        smem[r * pitch + j] = row[c * p.col_stride + u];
        c += step_c;
        u += step_u;
        if (u >= k) {
          u -= k;
          ++c;
        }
      }
    }
  }
  __syncthreads();
  // Output rows (input columns): a warp a row, its lanes along rows_here x k units; unit
  // j' is unit j' mod k of input row j' / k's element in this column.
  T* out = reinterpret_cast<T*>(out_bytes);
  const int out_units = rows_here * k;
  for (int c = warp; c < cols_here; c += kUnitTiledWarps) {
    T* row = out + c * p.out_row_stride * k;
    for (int j = lane; j < out_units; j += 32) {
      const uint32_t r = p.units.div(static_cast<uint32_t>(j));
      const int u = j - static_cast<int>(r) * k;
      row[j] = smem[static_cast<int>(r) * pitch + c * k + u];
    }
  }
}

// A word that lands `shift` bytes past a word in shared memory (an input row's words, where
// the rows' pitch does not follow the input's row stride mod 4): one store of each size it
// covers (2-byte units: shift 0 or 2).
template <int U>
__device__ __forceinline__ void store_shifted_word(char* at, uint32_t word, int shift) {
  if (shift == 0) {
    *reinterpret_cast<uint32_t*>(at) = word;
  } else if (U == 2 || shift == 2) {
    *reinterpret_cast<uint16_t*>(at) = static_cast<uint16_t>(word);
    *reinterpret_cast<uint16_t*>(at + 2) = static_cast<uint16_t>(word >> 16);
  } else {
    *reinterpret_cast<uint8_t*>(at) = static_cast<uint8_t>(word);
    *reinterpret_cast<uint16_t*>(at + 1) = static_cast<uint16_t>(word >> 8);
    *reinterpret_cast<uint8_t*>(at + 3) = static_cast<uint8_t>(word >> 24);
  }
}

// Units of 1 and 2 bytes: 4-byte words in global memory (the header comment). Takes k >= 3
// for 1-byte units (a word then spans at most two elements), or elements of one unit
// (ONE_UNIT: k = 1).
template <int U, bool ONE_UNIT>
__device__ __forceinline__ void move_tile_in_words(const UnitTiledParams& p, char* smem,
                                                   const char* in, char* out, int rows_here,
                                                   int cols_here) {
  using T = typename Bytes<U>::type;
  constexpr int W = 4 / U;  // units a word
  const int k = static_cast<int>(p.units.divisor);
  const int element = k * U;  // bytes
  const int pitch = p.pitch;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  // Shared-memory row r starts at r x pitch + `first` bytes: the tile's first input row
  // lands on its own address mod 4 (its words stay whole).
  const bool contiguous = p.col_stride == k;
  const int first = contiguous ? static_cast<int>(reinterpret_cast<uintptr_t>(in) & 3) : 0;

  if (contiguous) {
    // Input rows: a warp a row (or, for short rows, a group of lanes a row; below). A warp's
    // rows lie kUnitTiledWarps rows apart, in global and in shared memory: at the same
    // address mod 4, so one run and one shift serve them all.
    const int len = cols_here * k;  // units of each input row's part
    const int64_t row_bytes = p.row_stride * U;
    const int rows_w = static_cast<int>(
        static_cast<uint32_t>(rows_here - warp + kUnitTiledWarps - 1) / kUnitTiledWarps);
    const char* row = in + warp * row_bytes;
    const int base = warp * pitch + first;  // the row's first byte in shared memory
    const WordRun<U> run = word_run<U>(reinterpret_cast<uintptr_t>(row), len);
    const int shift = (base - static_cast<int>(reinterpret_cast<uintptr_t>(row) & 3)) & 3;
    // The heads and tails of the warp's rows, a unit a lane (the warp's row i = lane /
    // kMaxEdges, then every kEdgeRows-th row after it); the first pass's loaded first and
    // stored last: their loads in flight with the words'.
    const int edge_row = lane / kMaxEdges<U>;
    const int edge = lane - edge_row * kMaxEdges<U>;
    const bool edge_lane = edge_row < kEdgeRows<U> && edge < run.edges;
    const int edge_at = edge_unit(run, edge) * U;
    const bool has_edge = edge_lane && edge_row < rows_w;
    T edge_value = 0;
    if (has_edge) {
      edge_value = *reinterpret_cast<const T*>(row + edge_row * kUnitTiledWarps * row_bytes + edge_at);
    }
    // The whole words: a lane a word, a row's passes, then the warp's next row,
    // kUnitTiledBatch loaded before they are stored (several rows' where a row is one pass).
    // Rows of 16 words or fewer take a group of `group` lanes each (the power of two that
    // holds their words): group g moves the warp's rows g, g + 32 / group, ..., so that short
    // rows (narrow tiles of small elements) keep the warp's lanes busy. Each lane walks its
    // word's address in both memories, 4 x group bytes a pass, and on to its next row.
    int group = 1;
    while (group < run.words && group < 32) group *= 2;
    const int groups = 32 / group;
    const int first_row = lane / group;  // of the warp's rows
    const int first_slot = lane - first_row * group;
    const int passes = static_cast<int>(static_cast<uint32_t>(run.words + group - 1) / group);
    const int rows_g =
        static_cast<int>(static_cast<uint32_t>(rows_w - first_row + groups - 1) / groups);
    int items = rows_g * passes;  // left to load
    int m = 0;                    // the item's pass along its row
    int slot = first_slot;        // the lane's word of the row
    const char* src = row + (first_row * kUnitTiledWarps * row_bytes + run.lead * U + 4 * first_slot);
    int dst = base + first_row * kUnitTiledWarps * pitch + run.lead * U + 4 * first_slot;
    const int64_t src_next = groups * kUnitTiledWarps * row_bytes - 4 * group * passes;
    const int dst_next = groups * kUnitTiledWarps * pitch - 4 * group * passes;
    for (; items > 0; items -= kUnitTiledBatch) {
      uint32_t value[kUnitTiledBatch];
      int at[kUnitTiledBatch];  // shared-memory byte, or -1
#pragma unroll
      for (int j = 0; j < kUnitTiledBatch; ++j) {
        at[j] = -1;
        value[j] = 0;
        if (j < items) {
          if (__builtin_expect(m == passes, 0)) {  // the lane's next row
            m = 0;
            slot = first_slot;
            src += src_next;
            dst += dst_next;
          }
          if (slot < run.words) {
            value[j] = *reinterpret_cast<const uint32_t*>(src);
            at[j] = dst;
          }
          ++m;
          slot += group;
          src += 4 * group;
          dst += 4 * group;
        }
      }
#pragma unroll
      for (int j = 0; j < kUnitTiledBatch; ++j) {
        if (at[j] >= 0) store_shifted_word<U>(smem + at[j], value[j], shift);
      }
    }
    if (has_edge) {
      *reinterpret_cast<T*>(smem + base + edge_row * kUnitTiledWarps * pitch + edge_at) = edge_value;
    }
    // Tiles of more than kEdgeRows rows a warp: the other passes.
    if (edge_lane) {
      for (int i = edge_row + kEdgeRows<U>; i < rows_w; i += kEdgeRows<U>) {
        *reinterpret_cast<T*>(smem + base + i * kUnitTiledWarps * pitch + edge_at) =
            *reinterpret_cast<const T*>(row + i * kUnitTiledWarps * row_bytes + edge_at);
      }
    }
  } else {
    // Strided elements: a warp a row, its lanes along the row's cols_here x k units, lane l
    // from element l / k, unit l mod k, 32 units (32 / k elements and 32 mod k units,
    // carrying one element past k) a step.
    const T* in_units = reinterpret_cast<const T*>(in);
    T* smem_units = reinterpret_cast<T*>(smem);
    const int pitch_units = pitch / U;
    const int row_units = cols_here * k;
    const int first_c = static_cast<int>(p.units.div(static_cast<uint32_t>(lane)));
    const int first_u = lane - first_c * k;
    const int step_c = static_cast<int>(p.units.div(32u));
    const int step_u = 32 - step_c * k;
    for (int r = warp; r < rows_here; r += kUnitTiledWarps) {
      const T* row = in_units + r * p.row_stride;
      int c = first_c;
      int u = first_u;
      // Four loads in flight (two for 2-byte units: four take 36 registers, 7 blocks an SM).
#pragma unroll(4 / U)
      for (int j = lane; j < row_units; j += 32) {
        smem_units[r * pitch_units + j] = row[c * p.col_stride + u];
        c += step_c;
        u += step_u;
        if (u >= k) {
          u -= k;
          ++c;
        }
      }
    }
  }
  __syncthreads();

  // Output rows (input columns): a warp a row, a lane a word of it. Output unit v of column
  // c is unit u = v mod k of element r = v / k of shared row r, at r x pitch + first +
  // (c k + u) U; a word's units past its element's end are the next row's, pitch - element
  // bytes further on (a word spans at most two elements: k >= 3, or 2-byte units). A warp's
  // output rows lie kUnitTiledWarps rows apart: one run serves them all.
  const int len = rows_here * k;  // units of each output row's part
  const int64_t row_bytes = p.out_row_stride * element;
  const int skip = pitch - element;
  const WordRun<U> run = word_run<U>(reinterpret_cast<uintptr_t>(out + warp * row_bytes), len);
  const int passes = static_cast<int>(static_cast<uint32_t>(run.words + 31) / 32);
  if (cols_here >= 2 * kUnitTiledWarps) {
    // Two output rows a warp or more: a lane's word of a pass lies at the same place in each
    // of the warp's rows, so its element, unit and the shared offsets of its units are
    // worked out once a pass, and each row then takes W loads, W - 1 merges and a store.
    // (With one row a warp the row-by-row loop below is faster: its passes overlap.)
    for (int m = 0; m < passes; ++m) {
      const int slot = lane + 32 * m;
      if (slot >= run.words) break;  // the last pass: lanes past the run's words
      const int v = run.lead + W * slot;
      int at;       // unit v's byte in shared memory, in the warp's first column
      int from[W];  // the word's units, from `at`
      if constexpr (ONE_UNIT) {
        at = v * pitch;
#pragma unroll
        for (int q = 0; q < W; ++q) from[q] = q * pitch;
      } else {
        const int r = static_cast<int>(p.units.div(static_cast<uint32_t>(v)));
        const int u = v - r * k;
        at = r * pitch + u * U;
        const int left = k - u;
#pragma unroll
        for (int q = 0; q < W; ++q) from[q] = (q < left ? 0 : skip) + q * U;
      }
      at += first + warp * element;
      char* dst = out + warp * row_bytes + v * U;
      for (int c = warp; c < cols_here; c += kUnitTiledWarps) {
        uint32_t word = *reinterpret_cast<const T*>(smem + at);
#pragma unroll
        for (int q = 1; q < W; ++q) {
          word |= static_cast<uint32_t>(*reinterpret_cast<const T*>(smem + at + from[q]))
                  << (8 * U * q);
        }
        *reinterpret_cast<uint32_t*>(dst) = word;
        at += kUnitTiledWarps * element;
        dst += kUnitTiledWarps * row_bytes;
      }
    }
  } else {
    for (int c = warp; c < cols_here; c += kUnitTiledWarps) {
      char* row = out + c * row_bytes;
      const int column = first + c * element;  // the column's first byte in a shared row
      for (int m = 0; m < passes; ++m) {
        const int slot = lane + 32 * m;
        if (slot < run.words) {
          const int v = run.lead + W * slot;
          // Unit v's byte in shared memory, and the units of element r from u on.
          int at, left;
          if constexpr (ONE_UNIT) {
            // Units v to v + W - 1 are the column's elements of rows v to v + W - 1.
            at = v * pitch + column;
            left = 1;
          } else {
            const int r = static_cast<int>(p.units.div(static_cast<uint32_t>(v)));
            const int u = v - r * k;
            at = r * pitch + column + u * U;
            left = k - u;  // at least 1
          }
          uint32_t word = *reinterpret_cast<const T*>(smem + at);
#pragma unroll
          for (int q = 1; q < W; ++q) {
            const int from = ONE_UNIT ? at + q * pitch : (q < left ? at : at + skip) + q * U;
            word |= static_cast<uint32_t>(*reinterpret_cast<const T*>(smem + from)) << (8 * U * q);
          }
          *reinterpret_cast<uint32_t*>(row + v * U) = word;
        }
      }
    }
  }
  // The heads and tails of the warp's output rows, a unit a lane, kEdgeRows rows a pass.
  const int cols_w = static_cast<int>(
      static_cast<uint32_t>(cols_here - warp + kUnitTiledWarps - 1) / kUnitTiledWarps);
  const int edge_col = lane / kMaxEdges<U>;
  const int edge = lane - edge_col * kMaxEdges<U>;
  if (edge_col < kEdgeRows<U> && edge < run.edges) {
    const int v = edge_unit(run, edge);
    const int r = static_cast<int>(p.units.div(static_cast<uint32_t>(v)));
    const int at = r * pitch + first + (v - r * k) * U;
    for (int i = edge_col; i < cols_w; i += kEdgeRows<U>) {
      const int c = warp + kUnitTiledWarps * i;
      *reinterpret_cast<T*>(out + c * row_bytes + v * U) =
          *reinterpret_cast<const T*>(smem + at + c * element);
    }
  }
}

// 8 blocks an SM (32 registers): the 1-byte words instances would take 40-48 registers and
// 5-6 blocks, and lose more to the fewer loads in flight than they spill (20 bytes).
template <int U, bool WORDS, bool ONE_UNIT = false>
__global__ void __launch_bounds__(kUnitTiledThreads, min_blocks_per_sm(kUnitTiledThreads, 8))
    unit_tiled_transpose_kernel(UnitTiledParams p) {
  extern __shared__ __align__(16) char smem_bytes[];
  if (!add_outer_offsets(p.outer, p.in, p.out)) return;
  const uint32_t block = blockIdx.x;
  const uint32_t b = p.matrix_tiles.div(block);
  const uint32_t t = block - b * p.matrix_tiles.divisor;
  const uint32_t tr = p.tiles_c.div(t);
  const uint32_t tc = t - tr * p.tiles_c.divisor;
  const int64_t r0 = int64_t{tr} * p.tile_rows;
  const int64_t c0 = int64_t{tc} * p.tile_cols;
  const int rows_here = static_cast<int>(p.rows - r0 < p.tile_rows ? p.rows - r0 : p.tile_rows);
  const int cols_here = static_cast<int>(p.cols - c0 < p.tile_cols ? p.cols - c0 : p.tile_cols);
  const int64_t element = int64_t{p.units.divisor} * U;
  const char* in = p.in + (b * p.batch_stride + r0 * p.row_stride + c0 * p.col_stride) * U;
  char* out = p.out + (b * p.out_batch_stride + c0 * p.out_row_stride + r0) * element;
  if constexpr (WORDS) {
    static_assert(U == 1 || U == 2, "words of 1- and 2-byte units");
    move_tile_in_words<U, ONE_UNIT>(p, smem_bytes, in, out, rows_here, cols_here);
  } else {
    static_assert(!ONE_UNIT, "elements of one unit move as words");
    move_tile_in_units<U>(p, smem_bytes, in, out, rows_here, cols_here);
  }
}

}  // namespace cuda
}  // namespace gputranspose
