#!/usr/bin/env bash
# v60 device call 1 (session x), on whichever card comes: the staging copies' L2 prefetch size.
# v58 calls 5-6 and v54 call 1 found the 256-byte hint behind most of the staged rows' excess
# sectors through the L2 fabric. Trees: a = the product (256 B; .ab/base from `scripts/ab-bench
# prepare HEAD`), b = the working tree with prefetch-128B.diff (`.L2::128B`), c = the same with
# `.L2::64B` (`scripts/ab-bench variant`, edited). Three alternating rounds of
# bench_pitches.py, then ncu's L2 counts of each tree. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c1; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 300 scripts/ab-bench pitches --cases uint8:8191x8193 bool:8191x8193 \
  float8_e4m3fn:8191x8193 uint8:8192x8192:8209 bool:8192x8192:8209 uint8:16384x16384:16401 \
  uint8:4096x4096:4113 uint8:1024x1024:1041 uint8:8192x8192
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
. scripts/gpu-build-env
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_requests_srcunit_tex_op_read.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
for t in a b c; do
  root=$PWD; [ $t = a ] && root=$PWD/.ab/base; [ $t = c ] && root=$PWD/.ab/c
  PYTHONPATH=$root timeout 90 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
    python3 benchmarks/profile_cases.py copyproxy_64M odd_u8 slice_u8 > $G/ncu-$t.txt 2>&1; echo "ncu $t rc $?"
done
python3 benchmarks/results/experiments/v54-l2-sectors/ncu_table.py $G/ncu-a.txt $G/ncu-b.txt $G/ncu-c.txt | tee $G/table.txt
date -u | tee -a $G/device.txt
