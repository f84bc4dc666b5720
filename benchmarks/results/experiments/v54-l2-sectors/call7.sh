#!/usr/bin/env bash
# v54 device call 7 (session w): v52's probe with --product-map: the 2-step walk with its chunks
# copied by the product's staging lanes (two rows a warp, each row's last chunk by a lane of
# its own), beside its own lanes: checks and three timing rounds, then ncu's counts of the
# first five launches (the product's kernel, then these four walks) as in call 6.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp || exit 1
timeout 200 /tmp/lwp --product-map > $OUT/probe.txt 2>&1; echo "probe rc $?"
grep -c exact $OUT/probe.txt; tail -1 $OUT/probe.txt
python3 benchmarks/results/experiments/v52-line-stream-walk/summarize.py $OUT/probe.txt
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,sm__sass_inst_executed_op_ldgsts_cache_bypass.sum
timeout 200 ncu --clock-control none -k 'regex:line_walk|tiled_transpose' -c 5 --metrics $M /tmp/lwp --product-map > $OUT/ncu-probe.txt 2>&1
echo "ncu rc $?"
grep -E "tiled_transpose_kernel<|line_walk\(|^ +(gpu__|lts__|l1tex__|smsp__|sm__)" $OUT/ncu-probe.txt | sed "s/(gputranspose.*//" | cut -c1-110
date -u
