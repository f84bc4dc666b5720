#pragma once
// What the kernel choice needs to know about a device. The CUDA launcher reads them
// from the runtime once per device (launch.h: query_device_facts); tests and explain()
// may pass others, to see what a different device would run.

#include <cstdint>

namespace gputranspose {

struct DeviceFacts {
  int sm_count = 0;
  int64_t l2_bytes = 0;
  double memory_bytes_per_s = 0;  // DRAM bandwidth: 2 x memory clock x bus width
  // Blocks of the small-tile kernels (Tiling::Small, 1- and 16-byte elements) that the
  // whole device holds at once: occupancy x SMs.
  int64_t small_tile_blocks_1 = 0;
  int64_t small_tile_blocks_16 = 0;
};

}  // namespace gputranspose
