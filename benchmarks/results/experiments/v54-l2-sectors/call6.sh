#!/usr/bin/env bash
# v54 device call 6 (session w): the L1TEX side of the product's staged slice kernel and of v52's
# walk (the probe's first five launches, as in call 4): shared-memory bank conflicts of the
# cp.async copies, their instructions and bytes, requests and sectors between L1TEX and L2.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvcc -O3 -arch=sm_90 -std=c++17 benchmarks/results/experiments/v52-line-stream-walk/line_walk_probe.cu -o /tmp/lwp || exit 1
ncu --query-metrics --chip gh100 > /tmp/metrics.txt 2>&1
grep -E "^l1tex__m_" /tmp/metrics.txt | awk '{print $1}' > $OUT/l1tex-m-metric-names.txt
WANT="l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum sm__sass_inst_executed_op_ldgsts_cache_bypass.sum
sm__sass_data_bytes_mem_global_op_ldgsts_cache_bypass.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_l1tex2xbar_req.sum
l1tex__m_l1tex2xbar_write_sectors.sum lts__t_sectors_srcunit_tex_op_read.sum lts__t_requests_srcunit_tex_op_read.sum"
M=""
for m in $WANT; do base=${m%.*}; grep -q "^$base " /tmp/metrics.txt && M="$M,$m" || echo "no metric $base"; done
M=gpu__time_duration.sum$M
timeout 200 ncu --clock-control none -k 'regex:line_walk|tiled_transpose' -c 5 --metrics $M /tmp/lwp > $OUT/ncu-probe-l1b.txt 2>&1
echo "ncu rc $?"
grep -E "tiled_transpose_kernel<|line_walk\(|^ +(gpu__|lts__|l1tex__|smsp__|sm__)" $OUT/ncu-probe-l1b.txt | sed "s/(gputranspose.*//" | cut -c1-110
date -u
