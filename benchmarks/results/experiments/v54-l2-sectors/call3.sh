#!/usr/bin/env bash
# v54 device call 3 (session w): ncu's L2 sector counts of v52's probe kernels on the suite's
# uint8 slice (8192 x 8209[:, :-17]): the product's staged kernel as the probe launches it,
# then the 2-step walk reading whole lines and only the window's chunks, both orders (the
# probe's first five launches: its checks). From the repository root.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp || exit 1
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,smsp__inst_executed.sum
timeout 200 ncu --clock-control none -k 'regex:line_walk|tiled_transpose' -c 5 --metrics $M /tmp/lwp > $OUT/ncu-probe.txt 2>&1
echo "ncu rc $?"
grep -E "line_walk|tiled_transpose_kernel|sectors_srcunit_tex_op_read|requests_srcunit|gpu__time" $OUT/ncu-probe.txt | sed 's/(gputranspose.*//' | cut -c1-110
date -u
