#!/usr/bin/env bash
# v86 probe, call 2: is the cost the walk or the new code path? (call2/*.diff)
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   (working tree = HEAD + b.diff; .ab/c and .ab/d = it + c-over-b.diff / d-over-b.diff)
# a = the product; b = the product's order through the new path (mode 4);
# c = mode 2 (consecutive blocks half a column apart, as call 1's c);
# d = the same build with the new path off (mode 0).
# One-matrix kernels with even tile counts each way. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v86c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 300 scripts/ab-bench pitches --reps 30 --rounds 3 --cases \
  uint8:8192x8192 bfloat16:8192x8192 uint8:16384x16384 uint8:8192x8192:8209 float32:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
