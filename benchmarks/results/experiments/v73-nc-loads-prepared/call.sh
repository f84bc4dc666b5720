#!/usr/bin/env bash
# v73 (prepared in session ab, not yet run): the non-coherent load path for aligned loads, the
# likeliest difference between v71's prototype (1.9-2.3% faster than the product on the
# rectangular uint8 rows past L2) and v72's product kernel (level). Trees (scripts/ab-bench,
# carry .ab), prepared here (not on the GPU machine) with:
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   patch -p1 -d .ab/c < benchmarks/results/experiments/v73-nc-loads-prepared/nc-aligned-loads.diff
#   patch -p1 -d .ab/d < benchmarks/results/experiments/v73-nc-loads-prepared/word-block-nc-csrc.diff
# a = the product, b = the same code (a control), c = the tiled kernels' aligned loads through
# ld.global.nc (plain and evict_last), d = v72's word-block kernel with __ldg loads. Three
# alternating rounds of bench_pitches.py (about 3 minutes with the builds). From the
# repository root.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v73; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 400 scripts/ab-bench pitches --reps 30 --rounds 3 --cases uint8:8192x8192 \
  uint8:16384x16384 uint8:4096x32768 uint8:32768x4096 uint8:2048x65536 uint8:32x2048x2048 \
  uint8:8191x8192 uint8:8192x8192:8209 bfloat16:8192x8192 bfloat16:8191x8192 float32:8192x8192 \
  float64:8192x8192 uint8:4096x4096
echo "ab rc $?"; date -u | tee -a $G/device.txt
