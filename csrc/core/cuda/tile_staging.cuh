#pragma once
// Staged loads of the tiled kernel: where input rows start anywhere, a block first copies
// the aligned 16-byte chunks that hold its rows into a staging area of shared memory
// (cp.async: 128-bit, coalesced, no registers) and shifts each piece out of the staged
// words that hold it (1-byte rows always; 2-byte rows where the kernel choice says).

#include "../tile_config.h"
#include "micro_block.cuh"
#include "ptx.cuh"
#include "tile_walk.cuh"

#include <cstdint>
#include <cstring>

namespace gputranspose {
namespace cuda {

template <class Config>
struct TileStaging : Config {
  static constexpr int E = Config::ELEMENT_SIZE;
  using Config::TR, Config::TC, Config::THREADS, Config::W, Config::MC, Config::STAGE_SECTOR,
      Config::STAGE_UNITS, Config::STAGE_ROW_BYTES;

  static __device__ __forceinline__ int misalignment_16(const char* p) {
    return static_cast<int>(reinterpret_cast<uintptr_t>(p) & 15);
  }

  // Staged loads, first: the tile's input rows, each as the aligned 16-byte
  // chunks that hold its bytes, copied to its staging row as they are, from the
  // row's sector_offset (its first byte lands at its address modulo 32). The one
  // chunk that runs past the input's end is copied byte by byte, up to the end:
  // nothing outside the tensor's allocation is read.
  // A tile inside the matrix, away from the input's end (most of them), takes
  // stage_whole_rows, which needs none of these checks.
  template <bool CHECK_END, class Tile>
  static __device__ __forceinline__ void stage_rows(const TiledTransposeParams& p, const Tile& tile,
                                                    char* stage) {
    if constexpr (!CHECK_END) {
      if (tile.rows_lo == 0 && tile.rows_here == TR && tile.cols_here == TC) {
        stage_whole_rows(p, tile, stage);
        return;
      }
    }
    for (int task = threadIdx.x; task < TR * STAGE_UNITS; task += THREADS) {
      const int r = task / STAGE_UNITS;
      const int unit = task % STAGE_UNITS;
      const Window w = tile.at(r, 0);
      if (w.row_lo > 0 || w.row_hi <= 0) {
        continue;  // a tile row outside the matrix
      }
      const char* row = p.in + w.in;
      const char* chunk = chunk_of(row, unit);
      if (chunk >= row + w.col_hi * E) {
        continue;  // past the tile's columns
      }
      char* dst = stage + r * STAGE_ROW_BYTES + sector_offset(row) + 16 * unit;
      const int64_t left = p.in_end - chunk;
      if (left >= 16) {
        copy_async_16(shared_address(dst), chunk);
      } else {
        // The input's last chunk, up to its end (edge paths: above).
        uint8_t bytes[16];
#pragma unroll
        for (int i = 0; i < 16; ++i) bytes[i] = i < left ? static_cast<uint8_t>(chunk[i]) : 0;
        memcpy(dst, bytes, 16);
      }
    }
    wait_async_copies();
    __syncthreads();
  }

  // stage_rows for a tile of TR whole rows of TC columns, none of them the
  // input's last: a row's first TC * E / 16 chunks (its body) always hold its
  // bytes and lie in the input, its last only where the row starts unaligned.
  // Lanes take consecutive chunks of a row, with no per-task window arithmetic
  // (the general loop's is a fifth of the staged kernel's instructions).
  // A row's last chunk is staged in a pass of its own where rows have 16 body
  // chunks, and in the same pass as the body where they have 8, one in 9 of
  // their chunks (each is faster where it is used).
  static __device__ __forceinline__ void stage_whole_rows(const TiledTransposeParams& p,
                                                          const MatrixTile<E>& tile, char* stage) {
    constexpr int BODY_UNITS = TC * E / 16;
    const char* const first_row = p.in + tile.in_tile;
    const int64_t row_bytes = p.row_stride * E;
    const unsigned stage_at = shared_address(stage);
    if constexpr (BODY_UNITS <= 8) {
      // Task t = threadIdx.x + k * THREADS is chunk t % UNITS of row t / UNITS; a
      // thread steps from one task to its next by ROW_STEP rows and UNIT_STEP
      // chunks (with a carry), so that the row's address and the staging address
      // are sums, not a division and a 64-bit product per task.
      constexpr int UNITS = STAGE_UNITS;  // the body and the last chunk
      constexpr int TASKS = TR * UNITS;
      constexpr int ROW_STEP = THREADS / UNITS;
      constexpr int UNIT_STEP = THREADS % UNITS;
      int r = threadIdx.x / UNITS;
      int unit = threadIdx.x - r * UNITS;
      const char* row = first_row + r * row_bytes;
      unsigned dst = stage_at + r * STAGE_ROW_BYTES + 16 * unit;  // before the row's sector_offset
#pragma unroll
      for (int k = 0; k < (TASKS + THREADS - 1) / THREADS; ++k) {
        if (TASKS % THREADS == 0 || r < TR) {
          if (unit < BODY_UNITS || misalignment_16(row) != 0) {
            copy_async_16(dst + sector_offset(row), chunk_of(row, unit));
          }
        }
        const bool carry = unit + UNIT_STEP >= UNITS;
        unit += carry ? UNIT_STEP - UNITS : UNIT_STEP;
        r += carry ? ROW_STEP + 1 : ROW_STEP;
        row += (carry ? ROW_STEP + 1 : ROW_STEP) * row_bytes;
        dst += carry ? (ROW_STEP + 1) * STAGE_ROW_BYTES + 16 * (UNIT_STEP - UNITS)
                     : ROW_STEP * STAGE_ROW_BYTES + 16 * UNIT_STEP;
      }
    } else {
      constexpr int ROWS_PER_PASS = THREADS / BODY_UNITS;
      static_assert(THREADS % BODY_UNITS == 0 && TR % ROWS_PER_PASS == 0 && TR <= THREADS,
                    "even staging split");
      const int unit = threadIdx.x % BODY_UNITS;
#pragma unroll
      for (int k = 0; k < TR / ROWS_PER_PASS; ++k) {
        const int r = threadIdx.x / BODY_UNITS + k * ROWS_PER_PASS;
        const char* row = first_row + r * row_bytes;
        copy_async_16(stage_at + r * STAGE_ROW_BYTES + sector_offset(row) + 16 * unit,
                      chunk_of(row, unit));
      }
      if (threadIdx.x < TR) {
        const int r = threadIdx.x;
        const char* row = first_row + r * row_bytes;
        if (misalignment_16(row) != 0) {
          copy_async_16(stage_at + r * STAGE_ROW_BYTES + sector_offset(row) + 16 * BODY_UNITS,
                        chunk_of(row, BODY_UNITS));
        }
      }
    }
    wait_async_copies();
    __syncthreads();
  }

