#include "core/kernel_choice.h"
#include "core/layout_plan.h"
#include <cstdio>
#include <iostream>
#include <vector>
using namespace gputranspose;
// stdin: ndim itemsize offset d0 d1 sizes... strides...
int main() {
  DeviceFacts f; f.sm_count=132; f.l2_bytes=62914560; f.memory_bytes_per_s=4.8e12; f.small_tile_blocks_1=528; f.small_tile_blocks_16=528;
  int64_t n, item, off, d0, d1;
  while (std::cin >> n >> item >> off >> d0 >> d1) {
    std::vector<int64_t> s(n), st(n);
    for (auto& v : s) std::cin >> v;
    for (auto& v : st) std::cin >> v;
    StridedLayout l{n, s.data(), st.data(), item, (uintptr_t)(0x7f0000000000 + off * item)};
    TransposePlan p = plan_transpose(l, {d0, d1, false});
    KernelChoice c = choose_kernel(p, f);
    printf("%s %ld %d %d %ld %ld %ld %ld %s\n", path_name(p.path), (long)c.blocks, c.tile_rows, c.tile_cols, (long)p.batch, (long)p.rows, (long)p.cols, (long)p.element_size, kernel_name(c).c_str());
  }
}
