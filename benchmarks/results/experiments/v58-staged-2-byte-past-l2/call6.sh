#!/usr/bin/env bash
# v58 device call 6 (session x), on whichever card comes: v58 with and without the staging
# copies' L2 prefetch hint for 2-byte rows. Call 5 found v58's staged 2-byte rows asking the
# L2 fabric for 26% more sectors than the word-shifted loads (odd_bf16 6.20M against 4.94M),
# and v54 call 1 found the hint behind the staged 1-byte rows' fabric excess; 2-byte word
# loads carry no hint (v18: it made them 0.7-3.6% slower on an H200). Trees: a = v58
# (.ab/base: `scripts/ab-bench prepare HEAD` plus staged-2-byte-past-l2.diff), b = the product,
# c = v58 with the hint off for 2-byte staging (.ab/c: `scripts/ab-bench variant` plus both
# diffs, no-hint-2-byte-staging.diff on top). Three alternating rounds of bench_pitches.py,
# then ncu's L2 counts of tree c. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/c6; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 300 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8191x8192:8209 bfloat16:5375x5377 bfloat16:4095x4097 uint8:8191x8193 \
  uint8:8192x8192:8209 bfloat16:8192x8192
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
. scripts/gpu-build-env
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_requests_srcunit_tex_op_read.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
for t in a c; do
  root=$PWD/.ab/base; [ $t = c ] && root=$PWD/.ab/c
  PYTHONPATH=$root timeout 90 ncu --clock-control none -k 'regex:tiled_transpose|vectorized_elementwise' --metrics $M \
    python3 benchmarks/profile_cases.py copyproxy_64M odd_u8 odd_bf16 > $G/ncu-$t.txt 2>&1; echo "ncu $t rc $?"
done
python3 benchmarks/results/experiments/v54-l2-sectors/ncu_table.py $G/ncu-a.txt $G/ncu-c.txt | tee $G/table.txt
date -u | tee -a $G/device.txt
