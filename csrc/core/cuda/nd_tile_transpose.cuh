#pragma once
// The transpose of tiles over several dims on each side (../nd_tiles.h): a block loads its
// tile's input rows - one for each output-side index, at an offset from a table - with lanes
// along the input side (contiguous in the input), and writes its output rows - one for each
// input-side index, at an offset from a second table - with lanes along the output side
// (contiguous in the output), through shared rows whose pitch makes a warp's column read
// meet every bank once. The tables (the offsets of a tile's indices, the same for every
// tile) and the batch dims travel in the kernel's parameters, read where a warp's index is
// one (a broadcast). The phases are host-callable so that tests/cpp runs them as a block.

#include "../kernel_choice.h"
#include "../nd_tiles.h"
#include "fast_divider.h"

#include <cuda_runtime.h>

#include <cstdint>

#if defined(__CUDACC__)
#define GPUTRANSPOSE_ND_FN __host__ __device__ inline
#else
#define GPUTRANSPOSE_ND_FN inline
#endif

namespace gputranspose {
namespace cuda {

constexpr int kNdTileThreads = kNdTileThreadsPerBlock;
constexpr int kNdTileWarps = kNdTileThreads / 32;

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

inline NdTileParams nd_tile_params(const NdTilePlan& plan, const void* in, void* out) {
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

#if defined(__CUDACC__)
template <typename T>
__global__ void __launch_bounds__(kNdTileThreads)
    nd_tile_transpose_kernel(const __grid_constant__ NdTileParams p) {
  extern __shared__ __align__(16) char nd_tile_smem[];
  const NdTile t = nd_tile(p, blockIdx.x);
  T* tile = reinterpret_cast<T*>(nd_tile_smem);
  nd_tile_load<T>(p, t, tile, threadIdx.x / 32, threadIdx.x % 32);
  __syncthreads();
  nd_tile_store<T>(p, t, tile, threadIdx.x / 32, threadIdx.x % 32);
}
#endif

}  // namespace cuda
}  // namespace gputranspose

#undef GPUTRANSPOSE_ND_FN
