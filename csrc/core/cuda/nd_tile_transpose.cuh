#pragma once
// The transpose of tiles over several dims on each side (../nd_tiles.h): a block loads its
// tile's input rows - one for each output-side index, at an offset from a table - with lanes
// along the input side (contiguous in the input), and writes its output rows - one for each
// input-side index, at an offset from a second table - with lanes along the output side
// (contiguous in the output), through shared rows whose pitch makes a warp's column read
// meet every bank once. The tables (the offsets of a tile's indices, the same for every
// tile) and the batch dims travel in the kernel's parameters, read where a warp's index is
// one (a broadcast). A phase whose contiguous side is under 16 elements, and both phases
// of a block that moves a group of small tiles, run flattened (../nd_tiles.h,
// nd_group_layout): the block's threads walk (tile, rank, element) triples, the ranks a
// side's indices in the order of their offsets (rows that follow each other make one run),
// from tables and tile spans the block first copies to shared memory (an index that differs
// across a warp's lanes serializes in the parameters' constant cache). The phases are
// host-callable so that tests/cpp runs them as a block.

#include "../kernel_choice.h"
#include "../nd_tiles.h"
#include "fast_divider.h"
#include "launch_bounds.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

#if defined(__CUDACC__)
#define GPUTRANSPOSE_ND_FN __host__ __device__ inline
#else
#define GPUTRANSPOSE_ND_FN inline
#endif

