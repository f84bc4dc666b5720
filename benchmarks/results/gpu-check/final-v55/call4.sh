#!/usr/bin/env bash
# Session w, asked of an H200 (stops at once on any other card): v55's A/B against HEAD (tree a,
# .ab/base; three alternating rounds of bench_pitches.py on the staged 1-byte rows and
# controls), then part 1 of the benchmark suite (1- and 2-byte types) on the v55 code.
# Carry .ab; from the repository root.
set -uo pipefail
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
G=$OUT/c4; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 240 scripts/ab-bench pitches --cases uint8:8191x8193 uint8:8192x8192:8209 \
  bool:8191x8193 float8_e4m3fn:8192x8192:8209 uint8:16384x16384:16401 uint8:8192x8193 uint8:4096x4096:4113 \
  uint8:1024x1024:1041 uint8:100x5000:5003 uint8:8191x8192 uint8:8192x8192 bfloat16:8191x8193
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
PYTHONPATH=$PWD timeout 260 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag h200-part1 --out-dir $G > $G/bench-part1-h200.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1-h200.log
date -u | tee -a $G/device.txt
