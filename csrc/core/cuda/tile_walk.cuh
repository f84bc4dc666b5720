#pragma once
// Where a tiled kernel's block works: the kernel's parameters, the block's tile (one
// matrix's, or several whole small matrices'), and the window of each micro-block in it.
// Blocks walk the tiles in groups of `group_rows` tile-rows (down a group, then across;
// the kernel choice picks the group), so that the blocks in flight cover a compact patch
// of both input and output. Where input rows lie an odd multiple of 128 KiB apart the
// columns are interleaved (0, h, 1, h + 1, ... for h = half the tile columns): the few
// columns in flight at once then lie half a row apart, not side by side, which the memory
// serves faster (docs/DESIGN.md, "The tiled kernel": "The walk").

#include "fast_divider.h"
#include "outer_batch.cuh"

#include <cstdint>

namespace gputranspose {
namespace cuda {

struct TiledTransposeParams {
  const char* in;
  const char* in_end;    // one past the input's last byte
  char* out;
  int64_t batch;         // matrices
  int64_t rows;          // of each input matrix
  int64_t cols;
  int64_t batch_stride;  // input, in elements
  int64_t row_stride;    // input, in elements
  int64_t out_batch_stride;  // output, in elements
  int64_t out_row_stride;    // output, in elements
  int64_t tiles_r;       // tiles per matrix along its rows (see STEP_R)
  // The block order (above): blocks per matrix, per group of tile-rows, and
  // the tile-rows of a group and of the last, maybe shorter, group.
  FastDivider matrix_tiles;
  FastDivider group_tiles;
  FastDivider group_rows;
  FastDivider last_group_rows;
  // Batches of small matrices (a Folded kernel): log2 of the sub-tile that
  // holds one whole matrix; the tile holds (TR >> sub_rows_log2) x
  // (TC >> sub_cols_log2) matrices.
  int sub_rows_log2;
  int sub_cols_log2;
  // Interleaved tile columns (above): the walk's column k is tile column
  // (k >> interleave_shift) + (k & interleave_shift) * interleave_half, so that
  // shift 1 interleaves the halves and shift 0 (with half 0) keeps column k.
  uint32_t interleave_shift;
  uint32_t interleave_half;
  // InputL2::EvictLast: blocks from release_from on release their input lines.
  uint32_t release_from;
  // The first matrix whose last row may end within a 16-byte chunk of the input's end
  // (the last matrix, or where batches lie under 16 bytes apart the ones before it too):
  // its tiles that hold that row stop their unaligned loads at the input's end.
  uint32_t first_matrix_near_end;
  // A permutation's further batch dims (outer_batch.cuh): in and out are moved to the
  // block's outer batch before the tile walk.
  OuterBatch outer;
};

// Where the micro-block (or output segment) at tile-local input row r and
// column c lies: byte offsets of its first element in the input and in the
// output, and the element rows [row_lo, row_hi) and columns [0, col_hi),
// counted from (r, c), that lie inside its matrix.
struct Window {
  int64_t in;
  int64_t out;
  int row_lo;
  int row_hi;
  int col_hi;
};

// A tile of one matrix: input rows r0 + [rows_lo, rows_here) and columns
// c0 + [0, cols_here) (tile-local rows outside the matrix are left out).
template <int E>
struct MatrixTile {
  const TiledTransposeParams* p;
  int64_t in_tile;   // byte offsets of tile-local (0, 0); only offsets that land
  int64_t out_tile;  // inside the matrix are ever dereferenced
  int rows_lo;
  int rows_here;
  int cols_here;
  int64_t r0;        // the matrix's row of tile-local row 0 (negative: above it)
  uint32_t matrix;   // in the batch

  __device__ __forceinline__ Window at(int r, int c) const {
    return {in_tile + (r * p->row_stride + c) * E, out_tile + (c * p->out_row_stride + r) * E, rows_lo - r,
            rows_here - r, cols_here - c};
  }
};

// A tile of whole small matrices, one per 2^sub_rows_log2 x 2^sub_cols_log2
// sub-tile, matrices first .. first + count - 1 in row-major sub-tile order.
template <int E>
struct FoldedTile {
  const TiledTransposeParams* p;
  int64_t first;
  int sub_tiles_c;

  __device__ __forceinline__ Window at(int r, int c) const {
    const int64_t b = first + (r >> p->sub_rows_log2) * sub_tiles_c + (c >> p->sub_cols_log2);
    const int lr = r & ((1 << p->sub_rows_log2) - 1);
    const int lc = c & ((1 << p->sub_cols_log2) - 1);
    const bool inside = b < p->batch;
    return {(b * p->batch_stride + lr * p->row_stride + lc) * E,
            (b * p->out_batch_stride + lc * p->out_row_stride + lr) * E, -lr,
            inside ? static_cast<int>(p->rows - lr) : 0, inside ? static_cast<int>(p->cols - lc) : 0};
  }
};

}  // namespace cuda
}  // namespace gputranspose
