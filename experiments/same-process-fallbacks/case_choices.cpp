// The kernel choice for the H100 (tests/cpp/h100_facts.h), one layout a line of stdin:
//   itemsize storage_offset_bytes ndim sizes... strides... order...
// prints "kernel|fallback reason|kernel with fallback=0|out_row_stride|element_size|
// tile_utilization|past_l2" (kernel empty where ATen's copy runs).
#include "core/kernel_choice.h"
#include "core/layout_plan.h"
#include "h100_facts.h"

#include <iostream>
#include <sstream>
#include <string>

using namespace gputranspose;

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    int64_t itemsize = 0, offset = 0, ndim = 0;
    in >> itemsize >> offset >> ndim;
    int64_t sizes[kMaxDims], strides[kMaxDims], order[kMaxDims];
    for (int64_t i = 0; i < ndim; ++i) in >> sizes[i];
    for (int64_t i = 0; i < ndim; ++i) in >> strides[i];
    for (int64_t i = 0; i < ndim; ++i) in >> order[i];
    const StridedLayout x{ndim, sizes, strides, itemsize,
                          static_cast<uintptr_t>(0x7f0000000000 + offset)};
    const TransposePlan plan = plan_permute(x, order);
    const KernelChoice rule = choose_kernel(plan, h100());
    ChoiceOverrides tiles;
    tiles.fallback = 0;
    const KernelChoice kept = choose_kernel(plan, h100(), tiles);
    const bool past_l2 = plan.outer_count * plan.batch * plan.rows * plan.cols *
                             plan.element_size > h100().l2_bytes;
    std::cout << kernel_name(rule) << "|" << (rule.fallback_reason ? rule.fallback_reason : "")
              << "|" << kernel_name(kept) << "|" << plan.out_row_stride << "|"
              << plan.element_size << "|" << kept.tile_utilization << "|" << past_l2 << "\n";
  }
}
