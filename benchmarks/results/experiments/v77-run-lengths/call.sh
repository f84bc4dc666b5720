#!/usr/bin/env bash
# v77 (session ac): more of v75's question, whether input runs outweigh re-read rows, on
# three kernels. Trees (scripts/ab-bench, carry .ab), prepared here with:
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v77-run-lengths/c.diff
#   patch -p0 -d .ab/d < benchmarks/results/experiments/v77-run-lengths/d.diff
# a = the product (v75), b = the same code (a control),
# c = two changes on disjoint kernels: the skewed 1-byte tile with aligned loads past L2 at
#     256 x 256, 512 threads, two blocks a SM (64 registers; v75 measured it at 1024
#     threads); and the staged 2-byte aligned-store tile (the H100's 2-byte slices) at
#     128 x 128 elements rather than 64 x 256 (256-byte runs both sides, not 512 in and
#     128 out; 58 registers),
# d = the skewed 2-byte tile with aligned loads (bfloat16 8191 x 8192) at 128 x 256
#     elements rather than 256 x 128 (512-byte input runs, 16 re-read rows of 128, not 256).
# From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v77; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8191x8192 \
  bool:8191x8192 uint8:16383x16384 uint8:32767x4096 bfloat16:8192x8192:8209 float16:8192x8192:8209 \
  bfloat16:16384x16384:16401 bfloat16:8191x8192 float16:8191x8192 bfloat16:16383x16384 \
  bfloat16:4095x32768 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
