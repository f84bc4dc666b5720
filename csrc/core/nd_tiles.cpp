#include "nd_tiles.h"

#include <algorithm>

namespace gputranspose {

namespace {

NdTilePlan not_applied(const char* reason) {
  NdTilePlan p;
  p.reason = reason;
  return p;
}

// Shared rows a pitch apart whose 4-byte words (16-byte ones for 16-byte elements) are an
// odd count: the warp that reads a column of the tile, one row a lane, meets every bank once.
int64_t conflict_free_pitch(int64_t extent, int64_t e) {
  const int64_t word = e > 4 ? e : 4;
  int64_t words = (extent * e + word - 1) / word;
  if (words % 2 == 0) ++words;
  return words * word / e;
}

}  // namespace

NdTilePlan plan_nd_tiles(const StridedLayout& x, const int64_t* order, int64_t out_alignment) {
  if (x.itemsize == 0) return not_applied("the dtype is not moved by the kernels");
  if (x.ndim > kMaxDims) return not_applied("more than 64 dims");
  int64_t numel = 1;
  for (int64_t d = 0; d < x.ndim; ++d) numel *= x.sizes[d];
  if (numel == 0) return not_applied("zero-size tensor");
  int64_t sizes[kMaxDims];
  int64_t strides[kMaxDims];
  int n = fuse_result_dims(x, order, sizes, strides);
  // The trailing run that keeps its order is the element.
  int64_t element_numel = 1;
  if (n > 0 && strides[n - 1] == 1) {
    element_numel = sizes[n - 1];
    --n;
  }
  const int64_t e = x.itemsize * element_numel;
  if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16) {
    return not_applied("elements of other sizes than 1, 2, 4, 8 or 16 bytes");
  }
  if (x.address % e != 0 || out_alignment % e != 0) {
    return not_applied("a data pointer off the element");
  }
  if (n < 2) return not_applied("no dims to move besides the element");
  int64_t in_strides[kMaxDims];
  int64_t out_strides[kMaxDims];
  for (int d = 0; d < n; ++d) {
    if (strides[d] <= 0 || strides[d] % element_numel != 0) {
      return not_applied("strides that are no positive whole number of elements");
    }
    in_strides[d] = strides[d] / element_numel;
  }
  out_strides[n - 1] = 1;
  for (int d = n - 2; d >= 0; --d) out_strides[d] = out_strides[d + 1] * sizes[d + 1];

  NdTilePlan p;
  p.element_size = e;
  p.value_size = x.itemsize;
  p.bytes = numel * x.itemsize;
  const int64_t side_max = nd_side_max(e);
  bool used[kMaxDims] = {};
  // Whole dims while they fit, then a chunk of the next one where two or more of its
  // indices fit (the side's first dim always: alone it may be longer than a side).
  auto grow = [&](NdTileSide& side, auto next) {
    for (int d = next(); d >= 0 && side.dims < kMaxNdSideDims; d = next()) {
      side.sizes[side.dims] = sizes[d];
      side.in_strides[side.dims] = in_strides[d];
      side.out_strides[side.dims] = out_strides[d];
      if (side.extent * sizes[d] <= side_max) {
        ++side.dims;
        used[d] = true;
        side.inner = side.extent *= sizes[d];
        continue;
      }
      const int64_t chunk = side_max / side.extent;
      if (chunk >= 2 || side.dims == 0) {
        ++side.dims;
        used[d] = true;
        side.chunked = true;
        side.chunk = chunk;
        side.chunks = (sizes[d] + chunk - 1) / chunk;
        side.extent *= chunk;
      }
      break;
    }
  };
  // The input side: the dim one element apart in the input, then the dims packed after it.
  int first = -1;
  for (int d = 0; d < n - 1; ++d) {
    if (in_strides[d] == 1) first = d;
  }
  if (first < 0) return not_applied("no dim of the result but its last lies one element apart");
  NdTileSide& in_side = p.in_side;
  grow(in_side, [&]() {
    if (in_side.dims == 0) return first;
    for (int d = 0; d < n - 1; ++d) {
      if (!used[d] && in_strides[d] == in_side.extent) return d;
    }
    return -1;
  });
  // The output side: the result's last dims, innermost first.
  NdTileSide& out_side = p.out_side;
  grow(out_side, [&]() {
    const int d = n - 1 - out_side.dims;
    return d >= 0 && !used[d] ? d : -1;
  });
  for (int d = 0; d < n; ++d) {
    if (used[d]) continue;
    if (p.batch_dims == kMaxNdBatchDims) return not_applied("more batch dims than the kernel takes");
    p.batch_sizes[p.batch_dims] = sizes[d];
    p.batch_in_strides[p.batch_dims] = in_strides[d];
    p.batch_out_strides[p.batch_dims] = out_strides[d];
    p.batch_count *= sizes[d];
    ++p.batch_dims;
  }
  // The kernel counts tiles and batches in 31 bits (its divisions).
  p.tiles = in_side.chunks * out_side.chunks * p.batch_count;
  if (p.tiles >= (int64_t{1} << 31)) return not_applied("2^31 tiles or more");
  p.pitch = conflict_free_pitch(in_side.extent, e);
  // Tiles under 2 KiB in groups of about 4 KiB, as many as 32 KiB of shared memory hold.
  const int64_t tile_bytes = in_side.extent * out_side.extent * e;
  p.tiles_per_block = tile_bytes >= kNdGroupedTileBytes
                          ? 1
                          : std::min((kNdGroupBytes + tile_bytes - 1) / tile_bytes,
                                     kMaxNdTilesPerBlock);
  while (p.tiles_per_block > 1 &&
         nd_group_layout(p, p.tiles_per_block).shared_bytes > kNdGroupSharedBytes) {
    --p.tiles_per_block;
  }
  p.shared_bytes = nd_group_layout(p, p.tiles_per_block).shared_bytes;
  p.applies = true;
  return p;
}

NdGroupLayout nd_group_layout(const NdTilePlan& plan, int64_t tiles_per_block) {
  NdGroupLayout l;
  l.tiles_per_block = tiles_per_block;
  l.load_flat = tiles_per_block > 1 || plan.in_side.extent < kNdFlatBelow;
  l.store_flat = tiles_per_block > 1 || plan.out_side.extent < kNdFlatBelow;
  l.tile_elements = plan.out_side.extent * plan.pitch;
  int64_t at = tiles_per_block * l.tile_elements * plan.element_size;
  if (l.load_flat || l.store_flat) {
    at = (at + kNdSharedRecordBytes - 1) / kNdSharedRecordBytes * kNdSharedRecordBytes;
    l.load_spans_at = at;
    at += 2 * tiles_per_block * kNdSharedRecordBytes;
    if (l.load_flat) {
      l.load_ranks_at = at;
      at += plan.out_side.extent * kNdSharedRecordBytes;
    }
    if (l.store_flat) {
      l.store_ranks_at = at;
      at += plan.in_side.extent * kNdSharedRecordBytes;
    }
  }
  l.shared_bytes = at;
  return l;
}

}  // namespace gputranspose
