#pragma once
// Development builds' overrides of the device facts and the kernel choice (Tuning,
// kernel_choice.h), as the private ops take them: tuning = [l2_bytes, tile_group_rows,
// interleave, fallback, small_dim, unit_tile_bytes, element_runs, one_unit_tiles, wide_16,
// nd_tiles, wide_realigned, batched_small] (empty: none), and the memory's bandwidth. The
// Python side (torch_transpose/_C.py) checks their ranges.

#include "../core/kernel_choice.h"
#include "errors.h"

#include <optional>
#include <vector>

namespace gputranspose::stable {

// nullopt where `tuning` is empty (the rules' own choice).
inline std::optional<Tuning> tuning_from(const std::vector<int64_t>& tuning,
                                         double memory_bytes_per_s) {
  if (tuning.empty()) return std::nullopt;
  check_value(tuning.size() == 12, "gputranspose: tuning takes [l2_bytes, tile_group_rows, "
              "interleave, fallback, small_dim, unit_tile_bytes, element_runs, one_unit_tiles, "
              "wide_16, nd_tiles, wide_realigned, batched_small]");
  Tuning t;
  t.l2_bytes = tuning[0];
  t.memory_bytes_per_s = memory_bytes_per_s;
  t.choice.tile_group_rows = tuning[1];
  t.choice.interleave = static_cast<int>(tuning[2]);
  t.choice.fallback = static_cast<int>(tuning[3]);
  t.choice.small_dim = static_cast<int>(tuning[4]);
  t.choice.unit_tile_bytes = tuning[5];
  t.choice.element_runs = static_cast<int>(tuning[6]);
  t.choice.one_unit_tiles = static_cast<int>(tuning[7]);
  t.choice.wide_16 = static_cast<int>(tuning[8]);
  t.choice.nd_tiles = static_cast<int>(tuning[9]);
  t.choice.wide_realigned = static_cast<int>(tuning[10]);
  t.choice.batched_small = static_cast<int>(tuning[11]);
  return t;
}

}  // namespace gputranspose::stable
