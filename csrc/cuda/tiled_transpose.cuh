#pragma once
// The tiled transpose kernel, templated on what it moves, never on the dtype:
//   E   element size in bytes (1, 2, 4, 8, 16)
//   VB  access width in bytes (E, or 4, 8, 16): every global load and store
//   TR  x TC  the input tile, in elements; its transpose is staged in shared memory
//
// Each thread loads an M x M micro-block of elements (M = VB / E: M rows of one
// VB-wide access each), transposes it in registers (word moves for E >= 4,
// byte permutes for 1- and 2-byte elements) and stores its M columns as M
// VB-wide rows of the output tile in shared memory. After one barrier the block
// writes the output tile row by row with VB-wide coalesced stores. Both global
// sides therefore move whole VB-wide accesses, consecutive lanes on consecutive
// addresses.
//
// Shared memory is XOR-swizzled in units of max(VB, 4) bytes, with the unit
// index flipped by the micro-block column, so that neither the scattered
// phase-1 stores nor the row-wise phase-2 loads hit the same bank twice within
// one wavefront (padding alone cannot do that for vector accesses).

#include <cstdint>

namespace gputranspose {
namespace cuda {

template <int N>
struct Bytes;
template <>
struct Bytes<1> {
  using type = uint8_t;
};
template <>
struct Bytes<2> {
  using type = uint16_t;
};
template <>
struct Bytes<4> {
  using type = uint32_t;
};
template <>
struct Bytes<8> {
  using type = uint2;
};
template <>
struct Bytes<16> {
  using type = uint4;
};

// VB bytes as 32-bit words, for the register transpose (VB >= 4).
template <int VB>
struct alignas(VB) Words {
  uint32_t w[VB / 4];
};

// out[j] = column j of the M x M block whose rows are in[0..M).
template <int E, int VB>
__device__ __forceinline__ void transpose_micro_block(const Words<VB> (&in)[VB / E],
                                                      Words<VB> (&out)[VB / E]) {
  constexpr int M = VB / E;
  constexpr int W = VB / 4;
  if constexpr (E >= 4) {
    constexpr int EW = E / 4;  // words per element: pure register renaming
#pragma unroll
    for (int j = 0; j < M; ++j)
#pragma unroll
      for (int i = 0; i < M; ++i)
#pragma unroll
        for (int h = 0; h < EW; ++h) out[j].w[i * EW + h] = in[i].w[j * EW + h];
  } else if constexpr (E == 2) {
    // Word w of column j: half (j % 2) of word j / 2 of rows 2w and 2w + 1.
#pragma unroll
    for (int j = 0; j < M; ++j)
#pragma unroll
      for (int w = 0; w < W; ++w)
        out[j].w[w] = __byte_perm(in[2 * w].w[j / 2], in[2 * w + 1].w[j / 2],
                                  (j % 2) ? 0x7632 : 0x5410);
  } else {
    static_assert(E == 1, "element size");
    // Word w of column j: byte (j % 4) of word j / 4 of rows 4w .. 4w + 3.
#pragma unroll
    for (int j = 0; j < M; ++j) {
      const unsigned pick = (j % 4) | (((j % 4) + 4) << 4);
#pragma unroll
      for (int w = 0; w < W; ++w) {
        const uint32_t lo = __byte_perm(in[4 * w].w[j / 4], in[4 * w + 1].w[j / 4], pick);
        const uint32_t hi = __byte_perm(in[4 * w + 2].w[j / 4], in[4 * w + 3].w[j / 4], pick);
        out[j].w[w] = __byte_perm(lo, hi, 0x5410);
      }
    }
  }
}

struct TiledTransposeParams {
  const char* in;
  char* out;
  int64_t rows;          // of each input matrix
  int64_t cols;
  int64_t batch_stride;  // input, in elements
  int64_t row_stride;    // input, in elements
  int64_t tiles_r;       // tiles per matrix along its rows and its cols
  int64_t tiles_c;
};

template <int E, int VB, int TR, int TC>
struct TiledTranspose {
  static constexpr int M = VB / E;                 // micro-block side, in elements
  static constexpr int BLOCKS_C = TC / M;          // micro-blocks along a tile row
  static constexpr int NUM_BLOCKS = (TR / M) * BLOCKS_C;
  static constexpr int ROW_VECTORS = TR / M;       // VB-wide accesses per output-tile row
  static constexpr int NUM_VECTORS = TC * ROW_VECTORS;
  static constexpr int THREADS = NUM_BLOCKS < 256 ? NUM_BLOCKS : 256;
  static constexpr int SMEM_ROW_BYTES = TR * E;    // an output-tile row
  static constexpr int SMEM_BYTES = TC * SMEM_ROW_BYTES;
  static constexpr int SWIZZLE_UNIT = VB < 4 ? 4 : VB;
  static constexpr int SWIZZLE_PERIOD = 128 / SWIZZLE_UNIT;

  static_assert(VB % E == 0 && TR % M == 0 && TC % M == 0, "tile must hold whole micro-blocks");
  static_assert(SMEM_ROW_BYTES % 128 == 0 && TC * E >= 128,
                "the swizzle needs tile rows and columns of at least 128 bytes");
  static_assert(NUM_BLOCKS % THREADS == 0 && NUM_VECTORS % THREADS == 0, "even work split");

  using Element = typename Bytes<E>::type;
  using Vector = typename Bytes<VB>::type;

  // Byte offset in shared memory of byte `col_byte` of output-tile row `row`.
  static __device__ __forceinline__ int smem_offset(int row, int col_byte) {
    const int flip = ((row / M) % SWIZZLE_PERIOD) * SWIZZLE_UNIT;
    return row * SMEM_ROW_BYTES + (col_byte ^ flip);
  }

