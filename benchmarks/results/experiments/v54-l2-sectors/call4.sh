#!/usr/bin/env bash
# v54 device call 4 (session w): where the product's staged slice kernel asks for more L2 read
# sectors than v52's walk with the same read set: the L1TEX side of its cp.async copies
# (requests, sectors, instructions) for the probe's first five launches (as call 3).
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp || exit 1
ncu --query-metrics --chip gh100 > /tmp/metrics.txt 2>&1
grep -iE "ldgsts|lsu_mem_global_op_ld\b" /tmp/metrics.txt | awk '{print $1}' | head -40 > $OUT/ldgsts-metric-names.txt
WANT="lts__t_sectors_srcunit_tex_op_read.sum lts__t_requests_srcunit_tex_op_read.sum smsp__inst_executed_op_ldgsts.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_l1tex2xbar_req.sum smsp__inst_executed_op_global_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum smsp__inst_executed_op_shared_ld.sum"
M=""
for m in $WANT; do base=${m%.*}; grep -q "^$base " /tmp/metrics.txt && M="$M,$m" || echo "no metric $base"; done
M=gpu__time_duration.sum$M
echo "metrics: $M"
timeout 200 ncu --clock-control none -k 'regex:line_walk|tiled_transpose' -c 5 --metrics $M /tmp/lwp > $OUT/ncu-probe-l1.txt 2>&1
echo "ncu rc $?"
grep -E "tiled_transpose_kernel<|line_walk\(|^ +(gpu__|lts__|l1tex__|smsp__)" $OUT/ncu-probe-l1.txt | sed "s/(gputranspose.*//" | cut -c1-110
date -u
