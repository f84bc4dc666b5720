#!/usr/bin/env bash
# Session z, call 5, on an H200 only (elsewhere it stops at once), after call 4 on the same
# machine: the A/B of ../../experiments/h200-questions/ (README there; carry .ab): trees a
# (v46's kernels), b (the product), c (2-byte rows past L2 staged on the H200 too), d (the
# staging prefetch at 128 bytes), three alternating rounds of bench_pitches.py over the odd
# and sliced 1- and 2-byte rows. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"; case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 3 ;; esac
G=$OUT/c5; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $G/device.txt; date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 560 scripts/ab-bench pitches --cases bfloat16:8191x8193 float16:8191x8193 \
  bfloat16:16383x16385 bfloat16:8192x8192:8209 bfloat16:4095x4097 bfloat16:8191x8192 uint8:8191x8193 \
  bool:8191x8193 uint8:8192x8192:8209 uint8:16384x16384:16401 uint8:4096x4096:4113 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
