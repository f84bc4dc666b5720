#!/usr/bin/env bash
# v54 device call 5 (session w), asked of an H200: v52's probe (the product's staged slice kernel
# against the 2-step walk, which asks L2 for 28% fewer read sectors with the same read set),
# timed, then ncu's counts of its first five launches as in call 4. From the repository root.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp || exit 1
timeout 200 /tmp/lwp > $OUT/probe.txt 2>&1; echo "probe rc $?"
python3 benchmarks/results/experiments/v52-line-stream-walk/summarize.py $OUT/probe.txt
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
timeout 200 ncu --clock-control none -k 'regex:line_walk|tiled_transpose' -c 5 --metrics $M /tmp/lwp > $OUT/ncu-probe.txt 2>&1
echo "ncu rc $?"
grep -E "tiled_transpose_kernel<|line_walk\(|^ +(gpu__|lts__|l1tex__|smsp__)" $OUT/ncu-probe.txt | sed "s/(gputranspose.*//" | cut -c1-110
date -u
