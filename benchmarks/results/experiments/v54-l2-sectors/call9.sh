#!/usr/bin/env bash
# v54 device call 9 (session w): do the copies' shared-memory destinations matter? ncu's counts of
# the first five launches on the 8210-byte rows (v52's probe shape 2, whose even pitch turns on
# the ring's rotation: each 16-row group's ring moved 16 bytes a group, so that a line no longer
# lands on a 128-byte-aligned stretch of its ring row), against shape 0 (no rotation).
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp || exit 1
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
for shape in 2 0; do
  timeout 200 ncu --clock-control none -k 'regex:line_walk|tiled_transpose' -c 5 --metrics $M /tmp/lwp --product-map $shape > $OUT/ncu-shape$shape.txt 2>&1
  echo "ncu shape $shape rc $?"
  grep -E "^check|tiled_transpose_kernel<|line_walk\(|^ +(gpu__|lts__|l1tex__)" $OUT/ncu-shape$shape.txt | sed "s/(gputranspose.*//" | cut -c1-110
done
date -u
