#pragma once
// Tiles over several dims on each side: permutations whose fused form the tiled kernels
// cannot batch (more dims than their batch takes: all-2 and all-3 reversals) or whose
// matrices are a few elements a side among other batch dims (a 3-D reversal with a side of
// 3, transposed views). A tile's input side is the dim one element apart in the input and
// the dims packed after it (each input stride the product of the sizes before it), its
// output side the result's last dims; each side holds up to nd_side_max(E) elements, whole
// dims and then a chunk of the next one; the other dims are batch dims, one grid of tiles a
// batch. Tiles under 2 KiB move in groups, several a block. Framework-free, like the layout
// plan.

#include "layout_plan.h"  // NdTilePlan

#include <cstdint>

namespace gputranspose {

// The tiles of x.permute(order).contiguous() into an output at `out_alignment`.
NdTilePlan plan_nd_tiles(const StridedLayout& x, const int64_t* order, int64_t out_alignment = 256);

// A phase whose contiguous side is under half a warp's 32 elements runs flattened: the
// block's threads walk the tile's (index, element) pairs, so that every lane works (a
// flattened element costs two shared reads beside its move: sides of 16 or more keep a warp
// a row). Tiles under 2 KiB go several a block, both phases flattened over its tiles too.
// Tiles the rule took before either (both sides of 16 bytes or more, 2 KiB or more) keep
// the 2-D phases where their sides hold 16 elements or more.
constexpr int64_t kNdFlatBelow = 16;
constexpr int64_t kNdGroupedTileBytes = 2048;  // smaller tiles go in groups
constexpr int64_t kNdGroupBytes = 4096;        // a group's tiles move at least this
constexpr int64_t kMaxNdTilesPerBlock = 64;
constexpr int64_t kNdGroupSharedBytes = 32 * 1024;  // a group's shared memory, at most
constexpr int64_t kNdSharedRecordBytes = 16;  // a tile's span, a side index's rank

// A block's shared memory at `tiles_per_block` tiles: its tiles back to back; where a
// phase runs flattened, each tile's span for the load and for the store (bases and the
// indices it holds), then each flattened side's indices in the order of their offsets.
struct NdGroupLayout {
  int64_t tiles_per_block = 1;
  bool load_flat = false;
  bool store_flat = false;
  int64_t tile_elements = 0;  // between a block's tiles
  int64_t load_spans_at = 0;  // bytes; the store spans follow them
  int64_t load_ranks_at = 0;
  int64_t store_ranks_at = 0;
  int64_t shared_bytes = 0;
};
NdGroupLayout nd_group_layout(const NdTilePlan& plan, int64_t tiles_per_block);

}  // namespace gputranspose
