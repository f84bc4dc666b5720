#!/usr/bin/env bash
# v75 (session ac): the skewed 1-byte kernel with aligned loads past L2 (8191 x 8192 and
# the like: rows aligned, output rows starting anywhere) 256 bytes wide instead of 128, so
# that its input runs are 256 bytes as the aligned kernel's are. Trees (scripts/ab-bench,
# carry .ab), prepared here with:
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v75-wide-skewed-1-byte/c-256x256-1024-threads.diff
#   patch -p0 -d .ab/d < benchmarks/results/experiments/v75-wide-skewed-1-byte/d-128x256-512-threads.diff
# a = the product, b = the same code (a control), c = 256 x 256 tiles at 1024 threads, two
# blocks a SM (32 registers), d = 128 x 256 at 512 threads, four a SM (32 registers; 25% of
# rows re-read, not 12.5%). From the repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v75; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8191x8192 \
  bool:8191x8192 float8_e4m3fn:8191x8192 uint8:16383x16384 uint8:4095x32768 uint8:32767x4096 \
  uint8:8191x8192:8208 uint8:2x8191x8192 uint8:8192x8192 uint8:8192x8192:8209 bfloat16:8191x8192 uint8:4095x4096
echo "ab rc $?"; date -u | tee -a $G/device.txt
