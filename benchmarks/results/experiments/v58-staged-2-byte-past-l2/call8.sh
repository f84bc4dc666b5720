#!/usr/bin/env bash
# v58 device call 8 (session x): call 7 with v60's 128-byte staging prefetch as its fourth tree,
# on whichever card comes (through call 3: on an H200 only). Trees:
# a = v46's kernels (.ab/base from `scripts/ab-bench prepare 659ab7c`), b = the product (v55),
# c = v58 (`scripts/ab-bench variant` plus staged-2-byte-past-l2.diff), d = the product with the
# staging copies' prefetch at 128 bytes, not 256 (`scripts/ab-bench variant d` plus
# ../v60-staging-prefetch-size/prefetch-128B.diff: a sixth fewer L2-fabric sectors, v60).
# Three alternating rounds of bench_pitches.py; on an H200 then part 1 of the benchmark
# suite on tree b. Carry .ab; from the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
G=$OUT/c8; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 400 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8191x8192:8209 bfloat16:5375x5377 bfloat16:4095x4097 bfloat16:2047x2049 \
  bfloat16:8192x8192:8209 bfloat16:8191x8192 uint8:8191x8193 bool:8191x8193 uint8:8192x8192:8209 \
  uint8:16384x16384:16401 uint8:4096x4096:4113 uint8:8192x8192
echo "ab rc $?"; date -u; rm -f $G/ab/device.txt
case "$name" in
  *H200*)
    . scripts/gpu-build-env
    export PYTHONUNBUFFERED=1
    PYTHONPATH=$PWD timeout 170 python3 benchmarks/bench_transpose.py --dtypes uint8 bool float8_e4m3fn \
      bfloat16 float16 --tag h200-part1 --out-dir $G > $G/bench-part1-h200.log 2>&1; echo "part1 rc $?"
    grep -hE "^(large|small|vs |extra)" $G/bench-part1-h200.log ;;
esac
date -u | tee -a $G/device.txt
