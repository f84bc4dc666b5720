#pragma once
// The tiled transpose kernel, one instance per TiledConfig (../tile_config.h: element
// size, load and store access, tiling, input L2 policy). The tile is TR x TC input
// elements; its transpose is staged in shared memory. The kernel choice
// (../kernel_choice.cpp) picks the instance, launch_tiled.cuh launches it.
//
// Phase 1: each thread takes a micro-block of M = 16 / E rows and one piece of
// each (TileShape::piece bytes: 16 for E >= 4, one 32-bit word for 1-byte
// elements, so that a 1-byte tile has 256 threads, not 64; 8 bytes for staged skewed
// 2-byte rows, TiledConfig::PIECE). Where rows start
// 16-byte aligned, a piece is one aligned load (Aligned16). Where rows start
// anywhere (an odd pitch, a storage offset), either each piece is read as the
// widest aligned words that hold it (Words: 8- or 4-byte loads for E >= 4,
// 32-bit words funnel-shifted into place for E = 2), or (Staged, for 1-byte
// elements, and 2-byte ones where the kernel choice says: tile_staging.cuh) the
// block first copies the aligned 16-byte chunks that hold its rows into a
// staging area of shared memory (cp.async: 128-bit, coalesced, no registers)
// and shifts each piece out of the two staged words that hold it.
// It transposes the micro-block in registers (word moves for E >= 4, byte
// permutes for 1- and 2-byte elements) and stores its columns as 16-byte rows
// of the output tile in shared memory.
// Phase 2: after one barrier the block writes the output tile row by row, as
// 128-bit stores (Aligned16), or, where output rows start anywhere (Words), as
// aligned 16-byte chunks shifted out of two 16-byte units of shared memory.
// Consecutive lanes always touch consecutive addresses on both global sides.
//
// Skewed tiles (Words stores): a tile loads TR input rows but writes only
// STEP_R = TR - LEAD_R of them per output row, chosen per row so that its
// writes are whole aligned 16-byte chunks starting at a SKEW_BYTES boundary (a
// 32-byte sector where loads are aligned, 16 bytes otherwise): its load window
// starts LEAD_R = SKEW_BYTES / E rows above its write window, which slides up by
// the row's misalignment (< LEAD_R elements). Neighbouring tiles therefore never
// share a chunk, or with 32-byte skews a sector (no partial or byte stores but
// at the matrix's edges, no divergence), at the price of re-reading LEAD_R of
// every TR rows (from L2: the tile above has just read them).
//
// Shared memory is XOR-swizzled in 16-byte units, the unit index flipped by the
// micro-block's column, so that neither the scattered phase-1 stores nor the
// row-wise phase-2 loads hit one bank twice within a wavefront (padding alone
// cannot do that for 16-byte accesses).
//
// Blocks walk the tiles as tile_walk.cuh says.

#include "../tile_config.h"
#include "fast_divider.h"
#include "launch_bounds.h"
#include "micro_block.cuh"
#include "ptx.cuh"
#include "tile_staging.cuh"
#include "tile_walk.cuh"

#include <cstdint>
#include <cstring>

namespace gputranspose {
namespace cuda {

template <int E, Access LOAD, Access STORE, Tiling TILING = Tiling::Wide,
          InputL2 L2 = InputL2::Normal>
struct TiledTranspose : TileStaging<TiledConfig<E, LOAD, STORE, TILING, L2>> {
  using Config = TiledConfig<E, LOAD, STORE, TILING, L2>;
  using Staging = TileStaging<Config>;
  using Config::TR, Config::TC, Config::M, Config::W, Config::MC, Config::FAST_EDGES,
      Config::COLUMN_EDGES, Config::EVICT_LAST, Config::BLOCKS_C, Config::NUM_BLOCKS,
      Config::THREADS, Config::SMEM_ROW_BYTES, Config::SMEM_BYTES, Config::ROW_SEGMENTS,
      Config::SKEW_BYTES, Config::STEP_R, Config::LEAD_R;
  using Staging::stage_rows, Staging::staged_piece;
  using Element = typename Bytes<E>::type;

  // Byte offset in shared memory of byte `col_byte` of output-tile row `row`:
  // the rows that one micro-block writes share a flip, neighbouring ones differ.
  static __device__ __forceinline__ int smem_offset(int row, int col_byte) {
    const int flip = ((row / MC) % 8) * 16;
    return row * SMEM_ROW_BYTES + (col_byte ^ flip);
  }

