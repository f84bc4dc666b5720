#pragma once
// An H100 SXM's device facts (132 SMs, 50 MiB of L2, 3.35 TB/s), for the host tests of the
// kernel choice and of the kernels it sizes.
#include "core/device_facts.h"

namespace gputranspose {

inline DeviceFacts h100() {
  DeviceFacts facts;
  facts.sm_count = 132;
  facts.l2_bytes = 50 << 20;
  facts.memory_bytes_per_s = 3.35e12;
  facts.small_tile_blocks_1 = 132 * 4;
  facts.small_tile_blocks_16 = 132 * 4;
  return facts;
}

}  // namespace gputranspose
