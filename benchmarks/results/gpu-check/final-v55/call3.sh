#!/usr/bin/env bash
# Session w, v55's product code on an H100: the A/B against HEAD (tree a, .ab/base from
# `scripts/ab-bench prepare HEAD`; three alternating rounds of bench_pitches.py), the two
# >2^31-element tests that call 2's "-k huge" left out (1-byte rows, odd pitches: the staged
# kernels), then part 1 of the benchmark suite (1- and 2-byte types, where v55's kernels are).
# Carry .ab; from the repository root.
set -uo pipefail
G=$OUT/c3; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 240 scripts/ab-bench pitches --cases uint8:8191x8193 uint8:8192x8192:8209 \
  bool:8191x8193 float8_e4m3fn:8192x8192:8209 uint8:16384x16384:16401 uint8:8192x8193 uint8:4096x4096:4113 \
  uint8:1024x1024:1041 uint8:100x5000:5003 uint8:8191x8192 uint8:8192x8192 bfloat16:8191x8193
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
. scripts/gpu-build-env
GPUTRANSPOSE_HUGE=1 GPUTRANSPOSE_REQUIRE_CUDA=1 PYTHONPATH=$PWD timeout 150 python3 -m pytest tests/test_reliability.py \
  -k "2_pow" -v -p no:cacheprovider > $G/pytest-huge.log 2>&1; echo "huge tests rc $?"
grep -E "PASS|FAIL|ERROR|passed|failed" $G/pytest-huge.log | tail -4
export PYTHONUNBUFFERED=1
PYTHONPATH=$PWD timeout 260 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag h100-part1 --out-dir $G > $G/bench-part1-h100.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1-h100.log
date -u | tee -a $G/device.txt
