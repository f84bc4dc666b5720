#!/usr/bin/env bash
# v54 device call 8 (session w): is the product's excess its place in the process? ncu's counts of
# the product kernel's 2nd-4th launches (after the walks' checks: warm TLB and L2) and of the
# walks' 5th-8th launches, in v52's probe with --product-map.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp || exit 1
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum
timeout 200 ncu --clock-control none -k 'regex:tiled_transpose' -s 1 -c 3 --metrics $M /tmp/lwp --product-map > $OUT/ncu-product-later.txt 2>&1
echo "ncu rc $?"
timeout 200 ncu --clock-control none -k 'regex:line_walk' -s 4 -c 4 --metrics $M /tmp/lwp --product-map > $OUT/ncu-walk-later.txt 2>&1
echo "ncu rc $?"
for f in $OUT/ncu-product-later.txt $OUT/ncu-walk-later.txt; do
  grep -E "tiled_transpose_kernel<|line_walk\(|^ +(gpu__|lts__|l1tex__|smsp__|sm__)" $f | sed "s/(gputranspose.*//" | cut -c1-110
done
date -u