  static __device__ __forceinline__ void run(const TiledTransposeParams& p, char* smem) {
    int64_t tile = blockIdx.x;
    const int64_t tc = tile % p.tiles_c;
    tile /= p.tiles_c;
    const int64_t tr = tile % p.tiles_r;
    const int64_t b = tile / p.tiles_r;
    const int64_t r0 = tr * TR;
    const int64_t c0 = tc * TC;
    const int rows_here = static_cast<int>(p.rows - r0 < TR ? p.rows - r0 : TR);
    const int cols_here = static_cast<int>(p.cols - c0 < TC ? p.cols - c0 : TC);
    const char* in_tile = p.in + (b * p.batch_stride + r0 * p.row_stride + c0) * E;
    char* out_tile = p.out + (b * p.rows * p.cols + c0 * p.rows + r0) * E;

    // Phase 1: global -> registers -> transposed into shared memory. Every load of
    // the thread is issued before the first is used, so that LOADS x M accesses
    // per thread are in flight at once (latency, not bandwidth, bounds one load).
    constexpr int LOADS = NUM_BLOCKS / THREADS;
    if constexpr (M > 1) {
      Words<VB> rows_in[LOADS][M];
      bool full[LOADS];
#pragma unroll
      for (int k = 0; k < LOADS; ++k) {
        const int blk = threadIdx.x + k * THREADS;
        const int r = (blk / BLOCKS_C) * M;
        const int c = (blk % BLOCKS_C) * M;
        full[k] = r + M <= rows_here && c + M <= cols_here;
        if (full[k]) {
#pragma unroll
          for (int i = 0; i < M; ++i) {
            rows_in[k][i] = *reinterpret_cast<const Words<VB>*>(
                in_tile + (static_cast<int64_t>(r + i) * p.row_stride + c) * E);
          }
        }
      }
#pragma unroll
      for (int k = 0; k < LOADS; ++k) {
        const int blk = threadIdx.x + k * THREADS;
        const int r = (blk / BLOCKS_C) * M;
        const int c = (blk % BLOCKS_C) * M;
        if (full[k]) {
          Words<VB> cols_out[M];
          transpose_micro_block<E, VB>(rows_in[k], cols_out);
#pragma unroll
          for (int j = 0; j < M; ++j) {
            *reinterpret_cast<Words<VB>*>(smem + smem_offset(c + j, r * E)) = cols_out[j];
          }
        } else if (r < rows_here && c < cols_here) {
          // A micro-block cut by the matrix edge: element by element.
#pragma unroll
          for (int i = 0; i < M; ++i) {
#pragma unroll
            for (int e = 0; e < M; ++e) {
              if (r + i < rows_here && c + e < cols_here) {
                *reinterpret_cast<Element*>(smem + smem_offset(c + e, (r + i) * E)) =
                    *reinterpret_cast<const Element*>(
                        in_tile + (static_cast<int64_t>(r + i) * p.row_stride + c + e) * E);
              }
            }
          }
        }
      }
    } else {
      // M == 1: each access is one element.
      Element elements[LOADS];
#pragma unroll
      for (int k = 0; k < LOADS; ++k) {
        const int blk = threadIdx.x + k * THREADS;
        const int r = blk / BLOCKS_C;
        const int c = blk % BLOCKS_C;
        elements[k] = r < rows_here && c < cols_here
                          ? *reinterpret_cast<const Element*>(
                                in_tile + (static_cast<int64_t>(r) * p.row_stride + c) * E)
                          : Element{};
      }
#pragma unroll
      for (int k = 0; k < LOADS; ++k) {
        const int blk = threadIdx.x + k * THREADS;
        const int r = blk / BLOCKS_C;
        const int c = blk % BLOCKS_C;
        if (r < rows_here && c < cols_here) {
          *reinterpret_cast<Element*>(smem + smem_offset(c, r * E)) = elements[k];
        }
      }
    }
    __syncthreads();

    // Phase 2: shared memory -> global, output-tile rows as VB-wide accesses;
    // all shared-memory reads first, then all stores.
    constexpr int STORES = NUM_VECTORS / THREADS;
    Vector vectors[STORES];
#pragma unroll
    for (int k = 0; k < STORES; ++k) {
      const int v = threadIdx.x + k * THREADS;
      const int row = v / ROW_VECTORS;        // input column
      const int col = (v % ROW_VECTORS) * M;  // input row
      if (row < cols_here && col + M <= rows_here) {
        vectors[k] = *reinterpret_cast<const Vector*>(smem + smem_offset(row, col * E));
      }
    }
#pragma unroll
    for (int k = 0; k < STORES; ++k) {
      const int v = threadIdx.x + k * THREADS;
      const int row = v / ROW_VECTORS;
      const int col = (v % ROW_VECTORS) * M;
      if (row >= cols_here) {
        continue;
      }
      char* dst = out_tile + (static_cast<int64_t>(row) * p.rows + col) * E;
      if (col + M <= rows_here) {
        *reinterpret_cast<Vector*>(dst) = vectors[k];
      } else if (col < rows_here) {
#pragma unroll
        for (int e = 0; e < M; ++e) {
          if (col + e < rows_here) {
            reinterpret_cast<Element*>(dst)[e] =
                *reinterpret_cast<const Element*>(smem + smem_offset(row, (col + e) * E));
          }
        }
      }
    }
  }
};

template <int E, int VB, int TR, int TC>
__global__ void __launch_bounds__(TiledTranspose<E, VB, TR, TC>::THREADS)
    tiled_transpose_kernel(const TiledTransposeParams params) {
  using Kernel = TiledTranspose<E, VB, TR, TC>;
  __shared__ __align__(16) char smem[Kernel::SMEM_BYTES];
  Kernel::run(params, smem);
}

}  // namespace cuda
}  // namespace gputranspose
