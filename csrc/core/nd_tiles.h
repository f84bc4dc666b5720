#pragma once
// Tiles over several dims on each side: permutations whose fused form the tiled kernels
// cannot batch (more dims than their batch takes: all-2 and all-3 reversals) or whose
// matrices are a few elements a side among other batch dims (a 3-D reversal with a side of
// 3, transposed views). A tile's input side is the dim one element apart in the input and
// the dims packed after it (each input stride the product of the sizes before it), its
// output side the result's last dims; each side holds up to nd_side_max(E) elements, whole
// dims and then a chunk of the next one; the other dims are batch dims, one grid of tiles a
// batch. Framework-free, like the layout plan.

#include "layout_plan.h"  // NdTilePlan

#include <cstdint>

namespace gputranspose {

// The tiles of x.permute(order).contiguous() into an output at `out_alignment`.
NdTilePlan plan_nd_tiles(const StridedLayout& x, const int64_t* order, int64_t out_alignment = 256);

}  // namespace gputranspose