  static __device__ __forceinline__ void run(const TiledTransposeParams& p, char* smem) {
    if constexpr (TILING == Tiling::Folded) {
      const int sub_tiles_c = TC >> p.sub_cols_log2;
      const int per_tile = (TR >> p.sub_rows_log2) * sub_tiles_c;
      const FoldedTile<E> tile{&p, static_cast<int64_t>(blockIdx.x) * per_tile, sub_tiles_c};
      load_tile<false>(p, tile, smem);
      __syncthreads();
      store_tile_aligned(p, tile, smem);
      return;
    }
    const MatrixTile<E> tile = matrix_tile(p, blockIdx.x);
    const int64_t r0 = tile.r0;

    // Only the tiles holding a matrix's last row near the input's end may meet that end
    // mid-chunk (first_matrix_near_end).
    const bool last_rows = tile.matrix >= p.first_matrix_near_end && r0 + TR >= p.rows;
    if (LOAD != Access::Aligned16 && last_rows) {
      load_tile<true>(p, tile, smem);
    } else {
      load_tile<false>(p, tile, smem);
    }
    __syncthreads();
    if constexpr (STORE == Access::Aligned16) {
      store_tile_aligned(p, tile, smem);
    } else {
      store_tile_skewed(p, tile.out_tile, r0, tile.cols_here, smem);
    }
    if constexpr (EVICT_LAST) {
      if (blockIdx.x >= p.release_from) {
        // The 2-byte skewed kernel works its tile out again from a fresh read of the
        // block index: held through the stores, the tile takes it from 63 registers to
        // 82, one block a SM rather than two. The other kernels keep the tile they have
        // (there the fresh read costs more than it saves).
        constexpr bool TILE_AGAIN = E == 2 && STORE == Access::Words;
        release_input_lines(p, TILE_AGAIN ? matrix_tile(p, block_index()) : tile);
      }
    }
  }

  // The tile of block `block`, p.group_rows tile-rows at a time (block < 2^31).
  static __device__ __forceinline__ MatrixTile<E> matrix_tile(const TiledTransposeParams& p,
                                                              uint32_t block) {
    uint32_t t = block;
    const uint32_t b = p.matrix_tiles.div(t);
    t -= b * p.matrix_tiles.divisor;
    const uint32_t group = p.group_tiles.div(t);
    t -= group * p.group_tiles.divisor;
    const FastDivider rows_in_group =
        (group + 1) * p.group_rows.divisor < p.tiles_r ? p.group_rows : p.last_group_rows;
    const uint32_t tc_u = rows_in_group.div(t);
    const int64_t tr = group * p.group_rows.divisor + (t - tc_u * rows_in_group.divisor);
    const int64_t tc =
        (tc_u >> p.interleave_shift) + (tc_u & p.interleave_shift) * p.interleave_half;
    const int64_t r0 = tr * STEP_R - LEAD_R;
    const int64_t c0 = tc * TC;
    return {&p,
            (b * p.batch_stride + r0 * p.row_stride + c0) * E,
            (b * p.out_batch_stride + c0 * p.out_row_stride + r0) * E,
            static_cast<int>(r0 < 0 ? -r0 : 0),
            static_cast<int>(p.rows - r0 < TR ? p.rows - r0 : TR),
            static_cast<int>(p.cols - c0 < TC ? p.cols - c0 : TC),
            r0,
            b};
  }

  // Every input line of the tile back to evict_normal (edge rows' too, which were
  // read plain), a line per task: by the thread whose piece starts a line, 1-byte
  // tiles (4-byte pieces) would take 32 mostly idle releases a thread.
  static __device__ __forceinline__ void release_input_lines(const TiledTransposeParams& p,
                                                             const MatrixTile<E>& tile) {
    constexpr int LINES = TC * E / 128 + 1;  // of a tile row, 16-byte aligned
    const int64_t row_bytes = p.row_stride * E;
#pragma unroll 1
    for (int task = threadIdx.x; task < TR * LINES; task += THREADS) {
      const int r = task / LINES;
      const int line = task - r * LINES;
      if (r < tile.rows_lo || r >= tile.rows_here) continue;
      const char* row = p.in + tile.in_tile + r * row_bytes;
      const uintptr_t at = (reinterpret_cast<uintptr_t>(row) & ~uintptr_t{127}) + 128u * line;
      if (at < reinterpret_cast<uintptr_t>(row + tile.cols_here * E)) {
        release_line(reinterpret_cast<const char*>(at));
      }
    }
  }

