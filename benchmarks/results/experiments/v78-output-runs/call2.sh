#!/usr/bin/env bash
# v78 call 2 (session ac): call 1's two tiles together, four rounds, over the suite's
# 8192-row shapes of their kernels and taller ones: whether they can replace the product's
# tiles outright (level on 8192 rows) or not. Trees (scripts/ab-bench, carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && rm -rf .ab/d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v78-output-runs/call2-c.diff
# a = the product (v77), b = the same code (a control), c = the staged 1-byte aligned-store
# tile 256 x 128 and the word-shifted 4-byte aligned-store tile 128 x 64 elements.
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v78c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=4 OUT=$G timeout 540 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8192x8192:8209 \
  bool:8192x8192:8209 uint8:8192x8193 uint8:16384x16384:16401 uint8:32768x4097 uint8:65536x2049 \
  float32:8192x8192:8209 float32:8192x8193 float32:16384x16384:16401 float32:32768x4097 \
  float32:4096x32769 uint8:4096x32769
echo "ab rc $?"; date -u | tee -a $G/device.txt
