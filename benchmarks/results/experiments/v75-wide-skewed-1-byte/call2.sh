#!/usr/bin/env bash
# v75 call 2 (session ac): after call 1's d was taken into the working tree
# (TileShape<1>::skewed_past_l2 = 128 x 256). Trees (scripts/ab-bench, carry .ab):
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v75-wide-skewed-1-byte/round2-c.diff
#   patch -p0 -d .ab/d < benchmarks/results/experiments/v75-wide-skewed-1-byte/round2-d.diff
# a = the product (HEAD), b = the working tree (the 128 x 256 tile past L2: call 1's d
# again), c = b with 16-byte write windows (LEAD 16 rows: 12.5% re-read, not 25%), d = b
# with the 128 x 256 tile under L2 too. From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v75c2; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8191x8192 \
  bool:8191x8192 uint8:16383x16384 uint8:32767x4096 uint8:2x8191x8192 uint8:8191x8192:8208 \
  uint8:8191x4096 uint8:6143x4096 uint8:4095x4096 uint8:2047x8192 uint8:8192x8192 uint8:8192x8192:8209
echo "ab rc $?"; date -u | tee -a $G/device.txt