namespace gputranspose {
namespace cuda {

constexpr int kNdTileThreads = kNdTileThreadsPerBlock;
constexpr int kNdTileWarps = kNdTileThreads / 32;

// A flattened phase's place: k = (tile x ranks + rank) x along + inner, `along` the
// indices of the contiguous side, `ranks` those of the other side in the order of their
// offsets. Each thread divides once for its first k, then steps by 256 with carries.
struct NdFlatWalk {
  uint32_t inner;  // index along the contiguous side
  uint32_t rank;
  uint32_t tile;   // of the block's group
};

GPUTRANSPOSE_ND_FN NdFlatWalk nd_flat_walk(uint32_t k, const FastDivider& along,
                                          const FastDivider& ranks) {
  const uint32_t rest = along.div(k);
  const uint32_t tile = ranks.div(rest);
  return {k - rest * along.divisor, rest - tile * ranks.divisor, tile};
}

// w += step, step's inner < along and rank < ranks: one carry each at most.
GPUTRANSPOSE_ND_FN void nd_flat_step(NdFlatWalk& w, const NdFlatWalk& step, uint32_t along,
                                     uint32_t ranks) {
  w.inner += step.inner;
  w.rank += step.rank;
  w.tile += step.tile;
  if (w.inner >= along) {
    w.inner -= along;
    ++w.rank;
  }
  if (w.rank >= ranks) {
    w.rank -= ranks;
    ++w.tile;
  }
}

struct NdTileParams {
  const char* in;
  char* out;
  int64_t in_out_offsets[kMaxNdSide];  // output offset (elements) of a tile's input-side index
  int64_t out_in_offsets[kMaxNdSide];  // input offset (elements) of a tile's output-side index
  // Each side's chunked outermost dim (chunks 1 where none): the chunk's offsets on both
  // sides, and the indices left in the last one.
  int64_t in_inner, out_inner;            // elements of each side's whole dims
  int64_t in_chunk, out_chunk;            // indices of the chunked dim a tile
  int64_t in_last, out_last;              // the chunked dim's size (chunk where none)
  int64_t in_chunk_in, in_chunk_out;      // input side: a chunk's offsets (elements)
  int64_t out_chunk_in, out_chunk_out;    // output side
  FastDivider in_chunks, out_chunks;
  int pitch;                              // elements between shared rows
  int batch_dims;
  FastDivider batch_sizes[kMaxNdBatchDims];
  int64_t batch_in[kMaxNdBatchDims];      // elements
  int64_t batch_out[kMaxNdBatchDims];
  // Flattened phases and groups of tiles (NdGroupLayout): uniform across a block.
  uint32_t tiles;
  uint32_t tiles_per_block;
  bool load_flat, store_flat;
  uint32_t tile_elements;                 // between a block's shared tiles
  uint32_t load_spans_at, load_ranks_at, store_ranks_at;  // shared bytes
  FastDivider in_extent, out_extent;      // each side's indices a tile
  NdFlatWalk load_step, store_step;       // 256 threads' stride in each phase's walk
  uint8_t load_order[kMaxNdSide];         // output-side indices by input offset
  uint8_t store_order[kMaxNdSide];        // input-side indices by output offset
};

// The offsets (elements) of index i of a side's tile, within the tile, in `stride`s of
// each of its dims (in or out): whole dims innermost first, then the chunked one.
inline int64_t nd_side_offset(const NdTileSide& side, int64_t i, const int64_t* strides) {
  int64_t at = 0;
  for (int d = 0; d < side.dims; ++d) {
    const int64_t size = side.chunked && d == side.dims - 1 ? side.chunk : side.sizes[d];
    at += (i % size) * strides[d];
    i /= size;
  }
  return at;
}

// The kernel's parameters at `tiles_per_block` tiles a block (the plan's, or fewer).
inline NdTileParams nd_tile_params(const NdTilePlan& plan, int64_t tiles_per_block,
                                   const void* in, void* out) {
  NdTileParams p{};
  p.in = static_cast<const char*>(in);
  p.out = static_cast<char*>(out);
  const NdTileSide& a = plan.in_side;
  const NdTileSide& b = plan.out_side;
  for (int64_t i = 0; i < a.extent; ++i) p.in_out_offsets[i] = nd_side_offset(a, i, a.out_strides);
  for (int64_t i = 0; i < b.extent; ++i) p.out_in_offsets[i] = nd_side_offset(b, i, b.in_strides);
  p.in_inner = a.inner;
  p.out_inner = b.inner;
  p.in_chunk = a.chunk;
  p.out_chunk = b.chunk;
  p.in_last = a.chunked ? a.sizes[a.dims - 1] : 1;
  p.out_last = b.chunked ? b.sizes[b.dims - 1] : 1;
  p.in_chunk_in = a.chunked ? a.chunk * a.in_strides[a.dims - 1] : 0;
  p.in_chunk_out = a.chunked ? a.chunk * a.out_strides[a.dims - 1] : 0;
  p.out_chunk_in = b.chunked ? b.chunk * b.in_strides[b.dims - 1] : 0;
  p.out_chunk_out = b.chunked ? b.chunk * b.out_strides[b.dims - 1] : 0;
  p.in_chunks = FastDivider(static_cast<uint32_t>(a.chunks));
  p.out_chunks = FastDivider(static_cast<uint32_t>(b.chunks));
  p.pitch = static_cast<int>(plan.pitch);
  p.batch_dims = plan.batch_dims;
  for (int d = 0; d < plan.batch_dims; ++d) {
    p.batch_sizes[d] = FastDivider(static_cast<uint32_t>(plan.batch_sizes[d]));
    p.batch_in[d] = plan.batch_in_strides[d];
    p.batch_out[d] = plan.batch_out_strides[d];
  }
  const NdGroupLayout l = nd_group_layout(plan, tiles_per_block);
  p.tiles = static_cast<uint32_t>(plan.tiles);
  p.tiles_per_block = static_cast<uint32_t>(tiles_per_block);
  p.load_flat = l.load_flat;
  p.store_flat = l.store_flat;
  p.tile_elements = static_cast<uint32_t>(l.tile_elements);
  p.load_spans_at = static_cast<uint32_t>(l.load_spans_at);
  p.load_ranks_at = static_cast<uint32_t>(l.load_ranks_at);
  p.store_ranks_at = static_cast<uint32_t>(l.store_ranks_at);
  p.in_extent = FastDivider(static_cast<uint32_t>(a.extent));
  p.out_extent = FastDivider(static_cast<uint32_t>(b.extent));
  p.load_step = nd_flat_walk(kNdTileThreads, p.in_extent, p.out_extent);
  p.store_step = nd_flat_walk(kNdTileThreads, p.out_extent, p.in_extent);
  // A flattened side's indices by their offset on the other side (ties cannot occur:
  // distinct indices lie apart); the 2-D phases read no order.
  if (l.load_flat) {
    std::iota(p.load_order, p.load_order + b.extent, 0);
    std::sort(p.load_order, p.load_order + b.extent,
              [&](uint8_t x, uint8_t y) { return p.out_in_offsets[x] < p.out_in_offsets[y]; });
  }
  if (l.store_flat) {
    std::iota(p.store_order, p.store_order + a.extent, 0);
    std::sort(p.store_order, p.store_order + a.extent,
              [&](uint8_t x, uint8_t y) { return p.in_out_offsets[x] < p.in_out_offsets[y]; });
  }
  return p;
}

// A block's tile: its offsets (elements) on both sides and the indices of each side it holds.
struct NdTile {
  int64_t in_base;
  int64_t out_base;
  int in_here;   // input-side indices (a prefix of the side's)
  int out_here;  // output-side indices
};

GPUTRANSPOSE_ND_FN NdTile nd_tile(const NdTileParams& p, uint32_t block) {
  NdTile t;
  uint32_t rest = p.in_chunks.div(block);
  const uint32_t ci = block - rest * p.in_chunks.divisor;
  uint32_t batch = p.out_chunks.div(rest);
  const uint32_t co = rest - batch * p.out_chunks.divisor;
  t.in_base = int64_t{ci} * p.in_chunk_in + int64_t{co} * p.out_chunk_in;
  t.out_base = int64_t{ci} * p.in_chunk_out + int64_t{co} * p.out_chunk_out;
  for (int d = 0; d < p.batch_dims; ++d) {
    const uint32_t next = p.batch_sizes[d].div(batch);
    const uint32_t i = batch - next * p.batch_sizes[d].divisor;
    t.in_base += int64_t{i} * p.batch_in[d];
    t.out_base += int64_t{i} * p.batch_out[d];
    batch = next;
  }
  const int64_t in_left = p.in_last - int64_t{ci} * p.in_chunk;
  const int64_t out_left = p.out_last - int64_t{co} * p.out_chunk;
  t.in_here = static_cast<int>(p.in_inner * (in_left < p.in_chunk ? in_left : p.in_chunk));
  t.out_here = static_cast<int>(p.out_inner * (out_left < p.out_chunk ? out_left : p.out_chunk));
  return t;
}

// Loads: warp w the tile's output-side indices w, w + 8, ..., a lane an input-side index.
template <typename T>
GPUTRANSPOSE_ND_FN void nd_tile_load(const NdTileParams& p, const NdTile& t, T* tile, int warp,
                                     int lane) {
  const T* in = reinterpret_cast<const T*>(p.in) + t.in_base;
  for (int b = warp; b < t.out_here; b += kNdTileWarps) {
    const T* row = in + p.out_in_offsets[b];
    T* to = tile + b * p.pitch;
    for (int a = lane; a < t.in_here; a += 32) to[a] = row[a];
  }
}

// Stores: warp w the tile's input-side indices w, w + 8, ..., a lane an output-side index.
template <typename T>
GPUTRANSPOSE_ND_FN void nd_tile_store(const NdTileParams& p, const NdTile& t, const T* tile,
                                      int warp, int lane) {
  T* out = reinterpret_cast<T*>(p.out) + t.out_base;
  for (int a = warp; a < t.in_here; a += kNdTileWarps) {
    T* row = out + p.in_out_offsets[a];
    for (int b = lane; b < t.out_here; b += 32) row[b] = tile[b * p.pitch + a];
  }
}

// A tile of a block's group as a phase sees it (16 bytes: one shared load).
struct alignas(16) NdTileSpan {
  int64_t base;  // input (load spans) or output (store spans) offset, elements
  int32_t in_here;
  int32_t out_here;
};
// A side's index at its rank, the order of its offsets.
struct alignas(16) NdSideRank {
  int64_t offset;  // the index's row: its input (load) or output (store) offset, elements
  int32_t index;   // of the side
  int32_t shared;  // its line of the tile: row b x pitch (load), column a (store)
};
static_assert(sizeof(NdTileSpan) == kNdSharedRecordBytes, "the plan's shared layout");
static_assert(sizeof(NdSideRank) == kNdSharedRecordBytes, "the plan's shared layout");

// A block's group of tiles in shared memory (NdGroupLayout): the tiles, their spans, and
// the ranks of each flattened side.
struct NdGroup {
  char* tiles;  // tile_elements apart
  NdTileSpan* load_spans;
  NdTileSpan* store_spans;
  NdSideRank* load_ranks;
  NdSideRank* store_ranks;
  uint32_t first;  // tile
  uint32_t count;  // tiles (the last block's may be fewer)
};

GPUTRANSPOSE_ND_FN NdGroup nd_group(const NdTileParams& p, char* shared, uint32_t block) {
  NdGroup s;
  s.tiles = shared;
  s.load_spans = reinterpret_cast<NdTileSpan*>(shared + p.load_spans_at);
  s.store_spans = s.load_spans + p.tiles_per_block;
  s.load_ranks = reinterpret_cast<NdSideRank*>(shared + p.load_ranks_at);
  s.store_ranks = reinterpret_cast<NdSideRank*>(shared + p.store_ranks_at);
  s.first = block * p.tiles_per_block;
  const uint32_t left = p.tiles - s.first;
  s.count = left < p.tiles_per_block ? left : p.tiles_per_block;
  return s;
}

// Before either phase: a thread a tile computes its spans, and the flattened sides' ranks
// come from the parameters' tables.
GPUTRANSPOSE_ND_FN void nd_group_setup(const NdTileParams& p, const NdGroup& s, int thread) {
  for (uint32_t g = thread; g < s.count; g += kNdTileThreads) {
    const NdTile t = nd_tile(p, s.first + g);
    s.load_spans[g] = {t.in_base, t.in_here, t.out_here};
    s.store_spans[g] = {t.out_base, t.in_here, t.out_here};
  }
  if (p.load_flat) {
    for (uint32_t r = thread; r < p.out_extent.divisor; r += kNdTileThreads) {
      const int b = p.load_order[r];
      s.load_ranks[r] = {p.out_in_offsets[b], b, b * p.pitch};
    }
  }
  if (p.store_flat) {
    for (uint32_t r = thread; r < p.in_extent.divisor; r += kNdTileThreads) {
      const int a = p.store_order[r];
      s.store_ranks[r] = {p.in_out_offsets[a], a, a};
    }
  }
}

// The tile of a group of one, for the 2-D phases.
GPUTRANSPOSE_ND_FN NdTile nd_group_tile(const NdGroup& s) {
  return {s.load_spans[0].base, s.store_spans[0].base, s.load_spans[0].in_here,
          s.load_spans[0].out_here};
}

// Loads, flattened where the input side is short or tiles come in groups: k over
// (tile, rank, a), rank over output-side indices by input offset; indices outside a
// partial tile are skipped.
template <typename T>
GPUTRANSPOSE_ND_FN void nd_group_load(const NdTileParams& p, const NdGroup& s, int thread) {
  T* tiles = reinterpret_cast<T*>(s.tiles);
  if (!p.load_flat) {
    nd_tile_load<T>(p, nd_group_tile(s), tiles, thread / 32, thread % 32);
    return;
  }
  const T* in = reinterpret_cast<const T*>(p.in);
  const uint32_t along = p.in_extent.divisor, ranks = p.out_extent.divisor;
  for (NdFlatWalk w = nd_flat_walk(thread, p.in_extent, p.out_extent); w.tile < s.count;
       nd_flat_step(w, p.load_step, along, ranks)) {
    const NdTileSpan span = s.load_spans[w.tile];
    const NdSideRank r = s.load_ranks[w.rank];
    if (static_cast<int>(w.inner) < span.in_here && r.index < span.out_here) {
      tiles[w.tile * p.tile_elements + r.shared + w.inner] = in[span.base + r.offset + w.inner];
    }
  }
}

// Stores, flattened where the output side is short or tiles come in groups: k over
// (tile, rank, b), rank over input-side indices by output offset.
template <typename T>
GPUTRANSPOSE_ND_FN void nd_group_store(const NdTileParams& p, const NdGroup& s, int thread) {
  const T* tiles = reinterpret_cast<const T*>(s.tiles);
  if (!p.store_flat) {
    nd_tile_store<T>(p, nd_group_tile(s), tiles, thread / 32, thread % 32);
    return;
  }
  T* out = reinterpret_cast<T*>(p.out);
  const uint32_t along = p.out_extent.divisor, ranks = p.in_extent.divisor;
  for (NdFlatWalk w = nd_flat_walk(thread, p.out_extent, p.in_extent); w.tile < s.count;
       nd_flat_step(w, p.store_step, along, ranks)) {
    const NdTileSpan span = s.store_spans[w.tile];
    const NdSideRank r = s.store_ranks[w.rank];
    if (static_cast<int>(w.inner) < span.out_here && r.index < span.in_here) {
      out[span.base + r.offset + w.inner] =
          tiles[w.tile * p.tile_elements + w.inner * p.pitch + r.shared];
    }
  }
}

#if defined(__CUDACC__)
// The 2-D phases' registers (32, 40 for 16-byte elements: 8 and 6 blocks an SM) whatever
// the flattened phases beside them would take; on SMs of 1536 threads 6 and 5 blocks (40
// and 48 registers; unbounded, the 16-byte instance spills on sm_120).
template <typename T>
__global__ void __launch_bounds__(kNdTileThreads,
                                  min_blocks_per_sm(kNdTileThreads, sizeof(T) == 16 ? 6 : 8,
                                                    sizeof(T) == 16 ? 5 : 6))
    nd_tile_transpose_kernel(const __grid_constant__ NdTileParams p) {
  extern __shared__ __align__(16) char nd_tile_smem[];
  if (!p.load_flat && !p.store_flat) {  // a tile a block, both sides a warp or longer
    const NdTile t = nd_tile(p, blockIdx.x);
    T* tile = reinterpret_cast<T*>(nd_tile_smem);
    nd_tile_load<T>(p, t, tile, threadIdx.x / 32, threadIdx.x % 32);
    __syncthreads();
    nd_tile_store<T>(p, t, tile, threadIdx.x / 32, threadIdx.x % 32);
    return;
  }
  const NdGroup s = nd_group(p, nd_tile_smem, blockIdx.x);
  nd_group_setup(p, s, threadIdx.x);
  __syncthreads();
  nd_group_load<T>(p, s, threadIdx.x);
  __syncthreads();
  nd_group_store<T>(p, s, threadIdx.x);
}
#endif

}  // namespace cuda
}  // namespace gputranspose

#undef GPUTRANSPOSE_ND_FN
