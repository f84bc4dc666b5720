#!/usr/bin/env bash
# v79 (prepared in session ac, not run): v78's tall tiles for two more kernels of rows that
# start anywhere under aligned stores, where the output's rows are 16384 elements or more.
# Trees (scripts/ab-bench, carry .ab), prepared with:
#   scripts/ab-bench prepare HEAD && scripts/ab-bench variant c && scripts/ab-bench variant d
#   patch -p0 -d .ab/c < benchmarks/results/experiments/v79-tall-tiles-prepared/c.diff
#   patch -p0 -d .ab/d < benchmarks/results/experiments/v79-tall-tiles-prepared/d.diff
# a = the product (v78), b = the same code (a control),
# c = tall tiles for the staged 2-byte kernel (the H100's past L2): 256 x 64 elements rather
#     than v77's 128 x 128 (512-byte output runs, 128-byte input runs; 72 KiB, 59 registers),
# d = tall tiles for the word-shifted 8-byte kernel: 128 x 32 rather than 64 x 64 (1 KiB
#     output runs, 256-byte input runs; 64 registers).
# Compiled in session ac (nvcc 13.0, sm_90): 49 kernels each, 0 spills. From the
# repository root; about 3 minutes of device time.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
G=$OUT/v79; mkdir -p $G
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader | tee $G/device.txt
date -u | tee -a $G/device.txt
AB_ROUNDS=3 OUT=$G timeout 500 scripts/ab-bench pitches --reps 30 --rounds 3 --cases bfloat16:32768x4097 \
  bfloat16:16384x16384:16401 bfloat16:16384x8193 float16:32768x4097 bfloat16:8192x8192:8209 \
  float64:32768x4097 float64:16384x16384:16401 complex64:32768x4097 float64:8192x8192:8209 \
  uint8:12288x12288:12305 float32:12288x12288:12305 uint8:8192x8192
echo "ab rc $?"; date -u | tee -a $G/device.txt
