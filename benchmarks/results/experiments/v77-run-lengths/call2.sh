#!/usr/bin/env bash
# v77 call 2 (session ac): call 1's staged 2-byte aligned-store tile at 128 x 128 elements
# (TileShape<2>::staged_loaded), taken into the working tree, over more of its shapes; and
# the word-shifted 2-byte aligned-store tile at 128 x 128 too (under L2 on an H100). Trees:
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && rm -rf .ab/d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v77-run-lengths/call2-c.diff
# (the working tree is HEAD plus call2-b.diff). a = the product (v75), b = the working
# tree, c = b with the word-shifted 2-byte aligned-store tile 128 x 128 as well. From the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v77c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --reps 30 --rounds 3 --cases bfloat16:8192x8192:8209 \
  float16:8192x8192:8209 bfloat16:16384x16384:16401 bfloat16:8192x8193 bfloat16:16384x16385 \
  bfloat16:32768x4097 bfloat16:4096x32769 bfloat16:2x8192x8193 bfloat16:4096x4096:4105 \
  bfloat16:2048x8192:8201 bfloat16:4096x4097 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