  // The piece of row r + i, column c of the tile (micro-block (r, c), its window w).
  template <bool CHECK_END>
  static __device__ __forceinline__ Words<W> load_row_piece(const TiledTransposeParams& p,
                                                            const Window& w, const char* stage,
                                                            int r, int c, int i) {
    if constexpr (LOAD == Access::Staged) {
      // Low 32 bits of row r + i's address: sums and products of the 64-bit
      // ones' low words.
      const uint32_t row_address =
          static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p.in) + w.in - c * E) +
          static_cast<uint32_t>(i) * static_cast<uint32_t>(p.row_stride * E);
      return staged_piece(stage, r + i, c, row_address);
    } else if constexpr (LOAD == Access::Aligned16 && EVICT_LAST) {
      return load_evict_last<W>(p.in + w.in + i * p.row_stride * E, evict_last_policy());
    } else {
      return load_piece<E, W, LOAD, CHECK_END, EVICT_LAST>(p.in + w.in + i * p.row_stride * E,
                                                          p.in_end,
                                                          EVICT_LAST ? evict_last_policy() : 0);
    }
  }

  // Phase 1: global -> registers -> transposed into shared memory. Every load of
  // the thread is issued before the first is used.
  template <bool CHECK_END, class Tile>
  static __device__ __forceinline__ void load_tile(const TiledTransposeParams& p, const Tile& tile,
                                                   char* smem) {
    constexpr int LOADS = NUM_BLOCKS / THREADS;
    char* stage = smem + SMEM_BYTES;
    if constexpr (LOAD == Access::Staged) {
      stage_rows<CHECK_END>(p, tile, stage);
    }
    Words<W> rows_in[LOADS][M];
    // The micro-block's pieces are in rows_in: all of them, or where it is cut by
    // the matrix's first or last row (FAST_EDGES), its other rows' pieces, the
    // nearest of them in place of the rest (shared memory that no output byte is
    // taken from: loads without conditions, as few registers as a whole one).
    // Staged rows hold a piece cut by the last column too (the chunks that hold
    // its elements; its bytes past that column land in output-tile rows that are
    // never stored), so staged micro-blocks cut by it are read as whole ones rather
    // than element by element, a round trip each.
    constexpr int CUT_COLS = LOAD == Access::Staged ? 1 : MC;
    bool in_registers[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
      const int blk = threadIdx.x + k * THREADS;
      const int r = (blk / BLOCKS_C) * M;
      const int c = (blk % BLOCKS_C) * MC;
      const Window w = tile.at(r, c);
      in_registers[k] = w.row_lo <= 0 && w.row_hi >= M && w.col_hi >= CUT_COLS;
      if (in_registers[k]) {
#pragma unroll
        for (int i = 0; i < M; ++i) rows_in[k][i] = load_row_piece<CHECK_END>(p, w, stage, r, c, i);
      } else if (FAST_EDGES && w.row_lo < M && w.row_hi > 0 && w.col_hi >= CUT_COLS) {
        // Every load issued before any is used (edge paths, above).
        in_registers[k] = true;
#pragma unroll
        for (int i = 0; i < M; ++i) {
          rows_in[k][i] =
              load_row_piece<CHECK_END>(p, w, stage, r, c, min(max(i, w.row_lo), w.row_hi - 1));
        }
      } else if (E == 1 && LOAD == Access::Aligned16 && !FAST_EDGES && TILING == Tiling::Wide &&
                 w.row_lo <= 0 && w.row_hi >= M && w.col_hi > 0) {
        // Cut by the matrix's last column, 1-byte aligned rows: each row's word is
        // read whole (its bytes past the column, in the row's gap or a later row,
        // lie inside the input) unless it runs past the input's end; those bytes
        // land in output-tile rows that are never stored (element by element, a
        // round trip each, such views run far slower).
        in_registers[k] = true;
#pragma unroll
        for (int i = 0; i < M; ++i) {
          rows_in[k][i].w[0] = load_word_to_end<1>(p.in + w.in + i * p.row_stride, p.in_end);
        }
      } else if (COLUMN_EDGES && w.row_lo < M && w.row_hi > 0 && w.col_hi > 0 &&
                 w.col_hi < MC) {
        // Cut by the matrix's last column (COLUMN_EDGES): a column's M elements
        // (rows clamped as above) loaded before any is stored, one column at a
        // time (unrolled across columns, ptxas hoists all of their loads: up to 28
        // more registers).
#pragma unroll 1
        for (int e = 0; e < w.col_hi; ++e) {
          Element column[M];
#pragma unroll
          for (int i = 0; i < M; ++i) {
            const int row = min(max(i, w.row_lo), w.row_hi - 1);
            column[i] = *reinterpret_cast<const Element*>(p.in + w.in + (row * p.row_stride + e) * E);
          }
#pragma unroll
          for (int i = 0; i < M; ++i) {
            *reinterpret_cast<Element*>(smem + smem_offset(c + e, (r + i) * E)) = column[i];
          }
        }
      } else if (w.row_lo < M && w.row_hi > 0 && w.col_hi > 0) {
        // Cut by the matrix's last column: element by element, to the output
        // tile directly, so that nothing of it stays live past the loads;
        // 4- to 16-byte elements by asynchronous copies, all in flight at once.
#pragma unroll
        for (int i = 0; i < M; ++i) {
#pragma unroll
          for (int e = 0; e < MC; ++e) {
            if (i >= w.row_lo && i < w.row_hi && e < w.col_hi) {
              const char* src = p.in + w.in + (i * p.row_stride + e) * E;
              char* dst = smem + smem_offset(c + e, (r + i) * E);
              if constexpr (FAST_EDGES && E >= 4) {
                copy_async<E>(shared_address(dst), src);
              } else {
                *reinterpret_cast<Element*>(dst) = *reinterpret_cast<const Element*>(src);
              }
            }
          }
        }
      }
    }
    if constexpr (FAST_EDGES && E >= 4) {
      wait_async_copies();
    }
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
      if (in_registers[k]) {
        const int blk = threadIdx.x + k * THREADS;
        const int r = (blk / BLOCKS_C) * M;
        const int c = (blk % BLOCKS_C) * MC;
        Segment cols_out[MC];
        transpose_micro_block<E, W>(rows_in[k], cols_out);
#pragma unroll
        for (int j = 0; j < MC; ++j) {
          *reinterpret_cast<Segment*>(smem + smem_offset(c + j, r * E)) = cols_out[j];
        }
      }
    }
  }

  // Phase 2, rows 16-byte aligned: one 128-bit store per 16 bytes.
  template <class Tile>
  static __device__ __forceinline__ void store_tile_aligned(const TiledTransposeParams& p,
                                                            const Tile& tile, const char* smem) {
    constexpr int STORES = TC * ROW_SEGMENTS / THREADS;
#pragma unroll
    for (int k = 0; k < STORES; ++k) {
      const int v = threadIdx.x + k * THREADS;
      const int row = v / ROW_SEGMENTS;        // input column
      const int col = (v % ROW_SEGMENTS) * M;  // input row
      const Window w = tile.at(col, row);
      if (w.col_hi <= 0) {
        continue;
      }
      if (w.row_hi >= M) {
        *reinterpret_cast<Segment*>(p.out + w.out) =
            *reinterpret_cast<const Segment*>(smem + smem_offset(row, col * E));
      } else if (w.row_hi > 0) {
        store_bytes(p.out + w.out, smem, row, col * E, w.row_hi * E);
      }
    }
  }

  // Phase 2, output rows starting anywhere (a skewed tile): output row `row`
  // gets STEP_R elements from this tile, the ones in the aligned 16-byte chunks
  // that start LEAD_R elements minus the row's misalignment (modulo SKEW_BYTES)
  // into the tile. Lane `unit` of a row builds the chunk that starts in 16-byte
  // unit `unit` of the row from that unit and the next (two 128-bit
  // shared-memory reads, conflict-free within a quarter-warp, which stays on one
  // row) and stores it with one 128-bit store; only chunks reaching past the
  // matrix's first or last row are stored in parts. It beats five 32-bit reads and
  // funnel shifts per chunk for every element size.
  static __device__ __forceinline__ void store_tile_skewed(const TiledTransposeParams& p,
                                                    int64_t out_tile, int64_t r0, int cols_here,
                                                    const char* smem) {
    constexpr int ROW_CHUNKS = STEP_R * E / 16;
    constexpr int ROW_STEP = THREADS / ROW_SEGMENTS;  // output rows between a thread's tasks
    static_assert(LEAD_R * E == SKEW_BYTES && ROW_CHUNKS == ROW_SEGMENTS - SKEW_BYTES / 16,
                  "a skewed tile writes all but SKEW_BYTES of each row");
    static_assert(THREADS % ROW_SEGMENTS == 0 && (TC * ROW_SEGMENTS) % THREADS == 0,
                  "even work split");
    // A thread's rows lie ROW_STEP * E * p.out_row_stride bytes apart, a multiple of
    // SKEW_BYTES, so they share their misalignment: where the thread's chunk
    // starts, and whether it is this tile's, is worked out once.
    static_assert(ROW_STEP * E % SKEW_BYTES == 0, "a thread's rows share their misalignment");
    const int first_row = threadIdx.x / ROW_SEGMENTS;  // input column
    const int unit = threadIdx.x % ROW_SEGMENTS;
    const int64_t row_bytes = p.rows * E;
    const int64_t row_pitch = p.out_row_stride * E;
    // The first row's bytes from the tile's first row on; the tile's part of
    // them starts at the first SKEW_BYTES boundary after the first byte (`window`
    // bytes in), so the chunk that starts in unit `unit` lies `offset` bytes into it.
    char* const row_at_tile = p.out + out_tile + first_row * row_pitch;
    const int misalignment =
        static_cast<int>(reinterpret_cast<uintptr_t>(row_at_tile) & (SKEW_BYTES - 1));
    const int window = SKEW_BYTES - misalignment;  // in (0, SKEW_BYTES]
    const int offset = window % 16;
    const int chunk = unit - window / 16;
    if (chunk < 0 || chunk >= ROW_CHUNKS) {
      return;  // the unit's bytes are the neighbouring tile's to store
    }
    const int begin = 16 * unit + offset;  // in the tile's row, in bytes
    const Span span = inside_matrix(r0 * E + begin, row_bytes);
    if (span.lo >= span.hi) {
      return;
    }
    const int next_unit = unit + 1 < ROW_SEGMENTS ? unit + 1 : unit;
#pragma unroll
    for (int task = 0; task < TC / ROW_STEP; ++task) {
      const int row = first_row + task * ROW_STEP;
      if (row >= cols_here) {
        return;
      }
      // Output rows start element-aligned, so offset is a multiple of E.
      const Segment out = bytes_at<E>(smem_unit(smem, row, unit),
                                      smem_unit(smem, row, next_unit), offset);
      store_chunk(row_at_tile + task * ROW_STEP * row_pitch + begin, out, span);
    }
  }

  // 16-byte unit `unit` of output-tile row `row`.
  static __device__ __forceinline__ Segment smem_unit(const char* smem, int row, int unit) {
    return *reinterpret_cast<const Segment*>(smem + smem_offset(row, 16 * unit));
  }

  // `count` bytes of output-tile row `row` from byte `begin` on, to dst.
  static __device__ __forceinline__ void store_bytes(char* dst, const char* smem, int row,
                                                     int begin, int count) {
    for (int i = 0; i < count; i += E) {
      *reinterpret_cast<Element*>(dst + i) =
          *reinterpret_cast<const Element*>(smem + smem_offset(row, begin + i));
    }
  }
};

template <int E, Access LOAD, Access STORE, Tiling TILING, InputL2 L2>
__global__ void __launch_bounds__(
    TiledConfig<E, LOAD, STORE, TILING, L2>::THREADS,
    min_blocks_per_sm(TiledConfig<E, LOAD, STORE, TILING, L2>::THREADS,
                      TiledConfig<E, LOAD, STORE, TILING, L2>::MIN_BLOCKS_PER_SM))
    tiled_transpose_kernel(const TiledTransposeParams params) {
  using Kernel = TiledTranspose<E, LOAD, STORE, TILING, L2>;
  // Dynamic, so that a tile may take more than 48 KiB (the launcher opts in).
  extern __shared__ __align__(16) char smem[];  // Kernel::SMEM_TOTAL_BYTES
  TiledTransposeParams p = params;
  if (!add_outer_offsets(params.outer, p.in, p.out)) return;
  Kernel::run(p, smem);
}

}  // namespace cuda
}  // namespace gputranspose
