#!/usr/bin/env bash
# Session w, asked of an H200 (stops at once on any other card; replaces call4.sh, which needed
# .ab at v46 alone): three trees in alternating rounds of bench_pitches.py: a = v46's kernels
# (.ab/base from `scripts/ab-bench prepare 659ab7c`), b = the working tree (v55), c = .ab/c
# (`scripts/ab-bench variant` plus experiments/v56-staged-2-byte-sector-aligned/
# staged-2-byte-skewed.diff: v56); then part 1 of the benchmark suite on tree b.
# Carry .ab; from the repository root.
set -uo pipefail
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
G=$OUT/c5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 400 scripts/ab-bench pitches --cases uint8:8191x8193 uint8:8192x8192:8209 \
  bool:8191x8193 uint8:16384x16384:16401 uint8:4096x4096:4113 uint8:1024x1024:1041 uint8:8192x8192 \
  bfloat16:8191x8193 float16:8191x8193 bfloat16:16383x16385 bfloat16:4095x4097 bfloat16:2047x2049 \
  bfloat16:8192x8192:8209 bfloat16:8192x8192
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
. scripts/gpu-build-env
export PYTHONUNBUFFERED=1
PYTHONPATH=$PWD timeout 180 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn bfloat16 float16 \
  --tag h200-part1 --out-dir $G > $G/bench-part1-h200.log 2>&1; echo "part1 rc $?"
grep -hE "^(large|small|vs |extra)" $G/bench-part1-h200.log
date -u | tee -a $G/device.txt