  // Where the first chunk of the row starting at `row` goes in its staging row:
  // at the chunk's offset in its 32-byte sector, 0 or 16 (STAGE_SECTOR).
  static __device__ __forceinline__ unsigned sector_offset(const char* row) {
    return static_cast<unsigned>(reinterpret_cast<uintptr_t>(row)) & (STAGE_SECTOR - 16);
  }

  // Aligned 16-byte chunk `unit` of the chunks that hold the row starting at
  // `row` (masked and added unsigned: no sign extensions in the 64-bit sum).
  static __device__ __forceinline__ const char* chunk_of(const char* row, int unit) {
    const uintptr_t first = reinterpret_cast<uintptr_t>(row) & ~uintptr_t{15};
    return reinterpret_cast<const char*>(first + 16u * static_cast<unsigned>(unit));
  }

  // The piece at input row `row` and column `c` of the tile, from its staging
  // row, whose column 0 lies at the row's address modulo 32 (stage_rows):
  // `row_address` is the low 32 bits of the row's first byte's address, of which
  // only the low 5 bits count. c * E is a multiple of 4, so the piece's first word
  // is c * E + (row_address modulo 32, rounded down to a word) into the staging
  // row, and the funnel shift (8 x its argument, modulo 32) takes the rest.
  static __device__ __forceinline__ Words<W> staged_piece(const char* stage, int row, int c,
                                                          uint32_t row_address) {
    static_assert(MC * E % 4 == 0, "a micro-block starts on a word of its staging row");
    if constexpr (W == 4) {
      // 2-byte rows: a 16-byte piece from the two aligned 16-byte chunks that hold it, two
      // conflict-free 128-bit reads and a word select (the piece's first word in the
      // eight is the same for every lane of a row), not five 32-bit reads 16 bytes apart
      // a lane, four lanes to a bank: the aligned-store tile spills with those.
      static_assert(MC * E % 16 == 0 && STAGE_ROW_BYTES % 16 == 0, "16-byte aligned chunks");
      const unsigned offset = row_address & (STAGE_SECTOR - 4);
      const Segment* chunks = reinterpret_cast<const Segment*>(
          stage + row * STAGE_ROW_BYTES + c * E + (offset & 16));
      const Segment lo = chunks[0], hi = chunks[1];
      const uint32_t w8[8] = {lo.w[0], lo.w[1], lo.w[2], lo.w[3], hi.w[0], hi.w[1], hi.w[2], hi.w[3]};
      const unsigned k = (offset >> 2) & 3;  // the piece's first word in the 8
      uint32_t t[6];
#pragma unroll
      for (int j = 0; j < 6; ++j) t[j] = (k & 2) ? w8[j + 2] : w8[j];
      uint32_t x[W + 1];
#pragma unroll
      for (int j = 0; j <= W; ++j) x[j] = (k & 1) ? t[j + 1] : t[j];
      return funnel_shift<W>(x, row_address);
    } else {
      // 4- and 8-byte pieces (1-byte rows; staged skewed 2-byte rows, PIECE): W + 1 words.
      const uint32_t* words = reinterpret_cast<const uint32_t*>(
          stage + row * STAGE_ROW_BYTES + c * E + (row_address & (STAGE_SECTOR - 4)));
      uint32_t x[W + 1];
#pragma unroll
      for (int j = 0; j <= W; ++j) x[j] = words[j];
      return funnel_shift<W>(x, row_address);
    }
  }
};

}  // namespace cuda
}  // namespace gputranspose
